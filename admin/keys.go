package admin

import (
	"context"
	"crypto/subtle"
	"errors"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/auth"
)

// The key routes let an operator manage keys through the running server,
// which is the only way beside `dasch serve` on an embedded store (one
// process per data directory), and the way a revoked key fails at once:
//
//	POST /v0/admin/keys                {"project": NAME, "services": [...]}
//	GET  /v0/admin/keys[?project=NAME]
//	POST /v0/admin/keys/{id}/revoke
//
// They take the operator token (serve --admin-token) as a bearer token,
// never a project's api key.

// keysRoute is the key routes' prefix.
const keysRoute = "/v0/admin/keys"

// serveKeys answers the key routes; it reports false for another path.
func (s *Server) serveKeys(w http.ResponseWriter, r *http.Request) bool {
	rest, ok := strings.CutPrefix(r.URL.Path, keysRoute)
	if !ok || rest != "" && rest[0] != '/' {
		return false
	}
	if s.o.Token == "" || s.o.KeyStore == nil {
		writeError(w, http.StatusNotFound, "key management is off: start dasch serve with --admin-token (or DASCH_ADMIN_TOKEN)")
		return true
	}
	if !s.operator(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="dasch admin"`)
		writeError(w, http.StatusUnauthorized, "missing or wrong operator token: send it as Authorization: Bearer TOKEN")
		return true
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.o.Timeout)
	defer cancel()
	switch {
	case rest == "" || rest == "/":
		switch r.Method {
		case http.MethodGet:
			s.listKeys(ctx, w, r)
		case http.MethodPost:
			s.createKey(ctx, w, r)
		default:
			w.Header().Set("Allow", "GET, POST")
			writeError(w, http.StatusMethodNotAllowed, "method not allowed, use GET or POST")
		}
	case strings.HasSuffix(rest, "/revoke") && strings.Count(rest, "/") == 2:
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", "POST")
			writeError(w, http.StatusMethodNotAllowed, "method not allowed, use POST")
			return true
		}
		s.revokeKey(ctx, w, strings.TrimSuffix(rest[1:], "/revoke"))
	default:
		writeError(w, http.StatusNotFound, "unknown path; the key routes are /v0/admin/keys and /v0/admin/keys/{id}/revoke")
	}
	return true
}

// operator tells whether r carries the operator token.
func (s *Server) operator(r *http.Request) bool {
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return ok && subtle.ConstantTimeCompare([]byte(strings.TrimSpace(tok)), []byte(s.o.Token)) == 1
}

// KeyInfo is a key as the key routes answer it: never the key, except
// once in the answer that creates it.
type KeyInfo struct {
	ID        string    `json:"id"`
	Key       string    `json:"key,omitempty"`
	Prefix    string    `json:"prefix,omitempty"`
	Project   string    `json:"project"`
	ProjectID string    `json:"projectId"`
	Services  []string  `json:"services"`
	Revoked   bool      `json:"revoked"`
	Created   time.Time `json:"created,omitzero"`
}

func (s *Server) listKeys(ctx context.Context, w http.ResponseWriter, r *http.Request) {
	keys, err := auth.ListKeys(ctx, s.o.KeyStore, r.URL.Query().Get("project"))
	if err != nil {
		s.o.Logger.Error("admin: list keys failed", "err", err)
		writeError(w, http.StatusServiceUnavailable, "service unavailable")
		return
	}
	out := make([]KeyInfo, 0, len(keys))
	for _, k := range keys {
		out = append(out, KeyInfo{ID: k.ID, Prefix: k.Prefix, Project: k.Project, ProjectID: k.ProjectID,
			Services: nonNil(k.Services), Revoked: k.Revoked, Created: k.Created.UTC()})
	}
	writeJSON(w, http.StatusOK, map[string]any{"keys": out})
}

func (s *Server) createKey(ctx context.Context, w http.ResponseWriter, r *http.Request) {
	var req struct {
		Project  string   `json:"project"`
		Services []string `json:"services"`
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 64<<10))
	if err == nil {
		dec := json.NewDecoder(strings.NewReader(string(body)))
		dec.DisallowUnknownFields()
		err = dec.Decode(&req)
	}
	if err != nil {
		writeError(w, http.StatusBadRequest, "the body must be a JSON object {\"project\": NAME, \"services\": [das|photon|rpc, ...]}: "+err.Error())
		return
	}
	req.Project = strings.TrimSpace(req.Project)
	if req.Project == "" {
		writeError(w, http.StatusBadRequest, "project is required")
		return
	}
	for _, sv := range req.Services {
		if sv != "das" && sv != "photon" && sv != "rpc" {
			writeError(w, http.StatusBadRequest, "unknown service "+strconvQuote(sv)+": das, photon or rpc")
			return
		}
	}
	k, err := auth.CreateKeyFor(ctx, s.o.KeyStore, req.Project, req.Services)
	if err != nil {
		s.o.Logger.Error("admin: create key failed", "err", err)
		writeError(w, http.StatusServiceUnavailable, "service unavailable")
		return
	}
	writeJSON(w, http.StatusCreated, KeyInfo{ID: k.ID, Key: k.Key, Project: req.Project, ProjectID: k.ProjectID,
		Services: nonNil(req.Services)})
}

func (s *Server) revokeKey(ctx context.Context, w http.ResponseWriter, id string) {
	found, err := auth.RevokeKeyID(ctx, s.o.KeyStore, id)
	var bad auth.BadKeyIDError
	switch {
	case errors.As(err, &bad):
		writeError(w, http.StatusBadRequest, err.Error())
		return
	case err != nil:
		s.o.Logger.Error("admin: revoke key failed", "err", err)
		writeError(w, http.StatusServiceUnavailable, "service unavailable")
		return
	case !found:
		writeError(w, http.StatusNotFound, "no key with id "+id)
		return
	}
	id = strings.ToLower(id)
	if s.o.Forget != nil {
		s.o.Forget(id)
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": id, "revoked": true})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "internal error")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
