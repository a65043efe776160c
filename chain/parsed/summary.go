package parsed

import (
	"fmt"
	"strings"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/chain/solana"
)

// sideOps are the top-level instructions a plain transfer may have
// besides the transfers themselves.
var sideOps = map[string]bool{
	"create": true, "createIdempotent": true, // the receiver's token account
	"setComputeUnitLimit": true, "setComputeUnitPrice": true, "requestUnits": true,
	"requestHeapFrame": true, "setLoadedAccountsDataSizeLimit": true,
	"memo": true, "advanceNonceAccount": true,
}

// summarize gives the type and description: TRANSFER when every
// top-level instruction is a System or token transfer or one that goes
// with one (compute budget, memo, creating the receiving account), and
// the transaction succeeded; UNKNOWN otherwise.
func summarize(tx *solana.Tx, p *Transaction, c *context) (string, string) {
	if tx.Failed() || len(tx.Instructions) == 0 {
		return TypeUnknown, ""
	}
	if p.Events.Swap != nil {
		return TypeSwap, swapDescription(p.Events.Swap)
	}
	if ev := p.Events.Compressed; len(ev) > 0 {
		return compressedSummary(p, ev[0])
	}
	transfers := 0
	for i, o := range c.top {
		if o == nil {
			return TypeUnknown, ""
		}
		id := tx.Instructions[i].ProgramID
		switch {
		case id == systemID && (o.name == "transfer" || o.name == "transferWithSeed"):
			transfers++
		case (id == tokenID || id == token2022ID) && (o.name == "transfer" || o.name == "transferChecked" || o.name == "transferCheckedWithFee"):
			transfers++
		case sideOps[o.name]:
		default:
			return TypeUnknown, ""
		}
	}
	if transfers == 0 {
		return TypeUnknown, ""
	}
	var parts []string
	for _, t := range p.NativeTransfers {
		parts = append(parts, fmt.Sprintf("%s transferred %s SOL to %s", t.FromUserAccount, uiAmount(fmt.Sprint(t.Amount), 9), t.ToUserAccount))
	}
	for _, t := range p.TokenTransfers {
		if t.FromTokenAccount == "" || t.ToTokenAccount == "" {
			continue
		}
		from, to := orAccount(t.FromUserAccount, t.FromTokenAccount), orAccount(t.ToUserAccount, t.ToTokenAccount)
		parts = append(parts, fmt.Sprintf("%s transferred %s %s to %s", from, t.TokenAmount, t.Mint, to))
	}
	return TypeTransfer, strings.Join(parts, ", ")
}

func orAccount(user, tokenAccount string) string {
	if user != "" {
		return user
	}
	return tokenAccount
}

// source is the Helius source: that of the first top-level program that
// is not the compute budget's, UNKNOWN for programs dasch does not know.
func source(tx *solana.Tx) string {
	for _, in := range tx.Instructions {
		if in.ProgramID == computeBudgetID {
			continue
		}
		if p, ok := programs[in.ProgramID]; ok && p.source != "" {
			return p.source
		}
		return "UNKNOWN"
	}
	return "UNKNOWN"
}

// txError keeps the error as given and decodes an InstructionError: the
// failing instruction and, for programs with known error codes, the code's
// name.
func txError(tx *solana.Tx) *TxError {
	e := &TxError{Error: json.RawMessage(tx.Err)}
	var ie struct {
		InstructionError []json.RawMessage `json:"InstructionError"`
	}
	if json.Unmarshal(tx.Err, &ie) != nil || len(ie.InstructionError) != 2 {
		return e
	}
	var idx int
	if json.Unmarshal(ie.InstructionError[0], &idx) != nil || idx < 0 || idx >= len(tx.Instructions) {
		return e
	}
	id := tx.Instructions[idx].ProgramID
	d := &DecodedError{InstructionIndex: idx, ProgramID: id.String(), ProgramName: programs[id].name}
	var name string
	var custom struct {
		Custom *int64 `json:"Custom"`
	}
	switch {
	case json.Unmarshal(ie.InstructionError[1], &name) == nil:
		d.Name = name
	case json.Unmarshal(ie.InstructionError[1], &custom) == nil && custom.Custom != nil:
		d.Code = custom.Custom
		if names := customErrors[id]; *custom.Custom >= 0 && *custom.Custom < int64(len(names)) {
			d.Name, d.Msg = names[*custom.Custom][0], names[*custom.Custom][1]
		}
	default:
		// A variant with data (BorshIoError, ...): its name is its key.
		var obj map[string]json.RawMessage
		if json.Unmarshal(ie.InstructionError[1], &obj) == nil && len(obj) == 1 {
			for k := range obj {
				d.Name = k
			}
		}
	}
	e.DecodedError = d
	return e
}

