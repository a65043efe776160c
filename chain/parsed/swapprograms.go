package parsed

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/chain/token"
)

// Program ids of the swap programs dasch recognises.
var (
	jupiterID     = solana.MustParsePubkey("JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4")
	raydiumAMMID  = solana.MustParsePubkey("675kPX9MHTjS2zt1qfr1NYHuzeLXfQM9H24wFSUt1Mp8")
	raydiumCPMMID = solana.MustParsePubkey("CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C")
	raydiumCLMMID = solana.MustParsePubkey("CAMMCzo5YL8w4VFF8KVHrK22GGUsp5VTaW7grrKgrWqK")
	whirlpoolID   = solana.MustParsePubkey("whirLbMiicVdio4qvUfM5KAg6Ct8VwpYzGff3uctyCc")
	meteoraDLMMID = solana.MustParsePubkey("LBUZKhRxPF3XUpBCjp4YzTKgLccjZhTSDM9YuVaPwxo")
	meteoraAMMID  = solana.MustParsePubkey("Eo7WjKq67rjJQSZxS6z3YkapzY3eMj6Xy8X5EQVn5UaB")
	pumpFunID     = solana.MustParsePubkey("6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P")
	pumpAMMID     = solana.MustParsePubkey("pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA")

	wsolMint = token.NativeMint()
	// wsol is its text, as the balances and the answer name mints.
	wsol = wsolMint.String()
)

// Program names and Helius sources of the swap programs; they have no
// instruction decoder in the walk, the swap recogniser reads them.
func init() {
	for id, p := range map[solana.Pubkey]program{
		raydiumAMMID:  {name: "Raydium Liquidity Pool V4", source: "RAYDIUM"},
		raydiumCPMMID: {name: "Raydium CPMM", source: "RAYDIUM"},
		raydiumCLMMID: {name: "Raydium Concentrated Liquidity", source: "RAYDIUM"},
		whirlpoolID:   {name: "Orca Whirlpool", source: "ORCA"},
		meteoraDLMMID: {name: "Meteora DLMM", source: "METEORA"},
		meteoraAMMID:  {name: "Meteora Pools", source: "METEORA"},
		pumpFunID:     {name: "Pump.fun", source: "PUMP_FUN"},
		pumpAMMID:     {name: "Pump.fun AMM", source: "PUMP_AMM"},
	} {
		programs[id] = p
	}
}

// swapProtocol is how a swap program is named: its Helius source and the
// name a description gives it.
type swapProtocol struct {
	source, label string
}

var swapProtocols = map[solana.Pubkey]swapProtocol{
	jupiterID:     {"JUPITER", "Jupiter"},
	raydiumAMMID:  {"RAYDIUM", "Raydium"},
	raydiumCPMMID: {"RAYDIUM", "Raydium"},
	raydiumCLMMID: {"RAYDIUM", "Raydium"},
	whirlpoolID:   {"ORCA", "Orca"},
	meteoraDLMMID: {"METEORA", "Meteora"},
	meteoraAMMID:  {"METEORA", "Meteora"},
	pumpFunID:     {"PUMP_FUN", "Pump.fun"},
	pumpAMMID:     {"PUMP_AMM", "PumpSwap"},
}

// swapSpec is what a swap instruction says of its swap: the positions
// among its accounts of the user and of the user-side token accounts the
// input leaves and the output reaches (-1 when it does not name one), and
// whether a side moves lamports rather than tokens.
type swapSpec struct {
	name                string
	user, in, out       int
	nativeIn, nativeOut bool
	// route is an aggregator instruction: its swaps are the inner ones.
	route bool
}

// anchorDisc is the Anchor discriminator of a global instruction.
type anchorDisc [8]byte

