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

// FeedRow is an asset_feeds row: account Pubkey fed the asset_accounts
// row (AssetID, Kind, Pubkey).
type FeedRow struct {
	Pubkey, AssetID solana.Pubkey
	Kind            string
}

// Table implements arrowbatch.Row.
func (*FeedRow) Table() string { return schema.TableAssetFeeds }

// CloseRow is an asset_closes row: account Pubkey seen closed.
type CloseRow struct {
	Pubkey             solana.Pubkey
	Slot, WriteVersion uint64
}

// Table implements arrowbatch.Row.
func (*CloseRow) Table() string { return schema.TableAssetCloses }

func closeTables() []arrowbatch.Table {
	return []arrowbatch.Table{
		{Name: schema.TableAssetFeeds, New: func(mem memory.Allocator) arrowbatch.Builder { return newFeedsBuilder(mem) }},
		{Name: schema.TableAssetCloses, New: func(mem memory.Allocator) arrowbatch.Builder { return newClosesBuilder(mem) }},
	}
}

type feedsBuilder struct {
	arrowbatch.Base
	pubkey, assetID *array.FixedSizeBinaryBuilder
	kind            *array.StringBuilder
}

func newFeedsBuilder(mem memory.Allocator) *feedsBuilder {
	key := arrowbatch.PubkeyType()
	b := &feedsBuilder{}
	b.Base = arrowbatch.NewBase(
		arrowbatch.Col(mem, &b.pubkey, "pubkey", key),
		arrowbatch.Col(mem, &b.assetID, "asset_id", key),
		arrowbatch.Col(mem, &b.kind, "kind", arrow.BinaryTypes.String),
	)
	return b
}

func (b *feedsBuilder) Append(r arrowbatch.Row) error {
	row, ok := r.(*FeedRow)
	if !ok {
		return fmt.Errorf("%s: cannot append %T", schema.TableAssetFeeds, r)
	}
	b.pubkey.Append(row.Pubkey[:])
	b.assetID.Append(row.AssetID[:])
	b.kind.Append(row.Kind)
	b.Added(64 + len(row.Kind))
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
		arrowbatch.Col(mem, &b.pubkey, "pubkey", arrowbatch.PubkeyType()),
		arrowbatch.Col(mem, &b.slot, "slot", u64),
		arrowbatch.Col(mem, &b.writeVersion, "write_version", u64),
	)
	return b
}

func (b *closesBuilder) Append(r arrowbatch.Row) error {
	row, ok := r.(*CloseRow)
	if !ok {
		return fmt.Errorf("%s: cannot append %T", schema.TableAssetCloses, r)
	}
	b.pubkey.Append(row.Pubkey[:])
	b.slot.Append(row.Slot)
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
// every close (an account opened again) stay open, so applying a range
// again, or ranges in any order, writes the same rows. It runs before the
// fold, which then folds the assets whose rows it wrote.
func endClosed(ctx context.Context, s arrowstore.Writer, from, to uint64) error {
	p := store.Params{"from": strconv.FormatUint(from, 10), "to": strconv.FormatUint(to, 10)}
	res, err := s.Query(ctx, `SELECT count() > 0 FROM asset_closes WHERE slot > {to:UInt64}`, p)
	if err != nil {
		return fmt.Errorf("find later closes: %w", err)
	}
	r := res.Row(0)
	late := r.Bool(0)
	if err := r.Err(); err != nil {
		return fmt.Errorf("find later closes: %w", err)
	}
	cond := "slot BETWEEN {from:UInt64} AND {to:UInt64}"
	if late {
		cond = "(" + cond + ` OR slot > {to:UInt64} AND pubkey IN (SELECT pubkey FROM asset_accounts
			WHERE slot BETWEEN {from:UInt64} AND {to:UInt64}))`
	}
	var after solana.Pubkey
	for first := true; ; first = false {
		where := cond
		if !first {
			where += " AND pubkey > {after:FixedString(32)}"
			p["after"] = string(after[:])
		}
		res, err := s.Query(ctx, `SELECT DISTINCT pubkey FROM asset_closes WHERE `+where+
			` ORDER BY pubkey LIMIT `+strconv.Itoa(closeChunk)+` SETTINGS optimize_read_in_order = 1`, p)
		if err != nil {
			return fmt.Errorf("find closed accounts: %w", err)
		}
		keys := make([]solana.Pubkey, 0, len(res.Rows))
		for i := range res.Rows {
			r := res.Row(i)
			keys = append(keys, r.Key(0))
			if err := r.Err(); err != nil {
				return fmt.Errorf("find closed accounts: %w", err)
			}
		}
		if len(keys) == 0 {
			return nil
		}
		if err := endChunk(ctx, s, keys); err != nil {
			return err
		}
		after = keys[len(keys)-1]
	}
}

// endChunk writes what ends the rows keys fed. A token account's row is
// replaced by a tombstone at its first close after its newest write (in
// asset_accounts and both token tables), unless that write is newer than
// every close. Any other row is kept, with its data, and a marker row of
// kind closed at the account's newest close is filed beside it: the
// loader reads the row as closed when the marker is newer, and renders
// the asset from the data it kept (a burnt Core asset, a closed mint or
// metadata account), which a tombstone would have replaced.
func endChunk(ctx context.Context, s arrowstore.Writer, keys []solana.Pubkey) error {
	in := packedIn("pubkey", "keys")
	params := store.Params{"keys": packed(keys)}
	res, err := s.Query(ctx, `SELECT pubkey, slot, write_version FROM asset_closes WHERE `+in, params)
	if err != nil {
		return fmt.Errorf("read closes: %w", err)
	}
	closes := map[solana.Pubkey][]stamp{}
	for i := range res.Rows {
		r := res.Row(i)
		k, c := solana.Pubkey(r.Key(0)), stamp{r.U64(1), r.U64(2)}
		if err := r.Err(); err != nil {
			return fmt.Errorf("read closes: %w", err)
		}
		closes[k] = append(closes[k], c)
	}
	res, err = s.Query(ctx, `SELECT DISTINCT pubkey, asset_id, kind FROM asset_feeds WHERE `+in, params)
	if err != nil {
		return fmt.Errorf("read what closed accounts fed: %w", err)
	}
	var accounts []accountRow
	var mints []solana.Pubkey // of the token accounts among keys
	for i := range res.Rows {
		r := res.Row(i)
		pubkey, assetID, kind := solana.Pubkey(r.Key(0)), solana.Pubkey(r.Key(1)), r.Str(2)
		if err := r.Err(); err != nil {
			return fmt.Errorf("read what closed accounts fed: %w", err)
		}
		if kind == schema.AssetKindTokenAccount {
			mints = append(mints, assetID)
			continue
		}
		last := newestOf(closes[pubkey])
		accounts = append(accounts, accountRow{AssetID: assetID, Kind: schema.AssetKindClosed, Pubkey: pubkey,
			Program: solana.SystemProgram(), Slot: last.slot, WriteVersion: last.wv})
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
			c, ok := firstAfter(closes[pubkey], newest)
			if !ok {
				continue // newer than every close: open, or ended already
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

// newestOf is the latest of closes, which is never empty for a key read.
func newestOf(closes []stamp) stamp {
	var best stamp
	for _, c := range closes {
		if best.less(c) {
			best = c
		}
	}
	return best
}

// firstAfter is the earliest close after w, if any.
func firstAfter(closes []stamp, w stamp) (stamp, bool) {
	var best stamp
	found := false
	for _, c := range closes {
		if w.less(c) && (!found || c.less(best)) {
			best, found = c, true
		}
	}
	return best, found
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
