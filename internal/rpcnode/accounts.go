package rpcnode

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"fmt"
	"net/http"
	"slices"
	"strconv"

	"github.com/goccy/go-json"
	"github.com/klauspost/compress/zstd"
	"github.com/mr-tron/base58"

	"github.com/dasch-labs/dasch/chain/solana"
)

// Account is an account's state at the node.
type Account struct {
	Owner      solana.Pubkey
	Lamports   uint64
	Data       []byte
	Executable bool
}

// write is an account's state from slot on; acc nil is closed.
type write struct {
	slot uint64
	acc  *Account
}

// generator makes a program's accounts on request, n of them, so a
// bench lists millions without holding them.
type generator struct {
	n   int
	gen func(i int) (solana.Pubkey, Account)
}

// SetAccount makes pubkey hold acc from slot on; nil closes it (the node
// then answers null, as for an account that never was).
func (n *Node) SetAccount(slot uint64, pubkey solana.Pubkey, acc *Account) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.accounts == nil {
		n.accounts = map[solana.Pubkey][]write{}
	}
	ws := n.accounts[pubkey]
	i, found := slices.BinarySearchFunc(ws, slot, func(w write, s uint64) int { return cmpU64(w.slot, s) })
	if found {
		ws[i].acc = acc
	} else {
		ws = slices.Insert(ws, i, write{slot, acc})
	}
	n.accounts[pubkey] = ws
}

// Generate makes getProgramAccounts list count accounts of owner, made by
// gen on request in index order (accounts of SetAccount are not listed
// for that owner).
func (n *Node) Generate(owner solana.Pubkey, count int, gen func(i int) (solana.Pubkey, Account)) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.generated == nil {
		n.generated = map[solana.Pubkey]generator{}
	}
	n.generated[owner] = generator{count, gen}
}

// AnswerExactly makes account reads answer as of the slot they ask for
// (minContextSlot) instead of the newest slot, as a node never does but a
// test comparing states slot by slot wants.
func (n *Node) AnswerExactly() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.exact = true
}

// RefuseZstd makes the node refuse the base64+zstd encoding, as nodes
// built without it or behind some providers do.
func (n *Node) RefuseZstd() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.noZstd = true
}

// FailCall scripts answers the next calls of method give before real
// ones: the faults of Fail, a body starting with "{" sent as it is,
// "truncate" (the real answer cut in half) or "stall" (half of it, then
// nothing until the client gives up).
func (n *Node) FailCall(method string, fs ...Fault) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.callFault == nil {
		n.callFault = map[string][]Fault{}
	}
	n.callFault[method] = append(n.callFault[method], fs...)
}

