package compressed

import (
	"context"
	"fmt"

	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store"
)

// SignatureInfo is one transaction that touched compressed state.
type SignatureInfo struct {
	Signature Signature
	Slot      uint64
	BlockTime int64
}

// SigPage selects one page of signatures, newest first.
type SigPage struct {
	Before *SigCursor // rows strictly before this (slot, signature)
	Limit  uint64
	// AsOf, when set, hides transactions of later slots: rows committed
	// past the checkpoint an answer is stamped with (docs/compat.md).
	AsOf *uint64
}

// bound adds the AsOf bound on slot.
func (p SigPage) bound(q *query) {
	if p.AsOf != nil {
		q.where(`slot <= {asof:UInt64}`).bind("asof", u64Param(*p.AsOf))
	}
}

func (p SigPage) apply(q *query) {
	p.bound(q)
	if p.Before != nil {
		q.where(`(slot < {bs:UInt64} OR (slot = {bs:UInt64} AND signature < {bsig:FixedString(64)}))`).
			bind("bs", u64Param(p.Before.Slot)).bind("bsig", sigParam(p.Before.Signature))
	}
	q.bind("limit", u64Param(p.Limit))
}

// applyPrefix is apply for a table naming transactions by (slot,
// sig_prefix): prefixes order as the signatures they start.
func (p SigPage) applyPrefix(q *query) {
	p.bound(q)
	if p.Before != nil {
		q.where(`(slot < {bs:UInt64} OR (slot = {bs:UInt64} AND sig_prefix < `+schema.SigPrefix("{bsig:FixedString(64)}")+`))`).
			bind("bs", u64Param(p.Before.Slot)).bind("bsig", sigParam(p.Before.Signature))
	}
	q.bind("limit", u64Param(p.Limit))
}

const sigOrder = `ORDER BY slot DESC, signature DESC LIMIT {limit:UInt64}`

// withSignatures selects the (slot, signature, block_time) of the
// transactions a subquery names by (slot, sig_prefix), from
// compression_signatures, which holds each signature whole; its key finds
// them by slot.
//
// Its IN is GLOBAL, as are touching's: on a cluster the engine (26.7)
// fails to make an IN GLOBAL by itself (prefer_global_in_and_join) when
// its subquery reads two Distributed tables ("Invalid local IN function
// name globalIn"), and on one server GLOBAL IN is IN.
func withSignatures(named string) string {
	return `SELECT slot, signature, block_time FROM compression_signatures FINAL
		WHERE (slot, ` + schema.SigPrefixOfSignature + `) GLOBAL IN ` + named
}

// SignaturesForOwner lists the transactions that created or spent an
// account owned by owner, from owner_txs (ordered by owner, slot,
// sig_prefix).
func SignaturesForOwner(ctx context.Context, s store.Querier, owner Key, p SigPage) ([]SignatureInfo, error) {
	out, err := ownerSignatures(ctx, s, schema.TableOwnerTxs, owner, p)
	if err != nil {
		return nil, fmt.Errorf("signatures for owner: %w", err)
	}
	return out, nil
}

// SignaturesForTokenOwner lists the transactions that created or spent a
// token account of owner, from token_owner_txs.
func SignaturesForTokenOwner(ctx context.Context, s store.Querier, owner Key, p SigPage) ([]SignatureInfo, error) {
	out, err := ownerSignatures(ctx, s, schema.TableTokenOwnerTxs, owner, p)
	if err != nil {
		return nil, fmt.Errorf("signatures for token owner: %w", err)
	}
	return out, nil
}

