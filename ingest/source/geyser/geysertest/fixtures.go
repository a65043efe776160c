package geysertest

import (
	"bytes"
	"cmp"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest/source/geyser"
	pb "github.com/dasch-labs/dasch/internal/geyserpb"
)

// AccountUpdate builds the Geyser update of an account snapshot (the JSON
// chain/solana.ParseAccount reads).
func AccountUpdate(raw []byte) (*pb.SubscribeUpdateAccount, error) {
	a, err := solana.ParseAccount(raw)
	if err != nil {
		return nil, err
	}
	return &pb.SubscribeUpdateAccount{Slot: a.Slot, Account: &pb.SubscribeUpdateAccountInfo{
		Pubkey: a.Pubkey[:], Owner: a.Owner[:], Lamports: a.Lamports, Executable: a.Executable,
		RentEpoch: a.RentEpoch, Data: a.Data, WriteVersion: a.WriteVersion,
	}}, nil
}

// txFixture is the part of a getTransaction result the update is built
// from besides what chain/solana.ParseTx decodes.
type txFixture struct {
	Transaction json.RawMessage `json:"transaction"`
	Meta        *struct {
		Err               json.RawMessage `json:"err"`
		PreBalances       []uint64        `json:"preBalances"`
		PostBalances      []uint64        `json:"postBalances"`
		InnerInstructions json.RawMessage `json:"innerInstructions"`
		LogMessages       json.RawMessage `json:"logMessages"`
		PreTokenBalances  []tokenBalance  `json:"preTokenBalances"`
		PostTokenBalances []tokenBalance  `json:"postTokenBalances"`
		Rewards           []struct {
			Pubkey      string  `json:"pubkey"`
			Lamports    int64   `json:"lamports"`
			PostBalance uint64  `json:"postBalance"`
			RewardType  *string `json:"rewardType"`
			Commission  *uint8  `json:"commission"`
		} `json:"rewards"`
		ReturnData *struct {
			ProgramID string    `json:"programId"`
			Data      [2]string `json:"data"`
		} `json:"returnData"`
		CostUnits       *uint64 `json:"costUnits"`
		LoadedAddresses *struct {
			Writable []string `json:"writable"`
		} `json:"loadedAddresses"`
	} `json:"meta"`
}

type tokenBalance struct {
	AccountIndex  uint32 `json:"accountIndex"`
	Mint          string `json:"mint"`
	Owner         string `json:"owner"`
	ProgramID     string `json:"programId"`
	UITokenAmount struct {
		UIAmount       *float64 `json:"uiAmount"`
		Decimals       uint32   `json:"decimals"`
		Amount         string   `json:"amount"`
		UIAmountString string   `json:"uiAmountString"`
	} `json:"uiTokenAmount"`
}

// TxUpdate builds the Geyser update of a getTransaction result (or a
// getBlock entry with slot and blockTime added), at position index of its
// block. A message given in the json encoding carries no header or
// blockhash: the header then says every signature signs and nothing is
// read-only, the blockhash is zero, and loaded addresses come from one
// synthetic lookup table.
func TxUpdate(raw []byte, index uint64) (*pb.SubscribeUpdateTransaction, error) {
	tx, err := solana.ParseTx(raw)
	if err != nil {
		return nil, err
	}
	var fx txFixture
	if err := json.Unmarshal(raw, &fx); err != nil {
		return nil, err
	}
	msg := &pb.Message{Versioned: tx.Version >= 0, RecentBlockhash: tx.RecentBlockhash[:]}
	h := tx.Header
	if h == nil {
		h = &solana.Header{NumRequiredSignatures: uint8(len(tx.Signatures))}
	}
	msg.Header = &pb.MessageHeader{NumRequiredSignatures: uint32(h.NumRequiredSignatures),
		NumReadonlySignedAccounts: uint32(h.NumReadonlySignedAccounts), NumReadonlyUnsignedAccounts: uint32(h.NumReadonlyUnsignedAccounts)}
	for _, k := range tx.AccountKeys[:tx.NumStaticKeys] {
		msg.AccountKeys = append(msg.AccountKeys, bytes.Clone(k[:]))
	}
	for _, in := range tx.Instructions {
		msg.Instructions = append(msg.Instructions, &pb.CompiledInstruction{ProgramIdIndex: uint32(in.ProgramIndex), Accounts: in.Accounts, Data: in.Data})
	}
	loaded := tx.AccountKeys[tx.NumStaticKeys:]
	if lookups, ok, err := wireLookups(fx.Transaction); err != nil {
		return nil, err
	} else if ok {
		msg.AddressTableLookups = lookups
	} else if len(loaded) > 0 {
		msg.AddressTableLookups = syntheticLookup(len(loaded))
	}
	sigs := make([][]byte, len(tx.Signatures))
	for i := range tx.Signatures {
		sigs[i] = bytes.Clone(tx.Signatures[i][:])
	}
	info := &pb.SubscribeUpdateTransactionInfo{
		Signature: sigs[0], IsVote: tx.IsVote, Index: index,
		Transaction: &pb.Transaction{Signatures: sigs, Message: msg},
	}
	if fx.Meta != nil {
		if info.Meta, err = meta(tx, &fx); err != nil {
			return nil, err
		}
	}
	return &pb.SubscribeUpdateTransaction{Slot: tx.Slot, Transaction: info}, nil
}

