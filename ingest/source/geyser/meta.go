package geyser

import (
	"encoding/base64"
	"fmt"
	"math"
	"strconv"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/internal/b58"
	pb "github.com/dasch-labs/dasch/internal/geyserpb"
)

// The getTransaction JSON of a transaction, written as a node answers it
// with encoding base64: the members and their spelling follow RPC's
// transaction status meta, so the stored raw JSON reads like the rpc
// source's.
type metaJSON struct {
	Err                  json.RawMessage    `json:"err"`
	Status               json.RawMessage    `json:"status"`
	Fee                  uint64             `json:"fee"`
	PreBalances          []uint64           `json:"preBalances"`
	PostBalances         []uint64           `json:"postBalances"`
	InnerInstructions    *[]innerSetJSON    `json:"innerInstructions"`
	LogMessages          *[]string          `json:"logMessages"`
	PreTokenBalances     []tokenBalanceJSON `json:"preTokenBalances"`
	PostTokenBalances    []tokenBalanceJSON `json:"postTokenBalances"`
	Rewards              []rewardJSON       `json:"rewards"`
	LoadedAddresses      loadedJSON         `json:"loadedAddresses"`
	ReturnData           *returnDataJSON    `json:"returnData,omitempty"`
	ComputeUnitsConsumed *uint64            `json:"computeUnitsConsumed,omitempty"`
	CostUnits            *uint64            `json:"costUnits,omitempty"`
}

type innerSetJSON struct {
	Index        uint32            `json:"index"`
	Instructions []instructionJSON `json:"instructions"`
}

type instructionJSON struct {
	ProgramIDIndex uint32   `json:"programIdIndex"`
	Accounts       indexes  `json:"accounts"`
	Data           b58bytes `json:"data"`
	StackHeight    *uint32  `json:"stackHeight"`
}

type tokenBalanceJSON struct {
	AccountIndex  uint32       `json:"accountIndex"`
	Mint          string       `json:"mint"`
	UITokenAmount uiAmountJSON `json:"uiTokenAmount"`
	Owner         string       `json:"owner,omitempty"`
	ProgramID     string       `json:"programId,omitempty"`
}

type uiAmountJSON struct {
	UIAmount       *float64 `json:"uiAmount"`
	Decimals       uint32   `json:"decimals"`
	Amount         string   `json:"amount"`
	UIAmountString string   `json:"uiAmountString"`
}

type rewardJSON struct {
	Pubkey      string  `json:"pubkey"`
	Lamports    int64   `json:"lamports"`
	PostBalance uint64  `json:"postBalance"`
	RewardType  *string `json:"rewardType"`
	Commission  *uint8  `json:"commission"`
}

type loadedJSON struct {
	Writable []string `json:"writable"`
	Readonly []string `json:"readonly"`
}

type returnDataJSON struct {
	ProgramID string    `json:"programId"`
	Data      [2]string `json:"data"`
}

// indexes is account indexes, written as a JSON array of numbers (a
// []byte would be written as base64).
type indexes []byte

func (x indexes) MarshalJSON() ([]byte, error) {
	out := make([]byte, 0, 2+4*len(x))
	out = append(out, '[')
	for i, v := range x {
		if i > 0 {
			out = append(out, ',')
		}
		out = strconv.AppendUint(out, uint64(v), 10)
	}
	return append(out, ']'), nil
}

// b58bytes is instruction data, written in base58 as RPC writes inner
// instructions.
type b58bytes []byte

func (b b58bytes) MarshalJSON() ([]byte, error) {
	out := make([]byte, 0, 2+len(b)*138/100+1)
	out = append(out, '"')
	out = b58.Append(out, b)
	return append(out, '"'), nil
}

// bodyJSON writes the members after slot and blockTime: transaction,
// meta and version.
func bodyJSON(wire []byte, version int, m *pb.TransactionStatusMeta, tx *solana.Tx) ([]byte, error) {
	out := make([]byte, 0, base64.StdEncoding.EncodedLen(len(wire))+512)
	out = append(out, `"transaction":["`...)
	out = base64.StdEncoding.AppendEncode(out, wire)
	out = append(out, `","base64"],"meta":`...)
	if m == nil {
		out = append(out, "null"...)
	} else {
		mj, err := json.Marshal(meta(m, tx))
		if err != nil {
			return nil, fmt.Errorf("meta JSON: %w", err)
		}
		out = append(out, mj...)
	}
	out = append(out, `,"version":`...)
	if version < 0 {
		out = append(out, `"legacy"`...)
	} else {
		out = strconv.AppendInt(out, int64(version), 10)
	}
	return append(out, '}'), nil
}

