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
	id := `"11111111111111111111111111111111"`
	long := `"` + strings.Repeat("z", 3000) + `"`
	deep := strings.Repeat("[", 5000) + strings.Repeat("]", 5000)
	cases := []string{
		`null`, `"x"`, `5`, `true`, `{}`, `[]`, `[null]`, `[null,null,null,null]`, `[1,2,3]`, `[[]]`, `[{}]`,
		`{"x":1}`, `[` + long + `]`, deep, `{"id":` + deep + `}`,
	}
	values := []string{
		`null`, `5`, `-1`, `1.5`, `1e400`, `true`, `""`, `"0OIl"`, long, `[]`, `[5]`, `[""]`, `[null]`,
		`[{}]`, `{}`, `{"showFungible":5}`, `{"showFungible":null}`, `[` + id + `,null]`, deep,
	}
	for _, f := range []string{"id", "ids", "options", "displayOptions"} {
		for _, v := range values {
			cases = append(cases, `{"`+f+`":`+v+`}`, `{"id":`+id+`,"ids":[`+id+`],"`+f+`":`+v+`}`)
		}
	}
	for _, m := range []string{"getAsset", "getAssetBatch", "getAssets"} {
		t.Run(m, func(t *testing.T) {
			for _, p := range cases {
				a := e.call(m, p)
				if a.Status >= 500 || (a.Error != nil && (a.Error.Code == codeServer || a.Error.Code == -32603)) {
					t.Errorf("params %.120s: HTTP %d %+v", p, a.Status, a.Error)
				}
				if a.Error == nil && a.Status != 200 {
					t.Errorf("params %.120s: HTTP %d without an error", p, a.Status)
				}
			}
		})
	}
}
