package source

import (
	"bytes"
	"encoding/base64"
	stdjson "encoding/json"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/dasch-labs/dasch/chain/solana"
)

func zstdB64(t testing.TB, data []byte) string {
	enc, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(enc.EncodeAll(data, nil))
}

// The account of an answer round-trips into the pipeline's account JSON,
// in either encoding.
func TestAccountEntry(t *testing.T) {
	d, err := newAccountDecoder()
	if err != nil {
		t.Fatal(err)
	}
	data := bytes.Repeat([]byte{1, 2, 3}, 100)
	for _, raw := range []string{
		`{"lamports":7,"owner":"TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA","data":["` + base64.StdEncoding.EncodeToString(data) + `","base64"],"space":300,"rentEpoch":18446744073709552000}`,
		`{"lamports":7,"owner":"TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA","data":["` + zstdB64(t, data) + `","base64+zstd"],"executable":false}`,
	} {
		a, err := d.account([]byte(raw))
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		pk := solana.Pubkey{9}
		acc, err := solana.ParseAccount(itemJSON(pk, a, 5, 6))
		if err != nil {
			t.Fatal(err)
		}
		if acc.Pubkey != pk || acc.Lamports != 7 || acc.Owner != tokenProgram || !bytes.Equal(acc.Data, data) || acc.Slot != 5 || acc.WriteVersion != 6 {
			t.Errorf("round trip gave %+v", acc)
		}
	}
	// A zstd frame inflating past the largest account is refused.
	if _, err := d.account([]byte(`{"lamports":1,"owner":"11111111111111111111111111111111","data":["` +
		zstdB64(t, make([]byte, maxAccountData+1)) + `","base64+zstd"]}`)); err == nil {
		t.Error("an account larger than an account can be was accepted")
	}
}

func FuzzAccountEntry(f *testing.F) {
	f.Add([]byte(`{"lamports":1,"owner":"TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA","data":["AQI=","base64"],"space":2}`))
	f.Add([]byte(`{"pubkey":"TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA","account":{"lamports":1,"owner":"11111111111111111111111111111111","data":["KLUv/SAEIQAAAQIDBA==","base64+zstd"]}}`))
	f.Add([]byte(`{"lamports":-1,"owner":null,"data":[1,2]}`))
	f.Add([]byte(`null`))
	d, err := newAccountDecoder()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if a, err := d.account(raw); err == nil && (a == nil || len(a.Data) > maxAccountData) {
			t.Fatalf("accepted %v", a)
		}
		if k, a, err := d.keyed(raw); err == nil {
			if _, perr := solana.ParseAccount(itemJSON(k, a, 1, 1)); perr != nil {
				t.Fatalf("accepted an account the pipeline cannot read: %v", perr)
			}
		}
	})
}

func FuzzListing(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":{"context":{"slot":5},"value":[null,{"lamports":1}]}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":{"context":{"slot":5},"value":{"accounts":[{"pubkey":"x","account":{}}],"paginationKey":"abc","totalResults":3}}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":{"accounts":[],"paginationKey":null}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":[[[[[[[]]]]]]]}`))
	f.Add([]byte(`{"result":{"value":{"value":{"value":[]}}}}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		lim := &entryLimit{r: bytes.NewReader(raw)}
		dec := stdjson.NewDecoder(lim)
		var l listing
		n := 0
		_ = walkAnswer(dec, lim, func(dec *stdjson.Decoder) error {
			return walkListing(dec, lim, &l, func(entry []byte, _ uint64) error {
				n++
				if !stdjson.Valid(entry) {
					t.Fatalf("entry %q is not JSON", entry)
				}
				return nil
			})
		})
		if n != l.accounts {
			t.Fatalf("%d entries, listing counted %d", n, l.accounts)
		}
	})
}
