package compressed

import (
	"context"
	"fmt"
	"math/bits"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store"
)

// sqlOfferedCheck counts the range's outputs in the ledger: every stored
// row (copies not yet folded and markers written there before migration
// 22 included) and the distinct ones; and the range's outputs already
// counted.
const sqlOfferedCheck = `SELECT
	(SELECT count() FROM token_ledger WHERE slot BETWEEN {from:UInt64} AND {to:UInt64} AND kind = 0),
	(SELECT count() FROM token_ledger FINAL WHERE slot BETWEEN {from:UInt64} AND {to:UInt64} AND kind = 0),
	(SELECT count() FROM ` + schema.TableTokenLedgerApplied + ` WHERE slot BETWEEN {from:UInt64} AND {to:UInt64} AND kind = 0)`

// stepOffered counts a range's outputs from the records this process
// inserted (offered) instead of from the ledger: it sums them per pair in
// Go, takes the old balances from the balance copy and writes the markers,
// holders and balances as Arrow batches. The SQL path reads the outputs
// back from the ledger, lists them, sums them, looks the old balances up
// and joins them in six statements of the engine (at 20M accounts they
// were about a third of the ingest's statement time).
//
// The records are only a hint. It tells false, having written nothing,
// when the range is to take the SQL path: when the step keeps no balance
// copy; when the ledger's rows for the range are not exactly the offered
// outputs (another writer's, an earlier run's, a record let go: the
// offered outputs were inserted, so they are in the ledger, and equal
// counts make the sets equal); when any output of the range is counted
// already (re-indexing); or when an output is offered twice (then the
// ledger holds it twice: its distinct count is lower). The range
// must spend nothing: spends are resolved and counted by the SQL path.
//
// Its writes keep the SQL path's order and model: markers first, then
// the holders beside the balances, then the version finished, so a
// failure is redone from the markers (sqlRedoneDeltas reads the marked
// outputs from the ledger).
func (st *StateStep) stepOffered(ctx context.Context, s store.Store, recs []offeredRecord, from, to, version uint64) (bool, error) {
	start := time.Now()
	n := 0
	for _, r := range recs {
		for i := 0; i < r.slot.Len(); i++ {
			if sl := r.slot.Value(i); sl >= from && sl <= to && r.isToken.Value(i) {
				n++
			}
		}
	}
	cached, err := st.balances.prepare(ctx, s)
	if err != nil || !cached {
		return false, err
	}
	st.observed("balance cache", start)
	start = time.Now()
	params := store.Params{"from": strconv.FormatUint(from, 10), "to": strconv.FormatUint(to, 10)}
	res, err := s.Query(ctx, sqlOfferedCheck, params)
	if err != nil {
		return false, fmt.Errorf("check offered outputs: %w", err)
	}
	ledger, _ := res.Rows[0][0].(uint64)
	distinct, _ := res.Rows[0][1].(uint64)
	marked, _ := res.Rows[0][2].(uint64)
	st.observed("offered check", start)
	if ledger != uint64(n) || distinct != uint64(n) || marked != 0 {
		return false, nil
	}
	start = time.Now()
	sums := sumOffered(recs, from, to, n)
	st.observed("deltas (offered)", start)
	var w offeredWrites
	err = together(func() error {
		start := time.Now()
		rec := markerRecord(recs, from, to, n, version)
		defer rec.Release()
		if err := s.Insert(ctx, schema.TableTokenLedgerApplied, rec); err != nil {
			return fmt.Errorf("write ledger markers: %w", err)
		}
		st.observed("ledger markers", start)
		return nil
	}, func() error {
		start := time.Now()
		w = st.balances.changesOf(sums, recs, version)
		st.observed("stored balances", start)
		return nil
	})
	defer w.release()
	if err != nil {
		return false, err
	}
	if err := together(func() error {
		start := time.Now()
		if err := s.Insert(ctx, schema.TableMintHolders, w.holders); err != nil {
			return fmt.Errorf("write mint_holders: %w", err)
		}
		st.observed("mint_holders", start)
		return nil
	}, func() error {
		start := time.Now()
		if err := s.Insert(ctx, schema.TableTokenBalances, w.balances); err != nil {
			return fmt.Errorf("write token_balances: %w", err)
		}
		st.observed("token_balances", start)
		return nil
	}); err != nil {
		return false, err
	}
	if err := st.exec(ctx, s, statement{"finished", sqlFinished}, store.Params{"version": strconv.FormatUint(version, 10)}); err != nil {
		return false, err
	}
	st.balances.finish(version)
	return true, nil
}

