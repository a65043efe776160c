package parsedtx_test

import (
	"context"
	"os"
	"testing"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/chain/parsed"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest"
	"github.com/dasch-labs/dasch/ingest/decode"
	"github.com/dasch-labs/dasch/ingest/decoders"
	"github.com/dasch-labs/dasch/ingest/parsedtx"
	"github.com/dasch-labs/dasch/ingest/source"
	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/store"
)

func TestMain(m *testing.M) {
	code := m.Run()
	storetest.Close()
	os.Exit(code)
}

const (
	demoBlock = "../../testdata/demo/blocks/270893658.json"
	wsolSig   = "5whvTFEiavmYiwLcsVYvmpUkWj8JXKumQJYbas97tLYX6QRedrjgVJRjL3phMqSZ7akcaCxuMTCuh21zNbjBMFqv"
	// The owner of both token accounts of wsolSig.
	wsolOwner = "CyZuD7RPDcrqCGbNvLCyqk6Py9cEZTKmNKujfPi3ynDd"
)

// TestIngest runs the demo block through ingest: every non-vote
// transaction is stored parsed, as Parse answers, and filed under each of
// its keys and token owners, in block order.
func TestIngest(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	cfg := ingest.Config{Store: s, Source: source.NewFileList([]string{demoBlock})}
	if err := decoders.Configure(ctx, s, &cfg, decoders.Options{}); err != nil {
		t.Fatal(err)
	}
	for range 2 { // a second run changes nothing
		if _, err := ingest.Run(ctx, cfg); err != nil {
			t.Fatal(err)
		}
	}
	q := func(sql string, p store.Params) [][]any {
		t.Helper()
		res, err := s.Query(ctx, sql, p)
		if err != nil {
			t.Fatal(err)
		}
		return res.Rows
	}
	votes := q(`SELECT countIf(is_vote), countIf(NOT is_vote) FROM transactions FINAL`, nil)[0]
	parsedN := q(`SELECT count() FROM parsed_transactions FINAL`, nil)[0][0].(uint64)
	if parsedN != votes[1].(uint64) || parsedN == 0 || votes[0].(uint64) == 0 {
		t.Fatalf("%d parsed, want the %d non-vote transactions (%d votes)", parsedN, votes[1], votes[0])
	}

	sig, err := solana.ParseSignature(wsolSig)
	if err != nil {
		t.Fatal(err)
	}
	rows := q(`SELECT parsed, slot, tx_index FROM parsed_transactions FINAL WHERE signature = {s:FixedString(64)}`, store.Params{"s": string(sig[:])})
	if len(rows) != 1 {
		t.Fatalf("%d rows for %s", len(rows), wsolSig)
	}
	raw, err := os.ReadFile(demoBlock)
	if err != nil {
		t.Fatal(err)
	}
	_, entries, err := solana.ParseBlock(raw, 270893658)
	if err != nil {
		t.Fatal(err)
	}
	var want []byte
	for i, e := range entries {
		tx, err := solana.ParseTx(e)
		if err != nil {
			t.Fatal(err)
		}
		if tx.Signature() == sig {
			tx.TxIndex = uint32(i)
			want, _ = json.Marshal(parsed.Parse(tx))
			if rows[0][2].(uint32) != uint32(i) {
				t.Errorf("tx_index %d, want %d", rows[0][2], i)
			}
		}
	}
	if rows[0][0].(string) != string(want) || rows[0][1].(uint64) != 270893658 {
		t.Errorf("stored parse differs from Parse:\n%s\n%s", rows[0][0], want)
	}

	owner := solana.MustParsePubkey(wsolOwner)
	hist := q(`SELECT signature FROM address_transactions FINAL WHERE address = {a:FixedString(32)} ORDER BY slot, tx_index`,
		store.Params{"a": string(owner[:])})
	if len(hist) != 1 || hist[0][0].(string) != string(sig[:]) {
		t.Errorf("token owner history %d rows, want %s", len(hist), wsolSig)
	}
	// Every key of every parsed transaction is filed once.
	dup := q(`SELECT count() FROM (SELECT address, slot, tx_index, count() c FROM address_transactions GROUP BY ALL HAVING c > 1 AND uniqExact(signature) > 1)`, nil)
	if dup[0][0].(uint64) != 0 {
		t.Errorf("%d addresses with two transactions at one position", dup[0][0])
	}
	keys := q(`SELECT sum(length(arrayDistinct(account_keys))) FROM transactions FINAL WHERE NOT is_vote`, nil)[0][0].(uint64)
	filed := q(`SELECT count() FROM address_transactions FINAL`, nil)[0][0].(uint64)
	if filed < keys {
		t.Errorf("%d address entries, fewer than the %d account keys", filed, keys)
	}
	if bad := q(`SELECT count() FROM address_transactions a LEFT ANTI JOIN parsed_transactions p USING signature`, nil)[0][0].(uint64); bad != 0 {
		t.Errorf("%d address entries without a parsed transaction", bad)
	}
}

func TestDecodeTx(t *testing.T) {
	k := func(b byte) solana.Pubkey { return solana.Pubkey{b} }
	var sig solana.Signature
	sig[0] = 9
	tx := &solana.Tx{Slot: 5, TxIndex: 2, Signatures: []solana.Signature{sig}, AccountKeys: []solana.Pubkey{k(1), k(2), k(1)},
		Instructions: []solana.Instruction{{ProgramID: k(2), Accounts: []uint8{0}}}}
	for _, tc := range []struct {
		name      string
		edit      func(*solana.Tx)
		rows, ads int
	}{
		{"keys once each", func(*solana.Tx) {}, 1, 2},
		{"votes are left out", func(tx *solana.Tx) { tx.IsVote = true }, 0, 0},
		{"no signature", func(tx *solana.Tx) { tx.Signatures = nil }, 0, 0},
		{"token owners that are not keys", func(tx *solana.Tx) {
			tx.Raw = []byte(`{"meta":{"preTokenBalances":[{"accountIndex":1,"mint":"` + k(5).String() + `","owner":"` + k(7).String() +
				`","uiTokenAmount":{"amount":"1","decimals":0}}],"postTokenBalances":[{"accountIndex":1,"mint":"` + k(5).String() +
				`","owner":"` + k(8).String() + `","uiTokenAmount":{"amount":"1","decimals":0}}]}}`)
		}, 1, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := *tx
			tc.edit(&c)
			var out decode.Batch
			if err := (parsedtx.Decoder{}).DecodeTx(&c, &out); err != nil {
				t.Fatal(err)
			}
			var rows, ads int
			for _, r := range out.Rows() {
				switch r := r.(type) {
				case *parsedtx.ParsedRow:
					rows++
					if r.Slot != 5 || r.TxIndex != 2 || r.Signature != sig || !json.Valid(r.Parsed) {
						t.Errorf("row %+v", r)
					}
				case *parsedtx.AddressRow:
					ads++
				}
			}
			if rows != tc.rows || ads != tc.ads {
				t.Errorf("%d parsed rows, %d address rows; want %d, %d", rows, ads, tc.rows, tc.ads)
			}
		})
	}
}
