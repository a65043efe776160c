package light

import (
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/internal/b58"
)

// Hash is a 32-byte value of the BN254 field: an account hash, a data hash,
// a nullifier or a transaction hash.
type Hash [32]byte

func (h Hash) String() string { return b58.Encode(h[:]) }

// Events is what one transaction did to compressed state, in execution
// order. A failed transaction, or one without Light events, gives an empty
// value.
type Events struct {
	Signature solana.Signature
	Slot      uint64
	// Compression is true when the transaction carried at least one Light
	// event (Photon records such signatures as compression transactions).
	Compression bool

	Outputs      []OutputAccount // accounts created
	Inputs       []InputAccount  // accounts spent
	NewAddresses []NewAddress

	// Sequence numbers the events report, per tree.
	OutputSeqs  []TreeSeq
	InputSeqs   []TreeSeq // batched (V2) input queues only
	AddressSeqs []TreeSeq // batched (V2) address queues only

	// Forester updates.
	Nullifications []LeafNullification // V1 state tree leaves set to zero
	IndexedUpdates []IndexedLeafUpdate // V1 address tree leaves
	BatchUpdates   []BatchUpdate       // V2 batch append / nullify / address append
}

// OutputAccount is a compressed account created by the transaction.
type OutputAccount struct {
	Hash Hash
	// Tree and Queue are the state tree and its queue. The event may name
	// either (V2 outputs name the output queue); both are resolved through
	// the TreeLookup. For an UnknownTree output, Tree is the pubkey the event
	// named and Queue is zero.
	Tree      solana.Pubkey
	Queue     solana.Pubkey
	TreeType  TreeType
	LeafIndex uint32
	// Seq is the tree's sequence number for the append; nil for batched
	// (V2) trees, whose outputs wait in the output queue.
	Seq           *uint64
	InOutputQueue bool
	SlotCreated   uint64

	Owner    solana.Pubkey
	Lamports uint64
	Address  *[32]byte
	Data     *AccountData
	// Token is the decoded token data of a compressed token account.
	Token *TokenData

	// UnknownTree marks an output whose tree the lookup does not know;
	// Photon drops such outputs.
	UnknownTree bool
	Signature   solana.Signature
}

// AccountData is the typed payload of a compressed account.
type AccountData struct {
	Discriminator [8]byte
	Data          []byte
	DataHash      Hash
}

// InputAccount is a compressed account spent by the transaction.
type InputAccount struct {
	Hash Hash
	// V2 is set for accounts spent from a batched state tree: they go to
	// the tree's input queue until a forester nullifies them.
	V2 *BatchedInput
}

// BatchedInput is the input-queue entry of a spent V2 account.
type BatchedInput struct {
	Tree      solana.Pubkey
	LeafIndex uint32
	Nullifier Hash
	// TxHash is the transaction hash the nullifier commits to; zero when the
	// transaction did not ask the system program to compute one.
	TxHash     Hash
	QueueIndex uint64 // position in the tree's input queue
}

// NewAddress is an address the transaction created.
type NewAddress struct {
	Address [32]byte
	Tree    solana.Pubkey
	// QueueIndex is the position in a batched (V2) address tree's queue; nil
	// for V1 address trees, whose inserts arrive as IndexedUpdates.
	QueueIndex  *uint64
	UnknownTree bool
}

// TreeSeq is a sequence number an event reports for a tree. For output
// queues of batched trees Seq is the first leaf index appended.
type TreeSeq struct {
	Tree  solana.Pubkey
	Queue solana.Pubkey // zero when the event does not say
	// TreeType is the type the program wrote, 0 when the event does not say.
	TreeType uint64
	Seq      uint64
}

// LeafNullification is a V1 state tree leaf replaced by zero.
type LeafNullification struct {
	Tree      solana.Pubkey
	LeafIndex uint64
	Seq       uint64
}

// IndexedLeafUpdate is a leaf written into a V1 (indexed) address tree.
type IndexedLeafUpdate struct {
	Tree solana.Pubkey
	Leaf IndexedElement
	Hash Hash
	Seq  uint64
}

// IndexedElement is an element of an indexed Merkle tree: a value and the
// next larger value with its index, forming a sorted linked list.
type IndexedElement struct {
	Value     [32]byte
	NextIndex uint64
	NextValue [32]byte
	Index     uint64
}

// BatchKind is what a forester batch did to a V2 tree.
type BatchKind uint8

const (
	BatchAppend BatchKind = iota + 1
	BatchNullify
	BatchAddressAppend
)

func (k BatchKind) String() string {
	switch k {
	case BatchAppend:
		return "batch append"
	case BatchNullify:
		return "batch nullify"
	case BatchAddressAppend:
		return "batch address append"
	}
	return "unknown batch"
}

// BatchUpdate is a forester batch applied to a V2 tree.
type BatchUpdate struct {
	Kind          BatchKind
	Tree          solana.Pubkey
	BatchIndex    uint64
	ZKPBatchIndex uint64
	ZKPBatchSize  uint64
	OldNextIndex  uint64
	NewNextIndex  uint64
	NewRoot       Hash
	RootIndex     uint32
	Seq           uint64
	OutputQueue   *solana.Pubkey
}
