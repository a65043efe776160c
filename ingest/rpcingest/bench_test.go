package rpcingest_test

import (
	"context"
	"encoding/binary"
	"flag"
	"os"
	"runtime"
	"testing"

	"github.com/dasch-labs/dasch/bench/benchjson"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/chain/token"
	"github.com/dasch-labs/dasch/ingest"
	"github.com/dasch-labs/dasch/ingest/decode"
	"github.com/dasch-labs/dasch/ingest/decoders"
	"github.com/dasch-labs/dasch/ingest/source"
	"github.com/dasch-labs/dasch/internal/rpcnode"
	"github.com/dasch-labs/dasch/internal/storetest"
)

var (
	benchAccounts = flag.Int("bootstrap-accounts", 200_000, "token accounts BenchmarkBootstrap lists")
	benchPartRows = flag.Int("bootstrap-part-rows", 0, "BenchmarkBootstrap's part rows (0: the pipeline's default)")
)

// tokenAccounts makes n SPL token accounts, 100 to a mint, each of its
// own owner, holding 1: the node makes them as it lists them, so its
// memory does not grow with n.
func tokenAccounts(n *rpcnode.Node, count int) {
	n.Generate(token.TokenProgram(), count, func(i int) (solana.Pubkey, rpcnode.Account) {
		var key, mint, owner solana.Pubkey
		binary.BigEndian.PutUint64(key[:], uint64(i)+1)
		key[31] = 1
		binary.BigEndian.PutUint64(mint[:], uint64(i/100)+1)
		mint[31] = 2
		binary.BigEndian.PutUint64(owner[:], uint64(i)+1)
		owner[31] = 3
		data := make([]byte, 165)
		copy(data, mint[:])
		copy(data[32:], owner[:])
		binary.LittleEndian.PutUint64(data[64:], 1)
		data[108] = 1 // initialized
		return key, rpcnode.Account{Owner: token.TokenProgram(), Lamports: 2_039_280, Data: data}
	})
}

// resetPeak starts the process's peak RSS (VmHWM) afresh.
func resetPeak(b *testing.B) {
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		b.Logf("peak RSS not reset (%v): it is the process's", err)
	}
}

// reportPeak reports the peak RSS and, of it, the most the Go heap took
// from the system (the rest is the embedded engine's).
func reportPeak(b *testing.B) {
	m, err := benchjson.SelfMemory()
	if err != nil {
		b.Fatal(err)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(m.HWMBytes)/(1<<20), "peak-MiB")
	b.ReportMetric(float64(ms.HeapSys)/(1<<20), "go-heap-MiB")
}

// BenchmarkBootstrap lists -bootstrap-accounts token accounts from a
// loopback node (getProgramAccountsV2, pages of 10,000, base64+zstd):
// "source" reads the listing alone (parsed, checked, handed on), "ingest"
// indexes it into the embedded store with the default decoders, the
// state step folding every mint. Reports accounts/s and the process's
// peak RSS, node and engine included: the engine holds each table's part
// until it commits (at -bootstrap-part-rows, default 2.5M rows), which
// bounds the peak, whatever the accounts. 10M accounts:
//
//	go test ./ingest/rpcingest -run '^$' -bench Bootstrap -benchtime 1x -timeout 2h -args -bootstrap-accounts 10000000
func BenchmarkBootstrap(b *testing.B) {
	count := *benchAccounts
	size := uint64(165)
	reads := []decode.AccountRead{{Owner: token.TokenProgram(), Filters: []decode.AccountFilter{{DataSize: &size}}}}
	n := rpcnode.New(map[uint64][]byte{100: []byte(`{"blockHeight":100,"blockTime":null,"blockhash":"1","parentSlot":99,"previousBlockhash":"1","transactions":[]}`)})
	defer n.Close()
	tokenAccounts(n, count)
	newSource := func(b *testing.B) *source.RPC {
		r, err := source.NewRPC(n.URL())
		if err != nil {
			b.Fatal(err)
		}
		if err := r.Configure(source.RPCOptions{To: 100, Bootstrap: true, Reads: reads, Owners: []solana.Pubkey{token.TokenProgram()}}); err != nil {
			b.Fatal(err)
		}
		return r
	}
	b.Run("source", func(b *testing.B) {
		resetPeak(b)
		for b.Loop() {
			got := 0
			err := newSource(b).Read(context.Background(), func(it source.Item) error {
				if it.Kind == source.KindAccount {
					got++
				}
				return nil
			})
			if err != nil || got != count {
				b.Fatalf("%d of %d accounts: %v", got, count, err)
			}
		}
		b.ReportMetric(float64(count)*float64(b.N)/b.Elapsed().Seconds(), "accounts/s")
		reportPeak(b)
	})
	b.Run("ingest", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			s := storetest.Open(b)
			resetPeak(b)
			b.StartTimer()
			cfg := ingest.Config{Store: s, Source: newSource(b), PartRows: *benchPartRows}
			if err := decoders.Configure(context.Background(), s, &cfg, decoders.Options{}); err != nil {
				b.Fatal(err)
			}
			st, err := ingest.Run(context.Background(), cfg)
			if err != nil || st.Accounts != uint64(count) || st.Slot != 100 {
				b.Fatalf("%d of %d accounts, slot %d: %v", st.Accounts, count, st.Slot, err)
			}
		}
		b.ReportMetric(float64(count)*float64(b.N)/b.Elapsed().Seconds(), "accounts/s")
		reportPeak(b)
	})
}
