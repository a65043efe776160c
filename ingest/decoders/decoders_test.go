package decoders_test

import (
	"context"
	"os"
	"testing"

	"github.com/dasch-labs/dasch/ingest"
	"github.com/dasch-labs/dasch/ingest/assetstate"
	"github.com/dasch-labs/dasch/ingest/bubblegumtree"
	"github.com/dasch-labs/dasch/ingest/compressedstate"
	"github.com/dasch-labs/dasch/ingest/decoders"
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
	if len(full.Decoders) != 3 || len(full.Steps) != 2 || !stepped {
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

	var assets ingest.Config
	if err := decoders.Configure(ctx, s, &assets, decoders.Options{AssetsOnly: true}); err != nil {
		t.Fatal(err)
	}
	if len(assets.Decoders) != 2 || len(assets.Steps) != 1 {
		t.Fatalf("assets only: %d decoders, %d steps", len(assets.Decoders), len(assets.Steps))
	}
	if _, ok := assets.Decoders[0].(assetstate.Decoder); !ok {
		t.Errorf("decoder %T, want digital assets", assets.Decoders[0])
	}
	if _, ok := assets.Decoders[1].(bubblegumtree.Decoder); !ok {
		t.Errorf("decoder %T, want Bubblegum tree nodes", assets.Decoders[1])
	}

	if err := decoders.Configure(ctx, s, nil, decoders.Options{}); err == nil {
		t.Error("no error without a config")
	}
}
