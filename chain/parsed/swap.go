package parsed

import (
	"fmt"
	"math/big"

	"github.com/dasch-labs/dasch/chain/solana"
)

// TypeSwap is the type of a transaction that swapped through a program
// dasch recognises.
const TypeSwap = "SWAP"

// SwapEvent is events.swap: the swap as the user saw it, in the shape of
// Helius (native and token sides, inner swaps with their program), and
// its summary.
type SwapEvent struct {
	NativeInput  *NativeAmount  `json:"nativeInput"`
	NativeOutput *NativeAmount  `json:"nativeOutput"`
	TokenInputs  []SwapToken    `json:"tokenInputs"`
	TokenOutputs []SwapToken    `json:"tokenOutputs"`
	TokenFees    []SwapToken    `json:"tokenFees"`
	NativeFees   []NativeAmount `json:"nativeFees"`
	InnerSwaps   []InnerSwap    `json:"innerSwaps"`
	Summary      SwapSummary    `json:"summary"`
	legs         []SwapLeg      // leg 0 first
	proto        swapProtocol   // of leg 0
}

// NativeAmount is lamports on one side of a swap, as a decimal string.
type NativeAmount struct {
	Account string `json:"account"`
	Amount  string `json:"amount"`
}

// SwapToken is tokens on one side of a swap.
type SwapToken struct {
	UserAccount    string         `json:"userAccount"`
	TokenAccount   string         `json:"tokenAccount"`
	Mint           string         `json:"mint"`
	RawTokenAmount RawTokenAmount `json:"rawTokenAmount"`
}

// InnerSwap is one pool swap of a route.
type InnerSwap struct {
	TokenInputs  []SwapToken    `json:"tokenInputs"`
	TokenOutputs []SwapToken    `json:"tokenOutputs"`
	TokenFees    []SwapToken    `json:"tokenFees"`
	NativeFees   []NativeAmount `json:"nativeFees"`
	ProgramInfo  ProgramInfo    `json:"programInfo"`
}

// ProgramInfo names the program of an inner swap.
type ProgramInfo struct {
	Source          string `json:"source"`
	Account         string `json:"account"`
	ProgramName     string `json:"programName"`
	InstructionName string `json:"instructionName"`
}

// SwapSummary is the swap flat: who swapped what for what, where; SOL is
// the wrapped SOL mint, amounts raw with their decimals.
type SwapSummary struct {
	Protocol       string        `json:"protocol"`
	ProgramID      string        `json:"programId"`
	User           string        `json:"user"`
	InputMint      string        `json:"inputMint"`
	OutputMint     string        `json:"outputMint"`
	InAmount       string        `json:"inAmount"`
	OutAmount      string        `json:"outAmount"`
	InputDecimals  int           `json:"inputDecimals"`
	OutputDecimals int           `json:"outputDecimals"`
	InnerSwaps     []SwapSummary `json:"innerSwaps,omitempty"`
}

// SwapLeg is one token_swaps row: leg 0 the whole swap, the others the
// pool swaps of a route.
type SwapLeg struct {
	Protocol                      string
	ProgramID, User               solana.Pubkey
	InputMint, OutputMint         solana.Pubkey
	InAmount, OutAmount           uint64
	InputDecimals, OutputDecimals uint8
}

// flatIx is an instruction at its place in execution order, the order of
// Transaction.Instructions.
type flatIx struct {
	ix *solana.Instruction
	// height is the stack height: 1 at top level, 0 when not known.
	height uint32
	outer  int
	top    bool
}

func (c *context) flat() []flatIx {
	out := make([]flatIx, 0, len(c.tx.Instructions)+len(c.tx.Inner))
	j := 0
	for i := range c.tx.Instructions {
		out = append(out, flatIx{ix: &c.tx.Instructions[i], height: 1, outer: i, top: true})
		for ; j < len(c.tx.Inner) && c.tx.Inner[j].Outer <= i; j++ {
			if c.tx.Inner[j].Outer < i {
				continue
			}
			ii := &c.tx.Inner[j]
			out = append(out, flatIx{ix: &ii.Instruction, height: ii.StackHeight, outer: i})
		}
	}
	return out
}

