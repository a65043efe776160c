package compressed

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/dasch-labs/dasch/ingest/arrowbatch"
	"github.com/dasch-labs/dasch/ingest/light"
	"github.com/dasch-labs/dasch/internal/parallel"
	qc "github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store"
)

// daschTables are the tables the generated state is written to.
func daschTables() []string {
	return []string{schema.TableTokenAccounts, schema.TableCompressed, schema.TableTokenBalances, schema.TableMintHolders}
}

// compressedFields are the columns shared by compressed_accounts and
// token_accounts (schema migration 2), in order.
func compressedFields() []arrow.Field {
	pk, sig := arrowbatch.PubkeyType(), arrowbatch.SignatureType()
	u64, u8, b := arrow.PrimitiveTypes.Uint64, arrow.PrimitiveTypes.Uint8, arrow.FixedWidthTypes.Boolean
	f := func(name string, t arrow.DataType) arrow.Field { return arrow.Field{Name: name, Type: t} }
	n := func(name string, t arrow.DataType) arrow.Field {
		return arrow.Field{Name: name, Type: t, Nullable: true}
	}
	return []arrow.Field{
		f("hash", pk), f("tree", pk), f("queue", pk), f("tree_type", u8), f("leaf_index", u64),
		n("seq", u64), f("in_output_queue", b), f("slot_created", u64), f("signature", sig),
		f("owner", pk), f("lamports", u64), n("address", pk), n("discriminator", u64),
		n("data", arrow.BinaryTypes.Binary), n("data_hash", pk), f("is_token", b), f("mint", pk),
		f("token_owner", pk), f("amount", u64), n("delegate", pk), f("token_state", u8),
		n("tlv", arrow.BinaryTypes.Binary),
	}
}

// treeTypeStateV1 is the tree_type of a V1 state tree.
const treeTypeStateV1 = 1

// recordBuilder turns chunks into the records of the four tables. Builders
// are reused from chunk to chunk.
type recordBuilder struct {
	p          *Plan
	acc        *array.RecordBuilder // token_accounts: compressed columns + spent, spent_slot
	compSchema *arrow.Schema        // compressed_accounts: the same minus the last two
	bal, hold  *array.RecordBuilder
	data       []byte // token data scratch
}

func newRecordBuilder(p *Plan, mem memory.Allocator) *recordBuilder {
	cf := compressedFields()
	accFields := append(append([]arrow.Field{}, cf...),
		arrow.Field{Name: "spent", Type: arrow.FixedWidthTypes.Boolean},
		arrow.Field{Name: "spent_slot", Type: arrow.PrimitiveTypes.Uint64})
	pk, u64 := arrowbatch.PubkeyType(), arrow.PrimitiveTypes.Uint64
	return &recordBuilder{
		p:          p,
		acc:        array.NewRecordBuilder(mem, arrow.NewSchema(accFields, nil)),
		compSchema: arrow.NewSchema(cf, nil),
		bal: array.NewRecordBuilder(mem, arrow.NewSchema([]arrow.Field{
			{Name: "owner", Type: pk}, {Name: "mint", Type: pk}, {Name: "balance", Type: u64}, {Name: "version", Type: u64},
		}, nil)),
		hold: array.NewRecordBuilder(mem, arrow.NewSchema([]arrow.Field{
			{Name: "mint", Type: pk}, {Name: "balance", Type: u64}, {Name: "owner", Type: pk},
			{Name: "version", Type: u64}, {Name: "is_deleted", Type: arrow.PrimitiveTypes.Uint8},
		}, nil)),
	}
}

func (b *recordBuilder) release() {
	b.acc.Release()
	b.bal.Release()
	b.hold.Release()
}

// insertJob is one record bound for one table.
type insertJob struct {
	table string
	rec   arrow.RecordBatch
}

