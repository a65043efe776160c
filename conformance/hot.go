package conformance

import (
	"context"
	"fmt"

	"github.com/dasch-labs/dasch/hotindex"
	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// hotIndexes serves the methods `dasch serve` answers from memory by
// default (holders, balances, token accounts) from indexes loaded after
// each variant's fixtures are indexed, so a case checks the serving path
// as well as the store path. Cases run one at a time: no locking.
type hotIndexes struct {
	bal *hotindex.Index
	tok *hotindex.Tokens
}

// load replaces the indexes with ones loaded from s.
func (h *hotIndexes) load(ctx context.Context, s arrowstore.Store) error {
	bal := hotindex.New(s, hotindex.DefaultBalanceBudget)
	if err := bal.Load(ctx); err != nil {
		return fmt.Errorf("hot index: %w", err)
	}
	tok := hotindex.NewTokens(s, hotindex.DefaultTokenBudget)
	if err := tok.Load(ctx); err != nil {
		return fmt.Errorf("token index: %w", err)
	}
	h.bal, h.tok = bal, tok
	return nil
}

// Ready is true once load has run: every case after it reads the index.
func (h *hotIndexes) Ready() bool { return h.bal != nil && h.bal.Ready() }

func (h *hotIndexes) Holders(mint compressed.Key, p compressed.HolderPage) ([]compressed.Holder, uint64, bool, error) {
	return h.bal.Holders(mint, p)
}

func (h *hotIndexes) Balances(owner compressed.Key, p compressed.BalancePage) ([]compressed.TokenBalance, uint64, bool, error) {
	return h.bal.Balances(owner, p)
}

func (h *hotIndexes) ByOwner(owner compressed.Key, p compressed.TokenPage) ([]compressed.Account, uint64, bool, error) {
	return h.tok.ByOwner(owner, p)
}

func (h *hotIndexes) ByDelegate(delegate compressed.Key, p compressed.TokenPage) ([]compressed.Account, uint64, bool, error) {
	return h.tok.ByDelegate(delegate, p)
}
