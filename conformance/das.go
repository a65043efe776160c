package conformance

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/api/methods"
	"github.com/dasch-labs/dasch/checkpoint"
	"github.com/dasch-labs/dasch/query/assetcache"
	"github.com/dasch-labs/dasch/server/jsonrpc"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// DASCase is one case file of the DAS corpus (its README, section 4.4).
type DASCase struct {
	Name         string          `json:"name"`
	Seed         DASSeed         `json:"seed"`
	OrderMatters bool            `json:"order_matters"`
	Request      Request         `json:"request"`
	Expected     json.RawMessage `json:"expected_result"`
	ExpectedErr  *struct {
		Code    int    `json:"jsonrpc_code"`
		Message string `json:"message_likely"`
	} `json:"expected_error"`
}

// DASSeed says what to index: events (the permutable units) and apply
// (the exact order the reference used).
type DASSeed struct {
	Events []DASEvent          `json:"events"`
	Apply  []map[string]string `json:"apply"`
}

// DASEvent is one seed event: an account, an NFT (mint, metadata and token
// account, always together and in that order) or a transaction.
type DASEvent struct {
	Kind         string   `json:"kind"`
	Accounts     []string `json:"accounts"`
	Transactions []string `json:"transactions"`
}

func (e DASEvent) files() []string {
	return append(append([]string{}, e.Accounts...), e.Transactions...)
}

// LoadDASCases reads DIR/cases/*.json, sorted by name.
func LoadDASCases(dir string) ([]*DASCase, error) {
	files, err := filepath.Glob(filepath.Join(dir, "cases", "*.json"))
	if err != nil {
		return nil, fmt.Errorf("list cases: %w", err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no cases in %s", filepath.Join(dir, "cases"))
	}
	sort.Strings(files)
	out := make([]*DASCase, 0, len(files))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("read case: %w", err)
		}
		var c DASCase
		if err := json.Unmarshal(b, &c); err != nil {
			return nil, fmt.Errorf("case %s: %w", f, err)
		}
		if c.Name == "" {
			c.Name = strings.TrimSuffix(filepath.Base(f), ".json")
		}
		if c.Request.Method == "" {
			return nil, fmt.Errorf("case %s: no request method", f)
		}
		out = append(out, &c)
	}
	return out, nil
}

// orders lists the file orders to index: the reference's own order first,
// then, when order must not matter, every permutation of the seed events.
func (c *DASCase) orders() [][]string {
	var first []string
	for _, a := range c.Seed.Apply {
		for _, k := range []string{"account", "transaction"} {
			if p, ok := a[k]; ok {
				first = append(first, p)
			}
		}
	}
	out := [][]string{first}
	if c.OrderMatters || len(c.Seed.Events) < 2 {
		return out
	}
	idx := make([]int, len(c.Seed.Events))
	for i := range idx {
		idx[i] = i
	}
	permute(idx, 0, func(p []int) {
		var files []string
		for _, i := range p {
			files = append(files, c.Seed.Events[i].files()...)
		}
		out = append(out, files)
	})
	return out
}

// permute calls fn with every permutation of p[k:] (Heap's order is not
// needed; plain recursive swapping visits each exactly once).
func permute(p []int, k int, fn func([]int)) {
	if k == len(p) {
		fn(p)
		return
	}
	for i := k; i < len(p); i++ {
		p[k], p[i] = p[i], p[k]
		permute(p, k+1, fn)
		p[k], p[i] = p[i], p[k]
	}
}

// params returns the request params. A getAsset case whose id the
// reference computed at run time (from the minted leaf) records it as null;
// the id is then the expected asset's, so the server must still produce
// the asset at exactly that id.
func (c *DASCase) params() (json.RawMessage, error) {
	var p map[string]json.RawMessage
	if c.Request.Method != "getAsset" || json.Unmarshal(c.Request.Params, &p) != nil || string(p["id"]) != "null" {
		return c.Request.Params, nil
	}
	var want struct {
		ID json.RawMessage `json:"id"`
	}
	if err := json.Unmarshal(c.Expected, &want); err != nil || want.ID == nil {
		return nil, fmt.Errorf("case %s: null id and no expected id", c.Name)
	}
	p["id"] = want.ID
	return json.Marshal(p)
}

// dasAdditions are members dasch adds to every asset that the reference
// does not emit, documented in docs/das-compat.md; they are removed from
// the answer before it is compared.
var dasAdditions = []string{"last_indexed_slot", "asset_signer"}