// keyType is a 32-byte key column (FixedString(32)).
func keyType() *arrow.FixedSizeBinaryType { return &arrow.FixedSizeBinaryType{ByteWidth: 32} }

// pairSum is the sum of a range's outputs of one (owner, mint) pair, with
// where its keys are (the record and row of its first output).
type pairSum struct {
	pair   pairKey
	rec    int32
	row    int32
	lo, hi uint64 // the sum, 128 bits: SQL's Int128 delta
}

// offeredRow is a token output of the range: its pair, where its keys
// are (record and row) and its amount.
type offeredRow struct {
	pair     pairKey
	rec, row int32
	amount   uint64
}

// pairBuckets partitions a range's outputs by a byte of their pair, so
// that each bucket is summed with a table small enough to stay in the
// CPU's cache: one table for a chunk's half a million pairs missed the
// cache on every probe (about 200 ns each, twice per output).
const pairBuckets = 256

// sumOffered sums the range's token outputs per pair.
func sumOffered(recs []offeredRecord, from, to uint64, n int) []pairSum {
	rows := make([]offeredRow, 0, n)
	var count [pairBuckets]int
	for ri, r := range recs {
		for i := 0; i < r.slot.Len(); i++ {
			if sl := r.slot.Value(i); sl < from || sl > to || !r.isToken.Value(i) {
				continue
			}
			p := pairDigest(r.owner.Value(i), r.mint.Value(i))
			count[p[15]]++
			rows = append(rows, offeredRow{p, int32(ri), int32(i), r.amount.Value(i)})
		}
	}
	// Counting sort by the bucket byte.
	var at [pairBuckets]int
	most := 0
	for b, c := range count {
		if b > 0 {
			at[b] = at[b-1] + count[b-1]
		}
		most = max(most, c)
	}
	sorted := make([]offeredRow, len(rows))
	for i := range rows {
		b := rows[i].pair[15]
		sorted[at[b]] = rows[i]
		at[b]++
	}
	index := newPairTable(most)
	sums := make([]pairSum, 0, len(rows))
	lo := 0
	for _, c := range count {
		index.reset()
		for i := lo; i < lo+c; i++ {
			o := &sorted[i]
			j, ok := index.ref(&o.pair)
			if !ok {
				*j = uint64(len(sums))
				sums = append(sums, pairSum{pair: o.pair, rec: o.rec, row: o.row})
			}
			p := &sums[*j]
			var carry uint64
			p.lo, carry = bits.Add64(p.lo, o.amount, 0)
			p.hi += carry
		}
		lo += c
	}
	return sums
}

// markerRecord is the markers of the range's token outputs.
func markerRecord(recs []offeredRecord, from, to uint64, n int, version uint64) arrow.RecordBatch {
	mem := memory.DefaultAllocator
	slot, kind, applied := array.NewUint64Builder(mem), array.NewUint8Builder(mem), array.NewUint64Builder(mem)
	hash := array.NewFixedSizeBinaryBuilder(mem, keyType())
	defer slot.Release()
	defer kind.Release()
	defer applied.Release()
	defer hash.Release()
	slot.Reserve(n)
	hash.Reserve(n)
	for _, r := range recs {
		for i := 0; i < r.slot.Len(); i++ {
			if sl := r.slot.Value(i); sl >= from && sl <= to && r.isToken.Value(i) {
				slot.UnsafeAppend(sl)
				hash.Append(r.hash.Value(i))
			}
		}
	}
	for range n {
		kind.Append(0)
		applied.Append(version)
	}
	return record([]arrow.Field{
		field("slot", arrow.PrimitiveTypes.Uint64), field("hash", keyType()),
		field("kind", arrow.PrimitiveTypes.Uint8), field("applied", arrow.PrimitiveTypes.Uint64),
	}, slot, hash, kind, applied)
}

