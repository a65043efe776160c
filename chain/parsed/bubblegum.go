package parsed

import (
	"fmt"
	"strings"

	"github.com/dasch-labs/dasch/chain/bubblegum"
	"github.com/dasch-labs/dasch/chain/solana"
)

// Events are the protocol events of a transaction.
type Events struct {
	// Compressed are the Bubblegum leaf changes, in execution order.
	Compressed []CompressedEvent `json:"compressed,omitempty"`
	// Swap is the swap the transaction made (chain/parsed/swap.go).
	Swap *SwapEvent `json:"swap,omitempty"`
}

// CompressedEvent is one compressed NFT changed by one Bubblegum
// instruction.
type CompressedEvent struct {
	Type                  string `json:"type"`
	TreeID                string `json:"treeId,omitempty"` // none for decompress_v1
	AssetID               string `json:"assetId"`
	LeafIndex             uint64 `json:"leafIndex"`
	Seq                   uint64 `json:"seq"`
	InstructionIndex      int    `json:"instructionIndex"`
	InnerInstructionIndex *int   `json:"innerInstructionIndex"`
	NewLeafOwner          string `json:"newLeafOwner,omitempty"`
	OldLeafOwner          string `json:"oldLeafOwner,omitempty"`
	NewLeafDelegate       string `json:"newLeafDelegate,omitempty"`
	OldLeafDelegate       string `json:"oldLeafDelegate,omitempty"`
}

var bubblegumID = bubblegum.ProgramID()

// compressedTypes are the event types of the Bubblegum instructions.
var compressedTypes = map[string]string{
	bubblegum.IxMintV1: "COMPRESSED_NFT_MINT", bubblegum.IxMintToCollectionV1: "COMPRESSED_NFT_MINT",
	bubblegum.IxMintV2: "COMPRESSED_NFT_MINT", bubblegum.IxTransfer: "COMPRESSED_NFT_TRANSFER",
	bubblegum.IxTransferV2: "COMPRESSED_NFT_TRANSFER", bubblegum.IxBurn: "COMPRESSED_NFT_BURN",
	bubblegum.IxBurnV2: "COMPRESSED_NFT_BURN", bubblegum.IxRedeem: "COMPRESSED_NFT_REDEEM",
	bubblegum.IxCancelRedeem: "COMPRESSED_NFT_CANCEL_REDEEM", bubblegum.IxDecompressV1: "DECOMPRESS_NFT",
	bubblegum.IxDelegate: "COMPRESSED_NFT_DELEGATE", bubblegum.IxDelegateV2: "COMPRESSED_NFT_DELEGATE",
	bubblegum.IxDelegateAndFreezeV2: "COMPRESSED_NFT_DELEGATE",
	bubblegum.IxVerifyCreator:       "COMPRESSED_NFT_VERIFY_CREATOR", bubblegum.IxVerifyCreatorV2: "COMPRESSED_NFT_VERIFY_CREATOR",
	bubblegum.IxUnverifyCreator: "COMPRESSED_NFT_UNVERIFY_CREATOR", bubblegum.IxUnverifyCreatorV2: "COMPRESSED_NFT_UNVERIFY_CREATOR",
	bubblegum.IxVerifyCollection: "COMPRESSED_NFT_VERIFY_COLLECTION", bubblegum.IxUnverifyCollection: "COMPRESSED_NFT_UNVERIFY_COLLECTION",
	bubblegum.IxSetAndVerifyCollection: "COMPRESSED_NFT_SET_VERIFY_COLLECTION", bubblegum.IxSetCollectionV2: "COMPRESSED_NFT_SET_COLLECTION",
	bubblegum.IxUpdateMetadata: "COMPRESSED_NFT_UPDATE_METADATA", bubblegum.IxUpdateMetadataV2: "COMPRESSED_NFT_UPDATE_METADATA",
	bubblegum.IxUpdateAssetDataV2: "COMPRESSED_NFT_UPDATE_METADATA",
	bubblegum.IxFreezeV2:          "COMPRESSED_NFT_FREEZE", bubblegum.IxThawV2: "COMPRESSED_NFT_THAW",
	bubblegum.IxThawAndRevokeV2: "COMPRESSED_NFT_THAW", bubblegum.IxSetNonTransferableV2: "COMPRESSED_NFT_SET_NON_TRANSFERABLE",
}

