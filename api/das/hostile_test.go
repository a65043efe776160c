package das

import (
	"strings"
	"testing"
)

// TestHostileParams sends each DAS method params of every wrong shape,
// and each of its fields values of every wrong type, through the HTTP
// server: every answer is valid JSON (post checks it) and a result or a
// client error, never a 500 or the internal error.
func TestHostileParams(t *testing.T) {
	e := newEnv(t)
	// Stored assets, so that options and display options reach the
	// rendering of a found one.
	e.index(
		"accounts/account_updates/843gdpsTE4DoJz3ZoBsEjAqT8UgAcyF5YojygGgGZE1f.json",
		"accounts/account_updates/6cQEeDKhobxxsvPKcAsdHZbDrPgQtEpo8PFzayDu5Gi5.json",
		"accounts/account_updates/DPBEGb2DajfkannVZ6J4NxRY2ovz1yn1j36i1WVdZVpW.json",
		"accounts/mpl_core_get_asset/x3hJtpU4AUsGejNvxzX9TKjcyNB1eYtDdDPWdeF6opr.json",
	)
	id := `"843gdpsTE4DoJz3ZoBsEjAqT8UgAcyF5YojygGgGZE1f"`
	if a := e.call("getAsset", `{"id":`+id+`}`); a.Status != 200 || a.Error != nil {
		t.Fatalf("stored asset: HTTP %d %+v", a.Status, a.Error)
	}
	long := `"` + strings.Repeat("z", 3000) + `"`
	deep := strings.Repeat("[", 5000) + strings.Repeat("]", 5000)
	cases := []string{
		`null`, `"x"`, `5`, `true`, `{}`, `[]`, `[null]`, `[null,null,null,null]`, `[1,2,3]`, `[[]]`, `[{}]`,
		`{"x":1}`, `[` + long + `]`, deep, `{"id":` + deep + `}`, `[` + id + `,{"showFungible":1}]`,
		`[` + id + `,{"showFungible":true,"showInscription":true,"showCollectionMetadata":true,"showUnverifiedCollections":true}]`,
	}
	values := []string{
		`null`, `5`, `-1`, `1.5`, `1e400`, `true`, `""`, `"0OIl"`, long, `[]`, `[5]`, `[""]`, `[null]`,
		`[{}]`, `{}`, `{"showFungible":5}`, `{"showFungible":null}`, `{"showFungible":true,"showInscription":true,"showZeroBalance":true}`, `[` + id + `,null]`, deep,
	}
	// Each method's key field, given the stored asset beside a wrong
	// value in another field.
	keyField := map[string]string{"getAsset": `"id":` + id, "getAssetBatch": `"ids":[` + id + `]`, "getAssets": `"ids":[` + id + `]`}
	for _, m := range []string{"getAsset", "getAssetBatch", "getAssets"} {
		t.Run(m, func(t *testing.T) {
			cases := cases
			for _, f := range []string{"id", "ids", "options", "displayOptions"} {
				for _, v := range values {
					cases = append(cases, `{"`+f+`":`+v+`}`, `{`+keyField[m]+`,"`+f+`":`+v+`}`)
				}
			}
			found := 0
			for _, p := range cases {
				a := e.call(m, p)
				if a.Error == nil && strings.Contains(string(a.Result), "843gdpsTE4DoJz3ZoBsEjAqT8UgAcyF5YojygGgGZE1f") {
					found++
				}
				if a.Status >= 500 || (a.Error != nil && (a.Error.Code == codeServer || a.Error.Code == -32603)) {
					t.Errorf("params %.120s: HTTP %d %+v", p, a.Status, a.Error)
				}
				if a.Error == nil && a.Status != 200 {
					t.Errorf("params %.120s: HTTP %d without an error", p, a.Status)
				}
			}
			// Some cases render the stored asset: the store path ran.
			if found < 5 {
				t.Errorf("%d answers carry the stored asset, want the cases with a plausible key and options", found)
			}
		})
	}
}
