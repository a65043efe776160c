package chserve

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"
)

func helloBytes(client, db, user, pass string, extra []byte) []byte {
	var b []byte
	str := func(s string) { b = binary.AppendUvarint(b, uint64(len(s))); b = append(b, s...) }
	b = binary.AppendUvarint(b, 0)
	str(client)
	b = binary.AppendUvarint(b, 2)
	b = binary.AppendUvarint(b, 50)
	b = binary.AppendUvarint(b, 54460)
	str(db)
	str(user)
	str(pass)
	return append(b, extra...)
}

func TestReadHello(t *testing.T) {
	long := strings.Repeat("x", maxHelloString+1)
	for _, tc := range []struct {
		name, user, err string
		in              []byte
	}{
		{"user", "dasch", "", helloBytes("clickhouse-go", "default", "dasch", "pw", []byte{1, 2, 3})},
		{"engine user", "default", "", helloBytes("c", "", "default", "", nil)},
		{"empty user", "", "", helloBytes("c", "", "", "", nil)},
		{"not a hello", "", "not a hello", []byte{2, 0}},
		{"cut short", "", "EOF", helloBytes("c", "db", "u", "p", nil)[:8]},
		{"long string", "", "string of", helloBytes(long, "db", "u", "p", nil)},
		{"endless varint", "", "longer than 10", bytes.Repeat([]byte{0x80}, 11)},
		{"empty", "", "EOF", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, user, err := readHello(bytes.NewReader(tc.in))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if user != tc.user {
				t.Errorf("user %q, want %q", user, tc.user)
			}
			// Every byte read travels on, in order.
			if !bytes.Equal(got, tc.in) {
				t.Errorf("passed on %x, want %x", got, tc.in)
			}
		})
	}
}

func FuzzReadHello(f *testing.F) {
	f.Add(helloBytes("clickhouse-go", "default", "dasch", "pw", []byte{1}))
	f.Add(helloBytes("c", "", "default", "", nil))
	f.Add([]byte{0, 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, in []byte) {
		got, _, err := readHello(bytes.NewReader(in))
		if !bytes.HasPrefix(in, got) {
			t.Fatalf("passed on %x, not a prefix of the input", got)
		}
		if err == nil && len(got) != len(in) {
			// A bytes.Reader is buffered whole within 512 bytes only.
			if len(in) <= 512 {
				t.Fatalf("passed on %d of %d bytes", len(got), len(in))
			}
		}
	})
}
