package asset

// Folded is the display options an asset is rendered with when its state
// is folded ahead of any request: every optional member shown, so that
// View can derive the answer for any options without the accounts.
var Folded = Options{
	ShowUnverifiedCollections: true,
	ShowCollectionMetadata:    true,
	ShowFungible:              true,
	ShowInscription:           true,
}

// View returns the asset as Render gives it with opts, from a it rendered
// with Folded. It does not modify a: a folded asset may be shared.
func View(a *Asset, opts Options) *Asset {
	v := *a
	if !opts.ShowUnverifiedCollections || !opts.ShowCollectionMetadata {
		v.Grouping = make([]Group, 0, len(a.Grouping))
		for _, g := range a.Grouping {
			if !opts.ShowUnverifiedCollections {
				// Folded shows verified on every group; without the option
				// unverified groups are left out and the flag is not shown.
				if g.Verified != nil && !*g.Verified {
					continue
				}
				g.Verified = nil
			}
			if !opts.ShowCollectionMetadata {
				g.CollectionMetadata = nil
			}
			v.Grouping = append(v.Grouping, g)
		}
	}
	if !opts.ShowFungible {
		v.TokenInfo = nil
	}
	if !opts.ShowInscription {
		v.Inscription = nil
	}
	return &v
}
