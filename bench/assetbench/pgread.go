package assetbench

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/dasch-labs/dasch/chain/solana"
)

// The reference's reads for getAsset (digital_asset_types dao/scopes
// asset.rs, get_by_id, default display options): the asset joined to its
// data by primary key, then its authorities, creators and verified
// groups by asset_id. Every column is read, as its models are.
const (
	pgAssetByID = `SELECT a.*, d.* FROM asset a LEFT JOIN asset_data d ON a.asset_data = d.id WHERE a.id = $1 LIMIT 1`
	pgAuthByID  = `SELECT * FROM asset_authority WHERE asset_id = $1 ORDER BY asset_id`
	pgCreByID   = `SELECT * FROM asset_creators WHERE asset_id = $1 ORDER BY position`
	pgGroupByID = `SELECT * FROM asset_grouping WHERE asset_id = $1 AND group_value IS NOT NULL
		AND (verified = true OR verified IS NULL) ORDER BY asset_id`
)

// pgBatchSQL is the reference's reads for getAssetBatch of n ids
// (get_assets, then get_related_for_assets): the assets with supply by id,
// their data, then creators, authorities and verified groups by asset_id,
// each an IN list of the ids.
type pgBatchSQL struct {
	assets, data, creators, authorities, groups string
}

func newPGBatchSQL(n int) pgBatchSQL {
	ph := make([]string, n)
	for i := range ph {
		ph[i] = "$" + strconv.Itoa(i+1)
	}
	in := "(" + strings.Join(ph, ", ") + ")"
	return pgBatchSQL{
		assets:      `SELECT * FROM asset WHERE id IN ` + in + ` AND supply > 0 ORDER BY id LIMIT ` + strconv.Itoa(n),
		data:        `SELECT * FROM asset_data WHERE id IN ` + in,
		creators:    `SELECT * FROM asset_creators WHERE asset_id IN ` + in + ` ORDER BY asset_id, position`,
		authorities: `SELECT * FROM asset_authority WHERE asset_id IN ` + in + ` ORDER BY asset_id`,
		groups: `SELECT * FROM asset_grouping WHERE asset_id IN ` + in +
			` AND group_value IS NOT NULL AND (verified = true OR verified IS NULL) ORDER BY asset_id`,
	}
}

// pgRows runs q and decodes every column of every row into Go values, as
// the reference's models decode them (jsonb parsed, numerics, enums); it
// returns the rows' first columns.
func pgRows(ctx context.Context, c *pgx.Conn, q string, args ...any) ([]any, error) {
	rows, err := c.Query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var first []any
	for rows.Next() {
		v, err := rows.Values()
		if err != nil {
			return nil, err
		}
		first = append(first, v[0])
	}
	return first, rows.Err()
}

// pgGetAsset reads one asset the way the reference's getAsset does; with
// verify, the asset and its data must be there.
func pgGetAsset(ctx context.Context, c *pgx.Conn, id solana.Pubkey, verify bool) error {
	got, err := pgRows(ctx, c, pgAssetByID, id[:])
	if err != nil {
		return fmt.Errorf("postgres getAsset %s: %w", id, err)
	}
	if len(got) == 0 {
		return fmt.Errorf("postgres getAsset %s: not found", id)
	}
	for _, q := range []string{pgAuthByID, pgCreByID, pgGroupByID} {
		if _, err := pgRows(ctx, c, q, id[:]); err != nil {
			return fmt.Errorf("postgres getAsset %s: %w", id, err)
		}
	}
	if verify {
		if k, ok := got[0].([]byte); !ok || string(k) != string(id[:]) {
			return fmt.Errorf("postgres getAsset %s: answered %v", id, got[0])
		}
	}
	return nil
}

// pgGetAssetBatch reads ids the way the reference's getAssetBatch does;
// with verify, every distinct id must be answered.
func pgGetAssetBatch(ctx context.Context, c *pgx.Conn, q pgBatchSQL, ids []solana.Pubkey, verify bool) error {
	args := make([]any, len(ids))
	for i := range ids {
		args[i] = ids[i][:]
	}
	got, err := pgRows(ctx, c, q.assets, args...)
	if err != nil {
		return fmt.Errorf("postgres getAssetBatch: %w", err)
	}
	for _, s := range []string{q.data, q.creators, q.authorities, q.groups} {
		if _, err := pgRows(ctx, c, s, args...); err != nil {
			return fmt.Errorf("postgres getAssetBatch: %w", err)
		}
	}
	if verify {
		distinct := map[solana.Pubkey]bool{}
		for _, id := range ids {
			distinct[id] = true
		}
		if len(got) != len(distinct) {
			return fmt.Errorf("postgres getAssetBatch: %d assets for %d distinct ids", len(got), len(distinct))
		}
	}
	return nil
}

// pgPath answers a draw's requests from the reference.
func pgPath(c *pgx.Conn, q pgBatchSQL, d draw) request {
	return func(ctx context.Context, i int, verify bool) error {
		ids := d.ids(i)
		if d.size == 1 {
			return pgGetAsset(ctx, c, ids[0], verify)
		}
		return pgGetAssetBatch(ctx, c, q, ids, verify)
	}
}