// Anchor discriminators (sha256 of "global:<name>", first eight bytes),
// as the programs' IDLs list them.
var (
	discRoute                  = anchorDisc{229, 23, 203, 151, 122, 227, 173, 42}
	discSharedRoute            = anchorDisc{193, 32, 155, 51, 65, 214, 156, 129}
	discExactOutRoute          = anchorDisc{208, 51, 239, 151, 123, 43, 237, 92}
	discSharedExactOutRoute    = anchorDisc{176, 209, 105, 168, 154, 125, 69, 62}
	discRouteLedger            = anchorDisc{150, 86, 71, 116, 167, 93, 14, 104}
	discSharedRouteLedger      = anchorDisc{230, 121, 143, 80, 119, 159, 106, 170}
	discRouteV2                = anchorDisc{187, 100, 250, 204, 49, 196, 175, 20}
	discSharedRouteV2          = anchorDisc{209, 152, 83, 147, 124, 254, 216, 233}
	discExactOutRouteV2        = anchorDisc{157, 138, 184, 82, 21, 244, 243, 36}
	discSharedExactOutRouteV2  = anchorDisc{53, 96, 229, 202, 216, 187, 250, 24}
	discSwapBaseInput          = anchorDisc{143, 190, 90, 218, 196, 30, 51, 222}
	discSwapBaseOutput         = anchorDisc{55, 217, 98, 86, 163, 74, 180, 173}
	discSwap                   = anchorDisc{248, 198, 158, 145, 225, 117, 135, 200}
	discSwapV2                 = anchorDisc{43, 4, 237, 11, 26, 201, 30, 98}
	discSwapRouterBaseIn       = anchorDisc{69, 125, 115, 218, 245, 186, 242, 196}
	discTwoHopSwap             = anchorDisc{195, 96, 237, 108, 68, 162, 219, 230}
	discTwoHopSwapV2           = anchorDisc{186, 143, 209, 29, 254, 2, 194, 117}
	discSwapExactOut           = anchorDisc{250, 73, 101, 33, 38, 207, 75, 184}
	discSwapWithPriceImpact    = anchorDisc{56, 173, 230, 208, 173, 228, 156, 205}
	discSwap2                  = anchorDisc{65, 75, 63, 76, 235, 91, 91, 136}
	discSwapExactOut2          = anchorDisc{43, 215, 247, 132, 137, 60, 243, 81}
	discSwapWithPriceImpact2   = anchorDisc{74, 98, 192, 214, 177, 51, 75, 51}
	discBuy                    = anchorDisc{102, 6, 61, 18, 1, 218, 235, 234}
	discSell                   = anchorDisc{51, 230, 133, 164, 1, 127, 131, 173}
	discBuyExactSolIn          = anchorDisc{56, 252, 116, 8, 158, 223, 205, 95}
	discBuyExactQuoteIn        = anchorDisc{198, 46, 21, 82, 180, 217, 232, 112}
	anchorEventTag             = anchorDisc{228, 69, 165, 46, 81, 203, 154, 29}
	discPumpTradeEvent         = anchorDisc{189, 219, 127, 211, 78, 230, 97, 238}
	discJupiterSwapEvent       = anchorDisc{64, 198, 205, 232, 38, 8, 113, 226}
	errNotSwap                 = fmt.Errorf("not a swap instruction")
	errSwapAccounts            = fmt.Errorf("swap instruction names too few accounts")
	swapSpecs                  = map[solana.Pubkey]map[anchorDisc]swapSpec{}
	jupiterLegacyLayout        = swapSpec{user: 1, in: 2, out: 3, route: true}
	jupiterSharedLayout        = swapSpec{user: 2, in: 3, out: 6, route: true}
	jupiterUnknownLayout       = swapSpec{user: -1, in: -1, out: -1, route: true}
	dlmmLayout                 = swapSpec{user: 10, in: 4, out: 5}
	raydiumConcentratedLayout  = swapSpec{user: 0, in: 3, out: 4}
	pumpAMMBuyLayout           = swapSpec{user: 1, in: 6, out: 5}
	pumpFunBuyLayout           = swapSpec{user: 6, in: -1, out: 5, nativeIn: true}
	errPumpTradeEventTruncated = fmt.Errorf("pump trade event truncated")
)

// Shortest data of each swap layout: the discriminator and the
// arguments dasch reads.
const (
	whirlpoolSwapMinData      = 8 + 8 + 8 + 16 + 1 + 1
	whirlpoolTwoHopMinData    = 8 + 8 + 8 + 1 + 1 + 1
	anchorSwapMinData         = 8 + 8 + 8
	raydiumAMMSwapData        = 1 + 8 + 8
	pumpTradeEventMinData     = 8 + 8 + 32 + 8 + 8 + 1 + 32
	pumpTradeEventFeesMinData = pumpTradeEventMinData + 8 + 4*8 + 32 + 8 + 8 + 32 + 8 + 8
	jupiterSwapEventData      = 8 + 8 + 32 + 32 + 8 + 32 + 8
)

