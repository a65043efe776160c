package light

import (
	"errors"

	"github.com/dasch-labs/dasch/chain/solana"
)

// MerkleTreeEvent variants, by borsh enum tag. The account-compression
// program logs them through the Noop program right after forester
// instructions.
const (
	treeEventChangelog          = 0 // V1 changelog, no longer emitted
	treeEventNullifier          = 1
	treeEventIndexed            = 2
	treeEventBatchAppend        = 3
	treeEventBatchNullify       = 4
	treeEventBatchAddressAppend = 5
)

// errChangelogEvent is returned for the obsolete changelog variant, which
// Photon rejects instead of skipping.
var errChangelogEvent = errors.New("changelog merkle tree event, expected a nullifier, indexed tree or batch event")

// treeEvent holds one decoded MerkleTreeEvent.
type treeEvent struct {
	nullifications []LeafNullification
	indexed        []IndexedLeafUpdate
	batch          *BatchUpdate
}

// decodeTreeEvent decodes a MerkleTreeEvent. ok is false when the data is
// not one (Photon then ignores the pair of instructions); err is set only
// for a well-formed event the indexer must refuse.
func decodeTreeEvent(data []byte) (ev *treeEvent, ok bool, err error) {
	r := newReader(data)
	tag, err := r.u8("event tag")
	if err != nil {
		return nil, false, nil
	}
	switch tag {
	case treeEventChangelog:
		if decodeChangelog(r) != nil {
			return nil, false, nil
		}
		return nil, false, errChangelogEvent
	case treeEventNullifier:
		ev, err = decodeNullifierEvent(r)
	case treeEventIndexed:
		ev, err = decodeIndexedEvent(r)
	case treeEventBatchAppend, treeEventBatchNullify, treeEventBatchAddressAppend:
		kind := BatchKind(tag - treeEventBatchAppend + 1)
		var b *BatchUpdate
		b, err = decodeBatchEvent(r, kind)
		ev = &treeEvent{batch: b}
	default:
		return nil, false, nil
	}
	if err != nil {
		return nil, false, nil
	}
	return ev, true, nil
}

// decodeChangelog only checks that a changelog event is well formed.
func decodeChangelog(r *reader) error {
	if _, err := r.bytes(32, "tree"); err != nil {
		return err
	}
	paths, err := r.vecLen("paths", 4)
	if err != nil {
		return err
	}
	for range paths {
		n, err := r.vecLen("path", 36)
		if err != nil {
			return err
		}
		if _, err := r.bytes(n*36, "path"); err != nil {
			return err
		}
	}
	_, err = r.bytes(8+4, "seq and index")
	return err
}

func decodeNullifierEvent(r *reader) (*treeEvent, error) {
	tree, err := r.pubkey("tree")
	if err != nil {
		return nil, err
	}
	n, err := r.vecLen("nullified leaf indices", 8)
	if err != nil {
		return nil, err
	}
	idx := make([]uint64, n)
	for i := range idx {
		if idx[i], err = r.u64("nullified leaf index"); err != nil {
			return nil, err
		}
	}
	seq, err := r.u64("seq")
	if err != nil {
		return nil, err
	}
	ev := &treeEvent{}
	// seq belongs to the first leaf; each further leaf is one operation later.
	for i, leaf := range idx {
		ev.nullifications = append(ev.nullifications, LeafNullification{Tree: tree, LeafIndex: leaf, Seq: seq + uint64(i)})
	}
	return ev, nil
}

const indexedUpdateSize = 2 * (indexedElementSize + 32)
const indexedElementSize = 32 + 8 + 32 + 8

func decodeIndexedEvent(r *reader) (*treeEvent, error) {
	tree, err := r.pubkey("tree")
	if err != nil {
		return nil, err
	}
	n, err := r.vecLen("updates", indexedUpdateSize)
	if err != nil {
		return nil, err
	}
	type pair struct {
		leaf IndexedElement
		hash Hash
	}
	pairs := make([]pair, 0, 2*n)
	for range n {
		for _, which := range []string{"low element", "high element"} {
			var p pair
			if p.leaf, err = readIndexedElement(r, which); err != nil {
				return nil, err
			}
			if p.hash, err = r.hash(which + " hash"); err != nil {
				return nil, err
			}
			pairs = append(pairs, p)
		}
	}
	seq, err := r.u64("seq")
	if err != nil {
		return nil, err
	}
	ev := &treeEvent{}
	// Each written leaf (low, then high, per update) takes the next seq.
	for i, p := range pairs {
		ev.indexed = append(ev.indexed, IndexedLeafUpdate{Tree: tree, Leaf: p.leaf, Hash: p.hash, Seq: seq + uint64(i)})
	}
	return ev, nil
}

func readIndexedElement(r *reader, what string) (IndexedElement, error) {
	var e IndexedElement
	var err error
	if e.Value, err = r.array32(what + " value"); err != nil {
		return e, err
	}
	if e.NextIndex, err = r.u64(what + " next index"); err != nil {
		return e, err
	}
	if e.NextValue, err = r.array32(what + " next value"); err != nil {
		return e, err
	}
	e.Index, err = r.u64(what + " index")
	return e, err
}

func decodeBatchEvent(r *reader, kind BatchKind) (*BatchUpdate, error) {
	b := &BatchUpdate{Kind: kind}
	var err error
	if b.Tree, err = r.pubkey("merkle tree"); err != nil {
		return nil, err
	}
	for _, f := range []struct {
		name string
		dst  *uint64
	}{
		{"batch index", &b.BatchIndex},
		{"zkp batch index", &b.ZKPBatchIndex},
		{"zkp batch size", &b.ZKPBatchSize},
		{"old next index", &b.OldNextIndex},
		{"new next index", &b.NewNextIndex},
	} {
		if *f.dst, err = r.u64(f.name); err != nil {
			return nil, err
		}
	}
	if b.NewRoot, err = r.hash("new root"); err != nil {
		return nil, err
	}
	if b.RootIndex, err = r.u32("root index"); err != nil {
		return nil, err
	}
	if b.Seq, err = r.u64("sequence number"); err != nil {
		return nil, err
	}
	q, err := r.optArray32("output queue")
	if err != nil {
		return nil, err
	}
	if q != nil {
		k := solana.Pubkey(*q)
		b.OutputQueue = &k
	}
	return b, nil
}
