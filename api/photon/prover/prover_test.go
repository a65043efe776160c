package prover

import (
	"context"
	"encoding/hex"
	"errors"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/goccy/go-json"
)

func b32(n byte) [32]byte { var b [32]byte; b[31] = n; return b }

func path(n int) [][32]byte {
	p := make([][32]byte, n)
	for i := range p {
		p[i] = b32(byte(100 + i))
	}
	return p
}

// decimalHex is a decimal field element as the prover's 0x hex.
func decimalHex(t *testing.T, d string) string {
	v, ok := new(big.Int).SetString(d, 10)
	if !ok {
		t.Fatal(d)
	}
	var b [32]byte
	v.FillBytes(b[:])
	return "0x" + hex.EncodeToString(b[:])
}

func TestRequest(t *testing.T) {
	incl := Inclusion{Root: b32(1), Leaf: b32(2), PathIndex: 7, PathElements: path(26)}
	non := NonInclusion{Root: b32(3), Value: b32(4), PathIndex: 5, PathElements: path(26), LowerRange: b32(6), HigherRange: b32(8), NextIndex: 9}
	v2 := Inclusion{Root: b32(1), Leaf: b32(2), PathIndex: 7, PathElements: path(32)}
	for _, c := range []struct {
		name    string
		in      Inputs
		circuit string
		state   uint32
		addr    uint32
		hash    bool
	}{
		{"inclusion", Inputs{Inclusions: []Inclusion{incl, incl}}, "inclusion", 26, 0, false},
		{"non-inclusion", Inputs{NonInclusions: []NonInclusion{non}}, "non-inclusion", 0, 26, false},
		{"combined", Inputs{Inclusions: []Inclusion{incl}, NonInclusions: []NonInclusion{non}}, "combined", 26, 26, false},
		{"V2 state tree", Inputs{Inclusions: []Inclusion{v2}}, "inclusion", 32, 0, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			body, err := Request(c.in)
			if err != nil {
				t.Fatal(err)
			}
			var got map[string]any
			if err := json.Unmarshal(body, &got); err != nil {
				t.Fatal(err)
			}
			if got["circuitType"] != c.circuit || num(got["stateTreeHeight"]) != c.state || num(got["addressTreeHeight"]) != c.addr {
				t.Errorf("%s", body)
			}
			if _, has := got["publicInputHash"]; has != c.hash {
				t.Errorf("publicInputHash present %v, want %v: %s", has, c.hash, body)
			}
			if c.hash {
				h, _ := PublicInputHash(c.in)
				if got["publicInputHash"] != hex32(h) {
					t.Errorf("publicInputHash %v, want %s", got["publicInputHash"], hex32(h))
				}
			}
			if _, has := got["inputCompressedAccounts"]; has != (len(c.in.Inclusions) > 0) {
				t.Errorf("inputCompressedAccounts present %v: %s", has, body)
			}
			if _, has := got["newAddresses"]; has != (len(c.in.NonInclusions) > 0) {
				t.Errorf("newAddresses present %v: %s", has, body)
			}
		})
	}
	// One member of each kind, spelled out.
	body, _ := Request(Inputs{Inclusions: []Inclusion{{Root: b32(1), Leaf: b32(2), PathIndex: 7, PathElements: path(1)}},
		NonInclusions: []NonInclusion{{Root: b32(3), Value: b32(4), PathIndex: 5, PathElements: path(1), LowerRange: b32(6), HigherRange: b32(8), NextIndex: 9}}})
	z := strings.Repeat("0", 62)
	want := `{"circuitType":"combined","stateTreeHeight":1,"addressTreeHeight":1,` +
		`"inputCompressedAccounts":[{"root":"0x` + z + `01","pathIndex":7,"pathElements":["0x` + z + `64"],"leaf":"0x` + z + `02"}],` +
		`"newAddresses":[{"root":"0x` + z + `03","value":"0x` + z + `04","pathIndex":5,"pathElements":["0x` + z + `64"],` +
		`"leafLowerRangeValue":"0x` + z + `06","leafHigherRangeValue":"0x` + z + `08","nextIndex":9}]}`
	if string(body) != want {
		t.Errorf("request\n%s\nwant\n%s", body, want)
	}
	if _, err := Request(Inputs{}); err == nil {
		t.Error("empty inputs accepted")
	}
	if _, err := Request(Inputs{Inclusions: []Inclusion{incl, v2}}); err == nil {
		t.Error("state trees of two heights accepted")
	}
}

func num(v any) uint32 {
	f, _ := v.(float64)
	return uint32(f)
}

// generatorProof is a prover answer whose points are the curves'
// generators: A = C = (1, 2) in G1, B the G2 generator.
func generatorProof(t *testing.T) string {
	g2 := []string{
		"11559732032986387107991004021392285783925812861821192530917403151452391805634", // x.c1
		"10857046999023057135944570762232829481370756359578518086990519993285655852781", // x.c0
		"4082367875863433681332203403145435568316851327593401208105741076214120093531",  // y.c1
		"8495653923123431417604973247489272438418190587263600148770280649306958101930",  // y.c0
	}
	for i := range g2 {
		g2[i] = decimalHex(t, g2[i])
	}
	return `{"ar":["0x1","0x2"],"bs":[["` + g2[0] + `","` + g2[1] + `"],["` + g2[2] + `","` + g2[3] + `"]],"krs":["0x01","0x02"]}`
}