// customErrors are the custom error codes of the programs dasch decodes,
// by code: name and message, as the programs publish them.
var customErrors = map[solana.Pubkey][][2]string{
	systemID: {
		{"AccountAlreadyInUse", "an account with the same address already exists"},
		{"ResultWithNegativeLamports", "account does not have enough SOL to perform the operation"},
		{"InvalidProgramId", "cannot assign account to this program id"},
		{"InvalidAccountDataLength", "cannot allocate account data of this length"},
		{"MaxSeedLengthExceeded", "length of requested seed is too long"},
		{"AddressWithSeedMismatch", "provided address does not match addressed derived from seed"},
		{"NonceNoRecentBlockhashes", "advancing stored nonce requires a populated RecentBlockhashes sysvar"},
		{"NonceBlockhashNotExpired", "stored nonce is still in recent_blockhashes"},
		{"NonceUnexpectedBlockhashValue", "specified nonce does not match stored nonce"},
	},
	tokenID:     tokenErrors,
	token2022ID: tokenErrors,
}

var tokenErrors = [][2]string{
	{"NotRentExempt", "Lamport balance below rent-exempt threshold"},
	{"InsufficientFunds", "Insufficient funds"},
	{"InvalidMint", "Invalid Mint"},
	{"MintMismatch", "Account not associated with this Mint"},
	{"OwnerMismatch", "Owner does not match"},
	{"FixedSupply", "Fixed supply"},
	{"AlreadyInUse", "Already in use"},
	{"InvalidNumberOfProvidedSigners", "Invalid number of provided signers"},
	{"InvalidNumberOfRequiredSigners", "Invalid number of required signers"},
	{"UninitializedState", "State is unititialized"},
	{"NativeNotSupported", "Instruction does not support native tokens"},
	{"NonNativeHasBalance", "Non-native account can only be closed if its balance is zero"},
	{"InvalidInstruction", "Invalid instruction"},
	{"InvalidState", "State is invalid for requested operation"},
	{"Overflow", "Operation overflowed"},
	{"AuthorityTypeNotSupported", "Account does not support specified authority type"},
	{"MintCannotFreeze", "This token mint cannot freeze accounts"},
	{"AccountFrozen", "Account is frozen"},
	{"MintDecimalsMismatch", "The provided decimals value different from the Mint decimals"},
	{"NonNativeNotSupported", "Instruction does not support non-native tokens"},
}

// compressedSummary is the type of a transaction's first compressed NFT
// event and, for mints, transfers and burns, its description.
func compressedSummary(p *Transaction, e CompressedEvent) (string, string) {
	switch e.Type {
	case "COMPRESSED_NFT_MINT":
		return e.Type, fmt.Sprintf("%s minted compressed NFT %s to %s", p.FeePayer, e.AssetID, e.NewLeafOwner)
	case "COMPRESSED_NFT_TRANSFER":
		return e.Type, fmt.Sprintf("%s transferred compressed NFT %s to %s", e.OldLeafOwner, e.AssetID, e.NewLeafOwner)
	case "COMPRESSED_NFT_BURN":
		return e.Type, fmt.Sprintf("%s burned compressed NFT %s", e.OldLeafOwner, e.AssetID)
	}
	return e.Type, ""
}
