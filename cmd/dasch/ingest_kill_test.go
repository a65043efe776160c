package main_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/chain/token"
	"github.com/dasch-labs/dasch/ingest/source/geyser/geysertest"
	"github.com/dasch-labs/dasch/internal/syncbuf"
	"github.com/dasch-labs/dasch/schema"
)

// killStream is DAS account fixtures (token, metadata, editions, Core),
// Bubblegum and compressed-token transactions, and token accounts written
// in every slot, as one Geyser stream; a slot goes out every 40 ms, so a
// run takes a few seconds and a kill lands anywhere in it.
func killStream(t *testing.T) (*geysertest.Server, uint64, uint64) {
	t.Helper()
	const corpus = "../../../shared/corpus"
	var files []string
	for _, pattern := range []string{
		"das/accounts/mpl_core_get_asset*/*.json", "das/accounts/get_nft_editions/*.json",
		"das/accounts/token_extensions_get_asset_scenario_1/*.json",
		"das/transactions/mint_transfer_burn/*.json", "photon/transactions/e2e_mint_and_transfer_transactions/*.json",
	} {
		m, err := filepath.Glob(filepath.Join(corpus, pattern))
		if err != nil || len(m) == 0 {
			t.Fatalf("%s: %v", pattern, err)
		}
		files = append(files, m...)
	}
	// One write per account, slot and write version, as a real stream.
	type write struct {
		key      solana.Pubkey
		slot, wv uint64
	}
	seen := map[write]bool{}
	var keep []string
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if a, err := solana.ParseAccount(raw); err == nil {
			w := write{a.Pubkey, a.Slot, a.WriteVersion}
			if seen[w] {
				continue
			}
			seen[w] = true
		}
		keep = append(keep, f)
	}
	slots, err := geysertest.Slots(keep)
	if err != nil {
		t.Fatal(err)
	}
	for i := range slots {
		for a := range uint64(4) {
			slots[i].Accounts = append(slots[i].Accounts, geysertest.AccountWrite(geysertest.Key("kill", a), token.TokenProgram(),
				slots[i].Slot, 1000+a, fmt.Appendf(nil, "slot %d account %d", slots[i].Slot, a)))
		}
	}
	pace := func(ctx context.Context, _ uint64) error {
		select {
		case <-time.After(40 * time.Millisecond):
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	srv := geysertest.Start(t, geysertest.Script{Slots: slots, FinalizeLag: 2, Pace: pace})
	return srv, slots[0].Slot, slots[len(slots)-1].Slot
}

// Killed (SIGKILL) ten times at random points while following a Geyser
// stream, and started again each time as an operator would (on after the
// indexed slot, or from the first slot while nothing is indexed), dasch
// ingest leaves every table as one run that was never killed, as FINAL
// reads see them.
func TestIngestGRPCKilled(t *testing.T) {
	srv, first, last := killStream(t)
	args := func(storeURL string) []string {
		return []string{"ingest", "--store", storeURL, "--source", "grpc:" + srv.URL, "--to", fmt.Sprint(last),
			"--batch-age", "10ms", "--part-age", "10ms"}
	}
	whole := "embedded:" + filepath.Join(t.TempDir(), "whole")
	mustDasch(t, append(args(whole), "--from", fmt.Sprint(first))...)
	total := srv.Sent()
	want := tableDigest(t, whole)
	if !strings.Contains(want, "asset_state\t") || !strings.Contains(want, "compressed_accounts\t") {
		t.Fatalf("the whole run left no assets or compressed state:\n%s", want)
	}

	cut := "embedded:" + filepath.Join(t.TempDir(), "cut")
	// As an operator would: from the first slot while nothing is indexed
	// (a live start would begin at the stream's first whole slot), then
	// on after the indexed slot.
	resumed := 0
	restart := func(i int) []string {
		a := args(cut)
		if i == 0 || indexedSlotOf(t, cut) == 0 {
			return append(a, "--from", fmt.Sprint(first))
		}
		resumed++
		return a
	}
	rng := rand.New(rand.NewPCG(45, 10))
	killed := 0
	for i := range 10 {
		a := append(restart(i), "--progress-every", "10ms")
		cmd := exec.Command(bin, a...)
		var out syncbuf.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done, exited := make(chan error, 1), make(chan struct{})
		go func() { done <- cmd.Wait(); close(exited) }()
		// Where the kill lands, by turns: while the run starts; once the
		// stream has sent it a random share of what is left; just after
		// it wrote a checkpoint (the progress line's indexed slot moved),
		// in the next step or insert. Each a random few milliseconds on.
		var ready func() bool
		switch i % 3 {
		case 0:
			ready = func() bool { return true }
		case 1:
			target := srv.Sent() + 1 + rng.IntN(max(1, total/3))
			ready = func() bool { return srv.Sent() >= target }
		default:
			ready = func() bool {
				o := out.String()
				j := strings.LastIndex(o, "indexed slot ")
				return j >= 0 && !strings.HasPrefix(o[j:], "indexed slot 0\n")
			}
		}
		delay := time.Duration(rng.IntN(50)) * time.Millisecond
		killAt := make(chan struct{})
		go func() {
			defer close(killAt)
			for !ready() {
				select {
				case <-exited:
					return
				case <-time.After(time.Millisecond):
				}
			}
			time.Sleep(delay)
		}()
		<-killAt
		_ = cmd.Process.Kill()
		switch err := <-done; {
		case err == nil:
			// It had ended: nothing was left to kill it in.
		case strings.Contains(err.Error(), "killed"):
			killed++
		default:
			t.Fatalf("run %d: %v\n%s", i, err, out.String())
		}
	}
	if killed < 5 || resumed < 2 {
		t.Fatalf("%d of 10 runs were killed before they ended, %d resumed after a checkpoint: want 5 and 2", killed, resumed)
	}
	mustDasch(t, restart(10)...)
	if got := tableDigest(t, cut); got != want {
		wantLines := strings.Split(want, "\n")
		for _, l := range strings.Split(got, "\n") {
			if slices.Contains(wantLines, l) {
				continue
			}
			table := strings.Trim(strings.Split(l, "\t")[0], "'")
			dump := func(storeURL string) string {
				return mustDasch(t, "sql", "--store", storeURL, "--format", "tsv", "SELECT * FROM `"+table+"` FINAL ORDER BY ALL")
			}
			t.Errorf("after %d kills, %s differs:\n got:\n%s\nwant:\n%s", killed, table, dump(cut), dump(whole))
		}
		t.FailNow()
	}
}

// indexedSlotOf is the store's checkpoint, 0 when nothing is indexed
// (or a run was killed before it made the tables).
func indexedSlotOf(t *testing.T, storeURL string) uint64 {
	t.Helper()
	out, errOut, err := dasch(t, "sql", "--store", storeURL, "--format", "tsv", "SELECT max(slot) FROM indexer_checkpoints")
	if err != nil {
		if !strings.Contains(errOut, "indexer_checkpoints") {
			t.Fatalf("indexed slot: %v %s", err, errOut)
		}
		return 0
	}
	out = strings.TrimSpace(out)
	lines := strings.Split(out, "\n")
	var slot uint64
	if _, err := fmt.Sscan(lines[len(lines)-1], &slot); err != nil {
		t.Fatalf("indexed slot %q: %v", out, err)
	}
	return slot
}

// clockColumns are columns that two runs of the same data do not share:
// the versions the state steps take from the clock, and an inner tree
// node's slot, which is the end of the step range that derived it.
var clockColumns = map[string]bool{
	"token_balances.version": true, "mint_holders.version": true, "token_ledger_applied.applied": true,
	"asset_state.version": true, "asset_keys.version": true, "asset_editions.version": true, "state_tree_nodes.slot": true,
}

// tableDigest is each stored table's row count and content hash, as FINAL
// reads see it, without clock columns, date-times, the keys and the
// steps' own records.
func tableDigest(t *testing.T, storeURL string) string {
	t.Helper()
	cols := mustDasch(t, "sql", "--store", storeURL, "--format", "tsv", `SELECT c.table, any(tb.engine), groupArray(c.name)
		FROM system.columns AS c JOIN system.tables AS tb ON tb.database = c.database AND tb.name = c.table
		WHERE c.database = currentDatabase() AND tb.engine NOT IN ('View', 'MaterializedView', 'Memory')
			AND c.table NOT IN ('`+strings.Join([]string{schema.TableMigrations, schema.TableKeys, schema.TableProjects, schema.TableStepVersions}, "', '")+`') AND c.type NOT LIKE 'DateTime%'
		GROUP BY c.table ORDER BY c.table`)
	var parts []string
	lines := strings.Split(strings.TrimSpace(cols), "\n")
	for _, line := range lines[1:] { // after the header
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			t.Fatalf("columns line %q", line)
		}
		table, engine := f[0], f[1]
		var names []string
		for _, c := range strings.Split(strings.Trim(f[2], "[]"), ",") {
			c = strings.Trim(c, "'")
			if !clockColumns[table+"."+c] {
				names = append(names, "`"+c+"`")
			}
		}
		final := ""
		if strings.Contains(engine, "Replacing") {
			final = " FINAL"
		}
		parts = append(parts, fmt.Sprintf("SELECT '%s', count(), sum(cityHash64(toString(tuple(%s)))) FROM `%s`%s", table, strings.Join(names, ", "), table, final))
	}
	return mustDasch(t, "sql", "--store", storeURL, "--format", "tsv", "SELECT * FROM ("+strings.Join(parts, " UNION ALL ")+") ORDER BY 1")
}
