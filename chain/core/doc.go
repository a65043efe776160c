// Package core decodes MPL Core accounts (assets, collections and groups,
// with their plugins and external plugins) and the MPL Agent Identity
// records of Core assets. It is pure decoding: no I/O and no storage.
package core
