package light

import (
	"encoding/binary"
	"encoding/json"
	"testing"

	"github.com/mr-tron/base58"
)

// TestAddressTreeUpdate applies the forester's indexed tree update of the
// nullifier-and-address-queue set to the V1 address tree amt1 and checks
// the result against getMultipleNewAddressProofs: the low element, its
// successor, the root and the root sequence number.
func TestAddressTreeUpdate(t *testing.T) {
	trees := testTrees(t)
	c := loadCase(t, "nullfiier_and_address_queue_transactions-proof-address")
	var res struct {
		Value []struct {
			Root                string `json:"root"`
			LowerRangeAddress   string `json:"lowerRangeAddress"`
			HigherRangeAddress  string `json:"higherRangeAddress"`
			NextIndex           uint64 `json:"nextIndex"`
			MerkleTree          string `json:"merkleTree"`
			RootSeq             uint64 `json:"rootSeq"`
			LowElementLeafIndex uint64 `json:"lowElementLeafIndex"`
		} `json:"value"`
	}
	if err := json.Unmarshal(c.ExpectedResult, &res); err != nil {
		t.Fatal(err)
	}
	want := res.Value[0]
	info, ok := trees.Tree(mustPubkey(t, want.MerkleTree))
	if !ok {
		t.Fatal("address tree not seeded")
	}

	elements := map[uint64]IndexedElement{}
	leaves := map[uint64]Hash{}
	var maxSeq uint64
	for _, ev := range indexCase(t, c, trees) {
		for _, u := range ev.IndexedUpdates {
			if u.Tree != info.Tree {
				continue
			}
			// V1 address tree leaves hash (value, next index, next value).
			var next Hash
			binary.BigEndian.PutUint64(next[24:], u.Leaf.NextIndex)
			h, err := poseidonHash(&poseidonT4, Hash(u.Leaf.Value), next, Hash(u.Leaf.NextValue))
			if err != nil {
				t.Fatal(err)
			}
			if h != u.Hash {
				t.Errorf("leaf %d: event hash %s, element hashes to %s", u.Leaf.Index, u.Hash, h)
			}
			elements[u.Leaf.Index] = u.Leaf
			leaves[u.Leaf.Index] = u.Hash
			maxSeq = max(maxSeq, u.Seq)
		}
	}
	low, ok := elements[want.LowElementLeafIndex]
	if !ok {
		t.Fatalf("no update of low element %d", want.LowElementLeafIndex)
	}
	if got := base58.Encode(low.Value[:]); got != want.LowerRangeAddress {
		t.Errorf("low element value %s, want %s", got, want.LowerRangeAddress)
	}
	if got := base58.Encode(low.NextValue[:]); got != want.HigherRangeAddress {
		t.Errorf("low element next value %s, want %s", got, want.HigherRangeAddress)
	}
	if low.NextIndex != want.NextIndex {
		t.Errorf("low element next index %d, want %d", low.NextIndex, want.NextIndex)
	}
	if maxSeq != want.RootSeq {
		t.Errorf("root seq %d, want %d", maxSeq, want.RootSeq)
	}
	// The tree starts with element 0 and the maximum element at leaf 1
	// (the new element's successor), which the update left untouched.
	var maxElement IndexedElement
	for _, e := range elements {
		if e.Index == low.NextIndex {
			maxElement = IndexedElement{Value: e.NextValue, Index: e.NextIndex}
		}
	}
	if _, updated := leaves[maxElement.Index]; updated || maxElement.Index == 0 {
		t.Fatalf("unexpected tree shape: %+v", elements)
	}
	h, err := poseidonHash(&poseidonT4, Hash(maxElement.Value), Hash{}, Hash{})
	if err != nil {
		t.Fatal(err)
	}
	leaves[maxElement.Index] = h
	if got := sparseRoot(t, grainParams(3), int(info.Height), leaves); got.String() != want.Root {
		t.Errorf("root %s, want %s", got, want.Root)
	}
}
