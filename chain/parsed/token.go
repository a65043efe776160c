package parsed

import "fmt"

// Token instruction names by tag. Token-2022 shares the first 25 and adds
// its extensions after them.
var tokenNames = []string{
	"initializeMint", "initializeAccount", "initializeMultisig", "transfer", "approve", "revoke",
	"setAuthority", "mintTo", "burn", "closeAccount", "freezeAccount", "thawAccount",
	"transferChecked", "approveChecked", "mintToChecked", "burnChecked", "initializeAccount2",
	"syncNative", "initializeAccount3", "initializeMultisig2", "initializeMint2",
	"getAccountDataSize", "initializeImmutableOwner", "amountToUiAmount", "uiAmountToAmount",
	// Token-2022 from here.
	"initializeMintCloseAuthority", "transferFeeExtension", "confidentialTransferExtension",
	"defaultAccountStateExtension", "reallocate", "memoTransferExtension", "createNativeMint",
	"initializeNonTransferableMint", "interestBearingMintExtension", "cpiGuardExtension",
	"initializePermanentDelegate", "transferHookExtension", "confidentialTransferFeeExtension",
	"withdrawExcessLamports", "metadataPointerExtension", "groupPointerExtension",
	"groupMemberPointerExtension", "confidentialMintBurnExtension", "scaledUiAmountExtension",
	"pausableExtension",
}

// tokenAccounts are the leading accounts of each instruction by tag.
var tokenAccounts = [][]string{
	{"mint", "rentSysvar"},
	{"account", "mint", "owner", "rentSysvar"},
	{"multisig", "rentSysvar"},
	{"source", "destination", "authority"},
	{"source", "delegate", "owner"},
	{"source", "owner"},
	{"account", "currentAuthority"},
	{"mint", "account", "mintAuthority"},
	{"account", "mint", "authority"},
	{"account", "destination", "owner"},
	{"account", "mint", "freezeAuthority"},
	{"account", "mint", "freezeAuthority"},
	{"source", "mint", "destination", "authority"},
	{"source", "mint", "delegate", "owner"},
	{"mint", "account", "mintAuthority"},
	{"account", "mint", "authority"},
	{"account", "mint", "rentSysvar"},
	{"account"},
	{"account", "mint"},
	{"multisig"},
	{"mint"},
	{"mint"},
	{"account"},
	{"mint"},
	{"mint"},
	{"mint"},
	nil,
	nil,
	nil,
	{"account", "payer", "systemProgram", "owner"},
	nil,
	{"payer", "nativeMint", "systemProgram"},
	{"mint"},
	nil,
	nil,
	{"mint"},
	nil,
	nil,
	{"source", "destination", "authority"},
	nil,
	nil,
	nil,
	nil,
	nil,
	nil,
}

var authorityTypes = []string{
	"mintTokens", "freezeAccount", "accountOwner", "closeAccount", "transferFeeConfig",
	"withheldWithdraw", "closeMint", "interestRate", "permanentDelegate", "confidentialTransferMint",
	"transferHookProgramId", "confidentialTransferFeeConfig", "metadataPointer", "groupPointer",
	"groupMemberPointer", "scaledUiAmount", "pause",
}

// decodeToken decodes the SPL Token program (a u8 tag).
func decodeToken(data []byte, n int) (op, error) { return decodeTokenProgram(data, n, 25) }

// decodeToken2022 decodes Token-2022: Token's instructions, the names of
// its extension instructions, and transferCheckedWithFee.
func decodeToken2022(data []byte, n int) (op, error) {
	return decodeTokenProgram(data, n, len(tokenNames))
}

