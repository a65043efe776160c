package decode

import (
	"testing"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest/arrowbatch"
)

type fakeDecoder struct {
	owners []solana.Pubkey
	reads  []AccountRead
}

func (fakeDecoder) Name() string                                { return "fake" }
func (fakeDecoder) Tables() []arrowbatch.Table                  { return nil }
func (fakeDecoder) DecodeTx(*solana.Tx, *Batch) error           { return nil }
func (fakeDecoder) DecodeAccount(*solana.Account, *Batch) error { return nil }
func (d fakeDecoder) Interest() Interest                        { return Interest{AccountOwners: d.owners} }

type narrowDecoder struct{ fakeDecoder }

func (d narrowDecoder) AccountReads() []AccountRead { return d.reads }

func TestReads(t *testing.T) {
	a, b, c := solana.Pubkey{1}, solana.Pubkey{2}, solana.Pubkey{3}
	size := uint64(82)
	sized := AccountRead{Owner: a, Filters: []AccountFilter{{DataSize: &size}}}
	keyed := AccountRead{Owner: b, Filters: []AccountFilter{{Memcmp: &Memcmp{Offset: 1, Bytes: []byte{4}}}}}
	tests := []struct {
		name string
		decs []Decoder
		want []AccountRead
	}{
		{"none", nil, nil},
		{"whole owners", []Decoder{fakeDecoder{owners: []solana.Pubkey{a, b}}}, []AccountRead{{Owner: a}, {Owner: b}}},
		{"narrowed and whole", []Decoder{narrowDecoder{fakeDecoder{owners: []solana.Pubkey{a, b, c}, reads: []AccountRead{sized, keyed}}}},
			[]AccountRead{sized, keyed, {Owner: c}}},
		{"one decoder reads an owner whole", []Decoder{
			narrowDecoder{fakeDecoder{owners: []solana.Pubkey{a}, reads: []AccountRead{sized}}},
			fakeDecoder{owners: []solana.Pubkey{a}},
		}, []AccountRead{{Owner: a}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Reads(tc.decs...)
			if len(got) != len(tc.want) {
				t.Fatalf("%d reads %+v, want %+v", len(got), got, tc.want)
			}
			for i := range got {
				if got[i].Owner != tc.want[i].Owner || len(got[i].Filters) != len(tc.want[i].Filters) {
					t.Errorf("read %d: %+v, want %+v", i, got[i], tc.want[i])
				}
			}
		})
	}
}

func TestMatch(t *testing.T) {
	size := uint64(3)
	for _, tc := range []struct {
		name    string
		filters []AccountFilter
		data    []byte
		want    bool
	}{
		{"no filter", nil, []byte{1}, true},
		{"size", []AccountFilter{{DataSize: &size}}, []byte{1, 2, 3}, true},
		{"wrong size", []AccountFilter{{DataSize: &size}}, []byte{1, 2}, false},
		{"bytes at offset", []AccountFilter{{Memcmp: &Memcmp{Offset: 1, Bytes: []byte{2, 3}}}}, []byte{1, 2, 3}, true},
		{"other bytes", []AccountFilter{{Memcmp: &Memcmp{Offset: 1, Bytes: []byte{3}}}}, []byte{1, 2, 3}, false},
		{"past the end", []AccountFilter{{Memcmp: &Memcmp{Offset: 5, Bytes: []byte{3}}}}, []byte{1, 2, 3}, false},
		{"both", []AccountFilter{{DataSize: &size}, {Memcmp: &Memcmp{Bytes: []byte{1}}}}, []byte{1, 2, 3}, true},
	} {
		if got := (AccountRead{Filters: tc.filters}).Match(tc.data); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
