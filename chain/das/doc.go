// Package das decodes the on-chain accounts behind the Metaplex DAS API:
// SPL Token and Token-2022 mints and token accounts (with Token-2022
// extensions), and Token Metadata program Metadata, MasterEdition and
// Edition accounts. It is pure decoding: no I/O and no storage.
package das
