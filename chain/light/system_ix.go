package light

import (
	"fmt"

	"github.com/dasch-labs/dasch/chain/solana"
)

// systemCall is what the indexer needs from a Light system program
// instruction: its output and input accounts, and the remaining accounts
// (after the program's fixed accounts) that their tree indexes point into.
type systemCall struct {
	outputs   []packedOutput
	inputs    []packedInput
	remaining []solana.Pubkey
}

// Encoded sizes of fixed-size structs.
const (
	compressedProofSize       = 32 + 64 + 32
	newAddressParamsSize      = 32 + 1 + 1 + 2
	newAddressAssignedSize    = newAddressParamsSize + 1 + 1
	readOnlyAddressSize       = 32 + 2 + 1
	readOnlyAccountSize       = 32 + packedMerkleContext + 2
	invokeFixedAccounts       = 9
	invokeCPIFixedAccounts    = 11
	minReadOnlyFamilyAccounts = 5
)

// decodeSystemCall decodes invoke, invoke_cpi, invoke_cpi_with_read_only
// and invoke_cpi_with_account_info. data is at least 12 bytes long (the
// caller's classification guarantees it).
func decodeSystemCall(data []byte, accounts []solana.Pubkey) (*systemCall, error) {
	if len(data) < 12 {
		return nil, fmt.Errorf("instruction data is %d bytes, want at least 12", len(data))
	}
	disc := discriminator(data)
	switch disc {
	case discInvoke:
		if len(accounts) < invokeFixedAccounts {
			return nil, fmt.Errorf("invoke: %d accounts, want at least %d", len(accounts), invokeFixedAccounts)
		}
		// Anchor passes the struct as a Vec<u8>: skip its u32 length.
		c, err := decodeInvoke(newReader(data[12:]))
		if err != nil {
			return nil, fmt.Errorf("invoke: %w", err)
		}
		c.remaining = accounts[invokeFixedAccounts:]
		return c, nil
	case discInvokeCPI:
		if len(accounts) < invokeCPIFixedAccounts {
			return nil, fmt.Errorf("invoke_cpi: %d accounts, want at least %d", len(accounts), invokeCPIFixedAccounts)
		}
		c, err := decodeInvokeCPI(newReader(data[12:]))
		if err != nil {
			return nil, fmt.Errorf("invoke_cpi: %w", err)
		}
		c.remaining = accounts[invokeCPIFixedAccounts:]
		return c, nil
	case discInvokeCPIReadOnly, discInvokeCPIAccountInfo:
		name := "invoke_cpi_with_read_only"
		if disc == discInvokeCPIAccountInfo {
			name = "invoke_cpi_with_account_info"
		}
		if len(accounts) < minReadOnlyFamilyAccounts {
			return nil, fmt.Errorf("%s: %d accounts, want at least %d", name, len(accounts), minReadOnlyFamilyAccounts)
		}
		r := newReader(data[8:])
		h, err := readCPIHeader(r)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		var c *systemCall
		if disc == discInvokeCPIReadOnly {
			c, err = decodeReadOnlyBody(r)
		} else {
			c, err = decodeAccountInfoBody(r, h)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		n := h.fixedAccounts()
		if n > len(accounts) {
			return nil, fmt.Errorf("%s: %d accounts, the instruction's options need %d", name, len(accounts), n)
		}
		c.remaining = accounts[n:]
		return c, nil
	}
	return nil, fmt.Errorf("unknown Light system instruction %#016x", disc)
}

func decodeInvoke(r *reader) (*systemCall, error) {
	c := &systemCall{}
	var err error
	if err = skipProof(r); err != nil {
		return nil, err
	}
	if c.inputs, err = readPackedInputs(r, "input accounts"); err != nil {
		return nil, err
	}
	if c.outputs, err = readPackedOutputs(r, "output accounts"); err != nil {
		return nil, err
	}
	if _, err = r.optU64("relay fee"); err != nil {
		return nil, err
	}
	if err = skipVec(r, "new address params", newAddressParamsSize); err != nil {
		return nil, err
	}
	if _, err = r.optU64("compress or decompress lamports"); err != nil {
		return nil, err
	}
	if _, err = r.boolean("is compress"); err != nil {
		return nil, err
	}
	return c, nil
}

func decodeInvokeCPI(r *reader) (*systemCall, error) {
	c := &systemCall{}
	var err error
	if err = skipProof(r); err != nil {
		return nil, err
	}
	if err = skipVec(r, "new address params", newAddressParamsSize); err != nil {
		return nil, err
	}
	if c.inputs, err = readPackedInputs(r, "input accounts"); err != nil {
		return nil, err
	}
	if c.outputs, err = readPackedOutputs(r, "output accounts"); err != nil {
		return nil, err
	}
	if _, err = r.optU64("relay fee"); err != nil {
		return nil, err
	}
	if _, err = r.optU64("compress or decompress lamports"); err != nil {
		return nil, err
	}
	if _, err = r.boolean("is compress"); err != nil {
		return nil, err
	}
	some, err := r.option("cpi context")
	if err != nil {
		return nil, err
	}
	if some {
		if err = skipCPIContext(r); err != nil {
			return nil, err
		}
	}
	return c, nil
}

func skipProof(r *reader) error {
	some, err := r.option("proof")
	if err != nil || !some {
		return err
	}
	_, err = r.bytes(compressedProofSize, "proof")
	return err
}

func skipCPIContext(r *reader) error {
	if _, err := r.boolean("cpi context set"); err != nil {
		return err
	}
	if _, err := r.boolean("cpi context first set"); err != nil {
		return err
	}
	_, err := r.u8("cpi context account index")
	return err
}

// skipVec skips a borsh vector of fixed-size elements. Bool fields inside
// them are not checked; nothing the indexer keeps depends on them.
func skipVec(r *reader, what string, size int) error {
	n, err := r.vecLen(what, size)
	if err != nil {
		return err
	}
	_, err = r.bytes(n*size, what)
	return err
}
