package light

import (
	"encoding/binary"
	"fmt"

	"github.com/dasch-labs/dasch/chain/solana"
)

// Discriminators of compressed token account data per token data version,
// as the little-endian u64 the API serves (bytes [2 0 0 0 0 0 0 0],
// [0 0 0 0 0 0 0 3] and [0 0 0 0 0 0 0 4]).
const (
	TokenDiscriminatorV1 uint64 = 2
	TokenDiscriminatorV2 uint64 = 3 << 56
	TokenDiscriminatorV3 uint64 = 4 << 56
)

// TokenState is the state of a compressed token account.
type TokenState uint8

const (
	TokenInitialized TokenState = 0
	TokenFrozen      TokenState = 1
)

func (s TokenState) String() string {
	if s == TokenFrozen {
		return "frozen"
	}
	return "initialized"
}

// TokenData is the data of a compressed token account.
type TokenData struct {
	Mint     solana.Pubkey
	Owner    solana.Pubkey
	Amount   uint64
	Delegate *solana.Pubkey
	State    TokenState
	// TLV holds the extension bytes after the Some tag, kept raw (the API
	// serves them as base64); nil when absent.
	TLV []byte
}

// IsTokenDiscriminator reports whether disc marks compressed token data.
func IsTokenDiscriminator(disc [8]byte) bool {
	d := discriminator(disc[:])
	return d == TokenDiscriminatorV1 || d == TokenDiscriminatorV2 || d == TokenDiscriminatorV3
}

// DecodeTokenData decodes the data of a compressed account owned by the
// compressed-token program (the caller checks the owner). ok is false, with
// no error, when disc is not a token discriminator.
//
// The TLV tail is read leniently, as Photon does: a missing or zero tag, a
// Some tag with nothing after it, or an unknown tag all mean no TLV.
func DecodeTokenData(disc [8]byte, data []byte) (td *TokenData, ok bool, err error) {
	if !IsTokenDiscriminator(disc) {
		return nil, false, nil
	}
	r := newReader(data)
	td = &TokenData{}
	if td.Mint, err = r.pubkey("token mint"); err != nil {
		return nil, true, fmt.Errorf("token data: %w", err)
	}
	if td.Owner, err = r.pubkey("token owner"); err != nil {
		return nil, true, fmt.Errorf("token data: %w", err)
	}
	if td.Amount, err = r.u64("token amount"); err != nil {
		return nil, true, fmt.Errorf("token data: %w", err)
	}
	d, err := r.optArray32("token delegate")
	if err != nil {
		return nil, true, fmt.Errorf("token data: %w", err)
	}
	if d != nil {
		k := solana.Pubkey(*d)
		td.Delegate = &k
	}
	state, err := r.u8("token state")
	if err != nil {
		return nil, true, fmt.Errorf("token data: %w", err)
	}
	if state > uint8(TokenFrozen) {
		return nil, true, fmt.Errorf("token data: invalid account state %d", state)
	}
	td.State = TokenState(state)
	if rest := r.rest(); len(rest) > 1 && rest[0] == 1 {
		td.TLV = append([]byte{}, rest[1:]...)
	}
	return td, true, nil
}

// TokenDataMaxLen is the longest canonical token data without TLV: mint,
// owner, amount, a present delegate, the state and the TLV tag.
const TokenDataMaxLen = 32 + 32 + 8 + 1 + 32 + 1 + 1

// AppendTokenData appends the canonical borsh encoding of token data to
// dst: mint, owner, amount (u64 LE), the delegate option, the state and
// the TLV option (tag 0 when there is none). DecodeTokenData also accepts
// encodings that differ from it (no TLV tag, a Some tag with nothing
// after it, trailing bytes); the store keeps those whole.
func AppendTokenData(dst []byte, mint, owner *[32]byte, amount uint64, delegate *[32]byte, state uint8, tlv []byte) []byte {
	dst = append(dst, mint[:]...)
	dst = append(dst, owner[:]...)
	dst = binary.LittleEndian.AppendUint64(dst, amount)
	if delegate != nil {
		dst = append(dst, 1)
		dst = append(dst, delegate[:]...)
	} else {
		dst = append(dst, 0)
	}
	dst = append(dst, state)
	if tlv == nil {
		return append(dst, 0)
	}
	dst = append(dst, 1)
	return append(dst, tlv...)
}

// IsCanonicalTokenData reports whether data is exactly the canonical
// encoding of td (AppendTokenData), so that td alone gives it back. The
// encoding goes to a stack buffer unless td carries TLV bytes.
func IsCanonicalTokenData(td *TokenData, data []byte) bool {
	var buf [TokenDataMaxLen]byte
	enc := AppendTokenData(buf[:0], (*[32]byte)(&td.Mint), (*[32]byte)(&td.Owner), td.Amount, (*[32]byte)(td.Delegate),
		uint8(td.State), td.TLV)
	return string(enc) == string(data)
}
