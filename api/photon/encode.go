package photon

import (
	"encoding/base64"
	"strconv"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/internal/b58"
	"github.com/dasch-labs/dasch/query/compressed"
)

// Answers are appended straight into a byte slice: u64 values stay exact
// (discriminators exceed 2^53) and no reflection runs per account.

func appendKey(b []byte, k compressed.Key) []byte {
	b = append(b, '"')
	b = b58.Append(b, k[:])
	return append(b, '"')
}

// keyMemo remembers the base58 of the keys a list of accounts repeats
// (trees, queues, the owning program, the token owner, delegates), so a
// page of a thousand accounts encodes them once, not a thousand times:
// base58 was most of a page's encoding time. nil encodes every key.
type keyMemo struct {
	keys [keyMemoSize]compressed.Key
	enc  [keyMemoSize][]byte // quoted
	n    int
	next int
}

const keyMemoSize = 8

// key appends the quoted base58 of k.
func (m *keyMemo) key(b []byte, k *compressed.Key) []byte {
	if m == nil {
		return appendKey(b, *k)
	}
	for i := 0; i < m.n; i++ {
		if m.keys[i] == *k {
			return append(b, m.enc[i]...)
		}
	}
	start := len(b)
	b = appendKey(b, *k)
	i := m.next
	m.next = (m.next + 1) % keyMemoSize
	m.n = max(m.n, i+1)
	m.keys[i], m.enc[i] = *k, append(m.enc[i][:0], b[start:]...)
	return b
}

func (m *keyMemo) optKey(b []byte, k *compressed.Key) []byte {
	if k == nil {
		return append(b, "null"...)
	}
	return m.key(b, k)
}

func appendOptKey(b []byte, k *compressed.Key) []byte {
	if k == nil {
		return append(b, "null"...)
	}
	return appendKey(b, *k)
}

func appendBase58(b []byte, raw []byte) []byte {
	b = append(b, '"')
	b = b58.Append(b, raw)
	return append(b, '"')
}

func appendU64(b []byte, v uint64) []byte { return strconv.AppendUint(b, v, 10) }

func appendOptU64(b []byte, v *uint64) []byte {
	if v == nil {
		return append(b, "null"...)
	}
	return appendU64(b, *v)
}

func appendBase64(b []byte, raw []byte) []byte {
	b = append(b, '"')
	b = base64.StdEncoding.AppendEncode(b, raw)
	return append(b, '"')
}

// openContext starts {"context":{"slot":N},"value": and closeContext ends it.
func openContext(b []byte, slot uint64) []byte {
	b = append(b, `{"context":{"slot":`...)
	b = appendU64(b, slot)
	return append(b, `},"value":`...)
}

func closeContext(b []byte) json.RawMessage { return append(b, '}') }

// appendData writes an account's data object, or null.
func appendData(b []byte, d *compressed.AccountData) []byte {
	if d == nil {
		return append(b, "null"...)
	}
	b = append(b, `{"discriminator":`...)
	b = appendU64(b, d.Discriminator)
	b = append(b, `,"data":`...)
	b = appendBase64(b, d.Data)
	b = append(b, `,"dataHash":`...)
	b = appendKey(b, d.DataHash)
	return append(b, '}')
}

// appendAccountHead writes the members both account shapes start with.
func appendAccountHead(b []byte, a *compressed.Account, m *keyMemo) []byte {
	b = append(b, `{"hash":`...)
	b = appendKey(b, a.Hash)
	b = append(b, `,"address":`...)
	b = appendOptKey(b, a.Address)
	b = append(b, `,"data":`...)
	b = appendData(b, a.Data)
	b = append(b, `,"owner":`...)
	b = m.key(b, &a.Owner)
	b = append(b, `,"lamports":`...)
	return appendU64(b, a.Lamports)
}

// appendAccountV1 writes Photon's Account: the tree at top level.
func appendAccountV1(b []byte, a *compressed.Account, m *keyMemo) []byte {
	b = appendAccountHead(b, a, m)
	b = append(b, `,"tree":`...)
	b = m.key(b, &a.Tree)
	b = append(b, `,"leafIndex":`...)
	b = appendU64(b, a.LeafIndex)
	b = append(b, `,"seq":`...)
	b = appendOptU64(b, a.Seq)
	b = append(b, `,"slotCreated":`...)
	b = appendU64(b, a.SlotCreated)
	return append(b, '}')
}

// appendAccountV2 writes Photon's AccountV2: proveByIndex and a merkle
// context with the tree, its queue and type.
func appendAccountV2(b []byte, a *compressed.Account, m *keyMemo) []byte {
	b = appendAccountHead(b, a, m)
	b = append(b, `,"leafIndex":`...)
	b = appendU64(b, a.LeafIndex)
	b = append(b, `,"seq":`...)
	b = appendOptU64(b, a.Seq)
	b = append(b, `,"slotCreated":`...)
	b = appendU64(b, a.SlotCreated)
	b = append(b, `,"proveByIndex":`...)
	b = strconv.AppendBool(b, a.InOutputQueue)
	b = append(b, `,"merkleContext":{"treeType":`...)
	b = appendU64(b, uint64(a.TreeType))
	b = append(b, `,"tree":`...)
	b = m.key(b, &a.Tree)
	b = append(b, `,"queue":`...)
	b = m.key(b, &a.Queue)
	return append(b, `,"cpiContext":null,"nextTreeContext":null}}`...)
}

func appendAccount(b []byte, a *compressed.Account, v2 bool, m *keyMemo) []byte {
	if v2 {
		return appendAccountV2(b, a, m)
	}
	return appendAccountV1(b, a, m)
}

// tokenState names a token account state as Photon's AccountState does.
func tokenState(code uint8) string {
	if code == 1 {
		return "frozen"
	}
	return "initialized"
}

func appendTokenData(b []byte, a *compressed.Account, m *keyMemo) []byte {
	b = append(b, `{"mint":`...)
	b = appendKey(b, a.Mint)
	b = append(b, `,"owner":`...)
	b = m.key(b, &a.TokenOwner)
	b = append(b, `,"amount":`...)
	b = appendU64(b, a.Amount)
	b = append(b, `,"delegate":`...)
	b = m.optKey(b, a.Delegate)
	b = append(b, `,"state":"`...)
	b = append(b, tokenState(a.TokenState)...)
	b = append(b, `","tlv":`...)
	if a.TLV == nil {
		b = append(b, "null"...)
	} else {
		b = appendBase64(b, a.TLV)
	}
	return append(b, '}')
}

// appendTokenAccount writes {"account":…,"tokenData":…}.
func appendTokenAccount(b []byte, a *compressed.Account, v2 bool, m *keyMemo) []byte {
	b = append(b, `{"account":`...)
	b = appendAccount(b, a, v2, m)
	b = append(b, `,"tokenData":`...)
	b = appendTokenData(b, a, m)
	return append(b, '}')
}

// appendCursor writes the cursor member of a page: the cursor when the page
// is full (Photon returns one even when nothing follows), else null.
func appendCursor(b []byte, n int, limit uint64, cursor func() []byte) []byte {
	b = append(b, `"cursor":`...)
	if n == 0 || uint64(n) != limit {
		return append(b, "null"...)
	}
	return appendBase58(b, cursor())
}
