package main

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/dasch-labs/dasch/auth"
)

func runProjects(ctx context.Context, e *env, args []string) error {
	if len(args) == 0 {
		return usagef("expected a subcommand: create, set or list")
	}
	switch args[0] {
	case "create", "set":
		return projectsWrite(ctx, e, args[0], args[1:])
	case "list":
		return projectsList(ctx, e, args[1:])
	}
	return usagef("unknown subcommand %q: create, set or list", args[0])
}

// projectFlags are the settings create and set take; unset flags keep
// the project's value (or the default).
type projectFlags struct {
	plan, limit, anchor, prepaid *string
}

func addProjectFlags(fs *flag.FlagSet) projectFlags {
	return projectFlags{
		plan:    fs.String("plan", "", "plan name (free, developer, business, professional, or one of --billing's)"),
		limit:   fs.String("credits-limit", "", "monthly credits, over the plan's; \"plan\" for the plan's again"),
		anchor:  fs.String("billing-anchor", "", "YYYY-MM-DD: credit cycles start on this day of each month (default: the creation day)"),
		prepaid: fs.String("prepaid-credits", "", "prepaid credits granted from now on (they replace the balance left)"),
	}
}

func (f projectFlags) spec(fs *flag.FlagSet, name string) (auth.ProjectSpec, error) {
	sp := auth.ProjectSpec{Name: name}
	if set(fs, "plan") {
		sp.Plan = f.plan
	}
	if set(fs, "credits-limit") {
		if *f.limit == "plan" {
			sp.ClearLimit = true
		} else {
			v, err := strconv.ParseUint(*f.limit, 10, 64)
			if err != nil {
				return sp, usagef("--credits-limit %q: want a whole number or plan", *f.limit)
			}
			sp.CreditsLimit = &v
		}
	}
	if set(fs, "billing-anchor") {
		t, err := time.Parse(time.DateOnly, *f.anchor)
		if err != nil {
			return sp, usagef("--billing-anchor %q: want YYYY-MM-DD", *f.anchor)
		}
		sp.BillingAnchor = &t
	}
	if set(fs, "prepaid-credits") {
		v, err := strconv.ParseUint(*f.prepaid, 10, 64)
		if err != nil {
			return sp, usagef("--prepaid-credits %q: want a whole number", *f.prepaid)
		}
		sp.PrepaidCredits = &v
	}
	return sp, nil
}

func projectsWrite(ctx context.Context, e *env, verb string, args []string) error {
	fs := newFlags(e, "projects "+verb)
	url := fs.String("store", defaultStore(), "store URL")
	pf := addProjectFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("expected one project name")
	}
	sp, err := pf.spec(fs, fs.Arg(0))
	if err != nil {
		return err
	}
	s, closeStore, err := openStore(ctx, e, *url, true)
	if err != nil {
		return err
	}
	defer closeStore()
	var p auth.Project
	if verb == "create" {
		p, err = auth.CreateProject(ctx, s, sp)
	} else {
		p, err = auth.SetProject(ctx, s, fs.Arg(0), sp)
	}
	if err != nil {
		return err
	}
	return printProjects(e, []auth.Project{p})
}

func projectsList(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "projects list")
	url := fs.String("store", defaultStore(), "store URL")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	s, closeStore, err := openStore(ctx, e, *url, true)
	if err != nil {
		return err
	}
	defer closeStore()
	ps, err := auth.ListProjects(ctx, s)
	if err != nil {
		return err
	}
	return printProjects(e, ps)
}

func printProjects(e *env, ps []auth.Project) error {
	w := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tNAME\tPLAN\tCREDITS LIMIT\tBILLING ANCHOR\tPREPAID\tPREPAID SINCE")
	for _, p := range ps {
		limit := "plan"
		if p.CreditsLimit != nil {
			limit = strconv.FormatUint(*p.CreditsLimit, 10)
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%d\t%s\n", p.ID, p.Name, p.Plan, limit, p.Anchor().Format(time.DateOnly),
			p.PrepaidCredits, p.PrepaidAt.UTC().Format(time.DateTime))
	}
	return w.Flush()
}