// record finishes builders into a record with fields.
func record(fields []arrow.Field, bs ...array.Builder) arrow.RecordBatch {
	cols := make([]arrow.Array, len(bs))
	for i, b := range bs {
		cols[i] = b.NewArray()
	}
	rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, int64(cols[0].Len()))
	for _, c := range cols {
		c.Release()
	}
	return rec
}

// offeredWrites are a step's holder and balance rows.
type offeredWrites struct {
	holders, balances arrow.RecordBatch
}

func (w *offeredWrites) release() {
	if w.holders != nil {
		w.holders.Release()
		w.balances.Release()
	}
}

// changesOf turns the summed pairs into the step's writes, the old
// balances taken from the copy, as sqlChanges and sqlHolders write them:
// a pair is written when it had no balance or its balance changes; its
// holder row moves (a tombstone for the old key when it had one). It
// updates the copy as it goes, one probe a pair: the copy is dropped if
// the step fails (Apply), and finish records the version once it is done.
func (c *balanceCache) changesOf(sums []pairSum, recs []offeredRecord, version uint64) offeredWrites {
	mem := memory.DefaultAllocator
	key := keyType()
	hMint, hOwner := array.NewFixedSizeBinaryBuilder(mem, key), array.NewFixedSizeBinaryBuilder(mem, key)
	hBal, hVer, hDel := array.NewUint64Builder(mem), array.NewUint64Builder(mem), array.NewUint8Builder(mem)
	bOwner, bMint := array.NewFixedSizeBinaryBuilder(mem, key), array.NewFixedSizeBinaryBuilder(mem, key)
	bBal, bVer := array.NewUint64Builder(mem), array.NewUint64Builder(mem)
	for _, b := range []array.Builder{hMint, hOwner, hBal, hVer, hDel, bOwner, bMint, bBal, bVer} {
		defer b.Release()
	}
	// At most a balance and two holder rows a pair.
	for _, b := range []array.Builder{bOwner, bMint, bBal, bVer} {
		b.Reserve(len(sums))
	}
	for _, b := range []array.Builder{hMint, hOwner, hBal, hVer, hDel} {
		b.Reserve(2 * len(sums))
	}
	for i := range sums {
		p := &sums[i]
		held, had := c.m.ref(&p.pair)
		if had && p.lo|p.hi == 0 {
			continue
		}
		r := &recs[p.rec]
		owner, mint := r.owner.Value(int(p.row)), r.mint.Value(int(p.row))
		old := *held
		bal := old + p.lo // toUInt64(old + delta): the sum's low 64 bits
		*held = bal
		bOwner.Append(owner)
		bMint.Append(mint)
		bBal.Append(bal)
		bVer.Append(version)
		hMint.Append(mint)
		hOwner.Append(owner)
		hBal.Append(bal)
		hVer.Append(version)
		hDel.Append(0)
		if had {
			hMint.Append(mint)
			hOwner.Append(owner)
			hBal.Append(old)
			hVer.Append(version)
			hDel.Append(1)
		}
	}
	u64 := arrow.PrimitiveTypes.Uint64
	return offeredWrites{
		holders: record([]arrow.Field{field("mint", key), field("balance", u64), field("owner", key),
			field("version", u64), field("is_deleted", arrow.PrimitiveTypes.Uint8)}, hMint, hBal, hOwner, hVer, hDel),
		balances: record([]arrow.Field{field("owner", key), field("mint", key), field("balance", u64),
			field("version", u64)}, bOwner, bMint, bBal, bVer),
	}
}
