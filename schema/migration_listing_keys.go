package schema

import "strings"

// listingCols are the searchAssets condition columns asset_state and
// asset_keys both carry, as migration 27 typed them.
const listingCols = `interface LowCardinality(String),
	owner FixedString(32),
	owner_type LowCardinality(String),
	delegate Nullable(FixedString(32)),
	frozen Bool,
	burnt Bool,
	compressed Bool,
	compressible Bool,
	supply UInt64,
	supply_mint Nullable(FixedString(32)),
	tree Nullable(FixedString(32)),
	royalty_model LowCardinality(String),
	royalty_target Nullable(FixedString(32)),
	royalty_bps UInt32,
	json_uri String,
	name String,
	is_agent Bool,
	agent_token Nullable(FixedString(32)),
	asset_signer Nullable(FixedString(32))`

const listingColNames = `interface, owner, owner_type, delegate, frozen, burnt, compressed, compressible, supply,
	supply_mint, tree, royalty_model, royalty_target, royalty_bps, json_uri, name, is_agent, agent_token, asset_signer`

// listingKeys is migration 32: every listed asset_keys row carries its
// asset's searchAssets conditions, so a search with an owner, creator,
// authority or group reads that key's range in id order, checks the
// other conditions in the same read and stops at the page's end, where it
// read every candidate's row of asset_state by id and sorted them.
// Rows already stored get their asset's columns from asset_state; a
// row written again at the same version replaces the stored one.
func listingKeys() []string {
	add := "ALTER TABLE asset_keys"
	for i, col := range splitCols(listingCols) {
		if i > 0 {
			add += ","
		}
		add += "\n\tADD COLUMN IF NOT EXISTS " + col
	}
	return []string{
		add,
		`INSERT INTO asset_keys (path, key, id, verified, slot, created_slot, version, is_deleted, doc, ` + listingColNames + `)
		SELECT k.path, k.key, k.id, k.verified, k.slot, k.created_slot, k.version, k.is_deleted, k.doc, ` + prefixed("s.", listingColNames) + `
		FROM (SELECT * FROM asset_keys FINAL WHERE path != '` + AssetPathDepends + `') AS k
		INNER JOIN (SELECT id, ` + listingColNames + ` FROM asset_state FINAL) AS s ON s.id = k.id`,
	}
}

// splitCols splits a column list written one per line.
func splitCols(cols string) []string {
	var out []string
	for _, line := range strings.Split(cols, "\n") {
		if c := strings.TrimSuffix(strings.TrimSpace(line), ","); c != "" {
			out = append(out, c)
		}
	}
	return out
}

// prefixed qualifies each name of a comma-separated list with p.
func prefixed(p, names string) string {
	var out []string
	for _, n := range strings.Split(names, ",") {
		out = append(out, p+strings.TrimSpace(n))
	}
	return strings.Join(out, ", ")
}
