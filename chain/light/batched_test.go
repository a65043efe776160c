package light

import (
	"encoding/hex"
	"testing"

	"github.com/dasch-labs/dasch/chain/solana"
)

// batchedSets are the fixture sets recorded with V2 (batched) trees. They
// have no snapshot cases; Photon's own tests check them in Rust.
var batchedSets = []string{
	"batched_tree_transactions",
	"batch_append_spent",
	"batch_append_nullify",
	"batched_tree_token_transactions",
	"batched_address_transactions",
	"batched_address_2_transactions",
	"four_cpi_events",
	"index_compress_and_close_with_tlv",
}

func TestBatchedSetsParse(t *testing.T) {
	trees := testTrees(t)
	for _, set := range batchedSets {
		t.Run(set, func(t *testing.T) {
			for _, tx := range loadSet(t, set) {
				ev := mustParse(t, tx, trees)
				for _, o := range ev.Outputs {
					if o.UnknownTree {
						t.Errorf("%s: output %s in unknown tree %s", ev.Signature, o.Hash, o.Tree)
						continue
					}
					v2 := o.TreeType == TreeStateV2
					if v2 != (o.Seq == nil) || v2 != o.InOutputQueue {
						t.Errorf("%s: output %s in %v tree: seq %v, in output queue %v", ev.Signature, o.Hash, o.TreeType, fmtOpt(o.Seq), o.InOutputQueue)
					}
				}
				for _, in := range ev.Inputs {
					if in.V2 == nil {
						continue
					}
					// The tx hash is zero unless the caller asked for one; the
					// nullifier never is.
					if in.V2.Nullifier == (Hash{}) {
						t.Errorf("%s: V2 input %s without nullifier", ev.Signature, in.Hash)
					}
				}
			}
		})
	}
}

// v2Tree follows a batched state tree the way the chain does, to check
// parsed outputs, nullifiers and queue positions against the roots the
// forester's batch events report.
type v2Tree struct {
	height  int
	leaves  map[uint64]Hash
	outputs map[uint64]Hash          // by leaf index, waiting in the output queue
	inputs  map[uint64]*BatchedInput // by input queue position
}

func (tr *v2Tree) apply(t *testing.T, b BatchUpdate) {
	t.Helper()
	for i := b.OldNextIndex; i < b.NewNextIndex; i++ {
		switch b.Kind {
		case BatchAppend:
			h, ok := tr.outputs[i]
			if !ok {
				t.Fatalf("batch append of leaf %d, which no output created", i)
			}
			// A leaf already nullified (spent while queued) keeps its nullifier.
			if _, set := tr.leaves[i]; !set {
				tr.leaves[i] = h
			}
		case BatchNullify:
			in, ok := tr.inputs[i]
			if !ok {
				t.Fatalf("batch nullify of input queue position %d, which no input filled", i)
			}
			tr.leaves[uint64(in.LeafIndex)] = in.Nullifier
		}
	}
}

func TestBatchedStateTreeRoots(t *testing.T) {
	trees := testTrees(t)
	p := grainParams(3)
	for _, set := range []string{"batched_tree_transactions", "batch_append_spent", "batch_append_nullify"} {
		t.Run(set, func(t *testing.T) {
			followed := map[solana.Pubkey]*v2Tree{}
			follow := func(k solana.Pubkey) *v2Tree {
				tr, ok := followed[k]
				if !ok {
					info, known := trees.Tree(k)
					if !known || info.Type != TreeStateV2 {
						t.Fatalf("tree %s is not a seeded V2 state tree", k)
					}
					tr = &v2Tree{height: int(info.Height), leaves: map[uint64]Hash{}, outputs: map[uint64]Hash{}, inputs: map[uint64]*BatchedInput{}}
					followed[k] = tr
				}
				return tr
			}
			checked := 0
			for _, tx := range loadSet(t, set) {
				ev := mustParse(t, tx, trees)
				for _, o := range ev.Outputs {
					if o.TreeType == TreeStateV2 {
						follow(o.Tree).outputs[uint64(o.LeafIndex)] = o.Hash
					}
				}
				for _, in := range ev.Inputs {
					if in.V2 != nil {
						inputs := follow(in.V2.Tree).inputs
						if _, dup := inputs[in.V2.QueueIndex]; dup {
							t.Fatalf("input queue position %d used twice", in.V2.QueueIndex)
						}
						inputs[in.V2.QueueIndex] = in.V2
					}
				}
				for _, b := range ev.BatchUpdates {
					if b.Kind == BatchAddressAppend {
						continue
					}
					tr := follow(b.Tree)
					tr.apply(t, b)
					if got := sparseRoot(t, p, tr.height, tr.leaves); got != b.NewRoot {
						t.Fatalf("%s: %v %d..%d: root %s, want %s", ev.Signature, b.Kind, b.OldNextIndex, b.NewNextIndex, got, b.NewRoot)
					}
					checked++
				}
			}
			if checked == 0 {
				t.Fatal("no batch event checked")
			}
		})
	}
}

