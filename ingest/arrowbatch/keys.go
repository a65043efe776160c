package arrowbatch

import (
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/dasch-labs/dasch/chain/solana"
)

// keyList appends Array(FixedString(32)) values.
type keyList struct {
	list *array.ListBuilder
	vals *array.FixedSizeBinaryBuilder
}

func newKeyList(l *array.ListBuilder) keyList {
	return keyList{list: l, vals: l.ValueBuilder().(*array.FixedSizeBinaryBuilder)}
}

func (k keyList) append(keys []solana.Pubkey) int {
	k.list.Append(true)
	for i := range keys {
		k.vals.Append(keys[i][:])
	}
	return 32 * len(keys)
}

func appendOptU64(b *array.Uint64Builder, v *uint64) {
	if v == nil {
		b.AppendNull()
		return
	}
	b.Append(*v)
}
