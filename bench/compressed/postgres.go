package compressed

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dasch-labs/dasch/internal/parallel"
)

// pgSettings tune the reference for a bulk load on this machine the way an
// operator would, durability included: the embedded engine does not fsync
// each insert either.
func pgSettings() map[string]string {
	return map[string]string{
		"shared_buffers":                   "4GB",
		"effective_cache_size":             "12GB",
		"work_mem":                         "64MB",
		"maintenance_work_mem":             "2GB",
		"max_parallel_maintenance_workers": "2",
		"max_wal_size":                     "32GB",
		"checkpoint_timeout":               "30min",
		"fsync":                            "off",
		"synchronous_commit":               "off",
		"full_page_writes":                 "off",
		"wal_level":                        "minimal",
		"max_wal_senders":                  "0",
		"autovacuum":                       "off", // the load ends with an explicit VACUUM ANALYZE
		"random_page_cost":                 "1.1",
		"jit":                              "off", // JIT compiles per query: a latency cost on short pages
		"max_connections":                  "200",
	}
}

// Photon's PostgreSQL schema for the tables the measured methods read
// (helius-labs/photon migrations): u64 columns are numeric (Photon's
// bigint2 domain is numeric(20,0); the balances aggregate is
// numeric(22,0)), keys are bytea. token_accounts references accounts in
// Photon; that table and the foreign key are not loaded, which only makes
// the reference's load faster.
func pgSchema() []string {
	return []string{
		`CREATE TABLE token_accounts (
			hash bytea NOT NULL,
			owner bytea NOT NULL,
			mint bytea NOT NULL,
			delegate bytea,
			state integer NOT NULL,
			spent boolean NOT NULL,
			prev_spent boolean,
			amount numeric(20, 0) NOT NULL,
			tlv bytea
		)`,
		`CREATE TABLE token_owner_balances (
			owner bytea NOT NULL,
			mint bytea NOT NULL,
			amount numeric(22, 0) NOT NULL
		)`,
	}
}

// pgIndexes are built after COPY: the fastest way PostgreSQL can reach the
// indexed state, so the load rate is its best case.
func pgIndexes() []string {
	return []string{
		`ALTER TABLE token_accounts ADD CONSTRAINT pk_token_accounts PRIMARY KEY (hash)`,
		`CREATE UNIQUE INDEX token_accounts_owner_mint_hash_idx ON token_accounts (spent, owner, mint, hash)`,
		`CREATE UNIQUE INDEX token_accounts_delegate_mint_hash_idx ON token_accounts (spent, delegate, mint, hash)`,
		`ALTER TABLE token_owner_balances ADD CONSTRAINT pk_token_owner_balances PRIMARY KEY (owner, mint)`,
		`CREATE INDEX token_owner_balances_mint_amount_owner_idx ON token_owner_balances (mint, amount, owner)`,
		`VACUUM ANALYZE token_accounts`,
		`VACUUM ANALYZE token_owner_balances`,
	}
}

// copyJob is a slice of rows for one table.
type copyJob struct {
	table string
	cols  []string
	rows  [][]any
}

// pgRows turns a chunk into COPY rows, split so par connections share the
// work evenly. Keys point into one arena per chunk.
func pgRows(p *Plan, ch *Chunk, par int) ([]copyJob, int64) {
	arena := make([]byte, 0, len(ch.Accounts)*(3*32)+len(ch.Holdings)*64+32)
	key := func(k [32]byte) []byte {
		arena = append(arena, k[:]...)
		return arena[len(arena)-32 : len(arena) : len(arena)]
	}
	var bytes int64
	acc := make([][]any, len(ch.Accounts))
	for i := range ch.Accounts {
		a := &ch.Accounts[i]
		var del any
		if a.Delegate >= 0 {
			del = key(p.DelegateKey(a.Delegate))
			bytes += 32
		}
		acc[i] = []any{key(p.AccountHash(a.Seq)), key(p.OwnerKey(a.Owner)), key(p.MintKey(int(a.Mint))), del, int32(0), false, nil, a.Amount, nil}
		bytes += 3*32 + 4 + 1 + 8
	}
	bal := make([][]any, len(ch.Holdings))
	for i, h := range ch.Holdings {
		bal[i] = []any{key(p.OwnerKey(h.Owner)), key(p.MintKey(int(h.Mint))), h.Balance}
		bytes += 2*32 + 8
	}
	var jobs []copyJob
	for _, t := range []copyJob{
		{"token_accounts", []string{"hash", "owner", "mint", "delegate", "state", "spent", "prev_spent", "amount", "tlv"}, acc},
		{"token_owner_balances", []string{"owner", "mint", "amount"}, bal},
	} {
		n := len(t.rows)
		for i := 0; i < par; i++ {
			lo, hi := n*i/par, n*(i+1)/par
			if hi > lo {
				jobs = append(jobs, copyJob{t.table, t.cols, t.rows[lo:hi]})
			}
		}
	}
	return jobs, bytes
}

