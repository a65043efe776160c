package geysertest

import (
	"crypto/sha256"
	"fmt"

	"github.com/dasch-labs/dasch/chain/solana"
	pb "github.com/dasch-labs/dasch/internal/geyserpb"
)

// Key is a made-up 32-byte key named by what.
func Key(what string, n uint64) solana.Pubkey {
	return sha256.Sum256(fmt.Appendf(nil, "%s %d", what, n))
}

// AccountWrite is a write of account key, owned by owner.
func AccountWrite(key, owner solana.Pubkey, lamports, writeVersion uint64, data []byte) *pb.SubscribeUpdateAccountInfo {
	return &pb.SubscribeUpdateAccountInfo{Pubkey: key[:], Owner: owner[:], Lamports: lamports, WriteVersion: writeVersion, Data: data, RentEpoch: 1<<64 - 1}
}

// Transaction is a transaction named by n at position index of its block:
// one signer, then every program given, each invoked once with data n.
// A failed one ends with a custom error of its first instruction.
func Transaction(n, index uint64, failed bool, programs ...solana.Pubkey) *pb.SubscribeUpdateTransactionInfo {
	payer := Key("payer", n)
	sig := sha256.Sum256(fmt.Appendf(nil, "signature %d", n))
	sig64 := append(sig[:], sig[:]...)
	keys := [][]byte{payer[:]}
	msg := &pb.Message{
		Header:          &pb.MessageHeader{NumRequiredSignatures: 1, NumReadonlyUnsignedAccounts: uint32(len(programs))},
		RecentBlockhash: make([]byte, 32),
	}
	logs := []string{}
	for i, p := range programs {
		keys = append(keys, p[:])
		msg.Instructions = append(msg.Instructions, &pb.CompiledInstruction{ProgramIdIndex: uint32(i + 1), Accounts: []byte{0}, Data: []byte{byte(n), byte(n >> 8)}})
		logs = append(logs, "Program "+p.String()+" invoke [1]")
	}
	msg.AccountKeys = keys
	cu := uint64(1000 + n)
	meta := &pb.TransactionStatusMeta{Fee: 5000, PreBalances: make([]uint64, len(keys)), PostBalances: make([]uint64, len(keys)),
		LogMessages: logs, ComputeUnitsConsumed: &cu, ReturnDataNone: true}
	if failed {
		meta.Err = &pb.TransactionError{Err: []byte{8, 0, 0, 0, 0, 25, 0, 0, 0, 1, 0, 0, 0}}
	}
	return &pb.SubscribeUpdateTransactionInfo{Signature: sig64, Index: index, Meta: meta,
		Transaction: &pb.Transaction{Signatures: [][]byte{sig64}, Message: msg}}
}
