package compressed

import (
	"fmt"
	"testing"
)

// offeredChunk is a chunk of 500k token outputs over 200k owners and
// 2,000 mints, with random account hashes, as the offered records hold.
func offeredChunk() []offeredRecord {
	outs := make([]offeredOutput, 0, 500_000)
	for i := range 500_000 {
		outs = append(outs, offeredOutput{string(benchKey(i)), fmt.Sprintf("own%d", i%200_000), fmt.Sprintf("m%d", i%2000), 5, 7})
	}
	r, _ := offeredColumns(offeredRecordOf(outs))
	return []offeredRecord{r}
}

// benchKey is a uniform 32-byte key derived from i.
func benchKey(i int) []byte {
	var k [32]byte
	k[0], k[1], k[2], k[3] = byte(i), byte(i>>8), byte(i>>16), byte(i>>24)
	a := pairDigest(k[:], k[:])
	b := pairDigest(k[:], append(a[:], a[:]...))
	return append(a[:], b[:]...)
}

// BenchmarkSumOffered sums a chunk's outputs per pair (stepOffered's
// deltas).
func BenchmarkSumOffered(b *testing.B) {
	recs := offeredChunk()
	b.ResetTimer()
	for range b.N {
		if sums := sumOffered(recs, 0, 10, 500_000); len(sums) != 200_000 {
			b.Fatalf("%d pairs", len(sums))
		}
	}
}

// BenchmarkChangesOf finds a chunk's pairs in a copy of 4M balances and
// builds the step's holder and balance records.
func BenchmarkChangesOf(b *testing.B) {
	recs := offeredChunk()
	sums := sumOffered(recs, 0, 10, 500_000)
	c := balanceCache{limit: 1 << 30, m: newPairTable(4_000_000)}
	for i := range 4_000_000 {
		k := pairKey(benchKey(i + 1<<30)[:16])
		c.m.Put(&k, 5)
	}
	b.ResetTimer()
	for range b.N {
		w := c.changesOf(sums, recs, 9)
		w.release()
	}
}
