package asset

import (
	"encoding/base64"
	"fmt"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/chain/token"
	"github.com/dasch-labs/dasch/internal/b58"
)

// The mint_extensions member mirrors the reference's stored extension
// JSON: snake_case extension and field names, optional keys as null,
// Pod integers as numbers, ElGamal keys and ciphertexts as base58 (the
// auditor key as base64, as its Pod type displays), and top-level
// extensions that are absent left out. The pointers show only their
// address, as the reference stores them.
type mintExtensionsJSON struct {
	DefaultAccountState           *defaultAccountStateJSON `json:"default_account_state,omitempty"`
	ConfidentialTransferMint      *ctMintJSON              `json:"confidential_transfer_mint,omitempty"`
	ConfidentialTransferFeeConfig *ctFeeConfigJSON         `json:"confidential_transfer_fee_config,omitempty"`
	InterestBearingConfig         *interestBearingJSON     `json:"interest_bearing_config,omitempty"`
	TransferFeeConfig             *transferFeeConfigJSON   `json:"transfer_fee_config,omitempty"`
	MintCloseAuthority            *closeAuthorityJSON      `json:"mint_close_authority,omitempty"`
	PermanentDelegate             *permanentDelegateJSON   `json:"permanent_delegate,omitempty"`
	MetadataPointer               *metadataPointerJSON     `json:"metadata_pointer,omitempty"`
	Metadata                      *tokenMetadataJSON       `json:"metadata,omitempty"`
	TransferHook                  *transferHookJSON        `json:"transfer_hook,omitempty"`
	GroupPointer                  *groupPointerJSON        `json:"group_pointer,omitempty"`
	TokenGroup                    *tokenGroupJSON          `json:"token_group,omitempty"`
	GroupMemberPointer            *memberPointerJSON       `json:"group_member_pointer,omitempty"`
	TokenGroupMember              *tokenGroupMemberJSON    `json:"token_group_member,omitempty"`
	ConfidentialMintBurn          *confidentialBurnJSON    `json:"confidential_mint_burn,omitempty"`
	ScaledUIAmount                *scaledUIAmountJSON      `json:"scaled_ui_amount,omitempty"`
	Pausable                      *pausableJSON            `json:"pausable,omitempty"`
	NonTransferable               *bool                    `json:"non_transferable,omitempty"`
}

type defaultAccountStateJSON struct {
	State uint8 `json:"state"`
}

type ctMintJSON struct {
	Authority              *string `json:"authority"`
	AutoApproveNewAccounts bool    `json:"auto_approve_new_accounts"`
	AuditorElGamalPubkey   *string `json:"auditor_elgamal_pubkey"`
}

type ctFeeConfigJSON struct {
	Authority                              *string `json:"authority"`
	WithdrawWithheldAuthorityElGamalPubkey string  `json:"withdraw_withheld_authority_elgamal_pubkey"`
	HarvestToMintEnabled                   bool    `json:"harvest_to_mint_enabled"`
	WithheldAmount                         string  `json:"withheld_amount"`
}

type interestBearingJSON struct {
	RateAuthority           *string `json:"rate_authority"`
	InitializationTimestamp int64   `json:"initialization_timestamp"`
	PreUpdateAverageRate    int16   `json:"pre_update_average_rate"`
	LastUpdateTimestamp     int64   `json:"last_update_timestamp"`
	CurrentRate             int16   `json:"current_rate"`
}

type transferFeeJSON struct {
	Epoch                  uint64 `json:"epoch"`
	MaximumFee             uint64 `json:"maximum_fee"`
	TransferFeeBasisPoints uint16 `json:"transfer_fee_basis_points"`
}

type transferFeeConfigJSON struct {
	TransferFeeConfigAuthority *string         `json:"transfer_fee_config_authority"`
	WithdrawWithheldAuthority  *string         `json:"withdraw_withheld_authority"`
	WithheldAmount             uint64          `json:"withheld_amount"`
	OlderTransferFee           transferFeeJSON `json:"older_transfer_fee"`
	NewerTransferFee           transferFeeJSON `json:"newer_transfer_fee"`
}

type closeAuthorityJSON struct {
	CloseAuthority *string `json:"close_authority"`
}

