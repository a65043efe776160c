package bubblegum

import (
	"encoding/binary"
	"errors"
	"fmt"

	sgo "github.com/gagliardetto/solana-go"

	"github.com/dasch-labs/dasch/chain/solana"
)

// Program ids, as functions so nothing global can be reassigned.
func programID() solana.Pubkey    { return mustKey("BGUMAp9Gq7iTEuizy4pqaxsTyUCBK68MDfK752saRPUY") }
func splNoopID() solana.Pubkey    { return mustKey("noopb9bkMVfRPU8AsbpTUg8AQkHtKwMYZiFUjNRtMmV") }
func mplNoopID() solana.Pubkey    { return mustKey("mnoopTCrg4p8ry25e4bcWA9XZjbNjMTfgYVGGEdRsf3") }
func ProgramID() solana.Pubkey    { return programID() }
func isNoop(p solana.Pubkey) bool { return p == splNoopID() || p == mplNoopID() }

func mustKey(s string) solana.Pubkey {
	k, err := solana.ParsePubkey(s)
	if err != nil {
		panic(err) // constant input: cannot happen
	}
	return k
}

// AssetID is the asset id of leaf nonce in tree: the Bubblegum PDA
// ["asset", tree, nonce (u64 LE)].
func AssetID(tree Key, nonce uint64) (Key, error) {
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], nonce)
	k, _, err := sgo.FindProgramAddress([][]byte{[]byte("asset"), tree[:], n[:]}, sgo.PublicKey(programID()))
	if err != nil {
		return Key{}, fmt.Errorf("bubblegum: asset id of %s/%d: %w", tree, nonce, err)
	}
	return Key(k), nil
}

// ixRef is one instruction of the transaction with the inner instructions
// that carry its noop events.
type ixRef struct {
	ins   *solana.Instruction
	outer int
	inner int // -1 for a top-level instruction
	logs  []*solana.Instruction
}

// Parse returns one Event per Bubblegum leaf instruction of tx, top-level
// or invoked by another program, in execution order. Failed transactions
// changed nothing and give no events. Instructions with an unknown
// discriminator and tree-level instructions (create_tree, ...) are skipped;
// a known instruction whose data or events do not decode is an error.
func Parse(tx *solana.Tx) ([]Event, error) {
	if tx == nil {
		return nil, errors.New("bubblegum: nil transaction")
	}
	if tx.Failed() {
		return nil, nil
	}
	if len(tx.Signatures) == 0 {
		return nil, errors.New("bubblegum: transaction has no signature")
	}
	sig := tx.Signature().String()
	var out []Event
	for _, ref := range bubblegumInstructions(tx) {
		ev, err := parseInstruction(tx, ref)
		if err != nil {
			return nil, fmt.Errorf("bubblegum: tx %s instruction %d.%d: %w", sig, ref.outer, ref.inner, err)
		}
		if ev == nil {
			continue
		}
		ev.Slot = tx.Slot
		ev.Signature = sig
		out = append(out, *ev)
	}
	return out, nil
}

// bubblegumInstructions finds the Bubblegum instructions. A top-level one
// owns every inner instruction of its slot; an inner (CPI) one owns the
// inner instructions after it up to the next Bubblegum instruction, since
// stack heights are not always known.
func bubblegumInstructions(tx *solana.Tx) []ixRef {
	bgum := programID()
	var refs []ixRef
	start := 0
	for i := range tx.Instructions {
		end := start
		for end < len(tx.Inner) && tx.Inner[end].Outer == i {
			end++
		}
		inner := tx.Inner[start:end]
		if tx.Instructions[i].ProgramID == bgum {
			ref := ixRef{ins: &tx.Instructions[i], outer: i, inner: -1}
			for j := range inner {
				ref.logs = append(ref.logs, &inner[j].Instruction)
			}
			refs = append(refs, ref)
		}
		for j := range inner {
			if inner[j].ProgramID != bgum {
				continue
			}
			ref := ixRef{ins: &inner[j].Instruction, outer: i, inner: j}
			for k := j + 1; k < len(inner) && inner[k].ProgramID != bgum; k++ {
				ref.logs = append(ref.logs, &inner[k].Instruction)
			}
			refs = append(refs, ref)
		}
		start = end
	}
	return refs
}

