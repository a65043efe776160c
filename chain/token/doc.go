// Package token decodes SPL Token and Token-2022 accounts: mints and token
// accounts, with Token-2022 extensions. It is pure decoding: no I/O and no
// storage.
package token