// found is a swap instruction at position pos of the flat list.
type found struct {
	pos  int
	spec swapSpec
}

// leg is one pool swap as its instruction and transfers tell it.
type leg struct {
	found
	program         solana.Pubkey
	inKey, outKey   string // the user-side token accounts, "" if not named
	inMint, outMint string
	inDec, outDec   int
	in, out         uint64
}

// swaps recognises the swap of a successful transaction: every swap
// instruction, anywhere in the tree, of the programs dasch knows. Jupiter
// routes make the swap a Jupiter one whose legs are the pool swaps it
// invoked; without a router the first pool swap names the protocol. The
// amounts of the whole swap are the user's balance changes; the legs'
// are the token transfers each pool swap made.
func (c *context) swaps(p *Transaction) {
	if c.tx.Failed() || !c.invokesSwapProgram() {
		return
	}
	// A bug here must not fail the transaction: it loses the swap only.
	defer func() {
		if r := recover(); r != nil {
			p.Events.Swap, p.Swaps = nil, nil
		}
	}()
	fl := c.flat()
	if len(fl) != len(p.Instructions) {
		return
	}
	var all []found
	for i, f := range fl {
		if _, ok := swapProtocols[f.ix.ProgramID]; !ok {
			continue
		}
		s, err := decodeSwap(f.ix.ProgramID, f.ix.Data, len(f.ix.Accounts))
		if err != nil {
			continue
		}
		p.Instructions[i].InstructionName = s.name
		all = append(all, found{pos: i, spec: s})
	}
	if len(all) == 0 {
		return
	}
	var route *found
	var legs []leg
	for i := range all {
		if all[i].spec.route {
			if route == nil {
				route = &all[i]
			}
			continue
		}
		legs = append(legs, c.leg(fl, all[i]))
	}
	head := all[0]
	if route != nil {
		head = *route
		// Jupiter logs every step of its routes, through pools dasch
		// does not decode too: those are the legs when it did.
		if steps := c.jupiterLegs(fl); len(steps) > 0 {
			legs = steps
		}
	}
	headProgram := fl[head.pos].ix.ProgramID
	user := c.tx.FeePayer()
	if k, ok := c.accountKey(fl[head.pos].ix, head.spec.user); ok && c.signer(int(fl[head.pos].ix.Accounts[head.spec.user])) {
		user = k
	}
	whole, ok := c.wholeSwap(fl, user, legs)
	if !ok {
		return
	}
	proto := swapProtocols[headProgram]
	ev := &SwapEvent{TokenInputs: []SwapToken{}, TokenOutputs: []SwapToken{}, TokenFees: []SwapToken{}, NativeFees: []NativeAmount{}, InnerSwaps: []InnerSwap{}, proto: proto}
	l0, ok := toLeg(proto.source, headProgram, user, whole)
	if !ok {
		return
	}
	ev.legs = []SwapLeg{l0}
	ev.Summary = summaryOf(l0)
	userS := user.String()
	side := func(mint string, amount uint64, dec int, account string) (*NativeAmount, []SwapToken) {
		if mint == wsol {
			return &NativeAmount{Account: userS, Amount: fmt.Sprint(amount)}, []SwapToken{}
		}
		return nil, []SwapToken{{UserAccount: userS, TokenAccount: account, Mint: mint, RawTokenAmount: RawTokenAmount{TokenAmount: fmt.Sprint(amount), Decimals: dec}}}
	}
	ev.NativeInput, ev.TokenInputs = side(whole.inMint, whole.in, whole.inDec, whole.inKey)
	ev.NativeOutput, ev.TokenOutputs = side(whole.outMint, whole.out, whole.outDec, whole.outKey)
	if route != nil || len(legs) > 1 {
		for _, l := range legs {
			sl, ok := toLeg(legSource(l.program), l.program, user, l)
			if !ok {
				continue
			}
			ev.legs = append(ev.legs, sl)
			ev.Summary.InnerSwaps = append(ev.Summary.InnerSwaps, summaryOf(sl))
			ev.InnerSwaps = append(ev.InnerSwaps, InnerSwap{
				TokenInputs:  []SwapToken{{TokenAccount: l.inKey, Mint: l.inMint, RawTokenAmount: RawTokenAmount{TokenAmount: fmt.Sprint(l.in), Decimals: l.inDec}}},
				TokenOutputs: []SwapToken{{TokenAccount: l.outKey, Mint: l.outMint, RawTokenAmount: RawTokenAmount{TokenAmount: fmt.Sprint(l.out), Decimals: l.outDec}}},
				TokenFees:    []SwapToken{}, NativeFees: []NativeAmount{},
				ProgramInfo: ProgramInfo{Source: legSource(l.program), Account: l.program.String(), ProgramName: programs[l.program].name, InstructionName: l.spec.name},
			})
		}
	}
	p.Events.Swap = ev
	p.Swaps = ev.legs
}

