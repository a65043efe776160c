package arrowbatch

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/dasch-labs/dasch/schema"
)

// DeadLetterRow is input that failed to decode; the time is set by the table.
type DeadLetterRow struct {
	Source  string // the source spec
	Kind    string // "transaction", "account", "block" or "file"
	Key     string // signature, pubkey or file path
	Slot    uint64 // 0 when unknown
	Error   string
	Payload []byte // the raw input
}

// Table implements Row.
func (*DeadLetterRow) Table() string { return schema.TableDeadLetters }

// DeadLettersTable describes the dead_letters table.
func DeadLettersTable() Table {
	return Table{Name: schema.TableDeadLetters, New: func(mem memory.Allocator) Builder { return newDeadLettersBuilder(mem) }}
}

type deadLettersBuilder struct {
	Base
	source, kind, key, err *array.StringBuilder
	slot                   *array.Uint64Builder
	payload                *array.BinaryBuilder
}

func newDeadLettersBuilder(mem memory.Allocator) *deadLettersBuilder {
	sc := arrow.NewSchema([]arrow.Field{
		field("source", arrow.BinaryTypes.String),
		field("kind", arrow.BinaryTypes.String),
		field("key", arrow.BinaryTypes.String),
		field("slot", arrow.PrimitiveTypes.Uint64),
		field("error", arrow.BinaryTypes.String),
		field("payload", arrow.BinaryTypes.Binary),
	}, nil)
	b := &deadLettersBuilder{Base: NewBase(mem, sc)}
	f := b.Fields()
	b.source = f[0].(*array.StringBuilder)
	b.kind = f[1].(*array.StringBuilder)
	b.key = f[2].(*array.StringBuilder)
	b.slot = f[3].(*array.Uint64Builder)
	b.err = f[4].(*array.StringBuilder)
	b.payload = f[5].(*array.BinaryBuilder)
	return b
}

func (b *deadLettersBuilder) Append(r Row) error {
	row, ok := r.(*DeadLetterRow)
	if !ok {
		return fmt.Errorf("dead_letters: cannot append %T", r)
	}
	b.source.Append(row.Source)
	b.kind.Append(row.Kind)
	b.key.Append(row.Key)
	b.slot.Append(row.Slot)
	b.err.Append(row.Error)
	b.payload.Append(row.Payload)
	b.Added(len(row.Source) + len(row.Kind) + len(row.Key) + 8 + len(row.Error) + len(row.Payload))
	return nil
}
