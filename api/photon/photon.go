// Package photon serves Photon's (helius-labs/photon) ZK-compression
// JSON-RPC methods, one file per method, answer for answer: the same
// envelopes, key names, explicit nulls, orderings, cursors and error texts,
// so clients written for Photon work unchanged. Where Photon is wrong the
// method does better, and docs/compat.md says where and why.
package photon

import (
	"context"
	"errors"
	"log/slog"

	"github.com/dasch-labs/dasch/api/photon/prover"
	"github.com/dasch-labs/dasch/checkpoint"
	"github.com/dasch-labs/dasch/server/jsonrpc"
	"github.com/dasch-labs/dasch/store"
)

// SlotSource gives the slot answers are stamped with; it returns
// checkpoint.ErrNotIndexed while nothing has been indexed.
type SlotSource interface {
	ContextSlot(ctx context.Context) (uint64, error)
}

// Deps are what the methods read from.
type Deps struct {
	Store store.Querier
	Slots SlotSource
	// Hot serves holders and token balances from memory when set; nil
	// reads them from the store.
	Hot HotIndex
	// HotTokens serves token accounts by owner and by delegate from memory
	// when set; nil, or a key it does not hold, reads the store.
	HotTokens HotTokens
	// Logger receives the details of internal errors, which clients only
	// see as "Internal server error". Default slog.Default().
	Logger *slog.Logger
	// Tip, when set, answers the newest slot of the Solana node the
	// server ingests from: getIndexerHealth then compares the indexed
	// slot with it, as Photon does.
	Tip func(context.Context) (uint64, error)
	// Prover, when set, proves getValidityProof's inputs (a Light prover
	// service, package prover); without one getValidityProof answers an
	// error saying so, and getValidityProofV2 a null compressedProof.
	Prover Prover
}

// Prover turns a validity proof's inputs into a compressed proof.
type Prover interface {
	Prove(context.Context, prover.Inputs) (prover.Proof, error)
}

// Register adds every Photon method to r. A missing dependency is a wiring
// bug and panics at startup.
func Register(r *jsonrpc.Registry, d Deps) {
	if d.Store == nil || d.Slots == nil {
		panic("photon: Deps.Store and Deps.Slots are required")
	}
	if d.Logger == nil {
		d.Logger = slog.Default()
	}
	for name, h := range map[string]jsonrpc.Handler{
		"getCompressedAccount":                   getCompressedAccount(d),
		"getCompressedAccountV2":                 getCompressedAccountV2(d),
		"getMultipleCompressedAccounts":          getMultipleCompressedAccounts(d),
		"getMultipleCompressedAccountsV2":        getMultipleCompressedAccountsV2(d),
		"getCompressedAccountsByOwner":           getCompressedAccountsByOwner(d),
		"getCompressedAccountsByOwnerV2":         getCompressedAccountsByOwnerV2(d),
		"getCompressedBalance":                   getCompressedBalance(d),
		"getCompressedAccountBalance":            getCompressedBalance(d),
		"getCompressedBalanceByOwner":            getCompressedBalanceByOwner(d),
		"getCompressedTokenAccountBalance":       getCompressedTokenAccountBalance(d),
		"getCompressedTokenAccountsByOwner":      getCompressedTokenAccountsByOwner(d),
		"getCompressedTokenAccountsByOwnerV2":    getCompressedTokenAccountsByOwnerV2(d),
		"getCompressedTokenAccountsByDelegate":   getCompressedTokenAccountsByDelegate(d),
		"getCompressedTokenAccountsByDelegateV2": getCompressedTokenAccountsByDelegateV2(d),
		"getCompressedTokenBalancesByOwner":      getCompressedTokenBalancesByOwner(d),
		"getCompressedTokenBalancesByOwnerV2":    getCompressedTokenBalancesByOwnerV2(d),
		"getCompressedMintTokenHolders":          getCompressedMintTokenHolders(d),
		"getCompressionSignaturesForAccount":     getCompressionSignaturesForAccount(d),
		"getCompressionSignaturesForAddress":     getCompressionSignaturesForAddress(d),
		"getCompressionSignaturesForOwner":       getCompressionSignaturesForOwner(d),
		"getCompressionSignaturesForTokenOwner":  getCompressionSignaturesForTokenOwner(d),
		"getLatestCompressionSignatures":         getLatestCompressionSignatures(d),
		"getIndexerHealth":                       getIndexerHealth(d),
		"getTransactionWithCompressionInfo":      getTransactionWithCompressionInfo(d),
		"getTransactionWithCompressionInfoV2":    getTransactionWithCompressionInfoV2(d),
		"getLatestNonVotingSignatures":           getLatestNonVotingSignatures(d),
		"getCompressedAccountProof":              getCompressedAccountProof(d),
		"getCompressedAccountProofV2":            getCompressedAccountProofV2(d),
		"getMultipleCompressedAccountProofs":     getMultipleCompressedAccountProofs(d),
		"getMultipleCompressedAccountProofsV2":   getMultipleCompressedAccountProofsV2(d),
		"getMultipleNewAddressProofs":            getMultipleNewAddressProofs(d),
		"getMultipleNewAddressProofsV2":          getMultipleNewAddressProofsV2(d),
		"getValidityProof":                       getValidityProof(d),
		"getValidityProofV2":                     getValidityProofV2(d),
	} {
		r.Register(name, d.guard(name, h))
	}
}

// internalErrorText is Photon's answer to database and unexpected errors:
// code -32000 with HTTP 200, details only logged.
const internalErrorText = "Internal server error"

// guard turns failures that are not the client's into Photon's internal
// error. Deadlines stay as they are so the server answers them as timeouts.
func (d Deps) guard(method string, h jsonrpc.Handler) jsonrpc.Handler {
	return func(ctx context.Context, c *jsonrpc.Call) (any, error) {
		res, err := h(ctx, c)
		if err == nil {
			return res, nil
		}
		var je *jsonrpc.Error
		if errors.As(err, &je) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
			return nil, err
		}
		d.Logger.Error("photon method failed", "method", method, "project", c.ProjectID, "err", err)
		return nil, jsonrpc.ServerError(internalErrorText)
	}
}

// contextSlot reads the slot once per request.
func (d Deps) contextSlot(ctx context.Context) (uint64, error) {
	slot, err := d.Slots.ContextSlot(ctx)
	if errors.Is(err, checkpoint.ErrNotIndexed) {
		return 0, recordNotFound("No data has been indexed")
	}
	return slot, err
}

// Photon's error kinds travel as -32000 with their display text.

func validationError(msg string) *jsonrpc.Error {
	return jsonrpc.ServerError("Validation Error: " + msg)
}

func recordNotFound(msg string) *jsonrpc.Error {
	return jsonrpc.ServerError("Record Not Found: " + msg)
}

// cursorLengthError is the validation error for a cursor of the wrong size.
func cursorLengthError(want, got int) *jsonrpc.Error {
	return validationError("Invalid cursor length. Expected " + itoa(want) + ". Received " + itoa(got) + ".")
}
