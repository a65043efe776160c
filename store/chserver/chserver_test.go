package chserver

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2"
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/dasch-labs/dasch/store"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

func TestParseDSN(t *testing.T) {
	tests := []struct {
		name     string
		dsn      string
		opts     Options
		wantErr  string
		addr     []string
		user     string
		pass     string
		db       string
		maxOpen  int
		maxIdle  int
		dialWait time.Duration
	}{
		{
			name: "full", dsn: "clickhouse://u:p@db1:9000/solana",
			addr: []string{"db1:9000"}, user: "u", pass: "p", db: "solana", dialWait: DefaultDialTimeout,
		},
		{
			name: "default database", dsn: "clickhouse://default:@clickhouse:9000",
			addr: []string{"clickhouse:9000"}, user: "default", db: "default", dialWait: DefaultDialTimeout,
		},
		{
			name: "tcp scheme and dsn timeout", dsn: "tcp://h:9440/x?dial_timeout=3s",
			addr: []string{"h:9440"}, db: "x", dialWait: 3 * time.Second,
		},
		{
			name: "options override dsn", dsn: "clickhouse://h:9000/x?dial_timeout=3s&max_open_conns=50",
			opts: Options{MaxOpenConns: 2, DialTimeout: time.Second},
			addr: []string{"h:9000"}, db: "x", maxOpen: 2, maxIdle: 2, dialWait: time.Second,
		},
		{
			name: "dsn pool size", dsn: "clickhouse://h:9000/x?max_open_conns=20",
			addr: []string{"h:9000"}, db: "x", maxOpen: 20, maxIdle: 5, dialWait: DefaultDialTimeout,
		},
		{
			name: "several hosts", dsn: "clickhouse://a:9000,b:9000/x",
			addr: []string{"a:9000", "b:9000"}, db: "x", dialWait: DefaultDialTimeout,
		},
		{name: "empty", dsn: "  ", wantErr: "DSN is empty"},
		{name: "no scheme", dsn: "localhost:9000", wantErr: "no scheme"},
		{name: "http", dsn: "http://localhost:8123", wantErr: "HTTP interface"},
		{name: "https", dsn: "https://localhost:8443?secure=true", wantErr: "HTTP interface"},
		{name: "unknown scheme", dsn: "postgres://localhost:5432", wantErr: `scheme "postgres" is not supported`},
		{name: "no host", dsn: "clickhouse:///db", wantErr: "parse clickhouse DSN"},
		{name: "bad dial timeout", dsn: "clickhouse://h:9000?dial_timeout=soon", wantErr: "dial timeout"},
		{name: "negative pool", dsn: "clickhouse://h:9000", opts: Options{MaxOpenConns: -1}, wantErr: "must not be negative"},
		{name: "negative timeout", dsn: "clickhouse://h:9000", opts: Options{DialTimeout: -time.Second}, wantErr: "must not be negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseDSN(tt.dsn, tt.opts)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("parseDSN(%q) error = %v, want one containing %q", tt.dsn, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("parseDSN(%q): %v", tt.dsn, err)
			}
			if strings.Join(got.Addr, ",") != strings.Join(tt.addr, ",") {
				t.Errorf("Addr = %v, want %v", got.Addr, tt.addr)
			}
			if got.Protocol != clickhouse.Native {
				t.Errorf("Protocol = %v, want native", got.Protocol)
			}
			if got.Auth.Username != tt.user || got.Auth.Password != tt.pass || got.Auth.Database != tt.db {
				t.Errorf("Auth = %+v, want user %q pass %q db %q", got.Auth, tt.user, tt.pass, tt.db)
			}
			if got.MaxOpenConns != tt.maxOpen || got.MaxIdleConns != tt.maxIdle {
				t.Errorf("MaxOpenConns, MaxIdleConns = %d, %d, want %d, %d", got.MaxOpenConns, got.MaxIdleConns, tt.maxOpen, tt.maxIdle)
			}
			if got.DialTimeout != tt.dialWait {
				t.Errorf("DialTimeout = %s, want %s", got.DialTimeout, tt.dialWait)
			}
		})
	}
}

func TestParseDSNSettings(t *testing.T) {
	cases := []struct {
		name, dsn string
		opts      map[string]string
		want      map[string]string
	}{
		{"defaults", "clickhouse://h:9000/x", nil, map[string]string{"optimize_on_insert": "0"}},
		{"options add", "clickhouse://h:9000/x", map[string]string{"max_threads": "2"},
			map[string]string{"max_threads": "2", "optimize_on_insert": "0"}},
		{"options win", "clickhouse://h:9000/x?optimize_on_insert=1", map[string]string{"optimize_on_insert": "2"},
			map[string]string{"optimize_on_insert": "2"}},
		{"dsn wins over defaults", "clickhouse://h:9000/x?optimize_on_insert=1", nil,
			map[string]string{"optimize_on_insert": "1"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := parseDSN(c.dsn, Options{Settings: c.opts})
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range c.want {
				if fmt.Sprint(got.Settings[k]) != v {
					t.Errorf("Settings[%s] = %v, want %s (all: %v)", k, got.Settings[k], v, got.Settings)
				}
			}
		})
	}
}

func TestParseDSNHidesPassword(t *testing.T) {
	_, err := parseDSN("clickhouse://u:s3cret@h:9000/x?dial_timeout=bad", Options{})
	if err == nil {
		t.Fatal("want an error")
	}
	if strings.Contains(err.Error(), "s3cret") {
		t.Errorf("error leaks the password: %v", err)
	}
}

