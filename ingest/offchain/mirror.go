package offchain

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Mirror is a local directory of documents the fetcher reads instead of
// the network, for the URIs its index names: an index.json mapping each
// URI to a file under the directory. The demo ships one, so its assets
// show their content offline.
type Mirror struct {
	dir   string
	files map[string]string
	max   int64
}

// OpenMirror reads dir's index.json; documents larger than max bytes are
// refused when read.
func OpenMirror(dir string, max int64) (*Mirror, error) {
	raw, err := os.ReadFile(filepath.Join(dir, "index.json"))
	if err != nil {
		return nil, fmt.Errorf("metadata mirror: %w", err)
	}
	var files map[string]string
	if err := json.Unmarshal(raw, &files); err != nil {
		return nil, fmt.Errorf("metadata mirror %s: index.json: %w", dir, err)
	}
	for uri, name := range files {
		if name == "" || filepath.IsAbs(name) || strings.HasPrefix(filepath.Clean(name), "..") {
			return nil, fmt.Errorf("metadata mirror %s: %q: file %q is not under the directory", dir, uri, name)
		}
	}
	if max <= 0 {
		max = DefaultLimits.MaxBytes
	}
	return &Mirror{dir: dir, files: files, max: max}, nil
}

// Len is how many URIs the mirror holds.
func (m *Mirror) Len() int { return len(m.files) }

// Get returns the document the mirror holds for uri; ok is false when it
// holds none.
func (m *Mirror) Get(uri string) (doc []byte, ok bool, err error) {
	name, ok := m.files[uri]
	if !ok {
		return nil, false, nil
	}
	f, err := os.Open(filepath.Join(m.dir, name))
	if err != nil {
		return nil, true, err
	}
	defer f.Close()
	doc, err = io.ReadAll(io.LimitReader(f, m.max+1))
	if err != nil {
		return nil, true, err
	}
	if int64(len(doc)) > m.max {
		return nil, true, fmt.Errorf("%s: too_large", name)
	}
	return doc, true, nil
}
