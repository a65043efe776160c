// Package assetrows reads the stored state behind digital assets: for a
// set of keys, the newest write of every account filed under each (an
// asset id, or an address such as an edition PDA) and every Bubblegum
// event of each compressed asset, in one statement. It returns the rows as
// asset.State; package asset renders them.
package assetrows