// dasListAdditions are the members dasch adds to every list answer.
var dasListAdditions = []string{"last_indexed_slot"}

// dasEditionAdditions are the members of a getNftEditions item in
// Helius's spelling, which dasch adds beside the reference's.
var dasEditionAdditions = []string{"mint", "edition"}

// fieldDeviation is a member where dasch answers differently from the
// reference on purpose (docs/das-compat.md): undo rewrites an asset of the
// answer back to the reference's value and reports whether it did, so the
// rest of the case is still compared. A case that needed one is a
// deviation, never a pass.
type fieldDeviation struct {
	reason string
	undo   func(asset map[string]any) bool
}

var fieldDeviations = []fieldDeviation{{
	reason: "interface MplBubblegumV2 for a Bubblegum V2 leaf, as the specification lists and Helius answers (the reference: V1_NFT)",
	undo: func(a map[string]any) bool {
		if a["interface"] != "MplBubblegumV2" {
			return false
		}
		a["interface"] = "V1_NFT"
		return true
	},
}}

// DASOptions configure a DAS run.
type DASOptions struct {
	// Dir is the corpus: cases/, accounts/, transactions/, ...
	Dir string
	// Store is a migrated store the run may empty at will.
	Store   arrowstore.Store
	Indexer Indexer
	// Deviations maps case names to the reason dasch differs
	// (docs/das-compat.md).
	Deviations map[string]string
	Out        io.Writer
	Logger     *slog.Logger
	// Only runs the cases whose name contains this text, when set.
	Only string
	// Cache serves with the folded document cache (dasch serve's
	// default), cleared with the store: each case is then asked twice,
	// the first answer read from the store and the second from the cache,
	// and both must be the expected one.
	Cache bool
	// FirstOrder indexes each case in the reference's own order only:
	// the permutations test the fold, which one engine run covers.
	FirstOrder bool
}

// RunDAS replays every case of o.Dir and writes one line per case and the
// summary. Cases of methods dasch does not serve yet are skipped. The error
// is for a run that could not be carried out, not for failed cases.
func RunDAS(ctx context.Context, o DASOptions) (Summary, error) {
	var sum Summary
	if o.Store == nil || o.Indexer == nil || o.Out == nil {
		return sum, errors.New("conformance: Store, Indexer and Out are required")
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	cases, err := LoadDASCases(o.Dir)
	if err != nil {
		return sum, err
	}
	mo := methods.Options{Methods: methods.Indexer | methods.DAS,
		Store: o.Store, Slots: checkpoint.NewSlotCache(o.Store, 0), Logger: o.Logger}
	if o.Cache {
		mo.AssetCache = assetcache.New(64 << 20)
	}
	h, err := startHarness(ctx, o.Store, o.Logger, mo)
	if err != nil {
		return sum, err
	}
	defer h.stop()
	r := &dasRunner{o: o, reg: h.reg, cl: h.cl, cache: mo.AssetCache}
	for _, c := range cases {
		if o.Only != "" && !strings.Contains(c.Name, o.Only) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return sum, err
		}
		sum.record(o.Out, c.Name, r.run(ctx, c))
	}
	fmt.Fprintln(o.Out, sum.String())
	return sum, nil
}

type dasRunner struct {
	o     DASOptions
	reg   *jsonrpc.Registry
	cl    *client
	cache *assetcache.Cache
}

// run plays one case: every order must give the expected answer.
func (r *dasRunner) run(ctx context.Context, c *DASCase) outcome {
	if _, ok := r.reg.Lookup(c.Request.Method); !ok {
		return outcome{skip, "method " + c.Request.Method + " is not served yet (a later issue)"}
	}
	reason, listed := r.o.Deviations[c.Name]
	orders := c.orders()
	if r.o.FirstOrder {
		orders = orders[:1]
	}
	applied := map[string]bool{}
	out := decide(len(orders), func(i int) (name, msg string, err error) {
		if len(orders) > 1 {
			name = fmt.Sprintf("order %d of %d", i+1, len(orders))
		}
		// One pipeline run per file: each write is committed before the
		// next arrives, in any slot order (a single run refuses slots
		// going backwards, as a live source never sends them).
		msg, err = r.variant(ctx, c, orders[i], true, applied)
		return name, msg, err
	}, reason, listed, "listed in docs/das-compat.md but answers as the reference does: remove it from the list")
	if out.kind == pass && len(applied) > 0 {
		reasons := slices.Sorted(maps.Keys(applied))
		return outcome{deviation, strings.Join(reasons, "; ")}
	}
	return out
}

