package photon

import (
	"strings"
	"testing"

	"github.com/mr-tron/base58"

	"github.com/dasch-labs/dasch/server/jsonrpc"
)

func TestParamErrors(t *testing.T) {
	e := newEnv(t, true)
	k := keyB58(key(1))
	k32 := keyB58(key(2)) // a 32-byte cursor where another length is expected
	long := strings.Repeat("1", 45)
	sig72 := base58.Encode(make([]byte, 72))
	// Input far longer than anything valid: refused before decoding (whose
	// cost is quadratic) and not repeated whole in the message.
	huge := strings.Repeat("2", 300_000)
	hugeName := strings.Repeat("f", 100_000)
	hugeNumber := strings.Repeat("9", 100_000)
	tests := []struct {
		name, method, params string
		code                 int
		msg                  string
		exact                bool
	}{
		{"unknown field", "getCompressedMintTokenHolders", `{"mint":"` + k + `","foo":1}`, -32602,
			"unknown field `foo`, expected one of `mint`, `cursor`, `limit`", false},
		{"unknown field delegate", "getCompressedTokenAccountsByDelegate", `{"delegate":"` + k + `","foo":1}`, -32602,
			"unknown field `foo`, expected one of `delegate`, `mint`, `cursor`, `limit`", false},
		{"missing field", "getCompressedTokenAccountsByDelegate", `{"mint":"` + k + `"}`, -32602, "missing field `delegate`", false},
		{"missing params", "getCompressedTokenAccountsByOwner", ``, -32602, "missing field `owner`", false},
		{"limit too big", "getCompressedMintTokenHolders", `{"mint":"` + k + `","limit":1001}`, -32602,
			"invalid value: integer `1001`, expected a value less than or equal to 1000", false},
		{"limit 2000", "getCompressedTokenAccountsByOwner", `{"owner":"` + k + `","limit":2000}`, -32602,
			"invalid value: integer `2000`, expected a value less than or equal to 1000", false},
		{"negative limit", "getCompressedTokenBalancesByOwnerV2", `{"owner":"` + k + `","limit":-1}`, -32602,
			"invalid value: integer `-1`, expected u64", false},
		{"string limit", "getCompressedTokenBalancesByOwnerV2", `{"owner":"` + k + `","limit":"5"}`, -32602,
			`invalid type: string "5", expected u64`, false},
		{"bad base58", "getCompressedTokenAccountsByOwner", `{"owner":"0OIl"}`, -32602, "Invalid Base58 string", false},
		{"too long", "getCompressedTokenAccountsByOwner", `{"owner":"` + long + `"}`, -32602, "String is the wrong size", false},
		{"too short", "getCompressedTokenAccountsByOwner", `{"owner":"abc"}`, -32602, "String is the wrong size", false},
		{"pubkey of another type", "getCompressedTokenAccountsByOwner", `{"owner":5}`, -32602,
			"invalid type: integer `5`, expected a base58 encoded string", false},
		{"bad hash", "getCompressedAccount", `{"hash":"0OIl"}`, -32602, "Invalid hash input", false},
		{"cursor not base58", "getCompressedMintTokenHolders", `{"mint":"` + k + `","cursor":"abl"}`, -32602,
			"provided string contained invalid character 'l' at byte 2", false},
		{"holders cursor length", "getCompressedMintTokenHolders", `{"mint":"` + k + `","cursor":"` + k32 + `"}`, -32000,
			"Validation Error: Invalid cursor length. Expected 40. Received 32.", true},
		{"token cursor length", "getCompressedTokenAccountsByDelegate", `{"delegate":"` + k + `","cursor":"` + k32 + `"}`, -32000,
			"Validation Error: Invalid cursor length. Expected 64. Received 32.", true},
		{"balances cursor length", "getCompressedTokenBalancesByOwnerV2", `{"owner":"` + k + `","cursor":"` + sig72 + `"}`, -32000,
			"Validation Error: Invalid cursor length. Expected 32. Received 72.", true},
		{"signature cursor not base58", "getCompressionSignaturesForOwner", `{"owner":"` + k + `","cursor":"xyz0"}`, -32000,
			"Validation Error: Invalid cursor xyz0", true},
		{"signature cursor length", "getLatestCompressionSignatures", `{"cursor":"` + k32 + `"}`, -32000,
			"Validation Error: Invalid cursor length. Expected 72. Received 32.", true},
		{"no account id", "getCompressedAccount", `{}`, -32000, "Validation Error: Either address or hash must be provided", true},
		{"no account id balance", "getCompressedBalance", `{"address":null}`, -32000, "Validation Error: Either address or hash must be provided", true},
		{"no hashes or addresses", "getMultipleCompressedAccounts", `{}`, -32000, "Validation Error: Either hashes or addresses must be provided", true},
		{"hash list element", "getMultipleCompressedAccounts", `{"hashes":["` + k + `","0"]}`, -32602, "Invalid hash input", false},
		{"null filter", "getCompressedAccountsByOwner", `{"owner":"` + k + `","filters":[{"memcmp":null}]}`, -32000,
			"Validation Error: Filter instance cannot be null", true},
		{"too many filters", "getCompressedAccountsByOwnerV2", `{"owner":"` + k + `","filters":[{},{},{},{},{},{}]}`, -32000,
			"Validation Error: Too many filters. The maximum number of filters allowed is 5", true},
		{"accounts cursor is a hash", "getCompressedAccountsByOwner", `{"owner":"` + k + `","cursor":"abc"}`, -32602, "String is the wrong size", false},
		{"huge cursor", "getCompressedMintTokenHolders", `{"mint":"` + k + `","cursor":"` + huge + `"}`, -32602,
			"provided string is too long: 300000 characters, at most 2048", false},
		{"huge memcmp bytes", "getCompressedAccountsByOwner", `{"owner":"` + k + `","filters":[{"memcmp":{"offset":0,"bytes":"` + huge + `"}}]}`, -32602,
			"provided string is too long", false},
		{"huge signature cursor", "getCompressionSignaturesForOwner", `{"owner":"` + k + `","cursor":"` + huge + `"}`, -32000,
			"Validation Error: Invalid cursor " + huge[:96] + "…", true},
		{"huge unknown field", "getCompressedMintTokenHolders", `{"mint":"` + k + `","` + hugeName + `":1}`, -32602,
			"unknown field `" + hugeName[:96] + "…`", false},
		{"huge number", "getCompressedMintTokenHolders", `{"mint":"` + k + `","limit":` + hugeNumber + `}`, -32602,
			"invalid value: integer `" + hugeNumber[:96] + "…`, expected u64", false},
		{"huge string limit", "getCompressedMintTokenHolders", `{"mint":"` + k + `","limit":"` + huge + `"}`, -32602,
			`invalid type: string "` + huge[:96] + `…", expected u64`, false},
		{"dataSlice offset as a string", "getCompressedAccountsByOwnerV2", `{"owner":"` + k + `","dataSlice":{"offset":"5","length":1}}`, -32602,
			"`offset`: invalid type: string \"5\", expected u64", false},
		{"dataSlice negative length", "getCompressedAccountsByOwnerV2", `{"owner":"` + k + `","dataSlice":{"offset":0,"length":-1}}`, -32602,
			"`length`: invalid value: integer `-1`, expected u64", false},
		{"dataSlice without length", "getCompressedAccountsByOwnerV2", `{"owner":"` + k + `","dataSlice":{"offset":0}}`, -32602,
			"missing field `length`", false},
		{"memcmp offset as a string", "getCompressedAccountsByOwner", `{"owner":"` + k + `","filters":[{"memcmp":{"offset":"1","bytes":"2"}}]}`, -32602,
			"`offset`: invalid type: string \"1\", expected u64", false},
		{"memcmp bytes a number", "getCompressedAccountsByOwner", `{"owner":"` + k + `","filters":[{"memcmp":{"offset":1,"bytes":5}}]}`, -32602,
			"`bytes`: invalid type: integer `5`, expected a base58 encoded string", false},
		{"memcmp bytes not base58", "getCompressedAccountsByOwner", `{"owner":"` + k + `","filters":[{"memcmp":{"offset":1,"bytes":"0"}}]}`, -32602,
			"`bytes`: provided string contained invalid character '0' at byte 0", false},
		{"too many positional", "getCompressedMintTokenHolders", `["` + k + `",null,1,false,5]`, -32602, "invalid length 5", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := e.call(tt.method, tt.params)
			if err == nil {
				t.Fatalf("no error, want %d %q", tt.code, tt.msg)
			}
			if err.Code != tt.code || (tt.exact && err.Message != tt.msg) || !strings.Contains(err.Message, tt.msg) {
				t.Errorf("got %d %q, want %d %q", err.Code, err.Message, tt.code, tt.msg)
			}
			if len(err.Message) > 400 {
				t.Errorf("message of %d bytes repeats the input", len(err.Message))
			}
			if err.HTTPStatus != 0 {
				t.Errorf("HTTP status %d, want 200 like Photon", err.HTTPStatus)
			}
		})
	}
}

func TestNotIndexed(t *testing.T) {
	e := newEnv(t, false)
	k := keyB58(key(1))
	for method, params := range map[string]string{
		"getCompressedTokenAccountsByOwner":     `{"owner":"` + k + `"}`,
		"getCompressedTokenBalancesByOwnerV2":   `{"owner":"` + k + `"}`,
		"getCompressedMintTokenHolders":         `{"mint":"` + k + `"}`,
		"getCompressedAccount":                  `{"hash":"` + k + `"}`,
		"getMultipleCompressedAccounts":         `{"hashes":["` + k + `"]}`,
		"getCompressedBalanceByOwner":           `{"owner":"` + k + `"}`,
		"getCompressionSignaturesForTokenOwner": `{"owner":"` + k + `"}`,
		"getLatestCompressionSignatures":        `{}`,
		"getIndexerHealth":                      ``,
	} {
		_, err := e.call(method, params)
		if err == nil || err.Code != jsonrpc.CodeServerError || err.Message != "Record Not Found: No data has been indexed" {
			t.Errorf("%s: %v, want -32000 Record Not Found: No data has been indexed", method, err)
		}
	}
}
