package ingest_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/dasch-labs/dasch/chain/bubblegum"
	"github.com/dasch-labs/dasch/chain/light"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/chain/token"
	"github.com/dasch-labs/dasch/ingest"
	"github.com/dasch-labs/dasch/ingest/arrowbatch"
	"github.com/dasch-labs/dasch/ingest/assetstate"
	"github.com/dasch-labs/dasch/ingest/bubblegumtree"
	"github.com/dasch-labs/dasch/ingest/compressedstate"
	"github.com/dasch-labs/dasch/ingest/decode"
	"github.com/dasch-labs/dasch/ingest/parsedtx"
	"github.com/dasch-labs/dasch/ingest/solbalances"
	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/store"
)

// TestTableSchemas checks every table a run writes, with every decoder
// and step configured, against the migrated schema: its builder's Arrow fields
// must be columns of the table that an insert may fill, each of the
// ClickHouse type the Arrow type inserts into (nullable exactly where the
// column is Nullable); every column an insert must fill (no DEFAULT or
// MATERIALIZED expression) must be a field; and a representative row,
// as the decoders make it, must come out of NewRecord as one row of that
// schema, the columns in schema order, that the store accepts.
func TestTableSchemas(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	dec, samples := sampleRows(t)
	// The asset state step writes asset_state and asset_keys beside the
	// decoders' tables.
	tables := append(ingest.TablesOf(dec, assetstate.Decoder{}, bubblegumtree.Decoder{}, solbalances.Decoder{}, parsedtx.Decoder{}), assetstate.StateTable(), assetstate.KeysTable(), assetstate.EditionsTable(), assetstate.DocsTable(), assetstate.PrevDocsTable(),
		assetstate.MetadataTable(), assetstate.MetadataDocsTable())
	names := map[string]bool{}
	for _, tbl := range tables {
		names[tbl.Name] = true
	}
	for _, tbl := range arrowbatch.CoreTables() {
		if !names[tbl.Name] {
			t.Errorf("core table %s is not written by a run", tbl.Name)
		}
	}
	for _, tbl := range tables {
		t.Run(tbl.Name, func(t *testing.T) {
			cols, err := tableColumns(ctx, s, tbl.Name)
			if err != nil {
				t.Fatal(err)
			}
			var b arrowbatch.Builder
			if err := catch(func() { b = tbl.New(memory.NewGoAllocator()) }); err != nil {
				t.Fatalf("new builder: %v", err)
			}
			defer b.Release()
			for _, err := range checkSchema(b.Schema(), cols) {
				t.Error(err)
			}
			row, ok := samples[tbl.Name]
			if !ok {
				t.Fatalf("no decoder input writes a row of %s: add one to sampleRows", tbl.Name)
			}
			var appendErr error
			if err := catch(func() { appendErr = b.Append(row) }); err != nil || appendErr != nil {
				t.Fatalf("append: %v", errors.Join(err, appendErr))
			}
			var rec arrow.RecordBatch
			if err := catch(func() { rec = b.NewRecord() }); err != nil {
				t.Fatalf("NewRecord: %v", err)
			}
			defer rec.Release()
			for _, err := range checkRecord(rec, b.Schema()) {
				t.Error(err)
			}
			if err := s.Insert(ctx, tbl.Name, rec); err != nil {
				t.Errorf("insert: %v", err)
			}
		})
	}
}

// column is a row of system.columns.
type column struct {
	typ, defaultKind string
}

func tableColumns(ctx context.Context, s store.Querier, table string) (map[string]column, error) {
	res, err := s.Query(ctx, `SELECT name, type, default_kind FROM system.columns
		WHERE database = currentDatabase() AND table = {t:String}`, store.Params{"t": table})
	if err != nil {
		return nil, err
	}
	if len(res.Rows) == 0 {
		return nil, fmt.Errorf("table %s is not in the migrated schema", table)
	}
	out := map[string]column{}
	for i := range res.Rows {
		r := res.Row(i)
		name, c := r.Str(0), column{typ: r.Str(1), defaultKind: r.Str(2)}
		if err := r.Err(); err != nil {
			return nil, fmt.Errorf("columns of %s: %w", table, err)
		}
		out[name] = c
	}
	return out, nil
}

