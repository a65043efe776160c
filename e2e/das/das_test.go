// Package das_test checks dasch's DAS methods against the Metaplex Digital
// Asset Standard API client, @metaplex-foundation/digital-asset-standard-api
// on a Umi RPC (the versions pinned in package.json), the client Metaplex
// publishes for DAS endpoints.
//
// The tests need node and npm on PATH, and skip without them. They install
// the pinned packages with `npm ci` from the machine's npm cache and build
// bin/dasch. TestDASClient ingests fixtures of the DAS corpus (testdata/das)
// into one store, serves it on loopback, and runs client.mjs (getAsset,
// getAssets) against the server; TestDASListings gives every listing case
// of the corpus its own store and runs listings.mjs.
package das_test

import (
	"context"
	"encoding/json"
	"os/exec"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/e2e/internal/e2ekit"
)

// view is what client.mjs reports of an asset: the members of the client's
// DasApiAsset that the checks read.
type view struct {
	Interface   string `json:"interface"`
	ID          string `json:"id"`
	Name        string `json:"name"`
	Owner       string `json:"owner"`
	Compressed  bool   `json:"compressed"`
	BasisPoints int    `json:"basisPoints"`
	Burnt       bool   `json:"burnt"`
}

// asset is one asset of the corpus: the fixture files that index it (a
// case's seed.apply list) and what getAsset returns for it (the case's
// expected_result).
type asset struct {
	kase  string
	files []string
	want  view
}

var assets = []asset{
	{
		kase: "reg_get_asset",
		files: []string{
			"accounts/reg_get_asset/CMVuYDS9nTeujfTPJb8ik7CRhAqZv4DfjfdamFLkJgxE.json",
			"accounts/reg_get_asset/52J4tmbP9o3GHQrkts8vhXm84CLzM7KSXboKGnrw3YTW.json",
			"accounts/reg_get_asset/Fc1MSqW3eifoMuDupvimtu2DbSYmGUtSQ7wBUoz87uK5.json",
		},
		want: view{
			Interface:   "ProgrammableNFT",
			ID:          "CMVuYDS9nTeujfTPJb8ik7CRhAqZv4DfjfdamFLkJgxE",
			Name:        "Mad Lads #9964",
			Owner:       "A59E2tNJEqNN9TDnzgGnmLmnTsdRDoPocGx3n1w2dqZw",
			BasisPoints: 420,
		},
	},
	{
		kase: "fungible_token_get_asset_scenario_1",
		files: []string{
			"accounts/fungible_token_get_asset_scenario_1/EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v.json",
			"accounts/fungible_token_get_asset_scenario_1/5x38Kp4hvdomTCnCrAny4UtMUt5rQBdB6px2K1Ui45Wq.json",
		},
		// A fungible has no single owner: ownership.owner is "".
		want: view{
			Interface: "FungibleToken",
			ID:        "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
			Name:      "USD Coin",
		},
	},
	{
		kase: "mpl_core_get_asset",
		files: []string{
			"accounts/mpl_core_get_asset/x3hJtpU4AUsGejNvxzX9TKjcyNB1eYtDdDPWdeF6opr.json",
		},
		want: view{
			Interface:   "MplCoreAsset",
			ID:          "x3hJtpU4AUsGejNvxzX9TKjcyNB1eYtDdDPWdeF6opr",
			Name:        "Test Asset",
			Owner:       "APrZTeVysBJqAznfLXS71NAzjr2fCVTSF1A66MeErzM7",
			BasisPoints: 5,
		},
	},
	{
		kase: "mpl_core_get_collection",
		files: []string{
			"accounts/mpl_core_get_collection/DHciVfQxHHM7t2asQJRjjkKbjvZ4PuG3Y3uiULMQUjJQ.json",
		},
		want: view{
			Interface: "MplCoreCollection",
			ID:        "DHciVfQxHHM7t2asQJRjjkKbjvZ4PuG3Y3uiULMQUjJQ",
			Name:      "Test Collection",
			Owner:     "APrZTeVysBJqAznfLXS71NAzjr2fCVTSF1A66MeErzM7",
		},
	},
	{
		kase: "mint_v2_transfer_v2",
		files: []string{
			"transactions/mint_v2_transfer_v2/tgmTSFiDAGWmWqDg5QkaHfJaX7KRzB6R9catUSpCFbMFSh4RvDVmfJA9idDPhfJTX5XzFEGJ8wtvT8oKktohTon.json",
			"transactions/mint_v2_transfer_v2/2yyNYTb2ojt4CmTMWqV3szZ5muRx5MWfYTpq1ph2t7xDeAmxvnfVDgZLvcYK1oHzj2K8GWJ2eKvdT9tLxcr1yT4P.json",
			"transactions/mint_v2_transfer_v2/4VibmNjZzcJ3PNybVvkdRFqJCNJvJnx3Wy1suJzpS2JMCD4V18Gt4BgX532xnePp3ivZ7HBVu3PmXxT3sDFXvJ4A.json",
		},
		// Minted to one owner, then transferred to this one; a V2 leaf.
		want: view{
			Interface:   "MplBubblegumV2",
			ID:          "H98ZTBg5XdWRxt35XDznbX2Z1m7nCYeYqoBTdi5qAQBg",
			Name:        "My NFT",
			Owner:       "28fnW7CpgsyPBqgCU9GLesnLoanqTfUjeAr2gZy4zsm1",
			Compressed:  true,
			BasisPoints: 500,
		},
	},
}

