// Package prover asks a Light prover service (light-prover, the Gnark
// service Photon's --prover-url names) for a validity proof: it builds the
// service's request from a proof's inputs, posts it to URL/prove, and turns
// the Gnark proof it answers into the compressed {a, b, c} that Light's
// programs verify, as Photon does. The field and curve arithmetic is
// BN254's, on math/big: a proof is three points, not a hot path.
package prover

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/chain/light"
)

// Tree heights whose circuits take a public input hash (Light's batched
// V2 trees).
const (
	V2StateTreeHeight   = 32
	V2AddressTreeHeight = 40
)

// Inclusion proves an account's leaf in a state tree.
type Inclusion struct {
	Root, Leaf   [32]byte
	PathIndex    uint32
	PathElements [][32]byte
}

// NonInclusion proves an address absent from an address tree: its low
// element's range holds it.
type NonInclusion struct {
	Root, Value             [32]byte
	PathIndex               uint32
	PathElements            [][32]byte
	LowerRange, HigherRange [32]byte
	NextIndex               uint32
}

// Inputs are one proof's inclusions and non-inclusions.
type Inputs struct {
	Inclusions    []Inclusion
	NonInclusions []NonInclusion
}

// Proof is a compressed Groth16 proof: A and C compressed G1 points, B a
// compressed G2 point, big-endian as Light's verifier reads them.
type Proof struct {
	A [32]byte
	B [64]byte
	C [32]byte
}

// request is the prover's JSON body; members are left out as Photon
// leaves them out (zero heights, no hash, empty lists).
type request struct {
	CircuitType       string         `json:"circuitType"`
	StateTreeHeight   uint32         `json:"stateTreeHeight,omitempty"`
	AddressTreeHeight uint32         `json:"addressTreeHeight,omitempty"`
	PublicInputHash   string         `json:"publicInputHash,omitempty"`
	Inclusions        []inclusionHex `json:"inputCompressedAccounts,omitempty"`
	NonInclusions     []nonInclHex   `json:"newAddresses,omitempty"`
}

type inclusionHex struct {
	Root         string   `json:"root"`
	PathIndex    uint32   `json:"pathIndex"`
	PathElements []string `json:"pathElements"`
	Leaf         string   `json:"leaf"`
}

type nonInclHex struct {
	Root                 string   `json:"root"`
	Value                string   `json:"value"`
	PathIndex            uint32   `json:"pathIndex"`
	PathElements         []string `json:"pathElements"`
	LeafLowerRangeValue  string   `json:"leafLowerRangeValue"`
	LeafHigherRangeValue string   `json:"leafHigherRangeValue"`
	NextIndex            uint32   `json:"nextIndex"`
}

func hex32(b [32]byte) string { return "0x" + hex.EncodeToString(b[:]) }

func hexPath(p [][32]byte) []string {
	out := make([]string, len(p))
	for i, e := range p {
		out[i] = hex32(e)
	}
	return out
}

// Request is the prover's request body for in: the circuit (inclusion,
// non-inclusion or combined), the trees' heights (path lengths, one per
// kind), and for V2 heights the public input hash.
func Request(in Inputs) ([]byte, error) {
	var r request
	switch {
	case len(in.Inclusions) > 0 && len(in.NonInclusions) > 0:
		r.CircuitType = "combined"
	case len(in.Inclusions) > 0:
		r.CircuitType = "inclusion"
	case len(in.NonInclusions) > 0:
		r.CircuitType = "non-inclusion"
	default:
		return nil, errors.New("prover: no inputs to prove")
	}
	for i, a := range in.Inclusions {
		if i > 0 && len(a.PathElements) != int(r.StateTreeHeight) {
			return nil, errors.New("prover: state trees of different heights")
		}
		r.StateTreeHeight = uint32(len(a.PathElements))
		r.Inclusions = append(r.Inclusions, inclusionHex{hex32(a.Root), a.PathIndex, hexPath(a.PathElements), hex32(a.Leaf)})
	}
	for i, a := range in.NonInclusions {
		if i > 0 && len(a.PathElements) != int(r.AddressTreeHeight) {
			return nil, errors.New("prover: address trees of different heights")
		}
		r.AddressTreeHeight = uint32(len(a.PathElements))
		r.NonInclusions = append(r.NonInclusions, nonInclHex{hex32(a.Root), hex32(a.Value), a.PathIndex, hexPath(a.PathElements),
			hex32(a.LowerRange), hex32(a.HigherRange), a.NextIndex})
	}
	if r.StateTreeHeight == V2StateTreeHeight || r.AddressTreeHeight == V2AddressTreeHeight {
		h, err := PublicInputHash(in)
		if err != nil {
			return nil, err
		}
		r.PublicInputHash = hex32(h)
	}
	return json.Marshal(r)
}

// PublicInputHash is a V2 circuit's public input: the chain of inclusion
// roots and leaves, the chain of non-inclusion roots and addresses, and
// when both are there the chain of the two.
func PublicInputHash(in Inputs) ([32]byte, error) {
	var roots, leaves []light.Hash
	for _, a := range in.Inclusions {
		roots, leaves = append(roots, a.Root), append(leaves, a.Leaf)
	}
	incl, err := light.TwoInputsHashChain(roots, leaves)
	if err != nil {
		return [32]byte{}, fmt.Errorf("prover: public input hash: %w", err)
	}
	roots, leaves = roots[:0], leaves[:0]
	for _, a := range in.NonInclusions {
		roots, leaves = append(roots, a.Root), append(leaves, a.Value)
	}
	nonIncl, err := light.TwoInputsHashChain(roots, leaves)
	if err != nil {
		return [32]byte{}, fmt.Errorf("prover: public input hash: %w", err)
	}
	var zero light.Hash
	switch {
	case incl != zero && nonIncl != zero:
		h, err := light.TwoInputsHashChain([]light.Hash{incl}, []light.Hash{nonIncl})
		if err != nil {
			return [32]byte{}, fmt.Errorf("prover: public input hash: %w", err)
		}
		return h, nil
	case nonIncl != zero:
		return nonIncl, nil
	case incl != zero:
		return incl, nil
	}
	return [32]byte{}, errors.New("prover: no inputs to prove")
}

