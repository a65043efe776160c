package conformance

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/api/methods"
	"github.com/dasch-labs/dasch/api/photon"
	"github.com/dasch-labs/dasch/checkpoint"
	"github.com/dasch-labs/dasch/server/jsonrpc"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// Indexer loads a case's fixtures into the store.
type Indexer interface {
	// SeedTrees loads the corpus's trees.json.
	SeedTrees(ctx context.Context, s arrowstore.Store, trees io.Reader) error
	// Index ingests the fixture files in order; when forceSlot is set every
	// transaction is indexed as if it were in that slot.
	Index(ctx context.Context, s arrowstore.Store, files []string, forceSlot *uint64) error
}

// Options configure a run.
type Options struct {
	// Dir is the corpus: cases/, trees.json, transactions/, blocks/.
	Dir string
	// Store is a migrated store the run may empty at will.
	Store   arrowstore.Store
	Indexer Indexer
	// Deviations maps case names to the reason dasch differs (docs/compat.md).
	Deviations map[string]string
	// Out receives one line per case and the summary line.
	Out io.Writer
	// Logger receives the server's own logs. Default: discarded.
	Logger *slog.Logger
	// SplitRuns also indexes every order one transaction per pipeline run,
	// as upstream does, which checks that re-indexing and state derivation
	// are independent of batching (and takes several times longer).
	SplitRuns bool
	// Hot serves holders, balances and token accounts from the in-memory
	// indexes `dasch serve` uses by default, loaded after each variant is
	// indexed, instead of from the store.
	Hot bool
	// Prover proves validity proofs; nil uses a stand-in that checks the
	// prover's request can be built and answers a fixed proof (the cases
	// blank compressedProof).
	Prover photon.Prover
}

// Summary counts the outcomes of a run.
type Summary struct {
	Passed, Failed, Skipped, Deviations int
}

func (s Summary) String() string {
	return fmt.Sprintf("%d passed, %d failed, %d skipped, %d deviations", s.Passed, s.Failed, s.Skipped, s.Deviations)
}

