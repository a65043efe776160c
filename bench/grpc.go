package bench

import (
	"context"
	"fmt"
	"time"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/chain/token"
	"github.com/dasch-labs/dasch/ingest"
	"github.com/dasch-labs/dasch/ingest/source"
	"github.com/dasch-labs/dasch/ingest/source/geyser/geysertest"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// GRPCReport compares the store's raw insert limit with following a
// loopback Geyser stream of the same account writes end to end:
// subscription, protobuf decoding and conversion, the pipeline, inserts.
type GRPCReport struct {
	Rows        int
	Raw, Stream time.Duration
	Slots       int
}

// RawRate is rows/s of pre-built Arrow batches straight into the store.
func (r GRPCReport) RawRate() float64 { return float64(r.Rows) / r.Raw.Seconds() }

// StreamRate is accounts/s from the stream into the store.
func (r GRPCReport) StreamRate() float64 { return float64(r.Rows) / r.Stream.Seconds() }

// Ratio is stream / raw.
func (r GRPCReport) Ratio() float64 { return r.StreamRate() / r.RawRate() }

func (r GRPCReport) String() string {
	return fmt.Sprintf("accounts: %d rows in %d slots; raw insert %.0f rows/s (%.2fs); gRPC stream %.0f accounts/s (%.2fs); stream/raw = %.2f",
		r.Rows, r.Slots, r.RawRate(), r.Raw.Seconds(), r.StreamRate(), r.Stream.Seconds(), r.Ratio())
}

// RunGRPC measures both rates on n synthetic token accounts (1000 writes
// a slot) in s, which must be migrated; it empties the accounts tables
// before each phase.
func RunGRPC(ctx context.Context, s arrowstore.Store, n, batchRows int) (GRPCReport, error) {
	rep := GRPCReport{Rows: n}
	if batchRows <= 0 {
		batchRows = 50_000
	}
	docs := SyntheticAccounts(n, 1)
	accs := make([]*solana.Account, len(docs))
	for i, d := range docs {
		a, err := solana.ParseAccount(d)
		if err != nil {
			return rep, fmt.Errorf("synthetic account: %w", err)
		}
		accs[i] = a
	}

	// Phase 1: the raw insert of the same rows.
	var err error
	if rep.Raw, err = rawInsert(ctx, s, accs, batchRows); err != nil {
		return rep, err
	}

	// Phase 2: the same writes from a loopback Geyser server.
	var slots []geysertest.Slot
	for _, a := range accs {
		if len(slots) == 0 || slots[len(slots)-1].Slot != a.Slot {
			slots = append(slots, geysertest.Slot{Slot: a.Slot, Parent: a.Slot - 1, NoMeta: true})
		}
		sl := &slots[len(slots)-1]
		sl.Accounts = append(sl.Accounts, geysertest.AccountWrite(a.Pubkey, a.Owner, a.Lamports, a.WriteVersion, a.Data))
	}
	rep.Slots = len(slots)
	srv, err := geysertest.Serve(geysertest.Script{Slots: slots})
	if err != nil {
		return rep, err
	}
	defer srv.Stop()
	if err := emptyAccounts(ctx, s); err != nil {
		return rep, err
	}
	src, err := source.NewGRPC(srv.URL)
	if err != nil {
		return rep, err
	}
	defer src.Close()
	first := slots[0].Slot
	if err := src.Configure(source.GRPCOptions{From: &first, To: slots[len(slots)-1].Slot,
		AccountOwners: []solana.Pubkey{token.TokenProgram()}}); err != nil {
		return rep, err
	}
	start := time.Now()
	if _, err := ingest.Run(ctx, ingest.Config{Store: s, Source: src, BatchRows: batchRows}); err != nil {
		return rep, fmt.Errorf("stream: %w", err)
	}
	rep.Stream = time.Since(start)
	if err := expectAccounts(ctx, s, n); err != nil {
		return rep, fmt.Errorf("stream phase: %w", err)
	}
	return rep, nil
}