func decodeTokenProgram(data []byte, n, tags int) (op, error) {
	r := &reader{b: data}
	tag := int(r.u8())
	if r.err != nil {
		return op{}, r.err
	}
	if tag >= tags {
		return op{}, fmt.Errorf("unknown token instruction %d", tag)
	}
	o := op{name: tokenNames[tag], accounts: tokenAccounts[tag]}
	args := map[string]any{}
	move := func(source, dest, authority, mint int, amount uint64, decimals int) {
		o.token = &tokenMove{source: source, dest: dest, authority: authority, mint: mint, amount: amount, decimals: decimals}
	}
	switch tag {
	case 0, 20:
		args["decimals"] = r.u8()
		args["mintAuthority"] = r.pubkey()
		args["freezeAuthority"] = r.coption()
	case 2, 19:
		args["m"] = r.u8()
	case 3:
		args["amount"] = r.u64()
		move(0, 1, 2, -1, args["amount"].(uint64), -1)
	case 4:
		args["amount"] = r.u64()
	case 6:
		t := int(r.u8())
		if r.err == nil && t >= len(authorityTypes) {
			return op{}, fmt.Errorf("setAuthority: unknown authority type %d", t)
		}
		if r.err == nil {
			args["authorityType"] = authorityTypes[t]
		}
		args["newAuthority"] = r.coption()
	case 7:
		args["amount"] = r.u64()
		move(-1, 1, 2, 0, args["amount"].(uint64), -1)
	case 8:
		args["amount"] = r.u64()
		move(0, -1, 2, 1, args["amount"].(uint64), -1)
	case 12:
		args["amount"], args["decimals"] = r.u64(), r.u8()
		move(0, 2, 3, 1, args["amount"].(uint64), int(args["decimals"].(uint8)))
	case 13:
		args["amount"], args["decimals"] = r.u64(), r.u8()
	case 14:
		args["amount"], args["decimals"] = r.u64(), r.u8()
		move(-1, 1, 2, 0, args["amount"].(uint64), int(args["decimals"].(uint8)))
	case 15:
		args["amount"], args["decimals"] = r.u64(), r.u8()
		move(0, -1, 2, 1, args["amount"].(uint64), int(args["decimals"].(uint8)))
	case 16, 18:
		args["owner"] = r.pubkey()
	case 21, 29:
		// Extension types, u16 each; kept as the list of numbers.
		var types []uint16
		for len(r.b) >= 2 && r.err == nil {
			v := r.take(2)
			types = append(types, uint16(v[0])|uint16(v[1])<<8)
		}
		args["extensionTypes"] = types
	case 23:
		args["amount"] = r.u64()
	case 24:
		args["uiAmount"] = string(r.take(len(r.b)))
	case 25:
		args["closeAuthority"] = r.coption()
	case 35:
		args["delegate"] = r.pubkey()
	case 26:
		return decodeTransferFee(r, n)
	default:
		if tag > 24 {
			// Extension instructions: named, their sub-instruction
			// given, their payloads not decoded.
			if len(r.b) > 0 {
				args["subInstruction"] = r.u8()
			}
			r.b = nil
		}
	}
	if err := r.done(); err != nil {
		return op{}, fmt.Errorf("%s: %w", o.name, err)
	}
	o.args = args
	if m := o.token; m != nil {
		return needAccounts(o, n, max(m.source, m.dest, m.authority, m.mint)+1)
	}
	return o, nil
}

// decodeTransferFee decodes the transfer-fee extension: its
// transferCheckedWithFee moves tokens, the others are named.
func decodeTransferFee(r *reader, n int) (op, error) {
	sub := r.u8()
	names := []string{"initializeTransferFeeConfig", "transferCheckedWithFee", "withdrawWithheldTokensFromMint",
		"withdrawWithheldTokensFromAccounts", "harvestWithheldTokensToMint", "setTransferFee"}
	if r.err != nil {
		return op{}, fmt.Errorf("transferFeeExtension: %w", r.err)
	}
	if int(sub) >= len(names) {
		return op{}, fmt.Errorf("transferFeeExtension: unknown instruction %d", sub)
	}
	o := op{name: names[sub], args: map[string]any{}}
	if sub != 1 {
		return o, nil
	}
	o.accounts = []string{"source", "mint", "destination", "authority"}
	amount, decimals, fee := r.u64(), r.u8(), r.u64()
	if err := r.done(); err != nil {
		return op{}, fmt.Errorf("%s: %w", o.name, err)
	}
	o.args = map[string]any{"amount": amount, "decimals": decimals, "fee": fee}
	o.token = &tokenMove{source: 0, dest: 2, authority: 3, mint: 1, amount: amount, decimals: int(decimals)}
	return needAccounts(o, n, 4)
}
