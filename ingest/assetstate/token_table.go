package assetstate

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/chain/token"
	"github.com/dasch-labs/dasch/ingest/arrowbatch"
	"github.com/dasch-labs/dasch/schema"
)

// TokenAccountRow is an SPL token account as decoded at ingest, a row of
// asset_token_accounts; TokenOwnerRow is the same row in
// asset_token_owners.
type TokenAccountRow struct {
	Address            solana.Pubkey
	Account            *token.TokenAccount
	Slot, WriteVersion uint64
	ExtensionsJSON     string
	// Closed marks the tombstone of a closed account (endClosed).
	Closed bool
}

// TokenOwnerRow files a TokenAccountRow under its owner.
type TokenOwnerRow struct{ *TokenAccountRow }

// Table implements arrowbatch.Row.
func (*TokenAccountRow) Table() string { return schema.TableAssetTokenAccounts }

// Table implements arrowbatch.Row.
func (TokenOwnerRow) Table() string { return schema.TableAssetTokenOwners }

func tokenTables() []arrowbatch.Table {
	return []arrowbatch.Table{tokenTable(schema.TableAssetTokenAccounts), tokenTable(schema.TableAssetTokenOwners)}
}

// tokenTable is one of the token tables, by name.
func tokenTable(name string) arrowbatch.Table {
	return arrowbatch.Table{Name: name, New: func(mem memory.Allocator) arrowbatch.Builder {
		return newTokenBuilder(mem, name)
	}}
}

type tokenBuilder struct {
	arrowbatch.Base
	table                                string
	address, mint, owner, program        *array.FixedSizeBinaryBuilder
	delegate, closeAuthority             *array.FixedSizeBinaryBuilder
	amount, delegated, slot, writeVerson *array.Uint64Builder
	frozen, closed                       *array.BooleanBuilder
	extensions                           *array.StringBuilder
}

func newTokenBuilder(mem memory.Allocator, table string) *tokenBuilder {
	key, u64 := arrowbatch.PubkeyType(), arrow.PrimitiveTypes.Uint64
	b := &tokenBuilder{table: table}
	b.Base = arrowbatch.NewBase(
		arrowbatch.Col(mem, &b.address, "address", key),
		arrowbatch.Col(mem, &b.mint, "mint", key),
		arrowbatch.Col(mem, &b.owner, "owner", key),
		arrowbatch.Col(mem, &b.program, "program", key),
		arrowbatch.Col(mem, &b.amount, "amount", u64),
		arrowbatch.Col(mem, &b.frozen, "frozen", arrow.FixedWidthTypes.Boolean),
		arrowbatch.NullableCol(mem, &b.delegate, "delegate", key),
		arrowbatch.Col(mem, &b.delegated, "delegated_amount", u64),
		arrowbatch.NullableCol(mem, &b.closeAuthority, "close_authority", key),
		arrowbatch.Col(mem, &b.extensions, "extensions", arrow.BinaryTypes.String),
		arrowbatch.Col(mem, &b.slot, "slot", u64),
		arrowbatch.Col(mem, &b.writeVerson, "write_version", u64),
		arrowbatch.Col(mem, &b.closed, "closed", arrow.FixedWidthTypes.Boolean),
	)
	return b
}

func (b *tokenBuilder) Append(r arrowbatch.Row) error {
	var row *TokenAccountRow
	switch t := r.(type) {
	case *TokenAccountRow:
		row = t
	case TokenOwnerRow:
		row = t.TokenAccountRow
	case *TokenOwnerRow:
		row = t.TokenAccountRow
	}
	if row == nil || r.Table() != b.table {
		return fmt.Errorf("%s: cannot append %T", b.table, r)
	}
	a := row.Account
	b.address.Append(row.Address[:])
	b.mint.Append(a.Mint[:])
	b.owner.Append(a.Owner[:])
	b.program.Append(a.Program[:])
	b.amount.Append(a.Amount)
	b.frozen.Append(a.State == token.StateFrozen)
	appendKey(b.delegate, a.Delegate)
	b.delegated.Append(a.DelegatedAmount)
	appendKey(b.closeAuthority, a.CloseAuthority)
	b.extensions.Append(row.ExtensionsJSON)
	b.slot.Append(row.Slot)
	b.writeVerson.Append(row.WriteVersion)
	b.closed.Append(row.Closed)
	b.Added(32*6 + 33 + len(row.ExtensionsJSON))
	return nil
}
