package compressed

import (
	"context"
	"fmt"

	"github.com/dasch-labs/dasch/store"
)

// TxSignature is one indexed transaction with its error, if it failed.
type TxSignature struct {
	SignatureInfo
	// Err is the transaction error as compact JSON; nil on success.
	Err *string
}

// LatestNonVotingSignatures lists every indexed transaction that is not a
// vote, newest first, from transactions (ordered by slot, signature).
func LatestNonVotingSignatures(ctx context.Context, s store.Querier, p SigPage) ([]TxSignature, error) {
	if p.Limit == 0 {
		return nil, nil
	}
	q := newQuery().where(`NOT is_vote`)
	p.apply(q)
	res, err := s.Query(ctx, q.sql(`SELECT slot, signature, block_time, err FROM transactions FINAL`, sigOrder), q.params)
	if err != nil {
		return nil, fmt.Errorf("latest non-voting signatures: %w", err)
	}
	infos, err := scanSignatures(res)
	if err != nil {
		return nil, fmt.Errorf("latest non-voting signatures: %w", err)
	}
	out := make([]TxSignature, len(infos))
	for i, info := range infos {
		out[i].SignatureInfo = info
		r := res.Row(i)
		if e, ok := r.OptStr(3); ok {
			out[i].Err = &e
		}
		if err := r.Err(); err != nil {
			return nil, fmt.Errorf("latest non-voting signatures: %w", err)
		}
	}
	return out, nil
}
