package source

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"slices"
	"strconv"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest/source/geyser"
	pb "github.com/dasch-labs/dasch/internal/geyserpb"
)

// follower turns a Geyser stream into items: it holds each slot's
// updates until the slot reaches the commitment, then emits the slot and
// the ancestors it confirms, in slot order, and seals it. It outlives a
// stream: a new one resumes after the last sealed slot.
type follower struct {
	spec  string
	level pb.CommitmentLevel
	to    uint64
	e     emitter
	seal  func(Item) error
	log   *slog.Logger

	// sealed is the last slot emitted (hasSealed); data of slots up to it
	// is a repeat. floor (hasFloor) is the slot before the first wanted:
	// From-1, or a live start's first status, whose content may have
	// begun before the subscription.
	sealed, floor       uint64
	hasSealed, hasFloor bool
	from                *uint64

	open             map[uint64]*openSlot
	bytes, maxBuffer int
	sealedSlots      uint64
}

// openSlot is a slot's updates until it reaches the commitment.
type openSlot struct {
	slot      uint64
	parent    uint64
	hasParent bool
	block     *solana.Block
	txs       map[solana.Signature]pendingTx
	accounts  map[accountWrite]pendingAccount
	bad       []Item
}

type accountWrite struct {
	key     solana.Pubkey
	version uint64
}

type pendingTx struct {
	tx   *geyser.Tx
	size int
}

type pendingAccount struct {
	acc *solana.Account
	raw []byte
}

func newFollower(spec string, o GRPCOptions, emit func(Item) error) *follower {
	level, _ := commitmentLevel(o.Commitment)
	f := &follower{spec: spec, level: level, to: o.To, e: emitter{emit: emit}, seal: emit, log: o.Logger,
		open: map[uint64]*openSlot{}, maxBuffer: o.MaxBuffer, from: o.From}
	if o.From != nil && *o.From > 0 {
		f.floor, f.hasFloor = *o.From-1, true
	}
	return f
}

// progress counts the slots sealed so far.
func (f *follower) progress() uint64 { return f.sealedSlots }

// resumeSlot is the from_slot of the next stream: after the last sealed
// slot, else From, else none (live).
func (f *follower) resumeSlot() *uint64 {
	if f.hasSealed {
		s := f.sealed + 1
		return &s
	}
	return f.from
}

// restart forgets what a failed stream left unsealed: the next one sends
// it again.
func (f *follower) restart() {
	clear(f.open)
	f.bytes = 0
	if f.from == nil && !f.hasSealed {
		// Live again: the first whole slot is to be found anew.
		f.hasFloor = false
	}
}

// repeat tells whether slot's data is before what is wanted.
func (f *follower) repeat(slot uint64) bool {
	return f.hasSealed && slot <= f.sealed || f.hasFloor && slot <= f.floor
}

// slot returns the open slot, or nil for data to drop.
func (f *follower) slot(s uint64) *openSlot {
	if f.repeat(s) {
		return nil
	}
	if o := f.open[s]; o != nil {
		return o
	}
	o := &openSlot{slot: s, txs: map[solana.Signature]pendingTx{}, accounts: map[accountWrite]pendingAccount{}}
	f.open[s] = o
	return o
}

// hold accounts for n more buffered bytes.
func (f *follower) hold(n int) error {
	f.bytes += n
	if f.bytes > f.maxBuffer {
		return fmt.Errorf("more than %d MiB of updates held for slots not yet at the commitment", f.maxBuffer>>20)
	}
	return nil
}

// update takes one update; done says To is out.
func (f *follower) update(u *pb.SubscribeUpdate) (done bool, err error) {
	switch x := u.GetUpdateOneof().(type) {
	case *pb.SubscribeUpdate_Account:
		return false, f.account(x.Account)
	case *pb.SubscribeUpdate_Transaction:
		return false, f.tx(x.Transaction)
	case *pb.SubscribeUpdate_BlockMeta:
		return false, f.blockMeta(x.BlockMeta)
	case *pb.SubscribeUpdate_Slot:
		return f.status(x.Slot)
	}
	// Pings, pongs and updates of kinds not subscribed to.
	return false, nil
}

