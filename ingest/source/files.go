package source

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"

	"github.com/dasch-labs/dasch/chain/solana"
)

// Files reads *.json files under a directory: getBlock results,
// getTransaction results and account snapshots, recognised by content.
//
// Ordering by slot needs every file's slot before the first item goes out,
// so Read makes two passes: one classifies every file (in parallel), the
// second reads them again in slot order. Memory stays bounded by the
// largest file rather than the whole directory. One Read at a time.
type Files struct {
	dir string
	// through, when skip is set, is the last slot a resumed run skips.
	through     uint64
	skip        bool
	done, total atomic.Int64
}

var _ Progresser = (*Files)(nil)

// NewFiles returns a source over dir, which must be a directory.
func NewFiles(dir string) (*Files, error) {
	if dir == "" {
		return nil, errors.New("source files: no directory (want files:DIR)")
	}
	st, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("source files:%s: %w", dir, err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("source files:%s: not a directory", dir)
	}
	return &Files{dir: dir}, nil
}

// Spec implements Source.
func (f *Files) Spec() string { return "files:" + f.dir }

// Progress implements Progresser.
func (f *Files) Progress() (done, total int64) { return f.done.Load(), f.total.Load() }

// Run names what the source reads for checkpoints of its own
// (ingest.Config.Run): the directory's absolute path.
func (f *Files) Run() string {
	dir, err := filepath.Abs(f.dir)
	if err != nil {
		dir = f.dir
	}
	return "files:" + dir
}

// SkipThrough makes Read leave out the files at or below slot: those a
// run over the directory already committed (checkpoint.RunSlot).
func (f *Files) SkipThrough(slot uint64) { f.through, f.skip = slot, true }

// Read implements Source.
func (f *Files) Read(ctx context.Context, emit func(Item) error) error {
	f.done.Store(0)
	f.total.Store(0)
	files, err := scan(ctx, f.dir)
	if err != nil {
		return fmt.Errorf("source %s: %w", f.Spec(), err)
	}
	if f.skip {
		// Files come in slot order: the committed ones lead.
		n := 0
		for n < len(files) && files[n].slot <= f.through {
			n++
		}
		files = files[n:]
	}
	var total int64
	for _, e := range files {
		total += e.size
	}
	f.total.Store(total)
	e := emitter{emit: emit}
	for _, file := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := e.file(file); err != nil {
			return err
		}
		f.done.Add(file.size)
	}
	return nil
}

// emitter numbers items as it emits them.
type emitter struct {
	emit func(Item) error
	seq  uint64
}

func (e *emitter) send(it Item) error {
	it.Seq = e.seq
	e.seq++
	return e.emit(it)
}

func (e *emitter) bad(f scanned, raw []byte, fail string, err error) error {
	return e.send(Item{Kind: KindBad, Slot: f.slot, Key: f.path, Raw: raw, Fail: fail, Err: err})
}

// file emits the items of one classified file, reading it again.
func (e *emitter) file(f scanned) error {
	raw, err := os.ReadFile(f.path)
	if err != nil {
		return e.bad(f, nil, "file", err)
	}
	if f.err != nil {
		return e.bad(f, raw, f.fail, f.err)
	}
	switch f.shape {
	case solana.ShapeTx:
		return e.send(Item{Kind: KindTx, Slot: f.slot, Key: f.path, Raw: raw})
	case solana.ShapeAccount:
		return e.send(Item{Kind: KindAccount, Slot: f.slot, Key: f.path, Raw: raw})
	case solana.ShapeBlock:
		return e.block(f.path, f.slot, raw)
	}
	return e.bad(f, raw, "file", errors.New("unclassified file"))
}

// block emits a getBlock result: its header, then its transactions, or
// the whole block as bad input when it does not parse. key names where
// it came from.
func (e *emitter) block(key string, slot uint64, raw []byte) error {
	b, entries, err := solana.ParseBlock(raw, slot)
	return e.parsed(key, slot, raw, b, entries, err)
}

// parsed emits a block ParseBlock returned b, entries and err for.
func (e *emitter) parsed(key string, slot uint64, raw []byte, b *solana.Block, entries [][]byte, err error) error {
	if err != nil {
		return e.send(Item{Kind: KindBad, Slot: slot, Key: key, Raw: raw, Fail: "block", Err: err})
	}
	if err := e.send(Item{Kind: KindBlock, Slot: b.Slot, Key: key, Block: b}); err != nil {
		return err
	}
	for i, tx := range entries {
		it := Item{Kind: KindTx, Slot: b.Slot, Key: fmt.Sprintf("%s#%d", key, i), Raw: tx, TxIndex: uint32(i)}
		if err := e.send(it); err != nil {
			return err
		}
	}
	return nil
}
