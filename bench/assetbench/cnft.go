package assetbench

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/dasch-labs/dasch/chain/bubblegum"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest/assetstate"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// Available reports whether this build generates kind k: every kind.
func Available(k Kind) bool { return k < NumKinds }

// trees is the number of Merkle trees the compressed NFTs are minted in.
const trees = 64

// CNFTEvents returns the Bubblegum events of compressed NFT i, as the
// Bubblegum parser builds them: its mint, and for a third of them a later
// transfer to another owner. Empty for other kinds.
func (p *Plan) CNFTEvents(i int) []bubblegum.Event {
	if i < 0 || i >= len(p.kinds) || p.kinds[i] != KindCNFT {
		return nil
	}
	r := p.rng(domAsset, uint64(i))
	id := bubblegum.Key(p.ID(i))
	tree := bubblegum.Key(p.key(domTree, uint64(i%trees)))
	nonce := uint64(i / trees)
	owner := bubblegum.Key(p.owner(r))
	creators := []bubblegum.Creator{{Address: bubblegum.Key(p.creator(r)), Verified: true, Share: 100}}
	md := &bubblegum.Metadata{Version: 1, Name: "Compressed #" + strconv.Itoa(i), Symbol: "CMP", URI: p.uri(uint64(i)),
		SellerFeeBasisPoints: uint16(r.IntN(1001)), IsMutable: true, Creators: creators}
	if r.IntN(2) == 0 {
		md.Collection = &bubblegum.Collection{Verified: true, Key: bubblegum.Key(p.collection(r))}
	}
	leaf := func(owner bubblegum.Key) *bubblegum.Leaf {
		return &bubblegum.Leaf{Version: 1, ID: id, Owner: owner, Delegate: owner, Nonce: nonce,
			DataHash: hashKey(r), CreatorHash: hashKey(r), LeafHash: hashKey(r)}
	}
	s := slot(i)
	seq := 1 + nonce*2
	mint := bubblegum.Event{AssetID: id, Tree: tree, LeafID: nonce, Seq: seq, Slot: s,
		Signature: signature(p, i, 0).String(), Instruction: bubblegum.IxMintV1, Outer: 0, Inner: -1,
		Accounts: map[string]bubblegum.Key{"tree_authority": bubblegum.Key(p.key(domTree, 1<<32|uint64(i%trees))),
			"leaf_owner": owner, "merkle_tree": tree},
		Metadata: md, Leaf: leaf(owner)}
	out := []bubblegum.Event{mint}
	if r.IntN(3) == 0 {
		to := bubblegum.Key(p.owner(r))
		out = append(out, bubblegum.Event{AssetID: id, Tree: tree, LeafID: nonce, Seq: seq + 1, Slot: s + 1,
			Signature: signature(p, i, 1).String(), Instruction: bubblegum.IxTransfer, Outer: 0, Inner: -1,
			Accounts: map[string]bubblegum.Key{"leaf_owner": owner, "new_leaf_owner": to, "merkle_tree": tree},
			Leaf:     leaf(to)})
	}
	return out
}

func hashKey(r *rand.Rand) bubblegum.Key {
	var k bubblegum.Key
	for w := range 4 {
		binary.LittleEndian.PutUint64(k[8*w:], r.Uint64())
	}
	return k
}

func signature(p *Plan, i, n int) solana.Signature {
	var sig solana.Signature
	a, b := p.key(domSignature, uint64(i)<<1|uint64(n)), p.key(domSignature, 1<<40|uint64(i)<<1|uint64(n))
	copy(sig[:32], a[:])
	copy(sig[32:], b[:])
	return sig
}

// eventBatchRows is the number of event rows per insert.
const eventBatchRows = 50_000

// insertEvents writes the compressed NFTs' events to bubblegum_events as
// the asset ingest writes them (the whole event as the payload), in
// batches. It returns the rows written.
func insertEvents(ctx context.Context, s arrowstore.Store, p *Plan) (int, error) {
	b := assetstate.EventsTable().New(memory.NewGoAllocator())
	defer b.Release()
	rows := 0
	flush := func() error {
		if b.Len() == 0 {
			return nil
		}
		rec := b.NewRecord()
		defer rec.Release()
		if err := s.Insert(ctx, schema.TableBubblegumEvents, rec); err != nil {
			return fmt.Errorf("insert bubblegum events: %w", err)
		}
		return nil
	}
	for _, i := range p.ByKind[KindCNFT] {
		for _, e := range p.CNFTEvents(int(i)) {
			sig, err := solana.ParseSignature(e.Signature)
			if err != nil {
				return rows, fmt.Errorf("bubblegum event signature: %w", err)
			}
			row, err := assetstate.EventRow(&e, sig, e.Slot)
			if err != nil {
				return rows, err
			}
			if row == nil {
				return rows, fmt.Errorf("bubblegum event %s names no leaf", e.Signature)
			}
			if err := b.Append(row); err != nil {
				return rows, err
			}
			rows++
			if b.Len() == eventBatchRows {
				if err := flush(); err != nil {
					return rows, err
				}
			}
		}
	}
	return rows, flush()
}
