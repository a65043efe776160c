// Package auth manages API projects and keys: creation, and a checker the
// server consults on every request without a store round trip.
package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/mr-tron/base58"

	"github.com/dasch-labs/dasch/store"
)

// hashKey is what the store keeps: a leaked table does not leak keys.
func hashKey(key string) string {
	h := sha256.Sum256([]byte(key))
	return string(h[:])
}

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
func CreateKey(ctx context.Context, s store.ExecQuerier, name string) (key, projectID string, err error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", "", errors.New("project name is empty")
	}
	res, err := s.Query(ctx, `SELECT id FROM api_projects FINAL WHERE name = {name:String} ORDER BY created_at LIMIT 1`,
		store.Params{"name": name})
	if err != nil {
		return "", "", fmt.Errorf("find project %q: %w", name, err)
	}
	if len(res.Rows) > 0 {
		projectID = res.Rows[0][0].(string)
	} else {
		var id [16]byte
		if _, err := rand.Read(id[:]); err != nil {
			return "", "", fmt.Errorf("project id: %w", err)
		}
		projectID = hex.EncodeToString(id[:])
		err = s.Exec(ctx, `INSERT INTO api_projects (id, name) VALUES ({id:String}, {name:String})`,
			store.Params{"id": projectID, "name": name})
		if err != nil {
			return "", "", fmt.Errorf("create project %q: %w", name, err)
		}
	}
	if key, err = NewKey(); err != nil {
		return "", "", err
	}
	err = s.Exec(ctx, `INSERT INTO api_keys (key_hash, key_prefix, project_id) VALUES (unhex({h:String}), {p:String}, {pid:String})`,
		store.Params{"h": hex.EncodeToString([]byte(hashKey(key))), "p": key[:6], "pid": projectID})
	if err != nil {
		return "", "", fmt.Errorf("store key: %w", err)
	}
	return key, projectID, nil
}

// RevokeKey marks key revoked; checkers stop accepting it on their next refresh.
func RevokeKey(ctx context.Context, s store.ExecQuerier, key string) error {
	err := s.Exec(ctx, `INSERT INTO api_keys (key_hash, key_prefix, project_id, revoked)
		SELECT key_hash, key_prefix, project_id, true FROM api_keys FINAL WHERE key_hash = unhex({h:String})`,
		store.Params{"h": hex.EncodeToString([]byte(hashKey(key)))})
	if err != nil {
		return fmt.Errorf("revoke key: %w", err)
	}
	return nil
}