func cmpU64(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// stateAt is pubkey's state as of slot, nil when closed or never set.
func (n *Node) stateAt(pubkey solana.Pubkey, slot uint64) *Account {
	var acc *Account
	for _, w := range n.accounts[pubkey] {
		if w.slot > slot {
			break
		}
		acc = w.acc
	}
	return acc
}

func isAccountMethod(m string) bool {
	return m == "getAccountInfo" || m == "getMultipleAccounts" || m == "getProgramAccounts" || m == "getProgramAccountsV2"
}

// accountConfig is the config object of the account methods.
type accountConfig struct {
	Encoding         string          `json:"encoding"`
	Commitment       string          `json:"commitment"`
	MinContextSlot   *uint64         `json:"minContextSlot"`
	WithContext      bool            `json:"withContext"`
	Filters          []filterJSON    `json:"filters"`
	DataSlice        json.RawMessage `json:"dataSlice"`
	Limit            *int            `json:"limit"`
	PaginationKey    *string         `json:"paginationKey"`
	ChangedSinceSlot *uint64         `json:"changedSinceSlot"`
}

type filterJSON struct {
	DataSize *uint64 `json:"dataSize"`
	Memcmp   *struct {
		Offset   uint64 `json:"offset"`
		Bytes    string `json:"bytes"`
		Encoding string `json:"encoding"`
	} `json:"memcmp"`
}

// filter is a parsed filter.
type filter struct {
	size   *uint64
	offset uint64
	bytes  []byte
}

func (f filter) match(data []byte) bool {
	if f.size != nil {
		return uint64(len(data)) == *f.size
	}
	return f.offset <= uint64(len(data)) && bytes.HasPrefix(data[f.offset:], f.bytes)
}

// maxV2Limit is the most accounts one getProgramAccountsV2 page holds.
const maxV2Limit = 10_000

// serveAccounts answers an account method, streaming the answer: a
// listing of millions of generated accounts is never held.
func (n *Node) serveAccounts(w http.ResponseWriter, hr *http.Request, req *request) {
	n.mu.Lock()
	n.calls[req.Method]++
	var scripted Fault
	if fs := n.callFault[req.Method]; len(fs) > 0 {
		scripted, n.callFault[req.Method] = fs[0], fs[1:]
	}
	tip, exact := n.tip, n.exact
	n.mu.Unlock()
	cut := scripted == "truncate" || scripted == "stall"
	if scripted != "" && !cut {
		if scripted[0] == '{' {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(scripted))
			return
		}
		fault(w, req.ID, scripted)
		return
	}
	var cfg accountConfig
	if len(req.Params) < 1 || len(req.Params) > 2 || (len(req.Params) == 2 && json.Unmarshal(req.Params[1], &cfg) != nil) {
		nodeError(w, req.ID, -32602, "Invalid params: want [target, config]")
		return
	}
	switch cfg.Encoding {
	case "base64":
	case "base64+zstd":
		n.mu.Lock()
		refuse := n.noZstd
		n.mu.Unlock()
		if refuse {
			nodeError(w, req.ID, -32602, "Invalid params: unsupported encoding: base64+zstd")
			return
		}
	default:
		nodeError(w, req.ID, -32602, "Invalid params: this node answers base64 and base64+zstd encodings only")
		return
	}
	if cfg.MinContextSlot != nil && *cfg.MinContextSlot > tip {
		nodeError(w, req.ID, -32016, "Minimum context slot has not been reached")
		return
	}
	at := tip
	if exact && cfg.MinContextSlot != nil {
		at = *cfg.MinContextSlot
	}
	var body bytes.Buffer
	out := bufio.NewWriterSize(w, 64<<10)
	dst := out
	if cut {
		dst = bufio.NewWriter(&body)
	}
	w.Header().Set("Content-Type", "application/json")
	var err error
	switch req.Method {
	case "getAccountInfo":
		err = n.one(dst, req, cfg, at)
	case "getMultipleAccounts":
		err = n.multiple(dst, req, cfg, at)
	default:
		err = n.program(dst, req, cfg, at, req.Method == "getProgramAccountsV2")
	}
	if err != nil {
		if pe, ok := err.(paramError); ok {
			nodeError(w, req.ID, -32602, string(pe))
			return
		}
		return // the client went away
	}
	_ = dst.Flush()
	if cut {
		_, _ = w.Write(body.Bytes()[:body.Len()/2])
		if scripted == "stall" {
			if f, ok := w.(http.Flusher); ok {
				f.Flush()
			}
			<-hr.Context().Done()
		}
		return
	}
	_ = out.Flush()
}

// paramError is an invalid request, answered as -32602 before anything
// is written.
type paramError string

func (e paramError) Error() string { return string(e) }

// one answers getAccountInfo: the account, or null.
func (n *Node) one(out *bufio.Writer, req *request, cfg accountConfig, at uint64) error {
	var key string
	if json.Unmarshal(req.Params[0], &key) != nil {
		return paramError("Invalid params: want a base58 pubkey")
	}
	pk, err := solana.ParsePubkey(key)
	if err != nil {
		return paramError("Invalid param: WrongSize")
	}
	n.mu.Lock()
	a := n.stateAt(pk, at)
	n.mu.Unlock()
	fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":{"context":{"apiVersion":"2.2.0","slot":%d},"value":`, req.ID, at)
	if a == nil {
		out.WriteString("null")
	} else if err := writeAccount(out, a, cfg.Encoding); err != nil {
		return err
	}
	_, err = out.WriteString(`}}`)
	return err
}

