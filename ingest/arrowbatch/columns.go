package arrowbatch

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Column is one column of a table as its builder writes it: the Arrow
// field and the function that finishes a batch's n values as an array.
// A builder lists its columns once, to NewBase; its schema and the arrays
// of every record both come from that list, so the two cannot disagree.
type Column struct {
	Field  arrow.Field
	Finish func(n int) arrow.Array
	// ab is the Arrow builder behind Finish, if any: Base reserves room
	// in it after each record and releases it.
	ab array.Builder
}

// Col is a non-nullable column appended through an Arrow builder of type
// t: it makes the builder with mem and stores it in *dst, typed.
func Col[B array.Builder](mem memory.Allocator, dst *B, name string, t arrow.DataType) Column {
	return builderCol(mem, dst, arrow.Field{Name: name, Type: t})
}

// NullableCol is Col for a nullable column.
func NullableCol[B array.Builder](mem memory.Allocator, dst *B, name string, t arrow.DataType) Column {
	return builderCol(mem, dst, arrow.Field{Name: name, Type: t, Nullable: true})
}

func builderCol[B array.Builder](mem memory.Allocator, dst *B, f arrow.Field) Column {
	ab := array.NewBuilder(mem, f.Type)
	typed, ok := ab.(B)
	if !ok {
		// A builder's own constructor is wrong: every test that makes it
		// fails here.
		panic(fmt.Sprintf("arrowbatch: column %s of type %s is built by %T, not %T", f.Name, f.Type, ab, *dst))
	}
	*dst = typed
	return Column{Field: f, Finish: func(int) arrow.Array { return ab.NewArray() }, ab: ab}
}

// FinishCol is a non-nullable column of type t whose values finish does
// not come from an Arrow builder (builders writing slices of their own).
func FinishCol(name string, t arrow.DataType, finish func(n int) arrow.Array) Column {
	return Column{Field: arrow.Field{Name: name, Type: t}, Finish: finish}
}

// NullableFinishCol is FinishCol for a nullable column.
func NullableFinishCol(name string, t arrow.DataType, finish func(n int) arrow.Array) Column {
	return Column{Field: arrow.Field{Name: name, Type: t, Nullable: true}, Finish: finish}
}