// syntheticLookup selects n loaded addresses from a made-up table.
func syntheticLookup(n int) []*pb.MessageAddressTableLookup {
	l := &pb.MessageAddressTableLookup{AccountKey: make([]byte, 32)}
	for i := range n {
		l.WritableIndexes = append(l.WritableIndexes, byte(i))
	}
	return []*pb.MessageAddressTableLookup{l}
}

func meta(tx *solana.Tx, fx *txFixture) (*pb.TransactionStatusMeta, error) {
	m := fx.Meta
	out := &pb.TransactionStatusMeta{
		Fee: tx.Fee, PreBalances: m.PreBalances, PostBalances: m.PostBalances,
		ComputeUnitsConsumed: tx.ComputeUnits, CostUnits: m.CostUnits,
	}
	if tx.Err != nil {
		b, err := geyser.TxErrorBincode(tx.Err)
		if err != nil {
			return nil, err
		}
		out.Err = &pb.TransactionError{Err: b}
	}
	loaded := tx.AccountKeys[tx.NumStaticKeys:]
	w := len(loaded)
	if la := m.LoadedAddresses; la != nil && len(la.Writable) <= w {
		w = len(la.Writable)
	}
	for i, k := range loaded {
		list := &out.LoadedWritableAddresses
		if i >= w {
			list = &out.LoadedReadonlyAddresses
		}
		*list = append(*list, bytes.Clone(k[:]))
	}
	if isNull(m.InnerInstructions) {
		out.InnerInstructionsNone = true
	}
	var sets []*pb.InnerInstructions
	for _, in := range tx.Inner {
		if len(sets) == 0 || sets[len(sets)-1].Index != uint32(in.Outer) {
			sets = append(sets, &pb.InnerInstructions{Index: uint32(in.Outer)})
		}
		ii := &pb.InnerInstruction{ProgramIdIndex: uint32(in.ProgramIndex), Accounts: in.Accounts, Data: in.Data}
		if in.StackHeight != 0 {
			sh := in.StackHeight
			ii.StackHeight = &sh
		}
		s := sets[len(sets)-1]
		s.Instructions = append(s.Instructions, ii)
	}
	out.InnerInstructions = sets
	if tx.LogMessages == nil {
		out.LogMessagesNone = true
	}
	out.LogMessages = tx.LogMessages
	for _, lists := range []struct {
		in  []tokenBalance
		out *[]*pb.TokenBalance
	}{{m.PreTokenBalances, &out.PreTokenBalances}, {m.PostTokenBalances, &out.PostTokenBalances}} {
		for _, b := range lists.in {
			a := &pb.UiTokenAmount{Decimals: b.UITokenAmount.Decimals, Amount: b.UITokenAmount.Amount, UiAmountString: b.UITokenAmount.UIAmountString}
			if b.UITokenAmount.UIAmount != nil {
				a.UiAmount = *b.UITokenAmount.UIAmount
			}
			*lists.out = append(*lists.out, &pb.TokenBalance{AccountIndex: b.AccountIndex, Mint: b.Mint, Owner: b.Owner, ProgramId: b.ProgramID, UiTokenAmount: a})
		}
	}
	for _, r := range m.Rewards {
		pr := &pb.Reward{Pubkey: r.Pubkey, Lamports: r.Lamports, PostBalance: r.PostBalance}
		if r.RewardType != nil {
			pr.RewardType = pb.RewardType(pb.RewardType_value[*r.RewardType])
		}
		if r.Commission != nil {
			pr.Commission = strconv.Itoa(int(*r.Commission))
		}
		out.Rewards = append(out.Rewards, pr)
	}
	if rd := m.ReturnData; rd != nil {
		pid, err := solana.ParsePubkey(rd.ProgramID)
		if err != nil {
			return nil, fmt.Errorf("returnData: %w", err)
		}
		data, err := base64.StdEncoding.DecodeString(rd.Data[0])
		if err != nil {
			return nil, fmt.Errorf("returnData: %w", err)
		}
		out.ReturnData = &pb.ReturnData{ProgramId: pid[:], Data: data}
	} else {
		out.ReturnDataNone = true
	}
	return out, nil
}

func isNull(raw json.RawMessage) bool {
	s := string(bytes.TrimSpace(raw))
	return s == "" || s == "null"
}

