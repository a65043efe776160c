package compressedbench

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/dasch-labs/dasch/chain/light"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/checkpoint"
	"github.com/dasch-labs/dasch/ingest"
	"github.com/dasch-labs/dasch/ingest/arrowbatch"
	"github.com/dasch-labs/dasch/ingest/compressedstate"
	"github.com/dasch-labs/dasch/ingest/decode"
	"github.com/dasch-labs/dasch/store"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// treeTypeStateV2 is the tree_type of a batched (V2) state tree. The
// generated accounts sit in V2 trees, where new compressed accounts go:
// they are proven by index, so no Merkle path is hashed at ingest.
const treeTypeStateV2 = uint8(light.TreeStateV2)

// seedTrees registers the generated trees in state_trees, as `dasch
// ingest --trees` would.
func seedTrees(ctx context.Context, s arrowstore.Store, p *Plan) error {
	for t := 0; t < trees; t++ {
		tree, queue := p.treeKeys[t], p.queueKeys[t]
		if err := s.Exec(ctx, `INSERT INTO state_trees (tree, queue, tree_type, height, root_history_capacity)
			VALUES ({t:FixedString(32)}, {q:FixedString(32)}, {y:UInt8}, 32, 0)`,
			store.Params{"t": string(tree[:]), "q": string(queue[:]), "y": strconv.Itoa(int(treeTypeStateV2))}); err != nil {
			return fmt.Errorf("seed tree %d: %w", t, err)
		}
	}
	return nil
}

// events turns a chunk into the parsed Light events of its transactions,
// as light.Parse returns them: two outputs per transaction (see
// Plan.Signature), each a compressed token account in a V2 tree. A
// transaction the chunk boundary splits comes out as two events of one
// signature, which is what re-ingesting half of it looks like.
func events(p *Plan, ch *Chunk) []light.Events {
	var a eventArena
	return a.events(p, ch)
}

// eventArena holds a chunk's parsed events and what they point to, and is
// reused chunk after chunk: the bench's input is not the ingest's work, and
// fresh memory for it, hundreds of megabytes per chunk, took CPU from the
// ingest it overlaps (docs/performance.md). The events of one call stay
// valid until the next; the pipeline is done with them when emit returns
// (the decoder copies them into records).
type eventArena struct {
	evs   []light.Events
	outs  []light.OutputAccount
	toks  []light.TokenData
	datas []light.AccountData
	buf   []byte
}

// events fills the arena with ch's events (see the function events).
func (ea *eventArena) events(p *Plan, ch *Chunk) []light.Events {
	n := len(ch.Accounts)
	if cap(ea.outs) < n {
		ea.outs = make([]light.OutputAccount, n)
		ea.toks = make([]light.TokenData, n)
		ea.datas = make([]light.AccountData, n)
	}
	outs, toks, datas := ea.outs[:n], ea.toks[:n], ea.datas[:n]
	evs := ea.evs[:0]
	// Sized for every account's token data, so appends never reallocate.
	if need := n * light.TokenDataMaxLen; cap(ea.buf) < need {
		ea.buf = make([]byte, 0, need)
	}
	buf := ea.buf[:0]
	first := 0 // the current event's first account
	for i := range ch.Accounts {
		a := &ch.Accounts[i]
		m, o := p.MintKey(int(a.Mint)), p.OwnerKey(a.Owner)
		var del *[32]byte
		if a.Delegate >= 0 {
			d := p.DelegateKey(a.Delegate)
			del = &d
		}
		// Two accounts a transaction (Plan.Signature): the second of a
		// pair in the chunk joins the first's event.
		if i == 0 || a.Seq/2 != ch.Accounts[i-1].Seq/2 {
			first = i
			evs = append(evs, light.Events{Signature: p.Signature(a.Seq), Slot: Slot(a.Seq), Compression: true})
		}
		ev := &evs[len(evs)-1]
		buf = tokenOutput(p, &outs[i], &datas[i], &toks[i], buf, a.Seq, Slot(a.Seq), (*[64]byte)(&ev.Signature), m, o, a.Amount, del)
		ev.Outputs = outs[first : i+1 : i+1]
	}
	ea.evs = evs
	return evs
}

