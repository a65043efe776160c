package token

import (
	"fmt"
	"math"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/internal/borsh"
)

// The remaining Token-2022 extension type ids, in the program's order
// (the ones decoded by DecodeMint are in token.go).
const (
	ExtTransferFeeConfig             = 1
	ExtTransferFeeAmount             = 2
	ExtConfidentialTransferMint      = 4
	ExtConfidentialTransferAccount   = 5
	ExtDefaultAccountState           = 6
	ExtImmutableOwner                = 7
	ExtMemoTransfer                  = 8
	ExtNonTransferable               = 9
	ExtInterestBearingConfig         = 10
	ExtCPIGuard                      = 11
	ExtNonTransferableAccount        = 13
	ExtTransferHook                  = 14
	ExtTransferHookAccount           = 15
	ExtConfidentialTransferFeeConfig = 16
	ExtConfidentialTransferFeeAmount = 17
	ExtGroupPointer                  = 20
	ExtTokenGroup                    = 21
	ExtGroupMemberPointer            = 22
	ExtTokenGroupMember              = 23
	ExtConfidentialMintBurn          = 24
	ExtScaledUIAmount                = 25
	ExtPausable                      = 26
	ExtPausableAccount               = 27
)

// Sizes of the zero-knowledge types the confidential extensions hold.
const (
	ElGamalPubkeyLen     = 32
	ElGamalCiphertextLen = 64
	AECiphertextLen      = 36
)

// TransferFee is one epoch's fee schedule.
type TransferFee struct {
	Epoch                  uint64
	MaximumFee             uint64
	TransferFeeBasisPoints uint16
}

// TransferFeeConfig is the mint's TransferFeeConfig extension.
type TransferFeeConfig struct {
	TransferFeeConfigAuthority *solana.Pubkey
	WithdrawWithheldAuthority  *solana.Pubkey
	WithheldAmount             uint64
	OlderTransferFee           TransferFee
	NewerTransferFee           TransferFee
}

// ConfidentialTransferMint is the mint's ConfidentialTransferMint extension.
type ConfidentialTransferMint struct {
	Authority              *solana.Pubkey
	AutoApproveNewAccounts bool
	// AuditorElGamalPubkey is nil when all zero (no auditor).
	AuditorElGamalPubkey *[ElGamalPubkeyLen]byte
}

// ConfidentialTransferFeeConfig is the mint's ConfidentialTransferFeeConfig extension.
type ConfidentialTransferFeeConfig struct {
	Authority                              *solana.Pubkey
	WithdrawWithheldAuthorityElGamalPubkey [ElGamalPubkeyLen]byte
	HarvestToMintEnabled                   bool
	WithheldAmount                         [ElGamalCiphertextLen]byte
}

// InterestBearingConfig is the mint's InterestBearingConfig extension;
// rates are basis points.
type InterestBearingConfig struct {
	RateAuthority           *solana.Pubkey
	InitializationTimestamp int64
	PreUpdateAverageRate    int16
	LastUpdateTimestamp     int64
	CurrentRate             int16
}

// TransferHook is the mint's TransferHook extension.
type TransferHook struct {
	Authority *solana.Pubkey
	ProgramID *solana.Pubkey
}

// Pointer is the GroupPointer or GroupMemberPointer extension: an
// authority and the account holding the group (member) data.
type Pointer struct {
	Authority *solana.Pubkey
	Address   *solana.Pubkey
}

// TokenGroup is the TokenGroup extension. Sizes were u32 in the first
// interface version and u64 since; both layouts are read.
type TokenGroup struct {
	UpdateAuthority *solana.Pubkey
	Mint            solana.Pubkey
	Size            uint64
	MaxSize         uint64
}

// TokenGroupMember is the TokenGroupMember extension.
type TokenGroupMember struct {
	Mint         solana.Pubkey
	Group        solana.Pubkey
	MemberNumber uint64
}

// ConfidentialMintBurn is the mint's ConfidentialMintBurn extension.
type ConfidentialMintBurn struct {
	ConfidentialSupply  [ElGamalCiphertextLen]byte
	DecryptableSupply   [AECiphertextLen]byte
	SupplyElGamalPubkey [ElGamalPubkeyLen]byte
	PendingBurn         [ElGamalCiphertextLen]byte
}

// ScaledUIAmountConfig is the mint's ScaledUiAmount extension.
type ScaledUIAmountConfig struct {
	Authority                       *solana.Pubkey
	Multiplier                      float64
	NewMultiplierEffectiveTimestamp int64
	NewMultiplier                   float64
}

// PausableConfig is the mint's Pausable extension.
type PausableConfig struct {
	Authority *solana.Pubkey
	Paused    bool
}

