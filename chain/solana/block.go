package solana

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"

	"github.com/goccy/go-json"
)

// Block is a block header: what the blocks table holds. The JSON names
// follow getBlock, for dead-letter payloads.
type Block struct {
	Slot              uint64  `json:"slot"`
	ParentSlot        uint64  `json:"parentSlot"`
	Blockhash         string  `json:"blockhash"`         // base58
	PreviousBlockhash string  `json:"previousBlockhash"` // base58
	BlockHeight       *uint64 `json:"blockHeight"`
	BlockTime         *int64  `json:"blockTime"`
	TxCount           uint32  `json:"transactionCount"`
}

type blockJSON struct {
	Slot              *U64              `json:"slot"`
	Blockhash         string            `json:"blockhash"`
	PreviousBlockhash string            `json:"previousBlockhash"`
	ParentSlot        *U64              `json:"parentSlot"`
	BlockHeight       *U64              `json:"blockHeight"`
	BlockTime         *I64              `json:"blockTime"`
	Transactions      []json.RawMessage `json:"transactions"`
}

// ParseBlock decodes a getBlock result. getBlock results do not carry their
// own slot, so slot is used unless the JSON has a "slot" member. It returns
// the header and each transaction entry as a standalone transaction JSON
// (see BlockEntryJSON).
func ParseBlock(raw []byte, slot uint64) (*Block, [][]byte, error) {
	var in blockJSON
	if err := json.Unmarshal(raw, &in); err != nil {
		return nil, nil, fmt.Errorf("block JSON: %w", err)
	}
	if in.Slot != nil {
		slot = uint64(*in.Slot)
	}
	if in.ParentSlot == nil {
		return nil, nil, errors.New("block JSON: no parentSlot")
	}
	for _, h := range []string{in.Blockhash, in.PreviousBlockhash} {
		if _, err := ParseHash(h); err != nil {
			return nil, nil, fmt.Errorf("block JSON: %w", err)
		}
	}
	if len(in.Transactions) > 1<<32-1 {
		return nil, nil, errors.New("block JSON: too many transactions")
	}
	b := &Block{
		Slot:              slot,
		ParentSlot:        uint64(*in.ParentSlot),
		Blockhash:         in.Blockhash,
		PreviousBlockhash: in.PreviousBlockhash,
		BlockHeight:       optU64(in.BlockHeight),
		BlockTime:         optI64(in.BlockTime),
		TxCount:           uint32(len(in.Transactions)),
	}
	entries := make([][]byte, len(in.Transactions))
	for i, e := range in.Transactions {
		tx, err := BlockEntryJSON(e, slot, b.BlockTime)
		if err != nil {
			return nil, nil, fmt.Errorf("block JSON: transaction %d: %w", i, err)
		}
		entries[i] = tx
	}
	return b, entries, nil
}

// BlockEntryJSON turns a getBlock transaction entry ({transaction, meta,
// version}) into a getTransaction-shaped object by prepending the block's
// slot and blockTime, so it decodes like any transaction and its stored raw
// JSON is self-contained. The output depends only on the input, which keeps
// re-ingestion byte-identical.
func BlockEntryJSON(entry []byte, slot uint64, blockTime *int64) ([]byte, error) {
	e := bytes.TrimSpace(entry)
	if len(e) < 2 || e[0] != '{' {
		return nil, errors.New("entry is not a JSON object")
	}
	rest := bytes.TrimSpace(e[1:])
	out := make([]byte, 0, len(e)+48)
	out = append(out, `{"slot":`...)
	out = strconv.AppendUint(out, slot, 10)
	out = append(out, `,"blockTime":`...)
	if blockTime != nil {
		out = strconv.AppendInt(out, *blockTime, 10)
	} else {
		out = append(out, "null"...)
	}
	if rest[0] != '}' {
		out = append(out, ',')
	}
	return append(out, rest...), nil
}