func (f *follower) account(u *pb.SubscribeUpdateAccount) error {
	o := f.slot(u.GetSlot())
	if o == nil {
		return nil
	}
	acc, raw, err := geyser.Account(u)
	if err != nil {
		return f.bad(o, "account", u, err)
	}
	k := accountWrite{acc.Pubkey, acc.WriteVersion}
	if old, ok := o.accounts[k]; ok {
		f.bytes -= len(old.raw) + len(old.acc.Data)
	}
	// A repeated write replaces the one held: the newer arrival wins.
	o.accounts[k] = pendingAccount{acc, raw}
	return f.hold(len(raw) + len(acc.Data))
}

func (f *follower) tx(u *pb.SubscribeUpdateTransaction) error {
	o := f.slot(u.GetSlot())
	if o == nil {
		return nil
	}
	t, err := geyser.Transaction(u)
	if err != nil {
		return f.bad(o, "transaction", u, err)
	}
	sig := t.Tx.Signature()
	if _, ok := o.txs[sig]; ok {
		return nil // a repeat
	}
	n := proto.Size(u)
	o.txs[sig] = pendingTx{t, n}
	return f.hold(n)
}

func (f *follower) blockMeta(m *pb.SubscribeUpdateBlockMeta) error {
	o := f.slot(m.GetSlot())
	if o == nil {
		return nil
	}
	b, err := geyser.Block(m)
	if err != nil {
		return f.bad(o, "block", m, err)
	}
	o.block = b
	o.parent, o.hasParent = b.ParentSlot, true
	return nil
}

// bad holds an update that does not convert, for a dead letter with its
// slot; its payload is the update in protobuf JSON (or, where that fails,
// in protobuf), and its key names the slot and the update's digest, so
// two bad updates of one slot failing alike stay two dead letters.
func (f *follower) bad(o *openSlot, fail string, m proto.Message, err error) error {
	wire, _ := proto.MarshalOptions{Deterministic: true}.Marshal(m)
	raw, jerr := protojson.Marshal(m)
	if jerr != nil {
		raw = wire
	}
	sum := sha256.Sum256(wire)
	key := f.key(o.slot) + "/" + fail + "/" + hex.EncodeToString(sum[:8])
	o.bad = append(o.bad, Item{Kind: KindBad, Slot: o.slot, Key: key, Raw: raw, Fail: fail,
		Err: fmt.Errorf("gRPC %s update: %w", fail, err)})
	return f.hold(len(raw))
}

func (f *follower) key(slot uint64) string { return f.spec + "#" + strconv.FormatUint(slot, 10) }

// status takes a slot status: at the commitment, the slot and the
// ancestors it confirms go out.
func (f *follower) status(u *pb.SubscribeUpdateSlot) (done bool, err error) {
	s := u.GetSlot()
	var level pb.CommitmentLevel
	switch u.GetStatus() {
	case pb.SlotStatus_SLOT_PROCESSED:
		level = pb.CommitmentLevel_PROCESSED
	case pb.SlotStatus_SLOT_CONFIRMED:
		level = pb.CommitmentLevel_CONFIRMED
	case pb.SlotStatus_SLOT_FINALIZED:
		level = pb.CommitmentLevel_FINALIZED
	case pb.SlotStatus_SLOT_DEAD:
		if o := f.open[s]; o != nil {
			f.drop(o, "dead")
		}
		return false, nil
	default:
		if u.Parent != nil {
			if o := f.slot(s); o != nil && !o.hasParent {
				o.parent, o.hasParent = u.GetParent(), true
			}
		}
		return false, nil
	}
	if f.from == nil && !f.hasSealed && !f.hasFloor && level >= f.level {
		// A live start: this slot's content may have begun before the
		// subscription. The next slot is the first whole one.
		f.floor, f.hasFloor = s, true
		for _, o := range f.open {
			if o.slot <= s {
				f.drop(o, "before the first whole slot")
			}
		}
		return false, nil
	}
	o := f.slot(s)
	if o == nil {
		return false, nil
	}
	if u.Parent != nil && !o.hasParent {
		o.parent, o.hasParent = u.GetParent(), true
	}
	if level < f.level {
		return false, nil
	}
	return f.complete(o)
}