// build returns the chunk as insert jobs, largest first so that parallel
// inserters finish together. The caller releases the records.
func (b *recordBuilder) build(ch *Chunk) []insertJob {
	p := b.p
	f := b.acc.Fields()
	hash := f[0].(*array.FixedSizeBinaryBuilder)
	tree := f[1].(*array.FixedSizeBinaryBuilder)
	queue := f[2].(*array.FixedSizeBinaryBuilder)
	treeType := f[3].(*array.Uint8Builder)
	leaf := f[4].(*array.Uint64Builder)
	seq := f[5].(*array.Uint64Builder)
	inQueue := f[6].(*array.BooleanBuilder)
	slot := f[7].(*array.Uint64Builder)
	sig := f[8].(*array.FixedSizeBinaryBuilder)
	owner := f[9].(*array.FixedSizeBinaryBuilder)
	lamports := f[10].(*array.Uint64Builder)
	address := f[11].(*array.FixedSizeBinaryBuilder)
	disc := f[12].(*array.Uint64Builder)
	data := f[13].(*array.BinaryBuilder)
	dataHash := f[14].(*array.FixedSizeBinaryBuilder)
	isToken := f[15].(*array.BooleanBuilder)
	mint := f[16].(*array.FixedSizeBinaryBuilder)
	tokenOwner := f[17].(*array.FixedSizeBinaryBuilder)
	amount := f[18].(*array.Uint64Builder)
	delegate := f[19].(*array.FixedSizeBinaryBuilder)
	state := f[20].(*array.Uint8Builder)
	tlv := f[21].(*array.BinaryBuilder)
	spent := f[22].(*array.BooleanBuilder)
	spentSlot := f[23].(*array.Uint64Builder)

	n := len(ch.Accounts)
	for _, fb := range f {
		fb.Reserve(n)
	}
	program := light.CompressedTokenProgram()
	for i := range ch.Accounts {
		a := &ch.Accounts[i]
		h, t, q, s, dh := p.AccountHash(a.Seq), p.Tree(a.Seq), p.Queue(a.Seq), p.Signature(a.Seq), p.DataHash(a.Seq)
		m, o := p.MintKey(int(a.Mint)), p.OwnerKey(a.Owner)
		hash.Append(h[:])
		tree.Append(t[:])
		queue.Append(q[:])
		treeType.Append(treeTypeStateV1)
		leaf.Append(LeafIndex(a.Seq))
		seq.Append(LeafIndex(a.Seq))
		inQueue.Append(false)
		slot.Append(Slot(a.Seq))
		sig.Append(s[:])
		owner.Append(program[:])
		lamports.Append(0)
		address.AppendNull()
		disc.Append(light.TokenDiscriminatorV1)
		var del *[32]byte
		if a.Delegate >= 0 {
			d := p.DelegateKey(a.Delegate)
			del = &d
		}
		b.data = tokenData(b.data[:0], &m, &o, a.Amount, del)
		data.Append(b.data)
		dataHash.Append(dh[:])
		isToken.Append(true)
		mint.Append(m[:])
		tokenOwner.Append(o[:])
		amount.Append(a.Amount)
		if del != nil {
			delegate.Append(del[:])
		} else {
			delegate.AppendNull()
		}
		state.Append(uint8(light.TokenInitialized))
		tlv.AppendNull()
		spent.Append(false)
		spentSlot.Append(0)
	}
	acc := b.acc.NewRecordBatch()
	// compressed_accounts takes the same column arrays without a copy.
	comp := array.NewRecordBatch(b.compSchema, acc.Columns()[:len(b.compSchema.Fields())], acc.NumRows())

	bf, hf := b.bal.Fields(), b.hold.Fields()
	for _, fb := range bf {
		fb.Reserve(len(ch.Holdings))
	}
	for _, fb := range hf {
		fb.Reserve(len(ch.Holdings))
	}
	for _, h := range ch.Holdings {
		m, o := p.MintKey(int(h.Mint)), p.OwnerKey(h.Owner)
		bf[0].(*array.FixedSizeBinaryBuilder).Append(o[:])
		bf[1].(*array.FixedSizeBinaryBuilder).Append(m[:])
		bf[2].(*array.Uint64Builder).Append(h.Balance)
		bf[3].(*array.Uint64Builder).Append(1)
		hf[0].(*array.FixedSizeBinaryBuilder).Append(m[:])
		hf[1].(*array.Uint64Builder).Append(h.Balance)
		hf[2].(*array.FixedSizeBinaryBuilder).Append(o[:])
		hf[3].(*array.Uint64Builder).Append(1)
		hf[4].(*array.Uint8Builder).Append(0)
	}
	return []insertJob{
		{schema.TableTokenAccounts, acc},
		{schema.TableCompressed, comp},
		{schema.TableTokenBalances, b.bal.NewRecordBatch()},
		{schema.TableMintHolders, b.hold.NewRecordBatch()},
	}
}

