package photon

import (
	"reflect"
	"strings"
	"testing"

	"github.com/mr-tron/base58"

	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store"
)

func txSig(b byte) string {
	var s compressed.Signature
	s[0], s[63] = b, 0xee
	return string(s[:])
}

// insertTxRow writes a transaction indexed at slot whose raw JSON says
// rawSlot, with optional error and vote flag.
func (e *env) insertTxRow(slot uint64, g byte, rawJSON string, vote bool, errJSON string) {
	e.t.Helper()
	e.exec(`INSERT INTO transactions (slot, signature, block_time, failed, err, is_vote, raw)
		VALUES ({s:UInt64}, {g:FixedString(64)}, 1700000000, {f:Bool}, nullIf({e:String}, ''), {v:Bool}, {raw:String})`,
		store.Params{"s": u(slot), "g": txSig(g), "raw": rawJSON, "e": errJSON,
			"f": map[bool]string{true: "true", false: "false"}[errJSON != ""],
			"v": map[bool]string{true: "true", false: "false"}[vote]})
}

// insertOutput writes an account created by transaction g: a token account
// when token is set.
func (e *env) insertOutput(hash byte, leaf uint64, g byte, token bool) {
	e.t.Helper()
	e.exec(`INSERT INTO compressed_accounts (hash, tree, queue, tree_type, leaf_index, seq, slot_created, sig_prefix,
		owner, lamports, is_token, mint, token_owner, amount)
		VALUES ({h:FixedString(32)}, {tree:FixedString(32)}, {queue:FixedString(32)}, 1, {l:UInt64}, {l:UInt64} + 1, 0,
		`+schema.SigPrefix("{g:FixedString(64)}")+`, {o:FixedString(32)}, 9, {tok:Bool}, {m:FixedString(32)}, {to:FixedString(32)}, 700)`,
		store.Params{"h": raw(key(hash)), "tree": raw(key(200)), "queue": raw(key(201)), "l": u(leaf), "g": txSig(g),
			"o": raw(key(250)), "tok": map[bool]string{true: "true", false: "false"}[token], "m": raw(key(3)), "to": raw(key(1))})
}

