package token

import (
	"bytes"
	"fmt"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/internal/borsh"
)

// Program ids; exported through functions so callers cannot reassign them.
var (
	tokenProgram     = solana.MustParsePubkey("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA")
	token2022Program = solana.MustParsePubkey("TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb")
	nativeMint       = solana.MustParsePubkey("So11111111111111111111111111111111111111112")
)

// NativeMint is wrapped SOL's mint: lamports held as a token.
func NativeMint() solana.Pubkey { return nativeMint }

// TokenProgram is the SPL Token program id.
func TokenProgram() solana.Pubkey { return tokenProgram }

// Token2022Program is the SPL Token-2022 program id.
func Token2022Program() solana.Pubkey { return token2022Program }

// Sizes of the SPL Token base layouts. Token-2022 extends both past
// AccountLen, so its account-type byte sits at offset AccountLen for mints too.
const (
	MintLen     = 82
	AccountLen  = 165
	multisigLen = 355
)

// Token-2022 account-type byte values.
const (
	accountTypeMint    = 1
	accountTypeAccount = 2
)

// Token-2022 extension type ids used by the typed fields below.
const (
	ExtMintCloseAuthority = 3
	ExtPermanentDelegate  = 12
	ExtMetadataPointer    = 18
	ExtTokenMetadata      = 19
)

// Extension is one Token-2022 TLV entry, kept raw so unknown or not yet
// decoded extensions survive.
type Extension struct {
	Type uint16
	Data []byte
}

// MetadataPointer is the Token-2022 MetadataPointer extension.
type MetadataPointer struct {
	Authority       *solana.Pubkey
	MetadataAddress *solana.Pubkey
}

// KeyValue is one TokenMetadata additional_metadata entry; a slice keeps
// on-chain order, which a map would lose.
type KeyValue struct {
	Key   string
	Value string
}

// TokenMetadata is the Token-2022 TokenMetadata extension (SPL token-metadata interface).
type TokenMetadata struct {
	UpdateAuthority    *solana.Pubkey
	Mint               solana.Pubkey
	Name               string
	Symbol             string
	URI                string
	AdditionalMetadata []KeyValue
}

// Mint is an SPL Token or Token-2022 mint.
type Mint struct {
	Program         solana.Pubkey
	MintAuthority   *solana.Pubkey
	Supply          uint64
	Decimals        uint8
	IsInitialized   bool
	FreezeAuthority *solana.Pubkey

	// Token-2022 only. Extensions holds every TLV entry in order, including
	// the ones also decoded into the typed fields.
	Extensions         []Extension
	MetadataPointer    *MetadataPointer
	TokenMetadata      *TokenMetadata
	MintCloseAuthority *solana.Pubkey
	PermanentDelegate  *solana.Pubkey
}

// AccountState is the SPL token account state.
type AccountState uint8

// Token account states.
const (
	StateUninitialized AccountState = 0
	StateInitialized   AccountState = 1
	StateFrozen        AccountState = 2
)

// TokenAccount is an SPL Token or Token-2022 token account.
type TokenAccount struct {
	Program         solana.Pubkey
	Mint            solana.Pubkey
	Owner           solana.Pubkey
	Amount          uint64
	Delegate        *solana.Pubkey
	State           AccountState
	IsNative        *uint64 // rent-exempt reserve of a wrapped-SOL account
	DelegatedAmount uint64
	CloseAuthority  *solana.Pubkey
	Extensions      []Extension // Token-2022 only
}

// DecodeMint decodes a mint owned by the Token or Token-2022 program.
func DecodeMint(owner solana.Pubkey, data []byte) (*Mint, error) {
	if err := checkTokenLen(owner, data, MintLen, accountTypeMint); err != nil {
		return nil, fmt.Errorf("mint: %w", err)
	}
	r := borsh.NewReader(data[:MintLen], 0)
	m := &Mint{Program: owner}
	var err error
	if m.MintAuthority, err = r.COptionPubkey(); err != nil {
		return nil, fmt.Errorf("mint authority: %w", err)
	}
	if m.Supply, err = r.U64(); err != nil {
		return nil, err
	}
	if m.Decimals, err = r.U8(); err != nil {
		return nil, err
	}
	if m.IsInitialized, err = r.Bool(); err != nil {
		return nil, fmt.Errorf("mint is_initialized: %w", err)
	}
	if m.FreezeAuthority, err = r.COptionPubkey(); err != nil {
		return nil, fmt.Errorf("freeze authority: %w", err)
	}
	if len(data) == MintLen {
		return m, nil
	}
	// Padding between the mint base and the account-type byte must be zero;
	// anything else means this is not a Token-2022 mint layout.
	if !allZero(data[MintLen:AccountLen]) {
		return nil, fmt.Errorf("mint: non-zero padding before extensions")
	}
	if m.Extensions, err = parseTLV(data[AccountLen+1:]); err != nil {
		return nil, fmt.Errorf("mint: %w", err)
	}
	for _, e := range m.Extensions {
		switch e.Type {
		case ExtMetadataPointer:
			er := borsh.NewReader(e.Data, 0)
			p := &MetadataPointer{}
			if p.Authority, err = er.OptionalNonZeroPubkey(); err == nil {
				p.MetadataAddress, err = er.OptionalNonZeroPubkey()
			}
			if err != nil {
				return nil, fmt.Errorf("metadata pointer: %w", err)
			}
			m.MetadataPointer = p
		case ExtTokenMetadata:
			if m.TokenMetadata, err = decodeTokenMetadata(e.Data); err != nil {
				return nil, fmt.Errorf("token metadata: %w", err)
			}
		case ExtMintCloseAuthority:
			if m.MintCloseAuthority, err = borsh.NewReader(e.Data, 0).OptionalNonZeroPubkey(); err != nil {
				return nil, fmt.Errorf("mint close authority: %w", err)
			}
		case ExtPermanentDelegate:
			if m.PermanentDelegate, err = borsh.NewReader(e.Data, 0).OptionalNonZeroPubkey(); err != nil {
				return nil, fmt.Errorf("permanent delegate: %w", err)
			}
		}
	}
	return m, nil
}

