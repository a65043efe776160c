// Package auth manages API projects and keys: creation, plans, revocation,
// and a checker the server consults on every request without a store
// round trip.
package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mr-tron/base58"

	"github.com/dasch-labs/dasch/store"
)

// hashKey is what the store keeps: a leaked table does not leak keys.
func hashKey(key string) string {
	h := sha256.Sum256([]byte(key))
	return string(h[:])
}

// keyIDOf is a key's public id: the first 8 bytes of its hash in hex. It
// names the key in listings and the request log; it cannot be turned
// back into the key.
func keyIDOf(hash string) string { return hex.EncodeToString([]byte(hash[:8])) }

// KeyID is the public id of key.
func KeyID(key string) string { return keyIDOf(hashKey(key)) }

// keyIDSQL computes keyIDOf in SQL.
const keyIDSQL = `lower(hex(substring(key_hash, 1, 8)))`

// NewKey returns a fresh random key: 24 bytes, base58.
func NewKey() (string, error) {
	var b [24]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("random key: %w", err)
	}
	return base58.Encode(b[:]), nil
}

// CreateKey creates a key for the project named name, creating the project
// if it does not exist, and returns the plaintext key and the project id.
// The key may use every service.
func CreateKey(ctx context.Context, s store.ExecQuerier, name string) (key, projectID string, err error) {
	k, err := CreateKeyFor(ctx, s, name, nil)
	return k.Key, k.ProjectID, err
}

// NewKeyInfo is a key just created: the plaintext, shown once.
type NewKeyInfo struct {
	Key, ID, ProjectID string
}

// CreateKeyFor is CreateKey for a key limited to services (none: every
// one).
func CreateKeyFor(ctx context.Context, s store.ExecQuerier, name string, services []string) (NewKeyInfo, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return NewKeyInfo{}, errors.New("project name is empty")
	}
	for _, sv := range services {
		if sv == "" || strings.ContainsAny(sv, ",'\\ ") {
			return NewKeyInfo{}, fmt.Errorf("service %q is not a service name", sv)
		}
	}
	p, found, err := FindProject(ctx, s, name)
	if err != nil {
		return NewKeyInfo{}, err
	}
	if !found {
		if p, err = CreateProject(ctx, s, ProjectSpec{Name: name}); err != nil {
			return NewKeyInfo{}, err
		}
	}
	key, err := NewKey()
	if err != nil {
		return NewKeyInfo{}, err
	}
	h := hashKey(key)
	err = s.Exec(ctx, `INSERT INTO api_keys (key_hash, key_prefix, project_id, services)
		VALUES (unhex({h:String}), {p:String}, {pid:String}, splitByChar(',', {sv:String}))`,
		store.Params{"h": hex.EncodeToString([]byte(h)), "p": key[:6], "pid": p.ID, "sv": strings.Join(services, ",")})
	if err != nil {
		return NewKeyInfo{}, fmt.Errorf("store key: %w", err)
	}
	return NewKeyInfo{Key: key, ID: keyIDOf(h), ProjectID: p.ID}, nil
}

// RevokeKey marks key revoked (see RevokeKeyID).
func RevokeKey(ctx context.Context, s store.ExecQuerier, key string) error {
	_, err := RevokeKeyID(ctx, s, KeyID(key))
	return err
}

// RevokeKeyID marks the key of id revoked and reports whether there was
// one. A running server's Checker stops accepting it at its next change
// check (Checker.Watch).
func RevokeKeyID(ctx context.Context, s store.ExecQuerier, id string) (bool, error) {
	id = strings.ToLower(strings.TrimSpace(id))
	if _, err := hex.DecodeString(id); err != nil || len(id) != 16 {
		return false, BadKeyIDError{id}
	}
	res, err := s.Query(ctx, `SELECT count() FROM api_keys WHERE `+keyIDSQL+` = {id:String}`, store.Params{"id": id})
	if err != nil {
		return false, fmt.Errorf("revoke key: %w", err)
	}
	if n, _ := res.Rows[0][0].(uint64); n == 0 {
		return false, nil
	}
	err = s.Exec(ctx, `INSERT INTO api_keys (key_hash, key_prefix, project_id, services, revoked, created_at, updated_at)
		SELECT key_hash, argMax(key_prefix, updated_at), argMax(project_id, updated_at), argMax(services, updated_at),
			true, min(created_at), greatest(now64(3), max(updated_at) + toIntervalMillisecond(1))
		FROM api_keys WHERE `+keyIDSQL+` = {id:String} GROUP BY key_hash`,
		store.Params{"id": id})
	if err != nil {
		return false, fmt.Errorf("revoke key: %w", err)
	}
	return true, nil
}

// BadKeyIDError is a key id that is not 16 hex digits.
type BadKeyIDError struct{ ID string }

func (e BadKeyIDError) Error() string {
	return fmt.Sprintf("key id %q: want the 16 hex digits `dasch keys list` shows", e.ID)
}

// KeyListing is one key as `dasch keys list` shows it: never the key.
type KeyListing struct {
	ID, Prefix, ProjectID, Project string
	Services                       []string
	Revoked                        bool
	Created                        time.Time
}

// ListKeys lists every key, oldest first, of the project named project
// (every project when empty).
func ListKeys(ctx context.Context, s store.Querier, project string) ([]KeyListing, error) {
	res, err := s.Query(ctx, `SELECT `+keyIDSQL+`, argMax(key_prefix, updated_at), argMax(project_id, updated_at),
			'', argMax(services, updated_at), argMax(revoked, updated_at), min(created_at) AS created
		FROM api_keys GROUP BY key_hash ORDER BY created, 1`, nil)
	if err != nil {
		return nil, fmt.Errorf("list keys: %w", err)
	}
	projects, err := ListProjects(ctx, s)
	if err != nil {
		return nil, err
	}
	names := map[string]string{}
	for _, p := range projects {
		names[p.ID] = p.Name
	}
	for _, r := range res.Rows {
		r[3] = names[r[2].(string)]
	}
	return keyRows(res, project), nil
}

func keyRows(res *store.Result, project string) []KeyListing {
	var out []KeyListing
	for _, r := range res.Rows {
		k := KeyListing{ID: r[0].(string), Prefix: r[1].(string), ProjectID: r[2].(string), Project: r[3].(string),
			Services: strs(r[4]), Revoked: r[5].(bool), Created: r[6].(time.Time)}
		if project != "" && k.Project != project && k.ProjectID != project {
			continue
		}
		out = append(out, k)
	}
	return out
}

// strs reads an Array(String) value; empty strings (a key created with no
// services) are dropped.
func strs(v any) []string {
	a, _ := v.([]any)
	var out []string
	for _, x := range a {
		if s, _ := x.(string); s != "" {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out
}
