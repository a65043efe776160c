package decode

import (
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest/arrowbatch"
)

// Raw writes the core tables: blocks, transactions and accounts.
type Raw struct{}

var (
	_ Decoder      = Raw{}
	_ BlockDecoder = Raw{}
)

// Name implements Decoder.
func (Raw) Name() string { return "raw" }

// Tables implements Decoder.
func (Raw) Tables() []arrowbatch.Table {
	return []arrowbatch.Table{arrowbatch.BlocksTable(), arrowbatch.TxsTable(), arrowbatch.AccountsTable()}
}

// DecodeTx implements Decoder.
func (Raw) DecodeTx(tx *solana.Tx, out *Batch) error {
	out.Add(&arrowbatch.TxRow{
		Slot:         tx.Slot,
		Signature:    tx.Signature(),
		TxIndex:      tx.TxIndex,
		BlockTime:    orZero(tx.BlockTime),
		Err:          tx.Err,
		Fee:          tx.Fee,
		FeePayer:     tx.FeePayer(),
		IsVote:       tx.IsVote,
		AccountKeys:  tx.AccountKeys,
		ProgramIDs:   tx.ProgramIDs(),
		ComputeUnits: tx.ComputeUnits,
		Raw:          tx.Raw,
	})
	return nil
}

// DecodeAccount implements Decoder.
func (Raw) DecodeAccount(a *solana.Account, out *Batch) error {
	out.Add(&arrowbatch.AccountRow{
		Pubkey:       a.Pubkey,
		Owner:        a.Owner,
		Lamports:     a.Lamports,
		Data:         a.Data,
		Executable:   a.Executable,
		RentEpoch:    a.RentEpoch,
		Slot:         a.Slot,
		WriteVersion: a.WriteVersion,
	})
	return nil
}

// DecodeBlock implements BlockDecoder.
func (Raw) DecodeBlock(b *solana.Block, out *Batch) error {
	out.Add(&arrowbatch.BlockRow{
		Slot:              b.Slot,
		ParentSlot:        b.ParentSlot,
		Blockhash:         b.Blockhash,
		PreviousBlockhash: b.PreviousBlockhash,
		BlockHeight:       b.BlockHeight,
		BlockTime:         orZero(b.BlockTime),
		TxCount:           b.TxCount,
	})
	return nil
}

// orZero stores an unknown time as 0, as the schema documents.
func orZero(v *int64) int64 {
	if v == nil {
		return 0
	}
	return *v
}
