package geyser

import (
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/dasch-labs/dasch/chain/solana"
	pb "github.com/dasch-labs/dasch/internal/geyserpb"
)

// Tx is a converted transaction update. Its block time is not in the
// update (Geyser sends it with the block's metadata): Finish adds it once
// known, and the JSON with it.
type Tx struct {
	Tx *solana.Tx
	// Index is the transaction's position in its block.
	Index uint32
	// body is the JSON after the slot and blockTime members.
	body []byte
}

// Finish sets the block time (nil: unknown) and returns the transaction
// with Raw set to its getTransaction JSON (base64 encoding), which
// chain/solana.ParseTx decodes to the same transaction.
func (t *Tx) Finish(blockTime *int64) *solana.Tx {
	tx := t.Tx
	tx.BlockTime = blockTime
	tx.TxIndex = t.Index
	raw := make([]byte, 0, len(t.body)+48)
	raw = append(raw, `{"slot":`...)
	raw = strconv.AppendUint(raw, tx.Slot, 10)
	raw = append(raw, `,"blockTime":`...)
	if blockTime != nil {
		raw = strconv.AppendInt(raw, *blockTime, 10)
	} else {
		raw = append(raw, "null"...)
	}
	tx.Raw = append(append(raw, ','), t.body...)
	return tx
}

// Wire-format bounds: lengths are compact-u16, indexes and header counts
// one byte.
const (
	maxShortVec = 1<<16 - 1
	maxIndex    = 255
)

// Inner instruction data goes into the JSON in base58, whose cost grows
// with the square of the length: it is bounded by what Solana lets a
// program pass to another (10 KiB), and a transaction's by a few such.
const (
	maxInnerData      = 10 << 10
	maxInnerDataTotal = 64 << 10
)

// Transaction converts a transaction update.
func Transaction(u *pb.SubscribeUpdateTransaction) (*Tx, error) {
	info := u.GetTransaction()
	if info == nil {
		return nil, errors.New("transaction update without a transaction")
	}
	t, err := transaction(u.GetSlot(), info)
	if err != nil {
		if len(info.GetSignature()) == 64 {
			return nil, fmt.Errorf("transaction %s: %w", solana.Signature(info.GetSignature()), err)
		}
		return nil, err
	}
	return t, nil
}

