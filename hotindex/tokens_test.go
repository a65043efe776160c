package hotindex_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/dasch-labs/dasch/chain/light"
	"github.com/dasch-labs/dasch/checkpoint"
	"github.com/dasch-labs/dasch/hotindex"
	"github.com/dasch-labs/dasch/ingest/compressedstate"
	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// tokenKey is key i of a kind, its first byte spread so owners fall in
// many load chunks.
func tokenKey(kind byte, i int) compressed.Key {
	var k compressed.Key
	k[0] = byte(i*53) ^ kind
	k[1] = kind
	k[31] = byte(i)
	return k
}

const (
	kOwner byte = iota + 1
	kMint
	kHash
	kDeleg
	kTree
	kAddr
	kDataHash
)

// tokenAccount is one output as the decoder stores it.
type tokenAccount struct {
	hash, owner, mint int
	slot              uint64
	delegate          int // 0: none
	seq               bool
	address           bool
	tlv               string // "" none
	rawData           string // stored data that the token columns do not rebuild
}

func hexKey(k compressed.Key) string { return fmt.Sprintf("unhex('%x')", k[:]) }

func (a tokenAccount) insert() string {
	seq, addr, del, tlv, data := "NULL", "NULL", "NULL", "NULL", "NULL"
	if a.seq {
		seq = strconv.Itoa(a.hash * 3)
	}
	if a.address {
		addr = hexKey(tokenKey(kAddr, a.hash))
	}
	if a.delegate != 0 {
		del = hexKey(tokenKey(kDeleg, a.delegate))
	}
	if a.tlv != "" {
		tlv = "'" + a.tlv + "'"
	}
	if a.rawData != "" {
		data = "'" + a.rawData + "'"
	}
	program := compressed.Key(light.CompressedTokenProgram())
	return fmt.Sprintf(`(%s, %s, %s, %d, %d, %s, %v, %d, toFixedString('sig', 8), %s, %d, %s, 2, %s, %s, true, %s, %s, %d, %s, %d, %s)`,
		hexKey(tokenKey(kHash, a.hash)), hexKey(tokenKey(kTree, a.hash%2)), hexKey(tokenKey(kTree, 10+a.hash%2)), 1+a.hash%2,
		a.hash*7, seq, a.hash%3 == 0, a.slot, hexKey(program), a.hash*11, addr, data, hexKey(tokenKey(kDataHash, a.hash)),
		hexKey(tokenKey(kMint, a.mint)), hexKey(tokenKey(kOwner, a.owner)), 1000+a.hash, del, a.hash%2, tlv)
}

// tokenWorld writes outputs and spends and runs the ingest's state step
// over each range before moving the checkpoint, as the ingester does.
type tokenWorld struct {
	t    *testing.T
	s    arrowstore.Store
	step *compressedstate.StateStep
}

