package ingest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest/arrowbatch"
	"github.com/dasch-labs/dasch/ingest/decode"
	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/store"
)

// callRow is a row of test_calls: one program invoked by a transaction.
type callRow struct {
	sig     solana.Signature
	program solana.Pubkey
}

func (*callRow) Table() string { return "test_calls" }

type callsBuilder struct {
	arrowbatch.Base
	sig, program *array.FixedSizeBinaryBuilder
}

func callsTable() arrowbatch.Table {
	return arrowbatch.Table{Name: "test_calls", New: func(mem memory.Allocator) arrowbatch.Builder {
		b := &callsBuilder{}
		b.Base = arrowbatch.NewBase(
			arrowbatch.Col(mem, &b.sig, "signature", arrowbatch.SignatureType()),
			arrowbatch.Col(mem, &b.program, "program", arrowbatch.PubkeyType()),
		)
		return b
	}}
}

func (b *callsBuilder) Append(r arrowbatch.Row) error {
	row, ok := r.(*callRow)
	if !ok {
		return fmt.Errorf("test_calls: cannot append %T", r)
	}
	b.sig.Append(row.sig[:])
	b.program.Append(row.program[:])
	b.Added(96)
	return nil
}

// callsDecoder writes a row per invoked program, fails on one transaction
// after adding rows (which must be dropped) and panics on one account.
type callsDecoder struct {
	failTx   solana.Signature
	panicAcc solana.Pubkey
}

func (callsDecoder) Name() string               { return "calls" }
func (callsDecoder) Tables() []arrowbatch.Table { return []arrowbatch.Table{callsTable()} }
func (d callsDecoder) DecodeTx(tx *solana.Tx, out *decode.Batch) error {
	for _, p := range tx.ProgramIDs() {
		out.Add(&callRow{sig: tx.Signature(), program: p})
	}
	if tx.Signature() == d.failTx {
		return errors.New("cannot decode this one")
	}
	return nil
}

func (d callsDecoder) DecodeAccount(a *solana.Account, _ *decode.Batch) error {
	if a.Pubkey == d.panicAcc {
		panic("boom")
	}
	return nil
}

func TestDecoderPlugin(t *testing.T) {
	s := storetest.Open(t)
	ctx := context.Background()
	if err := s.Exec(ctx, `CREATE TABLE IF NOT EXISTS test_calls (signature FixedString(64), program FixedString(32))
		ENGINE = ReplacingMergeTree ORDER BY (signature, program)`, nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Exec(ctx, "DROP TABLE IF EXISTS test_calls", nil) })

	failSig := "5UZuijpSnqBpgMpqnggxZ58bzZ8aJtqqVjtvzx2Pg2C58jXph1rdrXyHdTxJfsHawNJyr8syU4U1MEYccDUQeTSV"
	fail, _ := solana.ParseSignature(failSig)
	acc, _ := solana.ParsePubkey(rentMaxAcct)
	dir := inputDir(t, []string{photonTxs, dasAccounts}, nil)
	st := ingest(t, s, dir, Config{Decoders: []decode.Decoder{callsDecoder{failTx: fail, panicAcc: acc}}})

	if st.Txs != 4 || st.Accounts != 2 || st.DeadLetters != 2 || st.Rows["transactions"] != 4 || st.Rows["accounts"] != 2 {
		t.Errorf("stats %+v", st)
	}
	// The raw decoder's rows stay; the failing decoder's rows for that item go.
	want := one(t, s, `SELECT sum(length(program_ids)) FROM transactions FINAL WHERE signature != {s:FixedString(64)}`,
		store.Params{"s": b58(t, failSig)})[0]
	got := one(t, s, `SELECT count(), countIf(signature = {s:FixedString(64)}) FROM test_calls FINAL`, store.Params{"s": b58(t, failSig)})
	if got[0] != want || got[1] != uint64(0) || st.Rows["test_calls"] != want {
		t.Errorf("test_calls: %v rows (%v of the failed tx), want %v", got[0], got[1], want)
	}
	rows := query(t, s, `SELECT kind, key, slot, error, length(payload) > 0 FROM dead_letters ORDER BY kind`, nil)
	if len(rows) != 2 {
		t.Fatalf("dead letters %v", rows)
	}
	if r := rows[0]; r[0] != "account" || r[1] != rentMaxAcct || r[2] != uint64(352205456) || r[3] != "decoder calls: panic: boom" || r[4] != uint8(1) {
		t.Errorf("account dead letter %v", r)
	}
	if r := rows[1]; r[0] != "transaction" || r[1] != failSig || r[2] != uint64(41) ||
		!strings.HasPrefix(r[3].(string), "decoder calls: cannot decode") || r[4] != uint8(1) {
		t.Errorf("transaction dead letter %v", r)
	}
	if indexedSlot(t, s) != 352205456 {
		t.Errorf("indexed slot %d", indexedSlot(t, s))
	}
}