func transaction(slot uint64, info *pb.SubscribeUpdateTransactionInfo) (*Tx, error) {
	if info.GetIndex() > 1<<32-1 {
		return nil, fmt.Errorf("index %d in its block", info.GetIndex())
	}
	msg := info.GetTransaction().GetMessage()
	if msg == nil {
		return nil, errors.New("no message")
	}
	if msg.Config != nil {
		return nil, errors.New("unsupported message version 1")
	}
	tx := &solana.Tx{Slot: slot, Version: -1}
	if msg.GetVersioned() {
		tx.Version = 0
	}
	sigs := info.GetTransaction().GetSignatures()
	if len(sigs) == 0 {
		return nil, errors.New("no signature")
	}
	if len(sigs) > maxShortVec {
		return nil, fmt.Errorf("%d signatures", len(sigs))
	}
	tx.Signatures = make([]solana.Signature, len(sigs))
	for i, s := range sigs {
		if err := fixed(tx.Signatures[i][:], s, "signature "+strconv.Itoa(i)); err != nil {
			return nil, err
		}
	}
	if string(info.GetSignature()) != string(sigs[0]) {
		return nil, errors.New("signature differs from the first of the transaction")
	}
	h := msg.GetHeader()
	if h == nil {
		return nil, errors.New("no message header")
	}
	if h.GetNumRequiredSignatures() > maxIndex || h.GetNumReadonlySignedAccounts() > maxIndex || h.GetNumReadonlyUnsignedAccounts() > maxIndex {
		return nil, fmt.Errorf("header counts %d, %d, %d past %d", h.GetNumRequiredSignatures(),
			h.GetNumReadonlySignedAccounts(), h.GetNumReadonlyUnsignedAccounts(), maxIndex)
	}
	tx.Header = &solana.Header{
		NumRequiredSignatures:       uint8(h.GetNumRequiredSignatures()),
		NumReadonlySignedAccounts:   uint8(h.GetNumReadonlySignedAccounts()),
		NumReadonlyUnsignedAccounts: uint8(h.GetNumReadonlyUnsignedAccounts()),
	}
	keys := msg.GetAccountKeys()
	if len(keys) == 0 {
		return nil, errors.New("no account keys")
	}
	if len(keys) > maxShortVec {
		return nil, fmt.Errorf("%d account keys", len(keys))
	}
	tx.AccountKeys = make([]solana.Pubkey, len(keys), len(keys)+len(info.GetMeta().GetLoadedWritableAddresses())+len(info.GetMeta().GetLoadedReadonlyAddresses()))
	for i, k := range keys {
		if err := fixed(tx.AccountKeys[i][:], k, "account key "+strconv.Itoa(i)); err != nil {
			return nil, err
		}
	}
	tx.NumStaticKeys = len(keys)
	if err := fixed(tx.RecentBlockhash[:], msg.GetRecentBlockhash(), "recent blockhash"); err != nil {
		return nil, err
	}
	ins := msg.GetInstructions()
	if len(ins) > maxShortVec {
		return nil, fmt.Errorf("%d instructions", len(ins))
	}
	tx.Instructions = make([]solana.Instruction, len(ins))
	for i, in := range ins {
		c, err := compiled(in.GetProgramIdIndex(), in.GetAccounts(), in.GetData())
		if err != nil {
			return nil, fmt.Errorf("instruction %d: %w", i, err)
		}
		tx.Instructions[i] = c
	}
	lookups := msg.GetAddressTableLookups()
	if tx.Version < 0 && len(lookups) > 0 {
		return nil, errors.New("legacy message with address table lookups")
	}
	if len(lookups) > maxShortVec {
		return nil, fmt.Errorf("%d address table lookups", len(lookups))
	}
	loaded := 0
	for i, l := range lookups {
		if len(l.GetAccountKey()) != 32 {
			return nil, fmt.Errorf("address table lookup %d: key of %d bytes, want 32", i, len(l.GetAccountKey()))
		}
		if len(l.GetWritableIndexes()) > maxShortVec || len(l.GetReadonlyIndexes()) > maxShortVec {
			return nil, fmt.Errorf("address table lookup %d: too many indexes", i)
		}
		loaded += len(l.GetWritableIndexes()) + len(l.GetReadonlyIndexes())
	}
	wire := appendWire(nil, sigs, tx.Version, h, keys, msg)
	if err := applyMeta(tx, info.GetMeta(), loaded); err != nil {
		return nil, fmt.Errorf("meta: %w", err)
	}
	if err := tx.Resolve(); err != nil {
		return nil, err
	}
	body, err := bodyJSON(wire, tx.Version, info.GetMeta(), tx)
	if err != nil {
		return nil, err
	}
	return &Tx{Tx: tx, Index: uint32(info.GetIndex()), body: body}, nil
}

// compiled checks one instruction's wire limits.
func compiled(program uint32, accounts, data []byte) (solana.Instruction, error) {
	if program > maxIndex {
		return solana.Instruction{}, fmt.Errorf("program id index %d past %d", program, maxIndex)
	}
	if len(accounts) > maxShortVec || len(data) > maxShortVec {
		return solana.Instruction{}, fmt.Errorf("%d accounts and %d bytes of data, at most %d each", len(accounts), len(data), maxShortVec)
	}
	if data == nil {
		data = []byte{} // as empty data decodes
	}
	return solana.Instruction{ProgramIndex: uint8(program), Accounts: accounts, Data: data}, nil
}

