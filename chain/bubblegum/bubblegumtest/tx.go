package bubblegumtest

import (
	"encoding/binary"
	"fmt"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/chain/bubblegum"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/internal/b58"
	"github.com/dasch-labs/dasch/internal/borsh"
)

// Ix is one Bubblegum instruction of a synthetic transaction.
type Ix struct {
	// Name is bubblegum.IxMintV1, IxTransfer or IxBurn.
	Name   string
	Change bubblegum.ChangeLog
	// Leaf is the leaf event mint_v1 and transfer log; burn logs none.
	Leaf bubblegum.Leaf
}

// Anchor discriminators, little-endian, as chain/bubblegum reads them.
var discriminators = map[string]uint64{
	bubblegum.IxMintV1:   0x687693b876c06291,
	bubblegum.IxTransfer: 0xba45038ce7c834a3,
	bubblegum.IxBurn:     0x5d2adb6b381d6e74,
}

// Program ids and fixed accounts of the synthetic transactions.
const (
	keyPayer     = "9nyYr9vyDZU8SnVNgQ58kcEtcpXUj57vkzwd4UjbZrS8"
	keyBubblegum = "BGUMAp9Gq7iTEuizy4pqaxsTyUCBK68MDfK752saRPUY"
	keyNoop      = "noopb9bkMVfRPU8AsbpTUg8AQkHtKwMYZiFUjNRtMmV"
	keyCompress  = "cmtDvXumGCrqC1Age74AVPhSRVXJMd8PJS91L8KbNCK"
	keySystem    = "11111111111111111111111111111111"
)

// Sig is a distinct signature for each n.
func Sig(n uint64) solana.Signature {
	var s solana.Signature
	binary.BigEndian.PutUint64(s[:8], n)
	s[63] = 1 // never all zero
	return s
}

type txIns struct {
	ProgramIDIndex int    `json:"programIdIndex"`
	Accounts       []int  `json:"accounts"`
	Data           string `json:"data"`
}

// TxJSON is the getTransaction JSON of a successful transaction at slot,
// signed by sig, whose top-level instructions are ixs, each followed by
// its noop events as inner instructions. Every ix must name the same tree.
func TxJSON(slot uint64, sig solana.Signature, ixs ...Ix) ([]byte, error) {
	if len(ixs) == 0 {
		return nil, fmt.Errorf("bubblegumtest: no instructions")
	}
	tree := ixs[0].Change.Tree
	owner := ixs[0].Leaf.Owner
	keys := []string{keyPayer, keyBubblegum, keyNoop, keyCompress, keySystem, tree.String(), owner.String()}
	const payer, bgum, noop, compress, system, treeIx, ownerIx = 0, 1, 2, 3, 4, 5, 6
	var outer []txIns
	type innerSet struct {
		Index        int     `json:"index"`
		Instructions []txIns `json:"instructions"`
	}
	var inner []innerSet
	for i, ix := range ixs {
		if ix.Change.Tree != tree {
			return nil, fmt.Errorf("bubblegumtest: instruction %d names tree %s, not %s", i, ix.Change.Tree, tree)
		}
		data, accounts, err := ixData(ix)
		if err != nil {
			return nil, err
		}
		acc := make([]int, len(accounts))
		for j, a := range accounts {
			acc[j] = map[string]int{"payer": payer, "tree": treeIx, "owner": ownerIx, "noop": noop,
				"compress": compress, "system": system}[a]
		}
		outer = append(outer, txIns{ProgramIDIndex: bgum, Accounts: acc, Data: b58.Encode(data)})
		set := innerSet{Index: i}
		if ix.Name != bubblegum.IxBurn {
			set.Instructions = append(set.Instructions, txIns{ProgramIDIndex: noop, Accounts: []int{}, Data: b58.Encode(leafEvent(ix.Leaf))})
		}
		set.Instructions = append(set.Instructions,
			txIns{ProgramIDIndex: compress, Accounts: []int{treeIx, noop}, Data: b58.Encode([]byte{1})},
			txIns{ProgramIDIndex: noop, Accounts: []int{}, Data: b58.Encode(changeLogEvent(ix.Change))})
		inner = append(inner, set)
	}
	doc := map[string]any{
		"slot": slot, "blockTime": nil, "version": "legacy",
		"transaction": map[string]any{
			"signatures": []string{sig.String()},
			"message": map[string]any{
				"accountKeys": keys, "instructions": outer,
				"header": map[string]int{"numRequiredSignatures": 1, "numReadonlySignedAccounts": 0, "numReadonlyUnsignedAccounts": 5},
			},
		},
		"meta": map[string]any{"err": nil, "fee": 5000, "innerInstructions": inner, "logMessages": []string{},
			"preBalances": []int{}, "postBalances": []int{}},
	}
	return json.Marshal(doc)
}

