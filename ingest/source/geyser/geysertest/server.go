// Package geysertest is a loopback Yellowstone gRPC (Geyser) server for
// tests: it serves a script of slots (accounts, transactions, block
// metadata and slot statuses) through the same protobufs the gRPC source
// reads, honouring the subscription's filters, commitment and from_slot,
// and can misbehave on cue: disconnect, send duplicates, send a slot's
// writes out of order, replay more than asked, ping.
package geysertest

import (
	"context"
	"crypto/sha256"
	"crypto/tls"
	"fmt"
	"net"
	"slices"
	"sync"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/dasch-labs/dasch/internal/b58"
	pb "github.com/dasch-labs/dasch/internal/geyserpb"
)

// Slot is one slot of a script.
type Slot struct {
	Slot, Parent uint64
	BlockTime    *int64
	// Blockhash and ParentBlockhash are base58; made up from the slots
	// when empty.
	Blockhash, ParentBlockhash string
	BlockHeight                *uint64
	// TxCount is the block's executed transaction count; len(Txs) when 0.
	TxCount  uint64
	Accounts []*pb.SubscribeUpdateAccountInfo
	// Txs are in block order; their Index is sent as it is.
	Txs []*pb.SubscribeUpdateTransactionInfo
	// Extra updates go out with the slot's content as they are, whatever
	// the filters: malformed ones, for instance.
	Extra []*pb.SubscribeUpdate
	// Fork: the slot is processed (its content goes to processed
	// subscriptions) and then abandoned, never confirmed.
	Fork bool
	// Orphan: the content goes out at every commitment but no status ever
	// does, as from a server that sends a slot it then drops.
	Orphan bool
	// Dead: the slot dies; only its dead status goes out.
	Dead bool
	// NoMeta leaves the block metadata out.
	NoMeta bool
}

// Script is what a server serves and how it misbehaves.
type Script struct {
	Slots []Slot
	// FinalizeLag is how many confirmed slots the finalized status of a
	// slot trails by.
	FinalizeLag int
	// Disconnects ends the i-th stream (from 0) with Unavailable after
	// that many updates; streams past the list are not cut.
	Disconnects []int
	// Duplicate sends every Duplicate-th content update twice (0: none).
	Duplicate int
	// Reverse sends each slot's accounts and transactions in reverse.
	Reverse bool
	// ReplayOverlap starts a from_slot replay this many slots early.
	ReplayOverlap uint64
	// PingEvery sends a ping every PingEvery updates (0: none).
	PingEvery int
	// FirstAvailable: a from_slot below it is refused as a real server
	// refuses a slot it no longer keeps.
	FirstAvailable uint64
	// NoReplay refuses any from_slot, as a server without replay does.
	NoReplay bool
	// Token, when set, is the x-token every call must carry.
	Token string
	// TLS, when set, serves over TLS with it (URL https://).
	TLS *tls.Config
	// Pace, when set, is called before a slot's first update goes out on
	// a stream and may block: a benchmark holds slots to a schedule with
	// it. An error ends the stream with it.
	Pace func(ctx context.Context, slot uint64) error
}

// Server is a running loopback server.
type Server struct {
	pb.UnimplementedGeyserServer
	// URL is http://127.0.0.1:PORT.
	URL    string
	script Script
	srv    *grpc.Server

	mu       sync.Mutex
	streams  int
	requests []*pb.SubscribeRequest
	pongs    int
	sent     int
}

// Start serves script on a loopback port until the test ends.
func Start(t testing.TB, script Script) *Server {
	t.Helper()
	s, err := Serve(script)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Stop)
	return s
}

// Serve serves script on a loopback port until Stop.
func Serve(script Script) (*Server, error) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &Server{URL: "http://" + lis.Addr().String(), script: script}
	opts := []grpc.ServerOption{grpc.MaxSendMsgSize(64 << 20)}
	if script.TLS != nil {
		s.URL = "https://" + lis.Addr().String()
		opts = append(opts, grpc.Creds(credentials.NewTLS(script.TLS)))
	}
	s.srv = grpc.NewServer(opts...)
	pb.RegisterGeyserServer(s.srv, s)
	go func() { _ = s.srv.Serve(lis) }()
	return s, nil
}

