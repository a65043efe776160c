package geyser

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"

	"github.com/goccy/go-json"
)

// Geyser carries a failed transaction's error as the validator serialized
// it (bincode: a little-endian u32 variant index, then the variant's
// fields), where RPC answers give its serde JSON. The variant lists below
// are TransactionError and InstructionError of the Solana SDK, in
// declaration order: the index is the position.

// payload is what a variant carries after its index.
type payload uint8

const (
	unit        payload = iota // nothing: JSON "Name"
	instruction                // u8 and an InstructionError: {"Name":[i, err]}
	byteValue                  // u8: {"Name":n}
	accountIdx                 // {account_index: u8}: {"Name":{"account_index":n}}
	customCode                 // u32: {"Name":n}
	message                    // an optional string (older validators): {"Name":"text"} or "Name"
)

type variant struct {
	name string
	p    payload
}

var txErrors = []variant{
	{"AccountInUse", unit},
	{"AccountLoadedTwice", unit},
	{"AccountNotFound", unit},
	{"ProgramAccountNotFound", unit},
	{"InsufficientFundsForFee", unit},
	{"InvalidAccountForFee", unit},
	{"AlreadyProcessed", unit},
	{"BlockhashNotFound", unit},
	{"InstructionError", instruction},
	{"CallChainTooDeep", unit},
	{"MissingSignatureForFee", unit},
	{"InvalidAccountIndex", unit},
	{"SignatureFailure", unit},
	{"InvalidProgramForExecution", unit},
	{"SanitizeFailure", unit},
	{"ClusterMaintenance", unit},
	{"AccountBorrowOutstanding", unit},
	{"WouldExceedMaxBlockCostLimit", unit},
	{"UnsupportedVersion", unit},
	{"InvalidWritableAccount", unit},
	{"WouldExceedMaxAccountCostLimit", unit},
	{"WouldExceedAccountDataBlockLimit", unit},
	{"TooManyAccountLocks", unit},
	{"AddressLookupTableNotFound", unit},
	{"InvalidAddressLookupTableOwner", unit},
	{"InvalidAddressLookupTableData", unit},
	{"InvalidAddressLookupTableIndex", unit},
	{"InvalidRentPayingAccount", unit},
	{"WouldExceedMaxVoteCostLimit", unit},
	{"WouldExceedAccountDataTotalLimit", unit},
	{"DuplicateInstruction", byteValue},
	{"InsufficientFundsForRent", accountIdx},
	{"MaxLoadedAccountsDataSizeExceeded", unit},
	{"InvalidLoadedAccountsDataSizeLimit", unit},
	{"ResanitizationNeeded", unit},
	{"ProgramExecutionTemporarilyRestricted", accountIdx},
	{"UnbalancedTransaction", unit},
	{"ProgramCacheHitMaxLimit", unit},
	{"CommitCancelled", unit},
}

var instructionErrors = []variant{
	{"GenericError", unit},
	{"InvalidArgument", unit},
	{"InvalidInstructionData", unit},
	{"InvalidAccountData", unit},
	{"AccountDataTooSmall", unit},
	{"InsufficientFunds", unit},
	{"IncorrectProgramId", unit},
	{"MissingRequiredSignature", unit},
	{"AccountAlreadyInitialized", unit},
	{"UninitializedAccount", unit},
	{"UnbalancedInstruction", unit},
	{"ModifiedProgramId", unit},
	{"ExternalAccountLamportSpend", unit},
	{"ExternalAccountDataModified", unit},
	{"ReadonlyLamportChange", unit},
	{"ReadonlyDataModified", unit},
	{"DuplicateAccountIndex", unit},
	{"ExecutableModified", unit},
	{"RentEpochModified", unit},
	{"NotEnoughAccountKeys", unit},
	{"AccountDataSizeChanged", unit},
	{"AccountNotExecutable", unit},
	{"AccountBorrowFailed", unit},
	{"AccountBorrowOutstanding", unit},
	{"DuplicateAccountOutOfSync", unit},
	{"Custom", customCode},
	{"InvalidError", unit},
	{"ExecutableDataModified", unit},
	{"ExecutableLamportChange", unit},
	{"ExecutableAccountNotRentExempt", unit},
	{"UnsupportedProgramId", unit},
	{"CallDepth", unit},
	{"MissingAccount", unit},
	{"ReentrancyNotAllowed", unit},
	{"MaxSeedLengthExceeded", unit},
	{"InvalidSeeds", unit},
	{"InvalidRealloc", unit},
	{"ComputationalBudgetExceeded", unit},
	{"PrivilegeEscalation", unit},
	{"ProgramEnvironmentSetupFailure", unit},
	{"ProgramFailedToComplete", unit},
	{"ProgramFailedToCompile", unit},
	{"Immutable", unit},
	{"IncorrectAuthority", unit},
	{"BorshIoError", message},
	{"AccountNotRentExempt", unit},
	{"InvalidAccountOwner", unit},
	{"ArithmeticOverflow", unit},
	{"UnsupportedSysvar", unit},
	{"IllegalOwner", unit},
	{"MaxAccountsDataAllocationsExceeded", unit},
	{"MaxAccountsExceeded", unit},
	{"MaxInstructionTraceLengthExceeded", unit},
	{"BuiltinProgramsMustConsumeComputeUnits", unit},
}

