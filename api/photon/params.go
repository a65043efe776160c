package photon

import (
	"bytes"
	"strconv"

	"github.com/goccy/go-json"
	"github.com/mr-tron/base58"

	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

// maxBase58Len is the longest base58 text of 32 bytes; Photon refuses
// longer input before decoding it.
const maxBase58Len = 44

// maxBase58Input bounds the other base58 params (cursors, memcmp bytes)
// before decoding, whose cost grows with the square of the length: a
// 300 KB string would hold a core for minutes. Cursors are at most 64
// bytes and an account's data fits in a transaction (1232 bytes), which
// 2048 characters cover.
const maxBase58Input = 2048

// Pubkey is a public key param in base58 (Photon's SerializablePubkey).
type Pubkey compressed.Key

// UnmarshalJSON reproduces solana's ParsePubkeyError texts.
func (p *Pubkey) UnmarshalJSON(b []byte) error {
	k, err := decodeKey(b, "Invalid Base58 string")
	if err != nil {
		return err
	}
	*p = Pubkey(k)
	return nil
}

// Hash is a 32-byte hash param in base58 (Photon's Hash).
type Hash compressed.Key

// UnmarshalJSON reproduces Photon's ParseHashError texts.
func (h *Hash) UnmarshalJSON(b []byte) error {
	k, err := decodeKey(b, "Invalid hash input")
	if err != nil {
		return err
	}
	*h = Hash(k)
	return nil
}

func decodeKey(b []byte, invalid string) (compressed.Key, error) {
	var k compressed.Key
	s, ok := unquote(b)
	if !ok {
		return k, invalidType(b, "a base58 encoded string")
	}
	if len(s) > maxBase58Len {
		return k, jsonrpc.InvalidParams("String is the wrong size")
	}
	if base58Error(s) != "" {
		return k, jsonrpc.InvalidParams(invalid)
	}
	raw, err := base58.Decode(s)
	if err != nil {
		return k, jsonrpc.InvalidParams(invalid)
	}
	if len(raw) != len(k) {
		return k, jsonrpc.InvalidParams("String is the wrong size")
	}
	copy(k[:], raw)
	return k, nil
}

// Cursor is an opaque base58 cursor decoded to bytes (Photon's
// Base58String); its length is checked by the method, which knows it.
type Cursor []byte

// UnmarshalJSON decodes base58 with the bs58 crate's error texts.
func (c *Cursor) UnmarshalJSON(b []byte) error {
	s, ok := unquote(b)
	if !ok {
		return invalidType(b, "a base58 encoded string")
	}
	raw, err := decodeBase58(s)
	if err != nil {
		return err
	}
	*c = raw
	return nil
}

func decodeBase58(s string) ([]byte, error) {
	if len(s) > maxBase58Input {
		return nil, jsonrpc.InvalidParams("provided string is too long: " + strconv.Itoa(len(s)) + " characters, at most " + strconv.Itoa(maxBase58Input))
	}
	if msg := base58Error(s); msg != "" {
		return nil, jsonrpc.InvalidParams(msg)
	}
	if s == "" {
		return []byte{}, nil
	}
	raw, err := base58.Decode(s)
	if err != nil {
		return nil, jsonrpc.InvalidParams("provided string is not valid base58")
	}
	return raw, nil
}

// pageLimit is Photon's default and largest page.
const pageLimit = 1000

// Limit is a page size of at most pageLimit.
type Limit uint64

// UnmarshalJSON reproduces serde's messages for a bounded u64.
func (l *Limit) UnmarshalJSON(b []byte) error {
	n, err := parseU64(b)
	if err != nil {
		return err
	}
	if n > pageLimit {
		return jsonrpc.InvalidParams("invalid value: integer `" + strconv.FormatUint(n, 10) + "`, expected a value less than or equal to 1000")
	}
	*l = Limit(n)
	return nil
}

// parseU64 reads a JSON number as u64 with serde's messages.
func parseU64(b []byte) (uint64, error) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || (b[0] != '-' && (b[0] < '0' || b[0] > '9')) || bytes.ContainsAny(b, ".eE") {
		return 0, invalidType(b, "u64")
	}
	n, err := strconv.ParseUint(string(b), 10, 64)
	if err != nil {
		return 0, jsonrpc.InvalidParams("invalid value: " + unexpected(b) + ", expected u64")
	}
	return n, nil
}

// limitOr is the page size asked for, pageLimit when absent.
func limitOr(l *Limit) uint64 {
	if l == nil {
		return pageLimit
	}
	return uint64(*l)
}

// HashList is a list of hashes.
type HashList []compressed.Key

// UnmarshalJSON decodes every element as a Hash.
func (h *HashList) UnmarshalJSON(b []byte) error {
	keys, err := decodeKeyList(b, "Invalid hash input")
	*h = keys
	return err
}

// PubkeyList is a list of public keys.
type PubkeyList []compressed.Key

// UnmarshalJSON decodes every element as a Pubkey.
func (p *PubkeyList) UnmarshalJSON(b []byte) error {
	keys, err := decodeKeyList(b, "Invalid Base58 string")
	*p = keys
	return err
}

func decodeKeyList(b []byte, invalid string) ([]compressed.Key, error) {
	var elems []json.RawMessage
	if t := bytes.TrimSpace(b); len(t) == 0 || t[0] != '[' || json.Unmarshal(t, &elems) != nil {
		return nil, invalidType(b, "a sequence")
	}
	out := make([]compressed.Key, 0, len(elems))
	for _, e := range elems {
		k, err := decodeKey(e, invalid)
		if err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	return out, nil
}
