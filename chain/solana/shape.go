package solana

import (
	"fmt"

	"github.com/goccy/go-json"
)

// Shape is what kind of record a JSON document is.
type Shape uint8

const (
	ShapeUnknown Shape = iota
	ShapeBlock         // getBlock result: blockhash and transactions
	ShapeTx            // getTransaction result: transaction and slot
	ShapeAccount       // account snapshot: pubkey, owner and data
)

func (s Shape) String() string {
	switch s {
	case ShapeBlock:
		return "block"
	case ShapeTx:
		return "transaction"
	case ShapeAccount:
		return "account"
	}
	return "unknown"
}

// present records that a member exists without decoding or copying it, so
// probing a large block stays cheap.
type present bool

func (p *present) UnmarshalJSON([]byte) error { *p = true; return nil }

type probeJSON struct {
	Blockhash    present `json:"blockhash"`
	Transactions present `json:"transactions"`
	Transaction  present `json:"transaction"`
	Pubkey       present `json:"pubkey"`
	Owner        present `json:"owner"`
	Data         present `json:"data"`
	Slot         *U64    `json:"slot"`
}

// Probe classifies a JSON document by its members and returns its "slot"
// member when it has one.
func Probe(raw []byte) (Shape, *uint64, error) {
	var p probeJSON
	if err := json.Unmarshal(raw, &p); err != nil {
		return ShapeUnknown, nil, fmt.Errorf("decode JSON: %w", err)
	}
	slot := optU64(p.Slot)
	switch {
	case bool(p.Blockhash && p.Transactions):
		return ShapeBlock, slot, nil
	case bool(p.Transaction) && p.Slot != nil:
		return ShapeTx, slot, nil
	case bool(p.Pubkey && p.Owner && p.Data):
		return ShapeAccount, slot, nil
	}
	return ShapeUnknown, slot, nil
}
