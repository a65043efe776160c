package asset

import (
	"github.com/dasch-labs/dasch/chain/solana"
)

// Account is the newest stored write of one account of an asset.
type Account struct {
	Kind    string // schema.AssetKind*
	Pubkey  solana.Pubkey
	Program solana.Pubkey
	Data    []byte
	// Live is the newest write longer than one byte: what a closed or
	// burnt account (whose newest write is empty or one byte) last held.
	Live   []byte
	Slot   uint64
	Amount uint64 // token accounts: balance; mints: supply
}

// Event is one stored Bubblegum event of a compressed asset.
type Event struct {
	Seq     uint64
	Slot    uint64
	Payload []byte
}

// State is everything stored under one asset id: the rows Render reads,
// as query/assetrows loads them from the store (or a serving index holds
// them).
type State struct {
	ID       solana.Pubkey
	Accounts []Account // by kind, then pubkey
	Events   []Event   // by seq
}

// Empty reports whether nothing is stored under the id.
func (s *State) Empty() bool { return len(s.Accounts) == 0 && len(s.Events) == 0 }

// Find returns the account of kind at pubkey, or nil.
func (s *State) Find(kind string, pubkey solana.Pubkey) *Account {
	for i := range s.Accounts {
		if s.Accounts[i].Kind == kind && s.Accounts[i].Pubkey == pubkey {
			return &s.Accounts[i]
		}
	}
	return nil
}

// OfKind returns the accounts of kind.
func (s *State) OfKind(kind string) []Account {
	var out []Account
	for _, a := range s.Accounts {
		if a.Kind == kind {
			out = append(out, a)
		}
	}
	return out
}
