package das

import (
	"context"
	"errors"
	"strconv"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/query/assetlist"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

var searchAssetsFields = []string{"negate", "conditionType", "interface", "ownerAddress", "ownerType",
	"creatorAddress", "creatorVerified", "authorityAddress", "grouping", "delegate", "frozen",
	"supply", "supplyMint", "compressed", "compressible", "royaltyTargetType", "royaltyTarget",
	"royaltyAmount", "burnt", "sortBy", "limit", "page", "before", "after", "jsonUri", "options",
	"cursor", "name", "tokenType", "displayOptions", "token_type", "tree", "delegateAddress",
	"isAgent", "agentToken", "assetSigner"}

// tokenTypes maps both spellings of tokenType, the reference's and
// Helius's, to the search's token types.
var tokenTypes = map[string]string{
	"Fungible": assetlist.TokenFungible, "NonFungible": assetlist.TokenNonFungible,
	"Compressed": assetlist.TokenCompressed, "Nft": assetlist.TokenNFT, "All": assetlist.TokenAll,
	"fungible": assetlist.TokenFungible, "nonFungible": assetlist.TokenAnyNFT,
	"regularNft": assetlist.TokenNFT, "compressedNft": assetlist.TokenCompressed, "all": assetlist.TokenAll,
}

// interfaces are the interface values searchAssets accepts.
var interfaces = map[string]bool{
	"V1_NFT": true, "V1_PRINT": true, "LEGACY_NFT": true, "V2_NFT": true, "FungibleAsset": true,
	"FungibleToken": true, "Custom": true, "Identity": true, "Executable": true,
	"ProgrammableNFT": true, "MplCoreAsset": true, "MplCoreCollection": true, "MplBubblegumV2": true,
}

// ownershipModels and royaltyModels map the enum spellings to the stored
// values.
var (
	ownershipModels = map[string]string{"single": "single", "token": "token"}
	royaltyModels   = map[string]string{"creators": "creators", "fanout": "fanout", "single": "single"}
)

// searchAssets lists the assets matching any combination of conditions.
func searchAssets(d Deps) jsonrpc.Handler {
	return func(ctx context.Context, c *jsonrpc.Call) (any, error) {
		var p listParams
		if err := decode(c.Params, &p, searchAssetsFields); err != nil {
			return nil, err
		}
		q, err := p.query()
		if err != nil {
			return nil, err
		}
		scope, err := assetlist.Search(q)
		if err != nil {
			if errors.Is(err, assetlist.ErrNameNeedsOwner) {
				return nil, invalidParams("Validation Error: " + err.Error())
			}
			return nil, invalidParams("Database Error: Custom Error: " + err.Error())
		}
		return d.list(ctx, c.Method, listRequest{scope: scope, sort: p.SortBy.sort(), paging: p.paging(), opts: p.options(), wallet: q.Owner})
	}
}

// query checks the search members and builds the search.
func (p *listParams) query() (assetlist.Query, error) {
	q := assetlist.Query{
		Negate: p.Negate != nil && *p.Negate, CreatorVerified: p.CreatorVerified,
		Frozen: p.Frozen, Supply: p.Supply, Compressed: p.Compressed, Compressible: p.Compressible,
		Burnt: p.Burnt, RoyaltyAmount: p.RoyaltyAmount, JSONURI: p.JSONURI, Name: p.Name,
		IsAgent: p.IsAgent,
	}
	delegate := p.Delegate
	if delegate == nil {
		delegate = p.DelegateAddress // the Metaplex client's spelling
	} else if p.DelegateAddress != nil {
		return q, invalidParams("Invalid params: give delegate or delegateAddress, not both")
	}
	if p.ConditionType != nil {
		switch *p.ConditionType {
		case "all":
		case "any":
			q.Any = true
		default:
			return q, invalidParams("Invalid params: conditionType: unknown variant " + quote(*p.ConditionType) + ", expected `all` or `any`")
		}
	}
	if p.Interface != nil {
		if !interfaces[*p.Interface] {
			return q, invalidParams("Invalid params: interface: unknown variant " + quote(*p.Interface))
		}
		q.Interface = p.Interface
	}
	enum := func(name string, v *string, values map[string]string) (*string, error) {
		if v == nil {
			return nil, nil
		}
		s, ok := values[*v]
		if !ok {
			return nil, invalidParams("Invalid params: " + name + ": unknown variant " + quote(*v))
		}
		return &s, nil
	}
	var err error
	if q.OwnerType, err = enum("ownerType", p.OwnerType, ownershipModels); err != nil {
		return q, err
	}
	if q.RoyaltyModel, err = enum("royaltyTargetType", p.RoyaltyModel, royaltyModels); err != nil {
		return q, err
	}
	tt := p.TokenType
	if tt == nil {
		tt = p.TokenTypeSnake
	} else if p.TokenTypeSnake != nil {
		return q, invalidParams("Invalid params: give tokenType or token_type, not both")
	}
	if q.TokenType, err = enum("tokenType", tt, tokenTypes); err != nil {
		return q, err
	}
	for _, a := range []struct {
		s   *string
		dst **solana.Pubkey
	}{
		{p.OwnerAddress, &q.Owner}, {p.CreatorAddress, &q.Creator}, {p.AuthorityAddress, &q.Authority},
		{delegate, &q.Delegate}, {p.SupplyMint, &q.SupplyMint}, {p.RoyaltyTarget, &q.RoyaltyTarget},
		{p.Tree, &q.Tree}, {p.AgentToken, &q.AgentToken}, {p.AssetSigner, &q.AssetSigner},
	} {
		if *a.dst, err = optAddress(a.s); err != nil {
			return q, err
		}
	}
	if p.Grouping != nil {
		g := *p.Grouping
		if len(g) != 2 {
			return q, invalidParams("Invalid params: grouping: expected [groupKey, groupValue], got " + strconv.Itoa(len(g)) + " elements")
		}
		q.Grouping = &[2]string{g[0], g[1]}
	}
	return q, nil
}
