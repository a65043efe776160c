// Package inscription decodes Libreplex Inscriptions accounts, which the
// DAS API renders as an asset's inscription. It is pure decoding: no I/O
// and no storage.
package inscription
