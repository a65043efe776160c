// Package rpcingest holds the end-to-end tests of indexing from a Solana
// JSON-RPC node: the pipeline with the real decoders and store, fed by the
// RPC source from a loopback node (internal/rpcnode) serving the DAS
// corpus as a chain of blocks and account states, against what indexing
// the same files gives. Its benchmark measures listing a node's accounts.
package rpcingest
