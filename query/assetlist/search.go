package assetlist

import (
	"errors"
	"strconv"
	"strings"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/schema"
)

// Token types of searchAssets, in the reference's spelling; Helius's
// spellings map onto them (and TokenRegularNFT, TokenAnyNFT are Helius's
// regularNft and nonFungible).
const (
	TokenFungible    = "Fungible"
	TokenNonFungible = "NonFungible"
	TokenCompressed  = "Compressed"
	TokenNFT         = "Nft"
	TokenAll         = "All"
	// TokenAnyNFT is every NFT, compressed or not (Helius's nonFungible).
	TokenAnyNFT = "anyNft"
)

// nftInterfaces are the interfaces the reference counts as NFTs.
var nftInterfaces = []string{"V1_NFT", "LEGACY_NFT", "ProgrammableNFT", "V1_PRINT",
	"MplCoreAsset", "MplCoreCollection", "MplBubblegumV2"}

var fungibleInterfaces = []string{"FungibleToken", "FungibleAsset"}

// Query is a searchAssets request's conditions; nil members are not
// conditions.
type Query struct {
	Negate                                  bool
	Any                                     bool // conditionType any
	Interface                               *string
	Owner                                   *solana.Pubkey
	OwnerType                               *string // single | token
	Creator                                 *solana.Pubkey
	CreatorVerified                         *bool
	Authority                               *solana.Pubkey
	Grouping                                *[2]string
	Delegate                                *solana.Pubkey
	Frozen, Compressed, Compressible, Burnt *bool
	Supply                                  *uint64
	SupplyMint                              *solana.Pubkey
	RoyaltyModel                            *string // creators | fanout | single
	RoyaltyTarget                           *solana.Pubkey
	RoyaltyAmount                           *uint32
	JSONURI, Name                           *string
	TokenType                               *string // a Token* constant
	Tree                                    *solana.Pubkey
	IsAgent                                 *bool
	AgentToken, AssetSigner                 *solana.Pubkey
}

// Errors of a search the reference refuses, with its texts.
var (
	ErrOwnerTypeWithTokenType = errors.New("`ownerType` is not supported when using `tokenType` field")
	ErrTokenTypeNeedsOwner    = errors.New("Must provide `ownerAddress` when using `tokenType` field")
	ErrInterfaceWithTokenType = errors.New("`interface` is not supported when using `tokenType` field")
	ErrNameNeedsOwner         = errors.New("Owner address must be provided in order to search assets by name")
)

