package parsed

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/dasch-labs/dasch/chain/solana"
)

// program is what dasch knows of a program: its name, and a decoder for
// the programs it decodes.
type program struct {
	name   string
	source string // the Helius source of a transaction it leads
	decode decodeFunc
}

// Program ids.
var (
	systemID        = solana.SystemProgram()
	tokenID         = solana.MustParsePubkey("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA")
	token2022ID     = solana.MustParsePubkey("TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb")
	ataID           = solana.MustParsePubkey("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL")
	computeBudgetID = solana.MustParsePubkey("ComputeBudget111111111111111111111111111111")
	memoID          = solana.MustParsePubkey("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr")
	memoV1ID        = solana.MustParsePubkey("Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo")
)

// programs is read only after init.
var programs = map[solana.Pubkey]program{
	systemID:             {name: "System Program", source: "SYSTEM_PROGRAM", decode: decodeSystem},
	tokenID:              {name: "Token Program", source: "SOLANA_PROGRAM_LIBRARY", decode: decodeToken},
	token2022ID:          {name: "Token-2022 Program", source: "SOLANA_PROGRAM_LIBRARY", decode: decodeToken2022},
	ataID:                {name: "Associated Token Account Program", source: "SOLANA_PROGRAM_LIBRARY", decode: decodeATA},
	computeBudgetID:      {name: "Compute Budget Program", decode: decodeComputeBudget},
	memoID:               {name: "Memo Program", source: "SOLANA_PROGRAM_LIBRARY", decode: decodeMemo},
	memoV1ID:             {name: "Memo Program v1", source: "SOLANA_PROGRAM_LIBRARY", decode: decodeMemo},
	solana.VoteProgram(): {name: "Vote Program", source: "SOLANA_PROGRAM_LIBRARY"},
	solana.MustParsePubkey("BPFLoaderUpgradeab1e11111111111111111111111"):  {name: "BPF Upgradeable Loader", source: "BPF_UPGRADEABLE_LOADER"},
	solana.MustParsePubkey("Stake11111111111111111111111111111111111111"):  {name: "Stake Program", source: "STAKE_PROGRAM"},
	solana.MustParsePubkey("AddressLookupTab1e1111111111111111111111111"):  {name: "Address Lookup Table Program", source: "SOLANA_PROGRAM_LIBRARY"},
	solana.MustParsePubkey("metaqbxxUerdq28cj1RbAWkYQm3ybzjb6a8bt518x1s"):  {name: "Token Metadata Program", source: "METAPLEX", decode: decodeTokenMetadata},
	solana.MustParsePubkey("BGUMAp9Gq7iTEuizy4pqaxsTyUCBK68MDfK752saRPUY"): {name: "Bubblegum Program", source: "BUBBLEGUM"},
	solana.MustParsePubkey("CoREENxT6tW1HoK8ypY1SxRMZTcVPm7R94rH4PZNhX7d"): {name: "MPL Core Program", source: "METAPLEX"},
	solana.MustParsePubkey("cmtDvXumGCrqC1Age74AVPhSRVXJMd8PJS91L8KbNCK"):  {name: "SPL Account Compression", source: "SOLANA_PROGRAM_LIBRARY"},
	solana.MustParsePubkey("noopb9bkMVfRPU8AsbpTUg8AQkHtKwMYZiFUjNRtMmV"):  {name: "SPL Noop", source: "SOLANA_PROGRAM_LIBRARY"},
	solana.MustParsePubkey("mcmt6YrQEMKw8Mw43FmpRLmf7BqRnFMKmAcbxE3xkAW"):  {name: "MPL Account Compression", source: "METAPLEX"},
	solana.MustParsePubkey("mnoopTCrg4p8ry25e4bcWA9XZjbNjMTfgYVGGEdRsf3"):  {name: "MPL Noop", source: "METAPLEX"},
	solana.MustParsePubkey("SySTEM1eSU2p4BGQfQpimFEWWSC1XDFeun3Nqzz3rT7"):  {name: "Light System Program", source: "LIGHT_PROTOCOL"},
	solana.MustParsePubkey("cTokenmWW8bLPjZEBAUgYy3zKxQZW6VKi7bqNFEVv3m"):  {name: "Light Compressed Token Program", source: "LIGHT_PROTOCOL"},
	solana.MustParsePubkey("compr6CUsB5m2jS4Y3831ztGSTnDpnKJTKS95d64XVq"):  {name: "Light Account Compression", source: "LIGHT_PROTOCOL"},
	solana.MustParsePubkey("JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4"):  {name: "Jupiter Aggregator v6", source: "JUPITER"},
}

var (
	errShort = errors.New("instruction data too short")
	errLong  = errors.New("instruction data has trailing bytes")
)

// reader reads little-endian Borsh and bincode values.
type reader struct {
	b   []byte
	err error
}

func (r *reader) take(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || len(r.b) < n {
		r.err = errShort
		return nil
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

func (r *reader) u8() uint8 {
	if v := r.take(1); v != nil {
		return v[0]
	}
	return 0
}

func (r *reader) u32() uint32 {
	if v := r.take(4); v != nil {
		return binary.LittleEndian.Uint32(v)
	}
	return 0
}

func (r *reader) u64() uint64 {
	if v := r.take(8); v != nil {
		return binary.LittleEndian.Uint64(v)
	}
	return 0
}

func (r *reader) pubkey() string {
	v := r.take(32)
	if v == nil {
		return ""
	}
	return solana.Pubkey(v).String()
}

// coption is a token program COption<Pubkey>: a flag byte then the key.
// Token uses a 4-byte flag in account data but one byte in instructions.
func (r *reader) coption() any {
	switch r.u8() {
	case 0:
		return nil
	case 1:
		return r.pubkey()
	default:
		if r.err == nil {
			r.err = errors.New("bad option flag")
		}
		return nil
	}
}

// str is a bincode string: a u64 length, then the bytes.
func (r *reader) str() string {
	n := r.u64()
	if r.err == nil && n > uint64(len(r.b)) {
		r.err = errShort
		return ""
	}
	return string(r.take(int(n)))
}

// done is the reader's error, or errLong when bytes are left over.
func (r *reader) done() error {
	if r.err != nil {
		return r.err
	}
	if len(r.b) > 0 {
		return errLong
	}
	return nil
}

// needAccounts checks an instruction names the accounts its decoder
// reads transfers from.
func needAccounts(o op, n, want int) (op, error) {
	if n < want {
		return op{}, fmt.Errorf("%s names %d accounts, needs %d", o.name, n, want)
	}
	return o, nil
}
