package compressedstate

import (
	"encoding/binary"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/dasch-labs/dasch/chain/light"
	"github.com/dasch-labs/dasch/ingest/arrowbatch"
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
	// An output's row is the same whichever transaction range writes it:
	// its hash names its tree position and content.
	return arrowbatch.Table{Name: schema.TableCompressed, AnyOrder: true,
		New: func(mem memory.Allocator) arrowbatch.Builder { return newAccountsBuilder(mem) }}
}

// accountsBuilder writes its columns straight into slices (columns.go):
// it takes a row per output, the most rows of any table.
type accountsBuilder struct {
	arrowbatch.Base

	hash, tree, queue, owner, address, dataHash, mint, tokenOwner, delegate fixedCol
	sig                                                                     fixedCol
	treeType, tokenState                                                    u8Col
	leafIndex, seq, slot, lamports, disc, amount                            u64Col
	inQueue, isToken                                                        boolCol
	data, tlv                                                               binCol
}

var _ arrowbatch.Builder = (*accountsBuilder)(nil)

func newAccountsBuilder(memory.Allocator) *accountsBuilder {
	key, u64, flag := arrowbatch.PubkeyType(), arrow.PrimitiveTypes.Uint64, arrow.FixedWidthTypes.Boolean
	col, opt := arrowbatch.FinishCol, arrowbatch.NullableFinishCol
	b := &accountsBuilder{}
	for _, c := range []*fixedCol{&b.hash, &b.tree, &b.queue, &b.owner, &b.address, &b.dataHash, &b.mint, &b.tokenOwner, &b.delegate} {
		c.width = 32
	}
	b.sig.width = 8
	b.Base = arrowbatch.NewBase(
		col("hash", key, b.hash.finish),
		col("tree", key, b.tree.finish),
		col("queue", key, b.queue.finish),
		col("tree_type", arrow.PrimitiveTypes.Uint8, b.treeType.finish),
		col("leaf_index", u64, b.leafIndex.finish),
		opt("seq", u64, b.seq.finish),
		col("in_output_queue", flag, b.inQueue.finish),
		col("slot_created", u64, b.slot.finish),
		col("sig_prefix", arrowbatch.SigPrefixType(), b.sig.finish),
		col("owner", key, b.owner.finish),
		col("lamports", u64, b.lamports.finish),
		opt("address", key, b.address.finish),
		opt("discriminator", u64, b.disc.finish),
		opt("data", arrow.BinaryTypes.Binary, b.data.finish),
		opt("data_hash", key, b.dataHash.finish),
		col("is_token", flag, b.isToken.finish),
		col("mint", key, b.mint.finish),
		col("token_owner", key, b.tokenOwner.finish),
		col("amount", u64, b.amount.finish),
		opt("delegate", key, b.delegate.finish),
		col("token_state", arrow.PrimitiveTypes.Uint8, b.tokenState.finish),
		opt("tlv", arrow.BinaryTypes.Binary, b.tlv.finish),
	)
	return b
}

func (b *accountsBuilder) Append(r arrowbatch.Row) error {
	row, ok := r.(*accountRow)
	if !ok {
		return fmt.Errorf("%s: cannot append %T", schema.TableCompressed, r)
	}
	o := (*light.OutputAccount)(row)
	n := b.Len()
	b.hash.addKey((*[32]byte)(&o.Hash))
	b.tree.addKey((*[32]byte)(&o.Tree))
	b.queue.addKey((*[32]byte)(&o.Queue))
	b.treeType.add(uint8(o.TreeType))
	b.leafIndex.add(uint64(o.LeafIndex))
	if o.Seq != nil {
		b.seq.addOpt(n, *o.Seq, true)
	} else {
		b.seq.addOpt(n, 0, false)
	}
	b.inQueue.add(n, o.InOutputQueue)
	b.slot.add(o.SlotCreated)
	b.sig.add(o.Signature[:8])
	b.owner.addKey((*[32]byte)(&o.Owner))
	b.lamports.add(o.Lamports)
	b.address.addOptKey(n, o.Address)
	size := 3*32 + 1 + 8 + 8 + 1 + 8 + 8 + 32 + 8 + 32
	if d := o.Data; d != nil {
		// The API serves the discriminator as a little-endian u64.
		b.disc.addOpt(n, binary.LittleEndian.Uint64(d.Discriminator[:]), true)
		// Token data that its token columns encode back exactly is not
		// stored twice: readers rebuild it (light.AppendTokenData).
		if o.Token != nil && light.IsCanonicalTokenData(o.Token, d.Data) {
			b.data.addOpt(n, nil, false)
		} else {
			b.data.addOpt(n, d.Data, true)
			size += len(d.Data)
		}
		b.dataHash.addOptKey(n, (*[32]byte)(&d.DataHash))
		size += 8 + 32
	} else {
		b.disc.addOpt(n, 0, false)
		b.data.addOpt(n, nil, false)
		b.dataHash.addOptKey(n, nil)
	}
	size += b.appendToken(n, o.Token)
	b.Added(size)
	return nil
}

// appendToken appends row n's token columns; a non-token account has
// zero mint, owner and amount, no delegate and no TLV.
func (b *accountsBuilder) appendToken(n int, t *light.TokenData) int {
	if t == nil {
		var zero [32]byte
		b.isToken.add(n, false)
		b.mint.addKey(&zero)
		b.tokenOwner.addKey(&zero)
		b.amount.add(0)
		b.delegate.addOptKey(n, nil)
		b.tokenState.add(0)
		b.tlv.addOpt(n, nil, false)
		return 1 + 32 + 32 + 8 + 1
	}
	b.isToken.add(n, true)
	b.mint.addKey((*[32]byte)(&t.Mint))
	b.tokenOwner.addKey((*[32]byte)(&t.Owner))
	b.amount.add(t.Amount)
	b.delegate.addOptKey(n, (*[32]byte)(t.Delegate))
	b.tokenState.add(uint8(t.State))
	b.tlv.addOpt(n, t.TLV, t.TLV != nil)
	return 1 + 32 + 32 + 8 + 32 + 1 + len(t.TLV)
}