func ownerSignatures(ctx context.Context, s store.Querier, table string, owner Key, p SigPage) ([]SignatureInfo, error) {
	if p.Limit == 0 {
		return nil, nil
	}
	// The page is chosen in the owner table, then its signatures are read.
	q := newQuery().where(`owner = {owner:FixedString(32)}`).bind("owner", keyParam(owner))
	p.applyPrefix(q)
	page := `(` + q.sql(`SELECT slot, sig_prefix FROM `+table+` FINAL`,
		`ORDER BY slot DESC, sig_prefix DESC LIMIT {limit:UInt64}`) + `)`
	res, err := s.Query(ctx, withSignatures(page)+` `+sigOrder, q.params)
	if err != nil {
		return nil, err
	}
	return scanSignatures(res)
}

// LatestSignatures lists every compression transaction, newest first, from
// compression_signatures (ordered by slot, signature).
func LatestSignatures(ctx context.Context, s store.Querier, p SigPage) ([]SignatureInfo, error) {
	if p.Limit == 0 {
		return nil, nil
	}
	q := newQuery()
	p.apply(q)
	res, err := s.Query(ctx, q.sql(`SELECT slot, signature, block_time FROM compression_signatures FINAL`, sigOrder), q.params)
	if err != nil {
		return nil, fmt.Errorf("latest signatures: %w", err)
	}
	return scanSignatures(res)
}

// touching is the (slot, sig_prefix) of every transaction that created or
// spent one of the accounts hashes selects (a subquery over compressed
// accounts using the params of the caller).
func touching(hashes string) string {
	return `(SELECT slot_created, sig_prefix FROM compressed_accounts WHERE hash GLOBAL IN ` + hashes + `
		UNION ALL SELECT slot, ` + schema.SigPrefixOfSignature + ` FROM compressed_spent WHERE hash GLOBAL IN ` + hashes + `)`
}

// SignaturesForAccount lists the transactions that created or spent the
// account hash: at most two.
func SignaturesForAccount(ctx context.Context, s store.Querier, hash Key) ([]SignatureInfo, error) {
	return SignaturesForAccountAt(ctx, s, hash, nil)
}

// SignaturesForAccountAt is SignaturesForAccount without the transactions
// of slots after asOf, when set.
func SignaturesForAccountAt(ctx context.Context, s store.Querier, hash Key, asOf *uint64) ([]SignatureInfo, error) {
	q := newQuery().where(`(slot, `+schema.SigPrefixOfSignature+`) IN `+touching(`({hash:FixedString(32)})`)).
		bind("hash", keyParam(hash))
	SigPage{AsOf: asOf}.bound(q)
	res, err := s.Query(ctx, q.sql(`SELECT slot, signature, block_time FROM compression_signatures FINAL`,
		`ORDER BY slot DESC, signature DESC`), q.params)
	if err != nil {
		return nil, fmt.Errorf("signatures for account: %w", err)
	}
	return scanSignatures(res)
}

// SignaturesForAddress lists the transactions that created or spent any
// account that held address.
func SignaturesForAddress(ctx context.Context, s store.Querier, address Key, p SigPage) ([]SignatureInfo, error) {
	if p.Limit == 0 {
		return nil, nil
	}
	q := newQuery().where(`(slot, `+schema.SigPrefixOfSignature+`) GLOBAL IN `+
		touching(`(SELECT hash FROM compressed_accounts WHERE address = {addr:FixedString(32)})`)).
		bind("addr", keyParam(address))
	p.apply(q)
	res, err := s.Query(ctx, q.sql(`SELECT slot, signature, block_time FROM compression_signatures FINAL`, sigOrder), q.params)
	if err != nil {
		return nil, fmt.Errorf("signatures for address: %w", err)
	}
	return scanSignatures(res)
}

func scanSignatures(res *store.Result) ([]SignatureInfo, error) {
	out := make([]SignatureInfo, 0, len(res.Rows))
	for i := range res.Rows {
		r := res.Row(i)
		var si SignatureInfo
		si.Slot = r.U64(0)
		r.Fixed(1, si.Signature[:])
		si.BlockTime = r.I64(2)
		if err := r.Err(); err != nil {
			return nil, fmt.Errorf("signature row: %w", err)
		}
		out = append(out, si)
	}
	return out, nil
}
