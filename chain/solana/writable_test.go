package solana

import "testing"

func TestWritable(t *testing.T) {
	keys := make([]Pubkey, 9)
	for i := range keys {
		keys[i][0] = byte(i + 1)
	}
	// Static keys 0..5: signers 0..2 (2 read-only), unsigned 3..5 (5
	// read-only); loaded 6..8, of which 6 and 7 writable.
	tx := &Tx{
		AccountKeys:       keys,
		NumStaticKeys:     6,
		NumLoadedWritable: 2,
		Header:            &Header{NumRequiredSignatures: 3, NumReadonlySignedAccounts: 1, NumReadonlyUnsignedAccounts: 1},
	}
	want := []bool{true, true, false, true, true, false, true, true, false}
	for i, w := range want {
		if got := tx.Writable(i); got != w {
			t.Errorf("key %d: writable %v, want %v", i, got, w)
		}
	}
	for _, i := range []int{-1, 9, 100} {
		if tx.Writable(i) {
			t.Errorf("key %d out of range is writable", i)
		}
	}
	noHeader := &Tx{AccountKeys: keys[:4], NumStaticKeys: 4}
	for i := range 4 {
		if !noHeader.Writable(i) {
			t.Errorf("without a header, key %d is not writable", i)
		}
	}
}

func TestInvokes(t *testing.T) {
	a, b, c := Pubkey{1}, Pubkey{2}, Pubkey{3}
	tx := &Tx{Instructions: []Instruction{{ProgramID: a}}, Inner: []InnerInstruction{{Instruction: Instruction{ProgramID: b}}}}
	for _, tc := range []struct {
		programs map[Pubkey]bool
		want     bool
	}{
		{map[Pubkey]bool{a: true}, true},
		{map[Pubkey]bool{b: true}, true},
		{map[Pubkey]bool{c: true}, false},
		{nil, false},
	} {
		if got := tx.Invokes(tc.programs); got != tc.want {
			t.Errorf("Invokes(%v) = %v, want %v", tc.programs, got, tc.want)
		}
	}
}
