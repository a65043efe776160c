package das

// listParams holds every member a list method takes; each method names
// the ones it accepts, in its positional order, in its fields list.
type listParams struct {
	OwnerAddress     *string   `json:"ownerAddress"`
	GroupKey         *string   `json:"groupKey"`
	GroupValue       *string   `json:"groupValue"`
	CreatorAddress   *string   `json:"creatorAddress"`
	OnlyVerified     *bool     `json:"onlyVerified"`
	AuthorityAddress *string   `json:"authorityAddress"`
	SortBy           *sorting  `json:"sortBy"`
	Limit            *uint32   `json:"limit"`
	Page             *uint32   `json:"page"`
	Before           *string   `json:"before"`
	After            *string   `json:"after"`
	Cursor           *string   `json:"cursor"`
	Options          *Options  `json:"options"`
	DisplayOptions   *Options  `json:"displayOptions"`
	Negate           *bool     `json:"negate"`
	ConditionType    *string   `json:"conditionType"`
	Interface        *string   `json:"interface"`
	OwnerType        *string   `json:"ownerType"`
	CreatorVerified  *bool     `json:"creatorVerified"`
	Grouping         *[]string `json:"grouping"`
	Delegate         *string   `json:"delegate"`
	Frozen           *bool     `json:"frozen"`
	Supply           *uint64   `json:"supply"`
	SupplyMint       *string   `json:"supplyMint"`
	Compressed       *bool     `json:"compressed"`
	Compressible     *bool     `json:"compressible"`
	RoyaltyModel     *string   `json:"royaltyTargetType"`
	RoyaltyTarget    *string   `json:"royaltyTarget"`
	RoyaltyAmount    *uint32   `json:"royaltyAmount"`
	Burnt            *bool     `json:"burnt"`
	JSONURI          *string   `json:"jsonUri"`
	Name             *string   `json:"name"`
	TokenType        *string   `json:"tokenType"`
	TokenTypeSnake   *string   `json:"token_type"`
	Tree             *string   `json:"tree"`
	DelegateAddress  *string   `json:"delegateAddress"`
	IsAgent          *bool     `json:"isAgent"`
	AgentToken       *string   `json:"agentToken"`
	AssetSigner      *string   `json:"assetSigner"`
}

// pageFields are the pagination members, in the reference's order after
// the method's own (sortBy first).
var pageFields = []string{"sortBy", "limit", "page", "before", "after", "options", "cursor"}

// listFields is a method's own members followed by the pagination ones
// and the options alias.
func listFields(own ...string) []string {
	out := append(append([]string{}, own...), pageFields...)
	return append(out, "displayOptions")
}

func (p *listParams) paging() paging {
	return paging{Limit: p.Limit, Page: p.Page, Before: p.Before, After: p.After, Cursor: p.Cursor}
}

func (p *listParams) options() Options { return allOptions(p.Options, p.DisplayOptions) }