func meta(m *pb.TransactionStatusMeta, tx *solana.Tx) *metaJSON {
	j := &metaJSON{
		Err:                  json.RawMessage("null"),
		Status:               json.RawMessage(`{"Ok":null}`),
		Fee:                  m.GetFee(),
		PreBalances:          nonNil(m.GetPreBalances()),
		PostBalances:         nonNil(m.GetPostBalances()),
		PreTokenBalances:     tokenBalances(m.GetPreTokenBalances()),
		PostTokenBalances:    tokenBalances(m.GetPostTokenBalances()),
		Rewards:              rewards(m.GetRewards()),
		LoadedAddresses:      loadedJSON{Writable: keyStrings(m.GetLoadedWritableAddresses()), Readonly: keyStrings(m.GetLoadedReadonlyAddresses())},
		ComputeUnitsConsumed: m.ComputeUnitsConsumed,
		CostUnits:            m.CostUnits,
	}
	if tx.Err != nil {
		j.Err = tx.Err
		j.Status = append(append([]byte(`{"Err":`), tx.Err...), '}')
	}
	if !m.GetInnerInstructionsNone() {
		sets := make([]innerSetJSON, 0, len(m.GetInnerInstructions()))
		for _, s := range m.GetInnerInstructions() {
			set := innerSetJSON{Index: s.GetIndex(), Instructions: make([]instructionJSON, 0, len(s.GetInstructions()))}
			for _, in := range s.GetInstructions() {
				set.Instructions = append(set.Instructions, instructionJSON{
					ProgramIDIndex: in.GetProgramIdIndex(), Accounts: in.GetAccounts(), Data: in.GetData(), StackHeight: in.StackHeight,
				})
			}
			sets = append(sets, set)
		}
		j.InnerInstructions = &sets
	}
	if !m.GetLogMessagesNone() {
		logs := nonNil(m.GetLogMessages())
		j.LogMessages = &logs
	}
	if rd := m.GetReturnData(); rd != nil && !m.GetReturnDataNone() {
		j.ReturnData = &returnDataJSON{ProgramID: b58.Encode(rd.GetProgramId()), Data: [2]string{base64.StdEncoding.EncodeToString(rd.GetData()), "base64"}}
	}
	return j
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func keyStrings(keys [][]byte) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = b58.Encode(k)
	}
	return out
}

func tokenBalances(in []*pb.TokenBalance) []tokenBalanceJSON {
	out := make([]tokenBalanceJSON, len(in))
	for i, b := range in {
		a := b.GetUiTokenAmount()
		out[i] = tokenBalanceJSON{
			AccountIndex: b.GetAccountIndex(), Mint: b.GetMint(), Owner: b.GetOwner(), ProgramID: b.GetProgramId(),
			UITokenAmount: uiAmountJSON{Decimals: a.GetDecimals(), Amount: a.GetAmount(), UIAmountString: a.GetUiAmountString()},
		}
		// JSON has no NaN or infinity; a server sending one gets null.
		if ui := a.GetUiAmount(); !math.IsNaN(ui) && !math.IsInf(ui, 0) {
			out[i].UITokenAmount.UIAmount = &ui
		}
	}
	return out
}

// rewardType is RPC's name of a reward type; Unspecified has none.
func rewardType(t pb.RewardType) (string, bool) {
	switch t {
	case pb.RewardType_Fee:
		return "Fee", true
	case pb.RewardType_Rent:
		return "Rent", true
	case pb.RewardType_Staking:
		return "Staking", true
	case pb.RewardType_Voting:
		return "Voting", true
	case pb.RewardType_DeactivatedStake:
		return "DeactivatedStake", true
	}
	return "", false
}

func rewards(in []*pb.Reward) []rewardJSON {
	out := make([]rewardJSON, len(in))
	for i, r := range in {
		out[i] = rewardJSON{Pubkey: r.GetPubkey(), Lamports: r.GetLamports(), PostBalance: r.GetPostBalance()}
		if t, ok := rewardType(r.GetRewardType()); ok {
			out[i].RewardType = &t
		}
		if c, err := strconv.ParseUint(r.GetCommission(), 10, 8); err == nil {
			v := uint8(c)
			out[i].Commission = &v
		}
	}
	return out
}