func decodeTokenMetadata(b []byte) (*TokenMetadata, error) {
	r := borsh.NewReader(b, 0)
	t := &TokenMetadata{}
	var err error
	if t.UpdateAuthority, err = r.OptionalNonZeroPubkey(); err != nil {
		return nil, err
	}
	if t.Mint, err = r.Pubkey(); err != nil {
		return nil, err
	}
	if t.Name, err = r.Str(); err != nil {
		return nil, err
	}
	if t.Symbol, err = r.Str(); err != nil {
		return nil, err
	}
	if t.URI, err = r.Str(); err != nil {
		return nil, err
	}
	n, err := r.U32()
	if err != nil {
		return nil, err
	}
	// Each entry takes at least 8 bytes; checking first stops a forged
	// count from driving a huge allocation.
	if uint64(n)*8 > uint64(len(b)-r.Off) {
		return nil, fmt.Errorf("%w: %d additional metadata entries", borsh.ErrShort, n)
	}
	for range n {
		var kv KeyValue
		if kv.Key, err = r.Str(); err != nil {
			return nil, err
		}
		if kv.Value, err = r.Str(); err != nil {
			return nil, err
		}
		t.AdditionalMetadata = append(t.AdditionalMetadata, kv)
	}
	return t, nil
}

// DecodeTokenAccount decodes a token account owned by the Token or Token-2022 program.
func DecodeTokenAccount(owner solana.Pubkey, data []byte) (*TokenAccount, error) {
	if err := checkTokenLen(owner, data, AccountLen, accountTypeAccount); err != nil {
		return nil, fmt.Errorf("token account: %w", err)
	}
	r := borsh.NewReader(data[:AccountLen], 0)
	a := &TokenAccount{Program: owner}
	var err error
	if a.Mint, err = r.Pubkey(); err != nil {
		return nil, err
	}
	if a.Owner, err = r.Pubkey(); err != nil {
		return nil, err
	}
	if a.Amount, err = r.U64(); err != nil {
		return nil, err
	}
	if a.Delegate, err = r.COptionPubkey(); err != nil {
		return nil, fmt.Errorf("delegate: %w", err)
	}
	st, err := r.U8()
	if err != nil {
		return nil, err
	}
	if st > uint8(StateFrozen) {
		return nil, fmt.Errorf("token account: invalid state %d", st)
	}
	a.State = AccountState(st)
	if a.IsNative, err = r.COptionU64(); err != nil {
		return nil, fmt.Errorf("is_native: %w", err)
	}
	if a.DelegatedAmount, err = r.U64(); err != nil {
		return nil, err
	}
	if a.CloseAuthority, err = r.COptionPubkey(); err != nil {
		return nil, fmt.Errorf("close authority: %w", err)
	}
	if len(data) > AccountLen {
		if a.Extensions, err = parseTLV(data[AccountLen+1:]); err != nil {
			return nil, fmt.Errorf("token account: %w", err)
		}
	}
	return a, nil
}

// checkTokenLen enforces the layout rules of each program: legacy Token
// accounts have an exact size; Token-2022 ones may be longer, in which case
// the byte at AccountLen names the account type (and the multisig size is
// excluded because it is ambiguous).
func checkTokenLen(owner solana.Pubkey, data []byte, base int, accountType byte) error {
	switch owner {
	case tokenProgram:
		if len(data) != base {
			return fmt.Errorf("length %d, want %d", len(data), base)
		}
	case token2022Program:
		if len(data) == base {
			return nil
		}
		if len(data) <= AccountLen || len(data) == multisigLen {
			return fmt.Errorf("length %d is not a Token-2022 layout", len(data))
		}
		if data[AccountLen] != accountType {
			return fmt.Errorf("account type %d, want %d", data[AccountLen], accountType)
		}
	default:
		return fmt.Errorf("owner %s is not a token program", owner)
	}
	return nil
}

// parseTLV splits the Token-2022 extension area. A zero type marks the
// start of unused space, as in the program's own reader.
func parseTLV(b []byte) ([]Extension, error) {
	var out []Extension
	r := borsh.NewReader(b, 0)
	for len(b)-r.Off >= 4 {
		typ, _ := r.U16()
		n, _ := r.U16()
		if typ == 0 {
			break
		}
		v, err := r.Take(int(n))
		if err != nil {
			return nil, fmt.Errorf("extension %d: %w", typ, err)
		}
		out = append(out, Extension{Type: typ, Data: bytes.Clone(v)})
	}
	return out, nil
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}