// gnarkProof is the prover's answer: the Groth16 points as hex
// coordinates.
type gnarkProof struct {
	Ar  []string   `json:"ar"`
	Bs  [][]string `json:"bs"`
	Krs []string   `json:"krs"`
}

// ParseProof turns the prover's answer into a compressed proof: A is
// negated (the verifier checks e(-A, B) ...), then each point is
// compressed. Anything that is not points of the curve is refused.
func ParseProof(body []byte) (Proof, error) {
	var g gnarkProof
	if err := json.Unmarshal(body, &g); err != nil {
		return Proof{}, fmt.Errorf("prover answer: %w", err)
	}
	if len(g.Ar) != 2 || len(g.Krs) != 2 || len(g.Bs) != 2 || len(g.Bs[0]) != 2 || len(g.Bs[1]) != 2 {
		return Proof{}, errors.New("prover answer: want ar[2], bs[2][2] and krs[2]")
	}
	coords := func(hs ...string) ([]byte, error) {
		var out []byte
		for _, h := range hs {
			b, err := coordinate(h)
			if err != nil {
				return nil, err
			}
			out = append(out, b[:]...)
		}
		return out, nil
	}
	a, err := coords(g.Ar[0], g.Ar[1])
	if err != nil {
		return Proof{}, err
	}
	b, err := coords(g.Bs[0][0], g.Bs[0][1], g.Bs[1][0], g.Bs[1][1])
	if err != nil {
		return Proof{}, err
	}
	c, err := coords(g.Krs[0], g.Krs[1])
	if err != nil {
		return Proof{}, err
	}
	var p Proof
	na, err := negateG1([64]byte(a))
	if err != nil {
		return Proof{}, fmt.Errorf("prover answer: a: %w", err)
	}
	if p.A, err = compressG1(na); err != nil {
		return Proof{}, fmt.Errorf("prover answer: a: %w", err)
	}
	if p.B, err = compressG2([128]byte(b)); err != nil {
		return Proof{}, fmt.Errorf("prover answer: b: %w", err)
	}
	if p.C, err = compressG1([64]byte(c)); err != nil {
		return Proof{}, fmt.Errorf("prover answer: c: %w", err)
	}
	return p, nil
}

// coordinate reads one hex field element, "0x" optional, left-padded to
// 32 bytes as Photon reads them.
func coordinate(h string) ([32]byte, error) {
	s := strings.TrimPrefix(h, "0x")
	if len(s) > 64 {
		return [32]byte{}, fmt.Errorf("prover answer: coordinate of %d hex digits", len(s))
	}
	s = strings.Repeat("0", 64-len(s)) + s
	var out [32]byte
	if _, err := hex.Decode(out[:], []byte(s)); err != nil {
		return [32]byte{}, errors.New("prover answer: a coordinate is not hex")
	}
	return out, nil
}

// Options configure a Client.
type Options struct {
	// Timeout bounds one proof, the prover's work included. Default 60s.
	Timeout time.Duration
	// APIKey, when set, is sent as a bearer token, as Photon's
	// --prover-api-key.
	APIKey string
	Client *http.Client
}

// Client posts proof requests to one prover.
type Client struct {
	url  string
	key  string
	http *http.Client
}

// New returns a client of the prover at base (http or https; requests go
// to base/prove).
func New(base string, opts Options) (*Client, error) {
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("prover: %q is not an http(s) URL", base)
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 60 * time.Second
	}
	c := opts.Client
	if c == nil {
		c = &http.Client{}
	}
	c2 := *c
	c2.Timeout = opts.Timeout
	return &Client{url: strings.TrimSuffix(base, "/") + "/prove", key: opts.APIKey, http: &c2}, nil
}

// maxAnswer bounds the prover's answer: a proof is well under a kilobyte.
const maxAnswer = 64 << 10

// ErrUnavailable wraps failures to get an answer from the prover.
var ErrUnavailable = errors.New("prover unavailable")

// Prove asks the prover for in's proof.
func (c *Client) Prove(ctx context.Context, in Inputs) (Proof, error) {
	body, err := Request(in)
	if err != nil {
		return Proof{}, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return Proof{}, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	req.Header.Set("Content-Type", "application/json")
	if c.key != "" {
		req.Header.Set("Authorization", "Bearer "+c.key)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return Proof{}, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer+1))
	if err != nil {
		return Proof{}, fmt.Errorf("%w: reading the answer: %v", ErrUnavailable, err)
	}
	if resp.StatusCode != http.StatusOK {
		return Proof{}, fmt.Errorf("%w: HTTP %s: %s", ErrUnavailable, strconv.Itoa(resp.StatusCode), clip(raw))
	}
	if len(raw) > maxAnswer {
		return Proof{}, errors.New("prover answer: too large")
	}
	return ParseProof(raw)
}

// clip is the start of a prover's error body, for the message.
func clip(b []byte) string {
	const n = 200
	s := strings.ToValidUTF8(string(b), "?")
	if len(s) > n {
		s = s[:n] + "…"
	}
	return strings.TrimSpace(s)
}
