package bubblegum

import "testing"

// TestPascalName maps every leaf instruction to the reference's name.
func TestPascalName(t *testing.T) {
	tests := map[string]string{
		IxMintV1: "MintV1", IxMintToCollectionV1: "MintToCollectionV1", IxMintV2: "MintV2",
		IxTransfer: "Transfer", IxTransferV2: "TransferV2", IxBurn: "Burn", IxBurnV2: "BurnV2",
		IxDelegate: "Delegate", IxDelegateV2: "DelegateV2", IxDelegateAndFreezeV2: "DelegateAndFreezeV2",
		IxRedeem: "Redeem", IxCancelRedeem: "CancelRedeem", IxDecompressV1: "DecompressV1",
		IxVerifyCreator: "VerifyCreator", IxVerifyCreatorV2: "VerifyCreatorV2",
		IxUnverifyCreator: "UnverifyCreator", IxUnverifyCreatorV2: "UnverifyCreatorV2",
		IxVerifyCollection: "VerifyCollection", IxUnverifyCollection: "UnverifyCollection",
		IxSetAndVerifyCollection: "SetAndVerifyCollection", IxSetCollectionV2: "SetCollectionV2",
		IxUpdateMetadata: "UpdateMetadata", IxUpdateMetadataV2: "UpdateMetadataV2",
		IxFreezeV2: "FreezeV2", IxThawV2: "ThawV2", IxThawAndRevokeV2: "ThawAndRevokeV2",
		IxSetNonTransferableV2: "SetNonTransferableV2", IxUpdateAssetDataV2: "UpdateAssetDataV2",
		"": "", "_x__y_": "XY",
	}
	for in, want := range tests {
		if got := PascalName(in); got != want {
			t.Errorf("PascalName(%q) = %q, want %q", in, got, want)
		}
	}
}
