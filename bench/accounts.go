// Package bench measures dasch against references taken in the same run.
package bench

import (
	"context"
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"strconv"

	"github.com/mr-tron/base58"

	"github.com/dasch-labs/dasch/ingest/source"
)

// TokenProgram owns the synthetic accounts, as SPL token accounts would be.
const TokenProgram = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"

// SyntheticAccounts returns n account JSON documents in the ingest format:
// 165-byte token-account-shaped data, 1000 writes per slot, deterministic
// for a seed.
func SyntheticAccounts(n int, seed uint64) [][]byte {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	out := make([][]byte, n)
	var key [32]byte
	data := make([]byte, 165)
	for i := range out {
		for j := 0; j < 32; j += 8 {
			v := r.Uint64()
			for k := 0; k < 8; k++ {
				key[j+k] = byte(v >> (8 * k))
			}
		}
		for j := range data {
			data[j] = byte(r.Uint32())
		}
		out[i] = []byte(`{"pubkey":"` + base58.Encode(key[:]) +
			`","owner":"` + TokenProgram +
			`","lamports":` + strconv.FormatUint(2039280+uint64(r.IntN(1000)), 10) +
			`,"executable":false,"rent_epoch":"18446744073709551615","data":"` + base64.StdEncoding.EncodeToString(data) +
			`","slot":` + strconv.Itoa(1_000_000+i/1000) + `,"write_version":` + strconv.Itoa(i) + `}`)
	}
	return out
}

// memSource hands pre-generated account documents to the pipeline, so the
// measurement covers decoding, batching and inserting, not disk reads.
type memSource struct {
	docs [][]byte
}

func (m memSource) Spec() string { return fmt.Sprintf("memory:%d-accounts", len(m.docs)) }

func (m memSource) Read(ctx context.Context, emit func(source.Item) error) error {
	for i, d := range m.docs {
		if i%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if err := emit(source.Item{Seq: uint64(i), Kind: source.KindAccount, Slot: uint64(1_000_000 + i/1000), Key: "mem#" + strconv.Itoa(i), Raw: d}); err != nil {
			return err
		}
	}
	return nil
}
