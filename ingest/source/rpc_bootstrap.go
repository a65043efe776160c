package source

import (
	"context"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/mr-tron/base58"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest/decode"
)

// The bootstrap lists the current accounts of the followed programs
// (RPCOptions.Reads) before any block: getProgramAccountsV2 a page at a
// time where the node has it, else getProgramAccounts whole, streamed
// either way and emitted as they are read. The node's newest slot S is
// asked first and every listing asks for minContextSlot S: each page is
// the state at S or later. Every account is filed at S (write version:
// its page's context slot), then S is sealed and the blocks are followed
// from S+1. A page answered later than S may hold a state newer than S,
// filed at S; whatever changed after S is in a block after S, which reads
// its accounts again (see blockAccounts).

// bootstrapped counts what the bootstrap listed, for its log line.
type bootstrapped struct {
	accounts, bad atomic.Int64
}

// bootstrap emits the listed accounts at the node's newest slot, then
// its seal, and returns the slot.
func (r *RPC) bootstrap(ctx context.Context, e *emitter, emit func(Item) error) (uint64, error) {
	slot, err := r.Tip(ctx)
	if err != nil {
		return 0, err
	}
	reads := r.opts.Reads
	if len(reads) == 0 {
		for _, o := range r.opts.Owners {
			reads = append(reads, decode.AccountRead{Owner: o})
		}
	}
	r.log().Info("listing the accounts of the followed programs", "source", r.Spec(), "slot", slot, "reads", len(reads))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	items := make(chan Item, 1024)
	errs := make([]error, len(reads))
	var n bootstrapped
	go func() {
		defer close(items)
		sem := make(chan struct{}, r.opts.Fetchers)
		var wg sync.WaitGroup
		for i, read := range reads {
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
			}
			if ctx.Err() != nil {
				break
			}
			wg.Go(func() {
				defer func() { <-sem }()
				if errs[i] = r.list(ctx, read, slot, items, &n); errs[i] != nil {
					cancel()
				}
			})
		}
		wg.Wait()
	}()
	var sendErr error
	for it := range items {
		if sendErr == nil {
			if sendErr = e.send(it); sendErr != nil {
				cancel() // the listings stop; items drains
			}
		}
	}
	if sendErr != nil {
		return 0, sendErr
	}
	// One listing's failure cancels the others: it is the cause.
	for _, err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) {
			return 0, err
		}
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if err := emit(Item{Kind: KindSeal, Slot: slot}); err != nil {
		return 0, err
	}
	r.log().Info("listed the accounts of the followed programs", "source", r.Spec(), "slot", slot,
		"accounts", n.accounts.Load(), "dead_letters", n.bad.Load())
	return slot, nil
}

// list streams one read's accounts into out, page by page. The stream
// only cuts the answer into accounts; workers check and convert them (the
// costly part), in any order: every one is filed at slot.
func (r *RPC) list(ctx context.Context, read decode.AccountRead, slot uint64, out chan<- Item, n *bootstrapped) error {
	type raw struct {
		b       []byte
		context uint64
	}
	raws := make(chan raw, 256)
	var workers sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		workers.Go(func() {
			for e := range raws {
				it := r.listed(e.b, read.Owner, slot, e.context)
				if it.Kind == KindBad {
					n.bad.Add(1)
				} else {
					n.accounts.Add(1)
				}
				select {
				case out <- it:
				case <-ctx.Done():
				}
			}
		})
	}
	defer workers.Wait()
	defer close(raws)
	var page *string
	for {
		v2 := !r.noV2.Load()
		method := "getProgramAccounts"
		if v2 {
			method = "getProgramAccountsV2"
		}
		var l listing
		zstd := !r.noZstd.Load()
		err := r.stream(ctx, method, r.listParams(read, slot, v2, zstd, page), func(dec *stdjson.Decoder, lim *entryLimit) error {
			l = listing{}
			if err := walkListing(dec, lim, &l, func(b []byte, context uint64) error {
				select {
				case raws <- raw{b, context}:
					return nil
				case <-ctx.Done():
					return ctx.Err()
				}
			}); err != nil {
				return err
			}
			if l.hasContext && l.context < slot {
				return errAnswer("%s answered at slot %d, before the %d asked for", method, l.context, slot)
			}
			if v2 && !l.paged {
				return errAnswer("%s answered no page (accounts, paginationKey)", method)
			}
			return nil
		})
		var ne *nodeError
		if zstd && errors.As(err, &ne) && ne.code == codeInvalidParams && strings.Contains(ne.msg, "zstd") {
			// The node lists without compression: larger answers, same accounts.
			if r.noZstd.CompareAndSwap(false, true) {
				r.log().Info("the node refuses base64+zstd: listing in base64", "source", r.Spec(), "answer", ne.msg)
			}
			continue
		}
		if v2 && errors.As(err, &ne) && ne.code == codeMethodNotFound {
			if r.noV2.CompareAndSwap(false, true) {
				r.log().Info("the node has no getProgramAccountsV2: listing with getProgramAccounts, each program whole", "source", r.Spec())
			}
			page = nil
			continue
		}
		if err != nil {
			return fmt.Errorf("source %s: %s %s: %w", r.Spec(), method, read.Owner, err)
		}
		if !v2 || l.pageKey == nil || *l.pageKey == "" {
			return nil
		}
		page = l.pageKey
	}
}

// listParams are the params of one listing call.
func (r *RPC) listParams(read decode.AccountRead, slot uint64, v2, zstd bool, page *string) string {
	var b strings.Builder
	enc := "base64"
	if zstd {
		enc = "base64+zstd"
	}
	b.WriteString(`["` + read.Owner.String() + `",{"encoding":"` + enc + `","commitment":"` + r.opts.Commitment +
		`","minContextSlot":` + strconv.FormatUint(slot, 10) + `,"withContext":true`)
	if len(read.Filters) > 0 {
		b.WriteString(`,"filters":[`)
		for i, f := range read.Filters {
			if i > 0 {
				b.WriteByte(',')
			}
			if f.DataSize != nil {
				b.WriteString(`{"dataSize":` + strconv.FormatUint(*f.DataSize, 10) + `}`)
			} else if m := f.Memcmp; m != nil {
				b.WriteString(`{"memcmp":{"offset":` + strconv.FormatUint(m.Offset, 10) + `,"bytes":"` + base58.Encode(m.Bytes) + `"}}`)
			}
		}
		b.WriteByte(']')
	}
	if v2 {
		b.WriteString(`,"limit":` + strconv.Itoa(r.opts.PageSize))
		if page != nil {
			b.WriteString(`,"paginationKey":` + strconv.Quote(*page))
		}
	}
	b.WriteString(`}]`)
	return b.String()
}

// listed is the item of one listed account, filed at slot with write
// version context (slot when the page's context came after its
// accounts): an account of owner, or a dead letter.
func (r *RPC) listed(raw []byte, owner solana.Pubkey, slot, context uint64) Item {
	k, a, err := r.accounts.keyedOf(raw, true) // the stream read it
	key := fmt.Sprintf("%s#%d/%s", r.Spec(), slot, k)
	if err == nil && a.Owner != owner {
		err = fmt.Errorf("listed under %s but owned by %s", owner, a.Owner)
	}
	if err != nil {
		return r.badAccount(key, slot, raw, fmt.Errorf("listing %s at slot %d: %w", owner, slot, err))
	}
	return Item{Kind: KindAccount, Slot: slot, Key: key, Raw: itemJSON(k, a, slot, max(context, slot))}
}
