package assetstate

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dasch-labs/dasch/chain/metadata"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/chain/token"
	"github.com/dasch-labs/dasch/ingest/decode"
)

// The narrowed reads lose nothing: every corpus account the decoder keeps
// matches a read of its owner, and what they leave out it skips.
func TestAccountReadsCoverWhatIsKept(t *testing.T) {
	reads := decode.Reads(Decoder{})
	matches := func(acc *solana.Account) bool {
		for _, r := range reads {
			if r.Owner == acc.Owner && r.Match(acc.Data) {
				return true
			}
		}
		return false
	}
	kept := 0
	err := filepath.WalkDir(corpus, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") ||
			!strings.Contains(p, "accounts"+string(filepath.Separator)) || strings.Contains(p, "largest_token") {
			return err
		}
		acc := load(t, strings.TrimPrefix(p, corpus+string(filepath.Separator)))
		row, err := classify(acc)
		if err != nil || row == nil {
			return nil
		}
		kept++
		if !matches(acc) {
			t.Errorf("%s (%s, %d bytes) is kept but no read lists it", p, row.Kind, len(acc.Data))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if kept < 100 {
		t.Fatalf("only %d corpus accounts kept", kept)
	}
	for _, tc := range []struct {
		name  string
		owner solana.Pubkey
		data  []byte
	}{
		{"token multisig", token.TokenProgram(), make([]byte, 355)},
		{"edition marker", metadata.TokenMetadataProgram(), []byte{7, 0, 0}},
		{"token record", metadata.TokenMetadataProgram(), []byte{14, 0, 0}},
	} {
		acc := &solana.Account{Owner: tc.owner, Lamports: 1, Data: tc.data}
		if row, _ := classify(acc); row != nil || matches(acc) {
			t.Errorf("%s: kept %v, read %v; want neither", tc.name, row != nil, matches(acc))
		}
	}
	// Owners without a narrowed read are read whole.
	whole := 0
	for _, r := range reads {
		if len(r.Filters) == 0 {
			whole++
		}
	}
	if whole != len(Decoder{}.Interest().AccountOwners)-3 {
		t.Errorf("%d owners read whole, want every owner but SPL Token, Token Metadata and inscriptions", whole)
	}
}