func TestTransactionWithCompressionInfo(t *testing.T) {
	e := newEnv(t, true)
	e.insertTxRow(0, 1, `{"slot":40,"blockTime":null,"meta":{"err":null}}`, false, "")
	e.insertTxRow(0, 2, `{"slot":41,"blockTime":5,"meta":{"err":null}}`, false, "")
	e.insertOutput(10, 0, 1, true)
	e.insertOutput(11, 1, 2, false)
	e.exec(`INSERT INTO compressed_spent (hash, slot, signature) VALUES ({h:FixedString(32)}, 0, {g:FixedString(64)})`,
		store.Params{"h": raw(key(10)), "g": txSig(2)})

	head := func(hash byte) string {
		return `"hash":"` + keyB58(key(hash)) + `","address":null,"data":null,"owner":"` + keyB58(key(250)) + `","lamports":9`
	}
	v1 := func(hash byte, leaf, slot string) string {
		return `{` + head(hash) + `,"tree":"` + keyB58(key(200)) + `","leafIndex":` + leaf + `,"seq":` + leaf + `+1,"slotCreated":` + slot + `}`
	}
	v2 := func(hash byte, leaf, slot string) string {
		return `{` + head(hash) + `,"leafIndex":` + leaf + `,"seq":` + leaf + `+1,"slotCreated":` + slot + `,"proveByIndex":false,` +
			`"merkleContext":{"treeType":1,"tree":"` + keyB58(key(200)) + `","queue":"` + keyB58(key(201)) + `","cpiContext":null,"nextTreeContext":null}}`
	}
	seq := strings.NewReplacer("0+1", "1", "1+1", "2")
	tok := `{"mint":"` + keyB58(key(3)) + `","owner":"` + keyB58(key(1)) + `","amount":700,"delegate":null,"state":"initialized","tlv":null}`
	zero := base58.Encode(make([]byte, 32))
	tests := []struct {
		name, method string
		sig          byte
		want         string
	}{
		{"V1 opened only, at the transaction's own slot", "getTransactionWithCompressionInfo", 1,
			`{"transaction":{"slot":40,"blockTime":null,"meta":{"err":null}},"compressionInfo":{"closedAccounts":[],` +
				`"openedAccounts":[{"account":` + v1(10, "0", "40") + `,"optionalTokenData":` + tok + `}]}}`},
		{"V1 closed and opened", "getTransactionWithCompressionInfo", 2,
			`{"transaction":{"slot":41,"blockTime":5,"meta":{"err":null}},"compressionInfo":{` +
				`"closedAccounts":[{"account":` + v1(10, "0", "0") + `,"optionalTokenData":` + tok + `}],` +
				`"openedAccounts":[{"account":` + v1(11, "1", "41") + `,"optionalTokenData":null}]}}`},
		{"V2 closed accounts carry nullifier and tx hash", "getTransactionWithCompressionInfoV2", 2,
			`{"transaction":{"slot":41,"blockTime":5,"meta":{"err":null}},"compressionInfo":{` +
				`"closedAccounts":[{"account":{"account":` + v2(10, "0", "0") + `,"nullifier":"` + zero + `","txHash":"` + zero + `"},"optionalTokenData":` + tok + `}],` +
				`"openedAccounts":[{"account":` + v2(11, "1", "41") + `,"optionalTokenData":null}]}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := e.mustCall(tt.method, `{"signature":"`+base58.Encode([]byte(txSig(tt.sig)))+`"}`)
			want := asJSON(t, seq.Replace(tt.want))
			if !reflect.DeepEqual(got, want) {
				t.Errorf("\n got %v\nwant %v", got, want)
			}
		})
	}

	errs := []struct {
		name, params, want string
	}{
		{"unknown transaction", `{"signature":"` + base58.Encode([]byte(txSig(9))) + `"}`, "Record Not Found: Transaction not found"},
		{"missing signature", `{}`, "missing field `signature`"},
		{"short signature", `{"signature":"` + keyB58(key(1)) + `"}`, "string decoded to wrong size for signature"},
		{"not base58", `{"signature":"0OIl"}`, "failed to decode string to signature"},
		{"unknown field", `{"signature":"` + base58.Encode([]byte(txSig(1))) + `","foo":1}`, "unknown field `foo`"},
	}
	for _, tt := range errs {
		t.Run(tt.name, func(t *testing.T) {
			for _, m := range []string{"getTransactionWithCompressionInfo", "getTransactionWithCompressionInfoV2"} {
				_, err := e.call(m, tt.params)
				if err == nil || !strings.Contains(err.Message, tt.want) {
					t.Errorf("%s: error %v, want %q", m, err, tt.want)
				}
			}
		})
	}
}

func TestLatestNonVotingSignatures(t *testing.T) {
	e := newEnv(t, true)
	e.insertTxRow(3, 1, `{}`, false, "")
	e.insertTxRow(3, 2, `{}`, true, "")
	e.insertTxRow(4, 3, `{}`, false, `{"InstructionError":[0,{"Custom":1}]}`)
	item := func(g byte, slot, errJSON string) string {
		return `{"signature":"` + base58.Encode([]byte(txSig(g))) + `","slot":` + slot + `,"blockTime":1700000000,"error":` + errJSON + `}`
	}
	failed := `"{\"InstructionError\":[0,{\"Custom\":1}]}"`
	tests := []struct {
		name, params, want string
	}{
		{"no params", ``, `[` + item(3, "4", failed) + `,` + item(1, "3", "null") + `]`},
		{"limit", `{"limit":1}`, `[` + item(3, "4", failed) + `]`},
		{"cursor", `{"cursor":"` + base58.Encode(compressed.SigCursor{Slot: 4, Signature: compressed.Signature([]byte(txSig(3)))}.Bytes()) + `"}`,
			`[` + item(1, "3", "null") + `]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := e.mustCall("getLatestNonVotingSignatures", tt.params)
			want := asJSON(t, `{"context":{"slot":7},"value":{"items":`+tt.want+`}}`)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("\n got %v\nwant %v", got, want)
			}
		})
	}
	if _, err := e.call("getLatestNonVotingSignatures", `{"cursor":"abc"}`); err == nil || !strings.Contains(err.Message, "Invalid cursor length") {
		t.Errorf("short cursor: %v", err)
	}
}