// tokenData is the account data of a compressed token account as the
// compressed-token program serialises it: mint, owner, amount (u64 LE),
// Option<delegate>, state, Option<tlv>.
func tokenData(dst []byte, mint, owner *[32]byte, amount uint64, delegate *[32]byte) []byte {
	dst = append(dst, mint[:]...)
	dst = append(dst, owner[:]...)
	dst = binary.LittleEndian.AppendUint64(dst, amount)
	if delegate != nil {
		dst = append(dst, 1)
		dst = append(dst, delegate[:]...)
	} else {
		dst = append(dst, 0)
	}
	return append(dst, uint8(light.TokenInitialized), 0)
}

// recordBytes is the size of a record's buffers: what an insert carries.
func recordBytes(rec arrow.RecordBatch) int64 {
	var n int64
	for _, c := range rec.Columns() {
		for _, b := range c.Data().Buffers() {
			if b != nil {
				n += int64(b.Len())
			}
		}
	}
	return n
}

// IngestFigures is one system's load of the generated state.
type IngestFigures struct {
	Accounts, Holdings int
	Rows               int64 // rows written over all tables
	Bytes              int64 // bytes handed to the engine (Arrow buffers or COPY rows)
	// Load is the time spent writing: store.Insert calls for dasch, COPY
	// for PostgreSQL. Generation and batch building are outside it.
	Load time.Duration
	// Index is PostgreSQL's index build plus VACUUM ANALYZE after COPY.
	Index time.Duration
	// Settle is how long dasch's background merges ran on after the load.
	Settle time.Duration
	// Parts are dasch's active parts per table once merges settled.
	Parts map[string]int
	// DiskBytes is the size on disk of the loaded tables and indexes.
	DiskBytes int64
	Stats     Stats
}

// AccountsPerSec is the load rate in token accounts per second; for
// PostgreSQL it includes building the indexes.
func (f IngestFigures) AccountsPerSec() float64 {
	return float64(f.Accounts) / (f.Load + f.Index).Seconds()
}

// CopyAccountsPerSec is PostgreSQL's rate counting COPY alone.
func (f IngestFigures) CopyAccountsPerSec() float64 { return float64(f.Accounts) / f.Load.Seconds() }

// loadDasch generates the state and writes it with store.Insert, par
// inserts at a time; only the inserts are timed.
func loadDasch(ctx context.Context, s store.Store, p *Plan, chunk, par int) (IngestFigures, error) {
	var fig IngestFigures
	rb := newRecordBuilder(p, memory.NewGoAllocator())
	defer rb.release()
	st, err := p.Stream(ctx, chunk, func(ch *Chunk) error {
		jobs := rb.build(ch)
		defer func() {
			for _, j := range jobs {
				j.rec.Release()
			}
		}()
		for _, j := range jobs {
			fig.Rows += j.rec.NumRows()
			fig.Bytes += recordBytes(j.rec)
		}
		start := time.Now()
		err := insertJobs(ctx, s, jobs, par)
		fig.Load += time.Since(start)
		return err
	})
	if err != nil {
		return fig, fmt.Errorf("dasch load: %w", err)
	}
	fig.Stats, fig.Accounts, fig.Holdings = st, st.Accounts, st.Holdings
	// The API stamps answers with the indexed slot.
	if err := s.Exec(ctx, "INSERT INTO "+schema.TableCheckpoints+" (name, slot) VALUES ({n:String}, {s:UInt64})",
		store.Params{"n": schema.CheckpointMain, "s": strconv.FormatUint(st.MaxSlot, 10)}); err != nil {
		return fig, fmt.Errorf("dasch checkpoint: %w", err)
	}
	return fig, nil
}