// Stop ends every stream and the server.
func (s *Server) Stop() { s.srv.Stop() }

// Streams is how many subscriptions the server took.
func (s *Server) Streams() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.streams
}

// Requests returns the filter request of each stream, in order.
func (s *Server) Requests() []*pb.SubscribeRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

// Pongs is how many client pings the server answered.
func (s *Server) Pongs() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pongs
}

// Sent is how many updates the server sent, over every stream.
func (s *Server) Sent() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sent
}

func (s *Server) auth(ctx context.Context) error {
	if s.script.Token == "" {
		return nil
	}
	md, _ := metadata.FromIncomingContext(ctx)
	if v := md.Get("x-token"); len(v) != 1 || v[0] != s.script.Token {
		return status.Error(codes.Unauthenticated, "invalid x-token")
	}
	return nil
}

// Ping implements pb.GeyserServer.
func (s *Server) Ping(ctx context.Context, r *pb.PingRequest) (*pb.PongResponse, error) {
	if err := s.auth(ctx); err != nil {
		return nil, err
	}
	return &pb.PongResponse{Count: r.GetCount()}, nil
}

// GetSlot implements pb.GeyserServer: the last slot of the script.
func (s *Server) GetSlot(ctx context.Context, _ *pb.GetSlotRequest) (*pb.GetSlotResponse, error) {
	if err := s.auth(ctx); err != nil {
		return nil, err
	}
	if len(s.script.Slots) == 0 {
		return &pb.GetSlotResponse{}, nil
	}
	return &pb.GetSlotResponse{Slot: s.script.Slots[len(s.script.Slots)-1].Slot}, nil
}

// GetVersion implements pb.GeyserServer.
func (s *Server) GetVersion(ctx context.Context, _ *pb.GetVersionRequest) (*pb.GetVersionResponse, error) {
	if err := s.auth(ctx); err != nil {
		return nil, err
	}
	return &pb.GetVersionResponse{Version: `{"version":"geysertest"}`}, nil
}

// Subscribe implements pb.GeyserServer.
func (s *Server) Subscribe(stream pb.Geyser_SubscribeServer) error {
	ctx := stream.Context()
	if err := s.auth(ctx); err != nil {
		return err
	}
	var sendMu sync.Mutex
	send := func(u *pb.SubscribeUpdate) error {
		sendMu.Lock()
		defer sendMu.Unlock()
		return stream.Send(u)
	}
	var req *pb.SubscribeRequest
	for req == nil {
		r, err := stream.Recv()
		if err != nil {
			return err
		}
		if r.Ping != nil {
			if err := send(pong(r)); err != nil {
				return err
			}
			continue
		}
		req = r
	}
	s.mu.Lock()
	n := s.streams
	s.streams++
	s.requests = append(s.requests, req)
	s.mu.Unlock()
	// Later requests are pings (filter changes are not scripted).
	go func() {
		for {
			r, err := stream.Recv()
			if err != nil {
				return
			}
			if r.Ping != nil {
				s.mu.Lock()
				s.pongs++
				s.mu.Unlock()
				_ = send(pong(r))
			}
		}
	}()
	start := uint64(0)
	if req.FromSlot != nil {
		from := req.GetFromSlot()
		switch {
		case s.script.NoReplay:
			return status.Error(codes.Internal, "from_slot is not supported")
		case from < s.script.FirstAvailable:
			return status.Errorf(codes.OutOfRange, "broadcast from %d is not available, last available: %d", from, s.script.FirstAvailable)
		}
		start = from - min(from, s.script.ReplayOverlap)
	}
	limit := -1
	if n < len(s.script.Disconnects) {
		limit = s.script.Disconnects[n]
	}
	sent, content := 0, 0
	paced, anyPaced := uint64(0), false
	for _, m := range s.timeline(req) {
		if m.slot < start {
			continue
		}
		if p := s.script.Pace; p != nil && (!anyPaced || m.slot > paced) {
			if err := p(ctx, m.slot); err != nil {
				return err
			}
			paced, anyPaced = m.slot, true
		}
		times := 1
		if m.content {
			content++
			if d := s.script.Duplicate; d > 0 && content%d == 0 {
				times = 2
			}
		}
		for range times {
			if sent == limit {
				return status.Error(codes.Unavailable, "scripted disconnect")
			}
			if p := s.script.PingEvery; p > 0 && sent > 0 && sent%p == 0 {
				if err := send(&pb.SubscribeUpdate{UpdateOneof: &pb.SubscribeUpdate_Ping{Ping: &pb.SubscribeUpdatePing{}}}); err != nil {
					return err
				}
			}
			if err := send(m.u); err != nil {
				return err
			}
			sent++
			s.mu.Lock()
			s.sent++
			s.mu.Unlock()
		}
	}
	// A live server has nothing more until the next slot: hold the stream.
	<-ctx.Done()
	return nil
}

