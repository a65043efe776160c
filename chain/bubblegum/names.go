package bubblegum

import "encoding/binary"

// Instruction names (Anchor names, as stored in Event.Instruction).
const (
	IxMintV1                  = "mint_v1"
	IxMintToCollectionV1      = "mint_to_collection_v1"
	IxMintV2                  = "mint_v2"
	IxTransfer                = "transfer"
	IxTransferV2              = "transfer_v2"
	IxBurn                    = "burn"
	IxBurnV2                  = "burn_v2"
	IxDelegate                = "delegate"
	IxDelegateV2              = "delegate_v2"
	IxDelegateAndFreezeV2     = "delegate_and_freeze_v2"
	IxRedeem                  = "redeem"
	IxCancelRedeem            = "cancel_redeem"
	IxDecompressV1            = "decompress_v1"
	IxVerifyCreator           = "verify_creator"
	IxVerifyCreatorV2         = "verify_creator_v2"
	IxUnverifyCreator         = "unverify_creator"
	IxUnverifyCreatorV2       = "unverify_creator_v2"
	IxVerifyCollection        = "verify_collection"
	IxUnverifyCollection      = "unverify_collection"
	IxSetAndVerifyCollection  = "set_and_verify_collection"
	IxSetCollectionV2         = "set_collection_v2"
	IxUpdateMetadata          = "update_metadata"
	IxUpdateMetadataV2        = "update_metadata_v2"
	IxFreezeV2                = "freeze_v2"
	IxThawV2                  = "thaw_v2"
	IxThawAndRevokeV2         = "thaw_and_revoke_v2"
	IxSetNonTransferableV2    = "set_non_transferable_v2"
	IxUpdateAssetDataV2       = "update_asset_data_v2"
	ixCompress                = "compress"
	ixCreateTree              = "create_tree"
	ixCreateTreeV2            = "create_tree_v2"
	ixSetTreeDelegate         = "set_tree_delegate"
	ixSetDecompressibleState  = "set_decompressible_state"
	ixSetDecompressableState  = "set_decompressable_state"
	ixCollectV2               = "collect_v2"
	ixFinalizeTreeWithRoot    = "finalize_tree_with_root"
	ixFinalizeTreeWithRootCol = "finalize_tree_with_root_and_collection"
	ixPrepareTree             = "prepare_tree"
	ixAddCanopy               = "add_canopy"
)

// instructionName maps an Anchor discriminator (sha256("global:<name>")[:8],
// read little-endian) to the instruction name; "" when unknown.
func instructionName(data []byte) string {
	switch binary.LittleEndian.Uint64(data[:8]) {
	case 0x687693b876c06291:
		return IxMintV1
	case 0x0f569ec52fb21299:
		return IxMintToCollectionV1
	case 0xcdc76ead92177978:
		return IxMintV2
	case 0xba45038ce7c834a3:
		return IxTransfer
	case 0x31f8ddeaeb062877:
		return IxTransferV2
	case 0x5d2adb6b381d6e74:
		return IxBurn
	case 0x10b78fe8f022d273:
		return IxBurnV2
	case 0x89045855b24b935a:
		return IxDelegate
	case 0xe38083b58c7d575f:
		return IxDelegateV2
	case 0x7bfaf1beda23e511:
		return IxDelegateAndFreezeV2
	case 0xe161c44695560cb8:
		return IxRedeem
	case 0xf230af2732e84c6f:
		return IxCancelRedeem
	case 0x51a4fae4464c5536:
		return IxDecompressV1
	case 0xc255044784601134:
		return IxVerifyCreator
	case 0x6676f1162a8c8a55:
		return IxVerifyCreatorV2
	case 0x987073692739b26b:
		return IxUnverifyCreator
	case 0x07ef64e68e1d70ae:
		return IxUnverifyCreatorV2
	case 0xa97a374ffd657138:
		return IxVerifyCollection
	case 0xa8ba89296a2afbfa:
		return IxUnverifyCollection
	case 0xeab4ea9ed879f2eb:
		return IxSetAndVerifyCollection
	case 0xa0630e0f5b3d23e5:
		return IxSetCollectionV2
	case 0xbae14e61ef2bb6aa:
		return IxUpdateMetadata
	case 0x483ef2792a59672b:
		return IxUpdateMetadataV2
	case 0x03ffc31066f497c8:
		return IxFreezeV2
	case 0xbf92dc525d658560:
		return IxThawV2
	case 0x741c04a725bed656:
		return IxThawAndRevokeV2
	case 0xa898c7f23ace8db5:
		return IxSetNonTransferableV2
	case 0x3d0b0e5f2b6f383b:
		return IxUpdateAssetDataV2
	case 0xfd7315b075b0c152:
		return ixCompress
	case 0xdc2fca598e8853a5:
		return ixCreateTree
	case 0xcde3cb8ed75f6337:
		return ixCreateTreeV2
	case 0x669a31be254276fd:
		return ixSetTreeDelegate
	case 0x0d646f9506986852:
		return ixSetDecompressibleState
	case 0x733dc3f6a8ee8712:
		return ixSetDecompressableState
	case 0x386ac3042f9f0b15:
		return ixCollectV2
	case 0xcc40e17e99dc494d:
		return ixFinalizeTreeWithRoot
	case 0x9b4348b7a82d62c2:
		return ixFinalizeTreeWithRootCol
	case 0x478e0c3a4dbd3829:
		return ixPrepareTree
	case 0x19cf42545c9176f7:
		return ixAddCanopy
	}
	return ""
}