func (n *Node) multiple(out *bufio.Writer, req *request, cfg accountConfig, at uint64) error {
	var keys []string
	if json.Unmarshal(req.Params[0], &keys) != nil {
		return paramError("Invalid params: want an array of base58 pubkeys")
	}
	if len(keys) > 100 {
		return paramError("Too many inputs provided; max 100")
	}
	accs := make([]*Account, len(keys))
	n.mu.Lock()
	for i, k := range keys {
		pk, err := solana.ParsePubkey(k)
		if err != nil {
			n.mu.Unlock()
			return paramError("Invalid param: WrongSize")
		}
		accs[i] = n.stateAt(pk, at)
	}
	n.mu.Unlock()
	fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":{"context":{"apiVersion":"2.2.0","slot":%d},"value":[`, req.ID, at)
	for i, a := range accs {
		if i > 0 {
			out.WriteByte(',')
		}
		if a == nil {
			out.WriteString("null")
			continue
		}
		if err := writeAccount(out, a, cfg.Encoding); err != nil {
			return err
		}
	}
	_, err := out.WriteString(`]}}`)
	return err
}

// listed is one account of a listing.
type listed struct {
	key solana.Pubkey
	acc *Account
}

func (n *Node) program(out *bufio.Writer, req *request, cfg accountConfig, at uint64, v2 bool) error {
	var ownerStr string
	if json.Unmarshal(req.Params[0], &ownerStr) != nil {
		return paramError("Invalid params: want a base58 program id")
	}
	owner, err := solana.ParsePubkey(ownerStr)
	if err != nil {
		return paramError("Invalid param: WrongSize")
	}
	var filters []filter
	for _, f := range cfg.Filters {
		switch {
		case f.DataSize != nil && f.Memcmp == nil:
			filters = append(filters, filter{size: f.DataSize})
		case f.Memcmp != nil && f.DataSize == nil:
			var b []byte
			var err error
			if f.Memcmp.Encoding == "base64" {
				b, err = base64.StdEncoding.DecodeString(f.Memcmp.Bytes)
			} else {
				b, err = base58.Decode(f.Memcmp.Bytes)
			}
			if err != nil {
				return paramError("Invalid params: memcmp bytes")
			}
			filters = append(filters, filter{offset: f.Memcmp.Offset, bytes: b})
		default:
			return paramError("Invalid params: a filter is dataSize or memcmp")
		}
	}
	limit := -1
	if v2 {
		limit = 1000
		if cfg.Limit != nil {
			limit = *cfg.Limit
		}
		if limit < 1 || limit > maxV2Limit {
			return paramError(fmt.Sprintf("Invalid params: limit must be between 1 and %d", maxV2Limit))
		}
	}
	var next func(yield func(listed) bool) // the accounts in listing order, after the pagination key
	n.mu.Lock()
	g, generated := n.generated[owner]
	n.mu.Unlock()
	start := 0
	if cfg.PaginationKey != nil && *cfg.PaginationKey != "" {
		if generated {
			i, err := strconv.Atoi(*cfg.PaginationKey)
			if err != nil || i < 0 {
				return paramError("Invalid params: paginationKey")
			}
			start = i
		} else if _, err := solana.ParsePubkey(*cfg.PaginationKey); err != nil {
			return paramError("Invalid params: paginationKey")
		}
	}
	total := 0
	if generated {
		total = g.n
		next = func(yield func(listed) bool) {
			for i := start; i < g.n; i++ {
				k, a := g.gen(i)
				if !yield(listed{k, &a}) {
					return
				}
			}
		}
	} else {
		n.mu.Lock()
		var all []listed
		for k := range n.accounts {
			if a := n.stateAt(k, at); a != nil && a.Owner == owner {
				if cs := cfg.ChangedSinceSlot; cs != nil && n.lastWrite(k, at) <= *cs {
					continue
				}
				all = append(all, listed{k, a})
			}
		}
		n.mu.Unlock()
		slices.SortFunc(all, func(a, b listed) int { return bytes.Compare(a.key[:], b.key[:]) })
		total = len(all)
		if cfg.PaginationKey != nil && *cfg.PaginationKey != "" {
			after, _ := solana.ParsePubkey(*cfg.PaginationKey)
			i, found := slices.BinarySearchFunc(all, after, func(l listed, k solana.Pubkey) int { return bytes.Compare(l.key[:], k[:]) })
			if found {
				i++
			}
			all = all[i:]
		}
		next = func(yield func(listed) bool) {
			for _, l := range all {
				if !yield(l) {
					return
				}
			}
		}
	}
	fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":`, req.ID)
	if cfg.WithContext {
		fmt.Fprintf(out, `{"context":{"apiVersion":"2.2.0","slot":%d},"value":`, at)
	}
	if v2 {
		out.WriteString(`{"accounts":`)
	}
	out.WriteByte('[')
	// A page is limit accounts scanned, as Helius pages: filtered, it
	// may hold fewer, or none, before the last.
	count, scanned := 0, 0
	var last listed
	more := false
	for l := range next {
		if limit >= 0 && scanned == limit {
			more = true
			break
		}
		scanned++
		last = l
		if !matchAll(filters, l.acc.Data) {
			continue
		}
		if count > 0 {
			out.WriteByte(',')
		}
		out.WriteString(`{"pubkey":"` + l.key.String() + `","account":`)
		if err := writeAccount(out, l.acc, cfg.Encoding); err != nil {
			return err
		}
		out.WriteByte('}')
		count++
	}
	out.WriteByte(']')
	if v2 {
		key := "null"
		switch {
		case more && generated:
			key = strconv.Quote(strconv.Itoa(start + scanned))
		case more:
			key = strconv.Quote(last.key.String())
		}
		fmt.Fprintf(out, `,"paginationKey":%s,"totalResults":%d}`, key, total)
	}
	if cfg.WithContext {
		out.WriteByte('}')
	}
	_, err = out.WriteString(`}`)
	return err
}

