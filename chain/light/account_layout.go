package light

import (
	"fmt"

	"github.com/dasch-labs/dasch/chain/solana"
)

// compressedAccount is Light's CompressedAccount as serialized in events
// and instruction data.
type compressedAccount struct {
	owner    solana.Pubkey
	lamports uint64
	address  *[32]byte
	data     *AccountData
}

// packedOutput is an output account with the index of its tree (or queue)
// in the instruction's remaining accounts.
type packedOutput struct {
	account   compressedAccount
	treeIndex uint8
}

// Sizes of the smallest encodings, used to bound vector lengths.
const (
	minCompressedAccount = 32 + 8 + 1 + 1
	minPackedOutput      = minCompressedAccount + 1
	packedMerkleContext  = 1 + 1 + 4 + 1
)

func readCompressedAccount(r *reader, what string) (compressedAccount, error) {
	var a compressedAccount
	var err error
	if a.owner, err = r.pubkey(what + " owner"); err != nil {
		return a, err
	}
	if a.lamports, err = r.u64(what + " lamports"); err != nil {
		return a, err
	}
	if a.address, err = r.optArray32(what + " address"); err != nil {
		return a, err
	}
	some, err := r.option(what + " data")
	if err != nil || !some {
		return a, err
	}
	d := &AccountData{}
	disc, err := r.bytes(8, what+" discriminator")
	if err != nil {
		return a, err
	}
	copy(d.Discriminator[:], disc)
	raw, err := r.byteVec(what + " data")
	if err != nil {
		return a, err
	}
	d.Data = append([]byte{}, raw...)
	if d.DataHash, err = r.hash(what + " data hash"); err != nil {
		return a, err
	}
	a.data = d
	return a, nil
}

// readPackedOutputs reads Vec<OutputCompressedAccountWithPackedContext>.
func readPackedOutputs(r *reader, what string) ([]packedOutput, error) {
	n, err := r.vecLen(what, minPackedOutput)
	if err != nil {
		return nil, err
	}
	out := make([]packedOutput, n)
	for i := range out {
		name := fmt.Sprintf("%s[%d]", what, i)
		if out[i].account, err = readCompressedAccount(r, name); err != nil {
			return nil, err
		}
		if out[i].treeIndex, err = r.u8(name + " merkle tree index"); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// packedInput is the part of an input account the indexer needs: which
// remaining account holds its tree.
type packedInput struct {
	treeIndex uint8
}

// readPackedMerkleContext reads PackedMerkleContext {tree index, queue
// index, leaf index, prove by index} and returns the tree index.
func readPackedMerkleContext(r *reader, what string) (uint8, error) {
	tree, err := r.u8(what + " merkle tree index")
	if err != nil {
		return 0, err
	}
	if _, err := r.u8(what + " queue index"); err != nil {
		return 0, err
	}
	if _, err := r.u32(what + " leaf index"); err != nil {
		return 0, err
	}
	if _, err := r.boolean(what + " prove by index"); err != nil {
		return 0, err
	}
	return tree, nil
}

// readPackedInputs reads Vec<PackedCompressedAccountWithMerkleContext>
// {account, merkle context, root index u16, read only bool}.
func readPackedInputs(r *reader, what string) ([]packedInput, error) {
	n, err := r.vecLen(what, minCompressedAccount+packedMerkleContext+3)
	if err != nil {
		return nil, err
	}
	out := make([]packedInput, n)
	for i := range out {
		name := fmt.Sprintf("%s[%d]", what, i)
		if _, err = readCompressedAccount(r, name); err != nil {
			return nil, err
		}
		if out[i].treeIndex, err = readPackedMerkleContext(r, name); err != nil {
			return nil, err
		}
		if _, err = r.u16(name + " root index"); err != nil {
			return nil, err
		}
		if _, err = r.boolean(name + " read only"); err != nil {
			return nil, err
		}
	}
	return out, nil
}