// Search is the assets matching q, with the reference's semantics: each
// member is one condition, all of them required (or any one, with Any),
// the whole negated with Negate; the reference's defaults are conditions
// of the same set: supply not 0 unless burnt (when Supply is not given),
// and, without OwnerType, single-owner assets of supply at most 1 unless
// TokenType asks for fungibles or all.
func Search(q Query) (Scope, error) {
	if q.TokenType != nil {
		switch {
		case q.OwnerType != nil:
			return Scope{}, ErrOwnerTypeWithTokenType
		case q.Owner == nil:
			return Scope{}, ErrTokenTypeNeedsOwner
		case q.Interface != nil:
			return Scope{}, ErrInterfaceWithTokenType
		}
	}
	if q.Name != nil && q.Owner == nil {
		return Scope{}, ErrNameNeedsOwner
	}
	var ps params
	var conds []string
	add := func(c string) { conds = append(conds, c) }
	// Conditions on a listing key: the first one of a search whose
	// conditions are all required drives the read (see below).
	var keys []struct{ on, in string }
	keyed := func(path string, key *solana.Pubkey, verified *bool) string {
		c := "path = " + ps.add("String", path)
		if key != nil {
			c += " AND key = " + ps.key(*key)
		}
		if verified != nil {
			c += " AND verified = " + strconv.FormatBool(*verified)
		}
		in := "id IN (SELECT id FROM " + schema.TableAssetKeys + " FINAL WHERE " + c + ")"
		keys = append(keys, struct{ on, in string }{c, in})
		return in
	}
	flag := func(col string, v *bool) {
		if v != nil {
			add(col + " = " + strconv.FormatBool(*v))
		}
	}
	tokenType := ""
	if q.TokenType != nil {
		tokenType = *q.TokenType
	}
	if q.Interface != nil {
		add("interface = " + ps.add("String", *q.Interface))
	}
	switch tokenType {
	case "":
	case TokenCompressed:
		add("compressed")
	case TokenNFT, TokenNonFungible:
		add("NOT compressed AND interface IN " + list(&ps, nftInterfaces))
	case TokenAnyNFT:
		add("interface IN " + list(&ps, nftInterfaces))
	case TokenFungible:
		add("interface IN " + list(&ps, fungibleInterfaces))
	case TokenAll:
		add("interface != ''")
	default:
		return Scope{}, errors.New("unknown token type " + strconv.Quote(tokenType))
	}
	// required: every condition must hold, so a key may drive the read.
	required := !q.Any && !q.Negate
	// held is the owner's condition when it holds fungibles through
	// token accounts, kept apart while a key may still drive the read.
	held := ""
	if q.Owner != nil {
		own := "owner = " + ps.key(*q.Owner)
		if tokenType == TokenFungible || tokenType == TokenAll {
			// The mints of the owner's open token accounts: a range of
			// asset_token_owners.
			held = heldMints(&ps, *q.Owner, true, false)
			own = "(" + own + " OR id IN (" + held + "))"
		}
		if held == "" || !required {
			add(own)
		}
	}
	if q.Delegate != nil {
		add("delegate = " + ps.key(*q.Delegate))
	}
	flag("frozen", q.Frozen)
	if q.SupplyMint != nil {
		add("supply_mint = " + ps.key(*q.SupplyMint))
		if required {
			// An asset's supply mint is its own id: one key's read.
			add("id = " + ps.key(*q.SupplyMint))
		}
	}
	flag("compressed", q.Compressed)
	flag("compressible", q.Compressible)
	if q.RoyaltyModel != nil {
		add("royalty_model = " + ps.add("String", *q.RoyaltyModel))
	}
	if q.RoyaltyTarget != nil {
		add("royalty_target = " + ps.key(*q.RoyaltyTarget))
	}
	if q.RoyaltyAmount != nil {
		add("royalty_bps = " + strconv.FormatUint(uint64(*q.RoyaltyAmount), 10))
	}
	flag("burnt", q.Burnt)
	if q.Supply != nil {
		add("supply = " + strconv.FormatUint(*q.Supply, 10))
	} else {
		add("(supply != 0 OR burnt)")
	}
	switch {
	case q.OwnerType != nil:
		add("owner_type = " + ps.add("String", *q.OwnerType))
	case tokenType == TokenFungible:
		add("owner_type = 'token' AND interface IN " + list(&ps, fungibleInterfaces))
	case tokenType == TokenAll:
	default:
		add("owner_type = 'single' AND supply <= 1")
	}
	if q.Creator != nil || q.CreatorVerified != nil {
		add(keyed(schema.AssetPathCreator, q.Creator, q.CreatorVerified))
	}
	if q.Authority != nil {
		add(keyed(schema.AssetPathAuthority, q.Authority, nil))
	}
	if q.Grouping != nil {
		g, err := solana.ParsePubkey(q.Grouping[1])
		if err != nil {
			add("false") // keys are addresses: no asset has this group
		} else {
			add(keyed(schema.AssetPathGroup+q.Grouping[0], &g, nil))
		}
	}
	if q.Tree != nil {
		add("tree = " + ps.key(*q.Tree))
	}
	flag("is_agent", q.IsAgent)
	if q.AgentToken != nil {
		add("agent_token = " + ps.key(*q.AgentToken))
	}
	if q.AssetSigner != nil {
		add("asset_signer = " + ps.key(*q.AssetSigner))
	}
	if q.JSONURI != nil {
		add("json_uri = " + ps.add("String", *q.JSONURI))
	}
	if q.Name != nil {
		add("position(name, " + ps.add("String", *q.Name) + ") > 0")
	}
	// A required owner is a listing key too.
	if q.Owner != nil && required && tokenType != TokenFungible && tokenType != TokenAll {
		conds = append(conds, keyed(schema.AssetPathOwner, q.Owner, nil))
		// The most selective key, most often: it drives (keys[0]).
		last := len(keys) - 1
		keys[0], keys[last] = keys[last], keys[0]
	}
	if held != "" && required {
		if len(keys) == 0 {
			return ownerWithHeld(&ps, *q.Owner, conds), nil
		}
		add("(owner = " + ps.key(*q.Owner) + " OR id IN (" + held + "))")
	}
	if required && len(keys) == 0 {
		// No address: a search key, the narrowest most often first
		// (burnt, then the interface, then frozen).
		zero := ps.key(solana.Pubkey{})
		path := ""
		switch {
		case q.Burnt != nil && *q.Burnt:
			path = schema.AssetPathBurnt
		case q.Interface != nil:
			path = schema.AssetPathInterface + *q.Interface
		case q.Frozen != nil && *q.Frozen:
			path = schema.AssetPathFrozen
		}
		if path != "" {
			keys = append(keys, struct{ on, in string }{"path = " + ps.add("String", path) + " AND key = " + zero, ""})
		}
	}
	if required && len(keys) > 0 {
		// Every listed asset_keys row carries its asset's conditions: read
		// the driving key's range in id order, check the rest in the same
		// read, and stop at the page's end. Listed rows are rendered
		// assets only.
		rest := make([]string, 0, len(conds))
		for _, c := range conds {
			if c != keys[0].in {
				rest = append(rest, c)
			}
		}
		where := keys[0].on
		if len(rest) > 0 {
			where += " AND (" + strings.Join(rest, ") AND (") + ")"
		}
		return Scope{from: schema.TableAssetKeys + " FINAL", where: where, params: ps.p}, nil
	}
	join := " AND "
	if q.Any {
		join = " OR "
	}
	where := "(" + strings.Join(conds, ")"+join+"(") + ")"
	if q.Negate {
		where = "NOT (" + where + ")"
	}
	// Only rendered assets are listed.
	where = "status = '' AND " + where
	return Scope{from: schema.TableAssetState + " FINAL", where: where, params: ps.p, narrow: true}, nil
}

// ownerWithHeld is the assets meeting conds that owner owns, one range
// of its owner key, and those it holds through token accounts without
// owning them, read from asset_state by id: two disjoint parts,
// each read in order up to the page.
func ownerWithHeld(ps *params, owner solana.Pubkey, conds []string) Scope {
	rest := ""
	if len(conds) > 0 {
		rest = " AND (" + strings.Join(conds, ") AND (") + ")"
	}
	o := ps.key(owner)
	return Scope{params: ps.p, parts: []Scope{
		{from: schema.TableAssetKeys + " FINAL", where: "path = " + ps.add("String", schema.AssetPathOwner) + " AND key = " + o + rest},
		{from: schema.TableAssetState + " FINAL", where: "status = '' AND id IN (" + heldMints(ps, owner, true, true) + ") AND owner != " + o + rest,
			narrow: true},
	}}
}

func list(ps *params, vals []string) string {
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = ps.add("String", v)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}