// treeLevel reports instructions that act on a tree, not on one leaf:
// they are recognised but produce no asset event.
func treeLevel(name string) bool {
	switch name {
	case ixCompress, ixCreateTree, ixCreateTreeV2, ixSetTreeDelegate, ixSetDecompressibleState,
		ixSetDecompressableState, ixCollectV2, ixFinalizeTreeWithRoot, ixFinalizeTreeWithRootCol,
		ixPrepareTree, ixAddCanopy:
		return true
	}
	return false
}

// accountNames lists an instruction's accounts in order (IDL names). For a
// few V2 instructions only the leading accounts are certain, so only those
// are named. A function, not a table, so nothing global can be modified.
func accountNames(ix string) []string {
	switch ix {
	case IxMintV1:
		return []string{"tree_authority", "leaf_owner", "leaf_delegate", "merkle_tree", "payer", "tree_delegate",
			"log_wrapper", "compression_program", "system_program"}
	case IxMintToCollectionV1, IxVerifyCollection, IxUnverifyCollection, IxSetAndVerifyCollection:
		return []string{"tree_authority", "leaf_owner", "leaf_delegate", "merkle_tree", "payer", "tree_delegate",
			"collection_authority", "collection_authority_record_pda", "collection_mint", "collection_metadata",
			"edition_account", "bubblegum_signer", "log_wrapper", "compression_program", "token_metadata_program",
			"system_program"}
	case IxBurn:
		return []string{"tree_authority", "leaf_owner", "leaf_delegate", "merkle_tree", "log_wrapper",
			"compression_program", "system_program"}
	case IxVerifyCreator, IxUnverifyCreator:
		return []string{"tree_authority", "leaf_owner", "leaf_delegate", "merkle_tree", "payer", "creator",
			"log_wrapper", "compression_program", "system_program"}
	case IxTransfer:
		return []string{"tree_authority", "leaf_owner", "leaf_delegate", "new_leaf_owner", "merkle_tree",
			"log_wrapper", "compression_program", "system_program"}
	case IxDelegate:
		return []string{"tree_authority", "leaf_owner", "previous_leaf_delegate", "new_leaf_delegate",
			"merkle_tree", "log_wrapper", "compression_program", "system_program"}
	case IxUpdateMetadata:
		return []string{"tree_authority", "tree_delegate", "collection_mint", "collection_metadata",
			"collection_authority_record_pda", "leaf_owner", "leaf_delegate", "payer", "merkle_tree", "log_wrapper",
			"compression_program", "token_metadata_program", "system_program"}
	case IxRedeem:
		return []string{"tree_authority", "leaf_owner", "leaf_delegate", "merkle_tree", "voucher", "log_wrapper",
			"compression_program", "system_program"}
	case IxCancelRedeem:
		return []string{"tree_authority", "leaf_owner", "merkle_tree", "voucher", "log_wrapper",
			"compression_program", "system_program"}
	case IxDecompressV1:
		return []string{"voucher", "leaf_owner", "token_account", "mint", "mint_authority", "metadata",
			"master_edition", "system_program", "sysvar_rent", "token_metadata_program", "token_program",
			"associated_token_program", "log_wrapper"}
	case IxMintV2:
		return []string{"tree_authority", "payer", "tree_delegate", "collection_authority", "leaf_owner",
			"leaf_delegate", "merkle_tree", "core_collection", "mpl_core_cpi_signer", "log_wrapper",
			"compression_program", "mpl_core_program", "system_program"}
	case IxTransferV2:
		return []string{"tree_authority", "payer", "authority", "leaf_owner", "leaf_delegate", "new_leaf_owner",
			"merkle_tree", "core_collection", "log_wrapper", "compression_program", "system_program"}
	case IxBurnV2:
		return []string{"tree_authority", "payer", "authority", "leaf_owner", "leaf_delegate", "merkle_tree",
			"core_collection", "mpl_core_cpi_signer", "log_wrapper", "compression_program", "mpl_core_program",
			"system_program"}
	case IxDelegateV2:
		return []string{"tree_authority", "payer", "leaf_owner", "previous_leaf_delegate", "new_leaf_delegate",
			"merkle_tree", "log_wrapper", "compression_program", "system_program"}
	case IxFreezeV2, IxThawV2:
		return []string{"tree_authority", "payer", "authority", "leaf_owner", "leaf_delegate", "merkle_tree",
			"core_collection", "log_wrapper", "compression_program", "system_program"}
	case IxThawAndRevokeV2:
		return []string{"tree_authority", "payer", "leaf_delegate", "leaf_owner", "merkle_tree",
			"log_wrapper", "compression_program", "system_program"}
	case IxSetCollectionV2:
		return []string{"tree_authority", "payer", "authority", "new_collection_authority", "leaf_owner",
			"leaf_delegate", "merkle_tree", "core_collection", "new_core_collection", "mpl_core_cpi_signer",
			"log_wrapper", "compression_program", "mpl_core_program", "system_program"}
	case IxVerifyCreatorV2, IxUnverifyCreatorV2:
		return []string{"tree_authority", "payer", "creator", "leaf_owner", "leaf_delegate", "merkle_tree",
			"log_wrapper", "compression_program", "system_program"}
	case IxUpdateMetadataV2:
		return []string{"tree_authority", "payer", "authority", "leaf_owner", "leaf_delegate",
			"merkle_tree", "core_collection", "log_wrapper", "compression_program", "system_program"}
	}
	return []string{"tree_authority", "payer"}
}