func init() {
	with := func(s swapSpec, name string) swapSpec { s.name = name; return s }
	swapSpecs[jupiterID] = map[anchorDisc]swapSpec{
		discRoute:                 with(jupiterLegacyLayout, "route"),
		discExactOutRoute:         with(jupiterLegacyLayout, "exactOutRoute"),
		discRouteLedger:           with(jupiterLegacyLayout, "routeWithTokenLedger"),
		discSharedRoute:           with(jupiterSharedLayout, "sharedAccountsRoute"),
		discSharedExactOutRoute:   with(jupiterSharedLayout, "sharedAccountsExactOutRoute"),
		discSharedRouteLedger:     with(jupiterSharedLayout, "sharedAccountsRouteWithTokenLedger"),
		discRouteV2:               with(jupiterUnknownLayout, "routeV2"),
		discSharedRouteV2:         with(jupiterUnknownLayout, "sharedAccountsRouteV2"),
		discExactOutRouteV2:       with(jupiterUnknownLayout, "exactOutRouteV2"),
		discSharedExactOutRouteV2: with(jupiterUnknownLayout, "sharedAccountsExactOutRouteV2"),
	}
	swapSpecs[raydiumCPMMID] = map[anchorDisc]swapSpec{
		discSwapBaseInput:  {name: "swapBaseInput", user: 0, in: 4, out: 5},
		discSwapBaseOutput: {name: "swapBaseOutput", user: 0, in: 4, out: 5},
	}
	swapSpecs[raydiumCLMMID] = map[anchorDisc]swapSpec{
		discSwap:   with(raydiumConcentratedLayout, "swap"),
		discSwapV2: with(raydiumConcentratedLayout, "swapV2"),
		// The router names the first pool's input only; the rest of the
		// route is in its remaining accounts.
		discSwapRouterBaseIn: {name: "swapRouterBaseIn", user: 0, in: 1, out: -1},
	}
	swapSpecs[meteoraDLMMID] = map[anchorDisc]swapSpec{
		discSwap:                 with(dlmmLayout, "swap"),
		discSwapExactOut:         with(dlmmLayout, "swapExactOut"),
		discSwapWithPriceImpact:  with(dlmmLayout, "swapWithPriceImpact"),
		discSwap2:                with(dlmmLayout, "swap2"),
		discSwapExactOut2:        with(dlmmLayout, "swapExactOut2"),
		discSwapWithPriceImpact2: with(dlmmLayout, "swapWithPriceImpact2"),
	}
	swapSpecs[meteoraAMMID] = map[anchorDisc]swapSpec{
		discSwap: {name: "swap", user: 12, in: 1, out: 2},
	}
	swapSpecs[pumpFunID] = map[anchorDisc]swapSpec{
		discBuy:           with(pumpFunBuyLayout, "buy"),
		discBuyExactSolIn: with(pumpFunBuyLayout, "buyExactSolIn"),
		discSell:          {name: "sell", user: 6, in: 5, out: -1, nativeOut: true},
	}
	swapSpecs[pumpAMMID] = map[anchorDisc]swapSpec{
		discBuy:             with(pumpAMMBuyLayout, "buy"),
		discBuyExactQuoteIn: with(pumpAMMBuyLayout, "buyExactQuoteIn"),
		discSell:            {name: "sell", user: 1, in: 5, out: 6},
	}
}

// decodeSwap reads a swap program instruction: which swap it is and where
// its user and token accounts are. errNotSwap for the program's other
// instructions. Every position it returns is below n.
func decodeSwap(program solana.Pubkey, data []byte, n int) (swapSpec, error) {
	var s swapSpec
	var err error
	switch program {
	case raydiumAMMID:
		s, err = decodeRaydiumAMM(data, n)
	case whirlpoolID:
		s, err = decodeWhirlpool(data)
	default:
		specs, ok := swapSpecs[program]
		if !ok || len(data) < 8 {
			return swapSpec{}, errNotSwap
		}
		s, ok = specs[anchorDisc(data[:8])]
		if !ok {
			return swapSpec{}, errNotSwap
		}
		if !s.route && len(data) < anchorSwapMinData {
			return swapSpec{}, errShort
		}
	}
	if err != nil {
		return swapSpec{}, err
	}
	if max(s.user, s.in, s.out) >= n {
		return swapSpec{}, errSwapAccounts
	}
	return s, nil
}

// decodeRaydiumAMM reads the AMM v4 swaps: a u8 tag and two u64 amounts.
// The original swaps name the user accounts last (17 or 18 accounts, the
// target orders account being optional); the V2 ones name eight.
func decodeRaydiumAMM(data []byte, n int) (swapSpec, error) {
	if len(data) == 0 {
		return swapSpec{}, errNotSwap
	}
	var s swapSpec
	switch data[0] {
	case 9, 11:
		s = swapSpec{name: "swapBaseIn", user: n - 1, in: n - 3, out: n - 2}
		if data[0] == 11 {
			s.name = "swapBaseOut"
		}
		if n < 17 {
			return swapSpec{}, errSwapAccounts
		}
	case 16, 17:
		s = swapSpec{name: "swapBaseInV2", user: 7, in: 5, out: 6}
		if data[0] == 17 {
			s.name = "swapBaseOutV2"
		}
	default:
		return swapSpec{}, errNotSwap
	}
	if len(data) < raydiumAMMSwapData {
		return swapSpec{}, errShort
	}
	return s, nil
}