// ixData encodes an instruction's data and names its accounts in the
// order chain/bubblegum names them.
func ixData(ix Ix) ([]byte, []string, error) {
	d, ok := discriminators[ix.Name]
	if !ok {
		return nil, nil, fmt.Errorf("bubblegumtest: instruction %q is not encoded", ix.Name)
	}
	w := &borsh.Writer{}
	w.U64(d)
	switch ix.Name {
	case bubblegum.IxMintV1:
		// MetadataArgs with every option absent and no creators.
		w.Str("cNFT")
		w.Str("")
		w.Str("")
		w.U16(0)
		w.Bool(false)
		w.Bool(true)
		w.U8(0) // edition nonce
		w.U8(0) // token standard
		w.U8(0) // collection
		w.U8(0) // uses
		w.U8(0) // token program version: original
		w.U32(0)
		return w.B, []string{"payer", "owner", "owner", "tree", "payer", "payer", "noop", "compress", "system"}, nil
	default: // transfer, burn: root, data hash, creator hash, nonce, index
		root := ix.Change.Path[len(ix.Change.Path)-1].Node
		w.B = append(w.B, root[:]...)
		w.B = append(w.B, ix.Leaf.DataHash[:]...)
		w.B = append(w.B, ix.Leaf.CreatorHash[:]...)
		w.U64(uint64(ix.Change.Index))
		w.U32(ix.Change.Index)
		if ix.Name == bubblegum.IxBurn {
			return w.B, []string{"payer", "owner", "owner", "tree", "noop", "compress", "system"}, nil
		}
		return w.B, []string{"payer", "owner", "owner", "owner", "tree", "noop", "compress", "system"}, nil
	}
}

// changeLogEvent is AccountCompressionEvent::ChangeLog(ChangeLogEvent::V1).
func changeLogEvent(cl bubblegum.ChangeLog) []byte {
	w := &borsh.Writer{}
	w.U8(0) // ChangeLog
	w.U8(0) // V1
	w.B = append(w.B, cl.Tree[:]...)
	w.U32(uint32(len(cl.Path)))
	for _, n := range cl.Path {
		w.B = append(w.B, n.Node[:]...)
		w.U32(n.Index)
	}
	w.U64(cl.Seq)
	w.U32(cl.Index)
	return w.B
}

// leafEvent is AccountCompressionEvent::ApplicationData(V1) holding a
// Bubblegum LeafSchemaEvent of a V1 leaf.
func leafEvent(l bubblegum.Leaf) []byte {
	app := &borsh.Writer{}
	app.U8(1) // LeafSchemaEvent
	app.U8(0) // version V1
	app.U8(0) // LeafSchema::V1
	for _, k := range []bubblegum.Key{l.ID, l.Owner, l.Delegate} {
		app.B = append(app.B, k[:]...)
	}
	app.U64(l.Nonce)
	app.B = append(app.B, l.DataHash[:]...)
	app.B = append(app.B, l.CreatorHash[:]...)
	app.B = append(app.B, l.LeafHash[:]...)
	w := &borsh.Writer{}
	w.U8(1) // ApplicationData
	w.U8(0) // V1
	w.U32(uint32(len(app.B)))
	w.B = append(w.B, app.B...)
	return w.B
}
