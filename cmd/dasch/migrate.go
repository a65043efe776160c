package main

import (
	"context"
	"fmt"

	"github.com/dasch-labs/dasch/schema"
)

func runMigrate(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "migrate")
	url := fs.String("store", defaultStore(), "store URL")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	s, closeStore, err := openStore(ctx, e, *url, false)
	if err != nil {
		return err
	}
	defer closeStore()
	n, err := schema.Migrate(ctx, s)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "schema at version %d (%d migrations applied)\n", schema.Latest(), n)
	return nil
}
