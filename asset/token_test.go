package asset

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/chain/inscription"
	"github.com/dasch-labs/dasch/chain/metadata"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/chain/token"
)

// corpusRoot is the repository's copy of the DAS conformance corpus.
const corpusRoot = "../testdata/das"

// tokenCase is the part of a corpus case these tests read.
type tokenCase struct {
	Name    string `json:"name"`
	Request struct {
		Method string `json:"method"`
		Params struct {
			ID             string   `json:"id"`
			IDs            []string `json:"ids"`
			Options        *Options `json:"options"`
			DisplayOptions *Options `json:"displayOptions"`
		} `json:"params"`
	} `json:"request"`
	Seed struct {
		Apply []struct {
			Account string `json:"account"`
		} `json:"apply"`
	} `json:"seed"`
	ExpectedResult json.RawMessage `json:"expected_result"`
	ExpectedError  json.RawMessage `json:"expected_error"`
}

func loadTokenCase(t *testing.T, name string) *tokenCase {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(corpusRoot, "cases", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var c tokenCase
	if err := json.Unmarshal(raw, &c); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return &c
}

// accountStore keeps the newest state of each seeded account: an update
// with an older slot than the stored one is ignored, as at ingest.
type accountStore map[solana.Pubkey]*solana.Account

func (s accountStore) apply(a *solana.Account) {
	if old, ok := s[a.Pubkey]; ok && a.Slot < old.Slot {
		return
	}
	s[a.Pubkey] = a
}

func seedAccounts(t *testing.T, c *tokenCase) accountStore {
	t.Helper()
	s := accountStore{}
	for _, e := range c.Seed.Apply {
		if e.Account == "" {
			t.Fatalf("%s: transaction seeds are not token cases", c.Name)
		}
		raw, err := os.ReadFile(filepath.Join(corpusRoot, e.Account))
		if err != nil {
			t.Fatal(err)
		}
		a, err := solana.ParseAccount(raw)
		if err != nil {
			t.Fatalf("%s: %v", e.Account, err)
		}
		s.apply(a)
	}
	return s
}

// sources gathers what the store reader gathers for one mint: the mint,
// its metadata and edition PDAs, the token account (newest with a positive
// amount, else newest) and the inscription rooted at the mint.
func (s accountStore) sources(t *testing.T, mint solana.Pubkey) *TokenSources {
	t.Helper()
	src := &TokenSources{ID: mint}
	if a, ok := s[mint]; ok {
		m, err := token.DecodeMint(a.Owner, a.Data)
		if err != nil {
			t.Fatalf("mint %s: %v", mint, err)
		}
		src.Mint, src.MintProgram, src.MintSlot = m, a.Owner, a.Slot
	}
	if a, ok := s[metadata.MetadataPDA(mint)]; ok {
		m, err := metadata.DecodeMetadata(a.Owner, a.Data)
		if err != nil {
			t.Fatalf("metadata of %s: %v", mint, err)
		}
		src.Metadata, src.MetadataSlot = m, a.Slot
	}
	if a, ok := s[metadata.EditionPDA(mint)]; ok {
		if e, err := metadata.DecodeMasterEdition(a.Owner, a.Data); err == nil {
			src.MasterEdition = e
		} else if e, err := metadata.DecodeEdition(a.Owner, a.Data); err == nil {
			src.Edition = e
		}
	}
	var best, newest *solana.Account
	var bestTA, newestTA *token.TokenAccount
	for _, a := range s {
		if a.Owner != token.TokenProgram() && a.Owner != token.Token2022Program() {
			continue
		}
		ta, err := token.DecodeTokenAccount(a.Owner, a.Data)
		if err != nil || ta.Mint != mint {
			continue
		}
		if newest == nil || a.Slot > newest.Slot {
			newest, newestTA = a, ta
		}
		if ta.Amount > 0 && (best == nil || a.Slot > best.Slot) {
			best, bestTA = a, ta
		}
	}
	src.TokenAccount = bestTA
	if src.TokenAccount == nil {
		src.TokenAccount = newestTA
	}
	if a, ok := s[inscription.InscriptionPDA(mint)]; ok {
		in, err := inscription.DecodeInscription(a.Owner, a.Data)
		if err != nil {
			t.Fatalf("inscription of %s: %v", mint, err)
		}
		src.Inscription = in
	}
	return src
}

// decodeValue decodes JSON keeping numbers exact, and makes
// royalty.percent a float so 0.05 and 0.05000000000000001 style spellings
// of the same f64 compare equal.
func decodeValue(t *testing.T, raw []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
	fixPercent(t, v)
	return v
}

func fixPercent(t *testing.T, v any) {
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			fixPercent(t, e)
		}
	case map[string]any:
		delete(x, "last_indexed_slot")
		if r, ok := x["royalty"].(map[string]any); ok {
			if n, ok := r["percent"].(json.Number); ok {
				f, err := strconv.ParseFloat(string(n), 64)
				if err != nil {
					t.Fatalf("percent %q: %v", n, err)
				}
				r["percent"] = f
			}
		}
	}
}

