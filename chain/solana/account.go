package solana

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"

	"github.com/goccy/go-json"
)

// Account is one observed state of an account.
type Account struct {
	Pubkey       Pubkey
	Owner        Pubkey
	Lamports     uint64
	Data         []byte
	Executable   bool
	RentEpoch    uint64
	Slot         uint64
	WriteVersion uint64
}

type accountJSON struct {
	Pubkey       string          `json:"pubkey"`
	Owner        string          `json:"owner"`
	Lamports     *U64            `json:"lamports"`
	Executable   bool            `json:"executable"`
	RentEpoch    U64             `json:"rent_epoch"`
	Data         json.RawMessage `json:"data"`
	Slot         *U64            `json:"slot"`
	WriteVersion U64             `json:"write_version"`
}

// ParseAccount decodes an account snapshot: pubkey, owner, lamports,
// executable, rent_epoch, data (base64, or [base64, "base64"] as RPC
// returns it), slot and write_version. Integers may be decimal strings.
func ParseAccount(raw []byte) (*Account, error) {
	var in accountJSON
	if err := json.Unmarshal(raw, &in); err != nil {
		return nil, fmt.Errorf("account JSON: %w", err)
	}
	if in.Lamports == nil {
		return nil, errors.New("account JSON: no lamports")
	}
	if in.Slot == nil {
		return nil, errors.New("account JSON: no slot")
	}
	a := &Account{
		Lamports:     uint64(*in.Lamports),
		Executable:   in.Executable,
		RentEpoch:    uint64(in.RentEpoch),
		Slot:         uint64(*in.Slot),
		WriteVersion: uint64(in.WriteVersion),
	}
	var err error
	if a.Pubkey, err = ParsePubkey(in.Pubkey); err != nil {
		return nil, err
	}
	if a.Owner, err = ParsePubkey(in.Owner); err != nil {
		return nil, fmt.Errorf("owner: %w", err)
	}
	if a.Data, err = accountData(in.Data); err != nil {
		return nil, fmt.Errorf("data: %w", err)
	}
	return a, nil
}

func accountData(raw json.RawMessage) ([]byte, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil, errors.New("missing")
	}
	var s string
	if raw[0] == '[' {
		var enc [2]string
		if err := json.Unmarshal(raw, &enc); err != nil {
			return nil, fmt.Errorf("expected [data, encoding]: %w", err)
		}
		if enc[1] != "base64" {
			return nil, fmt.Errorf("unsupported encoding %q (want base64)", enc[1])
		}
		s = enc[0]
	} else if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("expected a base64 string: %w", err)
	}
	return base64.StdEncoding.DecodeString(s)
}
