package decoders_test

import (
	"context"
	"os"
	"testing"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest"
	"github.com/dasch-labs/dasch/ingest/assetstate"
	"github.com/dasch-labs/dasch/ingest/bubblegumtree"
	"github.com/dasch-labs/dasch/ingest/compressedstate"
	"github.com/dasch-labs/dasch/ingest/decoders"
	"github.com/dasch-labs/dasch/ingest/parsedtx"
	"github.com/dasch-labs/dasch/ingest/solbalances"
	"github.com/dasch-labs/dasch/internal/storetest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	storetest.Close()
	os.Exit(code)
}

func TestConfigure(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)

	var full ingest.Config
	stepped := false
	if err := decoders.Configure(ctx, s, &full, decoders.Options{Step: func(*compressedstate.StateStep) { stepped = true }}); err != nil {
		t.Fatal(err)
	}
	if len(full.Decoders) != 5 || len(full.Steps) != 2 || !stepped {
		t.Fatalf("default set: %d decoders, %d steps, step option applied %v", len(full.Decoders), len(full.Steps), stepped)
	}
	if _, ok := full.Decoders[0].(*compressedstate.Decoder); !ok {
		t.Errorf("first decoder %T, want compressed state", full.Decoders[0])
	}
	if _, ok := full.Decoders[1].(assetstate.Decoder); !ok {
		t.Errorf("second decoder %T, want digital assets", full.Decoders[1])
	}
	if _, ok := full.Decoders[2].(bubblegumtree.Decoder); !ok {
		t.Errorf("third decoder %T, want Bubblegum tree nodes", full.Decoders[2])
	}
	if _, ok := full.Decoders[3].(solbalances.Decoder); !ok {
		t.Errorf("fourth decoder %T, want native balances", full.Decoders[3])
	}
	if _, ok := full.Decoders[4].(parsedtx.Decoder); !ok {
		t.Errorf("fifth decoder %T, want parsed events", full.Decoders[4])
	}

	var assets ingest.Config
	if err := decoders.Configure(ctx, s, &assets, decoders.Options{AssetsOnly: true}); err != nil {
		t.Fatal(err)
	}
	if len(assets.Decoders) != 4 || len(assets.Steps) != 1 {
		t.Fatalf("assets only: %d decoders, %d steps", len(assets.Decoders), len(assets.Steps))
	}
	if _, ok := assets.Decoders[0].(assetstate.Decoder); !ok {
		t.Errorf("decoder %T, want digital assets", assets.Decoders[0])
	}
	if _, ok := assets.Decoders[1].(bubblegumtree.Decoder); !ok {
		t.Errorf("decoder %T, want Bubblegum tree nodes", assets.Decoders[1])
	}

	var unparsed ingest.Config
	if err := decoders.Configure(ctx, s, &unparsed, decoders.Options{NoParsedEvents: true}); err != nil {
		t.Fatal(err)
	}
	for _, d := range unparsed.Decoders {
		if _, ok := d.(parsedtx.Decoder); ok {
			t.Error("parsed events decoder configured with NoParsedEvents")
		}
	}

	if err := decoders.Configure(ctx, s, nil, decoders.Options{}); err == nil {
		t.Error("no error without a config")
	}
}

func TestInterest(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	tests := []struct {
		name       string
		opts       decoders.Options
		owners     []string
		txPrograms []string
		notTx      []string
	}{
		{
			name: "full",
			owners: []string{
				"TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA", "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb",
				"metaqbxxUerdq28cj1RbAWkYQm3ybzjb6a8bt518x1s", "CoREENxT6tW1HoK8ypY1SxRMZTcVPm7R94rH4PZNhX7d",
				"1DREGFgysWYxLnRnKQnwrxnJQeSMk2HmGaC6whw2B2p", "inscokhJarcjaEs59QbQ7hYjrKz25LEPRfCbP8EmdUp",
			},
			txPrograms: []string{
				"BGUMAp9Gq7iTEuizy4pqaxsTyUCBK68MDfK752saRPUY", "compr6CUsB5m2jS4Y3831ztGSTnDpnKJTKS95d64XVq",
				"SySTEM1eSU2p4BGQfQpimFEWWSC1XDFeun3Nqzz3rT7",
			},
		},
		{
			name:       "assets only",
			opts:       decoders.Options{AssetsOnly: true},
			owners:     []string{"TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"},
			txPrograms: []string{"BGUMAp9Gq7iTEuizy4pqaxsTyUCBK68MDfK752saRPUY"},
			notTx:      []string{"compr6CUsB5m2jS4Y3831ztGSTnDpnKJTKS95d64XVq"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var cfg ingest.Config
			if err := decoders.Configure(ctx, s, &cfg, tc.opts); err != nil {
				t.Fatal(err)
			}
			in := decoders.Interest(&cfg)
			has := func(keys []solana.Pubkey, s string) bool {
				for _, k := range keys {
					if k.String() == s {
						return true
					}
				}
				return false
			}
			for _, o := range tc.owners {
				if !has(in.AccountOwners, o) {
					t.Errorf("account owners lack %s", o)
				}
			}
			for _, p := range tc.txPrograms {
				if !has(in.TxPrograms, p) {
					t.Errorf("transaction programs lack %s", p)
				}
			}
			for _, p := range tc.notTx {
				if has(in.TxPrograms, p) {
					t.Errorf("transaction programs hold %s", p)
				}
			}
			seen := map[solana.Pubkey]bool{}
			for _, k := range in.TxPrograms {
				if seen[k] {
					t.Errorf("%s twice", k)
				}
				seen[k] = true
			}
		})
	}
}
