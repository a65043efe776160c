package solana

import (
	"bytes"
	"errors"
	"fmt"
	"sort"

	"github.com/goccy/go-json"
)

// metaJSON is the status half of a transaction result.
type metaJSON struct {
	Err               json.RawMessage `json:"err"`
	Fee               U64             `json:"fee"`
	InnerInstructions []innerSetJSON  `json:"innerInstructions"`
	LogMessages       []string        `json:"logMessages"`
	LoadedAddresses   *struct {
		Writable []string `json:"writable"`
		Readonly []string `json:"readonly"`
	} `json:"loadedAddresses"`
	ComputeUnitsConsumed *U64  `json:"computeUnitsConsumed"`
	PostBalances         []U64 `json:"postBalances"`
}

// innerSetJSON lists the instructions one outer instruction invoked.
type innerSetJSON struct {
	Index        int               `json:"index"`
	Instructions []instructionJSON `json:"instructions"`
}

// applyMeta adds the status: error, fee, loaded addresses (completing the
// key list), inner instructions and logs. lookups is the number of loaded
// addresses the message expects, -1 if unknown.
func applyMeta(t *Tx, m *metaJSON, lookups int) error {
	if m == nil {
		if lookups > 0 {
			return errors.New("missing, but the message uses address lookup tables")
		}
		return nil
	}
	if e := bytes.TrimSpace(m.Err); len(e) > 0 && string(e) != "null" {
		var buf bytes.Buffer
		if err := json.Compact(&buf, e); err != nil {
			return fmt.Errorf("err: %w", err)
		}
		t.Err = buf.Bytes()
	}
	t.Fee = uint64(m.Fee)
	t.ComputeUnits = optU64(m.ComputeUnitsConsumed)
	t.LogMessages = m.LogMessages
	if la := m.LoadedAddresses; la != nil {
		if lookups >= 0 && len(la.Writable)+len(la.Readonly) != lookups {
			return fmt.Errorf("loadedAddresses has %d addresses, the lookup tables select %d",
				len(la.Writable)+len(la.Readonly), lookups)
		}
		t.NumLoadedWritable = len(la.Writable)
		for _, list := range [][]string{la.Writable, la.Readonly} {
			keys, err := parsePubkeys(list)
			if err != nil {
				return fmt.Errorf("loadedAddresses: %w", err)
			}
			t.AccountKeys = append(t.AccountKeys, keys...)
		}
	} else if lookups > 0 {
		return errors.New("no loadedAddresses, but the message uses address lookup tables")
	}
	// Balances that do not line up with the keys say nothing reliable
	// about any key; the rest of the transaction is still good.
	if len(m.PostBalances) == len(t.AccountKeys) {
		t.PostBalances = make([]uint64, len(m.PostBalances))
		for i, b := range m.PostBalances {
			t.PostBalances[i] = uint64(b)
		}
	}
	// Sets are listed per outer instruction; order them so Inner is in
	// execution order even if a source lists them otherwise.
	sets := m.InnerInstructions
	sort.SliceStable(sets, func(i, j int) bool { return sets[i].Index < sets[j].Index })
	for _, set := range sets {
		if set.Index < 0 || set.Index >= len(t.Instructions) {
			return fmt.Errorf("innerInstructions index %d out of range (%d instructions)", set.Index, len(t.Instructions))
		}
		for i := range set.Instructions {
			in, err := set.Instructions[i].decode()
			if err != nil {
				return fmt.Errorf("inner instruction %d of %d: %w", i, set.Index, err)
			}
			ii := InnerInstruction{Instruction: in, Outer: set.Index}
			if sh := set.Instructions[i].StackHeight; sh != nil {
				ii.StackHeight = *sh
			}
			t.Inner = append(t.Inner, ii)
		}
	}
	return nil
}