// lastWrite is the slot of pubkey's newest write as of at.
func (n *Node) lastWrite(pubkey solana.Pubkey, at uint64) uint64 {
	var s uint64
	for _, w := range n.accounts[pubkey] {
		if w.slot <= at {
			s = w.slot
		}
	}
	return s
}

func matchAll(fs []filter, data []byte) bool {
	for _, f := range fs {
		if !f.match(data) {
			return false
		}
	}
	return true
}

// zstdEncoder is shared: EncodeAll may be called concurrently. Without
// entropy coding it costs little, so a listing's cost is the client's.
var zstdEncoder, _ = zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithNoEntropyCompression(true))

// writeAccount writes a's JSON as an RPC node answers it.
func writeAccount(out *bufio.Writer, a *Account, encoding string) error {
	data := a.Data
	if encoding == "base64+zstd" {
		data = zstdEncoder.EncodeAll(a.Data, make([]byte, 0, len(a.Data)+16))
	}
	b := make([]byte, 0, 160+base64.StdEncoding.EncodedLen(len(data)))
	b = append(b, `{"data":["`...)
	b = base64.StdEncoding.AppendEncode(b, data)
	b = append(b, `","`...)
	b = append(b, encoding...)
	b = append(b, `"],"executable":`...)
	b = strconv.AppendBool(b, a.Executable)
	b = append(b, `,"lamports":`...)
	b = strconv.AppendUint(b, a.Lamports, 10)
	b = append(b, `,"owner":"`...)
	b = append(b, a.Owner.String()...)
	b = append(b, `","rentEpoch":18446744073709551615,"space":`...)
	b = strconv.AppendInt(b, int64(len(a.Data)), 10)
	b = append(b, '}')
	_, err := out.Write(b)
	return err
}
