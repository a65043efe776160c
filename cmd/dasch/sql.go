package main

import (
	"context"
	"fmt"
	"io"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/goccy/go-json"
	"github.com/mr-tron/base58"

	"github.com/dasch-labs/dasch/store"
)

func runSQL(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "sql")
	url := fs.String("store", defaultStore(), "store URL")
	format := fs.String("format", "table", "output: table, tsv or json (one object per line)")
	raw := fs.Bool("raw", false, "print FixedString keys as raw bytes instead of base58")
	memMB := addMemoryFlag(fs)
	readOnly := addReadOnlyFlag(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	e.readOnly = *readOnly
	if fs.NArg() != 1 {
		return usagef("expected one SQL statement (quote it)")
	}
	if *format != "table" && *format != "tsv" && *format != "json" {
		return usagef("unknown --format %q", *format)
	}
	if err := applyMemory(e, *memMB, false); err != nil {
		return err
	}
	s, closeStore, err := openStore(ctx, e, *url, false)
	if err != nil {
		return err
	}
	defer closeStore()
	// A statement with its own FORMAT clause prints the engine's output
	// as it is, the way ClickHouse's clients do.
	if f := ownFormat(fs.Arg(0)); f != "" {
		rq, ok := s.(store.RawQuerier)
		if !ok {
			return fmt.Errorf("sql: a FORMAT clause (%s) needs the embedded engine; use --format", f)
		}
		out, err := rq.QueryRaw(ctx, fs.Arg(0), nil, f)
		if err != nil {
			return err
		}
		_, err = e.stdout.Write(out)
		return err
	}
	res, err := s.Query(ctx, fs.Arg(0), nil)
	if err != nil {
		return err
	}
	return printResult(e.stdout, res, *format, !*raw)
}

// printResult renders res. With keys set, FixedString(32) and (64) values,
// which hold pubkeys and signatures, print as base58 as Solana users read them.
func printResult(w io.Writer, res *store.Result, format string, keys bool) error {
	cells := make([][]string, len(res.Rows))
	for i, row := range res.Rows {
		cells[i] = make([]string, len(row))
		for j, v := range row {
			cells[i][j] = cellText(v, res.Columns[j].Type, keys)
		}
	}
	switch format {
	case "tsv":
		names := make([]string, len(res.Columns))
		for i, c := range res.Columns {
			names[i] = c.Name
		}
		fmt.Fprintln(w, strings.Join(names, "\t"))
		for _, r := range cells {
			fmt.Fprintln(w, strings.Join(r, "\t"))
		}
	case "json":
		for i, row := range res.Rows {
			obj := make(map[string]any, len(row))
			for j, c := range res.Columns {
				obj[c.Name] = jsonValue(row[j], cells[i][j])
			}
			b, err := json.Marshal(obj)
			if err != nil {
				return err
			}
			fmt.Fprintln(w, string(b))
		}
	default:
		widths := make([]int, len(res.Columns))
		for i, c := range res.Columns {
			widths[i] = utf8.RuneCountInString(c.Name)
		}
		for _, r := range cells {
			for j, c := range r {
				widths[j] = max(widths[j], utf8.RuneCountInString(c))
			}
		}
		line := func(vals []string) {
			for j, v := range vals {
				if j > 0 {
					io.WriteString(w, " │ ")
				}
				io.WriteString(w, v+strings.Repeat(" ", widths[j]-utf8.RuneCountInString(v)))
			}
			io.WriteString(w, "\n")
		}
		names := make([]string, len(res.Columns))
		rule := make([]string, len(res.Columns))
		for i, c := range res.Columns {
			names[i] = c.Name
			rule[i] = strings.Repeat("─", widths[i])
		}
		line(names)
		io.WriteString(w, strings.Join(rule, "─┼─")+"\n")
		for _, r := range cells {
			line(r)
		}
		fmt.Fprintf(w, "(%d rows)\n", len(cells))
	}
	return nil
}

func cellText(v any, typ string, keys bool) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case string:
		if keys && isKeyType(typ) {
			return base58.Encode([]byte(x))
		}
		if !utf8.ValidString(x) {
			return "0x" + fmt.Sprintf("%x", x)
		}
		return strings.NewReplacer("\t", `\t`, "\n", `\n`).Replace(x)
	case time.Time:
		return x.Format("2006-01-02 15:04:05.000")
	case *big.Int:
		return x.String()
	case []any:
		parts := make([]string, len(x))
		inner := strings.TrimSuffix(strings.TrimPrefix(typ, "Array("), ")")
		for i, e := range x {
			parts[i] = cellText(e, inner, keys)
		}
		return "[" + strings.Join(parts, ",") + "]"
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	return fmt.Sprint(v)
}

func isKeyType(typ string) bool {
	typ = strings.TrimSuffix(strings.TrimPrefix(typ, "Nullable("), ")")
	return typ == "FixedString(32)" || typ == "FixedString(64)"
}

// jsonValue keeps numbers as numbers (u64 stays exact) and everything else as
// the rendered text.
func jsonValue(v any, text string) any {
	switch v.(type) {
	case nil:
		return nil
	case uint8, uint16, uint32, uint64, int8, int16, int32, int64, float32, float64, bool:
		return v
	case *big.Int:
		return json.RawMessage(text)
	}
	return text
}

// formatClause is a FORMAT clause ending a statement, once its trailing
// comment lines, semicolons and blanks are gone. A string literal ending
// the statement cannot match, since it ends in a quote.
var formatClause = regexp.MustCompile(`(?i)\bFORMAT\s+([A-Za-z][A-Za-z0-9_]*)$`)

// ownFormat returns the format a statement's own FORMAT clause names, or
// "" when it has none.
func ownFormat(sql string) string {
	m := formatClause.FindStringSubmatch(trimEnd(sql))
	if m == nil {
		return ""
	}
	return m[1]
}

// trimEnd drops what may follow a statement's last clause: blanks,
// semicolons and "-- ..." comment lines.
func trimEnd(sql string) string {
	for {
		sql = strings.TrimRight(sql, " \t\r\n;")
		i := strings.LastIndexByte(sql, '\n')
		if i < 0 || !strings.HasPrefix(strings.TrimSpace(sql[i+1:]), "--") {
			return sql
		}
		sql = sql[:i]
	}
}
