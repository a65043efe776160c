// Package solana decodes Solana JSON-RPC data (getTransaction and getBlock
// results in base64 or json encoding, and account snapshots) into canonical
// structs that do not depend on the input encoding.
package solana

import (
	"fmt"

	"github.com/mr-tron/base58"

	"github.com/dasch-labs/dasch/internal/b58"
)

// Pubkey is an account address.
type Pubkey [32]byte

// Signature is a transaction signature.
type Signature [64]byte

// Hash is a block hash.
type Hash [32]byte

// VoteProgram is Vote111111111111111111111111111111111111111; transactions
// invoking it are vote transactions. A function, so it cannot be reassigned.
func VoteProgram() Pubkey {
	return Pubkey{
		0x07, 0x61, 0x48, 0x1d, 0x35, 0x74, 0x74, 0xbb, 0x7c, 0x4d, 0x76, 0x24, 0xeb, 0xd3, 0xbd, 0xb3,
		0xd8, 0x35, 0x5e, 0x73, 0xd1, 0x10, 0x43, 0xfc, 0x0d, 0xa3, 0x53, 0x80, 0x00, 0x00, 0x00, 0x00,
	}
}

func (k Pubkey) String() string    { return b58.Encode(k[:]) }
func (s Signature) String() string { return b58.Encode(s[:]) }
func (h Hash) String() string      { return b58.Encode(h[:]) }

// ParsePubkey decodes a base58 address.
func ParsePubkey(s string) (Pubkey, error) {
	var k Pubkey
	return k, decodeFixed(k[:], s, "pubkey")
}

// MustParsePubkey is ParsePubkey for constant addresses, such as program
// ids: it panics on a malformed one.
func MustParsePubkey(s string) Pubkey {
	k, err := ParsePubkey(s)
	if err != nil {
		panic(err)
	}
	return k
}

// ParseSignature decodes a base58 signature.
func ParseSignature(s string) (Signature, error) {
	var sig Signature
	return sig, decodeFixed(sig[:], s, "signature")
}

// ParseHash decodes a base58 block hash.
func ParseHash(s string) (Hash, error) {
	var h Hash
	return h, decodeFixed(h[:], s, "hash")
}

func decodeFixed(dst []byte, s, what string) error {
	b, err := base58.Decode(s)
	if err != nil {
		return fmt.Errorf("%s %q: %w", what, s, err)
	}
	if len(b) != len(dst) {
		return fmt.Errorf("%s %q: %d bytes, want %d", what, s, len(b), len(dst))
	}
	copy(dst, b)
	return nil
}