type permanentDelegateJSON struct {
	Delegate *string `json:"delegate"`
}

type metadataPointerJSON struct {
	MetadataAddress *string `json:"metadata_address"`
}

type tokenMetadataJSON struct {
	UpdateAuthority    *string     `json:"update_authority"`
	Mint               string      `json:"mint"`
	Name               string      `json:"name"`
	Symbol             string      `json:"symbol"`
	URI                string      `json:"uri"`
	AdditionalMetadata [][2]string `json:"additional_metadata"`
}

type transferHookJSON struct {
	Authority *string `json:"authority"`
	ProgramID *string `json:"program_id"`
}

type groupPointerJSON struct {
	GroupAddress *string `json:"group_address"`
}

type memberPointerJSON struct {
	MemberAddress *string `json:"member_address"`
}

type tokenGroupJSON struct {
	UpdateAuthority *string `json:"update_authority"`
	Mint            string  `json:"mint"`
	Size            uint64  `json:"size"`
	MaxSize         uint64  `json:"max_size"`
}

type tokenGroupMemberJSON struct {
	Mint         string `json:"mint"`
	Group        string `json:"group"`
	MemberNumber uint64 `json:"member_number"`
}

type confidentialBurnJSON struct {
	ConfidentialSupply  string `json:"confidential_supply"`
	DecryptableSupply   string `json:"decryptable_supply"`
	SupplyElGamalPubkey string `json:"supply_elgamal_pubkey"`
	PendingBurn         string `json:"pending_burn"`
}

type scaledUIAmountJSON struct {
	Authority                       *string `json:"authority"`
	Multiplier                      float64 `json:"multiplier"`
	NewMultiplierEffectiveTimestamp int64   `json:"new_multiplier_effective_timestamp"`
	NewMultiplier                   float64 `json:"new_multiplier"`
}

type pausableJSON struct {
	Authority *string `json:"authority"`
	Paused    bool    `json:"paused"`
}

func optKey(k *solana.Pubkey) *string {
	if k == nil {
		return nil
	}
	return Str(k.String())
}

func base58Str(b []byte) string { return b58.Encode(b) }