// decodeWhirlpool reads the Whirlpool swaps, whose direction is an
// argument: a_to_b sends token A from the owner account of A.
func decodeWhirlpool(data []byte) (swapSpec, error) {
	if len(data) < 8 {
		return swapSpec{}, errNotSwap
	}
	switch anchorDisc(data[:8]) {
	case discSwap, discSwapV2:
		if len(data) < whirlpoolSwapMinData {
			return swapSpec{}, errShort
		}
		aToB := data[8+8+8+16+1] != 0
		// swap: token program, authority, pool, owner A, vault A, owner B;
		// swap_v2 adds two token programs, the memo program and the mints.
		s := swapSpec{name: "swap", user: 1, in: 3, out: 5}
		if anchorDisc(data[:8]) == discSwapV2 {
			s = swapSpec{name: "swapV2", user: 3, in: 7, out: 9}
		}
		if !aToB {
			s.in, s.out = s.out, s.in
		}
		return s, nil
	case discTwoHopSwap:
		if len(data) < whirlpoolTwoHopMinData {
			return swapSpec{}, errShort
		}
		s := swapSpec{name: "twoHopSwap", user: 1, in: 6, out: 8}
		if data[8+8+8+1] != 0 { // a_to_b_one
			s.in = 4
		}
		if data[8+8+8+2] != 0 { // a_to_b_two
			s.out = 10
		}
		return s, nil
	case discTwoHopSwapV2:
		if len(data) < whirlpoolTwoHopMinData {
			return swapSpec{}, errShort
		}
		return swapSpec{name: "twoHopSwapV2", user: 14, in: 8, out: 13}, nil
	}
	return swapSpec{}, errNotSwap
}

// pumpTrade is what a Pump.fun TradeEvent says of a trade: the lamports
// it moved, and the fees taken from them.
type pumpTrade struct {
	sol, fee, creatorFee uint64
	buy                  bool
}

// decodePumpTradeEvent reads the TradeEvent Pump.fun logs by invoking
// itself: the Anchor event tag, the event discriminator, then mint,
// sol_amount, token_amount, is_buy, user, timestamp, the four reserves,
// fee_recipient, fee_basis_points, fee, creator, creator_fee_basis_points
// and creator_fee. Older events end after the reserves and carry no fees.
func decodePumpTradeEvent(data []byte) (pumpTrade, error) {
	if len(data) < 16 || !bytes.Equal(data[:8], anchorEventTag[:]) || !bytes.Equal(data[8:16], discPumpTradeEvent[:]) {
		return pumpTrade{}, errNotSwap
	}
	if len(data) < pumpTradeEventMinData {
		return pumpTrade{}, errPumpTradeEventTruncated
	}
	b := data[16:]
	t := pumpTrade{sol: binary.LittleEndian.Uint64(b[32:]), buy: b[48] != 0}
	if len(data) >= pumpTradeEventFeesMinData {
		fees := b[32+8+8+1+32+8+4*8+32:]
		t.fee = binary.LittleEndian.Uint64(fees[8:])
		t.creatorFee = binary.LittleEndian.Uint64(fees[16+32+8:])
	}
	return t, nil
}

// jupiterSwap is one step of a Jupiter route as the SwapEvent Jupiter
// logs by invoking itself tells it: the pool program, and what went in
// and came out.
type jupiterSwap struct {
	amm, inMint, outMint solana.Pubkey
	in, out              uint64
}

// decodeJupiterSwapEvent reads a SwapEvent: the Anchor event tag, the
// event discriminator, then amm, input_mint, input_amount, output_mint
// and output_amount.
func decodeJupiterSwapEvent(data []byte) (jupiterSwap, error) {
	if len(data) < 16 || !bytes.Equal(data[:8], anchorEventTag[:]) || !bytes.Equal(data[8:16], discJupiterSwapEvent[:]) {
		return jupiterSwap{}, errNotSwap
	}
	if len(data) != jupiterSwapEventData {
		return jupiterSwap{}, fmt.Errorf("jupiter swap event of %d bytes, want %d", len(data), jupiterSwapEventData)
	}
	b := data[16:]
	return jupiterSwap{amm: solana.Pubkey(b[:32]), inMint: solana.Pubkey(b[32:64]), in: binary.LittleEndian.Uint64(b[64:]),
		outMint: solana.Pubkey(b[72:104]), out: binary.LittleEndian.Uint64(b[104:])}, nil
}

// SwapPrograms are the swap programs whose transactions the recogniser
// reads, in key order: what a filtered source asks for to see every swap.
func SwapPrograms() []solana.Pubkey {
	out := make([]solana.Pubkey, 0, len(swapProtocols))
	for id := range swapProtocols {
		out = append(out, id)
	}
	slices.SortFunc(out, func(a, b solana.Pubkey) int { return bytes.Compare(a[:], b[:]) })
	return out
}