// insertJobs runs the inserts with par workers; the first error wins.
func insertJobs(ctx context.Context, s store.Store, jobs []insertJob, par int) error {
	return parallel.Run(jobs, par, func(_ int, j insertJob) error {
		if err := s.Insert(ctx, j.table, j.rec); err != nil {
			return fmt.Errorf("insert into %s: %w", j.table, err)
		}
		return nil
	})
}

// narrowTable holds the engine's raw insert limit measurement.
const narrowTable = "bench_narrow_rows"

// narrowLimit measures the engine's raw insert rate on narrow rows
// (UInt64, UInt64), pre-built batches inserted par at a time: the ceiling
// any ingest into this engine runs under, taken in the same run.
func narrowLimit(ctx context.Context, s store.Store, rows, batch, par int) (float64, error) {
	if err := s.Exec(ctx, "DROP TABLE IF EXISTS "+narrowTable+" SYNC", nil); err != nil {
		return 0, err
	}
	if err := s.Exec(ctx, "CREATE TABLE "+narrowTable+" (k UInt64, v UInt64) ENGINE = MergeTree ORDER BY k", nil); err != nil {
		return 0, err
	}
	defer s.Exec(context.WithoutCancel(ctx), "DROP TABLE IF EXISTS "+narrowTable+" SYNC", nil)
	mem := memory.NewGoAllocator()
	sc := arrow.NewSchema([]arrow.Field{{Name: "k", Type: arrow.PrimitiveTypes.Uint64}, {Name: "v", Type: arrow.PrimitiveTypes.Uint64}}, nil)
	r := rand.New(rand.NewPCG(1, 2))
	var jobs []insertJob
	defer func() {
		for _, j := range jobs {
			j.rec.Release()
		}
	}()
	for left := rows; left > 0; left -= batch {
		n := min(batch, left)
		b := array.NewRecordBuilder(mem, sc)
		k, v := b.Field(0).(*array.Uint64Builder), b.Field(1).(*array.Uint64Builder)
		k.Reserve(n)
		v.Reserve(n)
		for i := 0; i < n; i++ {
			k.UnsafeAppend(r.Uint64())
			v.UnsafeAppend(uint64(i))
		}
		jobs = append(jobs, insertJob{narrowTable, b.NewRecordBatch()})
		b.Release()
	}
	start := time.Now()
	if err := insertJobs(ctx, s, jobs, par); err != nil {
		return 0, err
	}
	return float64(rows) / time.Since(start).Seconds(), nil
}

// settle waits, up to limit, until no merge runs on the loaded tables, so
// queries are measured on the state ingest leaves once it is idle rather
// than while merges compete for the CPU. It returns the wait and the active
// parts per table.
func settle(ctx context.Context, s store.Store, limit time.Duration) (time.Duration, map[string]int, error) {
	start := time.Now()
	quiet := 0
	for time.Since(start) < limit && quiet < 3 {
		res, err := s.Query(ctx, "SELECT count() FROM system.merges WHERE database = currentDatabase()", nil)
		if err != nil {
			return 0, nil, err
		}
		if res.Rows[0][0].(uint64) == 0 {
			quiet++
		} else {
			quiet = 0
		}
		select {
		case <-ctx.Done():
			return 0, nil, ctx.Err()
		case <-time.After(time.Second):
		}
	}
	wait := time.Since(start)
	res, err := s.Query(ctx, `SELECT table, toUInt64(count()) FROM system.parts
		WHERE active AND database = currentDatabase() AND table IN {t:Array(String)} GROUP BY table`,
		store.Params{"t": chArray(daschTables())})
	if err != nil {
		return 0, nil, err
	}
	parts := map[string]int{}
	for _, r := range res.Rows {
		parts[r[0].(string)] = int(r[1].(uint64))
	}
	return wait, parts, nil
}

