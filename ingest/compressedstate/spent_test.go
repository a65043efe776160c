package compressedstate

import (
	"context"
	"slices"
	"strconv"
	"testing"

	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/schema"
)

// TestSpentRows spends a program-owned account, a delegated token account
// and a token account whose spend is indexed before its output, and
// checks every read table the step rewrites: the spent rows carry their
// keys, token fields, lamports and slots, drop out of every unspent
// listing, and the spends' signatures reach both owners. The spend indexed
// first is listed as pending, then resolved at its output's slot.
func TestSpentRows(t *testing.T) {
	s := storetest.Open(t)
	ctx := context.Background()
	account, spend := fixtureAccount, fixtureSpend
	steps := []struct {
		sql      []string
		from, to uint64
	}{
		{[]string{
			account("plain", "program", 40, false, "", "", 0),
			account("delegated", "ctoken", 40, true, "alice", "dan", 300),
			account("kept", "ctoken", 40, true, "alice", "", 200),
		}, 40, 40},
		{[]string{spend("plain", 50), spend("delegated", 50), spend("late", 60)}, 50, 60},
		// The output the spend at 60 spent is indexed after it.
		{[]string{account("late", "ctoken", 55, true, "bob", "", 70)}, 55, 55},
		// Stepping its range again counts nothing twice and leaves the
		// spend resolved at the output's slot.
		{nil, 55, 55},
	}
	step := NewStateStep()
	for _, st := range steps {
		execAll(t, s, st.sql...)
		if err := step.Apply(ctx, s, st.from, st.to); err != nil {
			t.Fatal(err)
		}
	}
	name := fixtureName
	checks := []struct{ name, sql string }{
		{"by owner", `SELECT ` + name("hash") + `, ` + name("owner") + `, lamports, slot_created, spent, spent_slot
			FROM compressed_by_owner FINAL ORDER BY hash`},
		{"token accounts", `SELECT ` + name("hash") + `, ` + name("token_owner") + `, ` + name("mint") + `, amount, spent, spent_slot
			FROM token_accounts FINAL ORDER BY hash`},
		{"by delegate", `SELECT ` + name("hash") + `, ` + name("delegate_key") + `, ` + name("token_owner") + `, amount, spent, spent_slot
			FROM token_accounts_by_delegate FINAL`},
		{"owner signatures", `SELECT ` + name("owner") + `, slot, ` + name("sig_prefix") + `
			FROM owner_txs FINAL WHERE slot >= 50 ORDER BY owner, slot`},
		{"token owner signatures", `SELECT ` + name("owner") + `, slot, ` + name("sig_prefix") + `
			FROM token_owner_txs FINAL WHERE slot >= 50 ORDER BY owner, slot`},
		{"balances", `SELECT ` + name("owner") + `, balance FROM token_balances FINAL ORDER BY owner`},
		{"pending", `SELECT spend_slot, ` + name("hash") + `, resolved, resolved_slot FROM compressed_spent_pending FINAL ORDER BY hash`},
	}
	want := map[string][]string{
		"by owner":       {"plain program 5 40 true 50"},
		"token accounts": {"delegated alice mint 300 true 50", "kept alice mint 200 false 0", "late bob mint 70 true 60"},
		"by delegate":    {"delegated dan alice 300 true 50"},
		"owner signatures": {
			"program 50 spend-pl",
			"ctoken 50 spend-de",
			"ctoken 60 spend-la",
		},
		"token owner signatures": {"alice 50 spend-de", "bob 60 spend-la"},
		"balances":               {"alice 200", "bob 0"},
		"pending":                {"60 late 1 55"},
	}
	for _, c := range checks {
		got := rows(t, s, c.sql)
		if c.name == "owner signatures" {
			slices.Sort(got)
			slices.Sort(want[c.name])
		}
		if !slices.Equal(got, want[c.name]) {
			t.Errorf("%s: %q, want %q", c.name, got, want[c.name])
		}
	}
}

