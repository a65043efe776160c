package source

import (
	"context"
	stdjson "encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/dasch-labs/dasch/chain/solana"
)

// A block carries transactions, not account state. After each block the
// source reads back the accounts it may have written that may belong to
// the followed programs (RPCOptions.Owners): an account's owner is not
// known before it is read, so every writable key of every successful
// transaction running one of those programs, top level or inner, but its
// fee payer (a System account, whatever it pays for) and the programs.
// They are read with getMultipleAccounts at minContextSlot = the block's
// slot and emitted at that slot, after its transactions and before its
// seal, so the indexed slot moves past a block only once its accounts
// are in.
//
// The node answers an account as of its context slot, which may be later
// than the block: a state newer than the block is then filed at the
// block's slot, with the context slot as write version. It is never
// older than the block, and a write after the block is in a later block,
// which reads the account again and files it at its own slot: the
// newest block read is the account's state, a little early at worst.

// writtenKey is an account a block may have written; signer is set when
// it signed one of the transactions writing it (a wallet, unless it was
// closed).
type writtenKey struct {
	key    solana.Pubkey
	signer bool
}

// writtenKeys lists the accounts the block's transactions may have
// written through the followed programs, each once, in order.
func (r *RPC) writtenKeys(entries [][]byte) []writtenKey {
	var out []writtenKey
	at := map[solana.Pubkey]int{}
	for _, raw := range entries {
		tx, err := solana.ParseTx(raw)
		if err != nil || tx.Failed() || !tx.Invokes(r.owners) {
			continue // a transaction that does not parse is a dead letter of the pipeline
		}
		signers := len(tx.AccountKeys)
		if tx.Header != nil {
			signers = int(tx.Header.NumRequiredSignatures)
		}
		for i, k := range tx.AccountKeys {
			if i == 0 || !tx.Writable(i) || r.owners[k] {
				continue
			}
			signer := i < signers && tx.Header != nil
			if j, ok := at[k]; ok {
				out[j].signer = out[j].signer || signer
				continue
			}
			at[k] = len(out)
			out = append(out, writtenKey{k, signer})
		}
	}
	return out
}

// maxMultiple is the most keys one getMultipleAccounts call takes.
const maxMultiple = 100

// blockAccounts reads what the block at slot wrote: the items to emit
// after its transactions, in key order.
func (r *RPC) blockAccounts(ctx context.Context, slot uint64, entries [][]byte) ([]Item, error) {
	keys := r.writtenKeys(entries)
	if len(keys) == 0 {
		return nil, nil
	}
	chunks := (len(keys) + maxMultiple - 1) / maxMultiple
	results := make([][]Item, chunks)
	errs := make([]error, chunks)
	sem := make(chan struct{}, r.opts.AccountFetchers)
	var wg sync.WaitGroup
	for c := range chunks {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			results[c], errs[c] = r.multiple(ctx, slot, keys[c*maxMultiple:min((c+1)*maxMultiple, len(keys))])
		}()
	}
	wg.Wait()
	var out []Item
	for c := range chunks {
		if errs[c] != nil {
			return nil, errs[c]
		}
		out = append(out, results[c]...)
	}
	return out, nil
}

// multiple reads keys at minContextSlot slot and turns each into an item:
// an account of a followed program, a closed account (none, no lamports,
// or the System program's but for a signer's: a wallet), or a dead
// letter for an account the answer does not hold well.
func (r *RPC) multiple(ctx context.Context, slot uint64, keys []writtenKey) ([]Item, error) {
	var params strings.Builder
	params.WriteString(`[[`)
	for i, k := range keys {
		if i > 0 {
			params.WriteByte(',')
		}
		params.WriteString(`"` + k.key.String() + `"`)
	}
	params.WriteString(`],{"encoding":"base64","commitment":"` + r.opts.Commitment + `","minContextSlot":` + strconv.FormatUint(slot, 10) + `}]`)
	var raws [][]byte
	var l listing
	err := r.stream(ctx, "getMultipleAccounts", params.String(), func(dec *stdjson.Decoder, lim *entryLimit) error {
		raws, l = raws[:0], listing{}
		if err := walkListing(dec, lim, &l, func(raw []byte, _ uint64) error {
			raws = append(raws, raw)
			return nil
		}); err != nil {
			return err
		}
		switch {
		case !l.hasContext:
			return errAnswer("getMultipleAccounts answer without a context slot")
		case l.context < slot:
			return errAnswer("getMultipleAccounts answered at slot %d, before the block's %d", l.context, slot)
		case len(raws) != len(keys):
			return errAnswer("getMultipleAccounts answered %d accounts for %d keys", len(raws), len(keys))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("source %s: getMultipleAccounts after block %d: %w", r.Spec(), slot, err)
	}
	out := make([]Item, 0, len(keys))
	for i, k := range keys {
		key := fmt.Sprintf("%s#%d/%s", r.Spec(), slot, k.key)
		if string(raws[i]) == "null" {
			out = append(out, Item{Kind: KindAccount, Slot: slot, Key: key, Raw: itemJSON(k.key, nil, slot, l.context)})
			continue
		}
		a, err := r.accounts.accountOf(raws[i], true) // the stream read it
		if err != nil {
			out = append(out, r.badAccount(key, slot, raws[i], fmt.Errorf("getMultipleAccounts %s at slot %d: %w", k.key, slot, err)))
			continue
		}
		switch {
		case r.owners[a.Owner], a.Lamports == 0, a.Owner == solana.SystemProgram() && !k.signer:
		default:
			continue // another program's account, or a wallet
		}
		out = append(out, Item{Kind: KindAccount, Slot: slot, Key: key, Raw: itemJSON(k.key, a, slot, l.context)})
	}
	return out, nil
}

// maxBadPayload bounds what a dead letter keeps of a malformed account.
const maxBadPayload = 64 << 10

// badAccount is the dead letter of an account a node answered badly.
func (r *RPC) badAccount(key string, slot uint64, raw []byte, err error) Item {
	r.log().Warn("node answered an account that does not decode; dead-lettered", "source", r.Spec(), "slot", slot, "key", key, "err", err)
	return Item{Kind: KindBad, Slot: slot, Key: key, Raw: raw[:min(len(raw), maxBadPayload)], Fail: "account", Err: err}
}
