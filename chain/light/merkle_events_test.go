package light

import (
	"encoding/binary"
	"errors"
	"testing"
)

func TestDecodeTreeEvent(t *testing.T) {
	tree := make([]byte, 32)
	tree[0] = 5
	nullifier := append([]byte{treeEventNullifier}, tree...)
	nullifier = binary.LittleEndian.AppendUint32(nullifier, 2)
	nullifier = binary.LittleEndian.AppendUint64(nullifier, 7)
	nullifier = binary.LittleEndian.AppendUint64(nullifier, 9)
	nullifier = binary.LittleEndian.AppendUint64(nullifier, 40) // seq

	changelog := append([]byte{treeEventChangelog}, tree...)
	changelog = binary.LittleEndian.AppendUint32(changelog, 0)
	changelog = append(changelog, make([]byte, 12)...)

	batch := append([]byte{treeEventBatchNullify}, tree...)
	batch = append(batch, make([]byte, 5*8+32+4)...)
	batch = binary.LittleEndian.AppendUint64(batch, 3)
	batch = append(batch, 0)

	tests := []struct {
		name    string
		data    []byte
		ok      bool
		err     error
		nullify int
		batch   BatchKind
	}{
		{name: "nullifier event", data: nullifier, ok: true, nullify: 2},
		{name: "batch nullify", data: batch, ok: true, batch: BatchNullify},
		{name: "changelog is refused", data: changelog, err: errChangelogEvent},
		{name: "truncated changelog is ignored", data: changelog[:20]},
		{name: "truncated nullifier event is ignored", data: nullifier[:len(nullifier)-1]},
		{name: "unknown tag is ignored", data: []byte{9, 1, 2}},
		{name: "empty is ignored", data: nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ev, ok, err := decodeTreeEvent(tc.data)
			if ok != tc.ok || !errors.Is(err, tc.err) {
				t.Fatalf("ok=%v err=%v, want ok=%v err=%v", ok, err, tc.ok, tc.err)
			}
			if !ok {
				return
			}
			if len(ev.nullifications) != tc.nullify {
				t.Errorf("%d nullifications, want %d", len(ev.nullifications), tc.nullify)
			}
			for i, n := range ev.nullifications {
				if n.Seq != 40+uint64(i) || n.Tree[0] != 5 {
					t.Errorf("nullification %d: %+v", i, n)
				}
			}
			if tc.batch != 0 && (ev.batch == nil || ev.batch.Kind != tc.batch || ev.batch.Seq != 3) {
				t.Errorf("batch %+v, want kind %v seq 3", ev.batch, tc.batch)
			}
		})
	}
}
