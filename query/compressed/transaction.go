package compressed

import (
	"context"
	"errors"
	"fmt"

	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store"
)

// ErrTxNotFound is returned when no indexed transaction has the signature.
var ErrTxNotFound = errors.New("transaction not found")

// Transaction is one indexed transaction with the compressed accounts it
// created and spent.
type Transaction struct {
	// Slot is the slot the transaction was indexed at.
	Slot uint64
	// Raw is the transaction JSON as received (slot and blockTime included).
	Raw []byte
	// Opened are the accounts the transaction created, by tree and leaf.
	Opened []Account
	// Closed are the accounts the transaction spent, by hash.
	Closed []ClosedAccount
}

// ClosedAccount is a spent account with the batched-tree spend details;
// Nullifier and TxHash are zero for V1 trees.
type ClosedAccount struct {
	Account
	Nullifier Key
	TxHash    Key
}

// TransactionBySignature reads the transaction sig from transactions (its
// bloom filter finds the granule) and the accounts it created and spent;
// those tables are read at the transaction's slot, which their minmax
// indexes turn into a few granules.
func TransactionBySignature(ctx context.Context, s store.Querier, sig Signature) (*Transaction, error) {
	return TransactionThrough(ctx, s, sig, nil)
}

// TransactionThrough is TransactionBySignature for a transaction of a slot
// at most through, when set: one past the checkpoint is not found.
func TransactionThrough(ctx context.Context, s store.Querier, sig Signature, through *uint64) (*Transaction, error) {
	p := store.Params{"sig": sigParam(sig)}
	bound := ""
	if through != nil {
		bound = ` AND slot <= {through:UInt64}`
		p["through"] = u64Param(*through)
	}
	res, err := s.Query(ctx, `SELECT slot, raw FROM transactions
		WHERE signature = {sig:FixedString(64)}`+bound+` ORDER BY slot DESC LIMIT 1`, p)
	if err != nil {
		return nil, fmt.Errorf("transaction: %w", err)
	}
	if len(res.Rows) == 0 {
		return nil, ErrTxNotFound
	}
	tx := &Transaction{}
	r := res.Row(0)
	tx.Slot = r.U64(0)
	raw := r.Str(1)
	if err := r.Err(); err != nil {
		return nil, fmt.Errorf("transaction: %w", err)
	}
	tx.Raw = []byte(raw)
	p["slot"] = u64Param(tx.Slot)

	res, err = s.Query(ctx, `SELECT `+accountColumns+` FROM compressed_accounts
		WHERE slot_created = {slot:UInt64} AND sig_prefix = `+schema.SigPrefix("{sig:FixedString(64)}")+`
		ORDER BY tree, leaf_index, hash LIMIT 1 BY hash`, p)
	if err != nil {
		return nil, fmt.Errorf("transaction opened accounts: %w", err)
	}
	if tx.Opened, err = scanAccounts(res); err != nil {
		return nil, fmt.Errorf("transaction opened accounts: %w", err)
	}

	res, err = s.Query(ctx, `SELECT hash, nullifier, tx_hash FROM compressed_spent
		WHERE slot = {slot:UInt64} AND signature = {sig:FixedString(64)}
		ORDER BY hash LIMIT 1 BY hash`, p)
	if err != nil {
		return nil, fmt.Errorf("transaction spent accounts: %w", err)
	}
	if len(res.Rows) == 0 {
		return tx, nil
	}
	spent := make(map[Key]ClosedAccount, len(res.Rows))
	hashes := make([]Key, 0, len(res.Rows))
	for i := range res.Rows {
		r := res.Row(i)
		var c ClosedAccount
		c.Hash = r.Key(0)
		// A V1 spend has neither: they stay zero.
		c.Nullifier, _ = r.OptKey(1)
		c.TxHash, _ = r.OptKey(2)
		if err := r.Err(); err != nil {
			return nil, fmt.Errorf("transaction spent accounts: %w", err)
		}
		spent[c.Hash] = c
		hashes = append(hashes, c.Hash)
	}
	res, err = s.Query(ctx, `SELECT `+accountColumns+` FROM compressed_accounts
		WHERE hash IN `+keySet("keys")+` ORDER BY hash LIMIT 1 BY hash`,
		store.Params{"keys": keysParam(hashes)})
	if err != nil {
		return nil, fmt.Errorf("transaction closed accounts: %w", err)
	}
	accounts, err := scanAccounts(res)
	if err != nil {
		return nil, fmt.Errorf("transaction closed accounts: %w", err)
	}
	for _, a := range accounts {
		c := spent[a.Hash]
		c.Account = a
		tx.Closed = append(tx.Closed, c)
	}
	return tx, nil
}