// variant indexes files in order into an emptied store, one pipeline run
// per file when split (so each is committed before the next) or all in one
// run, and checks the answer.
func (r *dasRunner) variant(ctx context.Context, c *DASCase, files []string, split bool, applied map[string]bool) (string, error) {
	s := r.o.Store
	if err := reset(ctx, s); err != nil {
		return "", err
	}
	if r.cache != nil {
		r.cache.Clear()
	}
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = filepath.Join(r.o.Dir, f)
		if _, err := os.Stat(paths[i]); err != nil {
			return "", fmt.Errorf("fixture: %w", err)
		}
	}
	runs := [][]string{paths}
	if split {
		runs = runs[:0]
		for _, p := range paths {
			runs = append(runs, []string{p})
		}
	}
	for _, run := range runs {
		if err := r.o.Indexer.Index(ctx, s, run, nil); err != nil {
			return "", fmt.Errorf("index %v: %w", run, err)
		}
	}
	params, err := c.params()
	if err != nil {
		return "", err
	}
	asks := 1
	if r.cache != nil {
		asks = 2
	}
	for ask := 1; ask <= asks; ask++ {
		msg, err := r.check(ctx, c, params, applied)
		if msg != "" && ask == 2 {
			msg = "from the cache: " + msg
		}
		if msg != "" || err != nil {
			return msg, err
		}
	}
	return "", nil
}

// check asks the case's request once and compares the answer.
func (r *dasRunner) check(ctx context.Context, c *DASCase, params json.RawMessage, applied map[string]bool) (string, error) {
	res, rerr, err := r.cl.call(ctx, c.Request.Method, params)
	if err != nil {
		return "", err
	}
	if c.ExpectedErr != nil {
		if rerr == nil {
			return fmt.Sprintf("a result, want error %d %q", c.ExpectedErr.Code, c.ExpectedErr.Message), nil
		}
		if rerr.Code != c.ExpectedErr.Code || rerr.Message != c.ExpectedErr.Message {
			return fmt.Sprintf("error %d %q, want %d %q", rerr.Code, rerr.Message, c.ExpectedErr.Code, c.ExpectedErr.Message), nil
		}
		return "", nil
	}
	if rerr != nil {
		return fmt.Sprintf("error %d %q, want a result", rerr.Code, rerr.Message), nil
	}
	return compareAssets(res, c.Expected, applied)
}

// compareAssets compares an asset, or a list of assets, with the expected
// value after removing dasch's documented additions from the answer and
// undoing its field deviations, whose reasons it adds to applied.
func compareAssets(got, want json.RawMessage, applied map[string]bool) (string, error) {
	g, err := decodeValue(got)
	if err != nil {
		return "", fmt.Errorf("answer: %w", err)
	}
	w, err := decodeValue(want)
	if err != nil {
		return "", fmt.Errorf("expected result: %w", err)
	}
	strip := func(v any) {
		for _, p := range dasAdditions {
			dropPath(v, p)
		}
		if a, ok := v.(map[string]any); ok {
			for _, d := range fieldDeviations {
				if d.undo(a) {
					applied[d.reason] = true
				}
			}
		}
	}
	switch t := g.(type) {
	case []any: // getAssetBatch
		for _, v := range t {
			strip(v)
		}
	case map[string]any:
		items, isList := t["items"].([]any)
		if !isList {
			strip(t)
			// getNftEditions: each edition also in Helius's spelling.
			eds, _ := t["editions"].([]any)
			for _, e := range eds {
				if m, ok := e.(map[string]any); ok {
					for _, p := range dasEditionAdditions {
						delete(m, p)
					}
				}
			}
			break
		}
		// A list: its own additions, then each item's.
		for _, p := range dasListAdditions {
			delete(t, p)
		}
		for _, v := range items {
			strip(v)
		}
	}
	normalizePercent(g)
	normalizePercent(w)
	return diff("", g, w), nil
}

// normalizePercent rewrites every "percent" number (royalty.percent,
// computed in float64 as basis points × 0.0001) to 12 significant digits,
// so values equal as numbers compare equal whatever digits encoded them.
func normalizePercent(v any) {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			if n, ok := x.(json.Number); ok && k == "percent" {
				if f, err := n.Float64(); err == nil {
					t[k] = json.Number(strconv.FormatFloat(f, 'g', 12, 64))
				}
				continue
			}
			normalizePercent(x)
		}
	case []any:
		for _, x := range t {
			normalizePercent(x)
		}
	}
}
