package main

import (
	"context"
	"fmt"
	"runtime/debug"

	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store/chdb"
)

func runVersion(_ context.Context, e *env, _ []string) error {
	v := "devel"
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		v = bi.Main.Version
	}
	fmt.Fprintf(e.stdout, "dasch %s (schema %d, embedded engine libchdb %s)\n", v, schema.Latest(), chdb.LibVersion)
	return nil
}
