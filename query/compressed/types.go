package compressed

import (
	"encoding/binary"
	"fmt"
	"strconv"

	"github.com/dasch-labs/dasch/chain/light"
	"github.com/dasch-labs/dasch/store"
)

// Key is a 32-byte value: a pubkey or a hash.
type Key [32]byte

// Signature is a 64-byte transaction signature.
type Signature [64]byte

// Account is one compressed account as created, with its token data when
// it is a compressed token account.
type Account struct {
	Hash          Key
	Tree          Key
	Queue         Key
	TreeType      uint8
	LeafIndex     uint64
	Seq           *uint64 // nil while a batched tree's output waits in its queue
	InOutputQueue bool
	SlotCreated   uint64
	Owner         Key
	Lamports      uint64
	Address       *Key
	// Data is set when the account carries typed data.
	Data *AccountData

	IsToken    bool
	Mint       Key
	TokenOwner Key
	Amount     uint64
	Delegate   *Key
	TokenState uint8
	TLV        []byte // nil when the token account has no extensions
}

// AccountData is the typed payload of an account.
type AccountData struct {
	Discriminator uint64
	Data          []byte
	DataHash      Key
}

// accountColumns are read in this order by scanAccount.
const accountColumns = `hash, tree, queue, tree_type, leaf_index, seq, in_output_queue, slot_created,
	owner, lamports, address, discriminator, data, data_hash,
	is_token, mint, token_owner, amount, delegate, token_state, tlv`

func scanAccount(r []any) (Account, error) {
	a, stored, err := scanStored(r)
	if err != nil {
		return Account{}, err
	}
	// A token account's data is stored only when its token columns do not
	// encode back to it; otherwise it is rebuilt from them.
	if a.IsToken && a.Data != nil && !stored {
		a.RebuildTokenData()
	}
	return a, nil
}

// RebuildTokenData sets a token account's data bytes from its token
// columns, for the accounts stored without them (see scanAccount). a.Data
// must be set.
func (a *Account) RebuildTokenData() {
	a.Data.Data = light.AppendTokenData(make([]byte, 0, light.TokenDataMaxLen+len(a.TLV)), (*[32]byte)(&a.Mint), (*[32]byte)(&a.TokenOwner),
		a.Amount, (*[32]byte)(a.Delegate), a.TokenState, a.TLV)
}

// scanStored reads an account row as stored: a token account's data stays
// nil unless stored (stored reports whether the data column was set).
func scanStored(r []any) (a Account, stored bool, err error) {
	if len(r) < 21 {
		return Account{}, false, fmt.Errorf("account row has %d columns, want 21", len(r))
	}
	set := func(dst *Key, v any) {
		if err == nil {
			err = copyKey(dst, v)
		}
	}
	set(&a.Hash, r[0])
	set(&a.Tree, r[1])
	set(&a.Queue, r[2])
	set(&a.Owner, r[8])
	set(&a.Mint, r[15])
	set(&a.TokenOwner, r[16])
	if err != nil {
		return Account{}, false, err
	}
	a.TreeType, _ = r[3].(uint8)
	a.LeafIndex, _ = r[4].(uint64)
	if v, ok := r[5].(uint64); ok {
		a.Seq = &v
	}
	a.InOutputQueue, _ = r[6].(bool)
	a.SlotCreated, _ = r[7].(uint64)
	a.Lamports, _ = r[9].(uint64)
	if a.Address, err = optKey(r[10]); err != nil {
		return Account{}, false, err
	}
	if d, ok := r[11].(uint64); ok {
		a.Data = &AccountData{Discriminator: d}
		if s, ok := r[12].(string); ok {
			a.Data.Data = []byte(s)
		}
		if r[13] != nil {
			if err := copyKey(&a.Data.DataHash, r[13]); err != nil {
				return Account{}, false, err
			}
		}
	}
	a.IsToken, _ = r[14].(bool)
	a.Amount, _ = r[17].(uint64)
	if a.Delegate, err = optKey(r[18]); err != nil {
		return Account{}, false, err
	}
	a.TokenState, _ = r[19].(uint8)
	if s, ok := r[20].(string); ok {
		a.TLV = []byte(s)
	}
	return a, r[12] != nil, nil
}

