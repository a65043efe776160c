package assetrows

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/dasch-labs/dasch/asset"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store"
)

// loadSQL reads the newest write of every account stored under the asset
// ids matching where (argMax by version, so updates indexed out of order
// never win over newer ones) and every Bubblegum event of those ids. Token
// accounts are read only for mints of supply at most one (NFTs): a fungible
// mint may have millions, and only an NFT's holder is part of its answer.
// One thread: a point read touches a few granules, and the threads of a
// parallel plan cost more to start than the read itself. A closed marker
// (kind closed) comes back as a row of its own; decodeRows applies it.
func loadSQL(where string) string {
	return `
SELECT asset_id, kind, pubkey, argMax(program, version) AS prog, argMax(data, version) AS newest,
	max(slot) AS last_slot, argMax(amount, version) AS amt, toUInt64(0) AS ev_seq,
	argMaxIf(data, version, length(data) > 1) AS live, argMax(write_version, version) AS wv
FROM asset_accounts
WHERE ` + where + `
	AND (kind != 'token_account' OR asset_id IN (
		SELECT asset_id FROM asset_accounts
		WHERE ` + where + ` AND kind = 'mint' AND amount <= 1))
GROUP BY asset_id, kind, pubkey
UNION ALL
SELECT asset_id, 'bubblegum', tree, tree, any(payload), any(slot), toUInt64(0), seq, '', toUInt64(0)
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
func keyCond(ids []solana.Pubkey) (string, store.Params) { return KeyIn("asset_id", ids) }

// KeyIn is the condition column IN ids, for a FixedString(32) column, and
// its parameters.
func KeyIn(column string, ids []solana.Pubkey) (string, store.Params) {
	if len(ids) <= constKeys {
		params := make(store.Params, len(ids))
		var b strings.Builder
		b.WriteString(column + " IN (")
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
	return column + " IN " + packedKeySet, store.Params{"ids": string(packed)}
}

// packedKeySet is the SQL set of the 32-byte keys packed in the String
// param ids, so any number of ids is one bound value.
const packedKeySet = `(SELECT toFixedString(substring({ids:String}, number * 32 + 1, 32), 32)
	FROM numbers(intDiv(length({ids:String}), 32)))`

// Load reads the state stored under each of ids. Ids with nothing stored
// are absent from the map.
func Load(ctx context.Context, s store.Querier, ids []solana.Pubkey) (map[solana.Pubkey]*asset.State, error) {
	out := make(map[solana.Pubkey]*asset.State, len(ids))
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
func LoadRange(ctx context.Context, s store.Querier, lo solana.Pubkey, hi *solana.Pubkey) (map[solana.Pubkey]*asset.State, error) {
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
	out := map[solana.Pubkey]*asset.State{}
	if err := decodeRows(res, out); err != nil {
		return nil, err
	}
	return out, nil
}

// decodeRows adds the rows of a loadSQL result to out, each state's
// accounts by kind then pubkey and events by seq. An account that a
// closed marker of its pubkey postdates reads as closed: no data, the
// data it kept as its last live state.
func decodeRows(res *store.Result, out map[solana.Pubkey]*asset.State) error {
	type written struct{ slot, wv uint64 }
	closedAt := map[[2]solana.Pubkey]written{}
	versions := map[*asset.State][]written{}
	for i := range res.Rows {
		r := res.Row(i)
		if r.Len() < 10 {
			return fmt.Errorf("load assets: %d columns, want 10", r.Len())
		}
		// An event row's pubkey and program are its tree, its amount 0
		// and its live data empty: every column reads the same way.
		id, kind, pk, prog := solana.Pubkey(r.Key(0)), r.Str(1), solana.Pubkey(r.Key(2)), solana.Pubkey(r.Key(3))
		data, slot, amount, seq, live, wv := r.Str(4), r.U64(5), r.U64(6), r.U64(7), r.Str(8), r.U64(9)
		if err := r.Err(); err != nil {
			return fmt.Errorf("load assets: %w", err)
		}
		st := out[id]
		if st == nil {
			st = &asset.State{ID: id}
			out[id] = st
		}
		if kind == "bubblegum" {
			st.Events = append(st.Events, asset.Event{Seq: seq, Slot: slot, Payload: []byte(data)})
			continue
		}
		if kind == schema.AssetKindClosed {
			closedAt[[2]solana.Pubkey{id, pk}] = written{slot, wv}
			continue
		}
		acc := asset.Account{Kind: internKind(kind), Pubkey: pk, Program: prog, Data: []byte(data), Slot: slot, Amount: amount}
		// The last live write is most often the newest one: share it.
		if live == data {
			acc.Live = acc.Data
		} else {
			acc.Live = []byte(live)
		}
		st.Accounts = append(st.Accounts, acc)
		versions[st] = append(versions[st], written{slot, wv})
	}
	for _, st := range out {
		if len(closedAt) > 0 {
			for i := range st.Accounts {
				a, v := &st.Accounts[i], versions[st][i]
				c, ok := closedAt[[2]solana.Pubkey{st.ID, a.Pubkey}]
				if ok && (v.slot < c.slot || v.slot == c.slot && v.wv < c.wv) {
					if len(a.Data) > 1 {
						a.Live = a.Data
					}
					a.Data, a.Amount, a.Slot = nil, 0, c.slot
				}
			}
		}
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
