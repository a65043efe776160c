package parsed

import (
	"errors"
	"fmt"
	"unicode/utf8"
)

var ataAccounts = []string{"payer", "associatedAccount", "wallet", "mint", "systemProgram", "tokenProgram"}

// decodeATA decodes the Associated Token Account program: no data (the
// original create) or a u8 tag.
func decodeATA(data []byte, _ int) (op, error) {
	if len(data) == 0 {
		return op{name: "create", accounts: ataAccounts}, nil
	}
	if len(data) > 1 {
		return op{}, errLong
	}
	switch data[0] {
	case 0:
		return op{name: "create", accounts: ataAccounts}, nil
	case 1:
		return op{name: "createIdempotent", accounts: ataAccounts}, nil
	case 2:
		return op{name: "recoverNested", accounts: []string{"nestedAssociatedAccount", "nestedMint",
			"destinationAssociatedAccount", "ownerAssociatedAccount", "ownerMint", "wallet", "tokenProgram"}}, nil
	}
	return op{}, fmt.Errorf("unknown associated token account instruction %d", data[0])
}

// decodeComputeBudget decodes the Compute Budget program (a u8 tag).
func decodeComputeBudget(data []byte, _ int) (op, error) {
	r := &reader{b: data}
	tag := r.u8()
	var o op
	switch {
	case r.err != nil:
		return op{}, r.err
	case tag == 0:
		o = op{name: "requestUnits", args: map[string]any{"units": r.u32(), "additionalFee": r.u32()}}
	case tag == 1:
		o = op{name: "requestHeapFrame", args: map[string]any{"bytes": r.u32()}}
	case tag == 2:
		o = op{name: "setComputeUnitLimit", args: map[string]any{"units": r.u32()}}
	case tag == 3:
		o = op{name: "setComputeUnitPrice", args: map[string]any{"microLamports": r.u64()}}
	case tag == 4:
		o = op{name: "setLoadedAccountsDataSizeLimit", args: map[string]any{"bytes": r.u32()}}
	default:
		return op{}, fmt.Errorf("unknown compute budget instruction %d", tag)
	}
	if err := r.done(); err != nil {
		return op{}, fmt.Errorf("%s: %w", o.name, err)
	}
	return o, nil
}

// decodeMemo decodes a memo: its data is the UTF-8 text, its accounts
// signers.
func decodeMemo(data []byte, n int) (op, error) {
	if !utf8.Valid(data) {
		return op{}, errors.New("memo is not UTF-8")
	}
	acc := make([]string, n)
	for i := range acc {
		acc[i] = "signer"
	}
	return op{name: "memo", args: map[string]any{"memo": string(data)}, accounts: acc}, nil
}
