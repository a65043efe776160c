package assetbench

import (
	"context"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"
	"github.com/mr-tron/base58"

	"github.com/dasch-labs/dasch/chain/solana"
)

// pgList is a listing request as the reference runs it (digital_asset_types
// dao/scopes asset.rs): the page's query over asset, joined to the table
// of its condition (get_assets_by_condition, get_by_related_condition,
// paginate), then get_related_for_assets for the page's ids; with count,
// the number of assets of the same condition.
type pgList struct {
	page, count string
	args        []any
}

// pgSearchDefaults are the conditions SearchAssetsQuery::conditions adds to
// a search that gives no supply and no owner type: no zero supply unless
// burnt, single-owner assets of supply at most 1.
const pgSearchDefaults = `(asset.supply <> 0 OR asset.burnt = true) AND (asset.owner_type = 'single' AND asset.supply <= 1)`

// pgPaged orders and limits a condition's rows: by id descending (the
// default sort), past the cursor when there is one, at an offset in page
// mode.
func pgPaged(from, where string, args []any, cursor *solana.Pubkey, page int) pgList {
	if cursor != nil {
		args = append(args, cursor[:])
		where += " AND asset.id < $" + strconv.Itoa(len(args))
	}
	q := "SELECT asset.* FROM " + from + " WHERE " + where + " ORDER BY asset.id DESC LIMIT " + strconv.Itoa(listPage)
	if page > 1 {
		q += " OFFSET " + strconv.Itoa((page-1)*listPage)
	}
	return pgList{page: q, args: args}
}

// pgOwnerPage is getAssetsByOwner (get_assets_by_owner).
func pgOwnerPage(owner solana.Pubkey, cursor *solana.Pubkey, page int) pgList {
	return pgPaged("asset", "asset.owner = $1 AND asset.supply > 0", []any{owner[:]}, cursor, page)
}

const pgJoinGrouping = "asset LEFT JOIN asset_grouping ON asset.id = asset_grouping.asset_id"

// pgGroupPage is getAssetsByGroup on a collection, verified members only
// (get_by_grouping).
func pgGroupPage(col solana.Pubkey, cursor *solana.Pubkey) pgList {
	return pgPaged(pgJoinGrouping, `asset_grouping.group_key = $1 AND asset_grouping.group_value = $2
		AND (asset_grouping.verified = true OR asset_grouping.verified IS NULL) AND asset.supply > 0`,
		[]any{"collection", base58.Encode(col[:])}, cursor, 0)
}

// pgSearchOwnerFungible is searchAssets {ownerAddress, tokenType
// Fungible}: the asset's owner or a token account's.
func pgSearchOwnerFungible(owner solana.Pubkey) pgList {
	fungible := `(asset.specification_asset_class = 'FUNGIBLE_ASSET' OR asset.specification_asset_class = 'FUNGIBLE_TOKEN')`
	return pgPaged("asset LEFT JOIN token_accounts ON token_accounts.mint = asset.id",
		fungible+` AND (asset.owner = $1 OR token_accounts.owner = $1) AND (asset.supply <> 0 OR asset.burnt = true)
		AND (asset.owner_type = 'token' AND `+fungible+`)`, []any{owner[:]}, nil, 0)
}

// pgSearchGroupNotBurnt is searchAssets {grouping, burnt false}.
func pgSearchGroupNotBurnt(col solana.Pubkey) pgList {
	return pgPaged(pgJoinGrouping, `asset.burnt = false AND `+pgSearchDefaults+`
		AND (asset_grouping.group_key = $1 AND asset_grouping.group_value = $2)`,
		[]any{"collection", base58.Encode(col[:])}, nil, 0)
}

// pgSearchCreatorVerified is searchAssets {creatorAddress,
// creatorVerified true}.
func pgSearchCreatorVerified(creator solana.Pubkey) pgList {
	return pgPaged("asset LEFT JOIN asset_creators ON asset_creators.asset_id = asset.id",
		pgSearchDefaults+` AND asset_creators.creator = $1 AND asset_creators.verified = true`, []any{creator[:]}, nil, 0)
}

