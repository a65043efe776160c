package compressed

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/dasch-labs/dasch/store"
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
// again. The token index loads every unspent account this way: for a 20M-
// account bench store that decoding and its garbage took about half of a
// 112 s load. Sequence numbers and account data point into one array per
// read (readers copy them out); addresses, data and TLV bytes are
// allocated apart, as the index keeps them.
func readTokenRowsRaw(ctx context.Context, rq store.RawQuerier, sql string, params store.Params) ([]TokenRow, error) {
	b, err := rq.QueryRaw(ctx, sql, params, "RowBinaryWithNamesAndTypes")
	if err != nil {
		return nil, err
	}
	return decodeTokenRows(b)
}

// decodeTokenRows decodes tokenRowColumns as RowBinaryWithNamesAndTypes.
func decodeTokenRows(b []byte) ([]TokenRow, error) {
	r := rawReader{b: b}
	if err := r.header(tokenRowTypes[:]); err != nil {
		return nil, err
	}
	// About 250 bytes a row; the arrays are sized once from that.
	est := len(b)/200 + 1
	out := make([]TokenRow, 0, est)
	seqs := make([]uint64, 0, est)
	datas := make([]AccountData, 0, est)
	for r.err == nil && r.off < len(r.b) {
		var t TokenRow
		a := &t.Account
		r.key(&a.Hash)
		r.key(&a.Tree)
		r.key(&a.Queue)
		a.TreeType = r.u8()
		a.LeafIndex = r.u64()
		if r.present() {
			seqs = append(seqs, r.u64())
			a.Seq = &seqs[len(seqs)-1]
		}
		a.InOutputQueue = r.u8() != 0
		a.SlotCreated = r.u64()
		r.key(&a.Owner)
		a.Lamports = r.u64()
		a.Address = r.optKey()
		var d AccountData
		hasDisc := r.present()
		if hasDisc {
			d.Discriminator = r.u64()
		}
		if r.present() {
			t.DataStored = true
			d.Data = r.bytes()
		}
		if r.present() {
			r.key(&d.DataHash)
		}
		// As the decoded scan does: data and its hash count only with a
		// discriminator.
		if hasDisc {
			datas = append(datas, d)
			a.Data = &datas[len(datas)-1]
		}
		a.IsToken = r.u8() != 0
		r.key(&a.Mint)
		r.key(&a.TokenOwner)
		a.Amount = r.u64()
		a.Delegate = r.optKey()
		a.TokenState = r.u8()
		if r.present() {
			a.TLV = r.bytes()
		}
		t.Spent = r.u8() != 0
		t.SpentSlot = r.u64()
		if r.err == nil {
			out = append(out, t)
		}
	}
	if r.err != nil {
		return nil, fmt.Errorf("row %d: %w", len(out), r.err)
	}
	return out, nil
}

// rawReader reads RowBinary values; the first short read sets err, and
// every read after it returns zero values.
type rawReader struct {
	b   []byte
	off int
	err error
}

var errRawShort = errors.New("unexpected end of data")

func (r *rawReader) take(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > len(r.b)-r.off {
		r.err = errRawShort
		return nil
	}
	p := r.b[r.off : r.off+n]
	r.off += n
	return p
}

func (r *rawReader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b[r.off:])
	if n <= 0 {
		r.err = errRawShort
		return 0
	}
	r.off += n
	return v
}

func (r *rawReader) u8() uint8 {
	if p := r.take(1); p != nil {
		return p[0]
	}
	return 0
}

func (r *rawReader) u64() uint64 {
	if p := r.take(8); p != nil {
		return binary.LittleEndian.Uint64(p)
	}
	return 0
}

func (r *rawReader) key(k *Key) {
	if p := r.take(32); p != nil {
		copy(k[:], p)
	}
}

// present reads a Nullable's marker: true when a value follows.
func (r *rawReader) present() bool { return r.u8() == 0 && r.err == nil }

func (r *rawReader) optKey() *Key {
	if !r.present() {
		return nil
	}
	k := new(Key)
	r.key(k)
	return k
}

// strBytes reads a String's bytes, in the output buffer.
func (r *rawReader) strBytes() []byte {
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		r.err = errRawShort
		return nil
	}
	return r.take(int(n))
}

// bytes reads a String as a copy: the output buffer is not kept alive by
// what a reader retains.
func (r *rawReader) bytes() []byte {
	if p := r.strBytes(); p != nil {
		return append([]byte{}, p...)
	}
	return nil
}

func (r *rawReader) str() string { return string(r.strBytes()) }

// header reads RowBinaryWithNamesAndTypes's header and checks the types.
func (r *rawReader) header(types []string) error {
	if len(r.b) == 0 {
		return nil
	}
	n := r.uvarint()
	if r.err == nil && n != uint64(len(types)) {
		return fmt.Errorf("%d columns, want %d", n, len(types))
	}
	for range types {
		r.str()
	}
	for i, want := range types {
		if got := r.str(); r.err == nil && got != want {
			return fmt.Errorf("column %d is %s, want %s", i, got, want)
		}
	}
	if r.err != nil {
		return fmt.Errorf("header: %w", r.err)
	}
	return nil
}