// daschDiskBytes is the compressed size of the loaded tables.
func daschDiskBytes(ctx context.Context, s store.Store) (int64, error) {
	res, err := s.Query(ctx, `SELECT toUInt64(sum(bytes_on_disk)) FROM system.parts
		WHERE active AND database = currentDatabase() AND table IN {t:Array(String)}`,
		store.Params{"t": chArray(daschTables())})
	if err != nil {
		return 0, err
	}
	return int64(res.Rows[0][0].(uint64)), nil
}

// chArray writes a ClickHouse Array(String) parameter value.
func chArray(xs []string) string {
	b := []byte{'['}
	for i, x := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '\'')
		b = append(b, x...) // table names: no quotes to escape
		b = append(b, '\'')
	}
	return string(append(b, ']'))
}

// Holder is one entry of a holders page; Balance is one of a balances page
// (Key is then the mint).
type Holder struct {
	Key     [32]byte
	Balance uint64
}

// HolderCursor is the (balance, owner) of the last holder before a page.
type HolderCursor struct {
	Balance uint64
	Owner   [32]byte
}

// daschHolderAt reads the holder at 0-based position pos of mint's
// holders (balance DESC, owner DESC): the cursor of the page after it.
func daschHolderAt(ctx context.Context, s store.Store, mint [32]byte, pos int) (HolderCursor, error) {
	res, err := s.Query(ctx, `SELECT balance, owner FROM mint_holders FINAL
		WHERE mint = {m:FixedString(32)} AND is_deleted = 0
		ORDER BY balance DESC, owner DESC LIMIT 1 OFFSET {o:UInt64}`,
		store.Params{"m": string(mint[:]), "o": strconv.Itoa(pos)})
	if err != nil {
		return HolderCursor{}, err
	}
	if len(res.Rows) != 1 {
		return HolderCursor{}, fmt.Errorf("mint has no holder at position %d", pos)
	}
	var c HolderCursor
	c.Balance = res.Rows[0][0].(uint64)
	copy(c.Owner[:], res.Rows[0][1].(string))
	return c, nil
}

// daschHolderCount counts the live holders of mint.
func daschHolderCount(ctx context.Context, s store.Store, mint [32]byte) (int, error) {
	res, err := s.Query(ctx, `SELECT count() FROM mint_holders FINAL WHERE mint = {m:FixedString(32)} AND is_deleted = 0`,
		store.Params{"m": string(mint[:])})
	if err != nil {
		return 0, err
	}
	return int(res.Rows[0][0].(uint64)), nil
}

// daschHolders is the holders page after cur (nil: the first page) from
// the query layer the API calls, without HTTP or JSON.
func daschHolders(ctx context.Context, s store.Store, mint [32]byte, cur *HolderCursor) ([]Holder, error) {
	page := qc.HolderPage{Limit: pageLimit}
	if cur != nil {
		page.After = &qc.HolderCursor{Balance: cur.Balance, Owner: qc.Key(cur.Owner)}
	}
	items, err := qc.MintHolders(ctx, s, qc.Key(mint), page)
	if err != nil {
		return nil, err
	}
	out := make([]Holder, len(items))
	for i, it := range items {
		out[i] = Holder{Key: it.Owner, Balance: it.Balance}
	}
	return out, nil
}

// daschBalances is the first balances page of owner from the query layer.
func daschBalances(ctx context.Context, s store.Store, owner [32]byte) ([]Holder, error) {
	items, err := qc.TokenBalancesByOwner(ctx, s, qc.Key(owner), qc.BalancePage{Limit: pageLimit})
	if err != nil {
		return nil, err
	}
	out := make([]Holder, len(items))
	for i, it := range items {
		out[i] = Holder{Key: it.Mint, Balance: it.Balance}
	}
	return out, nil
}
