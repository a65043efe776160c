package checkpoint

import (
	"context"
	"fmt"
	"strconv"

	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store"
)

// Write records that everything up to slot is committed. The
// table keeps the highest slot per name, so a lower value never moves the
// indexed slot back.
func Write(ctx context.Context, s store.Execer, slot uint64) error {
	err := s.Exec(ctx, `INSERT INTO indexer_checkpoints (name, slot) VALUES ({name:String}, {slot:UInt64})`,
		store.Params{"name": schema.CheckpointMain, "slot": strconv.FormatUint(slot, 10)})
	if err != nil {
		return fmt.Errorf("write checkpoint at slot %d: %w", slot, err)
	}
	return nil
}

// WriteRewrite logs that the slots from..to, at or below the indexed
// slot, were derived again (schema.TableRewrites).
func WriteRewrite(ctx context.Context, s store.Execer, from, to uint64) error {
	err := s.Exec(ctx, `INSERT INTO indexer_rewrites (from_slot, to_slot) VALUES ({from:UInt64}, {to:UInt64})`,
		store.Params{"from": strconv.FormatUint(from, 10), "to": strconv.FormatUint(to, 10)})
	if err != nil {
		return fmt.Errorf("log rewrite of slots %d..%d: %w", from, to, err)
	}
	return nil
}

// WriteRun is Write that also moves a run's own checkpoint, in the same
// insert: run names what the run read (a files source's directory), so
// that a later run over it can go on after the slots this one committed
// (RunSlot). Unlike the main checkpoint, a run's own one follows the run
// below the indexed slot too.
func WriteRun(ctx context.Context, s store.Execer, run string, slot uint64) error {
	err := s.Exec(ctx, `INSERT INTO indexer_checkpoints (name, slot) VALUES ({main:String}, {slot:UInt64}), ({run:String}, {slot:UInt64})`,
		store.Params{"main": schema.CheckpointMain, "run": RunPrefix + run, "slot": strconv.FormatUint(slot, 10)})
	if err != nil {
		return fmt.Errorf("write checkpoint of %s at slot %d: %w", run, slot, err)
	}
	return nil
}

// RunPrefix starts the names of runs' own checkpoints, so none is taken
// for the main one's.
const RunPrefix = "run:"
