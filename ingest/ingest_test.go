package ingest

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/mr-tron/base58"

	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/store"
)

var fixtureSet = []string{photonTxs, voteBlock, lookupBlock, dasAccounts, dasTxs}

const (
	malformed = `{"slot": 12, "transaction": [`
	unknown   = `{"jsonrpc":"2.0","id":1}`
)

func b58(t *testing.T, s string) string {
	t.Helper()
	b, err := base58.Decode(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestIngestFixtures(t *testing.T) {
	s := storetest.Open(t)
	dir := inputDir(t, fixtureSet, map[string]string{"malformed.json": malformed, "unknown.json": unknown})
	st := ingest(t, s, dir, Config{})

	// 4 photon txs, 2 blocks of 57 and 20 txs, 2 DAS txs, 2 accounts, 2 bad files.
	if st.Items != 4+58+21+2+2+2 || st.Txs != 83 || st.Blocks != 2 || st.Accounts != 2 || st.DeadLetters != 2 {
		t.Errorf("stats %+v", st)
	}
	wantRows := map[string]uint64{"transactions": 83, "blocks": 2, "accounts": 2, "dead_letters": 2}
	for table, n := range wantRows {
		if st.Rows[table] != n {
			t.Errorf("stats: %d rows in %s, want %d", st.Rows[table], table, n)
		}
	}
	if want := "ingested 89 items (83 tx, 2 accounts, 2 blocks) in "; !strings.HasPrefix(st.Summary(), want) ||
		!strings.HasSuffix(st.Summary(), ", 2 dead letters, indexed slot 443787702") {
		t.Errorf("summary %q", st.Summary())
	}
	for table, n := range wantRows {
		if got := one(t, s, "SELECT count() FROM "+table+" FINAL", nil)[0].(uint64); got != n {
			t.Errorf("%s: %d rows, want %d", table, got, n)
		}
	}
	if got := indexedSlot(t, s); got != 443787702 || st.Slot != got {
		t.Errorf("indexed slot %d (stats %d), want the max slot 443787702", got, st.Slot)
	}

	t.Run("base64 transaction", func(t *testing.T) {
		r := one(t, s, `SELECT slot, tx_index, block_time, failed, err, fee, fee_payer, is_vote, account_keys,
			arrayMap(k -> base58Encode(k), program_ids), compute_units, raw
			FROM transactions FINAL WHERE signature = {sig:FixedString(64)}`, store.Params{"sig": b58(t, mintSig)})
		if r[0] != uint64(40) || r[1] != uint32(0) || r[2] != int64(1724707606) || r[3] != false || r[4] != nil ||
			r[5] != uint64(10000) || r[6] != b58(t, "4xyraMeHBvudfZ8sBtvLucVYK4A4AjFBzDr4anWieB3x") || r[7] != false || r[10] != uint64(108810) {
			t.Errorf("row %v", r[:11])
		}
		want := []string{"4xyraMeHBvudfZ8sBtvLucVYK4A4AjFBzDr4anWieB3x", "4ZvkB7e9DQ7Hnwwkz9QgnGtDeFEVBfgyypta3bPSvBRQ",
			"2U35cKS3Cj2xs5EBdByXYU7LaKAitqjSZc1Jnvu4iPf4", "6yeTJgXfKo8nKHBXLBzcGoGR8xFhqejVtHhQfj6EMw1R",
			"smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT", "ComputeBudget111111111111111111111111111111",
			"cTokenmWW8bLPjZEBAUgYy3zKxQZW6VKi7bqNFEVv3m", "GXtd2izAiMJPwMEjfgTRH3d7k9mjn4Jq3JrWFv9gySYy",
			"TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA", "SySTEM1eSU2p4BGQfQpimFEWWSC1XDFeun3Nqzz3rT7",
			"35hkDgaAKwMCaxRz2ocSZ6NaUrtKkyNqU6c4RV3tYJRh", "noopb9bkMVfRPU8AsbpTUg8AQkHtKwMYZiFUjNRtMmV",
			"HwXnGK3tPkkVY6P439H2p68AxpeuWXd5PcrAxFpbmfbA", "compr6CUsB5m2jS4Y3831ztGSTnDpnKJTKS95d64XVq",
			"11111111111111111111111111111111"}
		keys := keysOf(r[8])
		if len(keys) != len(want) {
			t.Fatalf("%d account keys, want %d", len(keys), len(want))
		}
		for i := range want {
			if keys[i] != b58(t, want[i]) {
				t.Errorf("account key %d: %s, want %s", i, base58.Encode([]byte(keys[i])), want[i])
			}
		}
		if progs := strings.Join(keysOf(r[9]), " "); !strings.HasPrefix(progs, "ComputeBudget111111111111111111111111111111 cTokenmWW8bLPjZEBAUgYy3zKxQZW6VKi7bqNFEVv3m TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA") {
			t.Errorf("program ids %s", progs)
		}
		if r[11] != string(testdata(t, photonTxs+"/"+mintSig+".json")) {
			t.Error("raw is not the file as read")
		}
	})

	t.Run("json transaction", func(t *testing.T) {
		var doc struct {
			Transaction struct {
				Message struct {
					AccountKeys []string `json:"accountKeys"`
				} `json:"message"`
			} `json:"transaction"`
		}
		if err := json.Unmarshal(testdata(t, dasTxs+"/"+dasLegacy+".json"), &doc); err != nil {
			t.Fatal(err)
		}
		r := one(t, s, `SELECT slot, block_time, fee, compute_units, account_keys FROM transactions FINAL WHERE signature = {sig:FixedString(64)}`,
			store.Params{"sig": b58(t, dasLegacy)})
		if r[0] != uint64(207236629) || r[1] != int64(0) || r[2] != uint64(0) || r[3] != nil {
			t.Errorf("row %v", r[:4])
		}
		keys := keysOf(r[4])
		if len(keys) != 16 || len(keys) != len(doc.Transaction.Message.AccountKeys) {
			t.Fatalf("%d keys", len(keys))
		}
		for i, k := range doc.Transaction.Message.AccountKeys {
			if keys[i] != b58(t, k) {
				t.Errorf("key %d differs", i)
			}
		}
	})

	t.Run("block", func(t *testing.T) {
		r := one(t, s, `SELECT parent_slot, blockhash, previous_blockhash, block_height, block_time, tx_count FROM blocks FINAL WHERE slot = 270893658`, nil)
		want := []any{uint64(270893657), "5VAKe1YDgfuJ2wsFEVtDAu9unRyvfDkB21Zn6Bfv9KW4", "9KfRY5iEqUTQfqoyUyDNefvCNANTohJvAXdLQPbfVeb4",
			uint64(259197775), int64(1704648198), uint32(57)}
		for i := range want {
			if r[i] != want[i] {
				t.Errorf("column %d: %v, want %v", i, r[i], want[i])
			}
		}
		r = one(t, s, `SELECT count(), countIf(is_vote), min(tx_index), max(tx_index), uniqExact(tx_index), any(block_time)
			FROM transactions FINAL WHERE slot = 270893658`, nil)
		if r[0] != uint64(57) || r[1] != uint64(11) || r[2] != uint32(0) || r[3] != uint32(56) || r[4] != uint64(57) || r[5] != int64(1704648198) {
			t.Errorf("block transactions %v", r)
		}
		r = one(t, s, `SELECT tx_index, fee, compute_units, startsWith(raw, '{"slot":270893658,"blockTime":1704648198,"transaction":')
			FROM transactions FINAL WHERE signature = {sig:FixedString(64)}`,
			store.Params{"sig": b58(t, "5JTc98rQHKdQJWaJQENGAJpDgbKjPuwQYFuzftHxbNdxeMiPZACSGJpVyWui1rH7FHvn42nzBRrW1V8PBDbNbs5u")})
		if r[0] != uint32(3) || r[1] != uint64(5000) || r[2] != uint64(54549) || r[3] != uint8(1) {
			t.Errorf("entry 3: %v", r)
		}
		// v0 entry with lookup tables: 36 loaded addresses follow the static keys.
		r = one(t, s, `SELECT length(account_keys), base58Encode(account_keys[-1]) FROM transactions FINAL WHERE slot = 443787702 AND tx_index = 4`, nil)
		if r[1] != "pytd2yyk641x7ak7mkaasSJVXh6YYZnC7wTmtgAyxPt" {
			t.Errorf("lookup entry: %v", r)
		}
	})

	t.Run("accounts", func(t *testing.T) {
		data, _ := base64.StdEncoding.DecodeString("AQAAAK0nyAzxxYdL9+KVyp1ohkFd8XAN7xqa4nDUJmpOhJmdABCl1OgAAAAKAQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA==")
		cases := []struct {
			pubkey, owner        string
			lamports, rent, slot uint64
			data                 []byte // nil: check the length only
			size                 int
		}{
			// A mint whose rent_epoch is u64::MAX, written as a decimal string.
			{rentMaxAcct, "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA", 1461600, math.MaxUint64, 352205456, data, 82},
			{"AhbbU3exDvvM9cBzHxEjpYt4sMfFsXuQ3FUXv9VPE4F7", "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA", 2039280, 0, 1, nil, 165},
		}
		for _, c := range cases {
			r := one(t, s, `SELECT owner, lamports, data, executable, rent_epoch, slot, write_version, version
				FROM accounts FINAL WHERE pubkey = {k:FixedString(32)}`, store.Params{"k": b58(t, c.pubkey)})
			if r[0] != b58(t, c.owner) || r[1] != c.lamports || r[3] != false || r[4] != c.rent || r[5] != c.slot || r[6] != uint64(0) {
				t.Errorf("%s: %v", c.pubkey, r[:2])
				t.Errorf("%s: %v", c.pubkey, r[3:7])
			}
			if v := r[7].(*big.Int); v.Cmp(new(big.Int).Lsh(new(big.Int).SetUint64(c.slot), 64)) != 0 {
				t.Errorf("%s: version %s", c.pubkey, v)
			}
			if c.data != nil && !bytes.Equal([]byte(r[2].(string)), c.data) {
				t.Errorf("%s: data %x", c.pubkey, r[2])
			}
			if len(r[2].(string)) != c.size {
				t.Errorf("%s: %d data bytes, want %d", c.pubkey, len(r[2].(string)), c.size)
			}
		}
		if n := one(t, s, `SELECT count() FROM accounts_by_owner FINAL WHERE owner = base58Decode('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA')`, nil)[0]; n != uint64(2) {
			t.Errorf("accounts_by_owner: %v", n)
		}
	})

	t.Run("dead letters", func(t *testing.T) {
		rows := query(t, s, `SELECT source, kind, key, slot, error, payload FROM dead_letters ORDER BY key`, nil)
		if len(rows) != 2 {
			t.Fatalf("%d dead letters", len(rows))
		}
		for i, want := range []struct{ file, payload, err string }{
			{"malformed.json", malformed, "decode JSON"},
			{"unknown.json", unknown, "unrecognised JSON"},
		} {
			r := rows[i]
			if r[0] != "files:"+dir || r[1] != "file" || !strings.HasSuffix(r[2].(string), want.file) || r[3] != uint64(0) ||
				!contains(r[4].(string), want.err) || r[5] != want.payload {
				t.Errorf("dead letter %d: %v", i, r)
			}
		}
	})
}
