package assetbench

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/goccy/go-json"
	"github.com/jackc/pgx/v5"

	"github.com/dasch-labs/dasch/asset"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/chain/token"
	"github.com/dasch-labs/dasch/internal/parallel"
	"github.com/dasch-labs/dasch/query/assetrows"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// PGFigures is the reference's load.
type PGFigures struct {
	// Rows are the rows COPYed over every table.
	Rows int64
	// Load is the COPY, Index the keys, indexes and VACUUM ANALYZE after it.
	Load, Index time.Duration
	DiskBytes   int64
}

// pgChunk is the assets turned into rows together.
const pgChunk = 1_000

// Columns of each table's COPY, in the order pgRows fills them.
var (
	pgAssetCols = []string{"id", "specification_version", "specification_asset_class", "owner", "owner_type",
		"delegate", "frozen", "supply", "supply_mint", "compressed", "compressible", "seq", "tree_id", "leaf", "nonce",
		"royalty_target_type", "royalty_target", "royalty_amount", "asset_data", "burnt", "slot_updated",
		"data_hash", "creator_hash", "leaf_seq", "slot_updated_metadata_account", "slot_updated_token_account",
		"slot_updated_mint_account", "slot_updated_cnft_transaction", "mint_extensions", "mpl_core_plugins",
		"mpl_core_unknown_plugins", "mpl_core_collection_num_minted", "mpl_core_collection_current_size",
		"mpl_core_plugins_json_version", "mpl_core_external_plugins", "mpl_core_unknown_external_plugins",
		"collection_hash", "asset_data_hash", "bubblegum_flags", "non_transferable"}
	pgDataCols = []string{"id", "chain_data_mutability", "chain_data", "metadata_url", "metadata_mutability",
		"metadata", "slot_updated", "reindex", "raw_name", "raw_symbol"}
	pgGroupCols     = []string{"id", "asset_id", "group_key", "group_value", "seq", "slot_updated", "verified"}
	pgAuthorityCols = []string{"id", "asset_id", "scopes", "authority", "seq", "slot_updated"}
	pgCreatorCols   = []string{"id", "asset_id", "creator", "share", "verified", "seq", "slot_updated", "position"}
	pgTokenCols     = []string{"mint", "supply", "decimals", "token_program", "mint_authority", "freeze_authority",
		"close_authority", "slot_updated"}
	pgTokenAccountCols = []string{"pubkey", "mint", "amount", "owner", "frozen", "close_authority", "delegate",
		"delegated_amount", "slot_updated", "token_program"}
)

// pgTables' rows of one chunk of assets.
type pgBatch struct {
	asset, data, group, authority, creator, tokens, accounts [][]any
}

func (b *pgBatch) jobs() []pgCopy {
	return []pgCopy{{"asset", pgAssetCols, b.asset}, {"asset_data", pgDataCols, b.data},
		{"asset_grouping", pgGroupCols, b.group}, {"asset_authority", pgAuthorityCols, b.authority},
		{"asset_creators", pgCreatorCols, b.creator}, {"tokens", pgTokenCols, b.tokens},
		{"token_accounts", pgTokenAccountCols, b.accounts}}
}

type pgCopy struct {
	table string
	cols  []string
	rows  [][]any
}

// pgIDs numbers the rows of the tables keyed by a bigserial.
type pgIDs struct{ group, authority, creator int64 }

