package compressedstate

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// DefaultBalanceCache is the most (owner, mint) pairs the state step keeps
// in memory (a table of 32–64 bytes a pair; what the process grows by in
// the 20M-account bench is in docs/performance.md); above it the step
// reads the old balances from token_balances.
const DefaultBalanceCache = 50_000_000

// pairKey is token_balances.pair: sipHash128Reference(owner ‖ mint).
type pairKey [16]byte

// balanceCache is the state step's copy of the latest balance of every
// (owner, mint) pair, keyed by the pair digest, as of the newest finished
// version. With it a step finds the old balances of the pairs it changes
// by lookups instead of scanning token_balances.pair: a step's pairs hit
// every granule, so that scan read every stored balance, and it grew with
// them: at the 20M-account bench's pairs it took most of a live slot's
// step, the copy's lookups a small part (docs/performance.md).
//
// It is only a copy: it is loaded from the store, compared with the
// newest finished version before every step (another writer's step, or a
// redo, makes it reload) and dropped by any failed step.
type balanceCache struct {
	limit int
	m     *pairTable
	// version is the finished step version m reflects.
	version uint64
}

// sqlNewestFinished is the newest finished step version (0 if none).
const sqlNewestFinished = `SELECT max(version) FROM compressed_step_versions`

// sqlLoadBalances returns every pair's latest balance as pair ‖ balance
// (16 + 8 bytes, little-endian), concatenated in 256 strings: one value
// per row instead of two per pair keeps decoding cheap for tens of
// millions of pairs.
const sqlLoadBalances = `SELECT arrayStringConcat(groupArray(concat(pair, reinterpretAsFixedString(b))))
FROM (SELECT pair, argMax(balance, version) AS b FROM token_balances GROUP BY pair)
GROUP BY substring(pair, 1, 1)`

// The step's deltas as pair ‖ delta (16 + 16 bytes, Int128
// little-endian), one after another. A store with a raw query
// (store.RawQuerier) reads the rows as RowBinary, which is that layout;
// another gets them concatenated in one string. The RowBinary read is
// the faster by far, as the engine no longer builds the string (a
// throwaway test, docs/performance.md).
const (
	sqlDeltaRows    = `SELECT pair, delta FROM compressed_step_deltas`
	sqlDeltaDigests = `SELECT arrayStringConcat(groupArray(concat(pair, reinterpretAsFixedString(delta))))
FROM compressed_step_deltas`
)

// deltaBytes is the size of a delta row: pair and delta.
const deltaBytes = 32

// readDeltas returns the step's deltas (see sqlDeltaRows).
func readDeltas(ctx context.Context, s arrowstore.Writer) ([]byte, error) {
	var raw []byte
	if rq, ok := s.(store.RawQuerier); ok {
		b, err := rq.QueryRaw(ctx, sqlDeltaRows, nil, "RowBinary")
		if err != nil {
			return nil, fmt.Errorf("read deltas: %w", err)
		}
		raw = b
	} else {
		res, err := s.Query(ctx, sqlDeltaDigests, nil)
		if err != nil {
			return nil, fmt.Errorf("read deltas: %w", err)
		}
		str, _ := res.Rows[0][0].(string)
		raw = []byte(str)
	}
	if len(raw)%deltaBytes != 0 {
		return nil, fmt.Errorf("read deltas: %d bytes, not pairs of %d", len(raw), deltaBytes)
	}
	return raw, nil
}

// sqlClearStored empties the old balances' scratch table.
const sqlClearStored = `TRUNCATE TABLE ` + schema.TableStepStored

// le64 decodes 8 little-endian bytes without copying them out of s.
func le64[T string | []byte](s T) uint64 {
	_ = s[7]
	var v uint64
	for i := 7; i >= 0; i-- {
		v = v<<8 | uint64(s[i])
	}
	return v
}

// drop forgets the copy: the next step loads it again.
func (c *balanceCache) drop() { c.m = nil }