// checkSchema compares a builder's schema with the table's columns.
func checkSchema(sc *arrow.Schema, cols map[string]column) []error {
	var errs []error
	fields := map[string]bool{}
	for _, f := range sc.Fields() {
		if fields[f.Name] {
			errs = append(errs, fmt.Errorf("field %s is in the schema twice", f.Name))
		}
		fields[f.Name] = true
		c, ok := cols[f.Name]
		if !ok {
			errs = append(errs, fmt.Errorf("field %s has no column", f.Name))
			continue
		}
		if c.defaultKind == "MATERIALIZED" || c.defaultKind == "ALIAS" {
			errs = append(errs, fmt.Errorf("field %s: column is %s, which an insert cannot fill", f.Name, c.defaultKind))
		}
		want, err := clickHouseType(f)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		got := c.typ
		if inner, ok := strings.CutPrefix(got, "LowCardinality("); ok {
			got = strings.TrimSuffix(inner, ")")
		}
		if got != want {
			errs = append(errs, fmt.Errorf("field %s inserts as %s into a column of type %s", f.Name, want, c.typ))
		}
	}
	for name, c := range cols {
		if c.defaultKind == "" && !fields[name] {
			errs = append(errs, fmt.Errorf("column %s (%s) has no default and no field", name, c.typ))
		}
	}
	return errs
}

// clickHouseType is the column type an Arrow field inserts into.
func clickHouseType(f arrow.Field) (string, error) {
	var base string
	switch t := f.Type.(type) {
	case *arrow.Uint8Type:
		base = "UInt8"
	case *arrow.Uint16Type:
		base = "UInt16"
	case *arrow.Uint32Type:
		base = "UInt32"
	case *arrow.Uint64Type:
		base = "UInt64"
	case *arrow.Int16Type:
		base = "Int16"
	case *arrow.Int32Type:
		base = "Int32"
	case *arrow.Int64Type:
		base = "Int64"
	case *arrow.BooleanType:
		base = "Bool"
	case *arrow.StringType, *arrow.BinaryType:
		base = "String"
	case *arrow.FixedSizeBinaryType:
		base = fmt.Sprintf("FixedString(%d)", t.ByteWidth)
	case *arrow.ListType:
		elem, err := clickHouseType(t.ElemField())
		if err != nil {
			return "", fmt.Errorf("field %s: %w", f.Name, err)
		}
		base = "Array(" + elem + ")"
	default:
		return "", fmt.Errorf("field %s: no ClickHouse type for Arrow %s", f.Name, f.Type)
	}
	if f.Nullable {
		return "Nullable(" + base + ")", nil
	}
	return base, nil
}

// catch runs f and returns its panic, if any, as an error: a builder
// whose column is of another type than its Arrow builder, an Append to a
// column it does not have, or a record whose columns do not match their
// fields panics.
func catch(f func()) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	f()
	return nil
}

// checkRecord checks that rec is one row of sc, column by column.
func checkRecord(rec arrow.RecordBatch, sc *arrow.Schema) []error {
	var errs []error
	if rec.NumRows() != 1 {
		errs = append(errs, fmt.Errorf("record has %d rows, want 1", rec.NumRows()))
	}
	if !rec.Schema().Equal(sc) {
		errs = append(errs, fmt.Errorf("record schema %s, want the builder's %s", rec.Schema(), sc))
	}
	if int(rec.NumCols()) != sc.NumFields() {
		return append(errs, fmt.Errorf("record has %d columns, want %d", rec.NumCols(), sc.NumFields()))
	}
	for i, f := range sc.Fields() {
		col := rec.Column(i)
		if !arrow.TypeEqual(col.DataType(), f.Type) {
			errs = append(errs, fmt.Errorf("column %d (%s) is %s, want %s", i, f.Name, col.DataType(), f.Type))
		}
		if col.Len() != 1 {
			errs = append(errs, fmt.Errorf("column %d (%s) has %d values, want 1", i, f.Name, col.Len()))
		}
		if !f.Nullable && col.NullN() != 0 {
			errs = append(errs, fmt.Errorf("column %d (%s) is not nullable but holds a null", i, f.Name))
		}
	}
	return errs
}