func parseInstruction(tx *solana.Tx, ref ixRef) (*Event, error) {
	data := ref.ins.Data
	if len(data) < 8 {
		return nil, fmt.Errorf("instruction data of %d bytes has no discriminator", len(data))
	}
	name := instructionName(data)
	if name == "" || treeLevel(name) {
		return nil, nil
	}
	ev := &Event{Instruction: name, Outer: ref.outer, Inner: ref.inner}
	ev.Accounts = namedAccounts(tx, ref.ins, accountNames(name))
	if err := decodeArgs(ev, data[8:]); err != nil {
		return nil, fmt.Errorf("%s args: %w", name, err)
	}
	for _, l := range ref.logs {
		if !isNoop(l.ProgramID) || len(l.Data) == 0 {
			continue
		}
		if err := decodeNoop(ev, l.Data); err != nil {
			return nil, fmt.Errorf("%s noop event: %w", name, err)
		}
	}
	if err := identify(ev); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return ev, nil
}

// namedAccounts pairs account keys with names; optional accounts that were
// left out (passed as the Bubblegum program id) are dropped.
func namedAccounts(tx *solana.Tx, ins *solana.Instruction, names []string) map[string]Key {
	bgum := programID()
	m := make(map[string]Key, len(names))
	for i, n := range names {
		if i >= len(ins.Accounts) || int(ins.Accounts[i]) >= len(tx.AccountKeys) {
			break
		}
		k := tx.AccountKeys[ins.Accounts[i]]
		if k == bgum {
			continue
		}
		m[n] = Key(k)
	}
	return m
}

// identify fills AssetID, Tree, LeafID and Seq from the events, or from
// the accounts for instructions that log no leaf.
func identify(ev *Event) error {
	if ev.Instruction == IxDecompressV1 {
		// No tree change: the leaf was removed by redeem. The mint account is
		// the asset id.
		mint, ok := ev.Accounts["mint"]
		if !ok {
			return errors.New("no mint account")
		}
		ev.AssetID = mint
		return nil
	}
	cl := ev.ChangeLog
	if cl == nil {
		return errors.New("no changelog event")
	}
	ev.Tree, ev.Seq, ev.LeafID = cl.Tree, cl.Seq, uint64(cl.Index)
	if ev.Leaf != nil {
		ev.AssetID = ev.Leaf.ID
		if isMint(ev.Instruction) {
			ev.LeafID = ev.Leaf.Nonce
		}
		return nil
	}
	switch ev.Instruction {
	case IxBurn, IxBurnV2, IxRedeem:
		// These log no leaf: the leaf becomes empty.
		id, err := AssetID(cl.Tree, uint64(cl.Index))
		if err != nil {
			return err
		}
		ev.AssetID = id
		return nil
	}
	return errors.New("no leaf schema event")
}

func isMint(ix string) bool {
	return ix == IxMintV1 || ix == IxMintToCollectionV1 || ix == IxMintV2
}

// Leaf-proof argument shapes.
const (
	argRoot = 1 << iota
	argDataHash
	argCreatorHash
	argCollectionHash // Option
	argAssetDataHash  // Option
	argFlags          // Option
	argNonceIndex
)

const (
	argsV1     = argRoot | argDataHash | argCreatorHash | argNonceIndex
	argsV2     = argsV1 | argAssetDataHash | argFlags
	argsV2Coll = argsV2 | argCollectionHash
	argsV2Meta = argRoot | argAssetDataHash | argFlags | argNonceIndex
)

