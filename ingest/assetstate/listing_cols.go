package assetstate

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/dasch-labs/dasch/ingest/arrowbatch"
)

// listingCols are the columns of a Listing, which asset_state and every
// listed asset_keys row carry alike: a search reads its conditions in the
// same range as its key.
type listingCols struct {
	owner, delegate, supplyMint, tree *array.FixedSizeBinaryBuilder
	royaltyTarget                     *array.FixedSizeBinaryBuilder
	agentToken, assetSigner           *array.FixedSizeBinaryBuilder
	supply                            *array.Uint64Builder
	iface, ownerType, royaltyModel    *array.StringBuilder
	jsonURI, name                     *array.StringBuilder
	frozen, burnt, compressed, elig   *array.BooleanBuilder
	isAgent                           *array.BooleanBuilder
	royaltyBPS                        *array.Uint32Builder
}

func (c *listingCols) columns(mem memory.Allocator) []arrowbatch.Column {
	key, str, flag := arrowbatch.PubkeyType(), arrow.BinaryTypes.String, arrow.FixedWidthTypes.Boolean
	return []arrowbatch.Column{
		arrowbatch.Col(mem, &c.iface, "interface", str),
		arrowbatch.Col(mem, &c.owner, "owner", key),
		arrowbatch.Col(mem, &c.ownerType, "owner_type", str),
		arrowbatch.NullableCol(mem, &c.delegate, "delegate", key),
		arrowbatch.Col(mem, &c.frozen, "frozen", flag),
		arrowbatch.Col(mem, &c.burnt, "burnt", flag),
		arrowbatch.Col(mem, &c.compressed, "compressed", flag),
		arrowbatch.Col(mem, &c.elig, "compressible", flag),
		arrowbatch.Col(mem, &c.supply, "supply", arrow.PrimitiveTypes.Uint64),
		arrowbatch.NullableCol(mem, &c.supplyMint, "supply_mint", key),
		arrowbatch.NullableCol(mem, &c.tree, "tree", key),
		arrowbatch.Col(mem, &c.royaltyModel, "royalty_model", str),
		arrowbatch.NullableCol(mem, &c.royaltyTarget, "royalty_target", key),
		arrowbatch.Col(mem, &c.royaltyBPS, "royalty_bps", arrow.PrimitiveTypes.Uint32),
		arrowbatch.Col(mem, &c.jsonURI, "json_uri", str),
		arrowbatch.Col(mem, &c.name, "name", str),
		arrowbatch.Col(mem, &c.isAgent, "is_agent", flag),
		arrowbatch.NullableCol(mem, &c.agentToken, "agent_token", key),
		arrowbatch.NullableCol(mem, &c.assetSigner, "asset_signer", key),
	}
}

// append adds l's values; it returns about how many bytes they take.
func (c *listingCols) append(l *Listing) int {
	c.iface.Append(l.Interface)
	c.owner.Append(l.Owner[:])
	c.ownerType.Append(l.OwnerType)
	appendKey(c.delegate, l.Delegate)
	c.frozen.Append(l.Frozen)
	c.burnt.Append(l.Burnt)
	c.compressed.Append(l.Compressed)
	c.elig.Append(l.Compressible)
	c.supply.Append(l.Supply)
	appendKey(c.supplyMint, l.SupplyMint)
	appendKey(c.tree, l.Tree)
	c.royaltyModel.Append(l.RoyaltyModel)
	appendKey(c.royaltyTarget, l.RoyaltyTarget)
	c.royaltyBPS.Append(l.RoyaltyBPS)
	c.jsonURI.Append(l.JSONURI)
	c.name.Append(l.Name)
	c.isAgent.Append(l.IsAgent)
	appendKey(c.agentToken, l.AgentToken)
	appendKey(c.assetSigner, l.AssetSigner)
	return 32*7 + 24 + len(l.Interface) + len(l.OwnerType) + len(l.RoyaltyModel) + len(l.JSONURI) + len(l.Name)
}