// loadPostgres creates the reference's tables and COPYs the same assets
// into them over par connections: the asset tables from the documents
// dasch folded, each field in the reference's column for it, the token
// tables from the generated accounts. Only the
// COPY is timed into Load; keys, indexes and statistics into Index.
func loadPostgres(ctx context.Context, dsn string, s arrowstore.Store, p *Plan, par int) (PGFigures, error) {
	var fig PGFigures
	conns, closeConns, err := pgConnect(ctx, dsn, max(1, par), false)
	if err != nil {
		return fig, err
	}
	defer closeConns()
	for _, q := range pgSchema() {
		if _, err := conns[0].Exec(ctx, q); err != nil {
			return fig, fmt.Errorf("postgres schema: %w", err)
		}
	}
	for _, c := range conns {
		if err := pgRegisterEnums(ctx, c); err != nil {
			return fig, err
		}
	}
	var ids pgIDs
	opts := asset.Options{ShowFungible: true, ShowUnverifiedCollections: true}
	for lo := 0; lo < p.Assets(); lo += pgChunk {
		hi := min(p.Assets(), lo+pgChunk)
		keys := make([]solana.Pubkey, hi-lo)
		for i := range keys {
			keys[i] = p.ID(lo + i)
		}
		res, err := assetrows.FoldedAssets(ctx, s, keys, opts)
		if err != nil {
			return fig, fmt.Errorf("postgres rows: %w", err)
		}
		var b pgBatch
		for i, r := range res {
			if r.Err != nil {
				return fig, fmt.Errorf("postgres rows: asset %s: %w", keys[i], r.Err)
			}
			a, err := r.Decoded()
			if err != nil {
				return fig, fmt.Errorf("postgres rows: asset %s: %w", keys[i], err)
			}
			if err := b.addAsset(a, slot(lo+i), &ids); err != nil {
				return fig, fmt.Errorf("postgres rows: asset %s: %w", keys[i], err)
			}
			accs, err := p.Accounts(lo+i, nil)
			if err != nil {
				return fig, err
			}
			if err := b.addTokens(accs); err != nil {
				return fig, fmt.Errorf("postgres rows: asset %s: %w", keys[i], err)
			}
		}
		start := time.Now()
		if err := pgCopyAll(ctx, conns, b.jobs()); err != nil {
			return fig, err
		}
		fig.Load += time.Since(start)
		for _, j := range b.jobs() {
			fig.Rows += int64(len(j.rows))
		}
	}
	start := time.Now()
	for _, q := range pgIndexes() {
		if _, err := conns[0].Exec(ctx, q); err != nil {
			return fig, fmt.Errorf("postgres %q: %w", q, err)
		}
	}
	fig.Index = time.Since(start)
	sum := "SELECT 0::bigint"
	for _, t := range pgTables {
		sum += " + pg_total_relation_size('" + t + "')"
	}
	if err := conns[0].QueryRow(ctx, sum).Scan(&fig.DiskBytes); err != nil {
		return fig, fmt.Errorf("postgres size: %w", err)
	}
	return fig, nil
}

// pgConnect opens n connections; with enums, each knows the reference's
// enum types (pgRegisterEnums), which must exist by then.
func pgConnect(ctx context.Context, dsn string, n int, enums bool) ([]*pgx.Conn, func(), error) {
	conns := make([]*pgx.Conn, 0, n)
	closeAll := func() {
		for _, c := range conns {
			c.Close(context.WithoutCancel(ctx))
		}
	}
	for range n {
		c, err := pgx.Connect(ctx, dsn)
		if err != nil {
			closeAll()
			return nil, nil, fmt.Errorf("postgres: %w", err)
		}
		conns = append(conns, c)
		if enums {
			if err := pgRegisterEnums(ctx, c); err != nil {
				closeAll()
				return nil, nil, err
			}
		}
	}
	return conns, closeAll, nil
}

// pgRegisterEnums teaches a connection the reference's enum types, which
// binary COPY and typed reads need.
func pgRegisterEnums(ctx context.Context, c *pgx.Conn) error {
	types, err := c.LoadTypes(ctx, pgEnums)
	if err != nil {
		return fmt.Errorf("postgres enum types: %w", err)
	}
	c.TypeMap().RegisterTypes(types)
	return nil
}

// pgCopyAll runs the COPYs, one per connection at a time.
func pgCopyAll(ctx context.Context, conns []*pgx.Conn, jobs []pgCopy) error {
	return parallel.Run(jobs, len(conns), func(w int, j pgCopy) error {
		if len(j.rows) == 0 {
			return nil
		}
		n, err := conns[w].CopyFrom(ctx, pgx.Identifier{j.table}, j.cols, pgx.CopyFromRows(j.rows))
		if err == nil && n != int64(len(j.rows)) {
			err = fmt.Errorf("copied %d rows of %d", n, len(j.rows))
		}
		if err != nil {
			return fmt.Errorf("copy into %s: %w", j.table, err)
		}
		return nil
	})
}

