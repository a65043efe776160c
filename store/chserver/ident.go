package chserver

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
)

// quoteIdent quotes one table or column name in backticks. Names that
// could end the quoting (backtick, backslash) are rejected rather than
// escaped, and so are characters the driver's INSERT column-list parser
// splits or stops on (whitespace, parentheses, commas, quotes, controls):
// names come from schemas we write, so such a name is a bug to surface.
func quoteIdent(name string) (string, error) {
	if name == "" {
		return "", errors.New("empty identifier")
	}
	if i := strings.IndexFunc(name, badIdentRune); i >= 0 {
		r := []rune(name[i:])[0]
		return "", fmt.Errorf("identifier %q contains %q, which is not allowed", name, r)
	}
	return "`" + name + "`", nil
}

func badIdentRune(r rune) bool {
	switch r {
	case '`', '\\', '(', ')', ',', '"', '\'', ';':
		return true
	}
	return unicode.IsSpace(r) || unicode.IsControl(r) || r == unicode.ReplacementChar
}

// quoteTable quotes "table" or "database.table".
func quoteTable(name string) (string, error) {
	db, table, qualified := strings.Cut(name, ".")
	if !qualified {
		return quoteIdent(name)
	}
	qdb, err := quoteIdent(db)
	if err != nil {
		return "", fmt.Errorf("database of %q: %w", name, err)
	}
	qt, err := quoteIdent(table)
	if err != nil {
		return "", fmt.Errorf("table of %q: %w", name, err)
	}
	return qdb + "." + qt, nil
}
