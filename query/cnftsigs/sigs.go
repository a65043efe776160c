// Package cnftsigs reads the transactions that changed a compressed NFT:
// its Bubblegum events, one per tree update (change-log seq), in seq
// order. An asset's events are one contiguous key range of
// bubblegum_events, so a page is one keyed read.
package cnftsigs

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/store"
)

// Item is one transaction of an asset.
type Item struct {
	Signature solana.Signature
	// Instruction is the Anchor name, e.g. "mint_v1".
	Instruction string
	Seq         uint64
}

// Page selects the items of one read. Before and After bound the seq
// range (exclusive); Offset skips items in the chosen order.
type Page struct {
	Limit  uint64
	Offset uint64
	Before *uint64
	After  *uint64
	Asc    bool
	// Through, when set, leaves out the transactions of slots after it:
	// those past the slot the answer states (docs/compat.md).
	Through *uint64
}

// ErrNoSignature is a signature that is not among the asset's items.
var ErrNoSignature = errors.New("cnftsigs: not a transaction of the asset")

// Signatures returns the asset's items of p. Events that changed no tree
// (decompress_v1, seq 0) are not items: the order is the tree's.
func Signatures(ctx context.Context, s store.Querier, asset solana.Pubkey, p Page) ([]Item, error) {
	q := `SELECT signature, any(instruction), seq FROM bubblegum_events
		WHERE asset_id = {id:FixedString(32)} AND seq > 0`
	params := store.Params{"id": string(asset[:]), "limit": strconv.FormatUint(p.Limit, 10),
		"offset": strconv.FormatUint(p.Offset, 10)}
	if p.Before != nil {
		q += ` AND seq < {before:UInt64}`
		params["before"] = strconv.FormatUint(*p.Before, 10)
	}
	if p.After != nil {
		q += ` AND seq > {after:UInt64}`
		params["after"] = strconv.FormatUint(*p.After, 10)
	}
	if p.Through != nil {
		q += ` AND slot <= {through:UInt64}`
		params["through"] = strconv.FormatUint(*p.Through, 10)
	}
	dir := "DESC"
	if p.Asc {
		dir = "ASC"
	}
	// One item per tree update: a transaction indexed twice is one.
	q += ` GROUP BY seq, signature ORDER BY seq ` + dir + `, signature ` + dir + `
		LIMIT 1 BY seq
		LIMIT {limit:UInt64} OFFSET {offset:UInt64} SETTINGS max_threads = 1`
	res, err := s.Query(ctx, q, params)
	if err != nil {
		return nil, fmt.Errorf("cnft signatures of %s: %w", asset, err)
	}
	out := make([]Item, len(res.Rows))
	for i := range res.Rows {
		r := res.Row(i)
		r.Fixed(0, out[i].Signature[:])
		out[i].Instruction, out[i].Seq = r.Str(1), r.U64(2)
		if err := r.Err(); err != nil {
			return nil, fmt.Errorf("cnft signatures of %s: %w", asset, err)
		}
	}
	return out, nil
}

// SeqRange is the seqs of the asset's items signed by sig, lowest and
// highest; ErrNoSignature when it has none.
func SeqRange(ctx context.Context, s store.Querier, asset solana.Pubkey, sig solana.Signature) (lo, hi uint64, err error) {
	res, err := s.Query(ctx, `SELECT min(seq), max(seq), count() FROM bubblegum_events
		WHERE asset_id = {id:FixedString(32)} AND seq > 0 AND signature = {sig:FixedString(64)}
		SETTINGS max_threads = 1`, store.Params{"id": string(asset[:]), "sig": string(sig[:])})
	if err != nil {
		return 0, 0, fmt.Errorf("cnft signature %s of %s: %w", sig, asset, err)
	}
	if len(res.Rows) != 1 {
		return 0, 0, ErrNoSignature
	}
	r := res.Row(0)
	lo, hi, n := r.U64(0), r.U64(1), r.U64(2)
	if err := r.Err(); err != nil {
		return 0, 0, fmt.Errorf("cnft signature %s of %s: %w", sig, asset, err)
	}
	if n == 0 {
		return 0, 0, ErrNoSignature
	}
	return lo, hi, nil
}
