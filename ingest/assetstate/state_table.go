package assetstate

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest/arrowbatch"
	"github.com/dasch-labs/dasch/schema"
)

// StateRow is one asset_state row: an asset as FoldStep folds it.
type StateRow struct {
	ID, Edition   solana.Pubkey
	Collection    *solana.Pubkey
	Version, Slot uint64
	Status, Error string
	Doc           []byte
	Listing
	// keys are the keys the asset is listed under (keysOf).
	keys []assetKey
}

// Listing is what searchAssets filters an asset by, decoded from its
// folded document (zero for an asset with no document).
type Listing struct {
	Interface, OwnerType, RoyaltyModel string
	Owner                              solana.Pubkey // zero: none
	Delegate, SupplyMint, Tree         *solana.Pubkey
	RoyaltyTarget                      *solana.Pubkey
	Frozen, Burnt                      bool
	Compressed, Compressible           bool
	Supply                             uint64
	RoyaltyBPS                         uint32
	JSONURI, Name                      string
	CreatedSlot                        uint64
	// PrintSupply and PrintMaxSupply are a master edition's counts; nil
	// for any other asset (PrintMaxSupply also for an unlimited master).
	PrintSupply, PrintMaxSupply *uint64
	// IsAgent, AgentToken and AssetSigner are a Core asset's agent
	// registration and signer PDA.
	IsAgent                 bool
	AgentToken, AssetSigner *solana.Pubkey
}

// Table implements arrowbatch.Row.
func (*StateRow) Table() string { return schema.TableAssetState }

// StateTable is asset_state, which the fold step writes.
func StateTable() arrowbatch.Table {
	return arrowbatch.Table{Name: schema.TableAssetState, New: func(mem memory.Allocator) arrowbatch.Builder {
		return newStateBuilder(mem)
	}}
}

type stateBuilder struct {
	arrowbatch.Base
	listingCols
	id, edition, collection *array.FixedSizeBinaryBuilder
	version, slot, created  *array.Uint64Builder
	status, msg             *array.StringBuilder
	doc                     *array.BinaryBuilder
	printSupply, printMax   *array.Uint64Builder
	keys                    *array.ListBuilder
	keyVals                 *array.BinaryBuilder
}

func newStateBuilder(mem memory.Allocator) *stateBuilder {
	key, u64, str := arrowbatch.PubkeyType(), arrow.PrimitiveTypes.Uint64, arrow.BinaryTypes.String
	b := &stateBuilder{}
	cols := []arrowbatch.Column{
		arrowbatch.Col(mem, &b.id, "id", key),
		arrowbatch.Col(mem, &b.version, "version", u64),
		arrowbatch.Col(mem, &b.slot, "slot", u64),
		arrowbatch.Col(mem, &b.status, "status", str),
		arrowbatch.Col(mem, &b.msg, "error", str),
		arrowbatch.Col(mem, &b.doc, "doc", arrow.BinaryTypes.Binary),
		arrowbatch.Col(mem, &b.edition, "edition", key),
		arrowbatch.NullableCol(mem, &b.collection, "collection", key),
	}
	cols = append(cols, b.listingCols.columns(mem)...)
	cols = append(cols,
		arrowbatch.Col(mem, &b.created, "created_slot", u64),
		arrowbatch.NullableCol(mem, &b.printSupply, "print_supply", u64),
		arrowbatch.NullableCol(mem, &b.printMax, "print_max_supply", u64),
		arrowbatch.Col(mem, &b.keys, "keys", arrow.ListOfNonNullable(arrow.BinaryTypes.Binary)),
	)
	b.Base = arrowbatch.NewBase(cols...)
	b.keyVals = b.keys.ValueBuilder().(*array.BinaryBuilder)
	return b
}

func appendOptU64(b *array.Uint64Builder, v *uint64) {
	if v != nil {
		b.Append(*v)
	} else {
		b.AppendNull()
	}
}

func appendKey(b *array.FixedSizeBinaryBuilder, k *solana.Pubkey) {
	if k != nil {
		b.Append(k[:])
	} else {
		b.AppendNull()
	}
}

func (b *stateBuilder) Append(r arrowbatch.Row) error {
	row, ok := r.(*StateRow)
	if !ok {
		return fmt.Errorf("%s: cannot append %T", schema.TableAssetState, r)
	}
	b.id.Append(row.ID[:])
	b.version.Append(row.Version)
	b.slot.Append(row.Slot)
	b.status.Append(row.Status)
	b.msg.Append(row.Error)
	b.doc.Append(row.Doc)
	b.edition.Append(row.Edition[:])
	appendKey(b.collection, row.Collection)
	l := &row.Listing
	size := b.listingCols.append(l)
	b.created.Append(l.CreatedSlot)
	appendOptU64(b.printSupply, l.PrintSupply)
	appendOptU64(b.printMax, l.PrintMaxSupply)
	b.keys.Append(true)
	for _, k := range row.keys {
		b.keyVals.Append(k.encode())
	}
	b.Added(96 + 40 + size + len(row.Status) + len(row.Error) + len(row.Doc) + 48*len(row.keys))
	return nil
}

