// Package assetbench benchmarks dasch's digital-asset read path: a seeded
// generator of synthetic Token Metadata NFTs and programmable NFTs, SPL
// and Token-2022 fungible tokens, MPL Core assets and compressed NFTs
// (Bubblegum events); their load through the asset ingest decoder and
// batcher, against the engine's raw insert rate for the same rows; and
// getAsset / getAssetBatch latency through the real HTTP server on
// loopback, serving from the asset index and from the store in the same
// run, next to the query layer and the store read alone, and next to a
// PostgreSQL 15 holding the same assets in the Metaplex reference
// implementation's schema, read with its queries. On a skewed state (one
// owner of ~1% of the assets, one collection of ~10%), it times pages of
// getAssetsByOwner, getAssetsByGroup and searchAssets the same way, beside
// the reference's listing SQL. Report.MeasureRestart
// then times a restart of `dasch serve` on the loaded store.
package assetbench
