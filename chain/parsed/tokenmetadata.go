package parsed

import "fmt"

// tokenMetadataNames are the Token Metadata instructions by their Borsh
// enum index, the first byte of their data (mpl-token-metadata's
// MetadataInstruction).
var tokenMetadataNames = []string{
	"createMetadataAccount", "updateMetadataAccount", "deprecatedCreateMasterEdition",
	"deprecatedMintNewEditionFromMasterEditionViaPrintingToken", "updatePrimarySaleHappenedViaToken",
	"deprecatedSetReservationList", "deprecatedCreateReservationList", "signMetadata",
	"deprecatedMintPrintingTokensViaToken", "deprecatedMintPrintingTokens", "createMasterEdition",
	"mintNewEditionFromMasterEditionViaToken", "convertMasterEditionV1ToV2",
	"mintNewEditionFromMasterEditionViaVaultProxy", "puffMetadata", "updateMetadataAccountV2",
	"createMetadataAccountV2", "createMasterEditionV3", "verifyCollection", "utilize",
	"approveUseAuthority", "revokeUseAuthority", "unverifyCollection", "approveCollectionAuthority",
	"revokeCollectionAuthority", "setAndVerifyCollection", "freezeDelegatedAccount",
	"thawDelegatedAccount", "removeCreatorVerification", "burnNft", "verifySizedCollectionItem",
	"unverifySizedCollectionItem", "setAndVerifySizedCollectionItem", "createMetadataAccountV3",
	"setCollectionSize", "setTokenStandard", "bubblegumSetCollectionSize", "burnEditionNft",
	"createEscrowAccount", "closeEscrowAccount", "transferOutOfEscrow", "burn", "create", "mint",
	"delegate", "revoke", "lock", "unlock", "migrate", "transfer", "update", "use", "verify",
	"unverify", "collect", "print", "resize", "closeAccounts",
}

// decodeTokenMetadata names a Token Metadata instruction. Its arguments,
// versioned Borsh enums, are not decoded yet: the variant of the
// versioned instructions (create, mint, transfer, ...) is given.
func decodeTokenMetadata(data []byte, _ int) (op, error) {
	if len(data) == 0 {
		return op{}, errShort
	}
	if int(data[0]) >= len(tokenMetadataNames) {
		return op{}, fmt.Errorf("unknown Token Metadata instruction %d", data[0])
	}
	o := op{name: tokenMetadataNames[data[0]], args: map[string]any{}}
	if data[0] >= 41 && len(data) > 1 {
		o.args["variant"] = data[1]
	}
	return o, nil
}
