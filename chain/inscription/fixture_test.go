package inscription

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/internal/fixture"
)

// repoCorpus is the repository's copy of the DAS corpus accounts.
const repoCorpus = "../../testdata/das/accounts"

func repoAccount(t *testing.T, dir, pubkey string) *solana.Account {
	t.Helper()
	return fixture.Account(t, repoCorpus, dir, pubkey)
}

func pk(t testing.TB, s string) solana.Pubkey { return fixture.Pubkey(t, s) }

// le builds little-endian test payloads field by field.
type le struct{ bytes.Buffer }

func (b *le) key(fill byte) *le { b.Write(bytes.Repeat([]byte{fill}, 32)); return b }
func (b *le) raw(p ...byte) *le { b.Write(p); return b }
func (b *le) u32(v uint32) *le  { _ = binary.Write(b, binary.LittleEndian, v); return b }
func (b *le) u64(v uint64) *le  { _ = binary.Write(b, binary.LittleEndian, v); return b }