func scanAccounts(res *store.Result) ([]Account, error) {
	out := make([]Account, 0, len(res.Rows))
	for _, r := range res.Rows {
		a, err := scanAccount(r)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

func copyKey(dst *Key, v any) error {
	s, ok := v.(string)
	if !ok || len(s) != len(dst) {
		return fmt.Errorf("key column holds %T of %d bytes, want 32 bytes", v, len(s))
	}
	copy(dst[:], s)
	return nil
}

// keyAmount reads a (key, UInt64) row: a balance's mint or a holder's
// owner, and the amount.
func keyAmount(r []any, k *Key) (uint64, error) {
	if err := copyKey(k, r[0]); err != nil {
		return 0, err
	}
	v, ok := r[1].(uint64)
	if !ok {
		return 0, fmt.Errorf("amount column holds %T, want UInt64", r[1])
	}
	return v, nil
}

func optKey(v any) (*Key, error) {
	if v == nil {
		return nil, nil
	}
	var k Key
	if err := copyKey(&k, v); err != nil {
		return nil, err
	}
	return &k, nil
}

// Params helpers: every user value travels as a typed param.

func keyParam(k Key) string { return string(k[:]) }

func sigParam(s Signature) string { return string(s[:]) }

func u64Param(v uint64) string { return strconv.FormatUint(v, 10) }

// keysParam packs keys into one String param that keySet unpacks, so a list
// of any length is one bound value.
func keysParam(keys []Key) string {
	b := make([]byte, 0, 32*len(keys))
	for _, k := range keys {
		b = append(b, k[:]...)
	}
	return string(b)
}

// keySet is the SQL set of the 32-byte keys packed in the String param p.
func keySet(p string) string {
	return `(SELECT toFixedString(substring({` + p + `:String}, number * 32 + 1, 32), 32)
		FROM numbers(intDiv(length({` + p + `:String}), 32)))`
}

// HolderCursor is the last row of a holders page: balance then owner.
type HolderCursor struct {
	Balance uint64
	Owner   Key
}

// Bytes is the cursor's wire form: u64-LE balance ‖ owner (40 bytes).
func (c HolderCursor) Bytes() []byte {
	b := binary.LittleEndian.AppendUint64(make([]byte, 0, 40), c.Balance)
	return append(b, c.Owner[:]...)
}

// TokenCursor is the last row of a token accounts page: mint then hash.
type TokenCursor struct {
	Mint Key
	Hash Key
}

// Bytes is the cursor's wire form: mint ‖ hash (64 bytes).
func (c TokenCursor) Bytes() []byte {
	return append(append(make([]byte, 0, 64), c.Mint[:]...), c.Hash[:]...)
}

// SigCursor is the last row of a signatures page: slot then signature.
type SigCursor struct {
	Slot      uint64
	Signature Signature
}

// Bytes is the cursor's wire form: u64-LE slot ‖ signature (72 bytes).
func (c SigCursor) Bytes() []byte {
	b := binary.LittleEndian.AppendUint64(make([]byte, 0, 72), c.Slot)
	return append(b, c.Signature[:]...)
}

// Cursor lengths on the wire.
const (
	HolderCursorLen = 40
	TokenCursorLen  = 64
	SigCursorLen    = 72
)

// HolderCursorFrom decodes a holders cursor of HolderCursorLen bytes.
func HolderCursorFrom(b []byte) (HolderCursor, bool) {
	var c HolderCursor
	if len(b) != HolderCursorLen {
		return c, false
	}
	c.Balance = binary.LittleEndian.Uint64(b[:8])
	copy(c.Owner[:], b[8:])
	return c, true
}

// TokenCursorFrom decodes a token accounts cursor of TokenCursorLen bytes.
func TokenCursorFrom(b []byte) (TokenCursor, bool) {
	var c TokenCursor
	if len(b) != TokenCursorLen {
		return c, false
	}
	copy(c.Mint[:], b[:32])
	copy(c.Hash[:], b[32:])
	return c, true
}

// SigCursorFrom decodes a signatures cursor of SigCursorLen bytes.
func SigCursorFrom(b []byte) (SigCursor, bool) {
	var c SigCursor
	if len(b) != SigCursorLen {
		return c, false
	}
	c.Slot = binary.LittleEndian.Uint64(b[:8])
	copy(c.Signature[:], b[8:])
	return c, true
}