// KeyRow is one asset_keys row: asset ID listed under Key on Path.
type KeyRow struct {
	Path        string
	Key, ID     solana.Pubkey
	Verified    bool
	Slot        uint64
	CreatedSlot uint64
	Version     uint64
	Deleted     bool
	Doc         []byte // the asset's folded document; empty in a tombstone
	// Listing is the asset's search conditions, on a listed row; nil
	// (zero columns) on a tombstone or a depends row.
	Listing *Listing
}

// Table implements arrowbatch.Row.
func (*KeyRow) Table() string { return schema.TableAssetKeys }

// KeysTable is asset_keys, which the fold step writes.
func KeysTable() arrowbatch.Table {
	return arrowbatch.Table{Name: schema.TableAssetKeys, New: func(mem memory.Allocator) arrowbatch.Builder {
		return newKeysBuilder(mem)
	}}
}

type keysBuilder struct {
	arrowbatch.Base
	listingCols
	path                   *array.StringBuilder
	key, id                *array.FixedSizeBinaryBuilder
	verified               *array.BooleanBuilder
	slot, created, version *array.Uint64Builder
	deleted                *array.Uint8Builder
	doc                    *array.BinaryBuilder
}

func newKeysBuilder(mem memory.Allocator) *keysBuilder {
	key, u64 := arrowbatch.PubkeyType(), arrow.PrimitiveTypes.Uint64
	b := &keysBuilder{}
	cols := []arrowbatch.Column{
		arrowbatch.Col(mem, &b.path, "path", arrow.BinaryTypes.String),
		arrowbatch.Col(mem, &b.key, "key", key),
		arrowbatch.Col(mem, &b.id, "id", key),
		arrowbatch.Col(mem, &b.verified, "verified", arrow.FixedWidthTypes.Boolean),
		arrowbatch.Col(mem, &b.slot, "slot", u64),
		arrowbatch.Col(mem, &b.created, "created_slot", u64),
		arrowbatch.Col(mem, &b.version, "version", u64),
		arrowbatch.Col(mem, &b.deleted, "is_deleted", arrow.PrimitiveTypes.Uint8),
		arrowbatch.Col(mem, &b.doc, "doc", arrow.BinaryTypes.Binary),
	}
	b.Base = arrowbatch.NewBase(append(cols, b.listingCols.columns(mem)...)...)
	return b
}

func (b *keysBuilder) Append(r arrowbatch.Row) error {
	row, ok := r.(*KeyRow)
	if !ok {
		return fmt.Errorf("%s: cannot append %T", schema.TableAssetKeys, r)
	}
	b.path.Append(row.Path)
	b.key.Append(row.Key[:])
	b.id.Append(row.ID[:])
	b.verified.Append(row.Verified)
	b.slot.Append(row.Slot)
	b.created.Append(row.CreatedSlot)
	b.version.Append(row.Version)
	var del uint8
	if row.Deleted {
		del = 1
	}
	b.deleted.Append(del)
	b.doc.Append(row.Doc)
	l := row.Listing
	if l == nil {
		l = &Listing{}
	}
	size := b.listingCols.append(l)
	b.Added(len(row.Path) + 64 + 26 + len(row.Doc) + size)
	return nil
}

// EditionRow is one asset_editions row: print Edition (of mint Mint,
// number Number) under master edition Master.
type EditionRow struct {
	Master, Edition, Mint solana.Pubkey
	Number, Slot          uint64
	Version               uint64
	Deleted               bool
}

// Table implements arrowbatch.Row.
func (*EditionRow) Table() string { return schema.TableAssetEditions }

// EditionsTable is asset_editions, which the fold step writes.
func EditionsTable() arrowbatch.Table {
	return arrowbatch.Table{Name: schema.TableAssetEditions, New: func(mem memory.Allocator) arrowbatch.Builder {
		return newEditionsBuilder(mem)
	}}
}

type editionsBuilder struct {
	arrowbatch.Base
	master, edition, mint *array.FixedSizeBinaryBuilder
	number, slot, version *array.Uint64Builder
	deleted               *array.Uint8Builder
}

func newEditionsBuilder(mem memory.Allocator) *editionsBuilder {
	key, u64 := arrowbatch.PubkeyType(), arrow.PrimitiveTypes.Uint64
	b := &editionsBuilder{}
	b.Base = arrowbatch.NewBase(
		arrowbatch.Col(mem, &b.master, "master", key),
		arrowbatch.Col(mem, &b.edition, "edition", key),
		arrowbatch.Col(mem, &b.mint, "mint", key),
		arrowbatch.Col(mem, &b.number, "number", u64),
		arrowbatch.Col(mem, &b.slot, "slot", u64),
		arrowbatch.Col(mem, &b.version, "version", u64),
		arrowbatch.Col(mem, &b.deleted, "is_deleted", arrow.PrimitiveTypes.Uint8),
	)
	return b
}

func (b *editionsBuilder) Append(r arrowbatch.Row) error {
	row, ok := r.(*EditionRow)
	if !ok {
		return fmt.Errorf("%s: cannot append %T", schema.TableAssetEditions, r)
	}
	b.master.Append(row.Master[:])
	b.edition.Append(row.Edition[:])
	b.mint.Append(row.Mint[:])
	b.number.Append(row.Number)
	b.slot.Append(row.Slot)
	b.version.Append(row.Version)
	var del uint8
	if row.Deleted {
		del = 1
	}
	b.deleted.Append(del)
	b.Added(96 + 25)
	return nil
}
