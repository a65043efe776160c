package bubblegum

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// burnEvents are mint, transfer and burn of one V1 asset (mint_transfer_burn).
func burnEvents(t *testing.T) []Event {
	t.Helper()
	var evs []Event
	for name, tx := range allTxs(t) {
		if !strings.HasPrefix(name, "mint_transfer_burn/") {
			continue
		}
		e, err := Parse(tx)
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, e...)
	}
	if len(evs) != 3 {
		t.Fatalf("%d events, want 3", len(evs))
	}
	return evs
}

func TestFoldOrderAndDuplicates(t *testing.T) {
	evs := burnEvents(t)
	want, err := FoldCNFT(evs)
	if err != nil {
		t.Fatal(err)
	}
	if !want.Burnt || want.Seq != 3 || want.Metadata == nil || !want.HasLeaf {
		t.Fatalf("folded %+v: want burnt, seq 3, metadata and leaf", want)
	}
	rev := slices.Clone(evs)
	slices.Reverse(rev)
	tests := []struct {
		name string
		evs  []Event
	}{
		{"reversed", rev},
		{"duplicated", append(slices.Clone(evs), evs...)},
		{"duplicated reversed", append(slices.Clone(rev), evs...)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := FoldCNFT(tc.evs)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("got %+v\nwant %+v", got, want)
			}
		})
	}
}

func TestFoldErrors(t *testing.T) {
	evs := burnEvents(t)
	other, err := Parse(loadTx(t, txFreezeV2))
	if err != nil {
		t.Fatal(err)
	}
	unknown := slices.Clone(evs)
	unknown[0].Instruction = "no_such_instruction"
	noLeaf := slices.Clone(evs)
	for i := range noLeaf {
		noLeaf[i].Leaf = nil
	}
	tests := []struct {
		name string
		evs  []Event
		is   error
	}{
		{"empty", nil, ErrNoEvents},
		{"two assets", append(slices.Clone(evs), other...), nil},
		{"unknown instruction", unknown, nil},
		{"mint without leaf", noLeaf, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st, err := FoldCNFT(tc.evs)
			if err == nil {
				t.Fatalf("got %+v, want an error", st)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Fatalf("error %v, want %v", err, tc.is)
			}
		})
	}
}

func TestFoldFlags(t *testing.T) {
	tests := []struct {
		flags           *uint8
		frozen, soulbnd bool
	}{
		{nil, false, false},
		{ptr(uint8(0)), false, false},
		{ptr(FlagAssetFrozen), true, false},
		{ptr(FlagPermanentFrozen), true, false},
		{ptr(FlagNonTransferable), false, true},
		{ptr(FlagAssetFrozen | FlagNonTransferable), true, true},
	}
	for _, tc := range tests {
		st := &CNFTState{Flags: tc.flags}
		if st.Frozen() != tc.frozen || st.NonTransferable() != tc.soulbnd {
			t.Errorf("flags %v: frozen %v non-transferable %v", tc.flags, st.Frozen(), st.NonTransferable())
		}
	}
}

func ptr[T any](v T) *T { return &v }
