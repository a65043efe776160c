package assetstate

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/dasch-labs/dasch/ingest/arrowbatch"
	"github.com/dasch-labs/dasch/schema"
)

// DocRow is one asset_docs row: the serving copy of a folded asset's
// document, written from its asset_state row.
type DocRow struct {
	*StateRow
	// Visible, when not 0, is written as the slot instead of the state's:
	// the slot from which readers see this document (see keepPrevious).
	Visible uint64
}

// Table implements arrowbatch.Row.
func (DocRow) Table() string { return schema.TableAssetDocs }

// slot is the slot written for the row.
func (r *DocRow) slot() uint64 {
	if r.Visible != 0 {
		return r.Visible
	}
	return r.Slot
}

// PrevDocRow is one asset_docs_prev row: the document an asset_docs row
// replaced, kept while the checkpoint has not reached the replacement.
type PrevDocRow struct{ DocRow }

// Table implements arrowbatch.Row.
func (PrevDocRow) Table() string { return schema.TableAssetDocsPrev }

// PrevDocsTable is asset_docs_prev, which the fold step writes before
// asset_docs.
func PrevDocsTable() arrowbatch.Table {
	return arrowbatch.Table{Name: schema.TableAssetDocsPrev, New: func(mem memory.Allocator) arrowbatch.Builder {
		return newDocsBuilder(mem)
	}}
}

// DocsTable is asset_docs, which the fold step writes after asset_state.
func DocsTable() arrowbatch.Table {
	return arrowbatch.Table{Name: schema.TableAssetDocs, New: func(mem memory.Allocator) arrowbatch.Builder {
		return newDocsBuilder(mem)
	}}
}

type docsBuilder struct {
	arrowbatch.Base
	id          *array.FixedSizeBinaryBuilder
	slot        *array.Uint64Builder
	status, msg *array.StringBuilder
	doc         *array.BinaryBuilder
}

func newDocsBuilder(mem memory.Allocator) *docsBuilder {
	str := arrow.BinaryTypes.String
	b := &docsBuilder{}
	b.Base = arrowbatch.NewBase(
		arrowbatch.Col(mem, &b.id, "id", arrowbatch.PubkeyType()),
		arrowbatch.Col(mem, &b.slot, "slot", arrow.PrimitiveTypes.Uint64),
		arrowbatch.Col(mem, &b.status, "status", str),
		arrowbatch.Col(mem, &b.msg, "error", str),
		arrowbatch.Col(mem, &b.doc, "doc", arrow.BinaryTypes.Binary),
	)
	return b
}

func (b *docsBuilder) Append(r arrowbatch.Row) error {
	var row *DocRow
	switch r := r.(type) {
	case *DocRow:
		row = r
	case *PrevDocRow:
		row = &r.DocRow
	}
	if row == nil || row.StateRow == nil {
		return fmt.Errorf("%s: cannot append %T", schema.TableAssetDocs, r)
	}
	b.id.Append(row.ID[:])
	b.slot.Append(row.slot())
	b.status.Append(row.Status)
	b.msg.Append(row.Error)
	b.doc.Append(row.Doc)
	b.Added(32 + 8 + len(row.Status) + len(row.Error) + len(row.Doc))
	return nil
}
