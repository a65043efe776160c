package assetstate

import (
	"context"
	"strconv"
	"testing"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store"
)

// keepPrevious writes each document with the slot it is visible from and
// keeps the version it replaces only while readers stamped with the
// checkpoint must still see it.
func TestKeepPrevious(t *testing.T) {
	type stored struct {
		slot uint64
		doc  string
	}
	at := func(from, indexed uint64) foldSpan { return foldSpan{from: from, indexed: indexed, hasIndexed: true} }
	for _, c := range []struct {
		name     string
		existing *stored
		span     foldSpan
		slot     uint64 // the newest row the fold read
		doc      string
		visible  uint64
		kept     *stored // the asset_docs_prev row, nil for none
	}{
		{"new asset past the checkpoint", nil, at(11, 10), 11, "a", 11, nil},
		{"change of a covered document", &stored{8, "a"}, at(11, 10), 12, "b", 12, &stored{8, "a"}},
		// A collection written past the checkpoint changes its member,
		// whose own rows are older.
		{"change found by a fold of later slots", &stored{8, "a"}, at(11, 10), 9, "b", 11, &stored{8, "a"}},
		{"second change before the checkpoint", &stored{12, "b"}, at(13, 10), 13, "c", 13, nil},
		{"unchanged", &stored{8, "a"}, at(11, 10), 12, "a", 8, nil},
		{"unchanged past the checkpoint", &stored{12, "b"}, at(13, 10), 13, "b", 12, nil},
		{"rewrite below the checkpoint", &stored{8, "a"}, at(5, 10), 9, "b", 9, nil},
		{"rewrite reaching past the checkpoint", &stored{8, "a"}, at(5, 10), 12, "b", 12, &stored{8, "a"}},
		{"off-chain refold", &stored{8, "a"}, foldSpan{indexed: 10, hasIndexed: true}, 8, "b", 8, nil},
		{"nothing indexed", &stored{3, "a"}, foldSpan{from: 4}, 4, "b", 4, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			s := storetest.Open(t)
			id := solana.Pubkey{1, 2, 3}
			if e := c.existing; e != nil {
				err := s.Exec(ctx, `INSERT INTO asset_docs (id, slot, status, error, doc) VALUES
					({id:FixedString(32)}, {slot:UInt64}, {st:String}, '', {doc:String})`,
					store.Params{"id": string(id[:]), "slot": strconv.FormatUint(e.slot, 10), "st": schema.AssetStatusOK, "doc": e.doc})
				if err != nil {
					t.Fatal(err)
				}
			}
			docs := []DocRow{{StateRow: &StateRow{ID: id, Slot: c.slot, Status: schema.AssetStatusOK, Doc: []byte(c.doc)}}}
			kept, err := keepPrevious(ctx, s, c.span, docs)
			if err != nil {
				t.Fatal(err)
			}
			if got := docs[0].slot(); got != c.visible {
				t.Errorf("visible from %d, want %d", got, c.visible)
			}
			switch {
			case c.kept == nil && len(kept) != 0:
				t.Errorf("kept %d documents, want none", len(kept))
			case c.kept != nil && len(kept) != 1:
				t.Errorf("kept %d documents, want 1", len(kept))
			case c.kept != nil:
				k := kept[0]
				if k.ID != id || k.slot() != c.kept.slot || string(k.Doc) != c.kept.doc || k.Status != schema.AssetStatusOK {
					t.Errorf("kept %s at %d (%q, %q), want %q at %d", k.ID, k.slot(), k.Status, k.Doc, c.kept.doc, c.kept.slot)
				}
			}
		})
	}
}
