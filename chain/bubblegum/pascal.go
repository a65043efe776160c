package bubblegum

import "strings"

// PascalName is an instruction's name as the reference indexer lists it
// in asset signatures: the Anchor name in PascalCase ("mint_to_collection_v1"
// is "MintToCollectionV1").
func PascalName(ix string) string {
	var b strings.Builder
	b.Grow(len(ix))
	for _, part := range strings.Split(ix, "_") {
		if part == "" {
			continue
		}
		b.WriteString(strings.ToUpper(part[:1]))
		b.WriteString(part[1:])
	}
	return b.String()
}
