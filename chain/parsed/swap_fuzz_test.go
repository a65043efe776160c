package parsed

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/dasch-labs/dasch/chain/solana"
)

// FuzzSwapDecoders runs the swap decoder of every swap program on
// arbitrary data: none may panic, and a recognised swap names only
// accounts the instruction has.
func FuzzSwapDecoders(f *testing.F) {
	for _, s := range [][]byte{nil, {9}, append([]byte{9}, u64s(1, 2)...), append([]byte{16}, u64s(1, 2)...),
		anchorData(discRoute), anchorData(discSwap, append(u64s(1, 1, 0, 0), 1, 1)...), anchorData(discTwoHopSwap, append(u64s(1, 1), 1, 0, 1)...),
		anchorData(discBuy, u64s(1, 2)...), anchorData(discSell, u64s(1, 2)...), anchorData(discSwapBaseInput, u64s(1, 2)...)} {
		f.Add(s, uint8(18))
	}
	ids := make([]solana.Pubkey, 0, len(swapProtocols))
	for id := range swapProtocols {
		ids = append(ids, id)
	}
	f.Fuzz(func(t *testing.T, data []byte, n uint8) {
		for _, id := range ids {
			s, err := decodeSwap(id, data, int(n))
			if err != nil {
				continue
			}
			if s.name == "" || max(s.user, s.in, s.out) >= int(n) || min(s.user, s.in, s.out) < -1 {
				t.Fatalf("%s: %+v with %d accounts", id, s, n)
			}
		}
	})
}

// FuzzSwapEvents reads arbitrary self-invocation data as a Pump.fun
// trade event and as a Jupiter swap event: no panic, and an event is read
// only from data long enough to hold it.
func FuzzSwapEvents(f *testing.F) {
	f.Add(pumpEvent(200, true, 0, 0, false))
	f.Add(pumpEvent(200, false, 3, 2, true))
	f.Add(anchorData(anchorEventTag, discPumpTradeEvent[:]...))
	f.Add(append(anchorData(anchorEventTag, discJupiterSwapEvent[:]...), make([]byte, 112)...))
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, err := decodePumpTradeEvent(data); err == nil && len(data) < pumpTradeEventMinData {
			t.Fatalf("read a trade event from %d bytes", len(data))
		}
		if _, err := decodeJupiterSwapEvent(data); err == nil && len(data) != jupiterSwapEventData {
			t.Fatalf("read a swap event from %d bytes", len(data))
		}
	})
}

// FuzzParseSwaps parses arbitrary transaction JSON, seeded with the real
// swaps: no panic, and every leg it files is a whole one. The seeds are
// whole transactions, which the fuzzer spends its time minimizing: run
// it with -fuzzminimizetime 0.
func FuzzParseSwaps(f *testing.F) {
	files, _ := filepath.Glob("testdata/swaps/*.json")
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		tx, err := solana.ParseTx(raw)
		if err != nil || len(tx.Signatures) == 0 {
			return
		}
		p := Parse(tx)
		if (p.Events.Swap != nil) != (len(p.Swaps) > 0) || (p.Type == TypeSwap) != (p.Events.Swap != nil) {
			t.Fatalf("swap event, legs and type disagree: %q %d", p.Type, len(p.Swaps))
		}
		for i, l := range p.Swaps {
			if l.InAmount == 0 || l.OutAmount == 0 || l.Protocol == "" {
				t.Fatalf("leg %d %+v", i, l)
			}
		}
	})
}
