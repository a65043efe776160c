package soakbench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
)

// hostile sends the barrage: each request one of kinds, seeded.
type hostile struct {
	w *world
	r *rand.Rand
	// bigBatch is 100 getAssetBatch calls of 1,000 ids each; huge a body
	// past the server's 10 MiB cap. Both are built once.
	bigBatch, huge []byte
}

var methodNames = []string{"getAsset", "getAssetBatch", "getAssetsByOwner", "searchAssets", "getAssetProof",
	"getCompressedAccount", "getCompressedAccountsByOwner", "getCompressedTokenAccountsByOwner",
	"getMultipleCompressedAccountProofs", "getValidityProof", "getSignaturesForAsset", "getTokenAccounts",
	"getLatestCompressionSignatures", "getCompressionSignaturesForOwner", "getIndexerSlot", "nope"}

// payloads are the barrage's two large bodies, built once a run.
type payloads struct{ bigBatch, huge []byte }

func newPayloads(w *world) payloads {
	var b strings.Builder
	b.WriteByte('[')
	for c := range 100 {
		if c > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%d,"method":"getAssetBatch","params":{"ids":[`, c)
		for i := range 1000 {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`"` + w.assets[i%len(w.assets)] + `"`)
		}
		b.WriteString(`]}}`)
	}
	b.WriteByte(']')
	huge := bytes.Repeat([]byte(" "), 11<<20)
	copy(huge, `{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot"}`)
	return payloads{bigBatch: []byte(b.String()), huge: huge}
}

func newHostile(w *world, p payloads, r *rand.Rand) *hostile {
	return &hostile{w: w, r: r, bigBatch: p.bigBatch, huge: p.huge}
}

// send sends one hostile request and classifies its answer: status 0
// when none came; internal when the server answered -32603 or HTTP 500.
func (h *hostile) send(ctx context.Context, hc *http.Client, base string) (kind string, status int, internal bool) {
	key := h.w.hostileKey
	var body []byte
	switch n := h.r.IntN(100); {
	case n < 15:
		kind, body = "random bytes", h.bytes(1+h.r.IntN(4096))
	case n < 25:
		kind = "truncated"
		full := legitRequest(h.r, h.w)
		body = full[:h.r.IntN(len(full))]
	case n < 30:
		kind, body = "deep nesting", []byte(strings.Repeat("[", 100_000)+strings.Repeat("]", 100_000))
	case n < 33:
		kind, body = "oversized batch", h.bigBatch
	case n < 34:
		kind, body = "body over the cap", h.huge
	case n < 49:
		kind, key, body = "unknown key", string(h.bytesOf("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz", 32+h.r.IntN(12))), legitRequest(h.r, h.w)
	case n < 59:
		kind, key, body = "no key", "", legitRequest(h.r, h.w)
	case n < 64:
		kind, body = "batch of wrong calls", h.wrongBatch()
	default:
		kind, body = "wrong params", h.wrongParams()
	}
	url := base + "/"
	if key != "" {
		url += "?api-key=" + key
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return kind, 0, false
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return kind, 0, false
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	return kind, resp.StatusCode, resp.StatusCode == http.StatusInternalServerError || bytes.Contains(b, []byte(`-32603`))
}

func (h *hostile) bytes(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(h.r.UintN(256))
	}
	return b
}

func (h *hostile) bytesOf(alphabet string, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[h.r.IntN(len(alphabet))]
	}
	return b
}

var wrongValues = []string{`null`, `-1`, `1e400`, `18446744073709551616`, `"0OIl"`, `""`, `[]`, `{}`, `[null]`,
	`"` + strings.Repeat("z", 3000) + `"`, `{"id":{"id":{"id":[]}}}`, `true`, `1.5`}

var fieldNames = []string{"id", "ids", "ownerAddress", "owner", "hash", "hashes", "address", "limit", "page", "cursor",
	"before", "after", "sortBy", "displayOptions", "grouping", "interface", "mint", "signature"}

// wrongParams is a call of a random method with fields of wrong values.
func (h *hostile) wrongParams() []byte {
	var b strings.Builder
	b.WriteString(`{"jsonrpc":"2.0","id":1,"method":"` + methodNames[h.r.IntN(len(methodNames))] + `","params":{`)
	for i := range 1 + h.r.IntN(4) {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"` + fieldNames[h.r.IntN(len(fieldNames))] + `":` + wrongValues[h.r.IntN(len(wrongValues))])
	}
	b.WriteString(`}}`)
	return []byte(b.String())
}

// wrongBatch is a batch of up to 100 wrong calls.
func (h *hostile) wrongBatch() []byte {
	var b bytes.Buffer
	b.WriteByte('[')
	for i := range 1 + h.r.IntN(100) {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(h.wrongParams())
	}
	b.WriteByte(']')
	return b.Bytes()
}
