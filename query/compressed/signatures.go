package compressed

import (
	"context"
	"fmt"

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
}

func (p SigPage) apply(q *query) {
	if p.Before != nil {
		q.where(`(slot < {bs:UInt64} OR (slot = {bs:UInt64} AND signature < {bsig:FixedString(64)}))`).
			bind("bs", u64Param(p.Before.Slot)).bind("bsig", sigParam(p.Before.Signature))
	}
	q.bind("limit", u64Param(p.Limit))
}

const sigOrder = `ORDER BY slot DESC, signature DESC LIMIT {limit:UInt64}`

// SignaturesForOwner lists the transactions that created or spent an
// account owned by owner, from owner_signatures (ordered by owner, slot,
// signature).
func SignaturesForOwner(ctx context.Context, s store.Store, owner Key, p SigPage) ([]SignatureInfo, error) {
	out, err := ownerSignatures(ctx, s, "owner_signatures", owner, p)
	if err != nil {
		return nil, fmt.Errorf("signatures for owner: %w", err)
	}
	return out, nil
}

// SignaturesForTokenOwner lists the transactions that created or spent a
// token account of owner, from token_owner_signatures.
func SignaturesForTokenOwner(ctx context.Context, s store.Store, owner Key, p SigPage) ([]SignatureInfo, error) {
	out, err := ownerSignatures(ctx, s, "token_owner_signatures", owner, p)
	if err != nil {
		return nil, fmt.Errorf("signatures for token owner: %w", err)
	}
	return out, nil
}

func ownerSignatures(ctx context.Context, s store.Store, table string, owner Key, p SigPage) ([]SignatureInfo, error) {
	if p.Limit == 0 {
		return nil, nil
	}
	q := newQuery().where(`owner = {owner:FixedString(32)}`).bind("owner", keyParam(owner))
	p.apply(q)
	res, err := s.Query(ctx, q.sql(`SELECT slot, signature, block_time FROM `+table+` FINAL`, sigOrder), q.params)
	if err != nil {
		return nil, err
	}
	return scanSignatures(res)
}

// LatestSignatures lists every compression transaction, newest first, from
// compression_signatures (ordered by slot, signature).
func LatestSignatures(ctx context.Context, s store.Store, p SigPage) ([]SignatureInfo, error) {
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

// touching is the (slot, signature) of every transaction that created or
// spent one of the accounts hashes selects (a subquery over compressed
// accounts using the params of the caller).
func touching(hashes string) string {
	return `(SELECT slot_created, signature FROM compressed_accounts WHERE hash IN ` + hashes + `
		UNION ALL SELECT slot, signature FROM compressed_spent WHERE hash IN ` + hashes + `)`
}

// SignaturesForAccount lists the transactions that created or spent the
// account hash: at most two.
func SignaturesForAccount(ctx context.Context, s store.Store, hash Key) ([]SignatureInfo, error) {
	res, err := s.Query(ctx, `SELECT slot, signature, block_time FROM compression_signatures FINAL
		WHERE (slot, signature) IN `+touching(`({hash:FixedString(32)})`)+` `+
		`ORDER BY slot DESC, signature DESC`, store.Params{"hash": keyParam(hash)})
	if err != nil {
		return nil, fmt.Errorf("signatures for account: %w", err)
	}
	return scanSignatures(res)
}

// SignaturesForAddress lists the transactions that created or spent any
// account that held address.
func SignaturesForAddress(ctx context.Context, s store.Store, address Key, p SigPage) ([]SignatureInfo, error) {
	if p.Limit == 0 {
		return nil, nil
	}
	q := newQuery().where(`(slot, signature) IN `+
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
	for _, r := range res.Rows {
		var si SignatureInfo
		sig, ok := r[1].(string)
		if !ok || len(sig) != len(si.Signature) {
			return nil, fmt.Errorf("signature column holds %T of %d bytes, want 64", r[1], len(sig))
		}
		copy(si.Signature[:], sig)
		si.Slot = r[0].(uint64)
		si.BlockTime = r[2].(int64)
		out = append(out, si)
	}
	return out, nil
}