func pong(r *pb.SubscribeRequest) *pb.SubscribeUpdate {
	return &pb.SubscribeUpdate{UpdateOneof: &pb.SubscribeUpdate_Pong{Pong: &pb.SubscribeUpdatePong{Id: r.GetPing().GetId()}}}
}

// message is one update of the timeline, with the slot it belongs to.
type message struct {
	slot    uint64
	u       *pb.SubscribeUpdate
	content bool
}

// timeline is every update a subscription gets, in order: a slot's
// content goes out just before its status at the subscription's
// commitment, as Yellowstone sends it; finalized statuses trail.
func (s *Server) timeline(req *pb.SubscribeRequest) []message {
	level := req.GetCommitment()
	var out []message
	o := owners{}
	emitContent := func(sl *Slot) { out = append(out, s.content(req, sl, o)...) }
	emitStatus := func(sl *Slot, st pb.SlotStatus) {
		if u := slotUpdate(req, sl, st); u != nil {
			out = append(out, message{slot: sl.Slot, u: u})
		}
	}
	var confirmed []*Slot
	finalize := func(sl *Slot) {
		if level == pb.CommitmentLevel_FINALIZED {
			emitContent(sl)
		}
		emitStatus(sl, pb.SlotStatus_SLOT_FINALIZED)
	}
	for i := range s.script.Slots {
		sl := &s.script.Slots[i]
		switch {
		case sl.Dead:
			emitStatus(sl, pb.SlotStatus_SLOT_DEAD)
			continue
		case sl.Orphan:
			emitContent(sl)
			continue
		}
		if level == pb.CommitmentLevel_PROCESSED {
			emitContent(sl)
		}
		emitStatus(sl, pb.SlotStatus_SLOT_PROCESSED)
		if sl.Fork {
			continue
		}
		if level == pb.CommitmentLevel_CONFIRMED {
			emitContent(sl)
		}
		emitStatus(sl, pb.SlotStatus_SLOT_CONFIRMED)
		confirmed = append(confirmed, sl)
		if len(confirmed) > s.script.FinalizeLag {
			finalize(confirmed[0])
			confirmed = confirmed[1:]
		}
	}
	for _, sl := range confirmed {
		finalize(sl)
	}
	return out
}

// content is a slot's accounts and transactions that pass the filters,
// its extra updates, then its block metadata.
func (s *Server) content(req *pb.SubscribeRequest, sl *Slot, o owners) []message {
	var out []message
	for _, a := range sl.Accounts {
		if names := accountFilters(req, a, o); names != nil {
			out = append(out, message{slot: sl.Slot, content: true, u: &pb.SubscribeUpdate{Filters: names,
				UpdateOneof: &pb.SubscribeUpdate_Account{Account: &pb.SubscribeUpdateAccount{Account: a, Slot: sl.Slot}}}})
		}
	}
	for _, tx := range sl.Txs {
		if names := txFilters(req, tx); names != nil {
			out = append(out, message{slot: sl.Slot, content: true, u: &pb.SubscribeUpdate{Filters: names,
				UpdateOneof: &pb.SubscribeUpdate_Transaction{Transaction: &pb.SubscribeUpdateTransaction{Transaction: tx, Slot: sl.Slot}}}})
		}
	}
	if s.script.Reverse {
		slices.Reverse(out)
	}
	for _, u := range sl.Extra {
		out = append(out, message{slot: sl.Slot, content: true, u: u})
	}
	if len(req.GetBlocksMeta()) > 0 && !sl.NoMeta {
		n := sl.TxCount
		if n == 0 {
			n = uint64(len(sl.Txs))
		}
		m := &pb.SubscribeUpdateBlockMeta{
			Slot: sl.Slot, ParentSlot: sl.Parent, ExecutedTransactionCount: n,
			Blockhash: hashOr(sl.Blockhash, sl.Slot), ParentBlockhash: hashOr(sl.ParentBlockhash, sl.Parent),
		}
		if sl.BlockTime != nil {
			m.BlockTime = &pb.UnixTimestamp{Timestamp: *sl.BlockTime}
		}
		if sl.BlockHeight != nil {
			m.BlockHeight = &pb.BlockHeight{BlockHeight: *sl.BlockHeight}
		}
		out = append(out, message{slot: sl.Slot, u: &pb.SubscribeUpdate{Filters: keys(req.GetBlocksMeta()),
			UpdateOneof: &pb.SubscribeUpdate_BlockMeta{BlockMeta: m}}})
	}
	return out
}

