package auth

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/dasch-labs/dasch/store"
)

// DefaultPlan is the plan of a project created without one.
const DefaultPlan = "free"

// Project is a project's billing settings as stored.
type Project struct {
	ID, Name string
	Plan     string
	// CreditsLimit overrides the plan's monthly credits when set.
	CreditsLimit *uint64
	// BillingAnchor is the day credit cycles start from; zero means the
	// day the project was created (Anchor).
	BillingAnchor time.Time
	// PrepaidCredits were granted at PrepaidAt and never expire.
	PrepaidCredits uint64
	PrepaidAt      time.Time
	Created        time.Time
	// updated orders the project's rows: each write is later.
	updated time.Time
}

// Anchor is the day the project's credit cycles start from.
func (p Project) Anchor() time.Time {
	if !p.BillingAnchor.IsZero() {
		return p.BillingAnchor
	}
	return p.Created.UTC().Truncate(24 * time.Hour)
}

// ProjectSpec creates or changes a project; nil members keep their value
// (or take the default on creation).
type ProjectSpec struct {
	Name           string
	Plan           *string
	CreditsLimit   *uint64
	ClearLimit     bool // back to the plan's credits
	BillingAnchor  *time.Time
	PrepaidCredits *uint64
}

// projectCols are the columns ListProjects and FindProject read, latest
// row per id. argMax skips nulls, so the nullable ones are read in a
// tuple: a limit cleared back to the plan's stays cleared.
const projectCols = `id, argMax(name, updated_at), argMax(plan, updated_at), argMax(tuple(credits_limit), updated_at).1,
	argMax(tuple(billing_anchor), updated_at).1, argMax(prepaid_credits, updated_at), argMax(prepaid_at, updated_at),
	min(created_at), max(updated_at)`

// ListProjects lists every project, oldest first.
func ListProjects(ctx context.Context, s store.Querier) ([]Project, error) {
	res, err := s.Query(ctx, `SELECT `+projectCols+` AS created FROM api_projects GROUP BY id ORDER BY created, id`, nil)
	if err != nil {
		return nil, fmt.Errorf("list projects: %w", err)
	}
	out := make([]Project, 0, len(res.Rows))
	for _, r := range res.Rows {
		out = append(out, projectRow(r))
	}
	return out, nil
}

// GetProject reads the project of id.
func GetProject(ctx context.Context, s store.Querier, id string) (Project, bool, error) {
	res, err := s.Query(ctx, `SELECT `+projectCols+` FROM api_projects WHERE id = {id:String} GROUP BY id`,
		store.Params{"id": id})
	if err != nil {
		return Project{}, false, fmt.Errorf("read project: %w", err)
	}
	if len(res.Rows) == 0 {
		return Project{}, false, nil
	}
	return projectRow(res.Rows[0]), true, nil
}

// FindProject finds a project by name (the oldest of that name) or id.
func FindProject(ctx context.Context, s store.Querier, nameOrID string) (Project, bool, error) {
	ps, err := ListProjects(ctx, s)
	if err != nil {
		return Project{}, false, err
	}
	for _, p := range ps {
		if p.Name == nameOrID {
			return p, true, nil
		}
	}
	for _, p := range ps {
		if p.ID == nameOrID {
			return p, true, nil
		}
	}
	return Project{}, false, nil
}

func projectRow(r []any) Project {
	p := Project{ID: r[0].(string), Name: r[1].(string), Plan: r[2].(string), PrepaidCredits: r[5].(uint64),
		PrepaidAt: r[6].(time.Time), Created: r[7].(time.Time), updated: r[8].(time.Time)}
	if v, ok := r[3].(uint64); ok {
		p.CreditsLimit = &v
	}
	if v, ok := r[4].(time.Time); ok {
		p.BillingAnchor = v.UTC()
	}
	if p.Plan == "" {
		p.Plan = DefaultPlan
	}
	return p
}

