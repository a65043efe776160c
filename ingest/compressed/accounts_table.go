package compressed

import (
	"encoding/binary"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/dasch-labs/dasch/ingest/arrowbatch"
	"github.com/dasch-labs/dasch/ingest/light"
	"github.com/dasch-labs/dasch/schema"
)

// accountRow is a row of compressed_accounts: an output account in a known
// tree, as its transaction created it. It is the parsed output itself, not
// a copy: rows are appended to their builder before their event is gone,
// and nothing writes to either.
type accountRow light.OutputAccount

// Table implements arrowbatch.Row.
func (*accountRow) Table() string { return schema.TableCompressed }

func accountsTable() arrowbatch.Table {
	return arrowbatch.Table{Name: schema.TableCompressed, New: func(mem memory.Allocator) arrowbatch.Builder { return newAccountsBuilder(mem) }}
}

type accountsBuilder struct {
	arrowbatch.Base
	hash, tree, queue, owner, address, dataHash, mint, tokenOwner, delegate *array.FixedSizeBinaryBuilder
	sig                                                                     *array.FixedSizeBinaryBuilder
	treeType, tokenState                                                    *array.Uint8Builder
	leafIndex, seq, slot, lamports, disc, amount                            *array.Uint64Builder
	inQueue, isToken                                                        *array.BooleanBuilder
	data, tlv                                                               *array.BinaryBuilder
}

func newAccountsBuilder(mem memory.Allocator) *accountsBuilder {
	key, u64 := arrowbatch.PubkeyType(), arrow.PrimitiveTypes.Uint64
	sc := arrow.NewSchema([]arrow.Field{
		field("hash", key),
		field("tree", key),
		field("queue", key),
		field("tree_type", arrow.PrimitiveTypes.Uint8),
		field("leaf_index", u64),
		nullable("seq", u64),
		field("in_output_queue", arrow.FixedWidthTypes.Boolean),
		field("slot_created", u64),
		field("sig_prefix", arrowbatch.SigPrefixType()),
		field("owner", key),
		field("lamports", u64),
		nullable("address", key),
		nullable("discriminator", u64),
		nullable("data", arrow.BinaryTypes.Binary),
		nullable("data_hash", key),
		field("is_token", arrow.FixedWidthTypes.Boolean),
		field("mint", key),
		field("token_owner", key),
		field("amount", u64),
		nullable("delegate", key),
		field("token_state", arrow.PrimitiveTypes.Uint8),
		nullable("tlv", arrow.BinaryTypes.Binary),
	}, nil)
	b := &accountsBuilder{Base: arrowbatch.NewBase(mem, sc)}
	f := b.Fields()
	b.hash = f[0].(*array.FixedSizeBinaryBuilder)
	b.tree = f[1].(*array.FixedSizeBinaryBuilder)
	b.queue = f[2].(*array.FixedSizeBinaryBuilder)
	b.treeType = f[3].(*array.Uint8Builder)
	b.leafIndex = f[4].(*array.Uint64Builder)
	b.seq = f[5].(*array.Uint64Builder)
	b.inQueue = f[6].(*array.BooleanBuilder)
	b.slot = f[7].(*array.Uint64Builder)
	b.sig = f[8].(*array.FixedSizeBinaryBuilder)
	b.owner = f[9].(*array.FixedSizeBinaryBuilder)
	b.lamports = f[10].(*array.Uint64Builder)
	b.address = f[11].(*array.FixedSizeBinaryBuilder)
	b.disc = f[12].(*array.Uint64Builder)
	b.data = f[13].(*array.BinaryBuilder)
	b.dataHash = f[14].(*array.FixedSizeBinaryBuilder)
	b.isToken = f[15].(*array.BooleanBuilder)
	b.mint = f[16].(*array.FixedSizeBinaryBuilder)
	b.tokenOwner = f[17].(*array.FixedSizeBinaryBuilder)
	b.amount = f[18].(*array.Uint64Builder)
	b.delegate = f[19].(*array.FixedSizeBinaryBuilder)
	b.tokenState = f[20].(*array.Uint8Builder)
	b.tlv = f[21].(*array.BinaryBuilder)
	return b
}

func (b *accountsBuilder) Append(r arrowbatch.Row) error {
	row, ok := r.(*accountRow)
	if !ok {
		return fmt.Errorf("%s: cannot append %T", schema.TableCompressed, r)
	}
	o := (*light.OutputAccount)(row)
	b.hash.Append(o.Hash[:])
	b.tree.Append(o.Tree[:])
	b.queue.Append(o.Queue[:])
	b.treeType.Append(uint8(o.TreeType))
	b.leafIndex.Append(uint64(o.LeafIndex))
	appendOptU64(b.seq, o.Seq)
	b.inQueue.Append(o.InOutputQueue)
	b.slot.Append(o.SlotCreated)
	b.sig.Append(o.Signature[:8])
	b.owner.Append(o.Owner[:])
	b.lamports.Append(o.Lamports)
	appendOptKey(b.address, o.Address)
	size := 3*32 + 1 + 8 + 8 + 1 + 8 + 8 + 32 + 8 + 32
	if d := o.Data; d != nil {
		// The API serves the discriminator as a little-endian u64.
		b.disc.Append(binary.LittleEndian.Uint64(d.Discriminator[:]))
		// Token data that its token columns encode back exactly is not
		// stored twice: readers rebuild it (light.AppendTokenData).
		if o.Token != nil && light.IsCanonicalTokenData(o.Token, d.Data) {
			b.data.AppendNull()
		} else {
			b.data.Append(d.Data)
			size += len(d.Data)
		}
		b.dataHash.Append(d.DataHash[:])
		size += 8 + 32
	} else {
		b.disc.AppendNull()
		b.data.AppendNull()
		b.dataHash.AppendNull()
	}
	size += b.appendToken(o.Token)
	b.Added(size)
	return nil
}

// appendToken appends the token columns; a non-token account has zero
// mint, owner and amount, no delegate and no TLV.
func (b *accountsBuilder) appendToken(t *light.TokenData) int {
	var zero [32]byte
	if t == nil {
		b.isToken.Append(false)
		b.mint.Append(zero[:])
		b.tokenOwner.Append(zero[:])
		b.amount.Append(0)
		b.delegate.AppendNull()
		b.tokenState.Append(0)
		b.tlv.AppendNull()
		return 1 + 32 + 32 + 8 + 1
	}
	b.isToken.Append(true)
	b.mint.Append(t.Mint[:])
	b.tokenOwner.Append(t.Owner[:])
	b.amount.Append(t.Amount)
	if t.Delegate != nil {
		b.delegate.Append(t.Delegate[:])
	} else {
		b.delegate.AppendNull()
	}
	b.tokenState.Append(uint8(t.State))
	appendOptBytes(b.tlv, t.TLV, t.TLV != nil)
	return 1 + 32 + 32 + 8 + 32 + 1 + len(t.TLV)
}
