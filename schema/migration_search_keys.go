package schema

// Paths of the asset_keys rows a search without an address key reads:
// every rendered asset under AssetPathInterface followed by its
// interface ("interface:ProgrammableNFT"), and the burnt and frozen ones
// under AssetPathBurnt and AssetPathFrozen. Their key is 32 zero bytes,
// so each is one range in id order.
const (
	AssetPathInterface = "interface:"
	AssetPathBurnt     = "burnt"
	AssetPathFrozen    = "frozen"
)

// searchKeys is migration 39: searchAssets without an owner, creator,
// authority or group (an interface with frozen, burnt alone) read every
// row of asset_state with FINAL; asset_keys now files each rendered asset
// under its interface, and the burnt and frozen ones under a flag, with
// the document and the search columns every listed row carries, so such a
// search is one key range read in id order that stops at the page's end.
// Rows already folded get theirs from asset_state at its version: a
// later fold writes a newer version, and finds the keys to tombstone from
// asset_state's interface, burnt and frozen columns, which this migration
// does not need to add to asset_state.keys.
func searchKeys() []string {
	return []string{
		`INSERT INTO asset_keys (path, key, id, verified, slot, created_slot, version, is_deleted, doc, ` + listingColNames + `)
		SELECT p, toFixedString('', 32), id, false, slot, created_slot, version, 0, doc, ` + listingColNames + `
		FROM (SELECT * FROM asset_state FINAL WHERE status = '')
		ARRAY JOIN arrayFilter(x -> x != '', ['` + AssetPathInterface + `' || interface,
			if(burnt, '` + AssetPathBurnt + `', ''), if(frozen, '` + AssetPathFrozen + `', '')]) AS p
		WHERE p != '` + AssetPathInterface + `'`,
	}
}