// legSource is the Helius source of a leg's program: UNKNOWN for a pool
// dasch does not know, which a Jupiter route may go through.
func legSource(program solana.Pubkey) string {
	if p, ok := swapProtocols[program]; ok {
		return p.source
	}
	if p, ok := programs[program]; ok && p.source != "" {
		return p.source
	}
	return "UNKNOWN"
}

// jupiterLegs are the steps of the Jupiter routes of the transaction, from
// their SwapEvents, each with the name of the pool instruction it followed
// when dasch recognised one. Decimals come from the balances of any
// account of the mint; a step whose mint no balance names is left out.
func (c *context) jupiterLegs(fl []flatIx) []leg {
	dec := map[solana.Pubkey]int{wsolMint: 9}
	for _, m := range []map[int]tokenBalance{c.bal.preTok, c.bal.postTok} {
		for _, b := range m {
			if k, err := solana.ParsePubkey(b.mint); err == nil {
				dec[k] = b.decimals
			}
		}
	}
	var out []leg
	for i, f := range fl {
		if f.ix.ProgramID != jupiterID {
			continue
		}
		e, err := decodeJupiterSwapEvent(f.ix.Data)
		if err != nil {
			continue
		}
		inDec, ok1 := dec[e.inMint]
		outDec, ok2 := dec[e.outMint]
		if !ok1 || !ok2 {
			continue
		}
		l := leg{found: found{pos: i}, program: e.amm, inMint: e.inMint.String(), outMint: e.outMint.String(),
			inDec: inDec, outDec: outDec, in: e.in, out: e.out}
		for j := i - 1; j >= 0 && fl[j].outer == f.outer; j-- {
			if fl[j].ix.ProgramID == e.amm {
				if s, err := decodeSwap(e.amm, fl[j].ix.Data, len(fl[j].ix.Accounts)); err == nil {
					l.spec = s
					l.inKey, _, _ = c.mintOf(fl[j].ix, s.in)
					l.outKey, _, _ = c.mintOf(fl[j].ix, s.out)
				}
				break
			}
		}
		out = append(out, l)
	}
	return out
}

// invokesSwapProgram is the cheap test most transactions stop at.
func (c *context) invokesSwapProgram() bool {
	for i := range c.tx.Instructions {
		if _, ok := swapProtocols[c.tx.Instructions[i].ProgramID]; ok {
			return true
		}
	}
	for i := range c.tx.Inner {
		if _, ok := swapProtocols[c.tx.Inner[i].ProgramID]; ok {
			return true
		}
	}
	return false
}

func summaryOf(l SwapLeg) SwapSummary {
	return SwapSummary{
		Protocol: l.Protocol, ProgramID: l.ProgramID.String(), User: l.User.String(),
		InputMint: l.InputMint.String(), OutputMint: l.OutputMint.String(),
		InAmount: fmt.Sprint(l.InAmount), OutAmount: fmt.Sprint(l.OutAmount),
		InputDecimals: int(l.InputDecimals), OutputDecimals: int(l.OutputDecimals),
	}
}

