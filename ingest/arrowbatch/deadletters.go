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
	str := arrow.BinaryTypes.String
	b := &deadLettersBuilder{}
	b.Base = NewBase(
		Col(mem, &b.source, "source", str),
		Col(mem, &b.kind, "kind", str),
		Col(mem, &b.key, "key", str),
		Col(mem, &b.slot, "slot", arrow.PrimitiveTypes.Uint64),
		Col(mem, &b.err, "error", str),
		Col(mem, &b.payload, "payload", arrow.BinaryTypes.Binary),
	)
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