// maxErrorBytes bounds an error's bincode; the largest known one is a
// BorshIoError message, a line of text.
const maxErrorBytes = 64 << 10

// TxErrorJSON turns a transaction error's bincode into the JSON RPC nodes
// answer for it. An index past the known variants still marks the
// transaction failed: it becomes {"Unknown":{"variant":n,"bincode":b64}}.
func TxErrorJSON(b []byte) ([]byte, error) {
	if len(b) == 0 {
		return nil, errors.New("transaction error: empty")
	}
	if len(b) > maxErrorBytes {
		return nil, fmt.Errorf("transaction error: %d bytes, at most %d", len(b), maxErrorBytes)
	}
	r := errReader{b: b}
	out, err := r.variant(nil, txErrors, b)
	if err != nil {
		return nil, fmt.Errorf("transaction error %x: %w", b[:min(len(b), 64)], err)
	}
	if r.off != len(b) {
		return nil, fmt.Errorf("transaction error %x: %d trailing bytes", b[:min(len(b), 64)], len(b)-r.off)
	}
	return out, nil
}

type errReader struct {
	b   []byte
	off int
}

func (r *errReader) take(n int) ([]byte, error) {
	if len(r.b)-r.off < n {
		return nil, errors.New("unexpected end")
	}
	s := r.b[r.off : r.off+n]
	r.off += n
	return s, nil
}

// variant appends the JSON of the variant at the reader to dst; whole is
// the bytes an unknown variant is shown with.
func (r *errReader) variant(dst []byte, list []variant, whole []byte) ([]byte, error) {
	t, err := r.take(4)
	if err != nil {
		return nil, err
	}
	idx := binary.LittleEndian.Uint32(t)
	if int64(idx) >= int64(len(list)) {
		r.off = len(r.b) // the rest is the unknown variant's
		dst = append(dst, `{"Unknown":{"variant":`...)
		dst = strconv.AppendUint(dst, uint64(idx), 10)
		dst = append(dst, `,"bincode":"`...)
		dst = base64.StdEncoding.AppendEncode(dst, whole)
		return append(dst, `"}}`...), nil
	}
	v := list[idx]
	name := strconv.Quote(v.name)
	switch v.p {
	case unit:
		return append(dst, name...), nil
	case instruction:
		i, err := r.take(1)
		if err != nil {
			return nil, err
		}
		dst = append(append(append(dst, '{'), name...), ":["...)
		dst = strconv.AppendUint(dst, uint64(i[0]), 10)
		dst = append(dst, ',')
		if dst, err = r.variant(dst, instructionErrors, r.b[r.off:]); err != nil {
			return nil, err
		}
		return append(dst, "]}"...), nil
	case byteValue:
		i, err := r.take(1)
		if err != nil {
			return nil, err
		}
		dst = append(append(append(dst, '{'), name...), ':')
		return append(strconv.AppendUint(dst, uint64(i[0]), 10), '}'), nil
	case accountIdx:
		i, err := r.take(1)
		if err != nil {
			return nil, err
		}
		dst = append(append(append(dst, '{'), name...), `:{"account_index":`...)
		return append(strconv.AppendUint(dst, uint64(i[0]), 10), "}}"...), nil
	case customCode:
		c, err := r.take(4)
		if err != nil {
			return nil, err
		}
		dst = append(append(append(dst, '{'), name...), ':')
		return append(strconv.AppendUint(dst, uint64(binary.LittleEndian.Uint32(c)), 10), '}'), nil
	case message:
		// Validators before the unit form wrote a u64 length and the text.
		if r.off == len(r.b) {
			return append(dst, name...), nil
		}
		l, err := r.take(8)
		if err != nil {
			return nil, err
		}
		n := binary.LittleEndian.Uint64(l)
		if n > uint64(len(r.b)-r.off) {
			return nil, errors.New("message longer than the error")
		}
		text, _ := r.take(int(n))
		q, err := json.Marshal(string(text))
		if err != nil {
			return nil, err
		}
		dst = append(append(append(dst, '{'), name...), ':')
		return append(append(dst, q...), '}'), nil
	}
	return nil, fmt.Errorf("variant %s: unknown payload", v.name)
}

