package photon

import (
	"testing"

	"github.com/dasch-labs/dasch/query/compressed"
)

// BenchmarkEncodeTokenAccounts encodes a full page of a whale's token
// accounts: one token owner, a few trees, a different mint per account.
func BenchmarkEncodeTokenAccounts(b *testing.B) {
	items := make([]compressed.Account, 1000)
	for i := range items {
		a := &items[i]
		for j := range a.Hash {
			a.Hash[j] = byte(i*7 + j)
			a.Tree[j] = byte(j * 3)
			a.Queue[j] = byte(j * 5)
			a.Owner[j] = byte(j * 11)
			a.Mint[j] = byte(i + j*13)
			a.TokenOwner[j] = byte(j * 17)
		}
		s := uint64(i)
		a.Seq = &s
		a.IsToken = true
		a.Data = &compressed.AccountData{Discriminator: 2, Data: make([]byte, 73)}
		a.Amount = 123456789
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = encodeTokenAccounts(5, items, 1000, false)
	}
}

// TestKeyMemo checks that a page encoded with the memo is byte for byte
// the page encoded without it, through repeats and evictions (more
// distinct trees and owners than the memo holds).
func TestKeyMemo(t *testing.T) {
	tests := []struct {
		name     string
		distinct int // distinct trees, queues and token owners
	}{{"one of each", 1}, {"fits", 3}, {"evicts", 2 * keyMemoSize}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			items := make([]compressed.Account, 50)
			for i := range items {
				a := &items[i]
				a.Hash[0], a.Tree[1], a.Queue[2], a.TokenOwner[3] = byte(i), byte(i%tt.distinct), byte(i*7%tt.distinct), byte(i*3%tt.distinct)
				if i%2 == 0 {
					d := a.Tree
					a.Delegate = &d
				}
			}
			for _, v2 := range []bool{false, true} {
				var m keyMemo
				var with, without []byte
				for i := range items {
					with = appendTokenAccount(with, &items[i], v2, &m)
					without = appendTokenAccount(without, &items[i], v2, nil)
				}
				if string(with) != string(without) {
					t.Fatalf("v2 %v: memo changed the encoding:\n%s\n%s", v2, with, without)
				}
			}
		})
	}
}
