package light

import (
	"testing"

	"github.com/mr-tron/base58"
)

func TestPoseidonT3TableMatchesGrain(t *testing.T) {
	want := grainParams(3)
	got := poseidonT3
	if got.width != want.width || got.fullRounds != want.fullRounds || got.partial != want.partial {
		t.Fatalf("shape %d/%d/%d, want %d/%d/%d", got.width, got.fullRounds, got.partial, want.width, want.fullRounds, want.partial)
	}
	if len(got.roundConsts) != len(want.roundConsts) || len(got.mds) != len(want.mds) {
		t.Fatalf("table sizes differ")
	}
	for i := range want.roundConsts {
		if got.roundConsts[i] != want.roundConsts[i] {
			t.Fatalf("round constant %d differs", i)
		}
	}
	for i := range want.mds {
		if got.mds[i] != want.mds[i] {
			t.Fatalf("MDS entry %d differs", i)
		}
	}
}

func b58Hash(t *testing.T, s string) Hash {
	t.Helper()
	b, err := base58.Decode(s)
	if err != nil || len(b) != 32 {
		t.Fatalf("base58 %q: %v", s, err)
	}
	return Hash(b)
}

// TestNodeHashKnownAnswer checks the production two-input hash against
// circomlibjs' Poseidon([1, 2]).
func TestNodeHashKnownAnswer(t *testing.T) {
	got, err := NodeHash(smallHash(1), smallHash(2))
	if err != nil {
		t.Fatal(err)
	}
	if want := hexHash(t, "115cc0f5e7d690413df64c6b9662e9cf2a3617f2743245519e19607a4417189a"); got != want {
		t.Errorf("got %x", got[:])
	}
	if _, err := NodeHash(Hash{0xff}, Hash{}); err == nil {
		t.Error("a child above the modulus hashed without error")
	}
}

// TestZeroHashes compares zero-subtree hashes with the siblings Photon
// returns for empty parts of the corpus trees.
func TestZeroHashes(t *testing.T) {
	tests := []struct {
		level int
		want  string
	}{
		{0, "11111111111111111111111111111111"},
		{1, "3CFKteYSRSkp9EGFPzibgzCPtNuJ5HeZ31fAsBpgcHwZ"},
		{2, "274k4KPY5VhmU5pCwwJzyHaY4AH4m7SjnZnyj44UitJc"},
		{3, "2gQksfK543Jw196amPxXWceFzNTfRHiqb7x2edvupftT"},
		{25, "4EE5KQnQ6Tvo78gGhTu8serpJV4srbRhYZ3rdvCiRa5e"},
	}
	for _, tc := range tests {
		if got := ZeroHash(tc.level); got != b58Hash(t, tc.want) {
			t.Errorf("level %d: %s, want %s", tc.level, got, tc.want)
		}
	}
}

// TestEmptyAddressTree rebuilds Photon's proof against an empty V1 address
// tree: the top element's hash is the first sibling and the root follows.
func TestEmptyAddressTree(t *testing.T) {
	els := InitialAddressElements(TreeAddressV1)
	low, err := AddressLeafHash(els[0], TreeAddressV1)
	if err != nil {
		t.Fatal(err)
	}
	top, err := AddressLeafHash(els[1], TreeAddressV1)
	if err != nil {
		t.Fatal(err)
	}
	if want := b58Hash(t, "34cMT7MjFrs8hLp2zHMrPJHKkUxBDBwBTNck77wLjjcY"); top != want {
		t.Errorf("top element hash %s, want %s", top, want)
	}
	if got := base58.Encode(HighestAddressPlusOne[:]); got != "14uQeVj5tqViQh7yWWGStvkEG1Zmhx6uasJtWCJziofL" {
		t.Errorf("highest address %s", got)
	}
	node, err := NodeHash(low, top)
	if err != nil {
		t.Fatal(err)
	}
	for l := 1; l < 26; l++ {
		if node, err = NodeHash(node, ZeroHash(l)); err != nil {
			t.Fatal(err)
		}
	}
	if want := b58Hash(t, "3FrGzyXtjqjnukHDS2M5oyVj8tMVcHSahcHpWBGR5MHY"); node != want {
		t.Errorf("root %s, want %s", node, want)
	}
	v2 := InitialAddressElements(TreeAddressV2)
	if len(v2) != 1 || v2[0].NextIndex != 0 {
		t.Errorf("V2 initial elements %+v", v2)
	}
	if _, err := AddressLeafHash(v2[0], TreeAddressV2); err != nil {
		t.Error(err)
	}
}
