// Package light extracts what a Solana transaction did to Light Protocol
// compressed state (ZK compression), the way Photon indexes it: accounts
// created and spent, new addresses, tree sequence numbers, and the
// forester updates that move trees forward. It only parses; storing the
// result and serving it are the caller's job.
//
// Two generations of events are read: the instruction data of the current
// Light system program and the InsertIntoQueues it issues to the
// account-compression program, and the PublicTransactionEvent older
// programs logged through the Noop program. Only the current program ids
// are recognised.
package light