// tokenOutput fills out as the parsed event carries the token account at
// stream position seq, created at slot by transaction sig: a V1 token
// account of the compressed-token program in seq's V2 tree, with data and
// tok as its account and token data. The token data's bytes are appended
// to buf, which is returned.
func tokenOutput(p *Plan, out *light.OutputAccount, data *light.AccountData, tok *light.TokenData, buf []byte,
	seq, slot uint64, sig *[64]byte, mint, owner [32]byte, amount uint64, del *[32]byte) []byte {
	// Field by field, not composite literals: the arena's structs are
	// written in place, with no temporary copied over them.
	start := len(buf)
	buf = light.AppendTokenData(buf, &mint, &owner, amount, del, uint8(light.TokenInitialized), nil)
	binary.LittleEndian.PutUint64(data.Discriminator[:], light.TokenDiscriminatorV1)
	data.Data = buf[start:len(buf):len(buf)]
	data.DataHash = p.DataHash(seq)
	tok.Mint, tok.Owner, tok.Amount, tok.State, tok.Delegate, tok.TLV = mint, owner, amount, light.TokenInitialized, nil, nil
	if del != nil {
		k := solana.Pubkey(*del)
		tok.Delegate = &k
	}
	out.Hash, out.Tree, out.Queue, out.TreeType = p.AccountHash(seq), p.Tree(seq), p.Queue(seq), light.TreeStateV2
	out.LeafIndex, out.Seq, out.InOutputQueue, out.SlotCreated = uint32(LeafIndex(seq)), nil, true, slot
	out.Owner, out.Lamports, out.Address, out.Data, out.Token = light.CompressedTokenProgram(), 0, nil, data, tok
	out.UnknownTree, out.Signature = false, *sig
	return buf
}

// Phases are where the end-to-end ingest spent its time, by name: the
// decoder and record building, each table's inserts (summed over the
// parallel inserters, so they can add up to more than the wall time) and
// each state step write.
type Phases map[string]time.Duration

func (ph Phases) add(what string, d time.Duration) { ph[what] += d }

// phaseFunc adds a duration to a phase; safe from any goroutine.
type phaseFunc func(what string, d time.Duration)

// list writes the phases longest first as "name value" in unit with
// prec decimals, leaving out those below skip units.
func (ph Phases) list(unit time.Duration, prec int, skip float64) string {
	var out []string
	for _, k := range ph.Sorted() {
		if v := float64(ph[k]) / float64(unit); v >= skip {
			out = append(out, k+" "+strconv.FormatFloat(v, 'f', prec, 64))
		}
	}
	return strings.Join(out, ", ")
}

// Sorted lists the phases longest first.
func (ph Phases) Sorted() []string {
	names := make([]string, 0, len(ph))
	for k := range ph {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool { return ph[names[i]] > ph[names[j]] })
	return names
}

// loadDasch ingests the generated state end to end from parsed events
// (see runPipeline). Load is the wall time of the whole run, event
// generation included (it overlaps the inserts and takes CPU from them;
// its own time is the phase "generate").
func loadDasch(ctx context.Context, s arrowstore.Store, step *compressedstate.StateStep, p *Plan, chunk, par, partChunks int) (IngestFigures, error) {
	fig := IngestFigures{Phases: Phases{}}
	if err := seedTrees(ctx, s, p); err != nil {
		return fig, err
	}
	var st Stats
	use0, err := processUsage()
	if err != nil {
		return fig, err
	}
	start := time.Now()
	err = runPipeline(ctx, s, step, par, partChunks, &fig, Slot(0), func(ctx context.Context, emit emitFunc, phase phaseFunc) error {
		var err error
		var arena eventArena
		st, err = p.Stream(ctx, chunk, func(ch *Chunk) error {
			t0 := time.Now()
			evs := arena.events(p, ch)
			phase("generate", time.Since(t0))
			return emit(evs, Slot(ch.Accounts[len(ch.Accounts)-1].Seq))
		})
		return err
	})
	if err != nil {
		return fig, fmt.Errorf("dasch load: %w", err)
	}
	fig.Load = time.Since(start)
	use1, err := processUsage()
	if err != nil {
		return fig, err
	}
	fig.add(use0, use1)
	fig.Stats, fig.Accounts, fig.Holdings = st, st.Accounts, st.Holdings
	if fig.Rows, fig.Tables, err = storedRows(ctx, s); err != nil {
		return fig, err
	}
	// The API stamps answers with the indexed slot.
	if err := checkpoint.Write(ctx, s, st.MaxSlot); err != nil {
		return fig, err
	}
	return fig, nil
}

// emitFunc hands the pipeline a chunk's events and the chunk's last slot;
// chunks come in slot order, and the next may go on with that slot.
type emitFunc func(evs []light.Events, last uint64) error