// TestOpenUnreachable needs no server: it dials a port nothing listens on.
func TestOpenUnreachable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := Open(ctx, "clickhouse://default:pw@"+addr+"/default", Options{DialTimeout: 2 * time.Second})
	if err == nil {
		s.Close()
		t.Fatalf("Open(%s) succeeded with nothing listening", addr)
	}
	msg := err.Error()
	for _, want := range []string{"clickhouse server at " + addr + ": ", ": check the DSN and that the server is running"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q lacks %q", msg, want)
		}
	}
	if strings.Contains(msg, "\n") || strings.Contains(msg, "pw@") {
		t.Errorf("error should be one line without credentials: %q", msg)
	}
}

func TestClosedStore(t *testing.T) {
	s := &Store{addr: "x:9000"}
	s.closed.Store(true)
	ctx := context.Background()
	if err := s.Exec(ctx, "SELECT 1", nil); !errors.Is(err, store.ErrClosed) {
		t.Errorf("Exec after Close = %v, want ErrClosed", err)
	}
	if _, err := s.Query(ctx, "SELECT 1", nil); !errors.Is(err, store.ErrClosed) {
		t.Errorf("Query after Close = %v, want ErrClosed", err)
	}
	if err := s.Insert(ctx, "t", nil); !errors.Is(err, store.ErrClosed) {
		t.Errorf("Insert after Close = %v, want ErrClosed", err)
	}
	if _, err := s.OpenPart(ctx, "t", nil); !errors.Is(err, store.ErrClosed) {
		t.Errorf("OpenPart after Close = %v, want ErrClosed", err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close = %v, want nil", err)
	}
	if s.Engine() != "clickhouse" {
		t.Errorf("Engine() = %q", s.Engine())
	}
}

func TestQueryError(t *testing.T) {
	s := &Store{addr: "h:9000"}
	ex := &clickhouse.Exception{Code: 62, Name: "DB::Exception", Message: "Syntax error: failed at position 1\nStack trace:\n0. x"}
	err := s.queryError("SELEC 1", errors.Join(errors.New("wrapped"), ex))
	var qe *store.QueryError
	if !errors.As(err, &qe) {
		t.Fatalf("queryError = %T %v, want *store.QueryError", err, err)
	}
	if qe.SQL != "SELEC 1" || qe.Msg != "Code: 62. DB::Exception: Syntax error: failed at position 1" {
		t.Errorf("QueryError = %+v", qe)
	}

	err = s.queryError("SELECT 1", context.DeadlineExceeded)
	if errors.As(err, &qe) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("non-server error = %v, want wrapped DeadlineExceeded", err)
	}
	if !strings.Contains(err.Error(), "h:9000") {
		t.Errorf("error %q does not name the server", err)
	}
}

func TestInsertSQL(t *testing.T) {
	schema := func(names ...string) *arrow.Schema {
		fs := make([]arrow.Field, len(names))
		for i, n := range names {
			fs[i] = arrow.Field{Name: n, Type: arrow.PrimitiveTypes.Uint64}
		}
		return arrow.NewSchema(fs, nil)
	}
	tests := []struct {
		table   string
		schema  *arrow.Schema
		want    string
		wantErr string
	}{
		{"blocks", schema("slot", "block_time"), "INSERT INTO `blocks` (`slot`, `block_time`)", ""},
		{"db.blocks", schema("slot"), "INSERT INTO `db`.`blocks` (`slot`)", ""},
		{"blocks", schema("sl`ot"), "", "not allowed"},
		{"bl`ocks", schema("slot"), "", "not allowed"},
		{"blocks", schema(), "", "no columns"},
	}
	for _, tt := range tests {
		got, err := insertSQL(tt.table, tt.schema)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("insertSQL(%q) error = %v, want %q", tt.table, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("insertSQL(%q) = %q, %v, want %q", tt.table, got, err, tt.want)
		}
	}
}

// TestPartSettings: a part's batch carries arrowstore.PartSettings, which make
// the server squash its blocks into one part.
func TestPartSettings(t *testing.T) {
	set := partSettings()
	if len(set) != len(arrowstore.PartSettings()) {
		t.Errorf("settings %v", set)
	}
	for k, v := range arrowstore.PartSettings() {
		if got := fmt.Sprint(set[k]); got != v {
			t.Errorf("setting %s = %q, want %q", k, got, v)
		}
	}
}

func TestParseDSNCompression(t *testing.T) {
	for _, tc := range []struct {
		name, dsn string
		method    clickhouse.CompressionMethod
		level     int
	}{
		{"default lz4", "clickhouse://h:9000/x", clickhouse.CompressionLZ4, 0},
		{"compress true", "clickhouse://h:9000/x?compress=true", clickhouse.CompressionLZ4, 0},
		{"compress false", "clickhouse://h:9000/x?compress=false", clickhouse.CompressionNone, 0},
		{"compress none", "clickhouse://h:9000/x?compress=none", clickhouse.CompressionNone, 3},
		{"zstd", "clickhouse://h:9000/x?compress=zstd", clickhouse.CompressionZSTD, 3},
		{"level alone", "clickhouse://h:9000/x?compress_level=1", clickhouse.CompressionLZ4, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseDSN(tc.dsn, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got.Compression == nil || got.Compression.Method != tc.method || got.Compression.Level != tc.level {
				t.Errorf("Compression = %+v, want method %v level %d", got.Compression, tc.method, tc.level)
			}
		})
	}
}
