package assetrows_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/dasch-labs/dasch/asset"
	"github.com/dasch-labs/dasch/chain/core"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest"
	"github.com/dasch-labs/dasch/ingest/assetstate"
	"github.com/dasch-labs/dasch/ingest/decode"
	"github.com/dasch-labs/dasch/ingest/source"
	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/query/assetrows"
)

// TestAgentToken files an mpl-agent identity record under its Core asset
// and serves its agent token on the asset; a record of another asset, or
// none, leaves agent_token out.
func TestAgentToken(t *testing.T) {
	const coreFile = "accounts/mpl_core_get_asset/x3hJtpU4AUsGejNvxzX9TKjcyNB1eYtDdDPWdeF6opr.json"
	id := account(t, coreFile).Pubkey
	var token solana.Pubkey
	for i := range token {
		token[i] = byte(i + 1)
	}
	// An identity record V2: key 2, bump, 6 bytes padding, asset, agent
	// token, 32 reserved bytes (mpl-agent state/agent_identity_v2.rs).
	rec := make([]byte, 104)
	rec[0], rec[1] = 2, 255
	copy(rec[8:40], id[:])
	copy(rec[40:72], token[:])
	pda := core.AgentIdentityPDA(id)
	dir := t.TempDir()
	raw, err := json.Marshal(map[string]any{
		"pubkey": pda.String(), "owner": core.AgentIdentityProgram().String(), "lamports": 1,
		"data": base64.StdEncoding.EncodeToString(rec), "slot": 288355444, "write_version": 0,
	})
	if err != nil {
		t.Fatal(err)
	}
	recFile := filepath.Join(dir, "identity.json")
	if err := os.WriteFile(recFile, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	s := storetest.Open(t)
	index(t, s, coreFile)
	cfg := ingest.Config{Store: s, Source: source.NewFileList([]string{recFile}), Decoders: []decode.Decoder{assetstate.Decoder{}}}
	if _, err := ingest.Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	res, err := asset.Render([]solana.Pubkey{id}, assetrows.Loader(context.Background(), s, nil), asset.Options{})
	if err != nil || res[0].Err != nil {
		t.Fatalf("%v %v", err, res[0].Err)
	}
	if got := res[0].Asset.AgentToken; got == nil || *got != token.String() {
		t.Errorf("agent_token %v, want %s", got, token)
	}
}