// Fixture rows written straight to the decoded tables, named by short
// strings padded with zero bytes (fixtureName reads them back).
func fixtureKey(name string) string { return `toFixedString('` + name + `', 32)` }
func fixtureSig(name string) string { return `toFixedString('` + name + `', 64)` }

// fixturePrefix is the signature prefix (schema.SigPrefix) of fixtureSig(name).
func fixturePrefix(name string) string { return schema.SigPrefix(fixtureSig(name)) }
func fixtureName(col string) string    { return `replaceAll(toString(` + col + `), char(0), '')` }

// fixtureAccount is the INSERT of one output account of mint "mint".
func fixtureAccount(hash, owner string, slot int, token bool, tokenOwner, delegate string, amount int) string {
	return fixtureMintAccount(hash, owner, slot, token, "mint", tokenOwner, delegate, amount)
}

// fixtureMintAccount is the INSERT of one output account of mint.
func fixtureMintAccount(hash, owner string, slot int, token bool, mint, tokenOwner, delegate string, amount int) string {
	del := `NULL`
	if delegate != "" {
		del = fixtureKey(delegate)
	}
	return `INSERT INTO compressed_accounts (hash, tree, queue, tree_type, leaf_index, in_output_queue, slot_created, sig_prefix,
		owner, lamports, data, is_token, mint, token_owner, amount, delegate) VALUES (` +
		fixtureKey(hash) + `, ` + fixtureKey("tree") + `, ` + fixtureKey("queue") + `, 3, 1, true, ` + strconv.Itoa(slot) + `, ` +
		fixturePrefix("sig-"+hash) + `, ` + fixtureKey(owner) + `, 5, 'data', ` + strconv.FormatBool(token) + `, ` + fixtureKey(mint) + `, ` +
		fixtureKey(tokenOwner) + `, ` + strconv.Itoa(amount) + `, ` + del + `)`
}

// fixtureSpend is the INSERT of the spend of hash at slot.
func fixtureSpend(hash string, slot int) string {
	return `INSERT INTO compressed_spent (hash, slot, signature, block_time) VALUES (` +
		fixtureKey(hash) + `, ` + strconv.Itoa(slot) + `, ` + fixtureSig("spend-"+hash) + `, 9)`
}

// TestPendingFromRangeStart: a range resolves only the pending spends at
// its first slot or later, as the list's key reads them (an output is
// created no later than its spend). An indexer started after an account's
// creation lists the account's spend for good; later ranges do not read
// it. A hash listed at slot 60 and (against chain order) created at 100
// therefore stays pending and its account unspent, while the one spent at
// 100 and created at 100 resolves.
func TestPendingFromRangeStart(t *testing.T) {
	s := storetest.Open(t)
	ctx := context.Background()
	step := NewStateStep()
	for _, st := range []struct {
		sql      []string
		from, to uint64
	}{
		{[]string{fixtureSpend("before-start", 60)}, 60, 60},
		{[]string{fixtureSpend("same-slot", 100)}, 100, 100},
		{[]string{
			fixtureAccount("before-start", "ctoken", 100, true, "alice", "", 5),
			fixtureAccount("same-slot", "ctoken", 100, true, "bob", "", 7),
		}, 100, 100},
	} {
		execAll(t, s, st.sql...)
		if err := step.Apply(ctx, s, st.from, st.to); err != nil {
			t.Fatal(err)
		}
	}
	name := fixtureName
	for _, c := range []struct {
		sql  string
		want []string
	}{
		{`SELECT spend_slot, ` + name("hash") + `, resolved, resolved_slot FROM compressed_spent_pending FINAL ORDER BY spend_slot`,
			[]string{"60 before-start 0 0", "100 same-slot 1 100"}},
		{`SELECT ` + name("hash") + `, spent FROM token_accounts FINAL ORDER BY hash`,
			[]string{"before-start false", "same-slot true"}},
		{`SELECT ` + name("owner") + `, balance FROM token_balances FINAL ORDER BY owner`,
			[]string{"alice 5", "bob 0"}},
	} {
		if got := rows(t, s, c.sql); !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.sql, got, c.want)
		}
	}
}