func TestBatchedAddressQueue(t *testing.T) {
	trees := testTrees(t)
	for _, set := range []string{"batched_address_transactions", "batched_address_2_transactions"} {
		t.Run(set, func(t *testing.T) {
			seen := map[uint64]bool{}
			var appended uint64
			for _, tx := range loadSet(t, set) {
				ev := mustParse(t, tx, trees)
				for _, a := range ev.NewAddresses {
					info, ok := trees.Tree(a.Tree)
					if !ok || a.UnknownTree {
						t.Fatalf("address %x in unknown tree %s", a.Address, a.Tree)
					}
					if info.Type != TreeAddressV2 {
						continue
					}
					if a.QueueIndex == nil {
						t.Fatalf("address %x in V2 tree without queue index", a.Address)
					}
					if seen[*a.QueueIndex] {
						t.Fatalf("address queue index %d used twice", *a.QueueIndex)
					}
					seen[*a.QueueIndex] = true
				}
				for _, b := range ev.BatchUpdates {
					if b.Kind == BatchAddressAppend {
						appended += b.NewNextIndex - b.OldNextIndex
					}
				}
			}
			for i := range uint64(len(seen)) {
				if !seen[i] {
					t.Fatalf("address queue indexes are not 0..%d: %d missing", len(seen)-1, i)
				}
			}
			if appended != uint64(len(seen)) {
				t.Errorf("batch address appends cover %d addresses, %d were queued", appended, len(seen))
			}
		})
	}
}

func TestCompressAndCloseTLV(t *testing.T) {
	ev := mustParse(t, loadSet(t, "index_compress_and_close_with_tlv")[0], testTrees(t))
	// One CompressedOnly extension (enum tag 31) per compressed-and-closed
	// token account.
	wantTLV, _ := hex.DecodeString("010000001f0000000000000000000000000000000001")
	if len(ev.Outputs) != 5 {
		t.Fatalf("%d outputs, want 5", len(ev.Outputs))
	}
	for _, o := range ev.Outputs {
		if o.Token == nil {
			t.Fatalf("output %s: no token data", o.Hash)
		}
		if discriminator(o.Data.Discriminator[:]) != TokenDiscriminatorV3 {
			t.Errorf("output %s: discriminator %x, want V3", o.Hash, o.Data.Discriminator)
		}
		if string(o.Token.TLV) != string(wantTLV) {
			t.Errorf("output %s: tlv %x, want %x", o.Hash, o.Token.TLV, wantTLV)
		}
		if o.Tree.String() != "bmt2UxoBxB9xWev4BkLvkGdapsz6sZGkzViPNph7VFi" || o.Queue.String() != "oq2UkeMsJLfXt2QHzim242SUi3nvjJs8Pn7Eac9H9vg" {
			t.Errorf("output %s: tree %s queue %s", o.Hash, o.Tree, o.Queue)
		}
	}
}

// TestFourCPIEvents: one outer instruction holding four system program
// invocations yields four events.
func TestFourCPIEvents(t *testing.T) {
	ev := mustParse(t, loadSet(t, "four_cpi_events")[0], testTrees(t))
	if len(ev.Outputs) != 4 {
		t.Fatalf("%d outputs, want 4", len(ev.Outputs))
	}
	for i, o := range ev.Outputs {
		if o.LeafIndex != uint32(i) {
			t.Errorf("output %d: leaf index %d", i, o.LeafIndex)
		}
	}
	if len(ev.OutputSeqs) != 4 {
		t.Errorf("%d output sequence numbers, want 4", len(ev.OutputSeqs))
	}
}
