package schema

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"regexp"
)

// StagingTables are the state step's scratch tables (Memory engine). The
// migrations create each as a template only: every ingest session makes
// its own copies under a session suffix (SessionTable) and drops them at
// its end, so two ingesters on one store never empty or read each
// other's scratch rows.
var StagingTables = []string{
	"compressed_step_changes",
	"compressed_step_deltas",
	"compressed_step_events",
	"compressed_step_spent",
	TableStepSpent, // compressed_step_spent_accounts
	TableStepStored,
}

// stagingName matches a staging table name where it stands alone in a
// statement: the longer name of the two that share a prefix is tried
// first, and the trailing boundary keeps compressed_step_spent from
// matching inside compressed_step_spent_accounts.
var stagingName = regexp.MustCompile(`\b(compressed_step_(?:changes|deltas|events|spent_accounts|spent|stored))\b`)

// sessionPattern matches a session's copy of a staging table.
var sessionPattern = regexp.MustCompile(`^compressed_step_[a-z_]+_s[0-9a-f]{16}$`)

// IsSessionTable tells whether name is a session's staging table: the
// schema is the same without it.
func IsSessionTable(name string) bool { return sessionPattern.MatchString(name) }

// NewSession returns a fresh session suffix for SessionTable.
func NewSession() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return "s" + hex.EncodeToString(b)
}

// SessionTable is the name of session's copy of the staging table t.
func SessionTable(t, session string) string { return t + "_" + session }

// SessionSQL rewrites every staging table that sql names to session's
// copy.
func SessionSQL(sql, session string) string {
	return stagingName.ReplaceAllString(sql, "${1}_"+session)
}

// CreateSession are the statements that make session's staging tables,
// each with its template's columns and kept in memory: the rows live for
// one step and the node the session talks to holds them.
func CreateSession(session string) []string {
	out := make([]string, len(StagingTables))
	for i, t := range StagingTables {
		out[i] = fmt.Sprintf("CREATE TABLE IF NOT EXISTS `%s` AS `%s` ENGINE = Memory", SessionTable(t, session), t)
	}
	return out
}

// DropSession are the statements that drop session's staging tables.
func DropSession(session string) []string {
	out := make([]string, len(StagingTables))
	for i, t := range StagingTables {
		out[i] = fmt.Sprintf("DROP TABLE IF EXISTS `%s`", SessionTable(t, session))
	}
	return out
}
