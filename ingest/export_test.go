package ingest

import (
	"github.com/dasch-labs/dasch/ingest/arrowbatch"
	"github.com/dasch-labs/dasch/ingest/decode"
)

// TablesOf lists the tables a run configured with decs writes.
func TablesOf(decs ...decode.Decoder) []arrowbatch.Table {
	return tables(Config{Decoders: decs}.decoders())
}