// MintExtensions holds every Token-2022 mint extension decoded; nil
// members are absent. Flags are true when the marker extension exists.
type MintExtensions struct {
	TransferFeeConfig             *TransferFeeConfig
	MintCloseAuthority            *MintCloseAuthorityExt
	ConfidentialTransferMint      *ConfidentialTransferMint
	DefaultAccountState           *AccountState
	NonTransferable               bool
	InterestBearingConfig         *InterestBearingConfig
	PermanentDelegate             *PermanentDelegateExt
	TransferHook                  *TransferHook
	ConfidentialTransferFeeConfig *ConfidentialTransferFeeConfig
	MetadataPointer               *MetadataPointer
	TokenMetadata                 *TokenMetadata
	GroupPointer                  *Pointer
	TokenGroup                    *TokenGroup
	GroupMemberPointer            *Pointer
	TokenGroupMember              *TokenGroupMember
	ConfidentialMintBurn          *ConfidentialMintBurn
	ScaledUIAmount                *ScaledUIAmountConfig
	Pausable                      *PausableConfig
	// Unknown keeps extension types this decoder does not know, in order.
	Unknown []Extension
}

// MintCloseAuthorityExt wraps the optional close authority so presence of
// the extension is distinct from an unset authority.
type MintCloseAuthorityExt struct{ CloseAuthority *solana.Pubkey }

// PermanentDelegateExt wraps the optional permanent delegate likewise.
type PermanentDelegateExt struct{ Delegate *solana.Pubkey }

// DecodeMintExtensions decodes every extension of a Token-2022 mint. An
// extension whose bytes do not fit its layout is an error naming it.
func DecodeMintExtensions(exts []Extension) (*MintExtensions, error) {
	out := &MintExtensions{}
	for _, e := range exts {
		if err := out.add(e); err != nil {
			return nil, fmt.Errorf("extension %d: %w", e.Type, err)
		}
	}
	return out, nil
}

func (m *MintExtensions) add(e Extension) error {
	var err error
	r := borsh.NewReader(e.Data, 0)
	switch e.Type {
	case ExtTransferFeeConfig:
		m.TransferFeeConfig, err = DecodeTransferFeeConfig(e.Data)
	case ExtMintCloseAuthority:
		var k *solana.Pubkey
		k, err = r.OptionalNonZeroPubkey()
		if err = exact(r, err); err == nil {
			m.MintCloseAuthority = &MintCloseAuthorityExt{CloseAuthority: k}
		}
	case ExtConfidentialTransferMint:
		m.ConfidentialTransferMint, err = DecodeConfidentialTransferMint(e.Data)
	case ExtDefaultAccountState:
		var s uint8
		s, err = r.U8()
		if err = exact(r, err); err == nil {
			st := AccountState(s)
			m.DefaultAccountState = &st
		}
	case ExtNonTransferable:
		m.NonTransferable = true
	case ExtInterestBearingConfig:
		m.InterestBearingConfig, err = DecodeInterestBearingConfig(e.Data)
	case ExtPermanentDelegate:
		var k *solana.Pubkey
		k, err = r.OptionalNonZeroPubkey()
		if err = exact(r, err); err == nil {
			m.PermanentDelegate = &PermanentDelegateExt{Delegate: k}
		}
	case ExtTransferHook:
		var p *Pointer
		if p, err = decodePointer(e.Data); err == nil {
			m.TransferHook = &TransferHook{Authority: p.Authority, ProgramID: p.Address}
		}
	case ExtConfidentialTransferFeeConfig:
		m.ConfidentialTransferFeeConfig, err = DecodeConfidentialTransferFeeConfig(e.Data)
	case ExtMetadataPointer:
		var p *Pointer
		if p, err = decodePointer(e.Data); err == nil {
			m.MetadataPointer = &MetadataPointer{Authority: p.Authority, MetadataAddress: p.Address}
		}
	case ExtTokenMetadata:
		m.TokenMetadata, err = decodeTokenMetadata(e.Data)
	case ExtGroupPointer:
		m.GroupPointer, err = decodePointer(e.Data)
	case ExtTokenGroup:
		m.TokenGroup, err = DecodeTokenGroup(e.Data)
	case ExtGroupMemberPointer:
		m.GroupMemberPointer, err = decodePointer(e.Data)
	case ExtTokenGroupMember:
		m.TokenGroupMember, err = DecodeTokenGroupMember(e.Data)
	case ExtConfidentialMintBurn:
		m.ConfidentialMintBurn, err = DecodeConfidentialMintBurn(e.Data)
	case ExtScaledUIAmount:
		m.ScaledUIAmount, err = DecodeScaledUIAmount(e.Data)
	case ExtPausable:
		m.Pausable, err = DecodePausable(e.Data)
	default:
		m.Unknown = append(m.Unknown, e)
	}
	return err
}

