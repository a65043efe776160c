// Package parsedevents reads the parsed transactions stored at ingest
// (parsed_transactions) and the history of an address
// (address_transactions), for the parsed-events API.
package parsedevents

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/store"
)

// Doc is one stored parsed transaction.
type Doc struct {
	Slot    uint64
	TxIndex uint32
	Parsed  []byte
	// Raw is the transaction as received, when asked for and stored.
	Raw []byte
}

// Transactions reads the parsed transactions of sigs, those indexed;
// withRaw adds each one's raw transaction.
func Transactions(ctx context.Context, q store.Querier, sigs []solana.Signature, withRaw bool) (map[solana.Signature]*Doc, error) {
	return TransactionsThrough(ctx, q, sigs, withRaw, nil)
}

// TransactionsThrough is Transactions without the transactions of slots
// after through, when set: those the checkpoint does not cover yet.
func TransactionsThrough(ctx context.Context, q store.Querier, sigs []solana.Signature, withRaw bool, through *uint64) (map[solana.Signature]*Doc, error) {
	out := make(map[solana.Signature]*Doc, len(sigs))
	if len(sigs) == 0 {
		return out, nil
	}
	p := store.Params{}
	bound := ""
	if through != nil {
		bound = ` AND slot <= {through:UInt64}`
		p["through"] = strconv.FormatUint(*through, 10)
	}
	list := make([]string, len(sigs))
	for i, s := range sigs {
		name := "s" + strconv.Itoa(i)
		p[name] = string(s[:])
		list[i] = "{" + name + ":FixedString(64)}"
	}
	in := strings.Join(list, ",")
	res, err := q.Query(ctx, `SELECT signature, slot, tx_index, parsed FROM parsed_transactions
		WHERE signature IN (`+in+`)`+bound, p)
	if err != nil {
		return nil, fmt.Errorf("parsed transactions: %w", err)
	}
	var pos []string
	seen := map[solana.Signature]bool{}
	for i := range res.Rows {
		r := res.Row(i)
		sig := toSig(r.Str(0))
		d := &Doc{Slot: r.U64(1), TxIndex: r.U32(2), Parsed: []byte(r.Str(3))}
		if err := r.Err(); err != nil {
			return nil, fmt.Errorf("parsed transactions: %w", err)
		}
		out[sig] = d
		if withRaw && !seen[sig] {
			seen[sig] = true
			pos = append(pos, fmt.Sprintf("(%d, {s%d:FixedString(64)})", d.Slot, indexOf(sigs, sig)))
		}
	}
	if len(pos) == 0 {
		return out, nil
	}
	// The raw transactions are keyed by (slot, signature): the slots the
	// parsed rows gave make each one a keyed lookup.
	res, err = q.Query(ctx, `SELECT signature, raw FROM transactions WHERE (slot, signature) IN (`+strings.Join(pos, ",")+`)`, p)
	if err != nil {
		return nil, fmt.Errorf("raw transactions: %w", err)
	}
	for i := range res.Rows {
		r := res.Row(i)
		sig := toSig(r.Str(0))
		if d := out[sig]; d != nil {
			d.Raw = []byte(r.Str(1))
		}
	}
	return out, nil
}

// toSig reads a FixedString(64) signature.
func toSig(s string) solana.Signature {
	var sig solana.Signature
	copy(sig[:], s)
	return sig
}

func indexOf(sigs []solana.Signature, s solana.Signature) int {
	for i := range sigs {
		if sigs[i] == s {
			return i
		}
	}
	return -1
}

// Position is a transaction's place in the chain: slot, then index in
// its block.
type Position struct {
	Slot    uint64
	TxIndex uint32
}

// Less orders positions.
func (p Position) Less(o Position) bool {
	return p.Slot < o.Slot || p.Slot == o.Slot && p.TxIndex < o.TxIndex
}

// PositionOf finds where sig is, if it is indexed.
func PositionOf(ctx context.Context, q store.Querier, sig solana.Signature) (Position, bool, error) {
	res, err := q.Query(ctx, `SELECT slot, tx_index FROM parsed_transactions WHERE signature = {s:FixedString(64)} LIMIT 1`,
		store.Params{"s": string(sig[:])})
	if err != nil {
		return Position{}, false, fmt.Errorf("position of %s: %w", sig, err)
	}
	if len(res.Rows) == 0 {
		return Position{}, false, nil
	}
	r := res.Row(0)
	p := Position{Slot: r.U64(0), TxIndex: r.U32(1)}
	return p, true, r.Err()
}

// Range bounds a value: each bound is inclusive and nil when open.
type Range struct {
	Min, Max *uint64
}

// TimeRange bounds a block time in seconds, inclusive.
type TimeRange struct {
	Min, Max *int64
}

