package assetstate

import (
	"errors"
	"fmt"

	"github.com/dasch-labs/dasch/chain/core"
	"github.com/dasch-labs/dasch/chain/inscription"
	"github.com/dasch-labs/dasch/chain/metadata"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/chain/token"
	"github.com/dasch-labs/dasch/schema"
)

// accountRow is a row of asset_accounts.
type accountRow struct {
	AssetID      solana.Pubkey
	Kind         string
	Pubkey       solana.Pubkey
	Program      solana.Pubkey
	Data         []byte
	Slot         uint64
	WriteVersion uint64
	Holder       *solana.Pubkey // token accounts: the wallet holding them
	Amount       uint64         // token accounts: balance; mints: supply
	// tokenAccount is a token account's decoded state.
	tokenAccount *token.TokenAccount
}

// Table implements arrowbatch.Row.
func (*accountRow) Table() string { return schema.TableAssetAccounts }

// Token program account sizes; a Token-2022 account longer than the base
// size carries its type in the byte after the token account layout.
const (
	mintLen         = 82
	tokenAccountLen = 165
	typeMint        = 1
	typeAccount     = 2
)

// Token Metadata account keys (the first byte of the account).
const (
	keyEditionV1       = 1
	keyMasterEditionV1 = 2
	keyMetadataV1      = 4
	keyMasterEditionV2 = 6
)

// classify returns the asset_accounts row of acc, or nil when acc is not
// part of any digital asset (other programs, multisigs, uninitialized or
// closed accounts). An account of an asset program whose data does not
// decode is an error, so it reaches the dead letters.
func classify(acc *solana.Account) (*accountRow, error) {
	row := &accountRow{
		Pubkey: acc.Pubkey, Program: acc.Owner, Data: acc.Data,
		Slot: acc.Slot, WriteVersion: acc.WriteVersion,
	}
	switch acc.Owner {
	case token.TokenProgram(), token.Token2022Program():
		return classifyToken(acc, row)
	case metadata.TokenMetadataProgram():
		return classifyMetadata(acc, row)
	case inscription.InscriptionProgram():
		in, err := inscription.DecodeInscription(acc.Owner, acc.Data)
		if err != nil {
			if errors.Is(err, inscription.ErrNotInscription) {
				return nil, nil // inscription data and summary accounts
			}
			return nil, fmt.Errorf("inscription %s: %w", acc.Pubkey, err)
		}
		row.AssetID, row.Kind = in.Root, schema.AssetKindInscription
		return row, nil
	case core.AgentIdentityProgram():
		id, err := core.DecodeAgentIdentity(acc.Owner, acc.Data)
		if err != nil {
			return nil, nil // other accounts of the agent program
		}
		row.AssetID, row.Kind = id.Asset, schema.AssetKindAgentIdentity
		return row, nil
	case core.CoreProgram():
		if len(acc.Data) == 0 {
			return nil, nil
		}
		if _, err := core.DecodeCore(acc.Owner, acc.Data); err != nil {
			if errors.Is(err, core.ErrCoreUnsupported) {
				return nil, nil
			}
			return nil, fmt.Errorf("mpl core account %s: %w", acc.Pubkey, err)
		}
		// A burnt asset (one byte left) is a close (closedAccount): the
		// reader renders the last state kept here, marked burnt.
		row.AssetID, row.Kind = acc.Pubkey, schema.AssetKindCore
		return row, nil
	}
	return nil, nil
}

func classifyToken(acc *solana.Account, row *accountRow) (*accountRow, error) {
	n := len(acc.Data)
	isMint := n == mintLen || (n > tokenAccountLen && acc.Data[tokenAccountLen] == typeMint)
	isAccount := n == tokenAccountLen || (n > tokenAccountLen && acc.Data[tokenAccountLen] == typeAccount)
	switch {
	case isMint:
		m, err := token.DecodeMint(acc.Owner, acc.Data)
		if err != nil {
			return nil, fmt.Errorf("mint %s: %w", acc.Pubkey, err)
		}
		if !m.IsInitialized {
			return nil, nil
		}
		row.AssetID, row.Kind, row.Amount = acc.Pubkey, schema.AssetKindMint, m.Supply
	case isAccount:
		t, err := token.DecodeTokenAccount(acc.Owner, acc.Data)
		if err != nil {
			return nil, fmt.Errorf("token account %s: %w", acc.Pubkey, err)
		}
		if t.State == token.StateUninitialized {
			return nil, nil
		}
		holder := t.Owner
		row.AssetID, row.Kind, row.Holder, row.Amount = t.Mint, schema.AssetKindTokenAccount, &holder, t.Amount
		row.tokenAccount = t
	default:
		return nil, nil // multisig or uninitialized
	}
	return row, nil
}

func classifyMetadata(acc *solana.Account, row *accountRow) (*accountRow, error) {
	if len(acc.Data) == 0 {
		return nil, nil
	}
	switch acc.Data[0] {
	case keyMetadataV1:
		md, err := metadata.DecodeMetadata(acc.Owner, acc.Data)
		if err != nil {
			return nil, fmt.Errorf("metadata %s: %w", acc.Pubkey, err)
		}
		row.AssetID, row.Kind = md.Mint, schema.AssetKindMetadata
	case keyEditionV1:
		if _, err := metadata.DecodeEdition(acc.Owner, acc.Data); err != nil {
			return nil, fmt.Errorf("edition %s: %w", acc.Pubkey, err)
		}
		row.AssetID, row.Kind = acc.Pubkey, schema.AssetKindEdition
	case keyMasterEditionV1, keyMasterEditionV2:
		if _, err := metadata.DecodeMasterEdition(acc.Owner, acc.Data); err != nil {
			return nil, fmt.Errorf("master edition %s: %w", acc.Pubkey, err)
		}
		row.AssetID, row.Kind = acc.Pubkey, schema.AssetKindEdition
	default:
		return nil, nil // other Token Metadata accounts (records, use authorities)
	}
	return row, nil
}
