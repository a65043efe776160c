package compressed

import (
	"context"
	"fmt"
	"reflect"
	"regexp"
	"testing"

	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/store"
)

// TestTokenRowsChangedSkips checks that the sync read of the slots after
// the last ones seen skips the parts written before them through the
// sync_mm index (migration 11) instead of scanning token_accounts.
func TestTokenRowsChangedSkips(t *testing.T) {
	s := storetest.Open(t)
	ctx := context.Background()
	stop := `SYSTEM STOP MERGES token_accounts`
	if err := s.Exec(ctx, stop, nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Exec(ctx, `SYSTEM START MERGES token_accounts`, nil); err != nil {
			t.Error(err)
		}
	})
	// Five inserts of 3,000 accounts, one slot range each: five parts of
	// three 1,024-row granules.
	for i := 0; i < 5; i++ {
		q := fmt.Sprintf(`INSERT INTO token_accounts (hash, token_owner, is_token, slot_created)
			SELECT reinterpretAsFixedString(sipHash128(%d, number)), reinterpretAsFixedString(sipHash128(number)), true, %d
			FROM numbers(3000)`, i, i*10+5)
		if err := s.Exec(ctx, q, nil); err != nil {
			t.Fatal(err)
		}
	}
	res, err := s.Query(ctx, `EXPLAIN indexes = 1 `+sqlTokenRowsChanged, map[string]string{"from": "41", "to": "50"})
	if err != nil {
		t.Fatal(err)
	}
	var plan string
	for _, r := range res.Rows {
		plan += fmt.Sprint(r[0]) + "\n"
	}
	m := regexp.MustCompile(`Name: sync_mm\n(?:.*\n){2}\s*Parts: (\d+)/(\d+)`).FindStringSubmatch(plan)
	if m == nil || m[1] != "1" || m[2] != "5" {
		t.Fatalf("sync_mm should leave 1 of 5 parts, plan:\n%s", plan)
	}
	rows, err := TokenRowsChanged(ctx, s, 41, 50)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3000 {
		t.Fatalf("%d rows changed in 41..50, want 3000", len(rows))
	}
}

// TestTokenRowsRaw checks that the raw read of token rows returns what
// the decoded one does for every optional column set and unset, and that
// output cut anywhere is an error, not a panic or a short result.
func TestTokenRowsRaw(t *testing.T) {
	s := storetest.Open(t)
	ctx := context.Background()
	k := func(b byte) string { return fmt.Sprintf("unhex('%064x')", []byte{b}) }
	rows := []string{
		// every optional value set, spent
		`(` + k(1) + `, ` + k(2) + `, ` + k(3) + `, 1, 7, 5, true, 11, ` + k(4) + `, 99, ` + k(5) + `, 2, 'stored', ` + k(6) + `, true, ` + k(7) + `, ` + k(8) + `, 1000, ` + k(9) + `, 1, 'tlv', true, 12)`,
		// none set
		`(` + k(10) + `, ` + k(2) + `, ` + k(3) + `, 3, 8, NULL, false, 11, ` + k(4) + `, 0, NULL, NULL, NULL, NULL, true, ` + k(7) + `, ` + k(8) + `, 0, NULL, 0, NULL, false, 0)`,
		// canonical token data (not stored), empty TLV, data without a discriminator elsewhere
		`(` + k(11) + `, ` + k(2) + `, ` + k(3) + `, 3, 9, NULL, true, 11, ` + k(4) + `, 1, NULL, 2, NULL, ` + k(6) + `, true, ` + k(7) + `, ` + k(8) + `, 5, NULL, 0, '', false, 0)`,
		`(` + k(12) + `, ` + k(2) + `, ` + k(3) + `, 3, 10, NULL, true, 11, ` + k(4) + `, 1, NULL, NULL, '', NULL, true, ` + k(7) + `, ` + k(8) + `, 5, NULL, 0, NULL, false, 0)`,
	}
	for _, r := range rows {
		if err := s.Exec(ctx, `INSERT INTO token_accounts (`+tokenRowColumns+`) VALUES `+r, nil); err != nil {
			t.Fatal(err)
		}
	}
	sql := `SELECT ` + tokenRowColumns + ` FROM token_accounts ORDER BY hash`
	res, err := s.Query(ctx, sql, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := scanTokenRows(res)
	if err != nil {
		t.Fatal(err)
	}
	rq, ok := s.(store.RawQuerier)
	if !ok {
		t.Skip("the store gives no raw output")
	}
	got, err := readTokenRowsRaw(ctx, rq, sql, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) != len(rows) || !reflect.DeepEqual(got, want) {
		t.Fatalf("raw read:\n%+v\ndecoded read:\n%+v", got, want)
	}
	b, err := rq.QueryRaw(ctx, sql, nil, "RowBinaryWithNamesAndTypes")
	if err != nil {
		t.Fatal(err)
	}
	// Cut at the end of the header or of a row, the output is whole rows:
	// a prefix of the answer. Cut anywhere else, it is an error.
	whole := 0
	for n := 1; n < len(b); n++ {
		got, err := decodeTokenRows(b[:n])
		if err != nil {
			continue
		}
		if len(got) != whole || !reflect.DeepEqual(got, want[:whole]) {
			t.Fatalf("output cut at %d of %d bytes: %d rows, want the first %d", n, len(b), len(got), whole)
		}
		whole++
	}
	if whole != len(want) {
		t.Errorf("%d cuts decoded without error, want %d (after the header and each row but the last)", whole, len(want))
	}
	other := `SELECT hash, tree FROM token_accounts`
	if _, err := readTokenRowsRaw(ctx, rq, other, nil); err == nil {
		t.Error("rows of other columns were decoded")
	}
}

// BenchmarkDecodeTokenRows decodes 100k token rows of RowBinary as the
// token index's load reads them (the engine's output, read once outside
// the timing).
//
//	go test ./query/compressed -run '^$' -bench DecodeTokenRows -benchmem
func BenchmarkDecodeTokenRows(b *testing.B) {
	s := storetest.Open(b)
	ctx := context.Background()
	k := func(v byte) string { return fmt.Sprintf("unhex('%064x')", []byte{v}) }
	if err := s.Exec(ctx, `INSERT INTO token_accounts (`+tokenRowColumns+`) VALUES
		(`+k(1)+`, `+k(2)+`, `+k(3)+`, 1, 7, 5, true, 11, `+k(4)+`, 99, `+k(5)+`, 2, 'stored', `+k(6)+`, true, `+k(7)+`, `+k(8)+`, 1000, `+k(9)+`, 1, 'tlv', false, 0),
		(`+k(10)+`, `+k(2)+`, `+k(3)+`, 3, 8, NULL, false, 11, `+k(4)+`, 0, NULL, 2, NULL, `+k(6)+`, true, `+k(7)+`, `+k(8)+`, 0, NULL, 0, NULL, false, 0)`, nil); err != nil {
		b.Fatal(err)
	}
	rq, ok := s.(store.RawQuerier)
	if !ok {
		b.Skip("the store gives no raw output")
	}
	raw, err := rq.QueryRaw(ctx, `SELECT `+tokenRowColumns+` FROM token_accounts, numbers(50000) AS n`, nil, "RowBinaryWithNamesAndTypes")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		rows, err := decodeTokenRows(raw)
		if err != nil || len(rows) != 100_000 {
			b.Fatalf("%d rows, %v", len(rows), err)
		}
	}
}
