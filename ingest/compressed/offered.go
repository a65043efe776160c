package compressed

import (
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/dasch-labs/dasch/schema"
)

// maxOfferedRows bounds the accounts the step holds for ranges it has not
// applied (a few chunks while it keeps up): past it the records are let
// go, and those ranges take the SQL path.
const maxOfferedRows = 8_000_000

// offered holds the compressed_accounts records this process inserted
// and the step has not applied yet (StateStep.Inserted): the token
// outputs a range adds to the balances, already in memory, so the step
// need not read them back from token_ledger. They are only a hint:
// stepOffered uses them when the ledger holds exactly these outputs for
// the range and none is counted yet, else the range takes the SQL path.
// Inserted runs on the insert goroutines, take on the step's: mu guards.
type offered struct {
	mu   sync.Mutex
	recs []offeredRecord
	rows int
}

// offeredRecord is an inserted record with its columns the step reads.
type offeredRecord struct {
	rec        arrow.RecordBatch
	slot       *array.Uint64
	hash       *array.FixedSizeBinary
	isToken    *array.Boolean
	owner      *array.FixedSizeBinary
	mint       *array.FixedSizeBinary
	amount     *array.Uint64
	maxSlot    uint64
	tokenCount int
}

// add retains rec if it is a compressed_accounts record holding token
// outputs.
func (o *offered) add(table string, rec arrow.RecordBatch) {
	if table != schema.TableCompressed || rec.NumRows() == 0 {
		return
	}
	r, ok := offeredColumns(rec)
	if !ok || r.tokenCount == 0 {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.rows+int(rec.NumRows()) > maxOfferedRows {
		o.dropLocked()
		return
	}
	rec.Retain()
	o.recs = append(o.recs, r)
	o.rows += int(rec.NumRows())
}

// offeredColumns finds the columns the step reads; false if rec lacks
// one or has another type.
func offeredColumns(rec arrow.RecordBatch) (offeredRecord, bool) {
	r := offeredRecord{rec: rec}
	col := func(name string) arrow.Array {
		idx := rec.Schema().FieldIndices(name)
		if len(idx) != 1 {
			return nil
		}
		return rec.Column(idx[0])
	}
	var ok [6]bool
	r.slot, ok[0] = col("slot_created").(*array.Uint64)
	r.hash, ok[1] = col("hash").(*array.FixedSizeBinary)
	r.isToken, ok[2] = col("is_token").(*array.Boolean)
	r.owner, ok[3] = col("token_owner").(*array.FixedSizeBinary)
	r.mint, ok[4] = col("mint").(*array.FixedSizeBinary)
	r.amount, ok[5] = col("amount").(*array.Uint64)
	for _, b := range ok {
		if !b {
			return r, false
		}
	}
	if r.slot.NullN() > 0 || r.hash.NullN() > 0 || r.isToken.NullN() > 0 || r.owner.NullN() > 0 || r.mint.NullN() > 0 || r.amount.NullN() > 0 {
		return r, false
	}
	for i := 0; i < r.slot.Len(); i++ {
		r.maxSlot = max(r.maxSlot, r.slot.Value(i))
		if r.isToken.Value(i) {
			r.tokenCount++
		}
	}
	return r, true
}

// take returns the held records with rows in [from, to], each retained
// for the caller, and lets go of those with no row after to: the ranges
// up to it are applied (or, on failure, applied again by the SQL path).
func (o *offered) take(from, to uint64) []offeredRecord {
	o.mu.Lock()
	defer o.mu.Unlock()
	var out []offeredRecord
	keep := o.recs[:0]
	for _, r := range o.recs {
		r.rec.Retain()
		out = append(out, r)
		if r.maxSlot > to {
			keep = append(keep, r)
			continue
		}
		o.rows -= int(r.rec.NumRows())
		r.rec.Release()
	}
	clear(o.recs[len(keep):])
	o.recs = keep
	return out
}

// drop lets every held record go.
func (o *offered) drop() {
	o.mu.Lock()
	o.dropLocked()
	o.mu.Unlock()
}

func (o *offered) dropLocked() {
	for _, r := range o.recs {
		r.rec.Release()
	}
	o.recs, o.rows = nil, 0
}

func releaseOffered(recs []offeredRecord) {
	for _, r := range recs {
		r.rec.Release()
	}
}
