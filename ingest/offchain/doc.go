// Package offchain fetches the off-chain JSON documents digital assets
// name by json_uri. The asset state step queues every URI it folds in
// asset_metadata; a Fetcher takes the due ones, fetches them with
// bounded concurrency (overall and per host), timeouts, a size cap,
// bounded redirects and retries with backoff, stores each document in
// asset_metadata_docs and has the assets naming it folded again, so the
// folded documents carry their content. Its state is the store's: a
// restarted fetcher goes on where the last one stopped.
//
// Everything fetched is hostile: addresses are checked after DNS
// resolution and on every redirect (no private, loopback, link-local or
// metadata-service address unless allowed), bodies are read up to the
// cap, and a document is stored only when it is UTF-8 JSON.
package offchain
