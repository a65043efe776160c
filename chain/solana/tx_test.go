package solana

import (
	"bytes"
	"encoding/hex"
	"slices"
	"strings"
	"testing"

	"github.com/goccy/go-json"
	"github.com/mr-tron/base58"
)

func TestParseTxBase64V0(t *testing.T) {
	raw := fixture(t, photonTxDir+photonMint+".json")
	tx, err := ParseTx(raw)
	if err != nil {
		t.Fatal(err)
	}
	if got := tx.Signature().String(); got != photonMint {
		t.Errorf("signature %s, want %s", got, photonMint)
	}
	if len(tx.Signatures) != 2 || tx.Slot != 40 || tx.BlockTime == nil || *tx.BlockTime != 1724707606 {
		t.Errorf("sigs %d slot %d blockTime %v", len(tx.Signatures), tx.Slot, tx.BlockTime)
	}
	if tx.Version != 0 || *tx.Header != (Header{2, 1, 10}) {
		t.Errorf("version %d header %+v", tx.Version, *tx.Header)
	}
	if tx.Fee != 10000 || tx.ComputeUnits == nil || *tx.ComputeUnits != 108810 || tx.Failed() || tx.IsVote {
		t.Errorf("fee %d cu %v err %s vote %v", tx.Fee, tx.ComputeUnits, tx.Err, tx.IsVote)
	}
	if len(tx.AccountKeys) != 15 || tx.NumStaticKeys != 15 {
		t.Fatalf("%d keys", len(tx.AccountKeys))
	}
	if len(tx.PostBalances) != 15 || tx.PostBalances[0] != 996478820 || tx.PostBalances[4] != 9496335660 || tx.PostBalances[14] != 1 {
		t.Errorf("post balances %v", tx.PostBalances)
	}
	if tx.FeePayer() != mustKey(t, "4xyraMeHBvudfZ8sBtvLucVYK4A4AjFBzDr4anWieB3x") ||
		tx.AccountKeys[14] != mustKey(t, "11111111111111111111111111111111") {
		t.Errorf("keys %v … %v", tx.AccountKeys[0], tx.AccountKeys[14])
	}
	if len(tx.Instructions) != 2 {
		t.Fatalf("%d instructions", len(tx.Instructions))
	}
	in := tx.Instructions[0]
	if in.ProgramIndex != 5 || in.ProgramID != mustKey(t, computeBudgt) || hex.EncodeToString(in.Data) != "0240420f00" || len(in.Accounts) != 0 {
		t.Errorf("instruction 0: %+v", in)
	}
	if want := []uint8{0, 1, 7, 2, 3, 8, 9, 10, 11, 12, 13, 4, 6, 14, 6}; !bytes.Equal(tx.Instructions[1].Accounts, want) || len(tx.Instructions[1].Data) != 57 {
		t.Errorf("instruction 1 accounts %v, data %d bytes", tx.Instructions[1].Accounts, len(tx.Instructions[1].Data))
	}
	if len(tx.Inner) != 5 {
		t.Fatalf("%d inner", len(tx.Inner))
	}
	first := tx.Inner[0]
	wantData, _ := base58.Decode("6qYT3cRnoTxb")
	if first.Outer != 1 || first.StackHeight != 2 || first.ProgramID != mustKey(t, "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA") ||
		!bytes.Equal(first.Accounts, []uint8{2, 3, 1}) || !bytes.Equal(first.Data, wantData) {
		t.Errorf("inner 0: %+v", first)
	}
	if tx.Inner[3].StackHeight != 4 || tx.Inner[3].ProgramID != mustKey(t, "11111111111111111111111111111111") {
		t.Errorf("inner 3: %+v", tx.Inner[3])
	}
	if !strings.HasPrefix(tx.LogMessages[0], "Program "+computeBudgt+" invoke [1]") {
		t.Errorf("logs %q", tx.LogMessages[0])
	}
	if !bytes.Equal(tx.Raw, raw) {
		t.Error("raw is not the input")
	}
	var progs []string
	for _, p := range tx.ProgramIDs() {
		progs = append(progs, p.String())
	}
	want := []string{computeBudgt, "cTokenmWW8bLPjZEBAUgYy3zKxQZW6VKi7bqNFEVv3m", "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",
		"SySTEM1eSU2p4BGQfQpimFEWWSC1XDFeun3Nqzz3rT7", "compr6CUsB5m2jS4Y3831ztGSTnDpnKJTKS95d64XVq",
		"11111111111111111111111111111111", "noopb9bkMVfRPU8AsbpTUg8AQkHtKwMYZiFUjNRtMmV"}
	if strings.Join(progs, " ") != strings.Join(want, " ") {
		t.Errorf("program ids\n got %v\nwant %v", progs, want)
	}
}