func renderJSON(t *testing.T, a *Asset) []byte {
	t.Helper()
	b, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func caseOptions(c *tokenCase) Options {
	if o := c.Request.Params.DisplayOptions; o != nil {
		return *o
	}
	if o := c.Request.Params.Options; o != nil {
		return *o
	}
	return Options{}
}

func TestFromTokenCorpus(t *testing.T) {
	cases := []string{
		"account_updates",
		"account_updates-metadata-updated",
		"account_updates-token-updated",
		"asset_parsing",
		"creators_reordering",
		"fungible_token_get_asset_scenario_1",
		"get_asset_with_show_collection_metadata_option",
		"get_asset_with_show_fungible_scenario_1",
		"get_asset_with_show_fungible_scenario_2",
		"get_asset_with_show_fungible_scenario_3",
		"get_asset_with_show_inscription_scenario_1",
		"reg_get_asset",
		"reg_get_asset_batch-only-2",
		"reg_get_asset_batch-only-2-different-2",
		"get_assets_with_multiple_same_ids",
		"token_extensions_get_asset_scenario_1",
		"token_extensions_get_asset_scenario_2",
		"token_keg_fungible_with_no_metadata",
	}
	for _, name := range cases {
		t.Run(name, func(t *testing.T) {
			c := loadTokenCase(t, name)
			store := seedAccounts(t, c)
			opts := caseOptions(c)
			switch c.Request.Method {
			case "getAsset":
				id, err := solana.ParsePubkey(c.Request.Params.ID)
				if err != nil {
					t.Fatal(err)
				}
				a, err := FromToken(store.sources(t, id), opts)
				if len(c.ExpectedError) > 0 && string(c.ExpectedError) != "null" {
					if !errors.Is(err, ErrNotFound) {
						t.Fatalf("got %v, %v; want ErrNotFound", a, err)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				compareJSON(t, renderJSON(t, a), c.ExpectedResult)
				checkView(t, func(o Options) ([]byte, error) {
					a, err := FromToken(store.sources(t, id), o)
					if err != nil {
						return nil, err
					}
					return renderJSON(t, a), nil
				})
			case "getAssets":
				var items []json.RawMessage
				for i, s := range c.Request.Params.IDs {
					// The reference drops adjacent duplicate ids only.
					if i > 0 && s == c.Request.Params.IDs[i-1] {
						continue
					}
					id, err := solana.ParsePubkey(s)
					if err != nil {
						t.Fatal(err)
					}
					a, err := FromToken(store.sources(t, id), opts)
					switch {
					case errors.Is(err, ErrNotFound):
						items = append(items, json.RawMessage("null"))
					case err != nil:
						t.Fatal(err)
					default:
						items = append(items, renderJSON(t, a))
					}
				}
				got, err := json.Marshal(items)
				if err != nil {
					t.Fatal(err)
				}
				compareJSON(t, got, c.ExpectedResult)
			default:
				t.Fatalf("method %s is not a token case", c.Request.Method)
			}
		})
	}
}

func compareJSON(t *testing.T, got, want []byte) {
	t.Helper()
	g, w := decodeValue(t, got), decodeValue(t, want)
	if !reflect.DeepEqual(g, w) {
		t.Errorf("mismatch\n got: %s\nwant: %s", got, compactJSON(want))
	}
}

func compactJSON(b []byte) []byte {
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		return b
	}
	return out.Bytes()
}
