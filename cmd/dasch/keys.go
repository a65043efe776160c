package main

import (
	"context"
	"fmt"
	neturl "net/url"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/dasch-labs/dasch/admin"
	"github.com/dasch-labs/dasch/auth"
)

func runKeys(ctx context.Context, e *env, args []string) error {
	if len(args) == 0 {
		return usagef("expected a subcommand: create, list or revoke")
	}
	switch args[0] {
	case "create":
		return keysCreate(ctx, e, args[1:])
	case "list":
		return keysList(ctx, e, args[1:])
	case "revoke":
		return keysRevoke(ctx, e, args[1:])
	}
	return usagef("unknown subcommand %q: create, list or revoke", args[0])
}

func keysCreate(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "keys create")
	url := fs.String("store", defaultStore(), "store URL")
	project := fs.String("project", "", "project name (created if new)")
	services := fs.String("services", "", "service classes the key may use, comma-separated: das, photon, rpc (empty = all)")
	adm := addAdminFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *project == "" {
		return usagef("--project is required")
	}
	var svcs []string
	for _, sv := range strings.Split(*services, ",") {
		switch sv = strings.TrimSpace(sv); sv {
		case "":
		case "das", "photon", "rpc":
			svcs = append(svcs, sv)
		default:
			return usagef("unknown service %q in --services: das, photon or rpc", sv)
		}
	}
	if adm.on() {
		var k admin.KeyInfo
		if err := adm.call(ctx, "POST", "/v0/admin/keys", map[string]any{"project": *project, "services": svcs}, &k); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "project %s (%s), key id %s\n%s\n", *project, k.ProjectID, k.ID, k.Key)
		return nil
	}
	s, closeStore, err := openStore(ctx, e, *url, true)
	if err != nil {
		return err
	}
	defer closeStore()
	k, err := auth.CreateKeyFor(ctx, s, *project, svcs)
	if err != nil {
		return err
	}
	// The key is the last line: scripts take it with `tail -n1`.
	fmt.Fprintf(e.stdout, "project %s (%s), key id %s\n%s\n", *project, k.ProjectID, k.ID, k.Key)
	return nil
}

func keysList(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "keys list")
	url := fs.String("store", defaultStore(), "store URL")
	project := fs.String("project", "", "only this project's keys (name or id)")
	adm := addAdminFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	var keys []auth.KeyListing
	if adm.on() {
		var out struct{ Keys []admin.KeyInfo }
		if err := adm.call(ctx, "GET", "/v0/admin/keys?project="+neturl.QueryEscape(*project), nil, &out); err != nil {
			return err
		}
		for _, k := range out.Keys {
			keys = append(keys, auth.KeyListing{ID: k.ID, Prefix: k.Prefix, ProjectID: k.ProjectID, Project: k.Project,
				Services: k.Services, Revoked: k.Revoked, Created: k.Created})
		}
	} else {
		s, closeStore, err := openStore(ctx, e, *url, true)
		if err != nil {
			return err
		}
		defer closeStore()
		if keys, err = auth.ListKeys(ctx, s, *project); err != nil {
			return err
		}
	}
	w := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tPREFIX\tPROJECT\tPROJECT ID\tSERVICES\tCREATED\tSTATUS")
	for _, k := range keys {
		status, svcs := "active", "all"
		if k.Revoked {
			status = "revoked"
		}
		if len(k.Services) > 0 {
			svcs = strings.Join(k.Services, ",")
		}
		fmt.Fprintf(w, "%s\t%s…\t%s\t%s\t%s\t%s\t%s\n", k.ID, k.Prefix, k.Project, k.ProjectID, svcs,
			k.Created.UTC().Format(time.DateTime), status)
	}
	return w.Flush()
}

func keysRevoke(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "keys revoke")
	url := fs.String("store", defaultStore(), "store URL")
	adm := addAdminFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("expected one key id (from `dasch keys list`)")
	}
	if adm.on() {
		if err := adm.call(ctx, "POST", "/v0/admin/keys/"+neturl.PathEscape(fs.Arg(0))+"/revoke", nil, nil); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "key %s revoked (the server refuses it from now on)\n", strings.ToLower(fs.Arg(0)))
		return nil
	}
	s, closeStore, err := openStore(ctx, e, *url, true)
	if err != nil {
		return err
	}
	defer closeStore()
	found, err := auth.RevokeKeyID(ctx, s, fs.Arg(0))
	if err != nil {
		return err
	}
	if !found {
		return fmt.Errorf("no key with id %s", fs.Arg(0))
	}
	fmt.Fprintf(e.stdout, "key %s revoked\n", strings.ToLower(fs.Arg(0)))
	return nil
}
