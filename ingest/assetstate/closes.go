package assetstate

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/dasch-labs/dasch/chain/core"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/chain/token"
	"github.com/dasch-labs/dasch/ingest/arrowbatch"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// closedAccount reports whether acc is a closed account: no lamports
// (the runtime deletes such an account), handed back to the System
// program, or an asset program's account emptied. Its data says nothing
// of what it was; what it fed is ended by the state step (endClosed).
//
// A burnt MPL Core asset or collection keeps one byte, its Uninitialized
// key: that is its close too.
func closedAccount(acc *solana.Account) bool {
	switch {
	case acc.Lamports == 0 || acc.Owner == solana.SystemProgram():
		return true
	case acc.Owner == core.CoreProgram():
		return len(acc.Data) == 0 || acc.Data[0] == core.CoreKeyUninitialized
	}
	return len(acc.Data) == 0 && slices.Contains(Decoder{}.Interest().AccountOwners, acc.Owner)
}

// PubkeyRow is an asset_pubkeys row: account Pubkey fed the asset_accounts
// row (AssetID, Kind, Pubkey), or, with Kind closed and no asset, was
// closed at (Slot, WriteVersion).
type PubkeyRow struct {
	Pubkey, AssetID    solana.Pubkey
	Kind               string
	Slot, WriteVersion uint64
}

// Table implements arrowbatch.Row.
func (*PubkeyRow) Table() string { return schema.TableAssetPubkeys }

// CloseRow is an asset_closes row: account Pubkey seen closed.
type CloseRow struct {
	Pubkey             solana.Pubkey
	Slot, WriteVersion uint64
}

// Table implements arrowbatch.Row.
func (*CloseRow) Table() string { return schema.TableAssetCloses }

func closeTables() []arrowbatch.Table {
	return []arrowbatch.Table{
		{Name: schema.TableAssetPubkeys, New: func(mem memory.Allocator) arrowbatch.Builder { return newPubkeysBuilder(mem) }},
		{Name: schema.TableAssetCloses, New: func(mem memory.Allocator) arrowbatch.Builder { return newClosesBuilder(mem) }},
	}
}

type pubkeysBuilder struct {
	arrowbatch.Base
	pubkey, assetID    *array.FixedSizeBinaryBuilder
	kind               *array.StringBuilder
	slot, writeVersion *array.Uint64Builder
}

func newPubkeysBuilder(mem memory.Allocator) *pubkeysBuilder {
	key, u64 := arrowbatch.PubkeyType(), arrow.PrimitiveTypes.Uint64
	b := &pubkeysBuilder{}
	b.Base = arrowbatch.NewBase(
		arrowbatch.Col(mem, &b.pubkey, "pubkey", key),
		arrowbatch.Col(mem, &b.assetID, "asset_id", key),
		arrowbatch.Col(mem, &b.kind, "kind", arrow.BinaryTypes.String),
		arrowbatch.Col(mem, &b.slot, "slot", u64),
		arrowbatch.Col(mem, &b.writeVersion, "write_version", u64),
	)
	return b
}

func (b *pubkeysBuilder) Append(r arrowbatch.Row) error {
	row, ok := r.(*PubkeyRow)
	if !ok {
		return fmt.Errorf("%s: cannot append %T", schema.TableAssetPubkeys, r)
	}
	b.pubkey.Append(row.Pubkey[:])
	b.assetID.Append(row.AssetID[:])
	b.kind.Append(row.Kind)
	b.slot.Append(row.Slot)
	b.writeVersion.Append(row.WriteVersion)
	b.Added(80 + len(row.Kind))
	return nil
}

type closesBuilder struct {
	arrowbatch.Base
	pubkey             *array.FixedSizeBinaryBuilder
	slot, writeVersion *array.Uint64Builder
}

func newClosesBuilder(mem memory.Allocator) *closesBuilder {
	u64 := arrow.PrimitiveTypes.Uint64
	b := &closesBuilder{}
	b.Base = arrowbatch.NewBase(
		arrowbatch.Col(mem, &b.slot, "slot", u64),
		arrowbatch.Col(mem, &b.pubkey, "pubkey", arrowbatch.PubkeyType()),
		arrowbatch.Col(mem, &b.writeVersion, "write_version", u64),
	)
	return b
}

func (b *closesBuilder) Append(r arrowbatch.Row) error {
	row, ok := r.(*CloseRow)
	if !ok {
		return fmt.Errorf("%s: cannot append %T", schema.TableAssetCloses, r)
	}
	b.slot.Append(row.Slot)
	b.pubkey.Append(row.Pubkey[:])
	b.writeVersion.Append(row.WriteVersion)
	b.Added(48)
	return nil
}

