package source

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/dasch-labs/dasch/chain/solana"
)

// scanned is one input file after the classification pass.
type scanned struct {
	path  string
	size  int64
	shape solana.Shape
	slot  uint64
	fail  string // dead-letter kind when err is set
	err   error
}

var errShape = errors.New("unrecognised JSON: want a getBlock result (blockhash, transactions), " +
	"a getTransaction result (transaction, slot) or an account (pubkey, owner, data)")

// scan lists every *.json file under dir, classifies each by content and
// returns them in ingestion order: by slot, then by path.
func scan(ctx context.Context, dir string) ([]scanned, error) {
	var files []scanned
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if d.Type().IsRegular() && strings.HasSuffix(path, ".json") {
			files = append(files, scanned{path: path})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list files: %w", err)
	}
	if err := classifyAll(ctx, files); err != nil {
		return nil, err
	}
	slices.SortFunc(files, func(a, b scanned) int {
		return cmp.Or(cmp.Compare(a.slot, b.slot), strings.Compare(a.path, b.path))
	})
	return files, nil
}

// classifyAll classifies files in parallel: parsing is the costly part.
func classifyAll(ctx context.Context, files []scanned) error {
	next := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				classify(&files[i])
			}
		}()
	}
	var err error
	for i := range files {
		if err = ctx.Err(); err != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	return err
}

func classify(f *scanned) {
	raw, err := os.ReadFile(f.path)
	if err != nil {
		f.fail, f.err = "file", err
		return
	}
	f.size = int64(len(raw))
	shape, slot, err := solana.Probe(raw)
	if err != nil {
		f.fail, f.err = "file", err
		return
	}
	f.shape = shape
	if slot != nil {
		f.slot = *slot
	}
	switch shape {
	case solana.ShapeUnknown:
		f.fail, f.err = "file", errShape
	case solana.ShapeAccount:
		if slot == nil {
			f.fail, f.err = "account", errors.New("account has no slot")
		}
	case solana.ShapeBlock:
		// getBlock results do not carry their slot; fixtures name the file by it.
		if slot == nil {
			s, err := strconv.ParseUint(strings.TrimSuffix(filepath.Base(f.path), ".json"), 10, 64)
			if err != nil {
				f.fail, f.err = "block", errors.New("block has no slot: add a \"slot\" member or name the file <slot>.json")
				return
			}
			f.slot = s
		}
	}
}