// pgSearchOwnerName is searchAssets {ownerAddress, name}: the reference
// writes the name into the statement.
func pgSearchOwnerName(owner solana.Pubkey, name string) pgList {
	return pgPaged("asset LEFT JOIN asset_data ON asset_data.id = asset.asset_data",
		`asset.owner = $1 AND `+pgSearchDefaults+` AND chain_data->>'name' LIKE '%`+name+`%'`, []any{owner[:]}, nil, 0)
}

// pgSearchPNFTFrozen is searchAssets {interface ProgrammableNFT, frozen
// true}.
func pgSearchPNFTFrozen() pgList {
	return pgPaged("asset", `asset.specification_asset_class = 'PROGRAMMABLE_NFT' AND asset.frozen = true AND `+pgSearchDefaults, nil, nil, 0)
}

// pgSearchInterface is searchAssets {interface}, of the given asset class.
func pgSearchInterface(class string) pgList {
	return pgPaged("asset", `asset.specification_asset_class = $1 AND `+pgSearchDefaults, []any{class}, nil, 0)
}

// pgOwnerFungible is getAssetsByOwner with showFungible: the owner's
// assets and the fungibles of its token accounts with a balance.
func pgOwnerFungible(owner solana.Pubkey) pgList {
	fungible := `(asset.specification_asset_class = 'FUNGIBLE_ASSET' OR asset.specification_asset_class = 'FUNGIBLE_TOKEN')`
	return pgPaged("asset LEFT JOIN token_accounts ON token_accounts.mint = asset.id",
		`asset.supply > 0 AND (asset.owner = $1 OR (`+fungible+` AND token_accounts.owner = $1 AND token_accounts.amount > 0))`,
		[]any{owner[:]}, nil, 0)
}

// pgSearchGroupTotal is searchAssets {grouping} with showGrandTotal: the
// page, then the count of the same condition.
func pgSearchGroupTotal(col solana.Pubkey) pgList {
	from := pgJoinGrouping
	where := pgSearchDefaults + ` AND (asset_grouping.group_key = $1 AND asset_grouping.group_value = $2)`
	l := pgPaged(from, where, []any{"collection", base58.Encode(col[:])}, nil, 0)
	l.count = "SELECT count(*) FROM " + from + " WHERE " + where
	return l
}

// run answers the request and returns the page's ids in order, each once
// (a join can yield an asset per matching row; the reference keeps the
// first), and the count when the request has one.
func (l pgList) run(ctx context.Context, c *pgx.Conn) ([]solana.Pubkey, int64, error) {
	first, err := pgRows(ctx, c, l.page, l.args...)
	if err != nil {
		return nil, 0, err
	}
	seen := make(map[solana.Pubkey]bool, len(first))
	ids := make([]solana.Pubkey, 0, len(first))
	args := make([]any, 0, len(first))
	for _, v := range first {
		b, ok := v.([]byte)
		if !ok || len(b) != 32 {
			return nil, 0, fmt.Errorf("asset id %v", v)
		}
		id := solana.Pubkey(b)
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
			args = append(args, b)
		}
	}
	if len(ids) > 0 {
		q := newPGBatchSQL(len(ids))
		for _, s := range []string{q.data, q.creators, q.authorities, q.groups} {
			if _, err := pgRows(ctx, c, s, args...); err != nil {
				return nil, 0, err
			}
		}
	}
	var n int64
	if l.count != "" {
		if err := c.QueryRow(ctx, l.count, l.args...).Scan(&n); err != nil {
			return nil, 0, err
		}
		if n < int64(len(ids)) {
			return nil, 0, fmt.Errorf("count %d for a page of %d", n, len(ids))
		}
	}
	return ids, n, nil
}