// HistoryQuery is one page of an address's history.
type HistoryQuery struct {
	Address solana.Pubkey
	Limit   int
	Desc    bool
	// After and Before bound the positions, exclusive: a page cursor, and
	// the positions of the beforeSignature and afterSignature.
	After, Before *Position
	Slot          Range
	Time          TimeRange
	// Through, when set, leaves out the slots after it: those the
	// checkpoint does not cover yet.
	Through *uint64
}

// Entry is one transaction of a history.
type Entry struct {
	Position
	Signature solana.Signature
	BlockTime int64
}

// History reads up to Limit entries of q's address in its order: one
// range of the (address, slot, tx_index) key, whatever the depth.
func History(ctx context.Context, s store.Querier, q HistoryQuery) ([]Entry, error) {
	p := store.Params{"a": string(q.Address[:])}
	conds := []string{"address = {a:FixedString(32)}"}
	if q.After != nil {
		// Written so the slot bound reaches the key analysis, which a
		// tuple comparison does not.
		conds = append(conds, "slot >= {as:UInt64} AND (slot > {as:UInt64} OR tx_index > {ai:UInt32})")
		p["as"], p["ai"] = strconv.FormatUint(q.After.Slot, 10), strconv.FormatUint(uint64(q.After.TxIndex), 10)
	}
	if q.Before != nil {
		conds = append(conds, "slot <= {bs:UInt64} AND (slot < {bs:UInt64} OR tx_index < {bi:UInt32})")
		p["bs"], p["bi"] = strconv.FormatUint(q.Before.Slot, 10), strconv.FormatUint(uint64(q.Before.TxIndex), 10)
	}
	if v := q.Slot.Min; v != nil {
		conds = append(conds, "slot >= {smin:UInt64}")
		p["smin"] = strconv.FormatUint(*v, 10)
	}
	if v := q.Slot.Max; v != nil {
		conds = append(conds, "slot <= {smax:UInt64}")
		p["smax"] = strconv.FormatUint(*v, 10)
	}
	if v := q.Through; v != nil {
		conds = append(conds, "slot <= {through:UInt64}")
		p["through"] = strconv.FormatUint(*v, 10)
	}
	if v := q.Time.Min; v != nil {
		conds = append(conds, "block_time >= {tmin:Int64}")
		p["tmin"] = strconv.FormatInt(*v, 10)
	}
	if v := q.Time.Max; v != nil {
		conds = append(conds, "block_time <= {tmax:Int64}")
		p["tmax"] = strconv.FormatInt(*v, 10)
	}
	dir, cmp := "ASC", ">"
	if q.Desc {
		dir, cmp = "DESC", "<"
	}
	// Rows of a key not merged yet come twice, next to each other: they
	// are dropped here, since LIMIT 1 BY in the engine costs more than
	// the page, and the range is read again past them when they left the
	// page short.
	out := make([]Entry, 0, q.Limit)
	for len(out) < q.Limit {
		where := conds
		if n := len(out); n > 0 {
			last := out[n-1]
			where = append(slices.Clip(conds), "slot "+cmp+"= {ls:UInt64} AND (slot "+cmp+" {ls:UInt64} OR (tx_index, signature) "+cmp+
				" ({li:UInt32}, {lg:FixedString(64)}))")
			p["ls"], p["li"], p["lg"] = strconv.FormatUint(last.Slot, 10), strconv.FormatUint(uint64(last.TxIndex), 10), string(last.Signature[:])
		}
		p["n"] = strconv.Itoa(q.Limit - len(out) + 1)
		res, err := s.Query(ctx, `SELECT slot, tx_index, signature, block_time FROM address_transactions
			WHERE `+strings.Join(where, " AND ")+`
			ORDER BY address `+dir+`, slot `+dir+`, tx_index `+dir+`, signature `+dir+`
			LIMIT {n:UInt32}`, p)
		if err != nil {
			return nil, fmt.Errorf("history of %s: %w", q.Address, err)
		}
		added := 0
		for i := range res.Rows {
			r := res.Row(i)
			e := Entry{Position: Position{Slot: r.U64(0), TxIndex: r.U32(1)}, Signature: toSig(r.Str(2)), BlockTime: r.I64(3)}
			if err := r.Err(); err != nil {
				return nil, fmt.Errorf("history of %s: %w", q.Address, err)
			}
			if n := len(out); n > 0 && out[n-1].Position == e.Position && out[n-1].Signature == e.Signature {
				continue
			}
			if len(out) < q.Limit {
				out = append(out, e)
				added++
			}
		}
		if len(res.Rows) < q.Limit-len(out)+added+1 || added == 0 {
			// The range ended, or held only copies.
			break
		}
	}
	return out, nil
}
