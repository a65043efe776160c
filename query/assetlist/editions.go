package assetlist

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/store"
)

// Master is a master edition's counts; MaxSupply is nil for unlimited.
type Master struct {
	Supply    uint64
	MaxSupply *uint64
}

// Edition is one print edition of a master.
type Edition struct {
	Address, Mint solana.Pubkey
	Number        uint64
}

// ErrNoMaster is a mint without a stored master edition.
var ErrNoMaster = errors.New("Master Edition not found")

// MasterOf reads mint's master edition counts from its folded state.
func MasterOf(ctx context.Context, s store.Querier, mint solana.Pubkey) (Master, error) {
	res, err := s.Query(ctx, `SELECT print_supply, print_max_supply FROM asset_state FINAL
		WHERE id = {mint:FixedString(32)} SETTINGS max_threads = 1`, store.Params{"mint": string(mint[:])})
	if err != nil {
		return Master{}, fmt.Errorf("read master edition: %w", err)
	}
	if len(res.Rows) == 0 {
		return Master{}, ErrNoMaster
	}
	r := res.Row(0)
	supply, ok := r.OptU64(0)
	if !ok {
		return Master{}, ErrNoMaster
	}
	m := Master{Supply: supply}
	if max, ok := r.OptU64(1); ok {
		m.MaxSupply = &max
	}
	return m, r.Err()
}

// Editions returns one page of the prints of master edition address
// master, in edition number order; before and after compare edition
// addresses, as the reference's do, and a cursor resumes past its
// edition.
func Editions(ctx context.Context, s store.Querier, master solana.Pubkey, p Page) ([]Edition, error) {
	if p.Limit <= 0 {
		return nil, nil
	}
	var ps params
	m := ps.key(master)
	where := []string{"master = " + m}
	if p.Before != nil {
		where = append(where, "edition < "+ps.key(*p.Before))
	}
	if p.After != nil {
		where = append(where, "edition > "+ps.key(*p.After))
	}
	if p.Cursor != nil {
		// Past the cursor's edition in (number, edition) order.
		c := ps.key(*p.Cursor)
		n := "(SELECT any(number) FROM asset_editions FINAL WHERE master = " + m + " AND edition = " + c + ")"
		where = append(where, "(number > "+n+" OR (number = "+n+" AND edition > "+c+"))")
	}
	sql := "SELECT edition, mint, number FROM asset_editions FINAL WHERE " + strings.Join(where, " AND ") +
		" ORDER BY number, edition LIMIT " + strconv.Itoa(p.Limit)
	if p.Page > 1 {
		sql += " OFFSET " + strconv.Itoa((p.Page-1)*p.Limit)
	}
	res, err := s.Query(ctx, sql, ps.p)
	if err != nil {
		return nil, fmt.Errorf("list editions: %w", err)
	}
	out := make([]Edition, 0, len(res.Rows))
	for i := range res.Rows {
		r := res.Row(i)
		e := Edition{Address: solana.Pubkey(r.Key(0)), Mint: solana.Pubkey(r.Key(1)), Number: r.U64(2)}
		if err := r.Err(); err != nil {
			return nil, fmt.Errorf("list editions: %w", err)
		}
		out = append(out, e)
	}
	return out, nil
}