// exact fails unless the reader consumed all of b; Token-2022's fixed-size
// extensions have exactly their Pod size.
func exact(r *borsh.Reader, err error) error {
	if err != nil {
		return err
	}
	if r.Off != len(r.B) {
		return fmt.Errorf("%d trailing bytes", len(r.B)-r.Off)
	}
	return nil
}

func decodePointer(b []byte) (*Pointer, error) {
	r := borsh.NewReader(b, 0)
	p := &Pointer{}
	var err error
	if p.Authority, err = r.OptionalNonZeroPubkey(); err == nil {
		p.Address, err = r.OptionalNonZeroPubkey()
	}
	if err := exact(r, err); err != nil {
		return nil, err
	}
	return p, nil
}

func readTransferFee(r *borsh.Reader) (TransferFee, error) {
	var f TransferFee
	var err error
	if f.Epoch, err = r.U64(); err != nil {
		return f, err
	}
	if f.MaximumFee, err = r.U64(); err != nil {
		return f, err
	}
	f.TransferFeeBasisPoints, err = r.U16()
	return f, err
}

// DecodeTransferFeeConfig decodes the TransferFeeConfig extension (108 bytes).
func DecodeTransferFeeConfig(b []byte) (*TransferFeeConfig, error) {
	r := borsh.NewReader(b, 0)
	c := &TransferFeeConfig{}
	err := func() error {
		var err error
		if c.TransferFeeConfigAuthority, err = r.OptionalNonZeroPubkey(); err != nil {
			return err
		}
		if c.WithdrawWithheldAuthority, err = r.OptionalNonZeroPubkey(); err != nil {
			return err
		}
		if c.WithheldAmount, err = r.U64(); err != nil {
			return err
		}
		if c.OlderTransferFee, err = readTransferFee(r); err != nil {
			return err
		}
		c.NewerTransferFee, err = readTransferFee(r)
		return err
	}()
	if err := exact(r, err); err != nil {
		return nil, fmt.Errorf("transfer fee config: %w", err)
	}
	return c, nil
}

// podBool reads a Pod bool: any non-zero byte is true, as spl-pod reads it.
func podBool(r *borsh.Reader) (bool, error) {
	v, err := r.U8()
	return v != 0, err
}

// fixed fills dst (a fixed-size array's slice) from the reader.
func fixed(r *borsh.Reader, dst []byte) error {
	p, err := r.Take(len(dst))
	if err != nil {
		return err
	}
	copy(dst, p)
	return nil
}

// DecodeConfidentialTransferMint decodes the ConfidentialTransferMint extension (65 bytes).
func DecodeConfidentialTransferMint(b []byte) (*ConfidentialTransferMint, error) {
	r := borsh.NewReader(b, 0)
	c := &ConfidentialTransferMint{}
	err := func() error {
		var err error
		if c.Authority, err = r.OptionalNonZeroPubkey(); err != nil {
			return err
		}
		if c.AutoApproveNewAccounts, err = podBool(r); err != nil {
			return err
		}
		var k [ElGamalPubkeyLen]byte
		if err = fixed(r, k[:]); err != nil {
			return err
		}
		if k != ([ElGamalPubkeyLen]byte{}) {
			c.AuditorElGamalPubkey = &k
		}
		return nil
	}()
	if err := exact(r, err); err != nil {
		return nil, fmt.Errorf("confidential transfer mint: %w", err)
	}
	return c, nil
}

// DecodeConfidentialTransferFeeConfig decodes the ConfidentialTransferFeeConfig extension (129 bytes).
func DecodeConfidentialTransferFeeConfig(b []byte) (*ConfidentialTransferFeeConfig, error) {
	r := borsh.NewReader(b, 0)
	c := &ConfidentialTransferFeeConfig{}
	err := func() error {
		var err error
		if c.Authority, err = r.OptionalNonZeroPubkey(); err != nil {
			return err
		}
		if err = fixed(r, c.WithdrawWithheldAuthorityElGamalPubkey[:]); err != nil {
			return err
		}
		if c.HarvestToMintEnabled, err = podBool(r); err != nil {
			return err
		}
		return fixed(r, c.WithheldAmount[:])
	}()
	if err := exact(r, err); err != nil {
		return nil, fmt.Errorf("confidential transfer fee config: %w", err)
	}
	return c, nil
}