func decodeArgs(ev *Event, data []byte) error {
	r := newReader(data)
	var err error
	switch ev.Instruction {
	case IxMintV1, IxMintToCollectionV1:
		if ev.Metadata, err = r.metadataV1(); err != nil {
			return err
		}
		if ev.Instruction == IxMintToCollectionV1 && ev.Metadata.Collection != nil {
			// The program verifies the collection while minting.
			ev.Metadata.Collection.Verified = true
		}
	case IxMintV2:
		if ev.Metadata, err = r.metadataV2(); err != nil {
			return err
		}
		return r.assetData(ev)
	case IxDecompressV1:
		ev.Metadata, err = r.metadataV1()
		return err
	case IxTransfer, IxBurn, IxDelegate, IxRedeem:
		return r.leafArgs(ev, argsV1)
	case IxCancelRedeem:
		return r.leafArgs(ev, argRoot)
	case IxVerifyCreator, IxUnverifyCreator, IxVerifyCollection, IxUnverifyCollection, IxSetAndVerifyCollection:
		if err = r.leafArgs(ev, argsV1); err != nil {
			return err
		}
		if ev.Metadata, err = r.metadataV1(); err != nil {
			return err
		}
		if ev.Instruction == IxSetAndVerifyCollection {
			k, err := r.key()
			if err != nil {
				return err
			}
			ev.Collection = &k
		}
	case IxUpdateMetadata:
		if err = r.leafArgs(ev, argRoot|argNonceIndex); err != nil {
			return err
		}
		if ev.Metadata, err = r.metadataV1(); err != nil {
			return err
		}
		ev.Update, err = r.updateArgs()
		return err
	case IxTransferV2, IxBurnV2, IxFreezeV2, IxThawV2, IxSetNonTransferableV2:
		return r.leafArgs(ev, argsV2)
	case IxDelegateV2, IxDelegateAndFreezeV2, IxThawAndRevokeV2:
		return r.leafArgs(ev, argsV2Coll)
	case IxSetCollectionV2, IxVerifyCreatorV2, IxUnverifyCreatorV2:
		if err = r.leafArgs(ev, argsV2Meta); err != nil {
			return err
		}
		ev.Metadata, err = r.metadataV2()
		return err
	case IxUpdateMetadataV2:
		if err = r.leafArgs(ev, argsV2Meta); err != nil {
			return err
		}
		if ev.Metadata, err = r.metadataV2(); err != nil {
			return err
		}
		ev.Update, err = r.updateArgs()
		return err
	case IxUpdateAssetDataV2:
		// The asset data hash argument is the previous one.
		if err = r.leafArgs(ev, argsV2); err != nil {
			return err
		}
		return r.assetData(ev)
	}
	return err
}

// leafArgs reads the leaf-proof arguments in program order: root,
// data_hash, creator_hash, collection_hash, asset_data_hash, flags, nonce,
// index (each only when present in shape).
func (r *reader) leafArgs(ev *Event, shape int) error {
	a := &LeafArgs{}
	ev.Args = a
	key := func(dst **Key) error {
		k, err := r.key()
		if err != nil {
			return err
		}
		*dst = &k
		return nil
	}
	var err error
	if shape&argRoot != 0 {
		if err = key(&a.Root); err != nil {
			return err
		}
	}
	if shape&argDataHash != 0 {
		if err = key(&a.DataHash); err != nil {
			return err
		}
	}
	if shape&argCreatorHash != 0 {
		if err = key(&a.CreatorHash); err != nil {
			return err
		}
	}
	if shape&argCollectionHash != 0 {
		if a.CollectionHash, err = r.optKey(); err != nil {
			return err
		}
	}
	if shape&argAssetDataHash != 0 {
		if a.AssetDataHash, err = r.optKey(); err != nil {
			return err
		}
	}
	if shape&argFlags != 0 {
		if a.Flags, err = r.optU8(); err != nil {
			return err
		}
	}
	if shape&argNonceIndex != 0 {
		n, err := r.U64()
		if err != nil {
			return err
		}
		i, err := r.U32()
		if err != nil {
			return err
		}
		a.Nonce, a.Index = &n, &i
	}
	return nil
}