func TestParseTxJSONEncoding(t *testing.T) {
	tx, err := ParseTx(fixture(t, dasLegacyTx))
	if err != nil {
		t.Fatal(err)
	}
	if tx.Signature().String() != "3Ct9n9hv5PWEYbsrgDdUDqegzsnX2n5jYRxkq5YafFAueup8mTYmN4nHhNCaEwVyVAVqNssr4fizdg9wRavT7ydE" ||
		tx.Slot != 207236629 || tx.BlockTime != nil || tx.Version != -1 || tx.Header != nil || tx.Fee != 0 || tx.ComputeUnits != nil {
		t.Errorf("tx %s slot %d bt %v v %d header %v fee %d cu %v", tx.Signature(), tx.Slot, tx.BlockTime, tx.Version, tx.Header, tx.Fee, tx.ComputeUnits)
	}
	if len(tx.AccountKeys) != 16 || tx.FeePayer() != mustKey(t, "FEEPPtFV6KsNVgQ2j47FWFCcGX9GndMQLqFfDa65WdEW") {
		t.Errorf("%d keys, payer %s", len(tx.AccountKeys), tx.FeePayer())
	}
	if in := tx.Instructions[0]; in.ProgramID != mustKey(t, computeBudgt) || hex.EncodeToString(in.Data) != "00801a060090010000" {
		t.Errorf("instruction 0 %+v", in)
	}
	if len(tx.Inner) != 19 || tx.Inner[1].Outer != 1 || tx.Inner[1].StackHeight != 0 ||
		tx.Inner[1].ProgramID != mustKey(t, "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA") || !bytes.Equal(tx.Inner[1].Accounts, []uint8{5}) {
		t.Errorf("inner %d, [1] = %+v", len(tx.Inner), tx.Inner[1])
	}
	if _, err := ParseTx(fixture(t, dasV0Tx)); err != nil {
		t.Errorf("v0 json: %v", err)
	}
}