// loadPostgres creates Photon's tables, COPYs the generated state over par
// connections (only the COPY is timed into Load), then builds the indexes
// and analyzes (timed into Index).
func loadPostgres(ctx context.Context, dsn string, p *Plan, chunk, par int) (IngestFigures, error) {
	var fig IngestFigures
	par = max(1, par)
	conns := make([]*pgx.Conn, par)
	for i := range conns {
		c, err := pgx.Connect(ctx, dsn)
		if err != nil {
			return fig, err
		}
		defer c.Close(context.WithoutCancel(ctx))
		conns[i] = c
	}
	for _, q := range pgSchema() {
		if _, err := conns[0].Exec(ctx, q); err != nil {
			return fig, fmt.Errorf("postgres schema: %w", err)
		}
	}
	st, err := p.Stream(ctx, chunk, func(ch *Chunk) error {
		jobs, bytes := pgRows(p, ch, par)
		for _, j := range jobs {
			fig.Rows += int64(len(j.rows))
		}
		fig.Bytes += bytes
		start := time.Now()
		err := copyJobs(ctx, conns, jobs)
		fig.Load += time.Since(start)
		return err
	})
	if err != nil {
		return fig, fmt.Errorf("postgres load: %w", err)
	}
	fig.Stats, fig.Accounts, fig.Holdings = st, st.Accounts, st.Holdings
	start := time.Now()
	for _, q := range pgIndexes() {
		if _, err := conns[0].Exec(ctx, q); err != nil {
			return fig, fmt.Errorf("postgres %q: %w", q, err)
		}
	}
	fig.Index = time.Since(start)
	err = conns[0].QueryRow(ctx, `SELECT pg_total_relation_size('token_accounts') + pg_total_relation_size('token_owner_balances')`).Scan(&fig.DiskBytes)
	return fig, err
}

// copyJobs runs one COPY per job, one job per connection at a time.
func copyJobs(ctx context.Context, conns []*pgx.Conn, jobs []copyJob) error {
	return parallel.Run(jobs, len(conns), func(w int, j copyJob) error {
		n, err := conns[w].CopyFrom(ctx, pgx.Identifier{j.table}, j.cols, pgx.CopyFromRows(j.rows))
		if err == nil && n != int64(len(j.rows)) {
			err = fmt.Errorf("copied %d rows of %d", n, len(j.rows))
		}
		if err != nil {
			return fmt.Errorf("copy into %s: %w", j.table, err)
		}
		return nil
	})
}

// The reference queries. Holders use Photon's keyset filter (an OR, which
// the index can bound by mint only); pgHoldersRow is the row-value form
// the index bounds fully, PostgreSQL's best case for the same page.
const (
	pgHoldersFirst = `SELECT owner, amount FROM token_owner_balances WHERE mint = $1
		ORDER BY amount DESC, owner DESC LIMIT 1000`
	pgHoldersPhoton = `SELECT owner, amount FROM token_owner_balances
		WHERE mint = $1 AND (amount < $2 OR (amount = $2 AND owner < $3))
		ORDER BY amount DESC, owner DESC LIMIT 1000`
	pgHoldersRow = `SELECT owner, amount FROM token_owner_balances
		WHERE mint = $1 AND (amount, owner) < ($2, $3)
		ORDER BY amount DESC, owner DESC LIMIT 1000`
	pgBalances = `SELECT mint, amount FROM token_owner_balances WHERE owner = $1 ORDER BY mint LIMIT 1000`
	// pgTokens reads Photon's token accounts page from token_accounts
	// alone: Photon joins accounts for the rest of each item, which the
	// reference does not load, so this is its best case.
	pgTokens      = `SELECT hash, amount FROM token_accounts WHERE owner = $1 AND spent = false ORDER BY mint, hash LIMIT 1000`
	pgHolderAtSQL = `SELECT amount, owner FROM token_owner_balances WHERE mint = $1
		ORDER BY amount DESC, owner DESC LIMIT 1 OFFSET $2`
)

// pgPage runs a page query and decodes it.
func pgPage(ctx context.Context, c *pgx.Conn, sql string, args ...any) ([]Holder, error) {
	rows, err := c.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make([]Holder, 0, 1000)
	var k []byte
	var h Holder
	for rows.Next() {
		if err := rows.Scan(&k, &h.Balance); err != nil {
			return nil, err
		}
		copy(h.Key[:], k)
		out = append(out, h)
	}
	return out, rows.Err()
}

// pgHolders is the holders page after cur (nil: the first page); rowForm
// selects the row-value keyset filter instead of Photon's.
func pgHolders(ctx context.Context, c *pgx.Conn, mint [32]byte, cur *HolderCursor, rowForm bool) ([]Holder, error) {
	if cur == nil {
		return pgPage(ctx, c, pgHoldersFirst, mint[:])
	}
	q := pgHoldersPhoton
	if rowForm {
		q = pgHoldersRow
	}
	return pgPage(ctx, c, q, mint[:], cur.Balance, cur.Owner[:])
}

// pgHolderAt reads the holder at 0-based position pos.
func pgHolderAt(ctx context.Context, c *pgx.Conn, mint [32]byte, pos int) (HolderCursor, error) {
	var hc HolderCursor
	var owner []byte
	if err := c.QueryRow(ctx, pgHolderAtSQL, mint[:], pos).Scan(&hc.Balance, &owner); err != nil {
		return hc, err
	}
	copy(hc.Owner[:], owner)
	return hc, nil
}

// pgOwnerBalances is the first balances page of owner.
func pgOwnerTokens(ctx context.Context, c *pgx.Conn, owner [32]byte) ([]Holder, error) {
	return pgPage(ctx, c, pgTokens, owner[:])
}

func pgOwnerBalances(ctx context.Context, c *pgx.Conn, owner [32]byte) ([]Holder, error) {
	return pgPage(ctx, c, pgBalances, owner[:])
}
