package compressed_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/dasch-labs/dasch/chain/light"
	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/store"
)

// BenchmarkOwnerPages lists pages of 1000 accounts of a large owner and
// of the token program (2M token accounts in two trees, none spent), the
// first page and a page after a cursor: the cost of listing by leaf
// index, which reads the owner's rows whole where hash order could stop
// at the page's end.
func BenchmarkOwnerPages(b *testing.B) {
	ctx := context.Background()
	s := storetest.Open(b)
	program := compressed.Key(light.CompressedTokenProgram())
	owner := key(77)
	gen := func(n int, tokens bool, who compressed.Key, salt int) {
		err := s.Exec(ctx, `INSERT INTO compressed_accounts (hash, tree, queue, tree_type, leaf_index, slot_created, owner,
			lamports, is_token, mint, token_owner, amount, token_state)
			SELECT toFixedString(concat(sipHash128(number, {salt:UInt64}), sipHash128(number + 1, {salt:UInt64})), 32),
				toFixedString(if(number % 2 = 0, repeat('a', 32), repeat('b', 32)), 32), toFixedString(repeat('q', 32), 32), 1,
				intDiv(number, 2), 0, {owner:FixedString(32)}, number, {tok:Bool},
				toFixedString(repeat('m', 32), 32), toFixedString(repeat('o', 32), 32), 1, 1
			FROM numbers({n:UInt64})`,
			store.Params{"n": strconv.Itoa(n), "owner": string(who[:]), "tok": map[bool]string{true: "true", false: "false"}[tokens], "salt": strconv.Itoa(salt)})
		if err != nil {
			b.Fatal(err)
		}
	}
	gen(2_000_000, true, program, 1)
	gen(200_000, false, owner, 2)
	for _, c := range []struct {
		name  string
		owner compressed.Key
	}{{"owner of 200k", owner}, {"token program of 2M", program}} {
		first, err := compressed.AccountsByOwner(ctx, s, c.owner, compressed.OwnerPage{Limit: 1000})
		if err != nil || len(first) != 1000 {
			b.Fatalf("%d accounts, %v", len(first), err)
		}
		cursor := first[len(first)-1].Hash
		b.Run(c.name+"/first page", func(b *testing.B) {
			for b.Loop() {
				if _, err := compressed.AccountsByOwner(ctx, s, c.owner, compressed.OwnerPage{Limit: 1000}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/after a cursor", func(b *testing.B) {
			for b.Loop() {
				if _, err := compressed.AccountsByOwner(ctx, s, c.owner, compressed.OwnerPage{Limit: 1000, After: &cursor}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
