// Package geyser turns Yellowstone gRPC (Geyser) updates into the chain
// model: accounts, transactions and block headers as chain/solana decodes
// them from RPC answers, each with the JSON an RPC node would have given
// for it, which is what the raw tables and dead letters keep. Updates come
// from outside and are checked field by field: a malformed one is an
// error, never a panic. No I/O.
package geyser

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/internal/b58"
	pb "github.com/dasch-labs/dasch/internal/geyserpb"
)

// MaxAccountData is the largest account data Solana allows (10 MiB); an
// update claiming more is malformed.
const MaxAccountData = 10 << 20

// Account converts an account update. raw is the account in the JSON
// chain/solana.ParseAccount reads, which decodes to the same account.
func Account(u *pb.SubscribeUpdateAccount) (acc *solana.Account, raw []byte, err error) {
	info := u.GetAccount()
	if info == nil {
		return nil, nil, errors.New("account update without an account")
	}
	acc = &solana.Account{
		Lamports:     info.GetLamports(),
		Executable:   info.GetExecutable(),
		RentEpoch:    info.GetRentEpoch(),
		Slot:         u.GetSlot(),
		WriteVersion: info.GetWriteVersion(),
		Data:         info.GetData(),
	}
	if err := fixed(acc.Pubkey[:], info.GetPubkey(), "pubkey"); err != nil {
		return nil, nil, err
	}
	if err := fixed(acc.Owner[:], info.GetOwner(), "owner"); err != nil {
		return nil, nil, err
	}
	if len(acc.Data) > MaxAccountData {
		return nil, nil, fmt.Errorf("account %s: %d bytes of data, at most %d", acc.Pubkey, len(acc.Data), MaxAccountData)
	}
	if acc.Data == nil {
		acc.Data = []byte{} // as an empty base64 string decodes
	}
	if sig := info.TxnSignature; sig != nil && len(sig) != 64 {
		return nil, nil, fmt.Errorf("account %s: txn_signature of %d bytes, want 64", acc.Pubkey, len(sig))
	}
	return acc, AccountJSON(acc, info.TxnSignature), nil
}

// AccountJSON writes acc as chain/solana.ParseAccount reads it; sig, when
// set, is the transaction that wrote it.
func AccountJSON(acc *solana.Account, sig []byte) []byte {
	out := make([]byte, 0, 200+base64.StdEncoding.EncodedLen(len(acc.Data)))
	out = append(out, `{"pubkey":"`...)
	out = b58.Append(out, acc.Pubkey[:])
	out = append(out, `","owner":"`...)
	out = b58.Append(out, acc.Owner[:])
	out = append(out, `","lamports":`...)
	out = strconv.AppendUint(out, acc.Lamports, 10)
	out = append(out, `,"executable":`...)
	out = strconv.AppendBool(out, acc.Executable)
	// Integers past 2^53 go as strings, which JSON readers keep exact.
	out = append(out, `,"rent_epoch":"`...)
	out = strconv.AppendUint(out, acc.RentEpoch, 10)
	out = append(out, `","data":["`...)
	out = base64.StdEncoding.AppendEncode(out, acc.Data)
	out = append(out, `","base64"],"slot":`...)
	out = strconv.AppendUint(out, acc.Slot, 10)
	out = append(out, `,"write_version":`...)
	out = strconv.AppendUint(out, acc.WriteVersion, 10)
	if sig != nil {
		out = append(out, `,"txn_signature":"`...)
		out = b58.Append(out, sig)
		out = append(out, '"')
	}
	return append(out, '}')
}

// Block converts a block's metadata into its header.
func Block(m *pb.SubscribeUpdateBlockMeta) (*solana.Block, error) {
	if m == nil {
		return nil, errors.New("no block metadata")
	}
	for _, h := range []struct{ what, v string }{{"blockhash", m.GetBlockhash()}, {"parent_blockhash", m.GetParentBlockhash()}} {
		if _, err := solana.ParseHash(h.v); err != nil {
			return nil, fmt.Errorf("block %d: %s: %w", m.GetSlot(), h.what, err)
		}
	}
	n := m.GetExecutedTransactionCount()
	if n > 1<<32-1 {
		return nil, fmt.Errorf("block %d: %d transactions", m.GetSlot(), n)
	}
	b := &solana.Block{
		Slot:              m.GetSlot(),
		ParentSlot:        m.GetParentSlot(),
		Blockhash:         m.GetBlockhash(),
		PreviousBlockhash: m.GetParentBlockhash(),
		TxCount:           uint32(n),
	}
	if h := m.GetBlockHeight(); h != nil {
		v := h.GetBlockHeight()
		b.BlockHeight = &v
	}
	if t := m.GetBlockTime(); t != nil {
		v := t.GetTimestamp()
		b.BlockTime = &v
	}
	return b, nil
}

// fixed copies a key of exactly len(dst) bytes.
func fixed(dst, src []byte, what string) error {
	if len(src) != len(dst) {
		return fmt.Errorf("%s of %d bytes, want %d", what, len(src), len(dst))
	}
	copy(dst, src)
	return nil
}