// MintExtensionsJSON renders a Token-2022 mint's extensions as the
// mint_extensions member; nil when the mint has none the reference would
// show (a mint marked only non-transferable shows none, as there).
func MintExtensionsJSON(m *token.Mint) (Object, error) {
	x, err := token.DecodeMintExtensions(m.Extensions)
	if err != nil {
		return nil, fmt.Errorf("mint extensions: %w", err)
	}
	var out mintExtensionsJSON
	shown := false
	if s := x.DefaultAccountState; s != nil {
		out.DefaultAccountState = &defaultAccountStateJSON{State: uint8(*s)}
		shown = true
	}
	if c := x.ConfidentialTransferMint; c != nil {
		j := &ctMintJSON{Authority: optKey(c.Authority), AutoApproveNewAccounts: c.AutoApproveNewAccounts}
		if c.AuditorElGamalPubkey != nil {
			j.AuditorElGamalPubkey = Str(base64.StdEncoding.EncodeToString(c.AuditorElGamalPubkey[:]))
		}
		out.ConfidentialTransferMint, shown = j, true
	}
	if c := x.ConfidentialTransferFeeConfig; c != nil {
		out.ConfidentialTransferFeeConfig, shown = &ctFeeConfigJSON{
			Authority:                              optKey(c.Authority),
			WithdrawWithheldAuthorityElGamalPubkey: base58Str(c.WithdrawWithheldAuthorityElGamalPubkey[:]),
			HarvestToMintEnabled:                   c.HarvestToMintEnabled,
			WithheldAmount:                         base58Str(c.WithheldAmount[:]),
		}, true
	}
	if c := x.InterestBearingConfig; c != nil {
		out.InterestBearingConfig, shown = &interestBearingJSON{
			RateAuthority:           optKey(c.RateAuthority),
			InitializationTimestamp: c.InitializationTimestamp,
			PreUpdateAverageRate:    c.PreUpdateAverageRate,
			LastUpdateTimestamp:     c.LastUpdateTimestamp,
			CurrentRate:             c.CurrentRate,
		}, true
	}
	if c := x.TransferFeeConfig; c != nil {
		fee := func(f token.TransferFee) transferFeeJSON {
			return transferFeeJSON{Epoch: f.Epoch, MaximumFee: f.MaximumFee, TransferFeeBasisPoints: f.TransferFeeBasisPoints}
		}
		out.TransferFeeConfig, shown = &transferFeeConfigJSON{
			TransferFeeConfigAuthority: optKey(c.TransferFeeConfigAuthority),
			WithdrawWithheldAuthority:  optKey(c.WithdrawWithheldAuthority),
			WithheldAmount:             c.WithheldAmount,
			OlderTransferFee:           fee(c.OlderTransferFee),
			NewerTransferFee:           fee(c.NewerTransferFee),
		}, true
	}
	if c := x.MintCloseAuthority; c != nil {
		out.MintCloseAuthority, shown = &closeAuthorityJSON{CloseAuthority: optKey(c.CloseAuthority)}, true
	}
	if c := x.PermanentDelegate; c != nil {
		out.PermanentDelegate, shown = &permanentDelegateJSON{Delegate: optKey(c.Delegate)}, true
	}
	if c := x.MetadataPointer; c != nil {
		out.MetadataPointer, shown = &metadataPointerJSON{MetadataAddress: optKey(c.MetadataAddress)}, true
	}
	if c := x.TokenMetadata; c != nil {
		j := &tokenMetadataJSON{
			UpdateAuthority:    optKey(c.UpdateAuthority),
			Mint:               c.Mint.String(),
			Name:               c.Name,
			Symbol:             c.Symbol,
			URI:                c.URI,
			AdditionalMetadata: [][2]string{},
		}
		for _, kv := range c.AdditionalMetadata {
			j.AdditionalMetadata = append(j.AdditionalMetadata, [2]string{kv.Key, kv.Value})
		}
		out.Metadata, shown = j, true
	}
	if c := x.TransferHook; c != nil {
		out.TransferHook, shown = &transferHookJSON{Authority: optKey(c.Authority), ProgramID: optKey(c.ProgramID)}, true
	}
	if c := x.GroupPointer; c != nil {
		out.GroupPointer, shown = &groupPointerJSON{GroupAddress: optKey(c.Address)}, true
	}
	if c := x.TokenGroup; c != nil {
		out.TokenGroup, shown = &tokenGroupJSON{
			UpdateAuthority: optKey(c.UpdateAuthority),
			Mint:            c.Mint.String(),
			Size:            c.Size,
			MaxSize:         c.MaxSize,
		}, true
	}
	if c := x.GroupMemberPointer; c != nil {
		out.GroupMemberPointer, shown = &memberPointerJSON{MemberAddress: optKey(c.Address)}, true
	}
	if c := x.TokenGroupMember; c != nil {
		out.TokenGroupMember, shown = &tokenGroupMemberJSON{
			Mint:         c.Mint.String(),
			Group:        c.Group.String(),
			MemberNumber: c.MemberNumber,
		}, true
	}
	if c := x.ConfidentialMintBurn; c != nil {
		out.ConfidentialMintBurn, shown = &confidentialBurnJSON{
			ConfidentialSupply:  base58Str(c.ConfidentialSupply[:]),
			DecryptableSupply:   base58Str(c.DecryptableSupply[:]),
			SupplyElGamalPubkey: base58Str(c.SupplyElGamalPubkey[:]),
			PendingBurn:         base58Str(c.PendingBurn[:]),
		}, true
	}
	if c := x.ScaledUIAmount; c != nil {
		out.ScaledUIAmount, shown = &scaledUIAmountJSON{
			Authority:                       optKey(c.Authority),
			Multiplier:                      c.Multiplier,
			NewMultiplierEffectiveTimestamp: c.NewMultiplierEffectiveTimestamp,
			NewMultiplier:                   c.NewMultiplier,
		}, true
	}
	if c := x.Pausable; c != nil {
		out.Pausable, shown = &pausableJSON{Authority: optKey(c.Authority), Paused: c.Paused}, true
	}
	if !shown {
		return nil, nil
	}
	if x.NonTransferable {
		t := true
		out.NonTransferable = &t
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil, fmt.Errorf("mint extensions: %w", err)
	}
	return b, nil
}
