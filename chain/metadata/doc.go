// Package metadata decodes the accounts of the Metaplex Token Metadata
// program (Metadata, MasterEdition and Edition) and derives their PDAs. It
// is pure decoding: no I/O and no storage.
package metadata
