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

func scanAccount(r *store.Row) (Account, error) {
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
func scanStored(r *store.Row) (a Account, stored bool, err error) {
	if r.Len() < 21 {
		return Account{}, false, fmt.Errorf("account row has %d columns, want 21", r.Len())
	}
	a.Hash = r.Key(0)
	a.Tree = r.Key(1)
	a.Queue = r.Key(2)
	a.TreeType = r.U8(3)
	a.LeafIndex = r.U64(4)
	if v, ok := r.OptU64(5); ok {
		a.Seq = &v
	}
	a.InOutputQueue = r.Bool(6)
	a.SlotCreated = r.U64(7)
	a.Owner = r.Key(8)
	a.Lamports = r.U64(9)
	a.Address = optKey(r, 10)
	if d, ok := r.OptU64(11); ok {
		a.Data = &AccountData{Discriminator: d}
		if s, ok := r.OptStr(12); ok {
			a.Data.Data = []byte(s)
		}
		if h, ok := r.OptKey(13); ok {
			a.Data.DataHash = h
		}
	}
	a.IsToken = r.Bool(14)
	a.Mint = r.Key(15)
	a.TokenOwner = r.Key(16)
	a.Amount = r.U64(17)
	a.Delegate = optKey(r, 18)
	a.TokenState = r.U8(19)
	if s, ok := r.OptStr(20); ok {
		a.TLV = []byte(s)
	}
	if err := r.Err(); err != nil {
		return Account{}, false, fmt.Errorf("account row: %w", err)
	}
	return a, !r.IsNull(12), nil
}

func scanAccounts(res *store.Result) ([]Account, error) {
	out := make([]Account, 0, len(res.Rows))
	for i := range res.Rows {
		r := res.Row(i)
		a, err := scanAccount(&r)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

// keyAmount reads a (key, UInt64) row: a balance's mint or a holder's
// owner, and the amount.
func keyAmount(r *store.Row, k *Key) (uint64, error) {
	*k = r.Key(0)
	v := r.U64(1)
	return v, r.Err()
}

// optKey reads a Nullable(FixedString(32)) column.
func optKey(r *store.Row, i int) *Key {
	k, ok := r.OptKey(i)
	if !ok {
		return nil
	}
	return (*Key)(&k)
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