// applyMeta adds the status, as chain/solana does from meta JSON: error,
// fee, loaded addresses, inner instructions in execution order, logs.
func applyMeta(tx *solana.Tx, m *pb.TransactionStatusMeta, loaded int) error {
	if m == nil {
		if loaded > 0 {
			return errors.New("missing, but the message uses address lookup tables")
		}
		return nil
	}
	if e := m.GetErr(); e != nil {
		js, err := TxErrorJSON(e.GetErr())
		if err != nil {
			return err
		}
		tx.Err = js
	}
	tx.Fee = m.GetFee()
	if m.ComputeUnitsConsumed != nil {
		cu := m.GetComputeUnitsConsumed()
		tx.ComputeUnits = &cu
	}
	if !m.GetLogMessagesNone() {
		tx.LogMessages = m.GetLogMessages()
		if tx.LogMessages == nil {
			tx.LogMessages = []string{}
		}
	}
	w, r := m.GetLoadedWritableAddresses(), m.GetLoadedReadonlyAddresses()
	if tx.Version >= 0 && len(w)+len(r) != loaded {
		return fmt.Errorf("loaded addresses has %d addresses, the lookup tables select %d", len(w)+len(r), loaded)
	}
	if tx.Version < 0 && len(w)+len(r) > 0 {
		return errors.New("loaded addresses on a legacy message")
	}
	tx.NumLoadedWritable = len(w)
	for i, k := range append(slices.Clip(w), r...) {
		var key solana.Pubkey
		if err := fixed(key[:], k, "loaded address "+strconv.Itoa(i)); err != nil {
			return err
		}
		tx.AccountKeys = append(tx.AccountKeys, key)
	}
	// As ParseTx keeps them: only when there is one per account key.
	if pb := m.GetPostBalances(); len(pb) == len(tx.AccountKeys) {
		tx.PostBalances = slices.Clone(pb)
	}
	if m.GetInnerInstructionsNone() {
		return nil
	}
	total := 0
	sets := slices.Clone(m.GetInnerInstructions())
	slices.SortStableFunc(sets, func(a, b *pb.InnerInstructions) int { return int(a.GetIndex()) - int(b.GetIndex()) })
	for _, set := range sets {
		if int64(set.GetIndex()) >= int64(len(tx.Instructions)) {
			return fmt.Errorf("inner instructions index %d out of range (%d instructions)", set.GetIndex(), len(tx.Instructions))
		}
		for i, in := range set.GetInstructions() {
			if n := len(in.GetData()); n > maxInnerData {
				return fmt.Errorf("inner instruction %d of %d: %d bytes of data, at most %d", i, set.GetIndex(), n, maxInnerData)
			}
			if total += len(in.GetData()); total > maxInnerDataTotal {
				return fmt.Errorf("inner instructions: more than %d bytes of data", maxInnerDataTotal)
			}
			c, err := compiled(in.GetProgramIdIndex(), in.GetAccounts(), in.GetData())
			if err != nil {
				return fmt.Errorf("inner instruction %d of %d: %w", i, set.GetIndex(), err)
			}
			tx.Inner = append(tx.Inner, solana.InnerInstruction{Instruction: c, Outer: int(set.GetIndex()), StackHeight: in.GetStackHeight()})
		}
	}
	return nil
}

// appendWire serializes the signed transaction as the wire format (what
// an RPC node base64-encodes).
func appendWire(dst []byte, sigs [][]byte, version int, h *pb.MessageHeader, keys [][]byte, msg *pb.Message) []byte {
	dst = appendShortVec(dst, len(sigs))
	for _, s := range sigs {
		dst = append(dst, s...)
	}
	if version >= 0 {
		dst = append(dst, 0x80|byte(version))
	}
	dst = append(dst, byte(h.GetNumRequiredSignatures()), byte(h.GetNumReadonlySignedAccounts()), byte(h.GetNumReadonlyUnsignedAccounts()))
	dst = appendShortVec(dst, len(keys))
	for _, k := range keys {
		dst = append(dst, k...)
	}
	dst = append(dst, msg.GetRecentBlockhash()...)
	dst = appendShortVec(dst, len(msg.GetInstructions()))
	for _, in := range msg.GetInstructions() {
		dst = append(dst, byte(in.GetProgramIdIndex()))
		dst = appendShortVec(dst, len(in.GetAccounts()))
		dst = append(dst, in.GetAccounts()...)
		dst = appendShortVec(dst, len(in.GetData()))
		dst = append(dst, in.GetData()...)
	}
	if version >= 0 {
		dst = appendShortVec(dst, len(msg.GetAddressTableLookups()))
		for _, l := range msg.GetAddressTableLookups() {
			dst = append(dst, l.GetAccountKey()...)
			dst = appendShortVec(dst, len(l.GetWritableIndexes()))
			dst = append(dst, l.GetWritableIndexes()...)
			dst = appendShortVec(dst, len(l.GetReadonlyIndexes()))
			dst = append(dst, l.GetReadonlyIndexes()...)
		}
	}
	return dst
}

// appendShortVec writes a compact-u16 length; callers keep n within it.
func appendShortVec(dst []byte, n int) []byte {
	for {
		b := byte(n & 0x7f)
		n >>= 7
		if n == 0 {
			return append(dst, b)
		}
		dst = append(dst, b|0x80)
	}
}