const (
	// missing is a well-formed id (the system program's) with no asset.
	missing = "11111111111111111111111111111111"
	// malformed is not base58 (0, O, I and l are not in its alphabet).
	malformed = "0OIl-not-an-asset-id"
)

// clientConfig is client.mjs's argument.
type clientConfig struct {
	URL       string   `json:"url"`
	Assets    []string `json:"assets"`
	Batch     []string `json:"batch"`
	Missing   string   `json:"missing"`
	Malformed string   `json:"malformed"`
	WrongURL  string   `json:"wrongUrl"`
}

// failure is client.mjs's record of a call expected to fail.
type failure struct {
	Threw   bool            `json:"threw"`
	Name    string          `json:"name"`
	Message string          `json:"message"`
	Value   json.RawMessage `json:"value"`
}

func TestDASClient(t *testing.T) {
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not on PATH: this test runs the @metaplex-foundation/digital-asset-standard-api client under Node.js", tool)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	e2ekit.NPMCI(t, ctx)
	bin := e2ekit.Build(t, ctx)
	var files []string
	for _, a := range assets {
		files = append(files, a.files...)
	}
	storeURL, key := e2ekit.Index(t, ctx, bin, t.TempDir(), files)
	url := e2ekit.Serve(t, ctx, bin, storeURL) + "/?api-key=" + key

	// The batch: every asset in reverse corpus order, with the missing id
	// in the middle, so request order is neither storage nor id order.
	var ids, batch []string
	for _, a := range assets {
		ids = append(ids, a.want.ID)
	}
	batch = slices.Clone(ids)
	slices.Reverse(batch)
	batch = slices.Insert(batch, len(batch)/2, missing)

	wrongURL := strings.Replace(url, "/?", "/v0/das?", 1)
	summary := client(t, ctx, clientConfig{URL: url, Assets: ids, Batch: batch, Missing: missing, Malformed: malformed, WrongURL: wrongURL})

	// Compared as JSON values: a member the response lacks is a null in the
	// summary, which matches no wanted value.
	for _, a := range assets {
		var got any
		if e2ekit.Decode(t, summary, "getAsset/"+a.want.ID, &got) && !reflect.DeepEqual(got, asJSON(t, a.want)) {
			t.Errorf("getAsset %s (case %s) = %s, want %s", a.want.ID, a.kase, e2ekit.Show(got), e2ekit.Show(a.want))
		}
	}

	// getAssets answers in request order. The client passes the server's
	// array through, so a missing id is a null at its position.
	var got any
	if e2ekit.Decode(t, summary, "getAssets", &got) {
		want := make([]*view, len(batch))
		for i, id := range batch {
			for _, a := range assets {
				if a.want.ID == id {
					want[i] = &a.want
				}
			}
		}
		if !reflect.DeepEqual(got, asJSON(t, want)) {
			t.Errorf("getAssets %v =\n%s\nwant\n%s", batch, e2ekit.Show(got), e2ekit.Show(want))
		}
	}

	// getAsset of a missing id: the client's HTTP transport refuses the
	// 404 answer, with the JSON-RPC error in its message.
	rpcFailure(t, summary, "getAsset/missing", 404, -32004)
	// A malformed id reaches the server (it is sent as a plain string) and
	// is refused as invalid params, in getAsset and in getAssets.
	rpcFailure(t, summary, "getAsset/malformed", 400, -32602)
	rpcFailure(t, summary, "getAssets/malformed", 400, -32602)
	// A wrong path is a 404 too, but its message names the path, so the
	// client's error tells it from a missing asset.
	if msg := rpcFailure(t, summary, "getAsset/unknown-path", 404, -32004); !strings.HasPrefix(msg, `Unknown path: "/v0/das"`) {
		t.Errorf("getAsset/unknown-path: the client threw %q, want the unknown path named", msg)
	}
}

// rpcFailure checks that the call name threw the client's transport error
// for an HTTP status with a JSON-RPC error of the given code, and returns
// that error's message. The client's message is "STATUS TEXT: BODY", BODY
// being the server's response.
func rpcFailure(t *testing.T, summary map[string]json.RawMessage, name string, status, code int) string {
	t.Helper()
	var f failure
	if !e2ekit.Decode(t, summary, name, &f) {
		return ""
	}
	if !f.Threw {
		t.Errorf("%s: the client returned %s, want a %d error", name, f.Value, status)
		return ""
	}
	head, body, ok := strings.Cut(f.Message, ": ")
	var resp struct {
		Error *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if !ok || !strings.HasPrefix(head, strconv.Itoa(status)+" ") || json.Unmarshal([]byte(body), &resp) != nil ||
		resp.Error == nil || resp.Error.Code != code || resp.Error.Message == "" {
		t.Errorf("%s: the client threw %s %q, want HTTP %d with JSON-RPC error %d", name, f.Name, f.Message, status, code)
		return ""
	}
	return resp.Error.Message
}

// client runs client.mjs with cfg and returns its summary.
func client(t *testing.T, ctx context.Context, cfg clientConfig) map[string]json.RawMessage {
	t.Helper()
	arg, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return e2ekit.Client(t, ctx, "digital-asset-standard-api", string(arg))
}

// asJSON is v as encoding/json decodes its encoding into an any.
func asJSON(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}
