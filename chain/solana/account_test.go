package solana

import (
	"bytes"
	"encoding/base64"
	"math"
	"strings"
	"testing"
)

func TestParseAccount(t *testing.T) {
	data, _ := base64.StdEncoding.DecodeString("AQAAAK0nyAzxxYdL9+KVyp1ohkFd8XAN7xqa4nDUJmpOhJmdABCl1OgAAAAKAQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA==")
	cases := []struct {
		name string
		raw  []byte
		want Account
	}{
		{"rent epoch u64 max as string", fixture(t, dasRentMax), Account{
			Pubkey: mustKey(t, "wKocBVvHQoVaiwWoCs9JYSVye4YZRrv5Cucf7fDqnz1"), Owner: mustKey(t, "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"),
			Lamports: 1461600, Data: data, RentEpoch: math.MaxUint64, Slot: 352205456,
		}},
		{"rpc data form and string integers", []byte(`{"pubkey":"wKocBVvHQoVaiwWoCs9JYSVye4YZRrv5Cucf7fDqnz1","owner":"11111111111111111111111111111111",
			"lamports":"9007199254740993","executable":true,"rent_epoch":0,"data":["AQI=","base64"],"slot":"5","write_version":"18446744073709551614"}`), Account{
			Pubkey: mustKey(t, "wKocBVvHQoVaiwWoCs9JYSVye4YZRrv5Cucf7fDqnz1"), Lamports: 9007199254740993, Executable: true,
			Data: []byte{1, 2}, Slot: 5, WriteVersion: math.MaxUint64 - 1,
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, err := ParseAccount(c.raw)
			if err != nil {
				t.Fatal(err)
			}
			if a.Pubkey != c.want.Pubkey || a.Owner != c.want.Owner || a.Lamports != c.want.Lamports || a.Executable != c.want.Executable ||
				a.RentEpoch != c.want.RentEpoch || a.Slot != c.want.Slot || a.WriteVersion != c.want.WriteVersion || !bytes.Equal(a.Data, c.want.Data) {
				t.Errorf("got %+v\nwant %+v", *a, c.want)
			}
		})
	}
}

func TestParseAccountErrors(t *testing.T) {
	base := `{"pubkey":"wKocBVvHQoVaiwWoCs9JYSVye4YZRrv5Cucf7fDqnz1","owner":"11111111111111111111111111111111","lamports":1,"data":"","slot":1}`
	cases := []struct{ name, from, to, want string }{
		{"no slot", `,"slot":1`, ``, "no slot"},
		{"no lamports", `"lamports":1,`, ``, "no lamports"},
		{"negative lamports", `"lamports":1`, `"lamports":-1`, "unsigned"},
		{"rent epoch past u64", `"slot":1`, `"slot":1,"rent_epoch":"18446744073709551616"`, "unsigned"},
		{"short pubkey", `wKocBVvHQoVaiwWoCs9JYSVye4YZRrv5Cucf7fDqnz1`, `wKoc`, "pubkey"},
		{"bad owner", `"owner":"11111111111111111111111111111111"`, `"owner":""`, "owner"},
		{"bad data", `"data":""`, `"data":"@@"`, "data"},
		{"data encoding", `"data":""`, `"data":["","base58"]`, "encoding"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := strings.Replace(base, c.from, c.to, 1)
			if in == base {
				t.Fatal("replacement did not apply")
			}
			_, err := ParseAccount([]byte(in))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
		})
	}
}

func TestProbe(t *testing.T) {
	cases := []struct {
		name string
		raw  string
		want Shape
		slot int64 // -1: none
	}{
		{"block", `{"blockhash":"x","transactions":[{"a":1}],"parentSlot":1}`, ShapeBlock, -1},
		{"block with slot", `{"slot":9,"blockhash":"x","transactions":[]}`, ShapeBlock, 9},
		{"transaction", `{"slot":"12","transaction":["",""]}`, ShapeTx, 12},
		{"transaction without slot", `{"transaction":["",""]}`, ShapeUnknown, -1},
		{"account", `{"pubkey":"a","owner":"b","data":"","slot":3}`, ShapeAccount, 3},
		{"other object", `{"jsonrpc":"2.0"}`, ShapeUnknown, -1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, slot, err := Probe([]byte(c.raw))
			if err != nil || s != c.want || (slot == nil) != (c.slot < 0) || (slot != nil && int64(*slot) != c.slot) {
				t.Fatalf("got %v %v %v", s, slot, err)
			}
		})
	}
	for _, bad := range []string{`{`, `[1,2]`, `{"slot":-1,"transaction":1}`} {
		if _, _, err := Probe([]byte(bad)); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}