// wireLookups reads the address table lookups of a base64 or base58
// transaction; ok is false for a message in the json encoding.
func wireLookups(raw json.RawMessage) (lookups []*pb.MessageAddressTableLookup, ok bool, err error) {
	var enc [2]string
	if len(raw) == 0 || raw[0] != '[' {
		return nil, false, nil
	}
	if err := json.Unmarshal(raw, &enc); err != nil {
		return nil, false, err
	}
	if enc[1] != "base64" {
		return nil, false, fmt.Errorf("encoding %q: want base64", enc[1])
	}
	b, err := base64.StdEncoding.DecodeString(enc[0])
	if err != nil {
		return nil, false, err
	}
	r := &wire{b: b}
	r.skip(64 * r.vecLen())
	versioned := r.peek()&0x80 != 0
	if versioned {
		r.skip(1)
	}
	r.skip(3)
	r.skip(32 * r.vecLen())
	r.skip(32)
	for range r.vecLen() {
		r.skip(1)
		r.skip(r.vecLen())
		r.skip(r.vecLen())
	}
	if !versioned {
		return nil, true, r.err
	}
	for range r.vecLen() {
		l := &pb.MessageAddressTableLookup{AccountKey: r.take(32)}
		l.WritableIndexes = r.take(r.vecLen())
		l.ReadonlyIndexes = r.take(r.vecLen())
		lookups = append(lookups, l)
	}
	return lookups, true, r.err
}

// wire reads the transaction wire format; past an error every read gives
// zero values and err says why.
type wire struct {
	b   []byte
	off int
	err error
}

func (r *wire) peek() byte {
	if r.err != nil || r.off >= len(r.b) {
		r.err = cmp.Or(r.err, errors.New("transaction wire format: short"))
		return 0
	}
	return r.b[r.off]
}

func (r *wire) take(n int) []byte {
	if r.err != nil || n > len(r.b)-r.off {
		r.err = cmp.Or(r.err, errors.New("transaction wire format: short"))
		return nil
	}
	s := r.b[r.off : r.off+n]
	r.off += n
	return bytes.Clone(s)
}

func (r *wire) skip(n int) { r.take(n) }

func (r *wire) vecLen() int {
	v := 0
	for i := 0; i < 3; i++ {
		c := r.peek()
		r.off++
		v |= int(c&0x7f) << (7 * i)
		if c&0x80 == 0 {
			break
		}
	}
	return v
}

// Slots groups account and transaction fixture files into slots, in slot
// order, transactions in file order within a slot. Block files (getBlock
// results named <slot>.json) give their transactions in block order and
// their header.
func Slots(files []string) ([]Slot, error) {
	by := map[uint64]*Slot{}
	get := func(s uint64) *Slot {
		if by[s] == nil {
			by[s] = &Slot{Slot: s}
		}
		return by[s]
	}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		shape, _, err := solana.Probe(raw)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		switch shape {
		case solana.ShapeAccount:
			u, err := AccountUpdate(raw)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
			s := get(u.Slot)
			s.Accounts = append(s.Accounts, u.Account)
		case solana.ShapeTx:
			u, err := TxUpdate(raw, 0)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
			s := get(u.Slot)
			u.Transaction.Index = uint64(len(s.Txs))
			s.Txs = append(s.Txs, u.Transaction)
			var bt struct {
				BlockTime *int64 `json:"blockTime"`
			}
			if json.Unmarshal(raw, &bt) == nil && bt.BlockTime != nil {
				s.BlockTime = bt.BlockTime
			}
		case solana.ShapeBlock:
			slot, err := strconv.ParseUint(strings.TrimSuffix(filepath.Base(f), ".json"), 10, 64)
			if err != nil {
				return nil, fmt.Errorf("%s: block file not named <slot>.json", f)
			}
			b, entries, err := solana.ParseBlock(raw, slot)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
			s := get(b.Slot)
			s.Parent, s.BlockTime, s.Blockhash, s.ParentBlockhash = b.ParentSlot, b.BlockTime, b.Blockhash, b.PreviousBlockhash
			s.BlockHeight, s.TxCount = b.BlockHeight, uint64(b.TxCount)
			for i, e := range entries {
				u, err := TxUpdate(e, uint64(i))
				if err != nil {
					return nil, fmt.Errorf("%s: transaction %d: %w", f, i, err)
				}
				s.Txs = append(s.Txs, u.Transaction)
			}
		default:
			return nil, fmt.Errorf("%s: not an account, transaction or block", f)
		}
	}
	out := make([]Slot, 0, len(by))
	for _, s := range by {
		out = append(out, *s)
	}
	slices.SortFunc(out, func(a, b Slot) int { return cmp.Compare(a.Slot, b.Slot) })
	for i := range out {
		if out[i].Parent == 0 && i > 0 {
			out[i].Parent = out[i-1].Slot
		}
	}
	return out, nil
}
