// Package chserver is the arrowstore.Store engine for a ClickHouse server or
// cluster, spoken to over the native protocol with clickhouse-go.
package chserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2"
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/dasch-labs/dasch/store"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// Options tune a server store. Zero values take the defaults noted.
type Options struct {
	// MaxOpenConns caps connections to the server; zero keeps the DSN's
	// max_open_conns or the driver default (10).
	MaxOpenConns int
	// DialTimeout bounds one connection attempt; zero keeps the DSN's
	// dial_timeout or 10s.
	DialTimeout time.Duration
	// Settings are ClickHouse settings sent with every statement, over
	// store.DefaultSettings (and over settings in the DSN).
	Settings map[string]string
	// Logger receives connection events; nil discards them.
	Logger *slog.Logger
}

// DefaultDialTimeout applies when neither Options nor the DSN set one: the
// driver's own 30s default makes a mistyped host look like a hang.
const DefaultDialTimeout = 10 * time.Second

// Store is a ClickHouse server engine. It is safe for concurrent use.
type Store struct {
	conn driver.Conn
	addr string
	log  *slog.Logger
	// maxOpen and acquireWait describe the pool, for the error of a
	// statement that waited for a connection in vain.
	maxOpen     int
	acquireWait time.Duration
	closed      atomic.Bool
	// copts are the driver options, for the nodes of a cluster; cluster
	// is the DSN's cluster parameter, or "".
	copts   *clickhouse.Options
	cluster string
}

var _ arrowstore.Store = (*Store)(nil)

