package main

import (
	"context"
	"fmt"

	"github.com/dasch-labs/dasch/auth"
)

func runKeys(ctx context.Context, e *env, args []string) error {
	if len(args) == 0 || args[0] != "create" {
		return usagef("expected a subcommand: create")
	}
	fs := newFlags(e, "keys create")
	url := fs.String("store", defaultStore(), "store URL")
	project := fs.String("project", "", "project name (created if new)")
	if err := parseFlags(fs, args[1:]); err != nil {
		return err
	}
	if *project == "" {
		return usagef("--project is required")
	}
	s, closeStore, err := openStore(ctx, e, *url, true)
	if err != nil {
		return err
	}
	defer closeStore()
	key, pid, err := auth.CreateKey(ctx, s, *project)
	if err != nil {
		return err
	}
	// The key is the last line: scripts take it with `tail -n1`.
	fmt.Fprintf(e.stdout, "project %s (%s)\n%s\n", *project, pid, key)
	return nil
}