// Run replays every case of o.Dir and writes the report to o.Out. The error
// is for a run that could not be carried out, not for failed cases.
func Run(ctx context.Context, o Options) (Summary, error) {
	var sum Summary
	if o.Store == nil || o.Indexer == nil || o.Out == nil {
		return sum, errors.New("conformance: Store, Indexer and Out are required")
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	cases, err := LoadCases(o.Dir)
	if err != nil {
		return sum, err
	}
	trees, err := os.ReadFile(filepath.Join(o.Dir, "trees.json"))
	if err != nil {
		return sum, fmt.Errorf("read trees: %w", err)
	}
	var hot *hotIndexes
	if o.Hot {
		hot = &hotIndexes{}
	}
	if o.Prover == nil {
		o.Prover = standInProver{}
	}
	mo := methods.Options{Methods: methods.Indexer | methods.Photon, Store: o.Store, Slots: checkpoint.NewSlotCache(o.Store, 0), Logger: o.Logger,
		Prover: o.Prover}
	if hot != nil {
		mo.Hot, mo.HotTokens = hot, hot
	}
	h, err := startHarness(ctx, o.Store, o.Logger, mo)
	if err != nil {
		return sum, err
	}
	defer h.stop()

	r := &runner{o: o, trees: trees, reg: h.reg, cl: h.cl, hot: hot}
	if err := r.runAll(ctx, cases, &sum); err != nil {
		return sum, err
	}
	fmt.Fprintln(o.Out, sum.String())
	return sum, nil
}

type outcomeKind int

const (
	fail outcomeKind = iota
	pass
	skip
	deviation
)

type outcome struct {
	kind outcomeKind
	msg  string
}

type runner struct {
	o     Options
	trees []byte
	reg   *jsonrpc.Registry
	cl    *client
	hot   *hotIndexes // nil: pages come from the store
}

// variant is one way of indexing a case's fixtures: the files in order,
// in one pipeline run or one per file. key names what the indexed store
// depends on, so cases whose variants share a key share one indexing.
type variant struct {
	name  string // as reported: which order, how run
	key   string
	files []string
	force *uint64 // index every transaction as if in this slot
	dummy bool    // start from Photon's empty block at slot 0
	split bool
}

// caseRun is a case's variants and what each answered, in the case's
// order: the first difference is the one reported.
type caseRun struct {
	c        *Case
	variants []variant
	msgs     []string
	errs     []error
	left     int // variants not checked yet
	skipped  *outcome
}

// runAll plays every case and records the outcomes in case order. Each
// distinct variant is indexed once and every case using it is checked
// against it: the corpus's cases share few distinct variants, so a run
// indexes about a tenth as often as indexing per case did
// (docs/performance.md, Server).
func (r *runner) runAll(ctx context.Context, cases []*Case, sum *Summary) error {
	runs := make([]*caseRun, len(cases))
	byKey := map[string][]int{} // variant key -> indexes of the runs using it
	var keys []string           // in first use
	for i, c := range cases {
		cr := &caseRun{c: c}
		runs[i] = cr
		if _, ok := r.reg.Lookup(c.Request.Method); !ok {
			cr.skipped = &outcome{skip, "method " + c.Request.Method + " is not implemented"}
			continue
		}
		vs, err := r.variants(c)
		if err != nil {
			cr.skipped = &outcome{fail, err.Error()}
			continue
		}
		cr.variants, cr.msgs, cr.errs, cr.left = vs, make([]string, len(vs)), make([]error, len(vs)), len(vs)
		for _, v := range vs {
			if _, seen := byKey[v.key]; !seen {
				keys = append(keys, v.key)
			}
			if l := byKey[v.key]; len(l) == 0 || l[len(l)-1] != i {
				byKey[v.key] = append(l, i)
			}
		}
	}
	next := 0 // the first case not reported yet
	report := func() {
		for ; next < len(runs) && (runs[next].skipped != nil || runs[next].left == 0); next++ {
			sum.record(r.o.Out, runs[next].c.Name, r.outcome(runs[next]))
		}
	}
	report()
	for _, key := range keys {
		if err := ctx.Err(); err != nil {
			return err
		}
		var indexed *variant
		var ierr error
		for _, i := range byKey[key] {
			cr := runs[i]
			for j := range cr.variants {
				if cr.variants[j].key != key {
					continue
				}
				if indexed == nil {
					indexed = &cr.variants[j]
					ierr = r.index(ctx, indexed)
				}
				if ierr != nil {
					cr.errs[j] = ierr
				} else {
					cr.msgs[j], cr.errs[j] = r.check(ctx, cr.c)
				}
				cr.left--
			}
		}
		report()
	}
	return nil
}

// outcome decides a checked case by its variants in the case's order.
func (r *runner) outcome(cr *caseRun) outcome {
	if cr.skipped != nil {
		return *cr.skipped
	}
	reason, listed := r.o.Deviations[cr.c.Name]
	return decide(len(cr.variants), func(j int) (string, string, error) {
		return cr.variants[j].name, cr.msgs[j], cr.errs[j]
	}, reason, listed, "listed in docs/compat.md but answers as Photon does: remove it from the list")
}

// decide is a case's outcome from its n variants, taken in order until
// one failed to run (err) or answered differently (msg, prefixed with the
// variant's name when it has one): a listed case's difference is its
// documented deviation, and a listed case with none fails with stale.
func decide(n int, at func(i int) (name, msg string, err error), reason string, listed bool, stale string) outcome {
	for i := 0; i < n; i++ {
		name, msg, err := at(i)
		if err != nil {
			return outcome{fail, err.Error()}
		}
		if msg == "" {
			continue
		}
		if name != "" {
			msg = name + ": " + msg
		}
		if listed {
			return outcome{deviation, reason}
		}
		return outcome{fail, msg}
	}
	if listed {
		return outcome{fail, stale}
	}
	return outcome{kind: pass}
}

// variants lists the ways to index c: as upstream does, each order in one
// pipeline run and again in one run per transaction; both must give the
// same answer.
func (r *runner) variants(c *Case) ([]variant, error) {
	orders := c.orders()
	var out []variant
	for i, order := range orders {
		for _, split := range []bool{false, true} {
			if split && (!r.o.SplitRuns || len(c.FixtureBlocks) > 0 || len(order) < 2) {
				continue
			}
			v := variant{split: split, dummy: c.DummyBlockSlot != nil && *c.DummyBlockSlot == 0}
			if len(orders) > 1 || split {
				v.name = variantName(i, len(orders), split)
			}
			if len(c.FixtureBlocks) > 0 {
				for _, b := range c.FixtureBlocks {
					v.files = append(v.files, filepath.Join(r.o.Dir, b))
				}
			} else if len(order) > 0 {
				if len(c.FixtureSets) == 0 {
					return nil, errors.New("index_order without fixture_sets")
				}
				for _, sig := range order {
					v.files = append(v.files, filepath.Join(r.o.Dir, c.FixtureSets[0], sig+".json"))
				}
				v.force = c.IndexAsSlot
			}
			force := "-"
			if v.force != nil {
				force = strconv.FormatUint(*v.force, 10)
			}
			v.key = fmt.Sprintf("%s|%s|%t|%t", strings.Join(v.files, ","), force, v.dummy, v.split)
			out = append(out, v)
		}
	}
	return out, nil
}

func variantName(i, n int, split bool) string {
	how := "one run"
	if split {
		how = "one run per transaction"
	}
	return fmt.Sprintf("index order %d of %d, %s", i+1, n, how)
}

// index indexes one variant into an emptied store, and loads the in-memory
// indexes from it when the run serves from them.
func (r *runner) index(ctx context.Context, v *variant) error {
	s := r.o.Store
	if err := reset(ctx, s); err != nil {
		return err
	}
	if err := r.o.Indexer.SeedTrees(ctx, s, bytes.NewReader(r.trees)); err != nil {
		return fmt.Errorf("seed trees: %w", err)
	}
	if v.dummy {
		if err := dummyBlock(ctx, s); err != nil {
			return err
		}
	}
	for _, f := range v.files {
		// The pipeline turns an unreadable file into a dead letter; a
		// missing fixture is a broken corpus, not a case result.
		if _, err := os.Stat(f); err != nil {
			return fmt.Errorf("fixture: %w", err)
		}
	}
	runs := [][]string{v.files}
	if v.split {
		runs = runs[:0]
		for _, f := range v.files {
			runs = append(runs, []string{f})
		}
	}
	for _, run := range runs {
		if len(run) == 0 {
			continue
		}
		if err := r.o.Indexer.Index(ctx, s, run, v.force); err != nil {
			return fmt.Errorf("index: %w", err)
		}
	}
	if r.hot != nil {
		if err := r.hot.load(ctx, s); err != nil {
			return err
		}
	}
	return nil
}

// check sends the request (following cursors when the case pages) and
// compares the answer.
func (r *runner) check(ctx context.Context, c *Case) (string, error) {
	if c.Pagination != nil {
		return r.checkPages(ctx, c)
	}
	res, rerr, err := r.cl.call(ctx, c.Request.Method, c.Request.Params)
	if err != nil {
		return "", err
	}
	if c.ExpectedError != nil {
		return checkError(rerr, c.ExpectedError), nil
	}
	if rerr != nil {
		return fmt.Sprintf("error %d %q, want a result", rerr.Code, rerr.Message), nil
	}
	return compare(res, c.ExpectedResult, c.IgnorePaths)
}

// maxPages bounds a paged case, so a cursor that never ends fails the case
// instead of hanging the run.
const maxPages = 1000

func (r *runner) checkPages(ctx context.Context, c *Case) (string, error) {
	if !c.hasParamsObject() {
		return "", errors.New("pagination needs object params")
	}
	var params map[string]json.RawMessage
	if err := json.Unmarshal(c.Request.Params, &params); err != nil {
		return "", fmt.Errorf("request params: %w", err)
	}
	all := []any{}
	for page := 0; ; page++ {
		if page == maxPages {
			return fmt.Sprintf("cursor still not null after %d pages", maxPages), nil
		}
		p, err := json.Marshal(params)
		if err != nil {
			return "", err
		}
		res, rerr, err := r.cl.call(ctx, c.Request.Method, p)
		if err != nil {
			return "", err
		}
		if rerr != nil {
			return fmt.Sprintf("page %d: error %d %q", page+1, rerr.Code, rerr.Message), nil
		}
		v, err := decodeValue(res)
		if err != nil {
			return "", fmt.Errorf("page %d: %w", page+1, err)
		}
		items, ok := lookup(v, c.Pagination.ItemsFrom).([]any)
		if !ok {
			return fmt.Sprintf("page %d: %s is not a list", page+1, c.Pagination.ItemsFrom), nil
		}
		all = append(all, items...)
		cursor := lookup(v, c.Pagination.CursorFrom)
		if cursor == nil {
			break
		}
		cs, ok := cursor.(string)
		if !ok {
			return fmt.Sprintf("page %d: cursor %s is not a string", page+1, render(cursor)), nil
		}
		params[c.Pagination.CursorParam], _ = json.Marshal(cs)
	}
	got, err := json.Marshal(all)
	if err != nil {
		return "", err
	}
	return compare(got, c.ExpectedResult, c.IgnorePaths)
}

func compare(got, want json.RawMessage, ignore []string) (string, error) {
	g, err := decodeValue(got)
	if err != nil {
		return "", fmt.Errorf("answer: %w", err)
	}
	w, err := decodeValue(want)
	if err != nil {
		return "", fmt.Errorf("expected result: %w", err)
	}
	for _, p := range ignore {
		dropPath(g, p)
		dropPath(w, p)
	}
	return diff("", g, w), nil
}

func checkError(got *rpcError, want *ExpectedError) string {
	if got == nil {
		return fmt.Sprintf("a result, want error %d %q", want.Code, want.Message)
	}
	ok := got.Message == want.Message
	if want.MessageMatch == "contains" {
		ok = strings.Contains(got.Message, want.Message)
	}
	if got.Code != want.Code || !ok {
		return fmt.Sprintf("error %d %q, want %d %q (%s)", got.Code, got.Message, want.Code, want.Message, want.MessageMatch)
	}
	return ""
}