// complete emits o's slot, after the open ancestors it confirms; the
// open slots below it off that chain are forks, dropped.
func (f *follower) complete(o *openSlot) (done bool, err error) {
	chain := []*openSlot{o}
	for cur := o; cur.hasParent && !f.repeat(cur.parent); {
		p := f.open[cur.parent]
		if p == nil || p.slot >= cur.slot {
			break
		}
		chain = append(chain, p)
		cur = p
	}
	slices.Reverse(chain)
	for _, x := range f.open {
		if x.slot < o.slot && !slices.Contains(chain, x) {
			f.drop(x, "not an ancestor of a slot at the commitment")
		}
	}
	last := uint64(0)
	emitted := false
	for _, x := range chain {
		if f.to != 0 && x.slot > f.to {
			break
		}
		if err := f.emitSlot(x); err != nil {
			return false, err
		}
		last, emitted = x.slot, true
	}
	if emitted {
		if err := f.seal(Item{Kind: KindSeal, Slot: last}); err != nil {
			return false, err
		}
	}
	return f.to != 0 && o.slot >= f.to, nil
}

// emitSlot sends a slot's items: the header, transactions in block
// order, account writes in write order, then what did not convert.
func (f *follower) emitSlot(o *openSlot) error {
	delete(f.open, o.slot)
	f.sealed, f.hasSealed = o.slot, true
	f.sealedSlots++
	key := f.key(o.slot)
	var bt *int64
	if o.block != nil {
		bt = o.block.BlockTime
		if err := f.e.send(Item{Kind: KindBlock, Slot: o.slot, Key: key, Block: o.block}); err != nil {
			return err
		}
	}
	txs := make([]*geyser.Tx, 0, len(o.txs))
	for _, t := range o.txs {
		txs = append(txs, t.tx)
	}
	slices.SortFunc(txs, func(a, b *geyser.Tx) int {
		return cmp.Or(cmp.Compare(a.Index, b.Index), slices.Compare(a.Tx.Signatures[0][:], b.Tx.Signatures[0][:]))
	})
	for _, t := range txs {
		tx := t.Finish(bt)
		if err := f.e.send(Item{Kind: KindTx, Slot: o.slot, Key: key, Raw: tx.Raw, TxIndex: tx.TxIndex, Tx: tx}); err != nil {
			return err
		}
	}
	writes := make([]pendingAccount, 0, len(o.accounts))
	for _, a := range o.accounts {
		writes = append(writes, a)
	}
	slices.SortFunc(writes, func(a, b pendingAccount) int {
		return cmp.Or(cmp.Compare(a.acc.WriteVersion, b.acc.WriteVersion), slices.Compare(a.acc.Pubkey[:], b.acc.Pubkey[:]))
	})
	for _, a := range writes {
		if err := f.e.send(Item{Kind: KindAccount, Slot: o.slot, Key: key, Raw: a.raw, Account: a.acc}); err != nil {
			return err
		}
	}
	for _, b := range o.bad {
		if err := f.e.send(b); err != nil {
			return err
		}
	}
	f.release(o)
	return nil
}

// drop forgets an open slot that will not reach the commitment.
func (f *follower) drop(o *openSlot, why string) {
	delete(f.open, o.slot)
	if n := len(o.txs) + len(o.accounts) + len(o.bad); n > 0 {
		f.log.Debug("gRPC slot dropped", "source", f.spec, "slot", o.slot, "updates", n, "why", why)
	}
	f.release(o)
}

// release returns a slot's bytes to the buffer.
func (f *follower) release(o *openSlot) {
	for _, a := range o.accounts {
		f.bytes -= len(a.raw) + len(a.acc.Data)
	}
	for _, t := range o.txs {
		f.bytes -= t.size
	}
	for _, b := range o.bad {
		f.bytes -= len(b.Raw)
	}
}