// sampleRows runs every decoder over inputs that make a row of each of
// their tables, with the optional values set, and returns the compressed
// decoder it used and the first row of each table.
func sampleRows(t *testing.T) (decode.Decoder, map[string]arrowbatch.Row) {
	t.Helper()
	key := func(b byte) solana.Pubkey {
		var k solana.Pubkey
		for i := range k {
			k[i] = b + byte(i)
		}
		return k
	}
	var sig solana.Signature
	for i := range sig {
		sig[i] = byte(i + 1)
	}
	const slot = 42
	blockTime, height, cu, seq := int64(1_700_000_000), uint64(41), uint64(1400), uint64(7)
	var out decode.Batch

	raw := decode.Raw{}
	tx := &solana.Tx{
		Slot: slot, BlockTime: &blockTime, TxIndex: 3, Signatures: []solana.Signature{sig},
		AccountKeys:  []solana.Pubkey{key(1), key(2)},
		Instructions: []solana.Instruction{{ProgramIndex: 1, ProgramID: key(2)}},
		Err:          []byte(`{"InstructionError":[0,"Custom"]}`), Fee: 5000, ComputeUnits: &cu, Raw: []byte(`{}`),
		PostBalances: []uint64{995000, 1},
	}
	acc := &solana.Account{Pubkey: key(3), Owner: key(4), Lamports: 1, Data: []byte{1, 2}, RentEpoch: 2, Slot: slot, WriteVersion: 9}
	block := &solana.Block{Slot: slot, ParentSlot: slot - 1, Blockhash: "h", PreviousBlockhash: "p", BlockHeight: &height, BlockTime: &blockTime, TxCount: 1}
	if err := raw.DecodeTx(tx, &out); err != nil {
		t.Fatal(err)
	}
	if err := (solbalances.Decoder{}).DecodeTx(tx, &out); err != nil {
		t.Fatal(err)
	}
	if err := (parsedtx.Decoder{}).DecodeTx(tx, &out); err != nil {
		t.Fatal(err)
	}
	if err := raw.DecodeAccount(acc, &out); err != nil {
		t.Fatal(err)
	}
	if err := raw.DecodeBlock(block, &out); err != nil {
		t.Fatal(err)
	}
	out.Add(&arrowbatch.DeadLetterRow{Source: "files:x", Kind: "transaction", Key: "k", Slot: slot, Error: "bad", Payload: []byte("{")})
	// The sample transaction failed, so it swapped nothing: a leg as
	// parsedtx files one.
	out.Add(&parsedtx.SwapRow{Slot: slot, TxIndex: 3, Signature: sig, Leg: 1, BlockTime: blockTime, Protocol: "RAYDIUM", ProgramID: key(2), User: key(1),
		InputMint: key(5), OutputMint: key(6), InAmount: 7, OutAmount: 9, InputDecimals: 6, OutputDecimals: 9})

	stateTree, addrTree := key(10), key(12)
	trees := light.NewTreeMap(map[solana.Pubkey]light.TreeInfo{
		stateTree: {Tree: stateTree, Queue: key(11), Type: light.TreeStateV1, Height: 26},
		addrTree:  {Tree: addrTree, Queue: key(13), Type: light.TreeAddressV1, Height: 26},
	})
	dec := compressedstate.NewDecoderWithTrees(trees)
	addr, delegate := [32]byte(key(14)), key(15)
	dec.DecodeEvents(&light.Events{
		Signature: sig, Slot: slot, Compression: true,
		Outputs: []light.OutputAccount{{
			Hash: light.Hash(key(16)), Tree: stateTree, Queue: key(11), TreeType: light.TreeStateV1,
			LeafIndex: 5, Seq: &seq, SlotCreated: slot, Owner: key(17), Lamports: 3, Address: &addr,
			Data:      &light.AccountData{Discriminator: [8]byte{1}, Data: []byte{9, 9}, DataHash: light.Hash(key(18))},
			Token:     &light.TokenData{Mint: key(19), Owner: key(20), Amount: 8, Delegate: &delegate, TLV: []byte{1}},
			Signature: sig,
		}},
		Inputs: []light.InputAccount{{Hash: light.Hash(key(21)), V2: &light.BatchedInput{
			Tree: stateTree, LeafIndex: 2, Nullifier: light.Hash(key(22)), TxHash: light.Hash(key(23)), QueueIndex: 4,
		}}},
		IndexedUpdates: []light.IndexedLeafUpdate{{
			Tree: addrTree, Leaf: light.IndexedElement{Value: key(24), NextIndex: 0, NextValue: key(25), Index: 2},
			Hash: light.Hash(key(26)), Seq: 3,
		}},
	}, blockTime, &out)

	// An initialized token account (its state byte set) of holder key(28).
	tokenAccount := make([]byte, 165)
	mint, holder := key(27), key(28)
	copy(tokenAccount, mint[:])
	copy(tokenAccount[32:], holder[:])
	tokenAccount[64], tokenAccount[108] = 1, 1
	assets := assetstate.Decoder{}
	if err := assets.DecodeAccount(&solana.Account{Pubkey: key(29), Owner: token.TokenProgram(), Lamports: 1, Data: tokenAccount, Slot: slot, WriteVersion: 1}, &out); err != nil {
		t.Fatal(err)
	}
	// A closed account: no lamports, the System program's.
	if err := assets.DecodeAccount(&solana.Account{Pubkey: key(34), Owner: solana.SystemProgram(), Slot: slot, WriteVersion: 2}, &out); err != nil {
		t.Fatal(err)
	}
	ev, err := assetstate.EventRow(&bubblegum.Event{
		AssetID: bubblegum.Key(key(30)), Tree: bubblegum.Key(key(31)), LeafID: 1, Seq: 2, Slot: slot,
		Instruction: "transfer", Outer: 0, Inner: -1,
		Leaf: &bubblegum.Leaf{Version: 1, ID: bubblegum.Key(key(30)), Owner: bubblegum.Key(key(32)), Delegate: bubblegum.Key(key(33))},
	}, sig, slot)
	if err != nil {
		t.Fatal(err)
	}
	out.Add(ev)
	for _, r := range bubblegumtree.NodeRows(&bubblegum.ChangeLog{Tree: bubblegum.Key(key(31)), Seq: 2, Index: 1,
		Path: []bubblegum.PathNode{{Node: bubblegum.Key(key(36)), Index: 3}, {Node: bubblegum.Key(key(37)), Index: 1}}}, slot) {
		out.Add(r)
	}
	collection := key(34)
	state := &assetstate.StateRow{ID: key(29), Edition: key(35), Collection: &collection, Version: 1, Slot: slot, Doc: []byte(`{}`),
		Listing: assetstate.Listing{Interface: "V1_NFT", Owner: key(36), OwnerType: "single", Delegate: &collection, Supply: 1, Name: "n"}}
	out.Add(state)
	out.Add(&assetstate.DocRow{StateRow: state})
	out.Add(&assetstate.PrevDocRow{DocRow: assetstate.DocRow{StateRow: state, Visible: 3}})
	out.Add(&assetstate.EditionRow{Master: key(37), Edition: key(35), Mint: key(29), Number: 3, Slot: slot, Version: 1})
	out.Add(&assetstate.KeyRow{Path: "owner", Key: key(36), ID: key(29), Verified: true, Slot: slot, CreatedSlot: slot, Version: 1})
	out.Add(&assetstate.MetadataRow{Key: key(38), URI: "https://example.org/m.json", Status: "queued", Version: 1})
	out.Add(&assetstate.MetadataDocRow{Key: key(38), URI: "https://example.org/m.json", Doc: []byte(`{}`), ContentType: "application/json", Version: 1})

	first := map[string]arrowbatch.Row{}
	for _, r := range out.Rows() {
		if _, ok := first[r.Table()]; !ok {
			first[r.Table()] = r
		}
	}
	return dec, first
}
