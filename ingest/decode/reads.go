package decode

import (
	"bytes"
	"slices"

	"github.com/dasch-labs/dasch/chain/solana"
)

// AccountRead is one listing of a program's accounts, as a source that
// lists accounts (getProgramAccounts) asks for it: the accounts owned by
// Owner that match every filter. No filter reads them all.
type AccountRead struct {
	Owner   solana.Pubkey
	Filters []AccountFilter
}

// AccountFilter is one getProgramAccounts filter: data of exactly
// DataSize bytes, or Bytes at Offset.
type AccountFilter struct {
	DataSize *uint64
	Memcmp   *Memcmp
}

// Memcmp matches accounts whose data holds Bytes at Offset.
type Memcmp struct {
	Offset uint64
	Bytes  []byte
}

// Match reports whether data passes every filter of r.
func (r AccountRead) Match(data []byte) bool {
	for _, f := range r.Filters {
		if f.DataSize != nil && uint64(len(data)) != *f.DataSize {
			return false
		}
		if m := f.Memcmp; m != nil {
			if m.Offset > uint64(len(data)) || !bytes.HasPrefix(data[m.Offset:], m.Bytes) {
				return false
			}
		}
	}
	return true
}

// AccountReader is implemented by Interested decoders that keep only some
// accounts of their owners: every account they turn into rows matches one
// of AccountReads. An owner of the decoder's Interest without a read here
// is read whole.
type AccountReader interface {
	AccountReads() []AccountRead
}

// Reads lists what a listing source reads so that every decoder of decs
// sees each account it keeps: per account owner of a decoder's Interest,
// that decoder's reads of the owner, or the whole owner when it gives
// none (or when any decoder reads the owner whole). Owners come in
// first-seen order.
func Reads(decs ...Decoder) []AccountRead {
	var owners []solana.Pubkey
	whole := map[solana.Pubkey]bool{}
	narrow := map[solana.Pubkey][]AccountRead{}
	for _, d := range decs {
		in, ok := d.(Interested)
		if !ok {
			continue
		}
		var reads []AccountRead
		if r, ok := d.(AccountReader); ok {
			reads = r.AccountReads()
		}
		for _, o := range in.Interest().AccountOwners {
			if !slices.Contains(owners, o) {
				owners = append(owners, o)
			}
			n := 0
			for _, r := range reads {
				if r.Owner == o {
					narrow[o] = append(narrow[o], r)
					n++
				}
			}
			if n == 0 {
				whole[o] = true
			}
		}
	}
	var out []AccountRead
	for _, o := range owners {
		if whole[o] {
			out = append(out, AccountRead{Owner: o})
			continue
		}
		out = append(out, narrow[o]...)
	}
	return out
}
