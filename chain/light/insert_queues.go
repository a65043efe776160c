package light

import (
	"encoding/binary"
	"fmt"

	"github.com/dasch-labs/dasch/chain/solana"
)

// insertIntoQueues is the account-compression InsertIntoQueues instruction
// the Light system program issues for every state transition: the leaves
// to append, the nullifiers and addresses to queue, and the sequence
// numbers of the trees involved. Its layout is zero-copy: packed
// little-endian structs behind u8 lengths.
type insertIntoQueues struct {
	txHash     Hash
	leaves     []appendLeaf
	nullifiers []insertNullifier
	addresses  []insertAddress
	outputSeqs []rawSeq
	inputSeqs  []rawSeq
	addrSeqs   []rawSeq
	leafIndex  []uint32
	// cpiOutputs are outputs staged in a CPI context by earlier
	// instructions; they precede the executing instruction's own outputs.
	cpiOutputs []packedOutput
}

type appendLeaf struct {
	accountIndex uint8
	leaf         Hash
}

type insertNullifier struct {
	accountHash  Hash
	leafIndex    uint32
	proveByIndex uint8
	treeIndex    uint8
	queueIndex   uint8
}

type insertAddress struct {
	address    [32]byte
	treeIndex  uint8
	queueIndex uint8
}

type rawSeq struct {
	tree     solana.Pubkey
	queue    solana.Pubkey
	treeType uint64
	seq      uint64
}

func (s rawSeq) empty() bool { return s.tree == solana.Pubkey{} }

const (
	insertMetaSize      = 6 + 32
	appendLeafSize      = 1 + 32
	insertNullifierSize = 32 + 4 + 3
	insertAddressSize   = 32 + 2
	rawSeqSize          = 32 + 32 + 8 + 8
)

// decodeInsertIntoQueues decodes the instruction data, discriminator and
// anchor Vec<u8> length included.
func decodeInsertIntoQueues(data []byte) (*insertIntoQueues, error) {
	if len(data) < 12 || discriminator(data) != discInsertIntoQueues {
		return nil, fmt.Errorf("not an InsertIntoQueues instruction")
	}
	r := newReader(data[12:])
	meta, err := r.bytes(insertMetaSize, "header")
	if err != nil {
		return nil, err
	}
	q := &insertIntoQueues{txHash: Hash(meta[6:38])}

	n, err := r.sliceLen("leaves", appendLeafSize)
	if err != nil {
		return nil, err
	}
	q.leaves = make([]appendLeaf, n)
	for i := range q.leaves {
		b, _ := r.bytes(appendLeafSize, "leaf")
		q.leaves[i] = appendLeaf{accountIndex: b[0], leaf: Hash(b[1:33])}
	}

	if n, err = r.sliceLen("nullifiers", insertNullifierSize); err != nil {
		return nil, err
	}
	q.nullifiers = make([]insertNullifier, n)
	for i := range q.nullifiers {
		b, _ := r.bytes(insertNullifierSize, "nullifier")
		q.nullifiers[i] = insertNullifier{
			accountHash:  Hash(b[:32]),
			leafIndex:    binary.LittleEndian.Uint32(b[32:36]),
			proveByIndex: b[36],
			treeIndex:    b[37],
			queueIndex:   b[38],
		}
	}

	if n, err = r.sliceLen("addresses", insertAddressSize); err != nil {
		return nil, err
	}
	q.addresses = make([]insertAddress, n)
	for i := range q.addresses {
		b, _ := r.bytes(insertAddressSize, "address")
		q.addresses[i] = insertAddress{address: [32]byte(b[:32]), treeIndex: b[32], queueIndex: b[33]}
	}

	for _, s := range []struct {
		name string
		dst  *[]rawSeq
	}{{"output sequence numbers", &q.outputSeqs}, {"input sequence numbers", &q.inputSeqs}, {"address sequence numbers", &q.addrSeqs}} {
		if n, err = r.sliceLen(s.name, rawSeqSize); err != nil {
			return nil, err
		}
		seqs := make([]rawSeq, n)
		for i := range seqs {
			b, _ := r.bytes(rawSeqSize, s.name)
			seqs[i] = rawSeq{
				tree:     solana.Pubkey(b[:32]),
				queue:    solana.Pubkey(b[32:64]),
				treeType: binary.LittleEndian.Uint64(b[64:72]),
				seq:      binary.LittleEndian.Uint64(b[72:80]),
			}
		}
		*s.dst = seqs
	}

	if n, err = r.sliceLen("output leaf indices", 4); err != nil {
		return nil, err
	}
	q.leafIndex = make([]uint32, n)
	for i := range q.leafIndex {
		b, _ := r.bytes(4, "output leaf index")
		q.leafIndex[i] = binary.LittleEndian.Uint32(b)
	}

	if q.cpiOutputs, err = readPackedOutputs(r, "cpi context outputs"); err != nil {
		return nil, err
	}
	return q, nil
}