// hashOr is h, or a hash made up from slot.
func hashOr(h string, slot uint64) string {
	if h != "" {
		return h
	}
	sum := sha256.Sum256(fmt.Appendf(nil, "slot %d", slot))
	return b58.Encode(sum[:])
}

func slotUpdate(req *pb.SubscribeRequest, sl *Slot, st pb.SlotStatus) *pb.SubscribeUpdate {
	var names []string
	for name, f := range req.GetSlots() {
		commitmentStatus := st == pb.SlotStatus_SLOT_PROCESSED || st == pb.SlotStatus_SLOT_CONFIRMED || st == pb.SlotStatus_SLOT_FINALIZED
		if f.GetFilterByCommitment() && int32(st) != int32(req.GetCommitment()) {
			continue
		}
		if !f.GetInterslotUpdates() && !commitmentStatus {
			continue
		}
		names = append(names, name)
	}
	if names == nil {
		return nil
	}
	u := &pb.SubscribeUpdateSlot{Slot: sl.Slot, Status: st}
	if sl.Slot > 0 {
		p := sl.Parent
		u.Parent = &p
	}
	if st == pb.SlotStatus_SLOT_DEAD {
		e := "scripted dead slot"
		u.DeadError = &e
	}
	slices.Sort(names)
	return &pb.SubscribeUpdate{Filters: names, UpdateOneof: &pb.SubscribeUpdate_Slot{Slot: u}}
}

// owners remembers the base58 of owners: a stream has few.
type owners map[string]string

func (o owners) encode(k []byte) string {
	s, ok := o[string(k)]
	if !ok {
		s = b58.Encode(k)
		o[string(k)] = s
	}
	return s
}

func accountFilters(req *pb.SubscribeRequest, a *pb.SubscribeUpdateAccountInfo, o owners) []string {
	var names []string
	for name, f := range req.GetAccounts() {
		if (len(f.GetAccount()) == 0 || slices.Contains(f.GetAccount(), b58.Encode(a.GetPubkey()))) &&
			(len(f.GetOwner()) == 0 || slices.Contains(f.GetOwner(), o.encode(a.GetOwner()))) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

func txFilters(req *pb.SubscribeRequest, tx *pb.SubscribeUpdateTransactionInfo) []string {
	var keys []string
	for _, k := range tx.GetTransaction().GetMessage().GetAccountKeys() {
		keys = append(keys, b58.Encode(k))
	}
	for _, k := range append(slices.Clip(tx.GetMeta().GetLoadedWritableAddresses()), tx.GetMeta().GetLoadedReadonlyAddresses()...) {
		keys = append(keys, b58.Encode(k))
	}
	has := func(k string) bool { return slices.Contains(keys, k) }
	var names []string
	for name, f := range req.GetTransactions() {
		if f.Vote != nil && !f.GetVote() && tx.GetIsVote() {
			continue
		}
		if f.Failed != nil && !f.GetFailed() && tx.GetMeta().GetErr() != nil {
			continue
		}
		if len(f.GetAccountInclude()) > 0 && !slices.ContainsFunc(f.GetAccountInclude(), has) {
			continue
		}
		if slices.ContainsFunc(f.GetAccountExclude(), has) {
			continue
		}
		if !allOf(f.GetAccountRequired(), has) {
			continue
		}
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

func allOf(list []string, has func(string) bool) bool {
	for _, k := range list {
		if !has(k) {
			return false
		}
	}
	return true
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