// DecodeInterestBearingConfig decodes the InterestBearingConfig extension (52 bytes).
func DecodeInterestBearingConfig(b []byte) (*InterestBearingConfig, error) {
	r := borsh.NewReader(b, 0)
	c := &InterestBearingConfig{}
	err := func() error {
		var err error
		if c.RateAuthority, err = r.OptionalNonZeroPubkey(); err != nil {
			return err
		}
		var u64 uint64
		var u16 uint16
		if u64, err = r.U64(); err != nil {
			return err
		}
		c.InitializationTimestamp = int64(u64)
		if u16, err = r.U16(); err != nil {
			return err
		}
		c.PreUpdateAverageRate = int16(u16)
		if u64, err = r.U64(); err != nil {
			return err
		}
		c.LastUpdateTimestamp = int64(u64)
		if u16, err = r.U16(); err != nil {
			return err
		}
		c.CurrentRate = int16(u16)
		return nil
	}()
	if err := exact(r, err); err != nil {
		return nil, fmt.Errorf("interest bearing config: %w", err)
	}
	return c, nil
}

// DecodeTokenGroup decodes the TokenGroup extension (72 bytes with u32
// sizes, 80 with u64).
func DecodeTokenGroup(b []byte) (*TokenGroup, error) {
	r := borsh.NewReader(b, 0)
	g := &TokenGroup{}
	err := func() error {
		var err error
		if g.UpdateAuthority, err = r.OptionalNonZeroPubkey(); err != nil {
			return err
		}
		if g.Mint, err = r.Pubkey(); err != nil {
			return err
		}
		if len(b) == 80 {
			if g.Size, err = r.U64(); err != nil {
				return err
			}
			g.MaxSize, err = r.U64()
			return err
		}
		var v uint32
		if v, err = r.U32(); err != nil {
			return err
		}
		g.Size = uint64(v)
		if v, err = r.U32(); err != nil {
			return err
		}
		g.MaxSize = uint64(v)
		return nil
	}()
	if err := exact(r, err); err != nil {
		return nil, fmt.Errorf("token group: %w", err)
	}
	return g, nil
}

// DecodeTokenGroupMember decodes the TokenGroupMember extension (68 bytes
// with a u32 member number, 72 with u64).
func DecodeTokenGroupMember(b []byte) (*TokenGroupMember, error) {
	r := borsh.NewReader(b, 0)
	g := &TokenGroupMember{}
	err := func() error {
		var err error
		if g.Mint, err = r.Pubkey(); err != nil {
			return err
		}
		if g.Group, err = r.Pubkey(); err != nil {
			return err
		}
		if len(b) == 72 {
			g.MemberNumber, err = r.U64()
			return err
		}
		var v uint32
		v, err = r.U32()
		g.MemberNumber = uint64(v)
		return err
	}()
	if err := exact(r, err); err != nil {
		return nil, fmt.Errorf("token group member: %w", err)
	}
	return g, nil
}

// DecodeConfidentialMintBurn decodes the ConfidentialMintBurn extension (196 bytes).
func DecodeConfidentialMintBurn(b []byte) (*ConfidentialMintBurn, error) {
	r := borsh.NewReader(b, 0)
	c := &ConfidentialMintBurn{}
	err := func() error {
		if err := fixed(r, c.ConfidentialSupply[:]); err != nil {
			return err
		}
		if err := fixed(r, c.DecryptableSupply[:]); err != nil {
			return err
		}
		if err := fixed(r, c.SupplyElGamalPubkey[:]); err != nil {
			return err
		}
		return fixed(r, c.PendingBurn[:])
	}()
	if err := exact(r, err); err != nil {
		return nil, fmt.Errorf("confidential mint burn: %w", err)
	}
	return c, nil
}

// DecodeScaledUIAmount decodes the ScaledUiAmount extension (56 bytes).
func DecodeScaledUIAmount(b []byte) (*ScaledUIAmountConfig, error) {
	r := borsh.NewReader(b, 0)
	c := &ScaledUIAmountConfig{}
	err := func() error {
		var err error
		if c.Authority, err = r.OptionalNonZeroPubkey(); err != nil {
			return err
		}
		var v uint64
		if v, err = r.U64(); err != nil {
			return err
		}
		c.Multiplier = math.Float64frombits(v)
		if v, err = r.U64(); err != nil {
			return err
		}
		c.NewMultiplierEffectiveTimestamp = int64(v)
		if v, err = r.U64(); err != nil {
			return err
		}
		c.NewMultiplier = math.Float64frombits(v)
		return nil
	}()
	if err := exact(r, err); err != nil {
		return nil, fmt.Errorf("scaled ui amount: %w", err)
	}
	return c, nil
}

// DecodePausable decodes the Pausable extension (33 bytes).
func DecodePausable(b []byte) (*PausableConfig, error) {
	r := borsh.NewReader(b, 0)
	c := &PausableConfig{}
	var err error
	if c.Authority, err = r.OptionalNonZeroPubkey(); err == nil {
		c.Paused, err = podBool(r)
	}
	if err := exact(r, err); err != nil {
		return nil, fmt.Errorf("pausable: %w", err)
	}
	return c, nil
}
