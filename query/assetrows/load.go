package assetrows

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store"
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

// State is everything stored under one asset id.
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

// loadSQL reads the newest write of every account stored under the asset
// ids matching where (argMax by version, so updates indexed out of order
// never win over newer ones) and every Bubblegum event of those ids. Token
// accounts are read only for mints of supply at most one (NFTs): a fungible
// mint may have millions, and only an NFT's holder is part of its answer.
// One thread: a point read touches a few granules, and the threads of a
// parallel plan cost more to start than the read itself.
func loadSQL(where string) string {
	return `
SELECT asset_id, kind, pubkey, argMax(program, version) AS prog, argMax(data, version) AS newest,
	max(slot) AS last_slot, argMax(amount, version) AS amt, toUInt64(0) AS ev_seq,
	argMaxIf(data, version, length(data) > 1) AS live
FROM asset_accounts
WHERE ` + where + `
	AND (kind != 'token_account' OR asset_id IN (
		SELECT asset_id FROM asset_accounts
		WHERE ` + where + ` AND kind = 'mint' AND amount <= 1))
GROUP BY asset_id, kind, pubkey
UNION ALL
SELECT asset_id, 'bubblegum', tree, tree, any(payload), any(slot), toUInt64(0), seq, ''
FROM bubblegum_events
WHERE ` + where + `
GROUP BY asset_id, seq, signature, ix_outer, ix_inner, tree
SETTINGS max_threads = 1`
}

// constKeys is the most keys passed as a literal set. A literal set is
// analysed against the primary key at once, where the packed form costs a
// subquery pipeline per use (about twice the cost of a one-id read); past
// a few keys, binding one parameter per key costs more than it saves.
const constKeys = 16

// keyCond is the condition asset_id IN ids and its parameters.
func keyCond(ids []solana.Pubkey) (string, store.Params) {
	if len(ids) <= constKeys {
		params := make(store.Params, len(ids))
		var b strings.Builder
		b.WriteString("asset_id IN (")
		for i, id := range ids {
			if i > 0 {
				b.WriteByte(',')
			}
			name := "k" + strconv.Itoa(i)
			b.WriteString("{" + name + ":FixedString(32)}")
			params[name] = string(id[:])
		}
		b.WriteByte(')')
		return b.String(), params
	}
	packed := make([]byte, 0, 32*len(ids))
	for _, id := range ids {
		packed = append(packed, id[:]...)
	}
	return "asset_id IN " + packedKeySet, store.Params{"ids": string(packed)}
}

// packedKeySet is the SQL set of the 32-byte keys packed in the String
// param ids, so any number of ids is one bound value.
const packedKeySet = `(SELECT toFixedString(substring({ids:String}, number * 32 + 1, 32), 32)
	FROM numbers(intDiv(length({ids:String}), 32)))`

// Load reads the state stored under each of ids. Ids with nothing stored
// are absent from the map.
func Load(ctx context.Context, s store.Querier, ids []solana.Pubkey) (map[solana.Pubkey]*State, error) {
	out := make(map[solana.Pubkey]*State, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	cond, params := keyCond(ids)
	res, err := s.Query(ctx, loadSQL(cond), params)
	if err != nil {
		return nil, fmt.Errorf("load assets: %w", err)
	}
	if err := decodeRows(res, out); err != nil {
		return nil, err
	}
	return out, nil
}

// LoadRange reads the state stored under every asset id in [lo, hi); a nil
// hi is the end of the key space. It is how a serving index is filled.
func LoadRange(ctx context.Context, s store.Querier, lo solana.Pubkey, hi *solana.Pubkey) (map[solana.Pubkey]*State, error) {
	cond := "asset_id >= {lo:FixedString(32)}"
	params := store.Params{"lo": string(lo[:])}
	if hi != nil {
		cond += " AND asset_id < {hi:FixedString(32)}"
		params["hi"] = string(hi[:])
	}
	res, err := s.Query(ctx, loadSQL(cond), params)
	if err != nil {
		return nil, fmt.Errorf("load assets %s..: %w", lo, err)
	}
	out := map[solana.Pubkey]*State{}
	if err := decodeRows(res, out); err != nil {
		return nil, err
	}
	return out, nil
}

// decodeRows adds the rows of a loadSQL result to out, each state's
// accounts by kind then pubkey and events by seq.
func decodeRows(res *store.Result, out map[solana.Pubkey]*State) error {
	for _, r := range res.Rows {
		if len(r) < 9 {
			return fmt.Errorf("load assets: %d columns, want 9", len(r))
		}
		id, err := key(r[0])
		if err != nil {
			return err
		}
		st := out[id]
		if st == nil {
			st = &State{ID: id}
			out[id] = st
		}
		kind, _ := r[1].(string)
		data, _ := r[4].(string)
		slot, _ := r[5].(uint64)
		if kind == "bubblegum" {
			seq, _ := r[7].(uint64)
			st.Events = append(st.Events, Event{Seq: seq, Slot: slot, Payload: []byte(data)})
			continue
		}
		pk, err := key(r[2])
		if err != nil {
			return err
		}
		prog, err := key(r[3])
		if err != nil {
			return err
		}
		amount, _ := r[6].(uint64)
		live, _ := r[8].(string)
		acc := Account{Kind: internKind(kind), Pubkey: pk, Program: prog, Data: []byte(data), Slot: slot, Amount: amount}
		// The last live write is most often the newest one: share it.
		if live == data {
			acc.Live = acc.Data
		} else {
			acc.Live = []byte(live)
		}
		st.Accounts = append(st.Accounts, acc)
	}
	for _, st := range out {
		sort.Slice(st.Accounts, func(i, j int) bool {
			a, b := st.Accounts[i], st.Accounts[j]
			if a.Kind != b.Kind {
				return a.Kind < b.Kind
			}
			return string(a.Pubkey[:]) < string(b.Pubkey[:])
		})
		sort.SliceStable(st.Events, func(i, j int) bool { return st.Events[i].Seq < st.Events[j].Seq })
	}
	return nil
}

// internKind returns the schema constant equal to kind, so states held in
// memory share one copy of each kind name.
func internKind(kind string) string {
	for _, k := range []string{schema.AssetKindMint, schema.AssetKindTokenAccount, schema.AssetKindMetadata,
		schema.AssetKindEdition, schema.AssetKindCore, schema.AssetKindInscription} {
		if k == kind {
			return k
		}
	}
	return kind
}

func key(v any) (solana.Pubkey, error) {
	s, ok := v.(string)
	if !ok || len(s) != 32 {
		return solana.Pubkey{}, fmt.Errorf("load assets: bad key column %T", v)
	}
	var k solana.Pubkey
	copy(k[:], s)
	return k, nil
}
