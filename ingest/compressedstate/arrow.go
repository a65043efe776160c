package compressedstate

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Column helpers shared by the builders of this package.

func field(name string, t arrow.DataType) arrow.Field { return arrow.Field{Name: name, Type: t} }

func appendOptU64(b *array.Uint64Builder, v *uint64) {
	if v == nil {
		b.AppendNull()
		return
	}
	b.Append(*v)
}

// appendOptKey appends a nullable FixedString(32).
func appendOptKey(b *array.FixedSizeBinaryBuilder, k *[32]byte) {
	if k == nil {
		b.AppendNull()
		return
	}
	b.Append(k[:])
}

// appendOptBytes appends a nullable String.
func appendOptBytes(b *array.BinaryBuilder, v []byte, ok bool) {
	if !ok {
		b.AppendNull()
		return
	}
	b.Append(v)
}