// toLeg makes a row of a leg whose mints and amounts are all known.
func toLeg(source string, program, user solana.Pubkey, l leg) (SwapLeg, bool) {
	in, err1 := solana.ParsePubkey(l.inMint)
	out, err2 := solana.ParsePubkey(l.outMint)
	if err1 != nil || err2 != nil || l.in == 0 || l.out == 0 || l.inDec < 0 || l.inDec > 255 || l.outDec < 0 || l.outDec > 255 {
		return SwapLeg{}, false
	}
	return SwapLeg{Protocol: source, ProgramID: program, User: user, InputMint: in, OutputMint: out,
		InAmount: l.in, OutAmount: l.out, InputDecimals: uint8(l.inDec), OutputDecimals: uint8(l.outDec)}, true
}

// accountKey is the key an instruction names at position i.
func (c *context) accountKey(ix *solana.Instruction, i int) (solana.Pubkey, bool) {
	if i < 0 || i >= len(ix.Accounts) || int(ix.Accounts[i]) >= len(c.tx.AccountKeys) {
		return solana.Pubkey{}, false
	}
	return c.tx.AccountKeys[ix.Accounts[i]], true
}

// mintOf is the mint and decimals the balances give token account key k.
func (c *context) mintOf(ix *solana.Instruction, pos int) (key, mint string, dec int) {
	if pos < 0 || pos >= len(ix.Accounts) {
		return "", "", 0
	}
	k := int(ix.Accounts[pos])
	if k >= len(c.tx.AccountKeys) {
		return "", "", 0
	}
	key = c.tx.AccountKeys[k].String()
	if b, ok := c.bal.token(k); ok {
		return key, b.mint, b.decimals
	}
	return key, "", 0
}

// leg reads one pool swap: its mints from the balances of the user-side
// accounts it names (else from the transferChecked moving them), its amounts from the transfers it made from and to
// them (lamports from the user for a Pump.fun buy, the trade event for a
// Pump.fun sell).
func (c *context) leg(fl []flatIx, f found) leg {
	ix := fl[f.pos].ix
	l := leg{found: f, program: ix.ProgramID}
	l.inKey, l.inMint, l.inDec = c.mintOf(ix, f.spec.in)
	l.outKey, l.outMint, l.outDec = c.mintOf(ix, f.spec.out)
	userKey, hasUser := c.accountKey(ix, f.spec.user)
	inKey, hasIn := c.accountKey(ix, f.spec.in)
	outKey, hasOut := c.accountKey(ix, f.spec.out)
	if f.spec.nativeIn {
		l.inMint, l.inDec = wsol, 9
	}
	if f.spec.nativeOut {
		l.outMint, l.outDec = wsol, 9
	}
	for _, ch := range children(fl, f.pos) {
		cix := fl[ch].ix
		switch cix.ProgramID {
		case tokenID, token2022ID:
			o, err := safeDecode(decodeTokenFor(cix.ProgramID), cix.Data, len(cix.Accounts))
			if err != nil || o.token == nil || o.token.source < 0 || o.token.dest < 0 {
				continue
			}
			src, _ := c.accountKey(cix, o.token.source)
			dst, _ := c.accountKey(cix, o.token.dest)
			if !f.spec.nativeIn && hasIn && src == inKey {
				l.in += o.token.amount
				if l.inMint == "" {
					l.inMint, l.inDec = c.checkedMint(cix, o.token)
				}
			}
			if !f.spec.nativeOut && hasOut && dst == outKey {
				l.out += o.token.amount
				if l.outMint == "" {
					l.outMint, l.outDec = c.checkedMint(cix, o.token)
				}
			}
		case systemID:
			o, err := safeDecode(decodeSystem, cix.Data, len(cix.Accounts))
			if err != nil || o.native == nil || !f.spec.nativeIn {
				continue
			}
			if from, ok := c.accountKey(cix, o.native.from); ok && hasUser && from == userKey {
				l.in += o.native.lamports
			}
		case pumpFunID:
			t, err := decodePumpTradeEvent(cix.Data)
			if err != nil || !f.spec.nativeOut || t.buy {
				continue
			}
			if fees := t.fee + t.creatorFee; fees < t.sol {
				l.out = t.sol - fees
			}
		}
	}
	return l
}