// runPipeline ingests what gen emits end to end, shaped as the ingest
// pipeline runs: the compressed decoder turns a chunk's events into rows
// and its record builders into Arrow batches while the previous chunk's
// batches are appended par at a time to parts of partChunks chunks (see
// partSets), and the state step derives every read table beside them in
// the pipeline's Stepper, from slot first on, as each set of parts is
// committed.
// Phases and counts go to fig; gen times its own work through phase.
// step is the process's state step: a live indexer keeps one, with its
// copy of the balances, from run to run.
func runPipeline(ctx context.Context, s arrowstore.Store, step *compressedstate.StateStep, par, partChunks int, fig *IngestFigures, first uint64,
	gen func(context.Context, emitFunc, phaseFunc) error) error {
	dec, err := compressedstate.NewDecoder(ctx, s)
	if err != nil {
		return err
	}
	var mu sync.Mutex
	phase := func(what string, d time.Duration) {
		mu.Lock()
		fig.Phases.add(what, d)
		mu.Unlock()
	}
	step.Observe(func(what string, d time.Duration) { phase("step: "+what, d) })
	mem := memory.NewGoAllocator()
	builders := map[string]arrowbatch.Builder{}
	var names []string
	for _, t := range dec.Tables() {
		builders[t.Name] = t.New(mem)
		names = append(names, t.Name)
	}
	defer func() {
		for _, b := range builders {
			b.Release()
		}
	}()
	type prepared struct {
		jobs  []insertJob
		bytes int64
		to    uint64 // the chunk's last slot
	}
	ready := make(chan prepared, 1)
	gctx, cancel := context.WithCancel(ctx)
	defer cancel()
	genErr := make(chan error, 1)
	go func() {
		defer close(ready)
		genErr <- gen(gctx, func(evs []light.Events, last uint64) error {
			t1 := time.Now()
			jobs, err := decodeChunk(dec, builders, names, evs)
			if err != nil {
				return err
			}
			phase("decode and build", time.Since(t1))
			var size int64
			for _, j := range jobs {
				size += recordBytes(j.rec)
			}
			// Largest first: the long inserts start early on the streams.
			sort.Slice(jobs, func(a, b int) bool { return recordBytes(jobs[a].rec) > recordBytes(jobs[b].rec) })
			select {
			case ready <- prepared{jobs, size, last}:
				return nil
			case <-gctx.Done():
				releaseJobs(jobs)
				return gctx.Err()
			}
		}, phase)
	}()
	// The state step runs beside the inserts, as the pipeline's Stepper
	// runs it: each step covers every chunk committed since the last one.
	stepper := ingest.StartStepper(gctx, s, []ingest.StateStep{countedStep{step, &fig.Steps}}, nil, cancel)
	last := first
	// A set of parts is stored when its commit ends: the next chunk may
	// go on with the set's last slot, so as the pipeline's watermark only
	// the slots before it are complete.
	parts := newPartSets(s, partChunks, par, anyOrderOf(dec.Tables()), phase, func(to uint64) {
		if to > first {
			stepper.Advance(first, to-1)
		}
	})
	err = func() error {
		for pr := range ready {
			fig.Bytes += pr.bytes
			fig.Chunks++
			err := parts.add(ctx, pr.jobs, pr.to)
			releaseJobs(pr.jobs)
			if err != nil {
				return err
			}
			last = pr.to
		}
		err := parts.flush()
		fig.PartSets += parts.sets
		if err != nil {
			return err
		}
		inserted := time.Now()
		defer func() { fig.StepTail += time.Since(inserted) }()
		if err := stepper.Stop(); err != nil {
			return err
		}
		stepper.Advance(first, last)
		return stepper.CatchUp(ctx)
	}()
	if err != nil {
		cancel()
		err = errors.Join(err, parts.abort())
		for pr := range ready {
			releaseJobs(pr.jobs)
		}
		<-genErr
		if serr := stepper.Stop(); serr != nil && !errors.Is(err, serr) {
			err = errors.Join(err, serr)
		}
		return err
	}
	// The stepper has stopped: the loop above ended with it.
	return <-genErr
}

// countedStep counts the ranges it is applied to, from the one goroutine
// applying them.
type countedStep struct {
	ingest.StateStep
	n *int
}

func (c countedStep) Apply(ctx context.Context, s arrowstore.Writer, from, to uint64) error {
	*c.n++
	return c.StateStep.Apply(ctx, s, from, to)
}

func releaseJobs(jobs []insertJob) {
	for _, j := range jobs {
		j.rec.Release()
	}
}

// storedRows counts the rows in the active parts of the compressed
// tables (every row the ingest wrote, decoded or derived, until merges
// fold replaced versions) and how many of the tables hold any.
func storedRows(ctx context.Context, s arrowstore.Store) (rows int64, tables int, err error) {
	res, err := s.Query(ctx, `SELECT toUInt64(sum(rows)), toUInt64(uniqExactIf(table, rows > 0)) FROM system.parts
		WHERE active AND database = currentDatabase() AND table IN {t:Array(String)}`,
		store.Params{"t": chArray(daschTables())})
	if err != nil {
		return 0, 0, fmt.Errorf("count stored rows: %w", err)
	}
	return int64(res.Rows[0][0].(uint64)), int(res.Rows[0][1].(uint64)), nil
}

// decodeChunk runs the decoder over a chunk's events and returns its
// records, one per table written.
func decodeChunk(dec *compressedstate.Decoder, builders map[string]arrowbatch.Builder, names []string, evs []light.Events) ([]insertJob, error) {
	var batch decode.Batch
	for i := range evs {
		dec.DecodeEvents(&evs[i], 0, &batch)
	}
	for _, r := range batch.Rows() {
		if err := builders[r.Table()].Append(r); err != nil {
			return nil, err
		}
	}
	var jobs []insertJob
	for _, n := range names {
		if b := builders[n]; b.Len() > 0 {
			jobs = append(jobs, insertJob{n, b.NewRecord()})
		}
	}
	return jobs, nil
}
