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
	"strings"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/api"
	"github.com/dasch-labs/dasch/api/photon"
	"github.com/dasch-labs/dasch/query"
	qc "github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/server"
	"github.com/dasch-labs/dasch/store"
)

// Indexer loads a case's fixtures into the store.
type Indexer interface {
	// SeedTrees loads the corpus's trees.json.
	SeedTrees(ctx context.Context, s store.Store, trees io.Reader) error
	// Index ingests the fixture files in order; when forceSlot is set every
	// transaction is indexed as if it were in that slot.
	Index(ctx context.Context, s store.Store, files []string, forceSlot *uint64) error
}

// Options configure a run.
type Options struct {
	// Dir is the corpus: cases/, trees.json, transactions/, blocks/.
	Dir string
	// Store is a migrated store the run may empty at will.
	Store   store.Store
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
	h, err := startHarness(ctx, o.Store, o.Logger, func(reg *server.Registry) {
		api.Register(reg, api.Deps{Slots: query.NewSlotCache(o.Store, 0)})
		pd := photon.Deps{Store: o.Store, Slots: qc.NewSlotCache(o.Store, 0), Logger: o.Logger}
		if hot != nil {
			pd.Hot, pd.HotTokens = hot, hot
		}
		photon.Register(reg, pd)
	})
	if err != nil {
		return sum, err
	}
	defer h.stop()

	r := &runner{o: o, trees: trees, reg: h.reg, cl: h.cl, hot: hot}
	for _, c := range cases {
		if err := ctx.Err(); err != nil {
			return sum, err
		}
		sum.record(o.Out, c.Name, r.run(ctx, c))
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
	reg   *server.Registry
	cl    *client
	hot   *hotIndexes // nil: pages come from the store
}

// run plays one case: every index order must give the expected answer.
func (r *runner) run(ctx context.Context, c *Case) outcome {
	if _, ok := r.reg.Lookup(c.Request.Method); !ok {
		return outcome{skip, "method " + c.Request.Method + " is not implemented"}
	}
	reason, listed := r.o.Deviations[c.Name]
	orders := c.orders()
	for i, order := range orders {
		// As upstream does, each order is indexed in one pipeline run and
		// again one run per transaction; both must give the same answer.
		for _, split := range []bool{false, true} {
			if split && (!r.o.SplitRuns || len(c.FixtureBlocks) > 0 || len(order) < 2) {
				continue
			}
			msg, err := r.variant(ctx, c, order, split)
			if err != nil {
				return outcome{fail, err.Error()}
			}
			if msg == "" {
				continue
			}
			if len(orders) > 1 || split {
				msg = fmt.Sprintf("%s: %s", variantName(i, len(orders), split), msg)
			}
			if listed {
				return outcome{deviation, reason}
			}
			return outcome{fail, msg}
		}
	}
	if listed {
		return outcome{fail, "listed in docs/compat.md but answers as Photon does: remove it from the list"}
	}
	return outcome{kind: pass}
}

func variantName(i, n int, split bool) string {
	how := "one run"
	if split {
		how = "one run per transaction"
	}
	return fmt.Sprintf("index order %d of %d, %s", i+1, n, how)
}

// variant indexes one order into an emptied store, in one pipeline run or
// one per file, and checks the answer; it returns the first difference, or "".
func (r *runner) variant(ctx context.Context, c *Case, order []string, split bool) (string, error) {
	s := r.o.Store
	if err := reset(ctx, s); err != nil {
		return "", err
	}
	if err := r.o.Indexer.SeedTrees(ctx, s, bytes.NewReader(r.trees)); err != nil {
		return "", fmt.Errorf("seed trees: %w", err)
	}
	if c.DummyBlockSlot != nil && *c.DummyBlockSlot == 0 {
		if err := dummyBlock(ctx, s); err != nil {
			return "", err
		}
	}
	var files []string
	var force *uint64
	if len(c.FixtureBlocks) > 0 {
		for _, b := range c.FixtureBlocks {
			files = append(files, filepath.Join(r.o.Dir, b))
		}
	} else if len(order) > 0 {
		if len(c.FixtureSets) == 0 {
			return "", errors.New("index_order without fixture_sets")
		}
		for _, sig := range order {
			files = append(files, filepath.Join(r.o.Dir, c.FixtureSets[0], sig+".json"))
		}
		force = c.IndexAsSlot
	}
	for _, f := range files {
		// The pipeline turns an unreadable file into a dead letter; a
		// missing fixture is a broken corpus, not a case result.
		if _, err := os.Stat(f); err != nil {
			return "", fmt.Errorf("fixture: %w", err)
		}
	}
	runs := [][]string{files}
	if split {
		runs = runs[:0]
		for _, f := range files {
			runs = append(runs, []string{f})
		}
	}
	for _, run := range runs {
		if len(run) == 0 {
			continue
		}
		if err := r.o.Indexer.Index(ctx, s, run, force); err != nil {
			return "", fmt.Errorf("index: %w", err)
		}
	}
	if r.hot != nil {
		if err := r.hot.load(ctx, s); err != nil {
			return "", err
		}
	}
	return r.check(ctx, c)
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
