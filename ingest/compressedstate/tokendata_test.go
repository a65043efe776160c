package compressedstate

import (
	"bytes"
	"context"
	"testing"

	"github.com/dasch-labs/dasch/ingest"
	"github.com/dasch-labs/dasch/ingest/decode"
	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/query/compressed"
)

// TestTokenDataRebuilt: token accounts whose data is the canonical encoding
// of their token fields are stored without it, and every account reads
// back with the exact bytes its transaction carried: the unspent ones
// through the query layer, all of them through the SQL docs/schema.md
// gives.
func TestTokenDataRebuilt(t *testing.T) {
	s := storetest.Open(t)
	ctx := context.Background()
	index(t, s, paths(listed...), ingest.Config{})

	d, _ := newDecoder(defaultTrees(t))
	want := map[compressed.Key][]byte{}
	for _, sig := range listed {
		var b decode.Batch
		if err := d.DecodeTx(loadTx(t, sig), &b); err != nil {
			t.Fatal(err)
		}
		for _, r := range b.Rows() {
			if row, ok := r.(*accountRow); ok && row.Data != nil {
				want[compressed.Key(row.Hash)] = row.Data.Data
			}
		}
	}
	derived := rows(t, s, `SELECT count() FROM compressed_accounts WHERE is_token AND data IS NULL AND discriminator IS NOT NULL`)
	if len(derived) != 1 || derived[0] == "0" {
		t.Fatal("no token account stored without its data: the decoder kept every copy")
	}
	hashes := make([]compressed.Key, 0, len(want))
	for h := range want {
		hashes = append(hashes, h)
	}
	got, err := compressed.AccountsByHashes(ctx, s, hashes)
	if err != nil {
		t.Fatal(err)
	}
	// Spent accounts are not listed; the unspent ones must all match.
	if len(got) == 0 {
		t.Fatal("no account read back")
	}
	for _, a := range got {
		if a.Data == nil || !bytes.Equal(a.Data.Data, want[a.Hash]) {
			t.Errorf("account %x: data %x, want %x", a.Hash, a.Data, want[a.Hash])
		}
	}
	// The rebuild docs/schema.md gives analysts, in SQL.
	for _, r := range query(t, s, `SELECT hash, if(is_token AND data IS NULL AND discriminator IS NOT NULL,
		concat(mint, token_owner, toFixedString(reinterpretAsString(amount), 8),
			if(delegate IS NULL, '\0', concat('\x01', assumeNotNull(delegate))), char(token_state),
			if(tlv IS NULL, '\0', concat('\x01', assumeNotNull(tlv)))),
		data) AS account_data
		FROM compressed_accounts WHERE discriminator IS NOT NULL`, nil) {
		h, data := compressed.Key([]byte(r[0].(string))), r[1].(string)
		if data != string(want[h]) {
			t.Errorf("SQL rebuild of %x: %x, want %x", h, data, want[h])
		}
	}
	t.Logf("%d accounts read back, %s token accounts stored without data", len(got), derived[0])
}