func TestParseBlockEntriesWithLookups(t *testing.T) {
	b, entries, err := ParseBlock(fixture(t, lookupBlock), 443787702)
	if err != nil {
		t.Fatal(err)
	}
	if b.Slot != 443787702 || b.ParentSlot != 443787701 || b.TxCount != 20 || len(entries) != 20 ||
		b.Blockhash != "CjxYNdcf1x74ocHoHjqVb8kv8oBe7Leegfyv7Qa5PTHT" || b.PreviousBlockhash != "5GbWvvJGcEWQZ8V6FpiCxSjgMBdA3TGWchUod869zFfb" ||
		*b.BlockHeight != 431674862 || *b.BlockTime != 1771722294 {
		t.Fatalf("block %+v", b)
	}
	tx, err := ParseTx(entries[4])
	if err != nil {
		t.Fatal(err)
	}
	if tx.Slot != 443787702 || *tx.BlockTime != 1771722294 || tx.Version != 0 || tx.Fee != 55000 || *tx.ComputeUnits != 72385 {
		t.Errorf("entry 4: slot %d v %d fee %d", tx.Slot, tx.Version, tx.Fee)
	}
	n := len(tx.AccountKeys)
	if n != tx.NumStaticKeys+36 {
		t.Fatalf("%d keys, %d static: want 36 loaded", n, tx.NumStaticKeys)
	}
	if tx.AccountKeys[tx.NumStaticKeys] != mustKey(t, "opsLibxVY7Vz5eYMmSfX8cLFCFVYTtH6fr6MiifMpA7") ||
		tx.AccountKeys[n-1] != mustKey(t, "pytd2yyk641x7ak7mkaasSJVXh6YYZnC7wTmtgAyxPt") {
		t.Errorf("loaded keys out of order")
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(entries[4], &doc); err != nil {
		t.Fatal(err)
	}
	noMeta, _ := json.Marshal(map[string]json.RawMessage{"slot": doc["slot"], "transaction": doc["transaction"]})
	if _, err := ParseTx(noMeta); err == nil || !strings.Contains(err.Error(), "lookup tables") {
		t.Errorf("v0 with lookups and no meta: %v", err)
	}
}

func TestVoteBlock(t *testing.T) {
	if got := VoteProgram().String(); got != "Vote111111111111111111111111111111111111111" {
		t.Fatalf("vote program %s", got)
	}
	_, entries, err := ParseBlock(fixture(t, voteBlock), 270893658)
	if err != nil {
		t.Fatal(err)
	}
	votes := 0
	for i, e := range entries {
		tx, err := ParseTx(e)
		if err != nil {
			t.Fatalf("entry %d: %v", i, err)
		}
		if tx.IsVote {
			votes++
		}
	}
	if votes == 0 || votes == len(entries) {
		t.Errorf("%d of %d are votes: want a mix", votes, len(entries))
	}
}

func TestBlockEntryJSON(t *testing.T) {
	bt := int64(-5)
	cases := []struct {
		name  string
		entry string
		bt    *int64
		want  string
	}{
		{"members", ` {"transaction":1} `, &bt, `{"slot":7,"blockTime":-5,"transaction":1}`},
		{"null time", `{ "meta": null}`, nil, `{"slot":7,"blockTime":null,"meta": null}`},
		{"empty", `{}`, nil, `{"slot":7,"blockTime":null}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := BlockEntryJSON([]byte(c.entry), 7, c.bt)
			if err != nil || string(got) != c.want {
				t.Fatalf("got %s, %v; want %s", got, err, c.want)
			}
			if !json.Valid(got) {
				t.Fatal("invalid JSON")
			}
		})
	}
	if _, err := BlockEntryJSON([]byte(`[1]`), 7, nil); err == nil {
		t.Error("array entry accepted")
	}
}

func TestParseTxErrors(t *testing.T) {
	good := string(fixture(t, photonTxDir+photonMint+".json"))
	msg := func(keys, ins string) string {
		return `{"slot":1,"transaction":{"signatures":["` + photonMint + `"],"message":{"accountKeys":[` + keys + `],"instructions":[` + ins + `]}},"meta":{"err":null}}`
	}
	key := `"` + computeBudgt + `"`
	cases := []struct {
		name, in, want string
	}{
		{"not JSON", `{`, "transaction JSON"},
		{"no slot", `{"transaction":["AA==","base64"]}`, "no slot"},
		{"slot too big", `{"slot":18446744073709551616,"transaction":["AA==","base64"]}`, "unsigned 64-bit"},
		{"bad base64", `{"slot":1,"transaction":["!!","base64"]}`, "base64"},
		{"unknown encoding", `{"slot":1,"transaction":["AA==","zstd"]}`, "unsupported encoding"},
		{"truncated wire", `{"slot":1,"transaction":["AUFB","base64"]}`, "unexpected end"},
		{"no signature", `{"slot":1,"transaction":["AA==","base64"]}`, "unexpected end"},
		{"program index out of range", msg(key, `{"programIdIndex":3,"accounts":[],"data":""}`), "out of range"},
		{"account index out of range", msg(key, `{"programIdIndex":0,"accounts":[1],"data":""}`), "out of range"},
		{"jsonParsed", msg(key, `{"programId":"x","parsed":{}}`), "jsonParsed"},
		{"bad pubkey", msg(`"0OIl"`, ``), "pubkey"},
		{"bad data", msg(key, `{"programIdIndex":0,"accounts":[],"data":"0"}`), "data"},
		{"bad version", strings.Replace(msg(key, ``), `"meta"`, `"version":1,"meta"`, 1), "version"},
		{"inner index out of range", strings.Replace(msg(key, ``), `"err":null`, `"err":null,"innerInstructions":[{"index":0,"instructions":[]}]`, 1), "innerInstructions index"},
		{"lookup without loaded addresses", strings.Replace(good, `"loadedAddresses":{"writable":[],"readonly":[]}`, `"loadedAddresses":{"writable":["`+computeBudgt+`"],"readonly":[]}`, 1), "lookup tables select 0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseTx([]byte(c.in))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want it to mention %q", err, c.want)
			}
		})
	}
}

// Post balances are kept only when there is one per account key.
func TestParsePostBalances(t *testing.T) {
	tx := func(balances string) string {
		return `{"slot":1,"transaction":{"signatures":["` + photonMint + `"],"message":{"accountKeys":["` + computeBudgt +
			`","11111111111111111111111111111111"],"instructions":[]}},"meta":{"err":null` + balances + `}}`
	}
	for _, c := range []struct {
		name, balances string
		want           []uint64
	}{
		{"one per key", `,"postBalances":[5,"18446744073709551615"]`, []uint64{5, 18446744073709551615}},
		{"too few", `,"postBalances":[5]`, nil},
		{"too many", `,"postBalances":[5,6,7]`, nil},
		{"none", ``, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseTx([]byte(tx(c.balances)))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.PostBalances, c.want) {
				t.Errorf("post balances %v, want %v", got.PostBalances, c.want)
			}
		})
	}
	if _, err := ParseTx([]byte(tx(`,"postBalances":[-1,2]`))); err == nil {
		t.Error("a negative balance parsed")
	}
}