// closeChunk is how many closed accounts one resolution reads at once.
const closeChunk = 500

// stamp is a write's (slot, write_version): the newer one wins.
type stamp struct{ slot, wv uint64 }

func (a stamp) less(b stamp) bool { return a.slot < b.slot || a.slot == b.slot && a.wv < b.wv }

// endClosed ends what closed accounts fed: every asset_accounts row fed by
// an account closed in [from, to], or written in [from, to] and closed
// later (indexed out of order), is ended as endChunk says. Rows newer than
// the account's newest close (it was opened again) stay open, so applying
// a range again, or ranges in any order, writes the same rows. It runs
// before the fold, which then folds the assets whose rows it wrote.
func endClosed(ctx context.Context, s arrowstore.Writer, from, to uint64) error {
	p := store.Params{"from": strconv.FormatUint(from, 10), "to": strconv.FormatUint(to, 10)}
	// The range's closes, a chunk at a time in (slot, pubkey) order: a
	// range read of asset_closes.
	after := struct {
		slot uint64
		key  solana.Pubkey
	}{}
	for first := true; ; first = false {
		cond := "slot BETWEEN {from:UInt64} AND {to:UInt64}"
		if !first {
			cond += " AND (slot, pubkey) > ({as:UInt64}, {ak:FixedString(32)})"
			p["as"], p["ak"] = strconv.FormatUint(after.slot, 10), string(after.key[:])
		}
		res, err := s.Query(ctx, `SELECT DISTINCT slot, pubkey FROM asset_closes WHERE `+cond+
			` ORDER BY slot, pubkey LIMIT `+strconv.Itoa(closeChunk), p)
		if err != nil {
			return fmt.Errorf("find closed accounts: %w", err)
		}
		keys := make([]solana.Pubkey, 0, len(res.Rows))
		for i := range res.Rows {
			r := res.Row(i)
			after.slot, after.key = r.U64(0), r.Key(1)
			if err := r.Err(); err != nil {
				return fmt.Errorf("find closed accounts: %w", err)
			}
			keys = append(keys, after.key)
		}
		if len(keys) == 0 {
			break
		}
		if err := endChunk(ctx, s, keys); err != nil {
			return err
		}
	}
	// Writes of the range whose account was closed after it: only when a
	// range is indexed again, or out of order, is there a close after it.
	res, err := s.Query(ctx, `SELECT count() > 0 FROM asset_closes WHERE slot > {to:UInt64}`, p)
	if err != nil {
		return fmt.Errorf("find later closes: %w", err)
	}
	r := res.Row(0)
	if late := r.Bool(0); r.Err() != nil || !late {
		return r.Err()
	}
	var afterKey solana.Pubkey
	for first := true; ; first = false {
		cond := ""
		if !first {
			cond = " AND pubkey > {ak:FixedString(32)}"
			p["ak"] = string(afterKey[:])
		}
		res, err := s.Query(ctx, `SELECT DISTINCT pubkey FROM asset_accounts
			WHERE slot BETWEEN {from:UInt64} AND {to:UInt64}`+cond+`
				AND pubkey IN (SELECT pubkey FROM asset_closes WHERE slot > {to:UInt64})
			ORDER BY pubkey LIMIT `+strconv.Itoa(closeChunk), p)
		if err != nil {
			return fmt.Errorf("find writes closed later: %w", err)
		}
		keys := make([]solana.Pubkey, 0, len(res.Rows))
		for i := range res.Rows {
			r := res.Row(i)
			afterKey = r.Key(0)
			if err := r.Err(); err != nil {
				return fmt.Errorf("find writes closed later: %w", err)
			}
			keys = append(keys, afterKey)
		}
		if len(keys) == 0 {
			return nil
		}
		if err := endChunk(ctx, s, keys); err != nil {
			return err
		}
	}
}

