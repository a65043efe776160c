// Package compressedstate indexes Light Protocol compressed state (ZK
// compression) the way Photon does, in two parts.
//
// The Decoder runs inside the pipeline, per transaction and statelessly:
// it parses the Light events (chain/light) and writes what each
// transaction alone determines — the output accounts, the spent hashes and
// the signature rows of compression transactions.
//
// The StateStep runs beside the inserts (ingest.Stepper), over the slots
// committed since its previous run, in SQL: it derives the read tables
// that need rows of several transactions (an input carries only a hash) —
// accounts by owner and delegate with their spent flag, token balances and
// mint holders — idempotently and whatever order the transactions arrived
// in.
//
// Tree metadata is data: SeedTrees loads a trees.json list into state_trees
// and the decoder resolves trees through it. Outputs in trees that are not
// listed are dropped and counted, as Photon drops them.
package compressedstate