// checkedMint is the mint and decimals a transferChecked names: the
// mint of an account the balances do not list (one opened and closed
// within the transaction, as wrapped SOL often is).
func (c *context) checkedMint(ix *solana.Instruction, m *tokenMove) (string, int) {
	k, ok := c.accountKey(ix, m.mint)
	if !ok || m.decimals < 0 {
		return "", 0
	}
	return k.String(), m.decimals
}

func decodeTokenFor(id solana.Pubkey) decodeFunc {
	if id == token2022ID {
		return decodeToken2022
	}
	return decodeToken
}

// children are the positions of the instructions pos invoked directly.
// A top-level instruction owns every inner instruction of its index; an
// inner one, those above its stack height up to the next at or below it,
// so none when the source gave no stack heights.
func children(fl []flatIx, pos int) []int {
	var out []int
	base := fl[pos]
	for j := pos + 1; j < len(fl) && !fl[j].top && fl[j].outer == base.outer; j++ {
		h := fl[j].height
		switch {
		case base.top && h == 0:
			out = append(out, j)
		case base.height == 0 || h == 0 || h <= base.height:
			return out
		case h == base.height+1:
			out = append(out, j)
		}
	}
	return out
}

// wholeSwap is the swap as the user saw it: what left the user and what
// reached it, by the balances. SOL counts the user's lamports and those
// of its token accounts (wrapped SOL, rent of accounts opened or closed),
// with the fee and the lamports it transferred to others at top level
// (tips, service fees) given back. The mints are those the route starts and ends with when
// the balances agree, else the only mint that fell and the only one that
// rose; an amount the balances do not show (the same mint in and out)
// is the legs'.
func (c *context) wholeSwap(fl []flatIx, user solana.Pubkey, legs []leg) (leg, bool) {
	delta, dec, order, acct := c.userDeltas(fl, user)
	var w leg
	var first, last *leg
	if len(legs) > 0 {
		first, last = &legs[0], &legs[len(legs)-1]
	}
	sign := func(m string) int {
		if d, ok := delta[m]; ok {
			return d.Sign()
		}
		return 0
	}
	pick := func(want int, pref string) string {
		if pref != "" && sign(pref) == want {
			return pref
		}
		var only string
		for _, m := range order {
			if sign(m) == want {
				if only != "" {
					return pref
				}
				only = m
			}
		}
		if only == "" {
			return pref
		}
		return only
	}
	var prefIn, prefOut string
	if first != nil {
		prefIn, prefOut = first.inMint, last.outMint
	}
	w.inMint, w.outMint = pick(-1, prefIn), pick(1, prefOut)
	if w.inMint == "" || w.outMint == "" {
		return leg{}, false
	}
	amount := func(m string, want int, fromLeg uint64, legDec int) (uint64, int, bool) {
		if m != w.inMint || m != w.outMint {
			if d := delta[m]; d != nil && d.Sign() == want {
				v := new(big.Int).Abs(d)
				if !v.IsUint64() {
					return 0, 0, false
				}
				return v.Uint64(), dec[m], true
			}
		}
		return fromLeg, legDec, fromLeg > 0
	}
	var ok1, ok2 bool
	var legIn, legOut uint64
	var legInDec, legOutDec int
	if first != nil && first.inMint == w.inMint {
		legIn, legInDec = first.in, first.inDec
	}
	if last != nil && last.outMint == w.outMint {
		legOut, legOutDec = last.out, last.outDec
	}
	w.in, w.inDec, ok1 = amount(w.inMint, -1, legIn, legInDec)
	w.out, w.outDec, ok2 = amount(w.outMint, 1, legOut, legOutDec)
	w.inKey, w.outKey = acct[w.inMint], acct[w.outMint]
	return w, ok1 && ok2
}