// assetData reads mint_v2's and update_asset_data_v2's optional asset data
// and schema.
func (r *reader) assetData(ev *Event) error {
	ok, err := r.Option()
	if err != nil {
		return err
	}
	if ok {
		if ev.AssetData, err = r.bytes(); err != nil {
			return err
		}
	}
	ev.AssetDataSchema, err = r.optEnum("asset data schema", numDataSchemas)
	return err
}

// Account-compression event tags.
const (
	eventChangeLog       = 0
	eventApplicationData = 1
	bubblegumLeafEvent   = 1 // BubblegumEventType::LeafSchemaEvent
)

// decodeNoop decodes one noop instruction: an AccountCompressionEvent
// holding a changelog or application data. Application data that is not a
// Bubblegum leaf event belongs to someone else and is skipped. The first
// changelog and the first leaf win; Bubblegum logs one of each.
func decodeNoop(ev *Event, data []byte) error {
	r := newReader(data)
	tag, err := r.U8()
	if err != nil {
		return err
	}
	switch tag {
	case eventChangeLog:
		if ev.ChangeLog != nil {
			return nil
		}
		cl, err := r.changeLog()
		if err != nil {
			return fmt.Errorf("changelog: %w", err)
		}
		ev.ChangeLog = cl
	case eventApplicationData:
		if _, err := r.enum("application data version", 1); err != nil {
			return err
		}
		app, err := r.bytes()
		if err != nil {
			return err
		}
		if len(app) == 0 || app[0] != bubblegumLeafEvent || ev.Leaf != nil {
			return nil
		}
		leaf, err := decodeLeaf(app)
		if err != nil {
			return fmt.Errorf("leaf schema: %w", err)
		}
		ev.Leaf = leaf
	}
	// Other tags are not account-compression events: some other user of
	// the noop program.
	return nil
}

func (r *reader) changeLog() (*ChangeLog, error) {
	if _, err := r.enum("changelog version", 1); err != nil {
		return nil, err
	}
	cl := &ChangeLog{}
	var err error
	if cl.Tree, err = r.key(); err != nil {
		return nil, err
	}
	n, err := r.vecLen(36)
	if err != nil {
		return nil, err
	}
	cl.Path = make([]PathNode, n)
	for i := range cl.Path {
		if cl.Path[i].Node, err = r.key(); err != nil {
			return nil, err
		}
		if cl.Path[i].Index, err = r.U32(); err != nil {
			return nil, err
		}
	}
	if cl.Seq, err = r.U64(); err != nil {
		return nil, err
	}
	if cl.Index, err = r.U32(); err != nil {
		return nil, err
	}
	return cl, nil
}

// decodeLeaf reads a LeafSchemaEvent: event type, version, the LeafSchema
// enum and the leaf hash.
func decodeLeaf(app []byte) (*Leaf, error) {
	r := newReader(app[1:])
	if _, err := r.enum("leaf version", 2); err != nil {
		return nil, err
	}
	schema, err := r.enum("leaf schema", 2)
	if err != nil {
		return nil, err
	}
	l := &Leaf{Version: schema + 1}
	for _, k := range []*Key{&l.ID, &l.Owner, &l.Delegate} {
		if *k, err = r.key(); err != nil {
			return nil, err
		}
	}
	if l.Nonce, err = r.U64(); err != nil {
		return nil, err
	}
	if l.DataHash, err = r.key(); err != nil {
		return nil, err
	}
	if l.CreatorHash, err = r.key(); err != nil {
		return nil, err
	}
	if l.Version == 2 {
		ch, err := r.key()
		if err != nil {
			return nil, err
		}
		ah, err := r.key()
		if err != nil {
			return nil, err
		}
		f, err := r.U8()
		if err != nil {
			return nil, err
		}
		l.CollectionHash, l.AssetDataHash, l.Flags = &ch, &ah, &f
	}
	if l.LeafHash, err = r.key(); err != nil {
		return nil, err
	}
	return l, nil
}
