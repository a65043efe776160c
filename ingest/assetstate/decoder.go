package assetstate

import (
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest/arrowbatch"
	"github.com/dasch-labs/dasch/ingest/decode"
	"github.com/dasch-labs/dasch/schema"
)

// Decoder routes digital-asset accounts and Bubblegum instructions to the
// asset tables. It holds no state and is safe for concurrent use.
type Decoder struct{}

var _ decode.Decoder = Decoder{}

// Name implements decode.Decoder.
func (Decoder) Name() string { return "assets" }

// Tables implements decode.Decoder.
func (Decoder) Tables() []arrowbatch.Table {
	return append(append([]arrowbatch.Table{accountsTable(), EventsTable()}, tokenTables()...), closeTables()...)
}

// DecodeAccount implements decode.Decoder.
// A closed account is filed as a close, resolved by the state step; an
// asset row is filed by its pubkey too, so a later close finds it.
func (Decoder) DecodeAccount(acc *solana.Account, out *decode.Batch) error {
	if closedAccount(acc) {
		out.Add(&CloseRow{Pubkey: acc.Pubkey, Slot: acc.Slot, WriteVersion: acc.WriteVersion})
		out.Add(&PubkeyRow{Pubkey: acc.Pubkey, Kind: schema.AssetKindClosed, Slot: acc.Slot, WriteVersion: acc.WriteVersion})
		return nil
	}
	row, err := classify(acc)
	if err != nil || row == nil {
		return err
	}
	out.Add(row)
	if t := row.tokenAccount; t != nil {
		// Decoded once here, for the token-account read paths.
		tr := &TokenAccountRow{Address: acc.Pubkey, Account: t, Slot: acc.Slot, WriteVersion: acc.WriteVersion}
		out.Add(tr)
		out.Add(TokenOwnerRow{tr})
	}
	out.Add(&PubkeyRow{Pubkey: acc.Pubkey, AssetID: row.AssetID, Kind: row.Kind, Slot: acc.Slot, WriteVersion: acc.WriteVersion})
	return nil
}

// DecodeTx implements decode.Decoder: every Bubblegum instruction of a
// successful transaction that names a leaf becomes an event row.
func (Decoder) DecodeTx(tx *solana.Tx, out *decode.Batch) error {
	if tx.Failed() {
		return nil
	}
	rows, err := eventRows(tx)
	if err != nil {
		return err
	}
	for _, r := range rows {
		out.Add(r)
	}
	return nil
}
