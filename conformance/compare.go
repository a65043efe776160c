package conformance

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/goccy/go-json"
)

// decodeValue parses JSON keeping numbers as json.Number, so integers above
// 2^53 compare exactly.
func decodeValue(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// dropPath removes the member at a dotted path ("value.compressedProof")
// from v, if present.
func dropPath(v any, path string) {
	parts := strings.Split(path, ".")
	for i, p := range parts {
		m, ok := v.(map[string]any)
		if !ok {
			return
		}
		if i == len(parts)-1 {
			delete(m, p)
			return
		}
		v = m[p]
	}
}

// lookup returns the value at a dotted path, or nil.
func lookup(v any, path string) any {
	for _, p := range strings.Split(path, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[p]
	}
	return v
}

// diff returns the first difference between got and want as
// "path: got X, want Y", or "" when they are equal. Object member order is
// free; array order, numbers (as written) and nulls are exact.
func diff(path string, got, want any) string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return mismatch(path, got, want)
		}
		keys := make([]string, 0, len(w)+len(g))
		for k := range w {
			keys = append(keys, k)
		}
		for k := range g {
			if _, ok := w[k]; !ok {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			gv, gok := g[k]
			wv, wok := w[k]
			switch {
			case !gok:
				return join(path, k) + ": missing, want " + render(wv)
			case !wok:
				return join(path, k) + ": unexpected member " + render(gv)
			}
			if d := diff(join(path, k), gv, wv); d != "" {
				return d
			}
		}
		return ""
	case []any:
		g, ok := got.([]any)
		if !ok {
			return mismatch(path, got, want)
		}
		for i := range min(len(g), len(w)) {
			if d := diff(path+"["+strconv.Itoa(i)+"]", g[i], w[i]); d != "" {
				return d
			}
		}
		if len(g) != len(w) {
			return fmt.Sprintf("%s: %d elements, want %d", orRoot(path), len(g), len(w))
		}
		return ""
	case json.Number:
		if g, ok := got.(json.Number); !ok || g.String() != w.String() {
			return mismatch(path, got, want)
		}
		return ""
	default:
		if got != want {
			return mismatch(path, got, want)
		}
		return ""
	}
}

func join(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

func orRoot(path string) string {
	if path == "" {
		return "(root)"
	}
	return path
}

func mismatch(path string, got, want any) string {
	return orRoot(path) + ": got " + render(got) + ", want " + render(want)
}

// render is v as compact JSON, cut to keep a report line readable.
func render(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	const maxLen = 160
	if len(b) > maxLen {
		return string(b[:maxLen]) + "…"
	}
	return string(b)
}
