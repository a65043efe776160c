// Package assetstate is the ingest decoder of digital-asset state: it routes
// the accounts behind DAS assets (SPL Token and Token-2022 mints and token
// accounts, Token Metadata accounts, MPL Core accounts, inscriptions) to
// asset_accounts under the asset they describe, and the Bubblegum
// instructions of each transaction to bubblegum_events, raw; its state step
// (FoldStep) folds each touched asset into asset_state after commit.
package assetstate