// endChunk writes what ends the rows keys fed, as of each account's newest
// close. A token account's row is replaced by a tombstone at that close
// (in asset_accounts and both token tables), unless its newest write is
// later. Any other row is kept, with its data, and a marker row of kind
// closed at the close is filed beside it: the loader reads the row as
// closed when the marker is newer, and renders the asset from the data
// it kept (a burnt Core asset, a closed mint or metadata account), which
// a tombstone would have replaced.
func endChunk(ctx context.Context, s arrowstore.Writer, keys []solana.Pubkey) error {
	in := packedIn("pubkey", "keys")
	params := store.Params{"keys": packed(keys)}
	res, err := s.Query(ctx, `SELECT pubkey, asset_id, kind, slot, write_version FROM asset_pubkeys FINAL
		WHERE `+in+` SETTINGS max_threads = 1`, params)
	if err != nil {
		return fmt.Errorf("read what closed accounts fed: %w", err)
	}
	type feed struct {
		assetID solana.Pubkey
		kind    string
	}
	closed := map[solana.Pubkey]stamp{}
	feeds := map[solana.Pubkey][]feed{}
	for i := range res.Rows {
		r := res.Row(i)
		pubkey, assetID, kind, at := solana.Pubkey(r.Key(0)), solana.Pubkey(r.Key(1)), r.Str(2), stamp{r.U64(3), r.U64(4)}
		if err := r.Err(); err != nil {
			return fmt.Errorf("read what closed accounts fed: %w", err)
		}
		if kind == schema.AssetKindClosed {
			closed[pubkey] = at
		} else {
			feeds[pubkey] = append(feeds[pubkey], feed{assetID, kind})
		}
	}
	var accounts []accountRow
	var mints []solana.Pubkey // of the token accounts among keys
	for pubkey, fs := range feeds {
		c, ok := closed[pubkey]
		if !ok {
			continue // not closed as far as is indexed
		}
		for _, f := range fs {
			if f.kind == schema.AssetKindTokenAccount {
				mints = append(mints, f.assetID)
				continue
			}
			accounts = append(accounts, accountRow{AssetID: f.assetID, Kind: schema.AssetKindClosed, Pubkey: pubkey,
				Program: solana.SystemProgram(), Slot: c.slot, WriteVersion: c.wv})
		}
	}
	var tokens []TokenAccountRow
	if len(mints) > 0 {
		slices.SortFunc(mints, func(a, b solana.Pubkey) int { return bytes.Compare(a[:], b[:]) })
		params["mints"] = packed(slices.Compact(mints))
		res, err = s.Query(ctx, `SELECT asset_id, pubkey, argMax(slot, version), argMax(write_version, version),
				argMax(program, version), argMax(holder, version)
			FROM asset_accounts WHERE `+packedIn("asset_id", "mints")+` AND kind = 'token_account' AND `+in+`
			GROUP BY asset_id, pubkey SETTINGS max_threads = 1`, params)
		if err != nil {
			return fmt.Errorf("read closed token accounts: %w", err)
		}
		for i := range res.Rows {
			r := res.Row(i)
			mint, pubkey, newest, program := solana.Pubkey(r.Key(0)), solana.Pubkey(r.Key(1)), stamp{r.U64(2), r.U64(3)}, solana.Pubkey(r.Key(4))
			holder, _ := r.OptKey(5)
			if err := r.Err(); err != nil {
				return fmt.Errorf("read closed token accounts: %w", err)
			}
			c, ok := closed[pubkey]
			if !ok || !newest.less(c) {
				continue // opened again after its newest close, or ended already
			}
			accounts = append(accounts, accountRow{AssetID: mint, Kind: schema.AssetKindTokenAccount, Pubkey: pubkey,
				Program: program, Slot: c.slot, WriteVersion: c.wv})
			ta := &token.TokenAccount{Mint: mint, Owner: holder, Program: program}
			tokens = append(tokens, TokenAccountRow{Address: pubkey, Account: ta, Slot: c.slot, WriteVersion: c.wv, Closed: true})
		}
	}
	// The token tables first: asset_accounts' tombstone marks the row as
	// ended, so a resolution cut short is done again whole.
	owners := make([]TokenOwnerRow, len(tokens))
	for i := range tokens {
		owners[i] = TokenOwnerRow{&tokens[i]}
	}
	if err := writeRows(ctx, s, tokenTable(schema.TableAssetTokenAccounts), tokens, "closed token accounts"); err != nil {
		return err
	}
	if err := writeRows(ctx, s, tokenTable(schema.TableAssetTokenOwners), owners, "closed token accounts by owner"); err != nil {
		return err
	}
	return writeRows(ctx, s, accountsTable(), accounts, "closed accounts")
}

// packed is keys as one String parameter, 32 bytes each.
func packed(keys []solana.Pubkey) string {
	b := make([]byte, 0, 32*len(keys))
	for _, k := range keys {
		b = append(b, k[:]...)
	}
	return string(b)
}

// packedIn is the condition column IN the keys packed in String parameter
// param.
func packedIn(column, param string) string {
	return column + ` IN (SELECT toFixedString(substring({` + param + `:String}, number * 32 + 1, 32), 32)
		FROM numbers(intDiv(length({` + param + `:String}), 32)))`
}