// CreateProject creates a project named sp.Name; a name already taken is
// an error.
func CreateProject(ctx context.Context, s store.ExecQuerier, sp ProjectSpec) (Project, error) {
	sp.Name = strings.TrimSpace(sp.Name)
	if sp.Name == "" {
		return Project{}, errors.New("project name is empty")
	}
	if _, found, err := FindProject(ctx, s, sp.Name); err != nil {
		return Project{}, err
	} else if found {
		return Project{}, fmt.Errorf("a project named %q exists", sp.Name)
	}
	var id [16]byte
	if _, err := rand.Read(id[:]); err != nil {
		return Project{}, fmt.Errorf("project id: %w", err)
	}
	now := time.Now().UTC()
	p := Project{ID: hex.EncodeToString(id[:]), Name: sp.Name, Plan: DefaultPlan, Created: now, PrepaidAt: now}
	apply(&p, sp, now)
	return p, writeProject(ctx, s, p)
}

// SetProject changes the project named (or of id) nameOrID.
func SetProject(ctx context.Context, s store.ExecQuerier, nameOrID string, sp ProjectSpec) (Project, error) {
	p, found, err := FindProject(ctx, s, nameOrID)
	if err != nil {
		return Project{}, err
	}
	if !found {
		return Project{}, fmt.Errorf("no project named %q", nameOrID)
	}
	apply(&p, sp, time.Now().UTC())
	return p, writeProject(ctx, s, p)
}

func apply(p *Project, sp ProjectSpec, now time.Time) {
	if sp.Plan != nil {
		p.Plan = strings.TrimSpace(*sp.Plan)
	}
	if sp.ClearLimit {
		p.CreditsLimit = nil
	}
	if sp.CreditsLimit != nil {
		v := *sp.CreditsLimit
		p.CreditsLimit = &v
	}
	if sp.BillingAnchor != nil {
		p.BillingAnchor = sp.BillingAnchor.UTC().Truncate(24 * time.Hour)
	}
	if sp.PrepaidCredits != nil {
		// A new grant: the balance is this many from now on.
		p.PrepaidCredits, p.PrepaidAt = *sp.PrepaidCredits, now
	}
}

func writeProject(ctx context.Context, s store.Execer, p Project) error {
	if p.Plan == "" || strings.ContainsAny(p.Plan, " ,'\\") {
		return fmt.Errorf("plan %q is not a plan name", p.Plan)
	}
	limit, anchor := "", ""
	if p.CreditsLimit != nil {
		limit = strconv.FormatUint(*p.CreditsLimit, 10)
	}
	if !p.BillingAnchor.IsZero() {
		anchor = p.BillingAnchor.Format(time.DateOnly)
	}
	err := s.Exec(ctx, `INSERT INTO api_projects (id, name, created_at, plan, credits_limit, billing_anchor,
			prepaid_credits, prepaid_at, updated_at)
		VALUES ({id:String}, {name:String}, {created:DateTime64(3, 'UTC')}, {plan:String},
			if({limit:String} = '', NULL, toUInt64OrNull({limit:String})),
			if({anchor:String} = '', NULL, toDateOrNull({anchor:String})),
			{prepaid:UInt64}, {prepaid_at:DateTime64(3, 'UTC')}, {updated:DateTime64(3, 'UTC')})`,
		store.Params{"id": p.ID, "name": p.Name, "created": p.Created.UTC().Format("2006-01-02 15:04:05.000"),
			"plan": p.Plan, "limit": limit, "anchor": anchor, "prepaid": strconv.FormatUint(p.PrepaidCredits, 10),
			"prepaid_at": p.PrepaidAt.UTC().Format("2006-01-02 15:04:05.000"),
			"updated":    later(p.updated).Format("2006-01-02 15:04:05.000")})
	if err != nil {
		return fmt.Errorf("store project %q: %w", p.Name, err)
	}
	return nil
}

// later is now, or a millisecond after prev if now is not after it: the
// row written wins over prev whatever the clock did.
func later(prev time.Time) time.Time {
	now := time.Now().UTC().Truncate(time.Millisecond)
	if !now.After(prev) {
		now = prev.UTC().Add(time.Millisecond)
	}
	return now
}