// TxErrorBincode is the inverse of TxErrorJSON for the known variants: it
// serializes an error given as RPC JSON the way a validator does, for
// servers and tests that build Geyser updates from RPC answers.
func TxErrorBincode(js []byte) ([]byte, error) {
	var v any
	if err := json.Unmarshal(js, &v); err != nil {
		return nil, fmt.Errorf("transaction error JSON: %w", err)
	}
	out, err := encodeVariant(nil, txErrors, v)
	if err != nil {
		return nil, fmt.Errorf("transaction error %s: %w", js, err)
	}
	return out, nil
}

func encodeVariant(dst []byte, list []variant, v any) ([]byte, error) {
	var name string
	var arg any
	switch t := v.(type) {
	case string:
		name = t
	case map[string]any:
		if len(t) != 1 {
			return nil, fmt.Errorf("want one member, got %d", len(t))
		}
		for k, a := range t {
			name, arg = k, a
		}
	default:
		return nil, fmt.Errorf("want a string or an object, got %T", v)
	}
	idx := -1
	for i := range list {
		if list[i].name == name {
			idx = i
			break
		}
	}
	if idx < 0 {
		return nil, fmt.Errorf("unknown variant %q", name)
	}
	dst = binary.LittleEndian.AppendUint32(dst, uint32(idx))
	p := list[idx].p
	if arg == nil {
		if p == unit || p == message {
			return dst, nil
		}
		return nil, fmt.Errorf("variant %s needs a value", name)
	}
	num := func(x any, limit float64) (uint64, error) {
		f, ok := x.(float64)
		if !ok || f < 0 || f > limit || f != float64(uint64(f)) {
			return 0, fmt.Errorf("variant %s: %v is not an integer up to %v", name, x, limit)
		}
		return uint64(f), nil
	}
	switch p {
	case instruction:
		pair, ok := arg.([]any)
		if !ok || len(pair) != 2 {
			return nil, fmt.Errorf("variant %s: want [index, error]", name)
		}
		i, err := num(pair[0], 255)
		if err != nil {
			return nil, err
		}
		return encodeVariant(append(dst, byte(i)), instructionErrors, pair[1])
	case byteValue:
		i, err := num(arg, 255)
		return append(dst, byte(i)), err
	case accountIdx:
		m, ok := arg.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("variant %s: want {account_index}", name)
		}
		i, err := num(m["account_index"], 255)
		return append(dst, byte(i)), err
	case customCode:
		c, err := num(arg, 1<<32-1)
		return binary.LittleEndian.AppendUint32(dst, uint32(c)), err
	case message:
		s, ok := arg.(string)
		if !ok {
			return nil, fmt.Errorf("variant %s: want a string", name)
		}
		dst = binary.LittleEndian.AppendUint64(dst, uint64(len(s)))
		return append(dst, s...), nil
	}
	return nil, fmt.Errorf("variant %s takes no value", name)
}
