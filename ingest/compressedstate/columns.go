package compressedstate

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Columns written straight into Go slices, for the widest table
// (compressed_accounts, one row per output): an Arrow builder's Append
// checks capacity, sets a validity bit and calls memmove for every value;
// these append to slices sized for the last batch and hand them to the
// record as they are (BenchmarkDecodeChunk). Each column takes one
// batch's values, and finish returns them as an array and starts empty,
// sized as the batch was; the slices then belong to the array, and the
// garbage collector frees them with it.

// validity is a column's validity bitmap, kept only once a null comes.
type validity struct {
	bits  []byte
	nulls int
}

// add records whether row n (the row being appended) is valid.
func (v *validity) add(n int, ok bool) {
	if ok && v.bits == nil {
		return
	}
	if v.bits == nil {
		// The first null: every earlier row was valid.
		v.bits = make([]byte, (n+8)/8, max((n+8)/8, 64))
		for i := range n {
			v.bits[i/8] |= 1 << (i % 8)
		}
	}
	for len(v.bits) < n/8+1 {
		v.bits = append(v.bits, 0)
	}
	if ok {
		v.bits[n/8] |= 1 << (n % 8)
		return
	}
	v.nulls++
}

// buffer returns the bitmap (nil without nulls) and the null count, and
// starts over.
func (v *validity) buffer() (*memory.Buffer, int) {
	if v.bits == nil {
		return nil, 0
	}
	b, n := memory.NewBufferBytes(v.bits), v.nulls
	*v = validity{}
	return b, n
}

// fixedCol is a FixedSizeBinary column of width bytes a value.
type fixedCol struct {
	width int
	vals  []byte
	valid validity
}

func (c *fixedCol) add(v []byte) { c.vals = append(c.vals, v...) }

// addKey appends a 32-byte key.
func (c *fixedCol) addKey(k *[32]byte) { c.vals = append(c.vals, k[:]...) }

// addOptKey appends a nullable 32-byte key; n is the row's index.
func (c *fixedCol) addOptKey(n int, k *[32]byte) {
	c.valid.add(n, k != nil)
	if k == nil {
		var zero [32]byte
		c.vals = append(c.vals, zero[:]...)
		return
	}
	c.vals = append(c.vals, k[:]...)
}

func (c *fixedCol) finish(n int) arrow.Array {
	bits, nulls := c.valid.buffer()
	d := array.NewData(&arrow.FixedSizeBinaryType{ByteWidth: c.width}, n,
		[]*memory.Buffer{bits, memory.NewBufferBytes(c.vals)}, nil, nulls, 0)
	defer d.Release()
	c.vals = make([]byte, 0, cap(c.vals))
	return array.MakeFromData(d)
}

// u64Col is a UInt64 column, nullable or not.
type u64Col struct {
	vals  []uint64
	valid validity
}

func (c *u64Col) add(v uint64) { c.vals = append(c.vals, v) }

func (c *u64Col) addOpt(n int, v uint64, ok bool) {
	c.valid.add(n, ok)
	if !ok {
		v = 0
	}
	c.vals = append(c.vals, v)
}

func (c *u64Col) finish(n int) arrow.Array {
	bits, nulls := c.valid.buffer()
	d := array.NewData(arrow.PrimitiveTypes.Uint64, n,
		[]*memory.Buffer{bits, memory.NewBufferBytes(arrow.Uint64Traits.CastToBytes(c.vals))}, nil, nulls, 0)
	defer d.Release()
	c.vals = make([]uint64, 0, cap(c.vals))
	return array.MakeFromData(d)
}

// u8Col is a non-nullable UInt8 column.
type u8Col struct{ vals []byte }

func (c *u8Col) add(v uint8) { c.vals = append(c.vals, v) }

func (c *u8Col) finish(n int) arrow.Array {
	d := array.NewData(arrow.PrimitiveTypes.Uint8, n, []*memory.Buffer{nil, memory.NewBufferBytes(c.vals)}, nil, 0, 0)
	defer d.Release()
	c.vals = make([]byte, 0, cap(c.vals))
	return array.MakeFromData(d)
}

// boolCol is a non-nullable Boolean column: a bitmap.
type boolCol struct{ bits []byte }

// add appends row n's value.
func (c *boolCol) add(n int, v bool) {
	if n%8 == 0 {
		c.bits = append(c.bits, 0)
	}
	if v {
		c.bits[n/8] |= 1 << (n % 8)
	}
}

func (c *boolCol) finish(n int) arrow.Array {
	d := array.NewData(arrow.FixedWidthTypes.Boolean, n, []*memory.Buffer{nil, memory.NewBufferBytes(c.bits)}, nil, 0, 0)
	defer d.Release()
	c.bits = make([]byte, 0, cap(c.bits))
	return array.MakeFromData(d)
}

// binCol is a nullable Binary column (String in the engine).
type binCol struct {
	offsets []int32
	vals    []byte
	valid   validity
}

// addOpt appends row n's value, or a null when !ok.
func (c *binCol) addOpt(n int, v []byte, ok bool) {
	if len(c.offsets) == 0 {
		c.offsets = append(c.offsets, 0)
	}
	c.valid.add(n, ok)
	if ok {
		c.vals = append(c.vals, v...)
	}
	c.offsets = append(c.offsets, int32(len(c.vals)))
}

func (c *binCol) finish(n int) arrow.Array {
	if len(c.offsets) == 0 {
		c.offsets = append(c.offsets, 0)
	}
	bits, nulls := c.valid.buffer()
	d := array.NewData(arrow.BinaryTypes.Binary, n, []*memory.Buffer{
		bits, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(c.offsets)), memory.NewBufferBytes(c.vals),
	}, nil, nulls, 0)
	defer d.Release()
	c.offsets, c.vals = make([]int32, 0, cap(c.offsets)), make([]byte, 0, cap(c.vals))
	return array.MakeFromData(d)
}

// i64Col is a non-nullable Int64 column.
type i64Col struct{ vals []int64 }

func (c *i64Col) add(v int64) { c.vals = append(c.vals, v) }

func (c *i64Col) finish(n int) arrow.Array {
	d := array.NewData(arrow.PrimitiveTypes.Int64, n,
		[]*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int64Traits.CastToBytes(c.vals))}, nil, 0, 0)
	defer d.Release()
	c.vals = make([]int64, 0, cap(c.vals))
	return array.MakeFromData(d)
}