// Open connects to the server named by dsn, e.g.
// clickhouse://user:pass@host:9000/db?dial_timeout=5s, and pings it so a
// wrong address or password fails here rather than on the first query.
//
// cluster=NAME in the DSN puts the store on that cluster of the server's
// remote_servers (store.Clustered): the migrations build local tables on
// every node and Distributed tables over them, and every statement
// carries ClusterSettings.
func Open(ctx context.Context, dsn string, opts Options) (*Store, error) {
	dsn, cluster, err := cutCluster(dsn)
	if err != nil {
		return nil, err
	}
	if cluster != "" {
		set := ClusterSettings()
		for k, v := range opts.Settings {
			set[k] = v
		}
		opts.Settings = set
	}
	copts, err := parseDSN(dsn, opts)
	if err != nil {
		return nil, err
	}
	if cluster != "" && len(copts.Addr) > 1 && copts.ConnOpenStrategy != clickhouse.ConnOpenInOrder {
		// An ingest session's staging tables live on the node it talks to.
		return nil, fmt.Errorf("clickhouse DSN with cluster=%s and several hosts: connections must go to one node (connection_open_strategy=in_order)", cluster)
	}
	addr := strings.Join(copts.Addr, ",")
	conn, err := clickhouse.Open(copts)
	if err != nil {
		return nil, connectError(addr, err)
	}
	// The ping covers the handshake as well as the dial, and the driver's
	// read timeout (minutes) would otherwise govern a server that accepts
	// the connection but never answers.
	pctx, cancel := context.WithTimeout(ctx, 2*copts.DialTimeout)
	defer cancel()
	if err := conn.Ping(pctx); err != nil {
		_ = conn.Close()
		return nil, connectError(addr, err)
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	s := &Store{conn: conn, addr: addr, log: log, maxOpen: copts.MaxOpenConns, acquireWait: copts.DialTimeout, copts: copts, cluster: cluster}
	if s.maxOpen <= 0 {
		// The driver's default: five more than the idle connections.
		s.maxOpen = max(copts.MaxIdleConns, 0) + 5
		if copts.MaxIdleConns <= 0 {
			s.maxOpen = 10
		}
	}
	attrs := []any{"addr", addr, "database", copts.Auth.Database}
	if cluster != "" {
		attrs = append(attrs, "cluster", cluster)
	}
	if v, err := conn.ServerVersion(); err == nil {
		attrs = append(attrs, "version", fmt.Sprintf("%d.%d.%d", v.Version.Major, v.Version.Minor, v.Version.Patch))
	}
	log.Info("connected to clickhouse server", attrs...)
	return s, nil
}

// parseDSN turns dsn and opts into driver options without touching the
// network, so every DSN mistake is reported before a dial.
func parseDSN(dsn string, opts Options) (*clickhouse.Options, error) {
	if strings.TrimSpace(dsn) == "" {
		return nil, errors.New("clickhouse DSN is empty: want clickhouse://user:pass@host:9000/db")
	}
	scheme, _, ok := strings.Cut(dsn, "://")
	if !ok {
		return nil, errors.New("clickhouse DSN has no scheme: want clickhouse://user:pass@host:9000/db")
	}
	switch strings.ToLower(scheme) {
	case "clickhouse", "tcp":
	case "http", "https":
		return nil, fmt.Errorf("clickhouse DSN scheme %q is the HTTP interface: use clickhouse://host:9000 (native protocol)", scheme)
	default:
		return nil, fmt.Errorf("clickhouse DSN scheme %q is not supported: want clickhouse://user:pass@host:9000/db", scheme)
	}
	copts, err := clickhouse.ParseDSN(dsn)
	if err != nil {
		// The driver redacts the password from its parse errors.
		return nil, fmt.Errorf("parse clickhouse DSN: %w", err)
	}
	if copts.Protocol != clickhouse.Native {
		return nil, errors.New("clickhouse DSN must use the native protocol (clickhouse://host:9000)")
	}
	for _, a := range copts.Addr {
		if strings.TrimSpace(a) == "" {
			return nil, errors.New("clickhouse DSN has an empty host")
		}
	}
	if opts.MaxOpenConns < 0 {
		return nil, fmt.Errorf("clickhouse max open connections %d: must not be negative", opts.MaxOpenConns)
	}
	if opts.DialTimeout < 0 {
		return nil, fmt.Errorf("clickhouse dial timeout %s: must not be negative", opts.DialTimeout)
	}
	if opts.MaxOpenConns > 0 {
		copts.MaxOpenConns = opts.MaxOpenConns
	}
	if copts.MaxOpenConns > 0 && (copts.MaxIdleConns <= 0 || copts.MaxIdleConns > copts.MaxOpenConns) {
		// Idle connections beyond the open cap would never be reused.
		copts.MaxIdleConns = min(5, copts.MaxOpenConns)
	}
	if opts.DialTimeout > 0 {
		copts.DialTimeout = opts.DialTimeout
	}
	if copts.DialTimeout == 0 {
		copts.DialTimeout = DefaultDialTimeout
	}
	if copts.Auth.Database == "" {
		copts.Auth.Database = "default"
	}
	if err := defaultCompression(dsn, copts); err != nil {
		return nil, err
	}
	if copts.Settings == nil {
		copts.Settings = clickhouse.Settings{}
	}
	for k, v := range store.DefaultSettings() {
		if _, set := copts.Settings[k]; !set {
			copts.Settings[k] = v
		}
	}
	for k, v := range opts.Settings {
		copts.Settings[k] = v
	}
	// The driver logs every rejected statement at Warn; those come back to
	// the caller as *store.QueryError already, so its logger stays unset.
	copts.Logger = nil
	return copts, nil
}

// defaultCompression turns LZ4 on unless the DSN names a compress method:
// account data compresses several times over, and LZ4 costs less CPU than
// the bytes it saves on the wire. compress=false (or none) turns it off.
func defaultCompression(dsn string, copts *clickhouse.Options) error {
	u, err := url.Parse(dsn)
	if err != nil {
		return fmt.Errorf("parse clickhouse DSN: %w", redactURLError(err))
	}
	if u.Query().Has("compress") {
		if copts.Compression == nil {
			copts.Compression = &clickhouse.Compression{Method: clickhouse.CompressionNone}
		}
		return nil
	}
	if copts.Compression == nil {
		copts.Compression = &clickhouse.Compression{Method: clickhouse.CompressionLZ4}
	} else if copts.Compression.Method == clickhouse.CompressionNone {
		// compress_level alone sets a level but no method.
		copts.Compression.Method = clickhouse.CompressionLZ4
	}
	return nil
}

// redactURLError drops the URL from a parse error: it may hold a password.
func redactURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// connectError is the one line an operator sees when the server cannot be
// reached or refuses the login.
func connectError(addr string, err error) error {
	return fmt.Errorf("clickhouse server at %s: %w: check the DSN and that the server is running", addr, err)
}

// Engine implements arrowstore.Store.
func (s *Store) Engine() string { return "clickhouse" }

// Close implements arrowstore.Store.
func (s *Store) Close() error {
	if s.closed.Swap(true) {
		return nil
	}
	if err := s.conn.Close(); err != nil {
		return fmt.Errorf("close clickhouse server connections to %s: %w", s.addr, err)
	}
	return nil
}

// queryContext carries params to the server as real query parameters and
// pins decoding to UTC, so Date values keep their calendar day and
// DateTime values match the embedded engine.
func queryContext(ctx context.Context, params store.Params) context.Context {
	opts := []clickhouse.QueryOption{clickhouse.WithUserLocation(time.UTC)}
	if len(params) > 0 {
		ps := make(clickhouse.Parameters, len(params))
		for k, v := range params {
			ps[k] = store.EscapeParam(v)
		}
		opts = append(opts, clickhouse.WithParameters(ps))
	}
	return clickhouse.Context(ctx, opts...)
}

// Exec implements arrowstore.Store.
func (s *Store) Exec(ctx context.Context, sql string, params store.Params) error {
	if s.closed.Load() {
		return store.ErrClosed
	}
	if err := s.conn.Exec(queryContext(ctx, params), sql); err != nil {
		return s.queryError(sql, err)
	}
	return nil
}

// Query implements arrowstore.Store.
func (s *Store) Query(ctx context.Context, sql string, params store.Params) (*store.Result, error) {
	if s.closed.Load() {
		return nil, store.ErrClosed
	}
	rows, err := s.conn.Query(queryContext(ctx, params), sql)
	if err != nil {
		return nil, s.queryError(sql, err)
	}
	defer rows.Close()
	cts := rows.ColumnTypes()
	res := &store.Result{Columns: make([]store.Column, len(cts))}
	cols := make([]scanCol, len(cts))
	for i, ct := range cts {
		res.Columns[i] = store.Column{Name: ct.Name(), Type: ct.DatabaseTypeName()}
		cols[i] = newScanCol(ct.ScanType())
	}
	dest := make([]any, len(cts))
	for i := range cols {
		dest[i] = cols[i].dest
	}
	for rows.Next() {
		for i := range cols {
			if cols[i].dest == nil {
				dest[i] = cols[i].fresh()
			}
		}
		if err := rows.Scan(dest...); err != nil {
			return nil, fmt.Errorf("clickhouse server at %s: decode row %d: %w", s.addr, len(res.Rows), err)
		}
		row := make([]any, len(dest))
		for i := range cols {
			row[i] = cols[i].value(dest[i])
		}
		res.Rows = append(res.Rows, row)
	}
	if err := rows.Err(); err != nil {
		return nil, s.queryError(sql, err)
	}
	if err := rows.Close(); err != nil {
		return nil, s.queryError(sql, err)
	}
	return res, nil
}

// Insert implements arrowstore.Store. Columns travel in the native format, one
// typed slice per column, so nothing is rendered as SQL text.
func (s *Store) Insert(ctx context.Context, table string, rec arrow.RecordBatch) error {
	if s.closed.Load() {
		return store.ErrClosed
	}
	if rec == nil || rec.NumRows() == 0 {
		return nil
	}
	sql, err := insertSQL(table, rec.Schema())
	if err != nil {
		return err
	}
	// Convert before opening the batch so a bad record costs no round trip.
	cols, err := recordColumns(table, rec)
	if err != nil {
		return err
	}
	batch, err := s.conn.PrepareBatch(queryContext(ctx, nil), sql)
	if err != nil {
		return s.queryError(sql, err)
	}
	sent := false
	defer func() {
		if !sent {
			_ = batch.Abort()
		}
	}()
	if err := appendColumns(batch, table, rec.Schema(), cols); err != nil {
		return err
	}
	sent = true
	if err := batch.Send(); err != nil {
		return s.queryError(sql, err)
	}
	return nil
}

// recordColumns converts rec's columns to what batch columns append.
func recordColumns(table string, rec arrow.RecordBatch) ([]any, error) {
	cols := make([]any, rec.NumCols())
	for i := range cols {
		f := rec.Schema().Field(i)
		var err error
		if cols[i], err = columnValues(rec.Column(i), f.Nullable); err != nil {
			return nil, fmt.Errorf("insert into %s: column %s: %w", table, f.Name, err)
		}
	}
	return cols, nil
}

// appendColumns appends converted columns to batch.
func appendColumns(batch driver.Batch, table string, sc *arrow.Schema, cols []any) error {
	for i, v := range cols {
		if err := batch.Column(i).Append(v); err != nil {
			return fmt.Errorf("insert into %s: column %s: %w", table, sc.Field(i).Name, err)
		}
	}
	return nil
}

// insertSQL is the INSERT statement PrepareBatch expects for schema.
func insertSQL(table string, schema *arrow.Schema) (string, error) {
	qt, err := quoteTable(table)
	if err != nil {
		return "", fmt.Errorf("insert into %q: %w", table, err)
	}
	if schema.NumFields() == 0 {
		return "", fmt.Errorf("insert into %s: record has no columns", table)
	}
	var b strings.Builder
	b.WriteString("INSERT INTO ")
	b.WriteString(qt)
	b.WriteString(" (")
	for i, f := range schema.Fields() {
		q, err := quoteIdent(f.Name)
		if err != nil {
			return "", fmt.Errorf("insert into %s: column %q: %w", table, f.Name, err)
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(q)
	}
	b.WriteString(")")
	return b.String(), nil
}

// queryError reports a statement the server rejected as *store.QueryError
// and anything else (network, cancellation) as a wrapped error.
func (s *Store) queryError(sql string, err error) error {
	var ex *clickhouse.Exception
	if errors.As(err, &ex) {
		return &store.QueryError{SQL: sql, Msg: exceptionMsg(ex)}
	}
	if errors.Is(err, clickhouse.ErrAcquireConnTimeout) {
		return fmt.Errorf("clickhouse server at %s: %w: all %d connections stayed busy for %s; raise max_open_conns in the store URL or run fewer requests at once: %w",
			s.addr, ErrPoolExhausted, s.maxOpen, s.acquireWait, err)
	}
	return fmt.Errorf("clickhouse server at %s: %w", s.addr, err)
}

// ErrPoolExhausted is wrapped by the error of a statement that found every
// connection of the pool busy until the dial timeout ran out.
var ErrPoolExhausted = errors.New("connection pool exhausted")

// exceptionMsg renders a server exception the way ClickHouse clients
// print it, first line only: the rest is a stack trace.
func exceptionMsg(ex *clickhouse.Exception) string {
	msg := strings.TrimSpace(ex.Message)
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = strings.TrimSpace(msg[:i])
	}
	name := ex.Name
	if name == "" {
		name = "DB::Exception"
	}
	return fmt.Sprintf("Code: %d. %s: %s", ex.Code, name, msg)
}