func (w *tokenWorld) commit(ctx context.Context, accounts []tokenAccount, spends map[int]uint64, from, to uint64) {
	w.t.Helper()
	var stmts []string
	if len(accounts) > 0 {
		vals := make([]string, len(accounts))
		for i, a := range accounts {
			vals[i] = a.insert()
		}
		stmts = append(stmts, `INSERT INTO compressed_accounts (hash, tree, queue, tree_type, leaf_index, seq, in_output_queue,
			slot_created, sig_prefix, owner, lamports, address, discriminator, data, data_hash, is_token, mint, token_owner, amount,
			delegate, token_state, tlv) VALUES `+strings.Join(vals, ","))
	}
	for h, slot := range spends {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO compressed_spent (hash, slot, signature, block_time) VALUES (%s, %d, toFixedString('spend', 64), 9)`,
			hexKey(tokenKey(kHash, h)), slot))
	}
	for _, q := range stmts {
		if err := w.s.Exec(ctx, q, nil); err != nil {
			w.t.Fatal(err)
		}
	}
	if err := w.step.Apply(ctx, w.s, from, to); err != nil {
		w.t.Fatal(err)
	}
	q := `INSERT INTO ` + schema.TableCheckpoints + ` (name, slot) VALUES ('` + schema.CheckpointMain + `', ` + strconv.FormatUint(to, 10) + `)`
	if err := w.s.Exec(ctx, q, nil); err != nil {
		w.t.Fatal(err)
	}
}

// comparePages walks every page of every owner and delegate (limits 1, 2
// and 1000, with and without each mint filter) through the index and the
// query layer at the index's slot, and fails on any difference. It
// returns how many owners the index served.
func comparePages(t *testing.T, ctx context.Context, s arrowstore.Store, x *hotindex.Tokens, owners, delegates, mints int) int {
	t.Helper()
	served := 0
	filters := []*compressed.Key{nil}
	for m := 0; m < mints; m++ {
		k := tokenKey(kMint, m)
		filters = append(filters, &k)
	}
	walk := func(what string, who compressed.Key, hot func(compressed.Key, compressed.TokenPage) ([]compressed.Account, uint64, bool, error),
		cold func(context.Context, store.Querier, compressed.Key, compressed.TokenPage) ([]compressed.Account, error)) bool {
		for _, limit := range []uint64{1, 2, 1000} {
			for _, mint := range filters {
				p := compressed.TokenPage{Limit: limit, Mint: mint}
				for n := 0; ; n++ {
					got, slot, ok, err := hot(who, p)
					if err != nil {
						t.Fatalf("%s %x: %v", what, who[:2], err)
					}
					if !ok {
						return false
					}
					p.AsOf = &slot
					want, err := cold(ctx, s, who, p)
					if err != nil {
						t.Fatal(err)
					}
					if (len(got) > 0 || len(want) > 0) && !reflect.DeepEqual(got, want) {
						t.Fatalf("%s %x limit %d mint %v page %d:\n got %+v\nwant %+v", what, who[:2], limit, mint != nil, n, got, want)
					}
					if uint64(len(got)) < limit {
						break
					}
					last := got[len(got)-1]
					p.After = &compressed.TokenCursor{Mint: last.Mint, Hash: last.Hash}
				}
			}
		}
		return true
	}
	for o := 0; o <= owners; o++ { // one more: an owner with nothing
		if walk("owner", tokenKey(kOwner, o), x.ByOwner, compressed.TokenAccountsByOwner) {
			served++
		}
	}
	for d := 1; d <= delegates; d++ {
		walk("delegate", tokenKey(kDeleg, d), x.ByDelegate, compressed.TokenAccountsByDelegate)
	}
	return served
}

// TestTokensMatchQueryLayer checks that the token account index answers
// every page as the query layer does at the index's slot: after a load,
// after syncs that create and spend accounts (a spend indexed before its
// output, an account stored twice, extensions, addresses, data the token
// columns do not rebuild), and with a budget that leaves owners and
// delegates to the store.
func TestTokensMatchQueryLayer(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	w := &tokenWorld{t: t, s: s, step: compressedstate.NewStateStep()}
	const owners, mints, delegates = 9, 3, 2

	x := hotindex.NewTokens(s, hotindex.DefaultTokenBudget)
	if err := x.Load(ctx); err != nil {
		t.Fatal(err)
	}
	if _, _, ok, err := x.ByOwner(tokenKey(kOwner, 0), compressed.TokenPage{Limit: 1}); !ok || !errors.Is(err, checkpoint.ErrNotIndexed) {
		t.Fatalf("before any checkpoint: ok %v err %v, want ErrNotIndexed", ok, err)
	}

	var first []tokenAccount
	for h := 1; h <= 40; h++ {
		a := tokenAccount{hash: h, owner: h % owners, mint: h % mints, slot: uint64(1 + h%10), seq: h%4 != 0}
		if h%3 == 0 {
			a.delegate = 1 + h%delegates
		}
		a.address = h%7 == 0
		if h%5 == 0 {
			a.tlv = "ext" + strconv.Itoa(h)
		}
		if h == 11 {
			a.rawData = "not token data"
		}
		first = append(first, a)
	}
	w.commit(ctx, first, nil, 1, 10)

	// Loaded before any checkpoint: the first sync reads from slot 0.
	if err := x.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if st := x.Stats(); st.Accounts != 40 || st.Slot != 10 {
		t.Fatalf("synced from nothing: %+v, want 40 accounts at slot 10", st)
	}
	comparePages(t, ctx, s, x, owners, delegates, mints)

	// Loaded over existing state (the first sync starts from the slot
	// after the load's).
	x = hotindex.NewTokens(s, hotindex.DefaultTokenBudget)
	if err := x.Load(ctx); err != nil {
		t.Fatal(err)
	}
	if st := x.Stats(); st.Accounts != 40 || !st.Complete || st.Slot != 10 {
		t.Fatalf("loaded: %+v, want 40 accounts, complete, slot 10", st)
	}
	comparePages(t, ctx, s, x, owners, delegates, mints)

	steps := []struct {
		name     string
		accounts []tokenAccount
		spends   map[int]uint64
		from, to uint64
	}{
		{"spends and outputs", []tokenAccount{
			{hash: 41, owner: 1, mint: 0, slot: 12, delegate: 1, tlv: "gone"}, // spent in the same range
			{hash: 42, owner: 2, mint: 2, slot: 14, tlv: "x"},
			{hash: 42, owner: 2, mint: 2, slot: 14, tlv: "x"}, // stored twice
			{hash: 43, owner: 9, mint: 1, slot: 15},           // a new owner
		}, map[int]uint64{3: 12, 5: 13, 9: 15, 41: 16, 50: 18}, 11, 20},
		// The spend of 50 (slot 18) was indexed before its output (slot
		// 17, created before it was spent), which a later run re-ingesting
		// from slot 11 brings.
		{"late output", []tokenAccount{
			{hash: 50, owner: 4, mint: 0, slot: 17, delegate: 2},
			{hash: 51, owner: 4, mint: 0, slot: 23},
		}, map[int]uint64{1: 25, 2: 25}, 11, 30},
		{"nothing of tokens", nil, nil, 31, 40},
	}
	for _, st := range steps {
		w.commit(ctx, st.accounts, st.spends, st.from, st.to)
		if err := x.Sync(ctx); err != nil {
			t.Fatal(err)
		}
		if got := x.Stats().Slot; got != st.to {
			t.Fatalf("%s: slot %d, want %d", st.name, got, st.to)
		}
		comparePages(t, ctx, s, x, owners+1, delegates, mints)
	}
	// 40 + 41, 42, 43, 51 - 3, 5, 9, 41, 1, 2 (50 was spent before it came).
	if st := x.Stats(); st.Accounts != 38 || st.Owners != owners+1 {
		t.Fatalf("after syncs: %+v, want 38 accounts of %d owners", st, owners+1)
	}
	// The syncs kept the same books as a load of the same state: nothing
	// left behind (an extension of an account spent in its own range).
	fresh := hotindex.NewTokens(s, hotindex.DefaultTokenBudget)
	if err := fresh.Load(ctx); err != nil {
		t.Fatal(err)
	}
	if got, want := x.Stats(), fresh.Stats(); got != want {
		t.Fatalf("synced %+v, loaded %+v", got, want)
	}

	// Half the budget covers a prefix of the owners; delegates go to the
	// store.
	full := x.Stats().Bytes
	half := hotindex.NewTokens(s, full/2)
	if err := half.Load(ctx); err != nil {
		t.Fatal(err)
	}
	if st := half.Stats(); st.Complete || st.Accounts == 0 || st.Accounts >= 38 {
		t.Fatalf("half budget: %+v, want a part of the accounts", st)
	}
	if n := comparePages(t, ctx, s, half, owners+1, delegates, mints); n == 0 || n > owners {
		t.Fatalf("half budget served %d of %d owners, want some", n, owners+2)
	}
	if _, _, ok, _ := half.ByDelegate(tokenKey(kDeleg, 1), compressed.TokenPage{Limit: 1}); ok {
		t.Fatal("half budget served a delegate")
	}
}

// TestTokensLoadAgain: a load run again (as serve retries one that failed
// part way) starts over: an account spent since the first is not listed,
// and the counts are those of a fresh index.
func TestTokensLoadAgain(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	w := &tokenWorld{t: t, s: s, step: compressedstate.NewStateStep()}
	var accounts []tokenAccount
	for h := 1; h <= 12; h++ {
		accounts = append(accounts, tokenAccount{hash: h, owner: h % 4, mint: h % 3, slot: uint64(1 + h%5), delegate: h % 2})
	}
	w.commit(ctx, accounts, nil, 1, 10)
	x := hotindex.NewTokens(s, hotindex.DefaultTokenBudget)
	if err := x.Load(ctx); err != nil {
		t.Fatal(err)
	}
	if st := x.Stats(); st.Accounts != 12 {
		t.Fatalf("first load: %+v, want 12 accounts", st)
	}
	w.commit(ctx, nil, map[int]uint64{5: 12}, 11, 20)
	if err := x.Load(ctx); err != nil {
		t.Fatal(err)
	}
	fresh := hotindex.NewTokens(s, hotindex.DefaultTokenBudget)
	if err := fresh.Load(ctx); err != nil {
		t.Fatal(err)
	}
	if got, want := x.Stats(), fresh.Stats(); got != want || got.Accounts != 11 {
		t.Fatalf("loaded again: %+v, want %+v (11 accounts)", got, want)
	}
	comparePages(t, ctx, s, x, 4, 2, 3)
}

// TestTokensFollowRewrites: a backfill below the indexed slot (a new
// owner's account, a spend of a listed account, an output whose spend
// was indexed first) does not move the checkpoint, so the index reads it
// only once the ingest logs the range as rewritten; then every page
// matches the query layer again.
func TestTokensFollowRewrites(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	w := &tokenWorld{t: t, s: s, step: compressedstate.NewStateStep()}
	const owners, mints, delegates = 4, 2, 2
	var accounts []tokenAccount
	for h := 1; h <= 12; h++ {
		accounts = append(accounts, tokenAccount{hash: h, owner: h % owners, mint: h % mints, slot: uint64(1 + h%5), delegate: h % 3})
	}
	// Slots 20 to 30 were indexed first; the spend of 21 (slot 25) came
	// before its output.
	w.commit(ctx, accounts, map[int]uint64{21: 25}, 20, 30)
	x := hotindex.NewTokens(s, hotindex.DefaultTokenBudget)
	if err := x.Load(ctx); err != nil {
		t.Fatal(err)
	}
	newOwner := tokenKey(kOwner, 7)
	page := func() int {
		t.Helper()
		items, _, ok, err := x.ByOwner(newOwner, compressed.TokenPage{Limit: 10})
		if !ok || err != nil {
			t.Fatalf("new owner's page: ok %v err %v", ok, err)
		}
		return len(items)
	}
	// The backfill of slots 1 to 10: its checkpoint (10) stays below 30.
	w.commit(ctx, []tokenAccount{
		{hash: 20, owner: 7, mint: 1, slot: 6, delegate: 1},
		{hash: 21, owner: 7, mint: 0, slot: 8}, // spent at 25, indexed first
	}, map[int]uint64{2: 7, 4: 9}, 1, 10)
	if err := x.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if n := page(); n != 0 {
		t.Fatalf("before the rewrite is logged the index lists %d accounts of the new owner: the test checks nothing", n)
	}
	if err := s.Exec(ctx, `INSERT INTO indexer_rewrites (from_slot, to_slot) VALUES (1, 10)`, nil); err != nil {
		t.Fatal(err)
	}
	if err := x.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if n := page(); n != 1 {
		t.Fatalf("after the rewrite the index lists %d accounts of the new owner, want 1", n)
	}
	comparePages(t, ctx, s, x, owners+4, delegates, mints)
	fresh := hotindex.NewTokens(s, hotindex.DefaultTokenBudget)
	if err := fresh.Load(ctx); err != nil {
		t.Fatal(err)
	}
	if got, want := x.Stats(), fresh.Stats(); got != want {
		t.Fatalf("synced %+v, loaded %+v", got, want)
	}
	// Read once: a later sync with no new entry changes nothing.
	if err := x.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if got, want := x.Stats(), fresh.Stats(); got != want {
		t.Fatalf("synced again %+v, loaded %+v", got, want)
	}
}
