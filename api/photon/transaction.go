package photon

import (
	"context"
	"errors"

	"github.com/goccy/go-json"
	"github.com/mr-tron/base58"

	"github.com/dasch-labs/dasch/checkpoint"
	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

// maxSigBase58Len is the longest base58 text of 64 bytes.
const maxSigBase58Len = 88

// Signature is a transaction signature param in base58 (Photon's
// SerializableSignature), with solana's ParseSignatureError texts.
type Signature compressed.Signature

// UnmarshalJSON decodes a base58 signature of 64 bytes.
func (s *Signature) UnmarshalJSON(b []byte) error {
	str, ok := unquote(b)
	if !ok {
		return invalidType(b, "a base58 encoded string")
	}
	if len(str) > maxSigBase58Len {
		return jsonrpc.InvalidParams("string decoded to wrong size for signature")
	}
	if base58Error(str) != "" {
		return jsonrpc.InvalidParams("failed to decode string to signature")
	}
	raw, err := base58.Decode(str)
	if err != nil {
		return jsonrpc.InvalidParams("failed to decode string to signature")
	}
	if len(raw) != len(s) {
		return jsonrpc.InvalidParams("string decoded to wrong size for signature")
	}
	copy(s[:], raw)
	return nil
}

// transactionWithCompressionInfo serves getTransactionWithCompressionInfo
// in either account shape. The transaction is the JSON stored when it was
// indexed (Photon fetches it from its Solana RPC node); the accounts are
// those the transaction created and spent. Opened accounts carry the
// transaction's own slot, as Photon re-parses the transaction for them.
func transactionWithCompressionInfo(d Deps, v2 bool) jsonrpc.Handler {
	return func(ctx context.Context, c *jsonrpc.Call) (any, error) {
		var p struct {
			Signature *Signature `json:"signature"`
		}
		if err := jsonrpc.DecodeParams(c.Params, &p, []string{"signature"}); err != nil {
			return nil, err
		}
		if p.Signature == nil {
			return nil, jsonrpc.MissingField("signature")
		}
		// No stamp, but nothing past the checkpoint either: a crash may
		// still cut the transaction's slot short.
		through, err := d.Slots.ContextSlot(ctx)
		if errors.Is(err, checkpoint.ErrNotIndexed) {
			return nil, recordNotFound("Transaction not found")
		}
		if err != nil {
			return nil, err
		}
		tx, err := compressed.TransactionThrough(ctx, d.Store, compressed.Signature(*p.Signature), &through)
		if errors.Is(err, compressed.ErrTxNotFound) {
			return nil, recordNotFound("Transaction not found")
		}
		if err != nil {
			return nil, err
		}
		var head struct {
			Slot *uint64 `json:"slot"`
		}
		if err := json.Unmarshal(tx.Raw, &head); err != nil {
			return nil, errors.Join(errors.New("stored transaction JSON"), err)
		}
		txSlot := tx.Slot
		if head.Slot != nil {
			txSlot = *head.Slot
		}
		return encodeTransactionInfo(tx, txSlot, v2), nil
	}
}

// encodeTransactionInfo writes {"transaction":…,"compressionInfo":{…}}.
func encodeTransactionInfo(tx *compressed.Transaction, txSlot uint64, v2 bool) json.RawMessage {
	b := make([]byte, 0, len(tx.Raw)+1024*(len(tx.Opened)+len(tx.Closed)+1))
	b = append(b, `{"transaction":`...)
	b = append(b, tx.Raw...)
	b = append(b, `,"compressionInfo":{"closedAccounts":[`...)
	for i := range tx.Closed {
		if i > 0 {
			b = append(b, ',')
		}
		c := &tx.Closed[i]
		b = append(b, `{"account":`...)
		if v2 {
			b = append(b, `{"account":`...)
			b = appendAccountV2(b, &c.Account, nil)
			b = append(b, `,"nullifier":`...)
			b = appendKey(b, c.Nullifier)
			b = append(b, `,"txHash":`...)
			b = appendKey(b, c.TxHash)
			b = append(b, '}')
		} else {
			b = appendAccountV1(b, &c.Account, nil)
		}
		b = appendOptionalTokenData(b, &c.Account)
	}
	b = append(b, `],"openedAccounts":[`...)
	for i := range tx.Opened {
		if i > 0 {
			b = append(b, ',')
		}
		a := tx.Opened[i]
		a.SlotCreated = txSlot
		b = append(b, `{"account":`...)
		b = appendAccount(b, &a, v2, nil)
		b = appendOptionalTokenData(b, &a)
	}
	return append(b, `]}}`...)
}

// appendOptionalTokenData ends an account entry with its token data, or
// null for an account that is not a token account.
func appendOptionalTokenData(b []byte, a *compressed.Account) []byte {
	b = append(b, `,"optionalTokenData":`...)
	if a.IsToken {
		b = appendTokenData(b, a, nil)
	} else {
		b = append(b, "null"...)
	}
	return append(b, '}')
}