// assetClass is the reference's specification_asset_class of an interface.
func assetClass(iface string) string {
	switch iface {
	case asset.InterfaceV1NFT, asset.InterfaceLegacyNFT, asset.InterfaceV2NFT, asset.InterfaceMplBubblegumV2:
		return "NFT"
	case asset.InterfaceProgrammableNFT:
		return "PROGRAMMABLE_NFT"
	case asset.InterfaceV1Print:
		return "PRINT"
	case asset.InterfaceFungibleToken:
		return "FUNGIBLE_TOKEN"
	case asset.InterfaceFungibleAsset:
		return "FUNGIBLE_ASSET"
	case asset.InterfaceMplCoreAsset:
		return "MPL_CORE_ASSET"
	case asset.InterfaceMplCoreCollection:
		return "MPL_CORE_COLLECTION"
	case asset.InterfaceIdentity:
		return "IDENTITY_NFT"
	}
	return "unknown"
}

// addAsset adds the rows of a rendered asset written at slot.
func (b *pgBatch) addAsset(a *asset.Asset, slot uint64, ids *pgIDs) error {
	if a == nil {
		return errors.New("no document")
	}
	id, err := keyBytes(a.ID)
	if err != nil {
		return err
	}
	sl := int64(slot)
	c := a.Compression
	var tree, leaf, seq, nonce, dataHash, creatorHash, leafSeq, cnftSlot any
	if c.Compressed {
		if tree, err = keyBytes(c.Tree); err != nil {
			return err
		}
		if leaf, err = keyBytes(c.AssetHash); err != nil {
			return err
		}
		seq, nonce, leafSeq, cnftSlot = int64(c.Seq), int64(c.LeafID), int64(c.Seq), sl
		dataHash, creatorHash = c.DataHash, c.CreatorHash
	}
	var owner, delegate, supplyMint, royaltyTarget, metaSlot, mintSlot, tokenSlot any
	if a.Ownership.Owner != "" {
		if owner, err = keyBytes(a.Ownership.Owner); err != nil {
			return err
		}
	}
	if a.Ownership.Delegate != nil {
		if delegate, err = keyBytes(*a.Ownership.Delegate); err != nil {
			return err
		}
	}
	if a.Royalty.Target != nil {
		if royaltyTarget, err = keyBytes(*a.Royalty.Target); err != nil {
			return err
		}
	}
	supply := uint64(1)
	isToken := !c.Compressed && a.Interface != asset.InterfaceMplCoreAsset && a.Interface != asset.InterfaceMplCoreCollection
	if isToken {
		supplyMint, metaSlot, mintSlot = id, sl, sl
		if a.Ownership.OwnershipModel == asset.OwnershipSingle {
			tokenSlot = sl
		}
	}
	if a.TokenInfo != nil {
		supply = a.TokenInfo.Supply
	}
	if a.Burnt {
		supply = 0
	}
	var numMinted, currentSize, jsonVersion any
	if m := a.MplCoreInfo; m != nil {
		jsonVersion = int32(m.PluginsJSONVersion)
		if m.NumMinted != nil {
			numMinted = int32(*m.NumMinted)
		}
		if m.CurrentSize != nil {
			currentSize = int32(*m.CurrentSize)
		}
	}
	var flags any
	if c.Flags != nil {
		flags = int16(*c.Flags)
	}
	var nonTransferable any
	if a.Ownership.NonTransferable != nil {
		nonTransferable = *a.Ownership.NonTransferable
	}
	b.asset = append(b.asset, []any{id, "v1", assetClass(a.Interface), owner, ownerType(a.Ownership.OwnershipModel),
		delegate, a.Ownership.Frozen, supply, supplyMint, c.Compressed, c.Eligible, seq, tree, leaf, nonce,
		royaltyModel(a.Royalty.RoyaltyModel), royaltyTarget, int32(a.Royalty.BasisPoints), id, a.Burnt, sl,
		dataHash, creatorHash, leafSeq, metaSlot, tokenSlot, mintSlot, cnftSlot,
		jsonOrNil(a.MintExtensions), jsonOrNil(a.Plugins), jsonOrNil(a.UnknownPlugins), numMinted, currentSize, jsonVersion,
		jsonOrNil(a.ExternalPlugins), jsonOrNil(a.UnknownExternalPlugins),
		strOrNil(c.CollectionHash), strOrNil(c.AssetDataHash), flags, nonTransferable})

	var name, symbol, uri string
	var standard *string
	if a.Content != nil {
		name, symbol, uri, standard = a.Content.Metadata.Name, a.Content.Metadata.Symbol, a.Content.JSONURI, a.Content.Metadata.TokenStandard
	}
	var editionNonce *uint8
	if a.Supply != nil {
		editionNonce = a.Supply.EditionNonce
	}
	// The reference's chain_data (ChainDataV1); metadata is the off-chain
	// JSON, fetched by neither indexer here.
	chain, err := json.Marshal(map[string]any{"name": name, "symbol": symbol, "edition_nonce": editionNonce,
		"primary_sale_happened": a.Royalty.PrimarySaleHappened, "token_standard": standard, "uses": a.Uses})
	if err != nil {
		return err
	}
	mut := "immutable"
	if a.Mutable {
		mut = "mutable"
	}
	b.data = append(b.data, []any{id, mut, chain, uri, mut, []byte(`{}`), sl, false,
		[]byte(name), []byte(symbol)})

	for _, g := range a.Grouping {
		ids.group++
		verified := g.Verified == nil || *g.Verified
		b.group = append(b.group, []any{ids.group, id, g.GroupKey, strOrNil(g.GroupValue), int64(0), sl, verified})
	}
	// One authority per asset: the reference's key on asset_id.
	if len(a.Authorities) > 0 {
		au, err := keyBytes(a.Authorities[0].Address)
		if err != nil {
			return err
		}
		ids.authority++
		b.authority = append(b.authority, []any{ids.authority, id, a.Authorities[0].Scopes, au, int64(0), sl})
	}
	for pos, cr := range a.Creators {
		k, err := keyBytes(cr.Address)
		if err != nil {
			return err
		}
		ids.creator++
		b.creator = append(b.creator, []any{ids.creator, id, k, int32(cr.Share), cr.Verified, int64(0), sl, int16(pos)})
	}
	return nil
}

