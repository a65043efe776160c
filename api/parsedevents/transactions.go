package parsedevents

import (
	"context"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/query/parsedevents"
	"github.com/dasch-labs/dasch/server/jsonrpc"
	"github.com/dasch-labs/dasch/server/rest"
	"github.com/dasch-labs/dasch/store"
)

// maxSignatures is how many signatures one request may name.
const maxSignatures = 100

// Transactions answers POST /v1/parsed-events/transactions: body
// {transactions: [1..100 signatures], commitment, includeRawTransaction};
// the answer is an array in request order, duplicates included, each
// {signature, parserStatus: OK, parsed[, rawTransaction]} or, for a
// signature not indexed, {signature, parserStatus: ERROR, parserError}.
func Transactions(s store.Querier, slots SlotSource) rest.Handler {
	return func(ctx context.Context, _ string, body []byte) ([]byte, error) {
		r, err := readTransactions(ctx, s, slots, body, false)
		if err != nil {
			return nil, err
		}
		out := []byte{'['}
		for i, sig := range r.sigs {
			if i > 0 {
				out = append(out, ',')
			}
			out = append(out, `{"signature":`...)
			out = jsonrpc.AppendString(out, r.strs[i])
			d := r.docs[sig]
			if d == nil {
				out = append(out, `,"parserStatus":"ERROR","parserError":`...)
				out = jsonrpc.AppendString(out, notFound)
				out = append(out, '}')
				continue
			}
			out = append(out, `,"parserStatus":"OK","parsed":`...)
			out = append(out, d.Parsed...)
			if r.raw && len(d.Raw) > 0 {
				out = append(out, `,"rawTransaction":`...)
				out = append(out, d.Raw...)
			}
			out = append(out, '}')
		}
		return append(out, ']'), nil
	}
}

// notFound is the parserError of a signature not indexed.
const notFound = "transaction not found: not indexed"

// lookup is a transactions request read: the signatures as given and
// decoded, and the documents found.
type lookup struct {
	strs []string
	sigs []solana.Signature
	docs map[solana.Signature]*parsedevents.Doc
	raw  bool
}

// readTransactions reads a transactions body and its documents; forceRaw
// reads the raw transactions whatever the body says.
func readTransactions(ctx context.Context, s store.Querier, slots SlotSource, body []byte, forceRaw bool) (*lookup, error) {
	m, err := object(body, "body", "transactions", "commitment", "includeRawTransaction")
	if err != nil {
		return nil, err
	}
	var strs []string
	ok, err := field(m, "", "transactions", &strs, "an array of signature strings")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, rest.BadRequest("transactions: required")
	}
	if len(strs) == 0 || len(strs) > maxSignatures {
		return nil, rest.BadRequest("transactions: must hold 1 to %d signatures, got %d", maxSignatures, len(strs))
	}
	sigs := make([]solana.Signature, len(strs))
	for i, v := range strs {
		if sigs[i], err = solana.ParseSignature(v); err != nil {
			return nil, rest.BadRequest("transactions[%d]: not a base58 signature: %q", i, v)
		}
	}
	if err := commitment(m); err != nil {
		return nil, err
	}
	raw, err := withRaw(m)
	if err != nil {
		return nil, err
	}
	through, err := slots.IndexedSlot(ctx)
	if err != nil {
		return nil, err
	}
	docs, err := parsedevents.TransactionsThrough(ctx, s, unique(sigs), raw || forceRaw, &through)
	if err != nil {
		return nil, err
	}
	return &lookup{strs: strs, sigs: sigs, docs: docs, raw: raw}, nil
}

// unique lists sigs once each, for the lookup.
func unique(sigs []solana.Signature) []solana.Signature {
	seen := make(map[solana.Signature]bool, len(sigs))
	out := make([]solana.Signature, 0, len(sigs))
	for _, s := range sigs {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
