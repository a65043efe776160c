package assetstate

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest/arrowbatch"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// MetadataRow is one asset_metadata row: the fetch state of one URI.
type MetadataRow struct {
	Key                solana.Pubkey // assetdocs.URIKey(URI)
	URI                string
	Status, Reason     string
	Attempts           uint32
	HTTPStatus         uint16
	NextAt, FetchedAt  uint64 // unix milliseconds
	UpdatedAt, Version uint64
}

// Table implements arrowbatch.Row.
func (*MetadataRow) Table() string { return schema.TableAssetMetadata }

// MetadataTable is asset_metadata, which the fold step queues URIs in
// and the fetcher records outcomes in.
func MetadataTable() arrowbatch.Table {
	return arrowbatch.Table{Name: schema.TableAssetMetadata, AnyOrder: true, New: func(mem memory.Allocator) arrowbatch.Builder {
		return newMetadataBuilder(mem)
	}}
}

type metadataBuilder struct {
	arrowbatch.Base
	hash                                  *array.FixedSizeBinaryBuilder
	uri, status, reason                   *array.StringBuilder
	attempts                              *array.Uint32Builder
	httpStatus                            *array.Uint16Builder
	nextAt, fetchedAt, updatedAt, version *array.Uint64Builder
}

func newMetadataBuilder(mem memory.Allocator) *metadataBuilder {
	str, u64 := arrow.BinaryTypes.String, arrow.PrimitiveTypes.Uint64
	b := &metadataBuilder{}
	b.Base = arrowbatch.NewBase(
		arrowbatch.Col(mem, &b.hash, "hash", arrowbatch.PubkeyType()),
		arrowbatch.Col(mem, &b.uri, "uri", str),
		arrowbatch.Col(mem, &b.status, "status", str),
		arrowbatch.Col(mem, &b.reason, "reason", str),
		arrowbatch.Col(mem, &b.attempts, "attempts", arrow.PrimitiveTypes.Uint32),
		arrowbatch.Col(mem, &b.httpStatus, "http_status", arrow.PrimitiveTypes.Uint16),
		arrowbatch.Col(mem, &b.nextAt, "next_at", u64),
		arrowbatch.Col(mem, &b.fetchedAt, "fetched_at", u64),
		arrowbatch.Col(mem, &b.updatedAt, "updated_at", u64),
		arrowbatch.Col(mem, &b.version, "version", u64),
	)
	return b
}

func (b *metadataBuilder) Append(r arrowbatch.Row) error {
	row, ok := r.(*MetadataRow)
	if !ok {
		return fmt.Errorf("%s: cannot append %T", schema.TableAssetMetadata, r)
	}
	b.hash.Append(row.Key[:])
	b.uri.Append(row.URI)
	b.status.Append(row.Status)
	b.reason.Append(row.Reason)
	b.attempts.Append(row.Attempts)
	b.httpStatus.Append(row.HTTPStatus)
	b.nextAt.Append(row.NextAt)
	b.fetchedAt.Append(row.FetchedAt)
	b.updatedAt.Append(row.UpdatedAt)
	b.version.Append(row.Version)
	b.Added(32 + len(row.URI) + len(row.Status) + len(row.Reason) + 6 + 32)
	return nil
}

// MetadataDocRow is one asset_metadata_docs row: the document fetched
// from URI.
type MetadataDocRow struct {
	Key         solana.Pubkey
	URI         string
	Doc         []byte
	ContentType string
	FetchedAt   uint64 // unix milliseconds
	Version     uint64
}

// Table implements arrowbatch.Row.
func (*MetadataDocRow) Table() string { return schema.TableAssetMetadataDocs }

// MetadataDocsTable is asset_metadata_docs, which the fetcher writes.
func MetadataDocsTable() arrowbatch.Table {
	return arrowbatch.Table{Name: schema.TableAssetMetadataDocs, AnyOrder: true, New: func(mem memory.Allocator) arrowbatch.Builder {
		return newMetadataDocsBuilder(mem)
	}}
}

type metadataDocsBuilder struct {
	arrowbatch.Base
	hash               *array.FixedSizeBinaryBuilder
	uri, ctype         *array.StringBuilder
	doc                *array.BinaryBuilder
	size               *array.Uint32Builder
	fetchedAt, version *array.Uint64Builder
}

func newMetadataDocsBuilder(mem memory.Allocator) *metadataDocsBuilder {
	str, u64 := arrow.BinaryTypes.String, arrow.PrimitiveTypes.Uint64
	b := &metadataDocsBuilder{}
	b.Base = arrowbatch.NewBase(
		arrowbatch.Col(mem, &b.hash, "hash", arrowbatch.PubkeyType()),
		arrowbatch.Col(mem, &b.uri, "uri", str),
		arrowbatch.Col(mem, &b.doc, "doc", arrow.BinaryTypes.Binary),
		arrowbatch.Col(mem, &b.ctype, "content_type", str),
		arrowbatch.Col(mem, &b.size, "size", arrow.PrimitiveTypes.Uint32),
		arrowbatch.Col(mem, &b.fetchedAt, "fetched_at", u64),
		arrowbatch.Col(mem, &b.version, "version", u64),
	)
	return b
}

func (b *metadataDocsBuilder) Append(r arrowbatch.Row) error {
	row, ok := r.(*MetadataDocRow)
	if !ok {
		return fmt.Errorf("%s: cannot append %T", schema.TableAssetMetadataDocs, r)
	}
	b.hash.Append(row.Key[:])
	b.uri.Append(row.URI)
	b.doc.Append(row.Doc)
	b.ctype.Append(row.ContentType)
	b.size.Append(uint32(len(row.Doc)))
	b.fetchedAt.Append(row.FetchedAt)
	b.version.Append(row.Version)
	b.Added(32 + len(row.URI) + len(row.Doc) + len(row.ContentType) + 20)
	return nil
}

// WriteMetadata inserts rows into asset_metadata in one record.
func WriteMetadata(ctx context.Context, s arrowstore.Writer, rows []MetadataRow) error {
	return writeRows(ctx, s, MetadataTable(), rows, "metadata fetch states")
}

// WriteMetadataDocs inserts rows into asset_metadata_docs in one record.
func WriteMetadataDocs(ctx context.Context, s arrowstore.Writer, rows []MetadataDocRow) error {
	return writeRows(ctx, s, MetadataDocsTable(), rows, "metadata documents")
}