// bubblegum adds the Bubblegum events (chain/bubblegum decodes them, with
// the noop logs that carry the leaves) and names their instructions. An
// error is recorded on every Bubblegum instruction, since the decoder
// does not say which one failed in a form to match.
func (c *context) bubblegum(p *Transaction) {
	if !c.tx.Invokes(map[solana.Pubkey]bool{bubblegumID: true}) {
		return
	}
	evs, err := safeBubblegum(c.tx)
	if err != nil {
		for i := range p.Instructions {
			if in := &p.Instructions[i]; in.ProgramID == bubblegumID.String() && in.DecodeError == "" {
				in.DecodeError = err.Error()
			}
		}
		return
	}
	for _, ev := range evs {
		in := findInstruction(p, ev.Outer, ev.Inner)
		if in == nil {
			continue
		}
		in.InstructionName = lowerCamel(bubblegum.PascalName(ev.Instruction))
		e := CompressedEvent{
			Type: compressedTypes[ev.Instruction], TreeID: solana.Pubkey(ev.Tree).String(), AssetID: solana.Pubkey(ev.AssetID).String(),
			LeafIndex: ev.LeafID, Seq: ev.Seq, InstructionIndex: ev.Outer, InnerInstructionIndex: in.InnerInstructionIndex,
		}
		if ev.Tree == (bubblegum.Key{}) {
			e.TreeID = ""
		}
		if e.Type == "" {
			e.Type = "COMPRESSED_NFT_" + strings.ToUpper(ev.Instruction)
		}
		acct := func(name string) string {
			if k, ok := ev.Accounts[name]; ok {
				return solana.Pubkey(k).String()
			}
			return ""
		}
		switch e.Type {
		case "COMPRESSED_NFT_MINT":
			if ev.Leaf != nil {
				e.NewLeafOwner, e.NewLeafDelegate = solana.Pubkey(ev.Leaf.Owner).String(), solana.Pubkey(ev.Leaf.Delegate).String()
			}
		case "COMPRESSED_NFT_TRANSFER":
			e.OldLeafOwner, e.NewLeafOwner = acct("leaf_owner"), acct("new_leaf_owner")
			if ev.Leaf != nil {
				e.NewLeafOwner = solana.Pubkey(ev.Leaf.Owner).String()
			}
		case "COMPRESSED_NFT_DELEGATE":
			e.OldLeafDelegate, e.NewLeafDelegate = acct("previous_leaf_delegate"), acct("new_leaf_delegate")
		default:
			e.OldLeafOwner = acct("leaf_owner")
		}
		p.Events.Compressed = append(p.Events.Compressed, e)

		args := map[string]any{"assetId": e.AssetID, "merkleTree": e.TreeID, "leafIndex": ev.LeafID, "seq": ev.Seq}
		if ev.Metadata != nil && ev.Metadata.Name != "" {
			args["name"] = ev.Metadata.Name
		}
		d := &Decoded{Args: args, Accounts: make([]DecodedAccount, len(in.RawAccounts))}
		names := bubblegum.AccountNames(ev.Instruction)
		ix := c.instructionAt(ev.Outer, ev.Inner)
		for i, k := range in.RawAccounts {
			name := "remaining"
			if i < len(names) {
				name = lowerCamel(bubblegum.PascalName(names[i]))
			}
			d.Accounts[i] = DecodedAccount{Name: name, Pubkey: k}
			if ix != nil {
				d.Accounts[i].IsSigner, d.Accounts[i].IsWritable = c.signer(int(ix.Accounts[i])), c.tx.Writable(int(ix.Accounts[i]))
			}
		}
		in.Decoded = d
	}
}

// findInstruction is the flat list's entry of outer instruction outer,
// or of its inner instruction inner (-1 for the outer one).
func findInstruction(p *Transaction, outer, inner int) *Instruction {
	for i := range p.Instructions {
		in := &p.Instructions[i]
		if in.InstructionIndex != outer {
			continue
		}
		if (inner < 0 && in.InnerInstructionIndex == nil) || (in.InnerInstructionIndex != nil && *in.InnerInstructionIndex == inner) {
			return in
		}
	}
	return nil
}

// instructionAt is the compiled instruction at (outer, inner).
func (c *context) instructionAt(outer, inner int) *solana.Instruction {
	if outer < 0 || outer >= len(c.tx.Instructions) {
		return nil
	}
	if inner < 0 {
		return &c.tx.Instructions[outer]
	}
	k := 0
	for j := range c.tx.Inner {
		if c.tx.Inner[j].Outer != outer {
			continue
		}
		if k == inner {
			return &c.tx.Inner[j].Instruction
		}
		k++
	}
	return nil
}

func lowerCamel(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// safeBubblegum runs the Bubblegum decoder so that a bug in it cannot
// fail the parse.
func safeBubblegum(tx *solana.Tx) (evs []bubblegum.Event, err error) {
	defer func() {
		if r := recover(); r != nil {
			evs, err = nil, fmt.Errorf("bubblegum decoder failed: %v", r)
		}
	}()
	return bubblegum.Parse(tx)
}
