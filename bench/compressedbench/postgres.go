package compressedbench

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dasch-labs/dasch/chain/light"
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
// (helius-labs/photon migrations, accounts as of its migration 7,
// m20250206): u64 columns are numeric (Photon's bigint2 domain is
// numeric(20,0); the balances aggregate is numeric(22,0)), keys are bytea.
// accounts holds every compressed account whole, as dasch's
// compressed_accounts does; token_accounts holds the token fields and
// references it. The columns Photon adds for nullifier queues (nullifier,
// tx_hash, nullifier_queue_index, nullified_in_tree) keep their defaults.
func pgSchema() []string {
	return []string{
		`CREATE TABLE accounts (
			hash bytea NOT NULL,
			data bytea,
			data_hash bytea,
			address bytea,
			owner bytea NOT NULL,
			tree bytea NOT NULL,
			leaf_index bigint NOT NULL,
			seq bigint,
			slot_created bigint NOT NULL,
			spent boolean NOT NULL,
			prev_spent boolean,
			lamports numeric(20, 0) NOT NULL,
			discriminator numeric(20, 0),
			tree_type integer,
			nullified_in_tree boolean NOT NULL DEFAULT false,
			nullifier_queue_index bigint,
			in_output_queue boolean NOT NULL DEFAULT true,
			queue bytea NOT NULL,
			nullifier bytea,
			tx_hash bytea
		)`,
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
		// Photon's transaction tables (its first migration): a row per
		// transaction and one per account it touched, as dasch's signature
		// tables and account rows record them. Timed apart (TxTables).
		`CREATE TABLE transactions (
			signature bytea NOT NULL,
			slot bigint NOT NULL,
			uses_compression boolean NOT NULL
		)`,
		`CREATE TABLE account_transactions (
			hash bytea NOT NULL,
			signature bytea NOT NULL
		)`,
	}
}

// pgIndex is one statement run after COPY; accounts marks those of the
// accounts table (and the key that references it), timed apart so the
// report can also give the load without that table; tx those of the
// transaction tables, timed apart too and not in Index.
type pgIndex struct {
	sql          string
	accounts, tx bool
}

// pgIndexes are built after COPY: the fastest way PostgreSQL can reach the
// indexed state, so the load rate is its best case. They are Photon's.
func pgIndexes() []pgIndex {
	return []pgIndex{
		{sql: `ALTER TABLE accounts ADD CONSTRAINT pk_accounts PRIMARY KEY (hash)`, accounts: true},
		{sql: `CREATE UNIQUE INDEX accounts_owner_hash_idx ON accounts (spent, owner, hash)`, accounts: true},
		{sql: `CREATE INDEX accounts_address_spent_idx ON accounts (address, seq)`, accounts: true},
		{sql: `CREATE INDEX accounts_queue_idx ON accounts (tree, in_output_queue, leaf_index) WHERE in_output_queue = true`, accounts: true},
		{sql: `ALTER TABLE token_accounts ADD CONSTRAINT pk_token_accounts PRIMARY KEY (hash)`},
		{sql: `CREATE UNIQUE INDEX token_accounts_owner_mint_hash_idx ON token_accounts (spent, owner, mint, hash)`},
		{sql: `CREATE UNIQUE INDEX token_accounts_delegate_mint_hash_idx ON token_accounts (spent, delegate, mint, hash)`},
		{sql: `ALTER TABLE token_accounts ADD CONSTRAINT token_accounts_hash_fk FOREIGN KEY (hash) REFERENCES accounts (hash) ON DELETE CASCADE`, accounts: true},
		{sql: `ALTER TABLE token_owner_balances ADD CONSTRAINT pk_token_owner_balances PRIMARY KEY (owner, mint)`},
		{sql: `CREATE INDEX token_owner_balances_mint_amount_owner_idx ON token_owner_balances (mint, amount, owner)`},
		{sql: `VACUUM ANALYZE accounts`, accounts: true},
		{sql: `VACUUM ANALYZE token_accounts`},
		{sql: `VACUUM ANALYZE token_owner_balances`},
		// Photon's transactions_slot_fk references blocks, which the
		// reference does not load.
		{sql: `ALTER TABLE transactions ADD CONSTRAINT pk_transactions PRIMARY KEY (signature)`, tx: true},
		{sql: `CREATE UNIQUE INDEX transactions_slot_signature_idx ON transactions (slot, signature)`, tx: true},
		{sql: `CREATE UNIQUE INDEX transactions_uses_compression_slot_signature_idx ON transactions (uses_compression, slot, signature)`, tx: true},
		{sql: `ALTER TABLE account_transactions ADD CONSTRAINT pk_account_transaction_history PRIMARY KEY (hash, signature)`, tx: true},
		{sql: `ALTER TABLE account_transactions ADD CONSTRAINT account_transactions_hash_fk FOREIGN KEY (hash) REFERENCES accounts (hash) ON DELETE CASCADE`, tx: true},
		{sql: `ALTER TABLE account_transactions ADD CONSTRAINT account_transactions_signature_fk FOREIGN KEY (signature) REFERENCES transactions (signature) ON DELETE CASCADE`, tx: true},
		{sql: `VACUUM ANALYZE transactions`, tx: true},
		{sql: `VACUUM ANALYZE account_transactions`, tx: true},
	}
}

