package compressed

import (
	"context"
	"fmt"

	"github.com/dasch-labs/dasch/store"
	"github.com/dasch-labs/dasch/store/rowbinary"
)

// tokenRowTypes are the engine's types of tokenRowColumns, in order: the
// raw read decodes this layout and refuses any other.
var tokenRowTypes = [...]string{
	"FixedString(32)", "FixedString(32)", "FixedString(32)", "UInt8", "UInt64", "Nullable(UInt64)", "Bool", "UInt64",
	"FixedString(32)", "UInt64", "Nullable(FixedString(32))", "Nullable(UInt64)", "Nullable(String)", "Nullable(FixedString(32))",
	"Bool", "FixedString(32)", "FixedString(32)", "UInt64", "Nullable(FixedString(32))", "UInt8", "Nullable(String)",
	"Bool", "UInt64",
}

// readTokenRowsRaw is readTokenRows for a store with raw output: the rows
// are decoded from RowBinary straight into TokenRows, where a decoded
// Query boxes each of the 23 values of a row and the scan copies them out
// again. The token index loads every unspent account this way, and that
// decoding and its garbage took about half of the load on the 20M-account
// bench store (docs/performance.md). Sequence numbers and account data
// point into one array per read (readers copy them out); addresses, data
// and TLV bytes are allocated apart, as the index keeps them.
func readTokenRowsRaw(ctx context.Context, rq store.RawQuerier, sql string, params store.Params) ([]TokenRow, error) {
	b, err := rq.QueryRaw(ctx, sql, params, "RowBinaryWithNamesAndTypes")
	if err != nil {
		return nil, err
	}
	return decodeTokenRows(b)
}

// decodeTokenRows decodes tokenRowColumns as RowBinaryWithNamesAndTypes.
func decodeTokenRows(b []byte) ([]TokenRow, error) {
	r := rowbinary.NewReader(b)
	if err := r.Expect(tokenRowTypes[:]); err != nil {
		return nil, err
	}
	// About 250 bytes a row; the arrays are sized once from that.
	est := len(b)/200 + 1
	out := make([]TokenRow, 0, est)
	seqs := make([]uint64, 0, est)
	datas := make([]AccountData, 0, est)
	for r.More() {
		var t TokenRow
		a := &t.Account
		copy(a.Hash[:], r.Take(32))
		copy(a.Tree[:], r.Take(32))
		copy(a.Queue[:], r.Take(32))
		a.TreeType = r.U8()
		a.LeafIndex = r.U64()
		if r.Present() {
			seqs = append(seqs, r.U64())
			a.Seq = &seqs[len(seqs)-1]
		}
		a.InOutputQueue = r.U8() != 0
		a.SlotCreated = r.U64()
		copy(a.Owner[:], r.Take(32))
		a.Lamports = r.U64()
		a.Address = rawOptKey(r)
		var d AccountData
		hasDisc := r.Present()
		if hasDisc {
			d.Discriminator = r.U64()
		}
		if r.Present() {
			t.DataStored = true
			d.Data = r.Bytes()
		}
		if r.Present() {
			copy(d.DataHash[:], r.Take(32))
		}
		// As the decoded scan does: data and its hash count only with a
		// discriminator.
		if hasDisc {
			datas = append(datas, d)
			a.Data = &datas[len(datas)-1]
		}
		a.IsToken = r.U8() != 0
		copy(a.Mint[:], r.Take(32))
		copy(a.TokenOwner[:], r.Take(32))
		a.Amount = r.U64()
		a.Delegate = rawOptKey(r)
		a.TokenState = r.U8()
		if r.Present() {
			a.TLV = r.Bytes()
		}
		t.Spent = r.U8() != 0
		t.SpentSlot = r.U64()
		if r.Err() == nil {
			out = append(out, t)
		}
	}
	if err := r.Err(); err != nil {
		return nil, fmt.Errorf("row %d: %w", len(out), err)
	}
	return out, nil
}

// rawOptKey reads a Nullable(FixedString(32)).
func rawOptKey(r *rowbinary.Reader) *Key {
	if !r.Present() {
		return nil
	}
	k := new(Key)
	copy(k[:], r.Take(32))
	return k
}