// prepare makes the copy current before a step's balance writes, loading
// it if needed, and tells whether the step may use it: not when disabled
// or when the store holds more balance rows than the limit.
func (c *balanceCache) prepare(ctx context.Context, s arrowstore.Writer) (bool, error) {
	if c.limit <= 0 {
		return false, nil
	}
	res, err := s.Query(ctx, sqlNewestFinished, nil)
	if err != nil {
		return false, fmt.Errorf("balance cache: read finished version: %w", err)
	}
	finished, _ := res.Rows[0][0].(uint64)
	if c.m != nil && c.version == finished {
		return true, nil
	}
	c.m = nil
	// Rows, not pairs: an upper bound read from part metadata.
	if res, err = s.Query(ctx, `SELECT count() FROM token_balances`, nil); err != nil {
		return false, fmt.Errorf("balance cache: count balances: %w", err)
	}
	n, _ := res.Rows[0][0].(uint64)
	if n > uint64(c.limit) {
		return false, nil
	}
	if res, err = s.Query(ctx, sqlLoadBalances, nil); err != nil {
		return false, fmt.Errorf("balance cache: load: %w", err)
	}
	m := newPairTable(int(n))
	for _, r := range res.Rows {
		raw, _ := r[0].(string)
		if len(raw)%24 != 0 {
			return false, fmt.Errorf("balance cache: load: %d bytes, not pairs of 24", len(raw))
		}
		for i := 0; i < len(raw); i += 24 {
			var key pairKey
			copy(key[:], raw[i:i+16])
			m.Put(&key, le64(raw[i+16:i+24]))
		}
	}
	c.m, c.version = m, finished
	return true, nil
}

// apply reads the step's deltas, writes the copy's balances of those
// pairs into the scratch table sqlChangesCached reads, and moves the copy
// to the balances the step's writes will leave (as sqlChanges computes
// them: old plus delta), each pair in one probe of the table. The copy
// is then ahead of the store: commit marks it current once the step's
// writes finish, and a step that fails drops it (StateStep.Apply).
func (c *balanceCache) apply(ctx context.Context, s arrowstore.Writer) error {
	if err := s.Exec(ctx, sqlClearStored, nil); err != nil {
		return fmt.Errorf("clear stored balances: %w", err)
	}
	raw, err := readDeltas(ctx, s)
	if err != nil {
		return err
	}
	mem := memory.DefaultAllocator
	pairs := array.NewFixedSizeBinaryBuilder(mem, &arrow.FixedSizeBinaryType{ByteWidth: 16})
	olds := array.NewUint64Builder(mem)
	defer pairs.Release()
	defer olds.Release()
	for i := 0; i < len(raw); i += deltaBytes {
		var key pairKey
		copy(key[:], raw[i:i+16])
		// The delta's low 64 bits: toUInt64(old + delta) keeps the
		// sum's.
		if old, had := c.m.Add(&key, le64(raw[i+16:i+24])); had {
			pairs.Append(key[:])
			olds.Append(old)
		}
	}
	if olds.Len() == 0 {
		return nil
	}
	pa, oa := pairs.NewArray(), olds.NewArray()
	defer pa.Release()
	defer oa.Release()
	sch := arrow.NewSchema([]arrow.Field{
		field("pair", &arrow.FixedSizeBinaryType{ByteWidth: 16}), field("old_balance", arrow.PrimitiveTypes.Uint64),
	}, nil)
	rec := array.NewRecordBatch(sch, []arrow.Array{pa, oa}, int64(oa.Len()))
	defer rec.Release()
	if err := s.Insert(ctx, schema.TableStepStored, rec); err != nil {
		return fmt.Errorf("write stored balances: %w", err)
	}
	return nil
}

// commit marks the copy current as of version, a finished step whose
// balances apply moved it to. A copy grown past the limit is dropped;
// prepare then declines it.
func (c *balanceCache) commit(version uint64) {
	c.version = version
	if c.m.Len() > c.limit {
		c.m = nil
	}
}