// pgAccountCols are the accounts columns the reference writes.
var pgAccountCols = []string{"hash", "data", "data_hash", "address", "owner", "tree", "queue", "leaf_index", "seq",
	"slot_created", "spent", "prev_spent", "lamports", "discriminator", "tree_type", "in_output_queue"}

// pgAccountRow is the accounts row of the token account at stream position
// seq, as Photon stores an output of a V2 tree: no seq, still in the
// output queue, lamports 0, data the borsh token data. hash is
// p.AccountHash(seq), which every caller already holds for its other
// rows; the other keys are copied by key, which returns a slice the row
// can keep.
func pgAccountRow(p *Plan, seq uint64, hash, data []byte, key func([32]byte) []byte) []any {
	return []any{hash, data, key(p.DataHash(seq)), nil, key(light.CompressedTokenProgram()),
		key(p.Tree(seq)), key(p.Queue(seq)), int64(LeafIndex(seq)), nil,
		int64(Slot(seq)), false, nil, uint64(0), light.TokenDiscriminatorV1, int32(light.TreeStateV2), true}
}

// copyJob is a slice of rows for one table.
type copyJob struct {
	table string
	cols  []string
	rows  [][]any
}

// pgRows turns a chunk into COPY rows, split so par connections share the
// work evenly: token_accounts and token_owner_balances, then the accounts
// rows apart, then the transaction tables' (see loadPostgres). Keys point
// into one arena per chunk.
func pgRows(p *Plan, ch *Chunk, par int) (tokens, accounts, txs []copyJob, bytes int64) {
	arena := make([]byte, 0, len(ch.Accounts)*(8*32+64+120)+len(ch.Holdings)*64+32)
	key := func(k [32]byte) []byte {
		arena = append(arena, k[:]...)
		return arena[len(arena)-32 : len(arena) : len(arena)]
	}
	acc := make([][]any, len(ch.Accounts))
	full := make([][]any, len(ch.Accounts))
	accTx := make([][]any, len(ch.Accounts))
	tx := make([][]any, 0, len(ch.Accounts)/2+1)
	for i := range ch.Accounts {
		a := &ch.Accounts[i]
		// A transaction is listed with its first output (see
		// Plan.Signature), in whichever chunk that falls.
		sig := p.Signature(a.Seq)
		arena = append(arena, sig[:]...)
		sk := arena[len(arena)-64 : len(arena) : len(arena)]
		// The account's rows of the three tables share one copy of its hash.
		h := key(p.AccountHash(a.Seq))
		// Not in bytes: like TxRows, kept apart from the headline's figures.
		accTx[i] = []any{h, sk}
		if a.Seq%2 == 0 {
			tx = append(tx, []any{sk, int64(Slot(a.Seq)), true})
		}
		m, o := p.MintKey(int(a.Mint)), p.OwnerKey(a.Owner)
		var del any
		var dk *[32]byte
		if a.Delegate >= 0 {
			d := p.DelegateKey(a.Delegate)
			del, dk = key(d), &d
			bytes += 32
		}
		acc[i] = []any{h, key(o), key(m), del, int32(0), false, nil, a.Amount, nil}
		bytes += 3*32 + 4 + 1 + 8
		start := len(arena)
		arena = light.AppendTokenData(arena, &m, &o, a.Amount, dk, uint8(light.TokenInitialized), nil)
		data := arena[start:len(arena):len(arena)]
		full[i] = pgAccountRow(p, a.Seq, h, data, key)
		bytes += int64(len(data)) + 5*32 + 8*5 + 4 + 3
	}
	bal := make([][]any, len(ch.Holdings))
	for i, h := range ch.Holdings {
		bal[i] = []any{key(p.OwnerKey(h.Owner)), key(p.MintKey(int(h.Mint))), h.Balance}
		bytes += 2*32 + 8
	}
	split := func(t copyJob) []copyJob {
		var jobs []copyJob
		n := len(t.rows)
		for i := 0; i < par; i++ {
			lo, hi := n*i/par, n*(i+1)/par
			if hi > lo {
				jobs = append(jobs, copyJob{t.table, t.cols, t.rows[lo:hi]})
			}
		}
		return jobs
	}
	tokens = append(split(copyJob{"token_accounts", []string{"hash", "owner", "mint", "delegate", "state", "spent", "prev_spent", "amount", "tlv"}, acc}),
		split(copyJob{"token_owner_balances", []string{"owner", "mint", "amount"}, bal})...)
	txs = append(split(copyJob{"transactions", []string{"signature", "slot", "uses_compression"}, tx}),
		split(copyJob{"account_transactions", []string{"hash", "signature"}, accTx})...)
	return tokens, split(copyJob{"accounts", pgAccountCols, full}), txs, bytes
}