// addTokens adds the mints and token accounts among an asset's accounts.
func (b *pgBatch) addTokens(accs []solana.Account) error {
	for i := range accs {
		a := &accs[i]
		if a.Owner != tokenProgram && a.Owner != token2022Program {
			continue
		}
		if ta, err := token.DecodeTokenAccount(a.Owner, a.Data); err == nil {
			b.accounts = append(b.accounts, []any{a.Pubkey[:], ta.Mint[:], int64(ta.Amount), ta.Owner[:],
				ta.State == token.StateFrozen, optKey(ta.CloseAuthority), optKey(ta.Delegate),
				int64(ta.DelegatedAmount), int64(a.Slot), a.Owner[:]})
			continue
		}
		m, err := token.DecodeMint(a.Owner, a.Data)
		if err != nil {
			return fmt.Errorf("token account %s: neither a mint nor a token account: %w", a.Pubkey, err)
		}
		b.tokens = append(b.tokens, []any{a.Pubkey[:], m.Supply, int32(m.Decimals), a.Owner[:],
			optKey(m.MintAuthority), optKey(m.FreezeAuthority), optKey(m.MintCloseAuthority), int64(a.Slot)})
	}
	return nil
}

func keyBytes(s string) ([]byte, error) {
	k, err := solana.ParsePubkey(s)
	if err != nil {
		return nil, err
	}
	return k[:], nil
}

func optKey(k *solana.Pubkey) any {
	if k == nil {
		return nil
	}
	return k[:]
}

func strOrNil(s *string) any {
	if s == nil {
		return nil
	}
	return *s
}

func jsonOrNil(m []byte) any {
	if len(m) == 0 {
		return nil
	}
	return []byte(m) // raw JSON: pgx passes a byte slice to jsonb as it is
}

func ownerType(model string) string {
	if model == asset.OwnershipToken {
		return "token"
	}
	return "single"
}

func royaltyModel(m string) string {
	switch m {
	case "creators", "fanout", "single":
		return m
	}
	return "unknown"
}
