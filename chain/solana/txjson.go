package solana

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"

	"github.com/goccy/go-json"
	"github.com/mr-tron/base58"
)

// txJSON is a getTransaction result, or a getBlock entry with the block's
// slot and blockTime added (see BlockEntryJSON).
type txJSON struct {
	Slot        *U64            `json:"slot"`
	BlockTime   *I64            `json:"blockTime"`
	Transaction json.RawMessage `json:"transaction"`
	Meta        *metaJSON       `json:"meta"`
	Version     json.RawMessage `json:"version"`
}

// messageJSON is a transaction in the "json" encoding.
type messageJSON struct {
	Signatures []string `json:"signatures"`
	Message    struct {
		Header          *Header           `json:"header"`
		AccountKeys     []string          `json:"accountKeys"`
		RecentBlockhash string            `json:"recentBlockhash"`
		Instructions    []instructionJSON `json:"instructions"`
	} `json:"message"`
}

type instructionJSON struct {
	ProgramIDIndex *uint8  `json:"programIdIndex"`
	Accounts       []uint8 `json:"accounts"`
	Data           string  `json:"data"` // base58
	StackHeight    *uint32 `json:"stackHeight"`
}

func (in *instructionJSON) decode() (Instruction, error) {
	if in.ProgramIDIndex == nil {
		return Instruction{}, errors.New("no programIdIndex (jsonParsed encoding is not supported)")
	}
	data, err := decodeBase58(in.Data)
	if err != nil {
		return Instruction{}, fmt.Errorf("data: %w", err)
	}
	return Instruction{ProgramIndex: *in.ProgramIDIndex, Accounts: in.Accounts, Data: data}, nil
}

// ParseTx decodes a getTransaction result (encoding base64, base58 or json,
// legacy or v0 messages) into a Tx; raw is kept as Tx.Raw.
func ParseTx(raw []byte) (*Tx, error) {
	var in txJSON
	if err := json.Unmarshal(raw, &in); err != nil {
		return nil, fmt.Errorf("transaction JSON: %w", err)
	}
	if in.Slot == nil {
		return nil, errors.New("transaction JSON: no slot")
	}
	t := &Tx{Slot: uint64(*in.Slot), BlockTime: optI64(in.BlockTime), Raw: raw}
	var lookups int
	if err := decodeMessage(t, in.Transaction, in.Version, &lookups); err != nil {
		return nil, err
	}
	if len(t.Signatures) == 0 {
		return nil, errors.New("transaction has no signature")
	}
	if len(t.AccountKeys) == 0 {
		return nil, errors.New("transaction has no account keys")
	}
	if err := applyMeta(t, in.Meta, lookups); err != nil {
		return nil, fmt.Errorf("meta: %w", err)
	}
	if err := t.resolve(); err != nil {
		return nil, err
	}
	return t, nil
}

// decodeMessage fills signatures, header, static keys and outer
// instructions; lookups receives how many addresses lookup tables add.
func decodeMessage(t *Tx, msg, version json.RawMessage, lookups *int) error {
	msg = bytes.TrimSpace(msg)
	if len(msg) == 0 || string(msg) == "null" {
		return errors.New("transaction JSON: no transaction")
	}
	switch msg[0] {
	case '[':
		var enc [2]string
		if err := json.Unmarshal(msg, &enc); err != nil {
			return fmt.Errorf("transaction: expected [data, encoding]: %w", err)
		}
		var b []byte
		var err error
		switch enc[1] {
		case "base64":
			b, err = base64.StdEncoding.DecodeString(enc[0])
		case "base58":
			b, err = decodeBase58(enc[0])
		default:
			return fmt.Errorf("transaction: unsupported encoding %q (want base64, base58 or json)", enc[1])
		}
		if err != nil {
			return fmt.Errorf("transaction: %s: %w", enc[1], err)
		}
		w, err := decodeWire(b)
		if err != nil {
			return fmt.Errorf("transaction wire format: %w", err)
		}
		h := w.header
		t.Signatures, t.Version, t.Header, t.RecentBlockhash = w.sigs, w.version, &h, w.blockhash
		t.AccountKeys, t.Instructions = w.keys, w.ins
		*lookups = w.loadedCount()
	case '{':
		var m messageJSON
		if err := json.Unmarshal(msg, &m); err != nil {
			return fmt.Errorf("transaction message JSON: %w", err)
		}
		v, err := parseVersion(version)
		if err != nil {
			return err
		}
		t.Version, t.Header = v, m.Message.Header
		t.Signatures = make([]Signature, len(m.Signatures))
		for i, s := range m.Signatures {
			if t.Signatures[i], err = ParseSignature(s); err != nil {
				return err
			}
		}
		if m.Message.RecentBlockhash != "" {
			if t.RecentBlockhash, err = ParseHash(m.Message.RecentBlockhash); err != nil {
				return fmt.Errorf("recentBlockhash: %w", err)
			}
		}
		if t.AccountKeys, err = parsePubkeys(m.Message.AccountKeys); err != nil {
			return fmt.Errorf("accountKeys: %w", err)
		}
		t.Instructions = make([]Instruction, len(m.Message.Instructions))
		for i := range m.Message.Instructions {
			if t.Instructions[i], err = m.Message.Instructions[i].decode(); err != nil {
				return errAt("instruction", i, err)
			}
		}
		// Lookups are not listed in this encoding; meta.loadedAddresses is
		// taken as given.
		*lookups = -1
	default:
		return errors.New("transaction: expected [data, encoding] or a message object")
	}
	t.NumStaticKeys = len(t.AccountKeys)
	return nil
}

func parseVersion(v json.RawMessage) (int, error) {
	s := string(bytes.TrimSpace(v))
	switch s {
	case "", "null", `"legacy"`:
		return -1, nil
	case "0":
		return 0, nil
	}
	return 0, fmt.Errorf("unsupported transaction version %s", s)
}

func parsePubkeys(ss []string) ([]Pubkey, error) {
	out := make([]Pubkey, len(ss))
	for i, s := range ss {
		k, err := ParsePubkey(s)
		if err != nil {
			return nil, err
		}
		out[i] = k
	}
	return out, nil
}

// decodeBase58 accepts the empty string, which encodes empty data.
func decodeBase58(s string) ([]byte, error) {
	if s == "" {
		return []byte{}, nil
	}
	return base58.Decode(s)
}