// loadPostgres creates Photon's tables, COPYs the generated state over par
// connections (only the COPY is timed into Load), then builds the indexes
// and analyzes (timed into Index). The accounts table's share of both is
// also kept apart (AccountsTable), for the load without it.
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
		tokens, accounts, txs, bytes := pgRows(p, ch, par)
		for _, j := range append(tokens, accounts...) {
			fig.Rows += int64(len(j.rows))
		}
		for _, j := range txs {
			fig.TxRows += int64(len(j.rows))
		}
		fig.Bytes += bytes
		start := time.Now()
		if err := copyJobs(ctx, conns, tokens); err != nil {
			return err
		}
		mid := time.Now()
		if err := copyJobs(ctx, conns, accounts); err != nil {
			return err
		}
		fig.Load += time.Since(start)
		fig.AccountsTable += time.Since(mid)
		mid = time.Now()
		err := copyJobs(ctx, conns, txs)
		fig.TxTables += time.Since(mid)
		return err
	})
	if err != nil {
		return fig, fmt.Errorf("postgres load: %w", err)
	}
	fig.Stats, fig.Accounts, fig.Holdings = st, st.Accounts, st.Holdings
	for _, q := range pgIndexes() {
		start := time.Now()
		if _, err := conns[0].Exec(ctx, q.sql); err != nil {
			return fig, fmt.Errorf("postgres %q: %w", q.sql, err)
		}
		d := time.Since(start)
		if q.tx {
			fig.TxTables += d
			continue
		}
		fig.Index += d
		if q.accounts {
			fig.AccountsTable += d
		}
	}
	if err := conns[0].QueryRow(ctx, `SELECT pg_total_relation_size('accounts') + pg_total_relation_size('token_accounts') + pg_total_relation_size('token_owner_balances')`).Scan(&fig.DiskBytes); err != nil {
		return fig, err
	}
	// No page reads the transaction tables: dropped once measured, and a
	// checkpoint lets the server recycle the WAL the load wrote, to leave
	// disk for dasch's copies in a 20M run.
	for _, q := range []string{`DROP TABLE account_transactions`, `DROP TABLE transactions`, `CHECKPOINT`} {
		if _, err := conns[0].Exec(ctx, q); err != nil {
			return fig, fmt.Errorf("postgres %q: %w", q, err)
		}
	}
	return fig, nil
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
	// pgTokens reads Photon's token accounts page as Photon does: the
	// token rows joined to their accounts for the rest of each item.
	// pgTokensLean reads token_accounts alone (hash and amount), the
	// reference of earlier runs: cheaper than any answer needs.
	pgTokens = `SELECT t.hash, t.amount, t.mint, t.delegate, t.state, t.tlv, a.data, a.data_hash, a.address, a.owner,
		a.tree, a.queue, a.leaf_index, a.seq, a.slot_created, a.lamports, a.discriminator, a.tree_type, a.in_output_queue
		FROM token_accounts t JOIN accounts a ON a.hash = t.hash
		WHERE t.owner = $1 AND t.spent = false ORDER BY t.mint, t.hash LIMIT 1000`
	pgTokensLean  = `SELECT hash, amount FROM token_accounts WHERE owner = $1 AND spent = false ORDER BY mint, hash LIMIT 1000`
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
// pgOwnerTokens is owner's first page of token accounts, every column of
// the answer decoded (as Photon's server must before it encodes the
// answer); the page compared is (hash, amount). lean reads pgTokensLean.
func pgOwnerTokens(ctx context.Context, c *pgx.Conn, owner [32]byte, lean bool) ([]Holder, error) {
	if lean {
		return pgPage(ctx, c, pgTokensLean, owner[:])
	}
	rows, err := c.Query(ctx, pgTokens, owner[:])
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make([]Holder, 0, 1000)
	var (
		hash, mint, delegate, tlv, data, dataHash, address, prog, tree, queue []byte
		amount, lamports                                                      uint64
		disc                                                                  *uint64
		state                                                                 int32
		treeType                                                              *int32
		leaf, slot                                                            int64
		seq                                                                   *int64
		inQueue                                                               bool
	)
	for rows.Next() {
		if err := rows.Scan(&hash, &amount, &mint, &delegate, &state, &tlv, &data, &dataHash, &address, &prog,
			&tree, &queue, &leaf, &seq, &slot, &lamports, &disc, &treeType, &inQueue); err != nil {
			return nil, err
		}
		h := Holder{Balance: amount}
		copy(h.Key[:], hash)
		out = append(out, h)
	}
	return out, rows.Err()
}

func pgOwnerBalances(ctx context.Context, c *pgx.Conn, owner [32]byte) ([]Holder, error) {
	return pgPage(ctx, c, pgBalances, owner[:])
}