func TestParseProof(t *testing.T) {
	p, err := ParseProof([]byte(generatorProof(t)))
	if err != nil {
		t.Fatal(err)
	}
	// -A = (1, q-2): q-2 is the larger root, so the flag is set.
	wantA := b32(1)
	wantA[0] |= flagNegative
	if p.A != wantA {
		t.Errorf("a = %x, want %x", p.A, wantA)
	}
	if p.C != b32(1) {
		t.Errorf("c = %x, want x = 1 without the flag", p.C)
	}
	x1, _ := new(big.Int).SetString("11559732032986387107991004021392285783925812861821192530917403151452391805634", 10)
	x0, _ := new(big.Int).SetString("10857046999023057135944570762232829481370756359578518086990519993285655852781", 10)
	var wantB [64]byte
	x1.FillBytes(wantB[:32])
	x0.FillBytes(wantB[32:])
	if p.B != wantB {
		t.Errorf("b = %x, want x.c1 || x.c0 without the flag", p.B)
	}

	for _, bad := range []string{
		`{"ar":["0x1","0x3"],"bs":[["0x0","0x0"],["0x0","0x0"]],"krs":["0x1","0x2"]}`, // a off the curve
		`{"ar":["0x1"],"bs":[["0x0","0x0"],["0x0","0x0"]],"krs":["0x1","0x2"]}`,
		`{"ar":["0x1","0x2"],"bs":[["0x0","0x0"]],"krs":["0x1","0x2"]}`,
		`{"ar":["0x1","0x2"],"bs":[["0x0","0x0"],["0x0","0x0"]],"krs":["0x1","0xzz"]}`,
		`{"ar":["0x1","0x2"],"bs":[["0x0","0x0"],["0x0","0x0"]],"krs":["0x1","0x` + strings.Repeat("1", 65) + `"]}`,
		`{"ar":["0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd48","0x2"],"bs":[["0x0","0x0"],["0x0","0x0"]],"krs":["0x1","0x2"]}`,
		`<html>`, `{}`,
	} {
		if _, err := ParseProof([]byte(bad)); err == nil {
			t.Errorf("ParseProof(%s) accepted", bad)
		}
	}
}

// TestClient: a loopback stand-in of the prover checks the request it
// receives against the service's format and answers a proof.
func TestClient(t *testing.T) {
	answer := generatorProof(t)
	var got request
	var failed string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		switch {
		case r.Method != http.MethodPost || r.URL.Path != "/prove":
			failed = r.Method + " " + r.URL.Path
		case r.Header.Get("Content-Type") != "application/json" || r.Header.Get("Authorization") != "Bearer pk":
			failed = "headers " + r.Header.Get("Content-Type") + " " + r.Header.Get("Authorization")
		case json.Unmarshal(body, &got) != nil:
			failed = "body " + string(body)
		}
		if failed != "" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		_, _ = io.WriteString(w, answer)
	}))
	defer srv.Close()
	c, err := New(srv.URL+"/", Options{APIKey: "pk", Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	in := Inputs{Inclusions: []Inclusion{{Root: b32(1), Leaf: b32(2), PathIndex: 3, PathElements: path(26)}}}
	p, err := c.Prove(context.Background(), in)
	if err != nil || failed != "" {
		t.Fatalf("%v (stand-in: %s)", err, failed)
	}
	if got.CircuitType != "inclusion" || got.StateTreeHeight != 26 || len(got.Inclusions) != 1 || got.Inclusions[0].PathIndex != 3 ||
		len(got.Inclusions[0].PathElements) != 26 || got.Inclusions[0].Leaf != hex32(b32(2)) {
		t.Errorf("prover got %+v", got)
	}
	if p.C != b32(1) {
		t.Errorf("proof %x", p)
	}
	answer = `oops`
	if _, err := c.Prove(context.Background(), in); err == nil {
		t.Error("a bad answer accepted")
	}
	srv.Close()
	if _, err := c.Prove(context.Background(), in); !errors.Is(err, ErrUnavailable) {
		t.Errorf("closed prover: %v, want ErrUnavailable", err)
	}
	for _, u := range []string{"", "localhost:3001", "ftp://x"} {
		if _, err := New(u, Options{}); err == nil {
			t.Errorf("New(%q) accepted", u)
		}
	}
}

// FuzzParseProof: whatever the prover answers, ParseProof returns a proof
// or an error, and never panics.
func FuzzParseProof(f *testing.F) {
	f.Add([]byte(`{"ar":["0x1","0x2"],"bs":[["0x0","0x0"],["0x0","0x0"]],"krs":["0x1","0x2"]}`))
	f.Add([]byte(`{"ar":["0x0","0x0"],"bs":[["0x1","0x2"],["0x3","0x4"]],"krs":["0x0","0x0"]}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = ParseProof(b)
	})
}
