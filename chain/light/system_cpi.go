package light

import (
	"fmt"

	"github.com/dasch-labs/dasch/chain/solana"
)

// The newer system program instructions (invoke_cpi_with_read_only and
// invoke_cpi_with_account_info) share a fixed header and, in mode 1, pass
// only the accounts their options need.

// cpiHeader is the fixed head shared by the read-only and account-info
// instructions.
type cpiHeader struct {
	mode            uint8
	invokingProgram solana.Pubkey
	lamports        uint64
	isCompress      bool
	withCPIContext  bool
}

func readCPIHeader(r *reader) (cpiHeader, error) {
	var h cpiHeader
	var err error
	if h.mode, err = r.u8("mode"); err != nil {
		return h, err
	}
	if _, err = r.u8("bump"); err != nil {
		return h, err
	}
	if h.invokingProgram, err = r.pubkey("invoking program id"); err != nil {
		return h, err
	}
	if h.lamports, err = r.u64("compress or decompress lamports"); err != nil {
		return h, err
	}
	if h.isCompress, err = r.boolean("is compress"); err != nil {
		return h, err
	}
	if h.withCPIContext, err = r.boolean("with cpi context"); err != nil {
		return h, err
	}
	if _, err = r.boolean("with transaction hash"); err != nil {
		return h, err
	}
	if err = skipCPIContext(r); err != nil {
		return h, err
	}
	if err = skipProof(r); err != nil {
		return h, err
	}
	if err = skipVec(r, "new address params", newAddressAssignedSize); err != nil {
		return h, err
	}
	return h, nil
}

// fixedAccounts is how many leading accounts the program itself uses: mode
// 0 passes the full anchor account list; mode 1 only the ones the options
// require (fee payer, authority, registered program PDA, account
// compression program and authority, system program, then optional sol
// pool, decompression recipient and cpi context).
func (h cpiHeader) fixedAccounts() int {
	if h.mode == 0 {
		return invokeCPIFixedAccounts
	}
	n := 6
	if h.lamports > 0 {
		n++
		if !h.isCompress {
			n++
		}
	}
	if h.withCPIContext {
		n++
	}
	return n
}

func decodeReadOnlyBody(r *reader) (*systemCall, error) {
	c := &systemCall{}
	n, err := r.vecLen("input accounts", 8+32+packedMerkleContext+2+8+1)
	if err != nil {
		return nil, err
	}
	c.inputs = make([]packedInput, n)
	for i := range c.inputs {
		name := fmt.Sprintf("input accounts[%d]", i)
		if _, err = r.bytes(8+32, name+" discriminator and data hash"); err != nil {
			return nil, err
		}
		if c.inputs[i].treeIndex, err = readPackedMerkleContext(r, name); err != nil {
			return nil, err
		}
		if _, err = r.bytes(2+8, name+" root index and lamports"); err != nil {
			return nil, err
		}
		if _, err = r.optArray32(name + " address"); err != nil {
			return nil, err
		}
	}
	if c.outputs, err = readPackedOutputs(r, "output accounts"); err != nil {
		return nil, err
	}
	if err = skipReadOnlyTail(r); err != nil {
		return nil, err
	}
	return c, nil
}

func decodeAccountInfoBody(r *reader, h cpiHeader) (*systemCall, error) {
	c := &systemCall{}
	n, err := r.vecLen("account infos", 3)
	if err != nil {
		return nil, err
	}
	for i := range n {
		name := fmt.Sprintf("account infos[%d]", i)
		address, err := r.optArray32(name + " address")
		if err != nil {
			return nil, err
		}
		some, err := r.option(name + " input")
		if err != nil {
			return nil, err
		}
		if some {
			if _, err = r.bytes(8+32, name+" input discriminator and data hash"); err != nil {
				return nil, err
			}
			tree, err := readPackedMerkleContext(r, name+" input")
			if err != nil {
				return nil, err
			}
			if _, err = r.bytes(2+8, name+" input root index and lamports"); err != nil {
				return nil, err
			}
			c.inputs = append(c.inputs, packedInput{treeIndex: tree})
		}
		if some, err = r.option(name + " output"); err != nil {
			return nil, err
		}
		if some {
			d := &AccountData{}
			disc, err := r.bytes(8, name+" output discriminator")
			if err != nil {
				return nil, err
			}
			copy(d.Discriminator[:], disc)
			if d.DataHash, err = r.hash(name + " output data hash"); err != nil {
				return nil, err
			}
			tree, err := r.u8(name + " output merkle tree index")
			if err != nil {
				return nil, err
			}
			lamports, err := r.u64(name + " output lamports")
			if err != nil {
				return nil, err
			}
			raw, err := r.byteVec(name + " output data")
			if err != nil {
				return nil, err
			}
			d.Data = append([]byte{}, raw...)
			c.outputs = append(c.outputs, packedOutput{
				account: compressedAccount{
					owner:    h.invokingProgram,
					lamports: lamports,
					address:  address,
					data:     d,
				},
				treeIndex: tree,
			})
		}
	}
	if err = skipReadOnlyTail(r); err != nil {
		return nil, err
	}
	return c, nil
}

func skipReadOnlyTail(r *reader) error {
	if err := skipVec(r, "read-only addresses", readOnlyAddressSize); err != nil {
		return err
	}
	return skipVec(r, "read-only accounts", readOnlyAccountSize)
}