// userDeltas are the user's balance changes by mint (SOL as the wrapped
// SOL mint), the decimals of each mint, the mints in the order the
// balances first name them, and the user's token account of each mint
// whose balance changed the most.
func (c *context) userDeltas(fl []flatIx, userKey solana.Pubkey) (map[string]*big.Int, map[string]int, []string, map[string]string) {
	user := userKey.String()
	delta := map[string]*big.Int{}
	dec := map[string]int{wsol: 9}
	acct := map[string]string{}
	var order []string
	sol := wsol
	add := func(m string, v *big.Int) {
		d, ok := delta[m]
		if !ok {
			d = new(big.Int)
			delta[m] = d
			order = append(order, m)
		}
		d.Add(d, v)
	}
	own := map[int]bool{}
	if c.bal.pre != nil {
		for i, k := range c.tx.AccountKeys {
			if k == userKey {
				own[i] = true
				v := new(big.Int).SetUint64(c.bal.post[i])
				add(sol, v.Sub(v, new(big.Int).SetUint64(c.bal.pre[i])))
				if i == 0 {
					add(sol, new(big.Int).SetUint64(c.tx.Fee))
				}
			}
		}
	}
	best := map[string]*big.Int{}
	for _, i := range c.bal.tokenOrder {
		pre, hasPre := c.bal.preTok[i]
		post, hasPost := c.bal.postTok[i]
		ref := post
		if !hasPost {
			ref = pre
		}
		if (!hasPre || pre.owner != user) && (!hasPost || post.owner != user) {
			continue
		}
		own[i] = true
		if c.bal.pre != nil {
			v := new(big.Int).SetUint64(c.bal.post[i])
			add(sol, v.Sub(v, new(big.Int).SetUint64(c.bal.pre[i])))
		}
		if ref.mint == sol {
			continue
		}
		d := new(big.Int)
		if hasPost {
			d.Set(post.amount)
		}
		if hasPre {
			d.Sub(d, pre.amount)
		}
		add(ref.mint, d)
		dec[ref.mint] = ref.decimals
		if a := new(big.Int).Abs(d); best[ref.mint] == nil || a.Cmp(best[ref.mint]) > 0 {
			best[ref.mint] = a
			acct[ref.mint] = c.tx.AccountKeys[i].String()
		}
	}
	// Lamports the user sent to others at top level are no part of the
	// swap: tips and service fees.
	for _, f := range fl {
		if !f.top || f.ix.ProgramID != systemID {
			continue
		}
		o, err := safeDecode(decodeSystem, f.ix.Data, len(f.ix.Accounts))
		if err != nil || o.native == nil || o.native.from >= len(f.ix.Accounts) || o.native.to >= len(f.ix.Accounts) || o.native.from < 0 || o.native.to < 0 {
			continue
		}
		if o.name != "transfer" && o.name != "transferWithSeed" {
			continue
		}
		from, to := int(f.ix.Accounts[o.native.from]), int(f.ix.Accounts[o.native.to])
		// An account empty before and after held wrapped SOL for the
		// swap only.
		temporary := c.bal.pre != nil && c.bal.pre[to] == 0 && c.bal.post[to] == 0
		if c.tx.AccountKeys[from] == userKey && !own[to] && !temporary {
			add(sol, new(big.Int).SetUint64(o.native.lamports))
		}
	}
	return delta, dec, order, acct
}

// swapDescription is "A swapped 1.5 SOL for 64.67 M via Jupiter": SOL by
// name, other tokens by mint.
func swapDescription(ev *SwapEvent) string {
	s := ev.Summary
	name := func(m string) string {
		if m == wsol {
			return "SOL"
		}
		return m
	}
	return fmt.Sprintf("%s swapped %s %s for %s %s via %s", s.User,
		uiAmount(s.InAmount, s.InputDecimals), name(s.InputMint),
		uiAmount(s.OutAmount, s.OutputDecimals), name(s.OutputMint), ev.proto.label)
}
