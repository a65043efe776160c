package chdb

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// A read-only open runs the engine on a scratch path of its own, since the
// engine locks and writes files in its path (its status lock, temporary
// files). The scratch path's catalogue links to the directory's table
// data, with two changes the engine takes from its catalogue and
// configuration only: every MergeTree table read-only
// (merge_tree.table_readonly: no inserts, merges, mutations or moves), and
// every key-value table attached read-only (EmbeddedRocksDB's read_only
// argument: no lock on its files, no writes).

// readOnlyConf is the engine configuration of a read-only open.
const readOnlyConf = "<clickhouse><merge_tree><table_readonly>1</table_readonly></merge_tree></clickhouse>\n"

var (
	attachUUID = regexp.MustCompile(`(?m)^ATTACH TABLE _ UUID '([0-9a-f-]{36})'`)
	rocksDB    = regexp.MustCompile(`(?m)^ENGINE = EmbeddedRocksDB(\([^)\n]*\))?$`)
)

// readOnlyPath builds the scratch path of a read-only open of dir.
func readOnlyPath(dir string) (string, error) {
	scratch, err := os.MkdirTemp("", "dasch-readonly-")
	if err != nil {
		return "", fmt.Errorf("embedded store: read-only open: %w", err)
	}
	if err := buildReadOnly(dir, scratch); err != nil {
		os.RemoveAll(scratch)
		return "", fmt.Errorf("embedded store: read-only open of %s: %w", dir, err)
	}
	return scratch, nil
}

func buildReadOnly(dir, scratch string) error {
	// Databases' catalogues: metadata/NAME links to store/PPP/UUID.
	catalogues := map[string]bool{}
	entries, err := os.ReadDir(filepath.Join(dir, "metadata"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if err := os.Mkdir(filepath.Join(scratch, "metadata"), 0o755); err != nil {
		return err
	}
	for _, e := range entries {
		src := filepath.Join(dir, "metadata", e.Name())
		dst := filepath.Join(scratch, "metadata", e.Name())
		if e.Type()&os.ModeSymlink != 0 {
			target, err := os.Readlink(src)
			if err != nil {
				return err
			}
			if !filepath.IsAbs(target) {
				target = filepath.Join(filepath.Dir(src), target)
			}
			rel, err := filepath.Rel(dir, filepath.Clean(target))
			if err != nil || strings.HasPrefix(rel, "..") {
				return fmt.Errorf("catalogue %s outside the directory", src)
			}
			catalogues[rel] = true
			if err := os.Symlink(filepath.Join(scratch, rel), dst); err != nil {
				return err
			}
			continue
		}
		if err := copyFile(src, dst); err != nil {
			return err
		}
	}
	// store/PPP/UUID: links to the data, but the catalogues rewritten.
	prefixes, err := os.ReadDir(filepath.Join(dir, "store"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	for _, p := range prefixes {
		if !p.IsDir() {
			continue
		}
		if err := os.MkdirAll(filepath.Join(scratch, "store", p.Name()), 0o755); err != nil {
			return err
		}
		items, err := os.ReadDir(filepath.Join(dir, "store", p.Name()))
		if err != nil {
			return err
		}
		for _, it := range items {
			rel := filepath.Join("store", p.Name(), it.Name())
			if catalogues[rel] {
				if err := copyCatalogue(dir, filepath.Join(dir, rel), filepath.Join(scratch, rel)); err != nil {
					return err
				}
				continue
			}
			if err := os.Symlink(filepath.Join(dir, rel), filepath.Join(scratch, rel)); err != nil {
				return err
			}
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "data")); err == nil {
		if err := os.Symlink(filepath.Join(dir, "data"), filepath.Join(scratch, "data")); err != nil {
			return err
		}
	}
	return os.WriteFile(filepath.Join(scratch, "readonly.xml"), []byte(readOnlyConf), 0o644)
}

// copyCatalogue copies a database's table definitions, attaching each
// EmbeddedRocksDB table read-only on its data in dir.
func copyCatalogue(dir, src, dst string) error {
	if err := os.Mkdir(dst, 0o755); err != nil {
		return err
	}
	files, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	for _, f := range files {
		if f.IsDir() || !strings.HasSuffix(f.Name(), ".sql") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, f.Name()))
		if err != nil {
			return err
		}
		if rocksDB.Match(b) {
			m := attachUUID.FindSubmatch(b)
			if m == nil {
				return fmt.Errorf("%s: a key-value table without a UUID", f.Name())
			}
			uuid := string(m[1])
			data := filepath.Join(dir, "store", uuid[:3], uuid) + "/"
			b = rocksDB.ReplaceAll(b, []byte("ENGINE = EmbeddedRocksDB(0, '"+data+"', 1)"))
		}
		if err := os.WriteFile(filepath.Join(dst, f.Name()), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func copyFile(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o644)
}
