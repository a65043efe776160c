// Package parsed turns a decoded transaction into the parsed shape of the
// Helius parsed-events API: transfers of lamports and tokens, balance
// changes per account, every instruction (top level and inner) with what
// dasch decodes of it, and a type with a description. It is pure: no I/O,
// no state, and it never fails a transaction; what it cannot decode it
// records on the instruction concerned.
package parsed

import (
	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/chain/solana"
)

// Transaction types.
const (
	TypeTransfer = "TRANSFER"
	TypeUnknown  = "UNKNOWN"
)

// Transaction is one parsed transaction.
type Transaction struct {
	Description       string           `json:"description"`
	Type              string           `json:"type"`
	Source            string           `json:"source"`
	Fee               uint64           `json:"fee"`
	FeePayer          string           `json:"feePayer"`
	Signature         string           `json:"signature"`
	Slot              uint64           `json:"slot"`
	Timestamp         *int64           `json:"timestamp"`
	TransactionStatus string           `json:"transactionStatus"`
	TransactionError  *TxError         `json:"transactionError"`
	NativeTransfers   []NativeTransfer `json:"nativeTransfers"`
	TokenTransfers    []TokenTransfer  `json:"tokenTransfers"`
	AccountData       []AccountData    `json:"accountData"`
	Instructions      []Instruction    `json:"instructions"`
	Events            Events           `json:"events"`

	// TokenOwners are the owners the token balances name, each once,
	// changed or not: whose activity the transaction also is.
	TokenOwners []solana.Pubkey `json:"-"`
	// Swaps are the legs of the swap in events.swap, leg 0 the whole
	// swap; nil when the transaction swapped nothing dasch recognises.
	Swaps []SwapLeg `json:"-"`
}

// TxError is the error of a failed transaction: as the node gave it, and
// decoded where the failing program is one dasch knows.
type TxError struct {
	Error        json.RawMessage `json:"error"`
	DecodedError *DecodedError   `json:"decodedError,omitempty"`
}

// DecodedError names the instruction that failed and its error.
type DecodedError struct {
	InstructionIndex int    `json:"instructionIndex"`
	ProgramID        string `json:"programId"`
	ProgramName      string `json:"programName,omitempty"`
	Code             *int64 `json:"code,omitempty"`
	Name             string `json:"name,omitempty"`
	Msg              string `json:"msg,omitempty"`
}

// NativeTransfer is lamports one System instruction moved.
type NativeTransfer struct {
	FromUserAccount string `json:"fromUserAccount"`
	ToUserAccount   string `json:"toUserAccount"`
	Amount          uint64 `json:"amount"`
}

// TokenTransfer is tokens one token instruction moved, minted (no sender)
// or burnt (no receiver).
type TokenTransfer struct {
	FromUserAccount  string         `json:"fromUserAccount"`
	ToUserAccount    string         `json:"toUserAccount"`
	FromTokenAccount string         `json:"fromTokenAccount"`
	ToTokenAccount   string         `json:"toTokenAccount"`
	TokenAmount      json.Number    `json:"tokenAmount"`
	RawTokenAmount   RawTokenAmount `json:"rawTokenAmount"`
	Mint             string         `json:"mint"`
	TokenStandard    string         `json:"tokenStandard"`
	ProgramID        string         `json:"programId"`
}

// RawTokenAmount is an amount in base units, signed for balance changes,
// as a decimal string so no precision is lost.
type RawTokenAmount struct {
	TokenAmount string `json:"tokenAmount"`
	Decimals    int    `json:"decimals"`
}

// AccountData is the change the transaction made to one account key.
type AccountData struct {
	Account             string               `json:"account"`
	NativeBalanceChange int64                `json:"nativeBalanceChange"`
	TokenBalanceChanges []TokenBalanceChange `json:"tokenBalanceChanges"`
}

// TokenBalanceChange is the change of one token account's balance.
type TokenBalanceChange struct {
	UserAccount    string         `json:"userAccount"`
	TokenAccount   string         `json:"tokenAccount"`
	Mint           string         `json:"mint"`
	RawTokenAmount RawTokenAmount `json:"rawTokenAmount"`
}

// Instruction is one instruction, top level or inner, in execution order.
type Instruction struct {
	InstructionIndex int `json:"instructionIndex"`
	// InnerInstructionIndex is the position among the inner instructions
	// of the top-level one; nil for a top-level instruction.
	InnerInstructionIndex *int `json:"innerInstructionIndex"`
	// StackHeight is 1 at top level; nil for an inner instruction whose
	// source did not report it.
	StackHeight     *uint32  `json:"stackHeight"`
	ProgramID       string   `json:"programId"`
	RawAccounts     []string `json:"rawAccounts"`
	RawData         string   `json:"rawData"`
	ProgramName     string   `json:"programName,omitempty"`
	InstructionName string   `json:"instructionName,omitempty"`
	Decoded         *Decoded `json:"decoded,omitempty"`
	// DecodeError says why a program dasch decodes could not decode this
	// instruction; the raw fields are still there.
	DecodeError string `json:"decodeError,omitempty"`
}

// Decoded is what a program decoder read from an instruction.
type Decoded struct {
	Args     map[string]any   `json:"args"`
	Accounts []DecodedAccount `json:"accounts"`
}

// DecodedAccount is one account of an instruction with its role.
type DecodedAccount struct {
	Name       string `json:"name"`
	Pubkey     string `json:"pubkey"`
	IsSigner   bool   `json:"isSigner"`
	IsWritable bool   `json:"isWritable"`
}

// Parse parses tx. Balances come from the meta in tx.Raw (every source
// keeps the getTransaction JSON there); without them, balance changes
// are zero and token owners come from the instructions alone.
func Parse(tx *solana.Tx) *Transaction {
	p := &Transaction{
		Slot:              tx.Slot,
		Timestamp:         tx.BlockTime,
		Fee:               tx.Fee,
		TransactionStatus: "success",
		NativeTransfers:   []NativeTransfer{},
		TokenTransfers:    []TokenTransfer{},
		AccountData:       []AccountData{},
		Instructions:      []Instruction{},
	}
	if len(tx.Signatures) > 0 {
		p.Signature = tx.Signature().String()
	}
	if len(tx.AccountKeys) > 0 {
		p.FeePayer = tx.FeePayer().String()
	}
	bal := readBalances(tx)
	c := newContext(tx, bal)
	c.walk(p)
	c.bubblegum(p)
	p.AccountData = accountData(tx, bal)
	p.TokenOwners = bal.owners()
	if tx.Failed() {
		p.TransactionStatus = "failed"
		p.TransactionError = txError(tx)
		// Nothing a failed transaction did stays done but its fee.
		p.NativeTransfers = []NativeTransfer{}
		p.TokenTransfers = []TokenTransfer{}
	}
	c.swaps(p)
	p.Type, p.Description = summarize(tx, p, c)
	p.Source = source(tx)
	if p.Events.Swap != nil {
		p.Source = p.Events.Swap.proto.source
	}
	return p
}
