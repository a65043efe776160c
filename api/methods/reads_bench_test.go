package methods_test

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"

	"github.com/mr-tron/base58"

	"github.com/dasch-labs/dasch/api/methods"
	"github.com/dasch-labs/dasch/checkpoint"
	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/server/jsonrpc"
	"github.com/dasch-labs/dasch/store"
)

// BenchmarkStampedReads answers the point reads and lists that bound
// themselves by their stamp, over a store whose rows are all at or below
// the checkpoint (the steady state): 200k compressed accounts (token
// accounts of one owner among them), 200k compression signatures and
// 100k folded assets.
func BenchmarkStampedReads(b *testing.B) {
	ctx := context.Background()
	dir := b.TempDir()
	owner := assetKey(8)
	coreFile(b, dir, assetKey(1), owner, 10)
	s := storetest.Open(b)
	index(b, s, dir)
	exec := func(sql string, p store.Params) {
		if err := s.Exec(ctx, sql, p); err != nil {
			b.Fatalf("%s: %v", sql, err)
		}
	}
	const accounts, sigs, assets = 200_000, 200_000, 100_000
	hash := `toFixedString(concat(sipHash128(number, 1), sipHash128(number, 2)), 32)`
	exec(`INSERT INTO compressed_accounts (hash, tree, queue, tree_type, leaf_index, slot_created, owner, lamports,
		is_token, mint, token_owner, amount, token_state)
		SELECT `+hash+`, toFixedString(repeat('a', 32), 32), toFixedString(repeat('q', 32), 32), 1, number,
			number % 1000, toFixedString(repeat('p', 32), 32), number, number % 100 = 0,
			toFixedString(repeat('m', 32), 32), toFixedString(repeat('o', 32), 32), 1, 1
		FROM numbers({n:UInt64})`, store.Params{"n": strconv.Itoa(accounts)})
	cols := `hash, tree, queue, tree_type, leaf_index, slot_created, owner, lamports, is_token, mint, token_owner, amount, token_state`
	exec(`INSERT INTO token_accounts (`+cols+`, spent, spent_slot) SELECT `+cols+`, false, 0 FROM compressed_accounts WHERE is_token`, nil)
	exec(`INSERT INTO compression_signatures (slot, signature, block_time)
		SELECT number % 1000, toFixedString(concat(sipHash128(number, 3), sipHash128(number, 4), sipHash128(number, 5),
			sipHash128(number, 6)), 64), 0 FROM numbers({n:UInt64})`, store.Params{"n": strconv.Itoa(sigs)})
	exec(`INSERT INTO asset_docs SELECT toFixedString(concat(sipHash128(number, 7), sipHash128(number, 8)), 32),
		number % 1000, d.status, d.error, d.doc FROM asset_docs AS d, numbers({n:UInt64}) AS n`, store.Params{"n": strconv.Itoa(assets)})
	if err := checkpoint.Write(ctx, s, 1000); err != nil {
		b.Fatal(err)
	}
	keys := func(sql string, n int) []string {
		res, err := s.Query(ctx, sql+` LIMIT `+strconv.Itoa(n), nil)
		if err != nil {
			b.Fatal(err)
		}
		out := make([]string, len(res.Rows))
		for i := range res.Rows {
			r := res.Row(i)
			out[i] = base58.Encode([]byte(r.Str(0)))
		}
		return out
	}
	hashes := keys(`SELECT hash FROM compressed_accounts ORDER BY sipHash64(hash)`, 100)
	ids := keys(`SELECT id FROM asset_docs ORDER BY sipHash64(id)`, 100)
	list := func(k string, vs []string) string {
		out, _ := json.Marshal(map[string][]string{k: vs})
		return string(out)
	}
	reg := methods.New(methods.Options{Methods: methods.All, Store: s, Slots: checkpoint.NewSlotCache(s, 0)})
	for _, c := range []call{
		{"getAsset", `{"id":"` + ids[0] + `"}`},
		{"getAssetBatch", list("ids", ids)},
		{"getCompressedAccount", `{"hash":"` + hashes[0] + `"}`},
		{"getMultipleCompressedAccounts", list("hashes", hashes)},
		{"getLatestCompressionSignatures", `{"limit":1000}`},
		{"getCompressedTokenAccountsByOwner", `{"owner":"` + base58.Encode([]byte("oooooooooooooooooooooooooooooooo")) + `"}`},
	} {
		h, _ := reg.Lookup(c.method)
		call := &jsonrpc.Call{Method: c.method, Params: json.RawMessage(c.params)}
		if _, err := h(ctx, call); err != nil {
			b.Fatalf("%s: %v", c.method, err)
		}
		b.Run(c.method, func(b *testing.B) {
			for b.Loop() {
				if _, err := h(ctx, call); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
