package asset

import (
	"bytes"
	"errors"
	"fmt"
)

// ViewJSON appends to dst the JSON encoding of View(a, opts), where doc is
// the JSON encoding of a rendered with Folded. It edits the document's
// bytes instead of decoding it: a page of a thousand assets is then a
// copy, not a thousand decodes and encodes. The output is byte for byte
// what encoding the viewed asset gives, as long as doc is such an
// encoding (compact, members in the struct's order).
func ViewJSON(dst, doc []byte, opts Options) ([]byte, error) {
	v := jsonView{doc: doc, opts: opts, out: dst}
	if err := v.asset(); err != nil {
		return dst, fmt.Errorf("asset document: %w", err)
	}
	return v.out, nil
}

// WithSlot returns the asset JSON doc (an object) with last_indexed_slot
// as its first member, as Asset.LastIndexedSlot encodes it.
func WithSlot(dst, doc []byte, slot uint64) []byte {
	dst = append(dst, `{"last_indexed_slot":`...)
	dst = appendUint(dst, slot)
	if len(doc) > 2 {
		dst = append(dst, ',')
	}
	return append(dst, doc[1:]...)
}

func appendUint(dst []byte, v uint64) []byte {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + v%10)
		if v /= 10; v == 0 {
			break
		}
	}
	return append(dst, b[i:]...)
}

var errTruncated = errors.New("truncated JSON")

type jsonView struct {
	doc  []byte
	pos  int
	opts Options
	out  []byte
}

// asset copies the top-level object, leaving out the members opts hide
// and filtering grouping.
func (v *jsonView) asset() error {
	return v.object(func(key []byte, start, end int) (bool, error) {
		switch string(key) {
		case "token_info":
			return !v.opts.ShowFungible, nil
		case "inscription":
			return !v.opts.ShowInscription, nil
		case "grouping":
			if v.opts.ShowUnverifiedCollections && v.opts.ShowCollectionMetadata {
				return false, nil
			}
			v.out = append(v.out, `"grouping":`...)
			return true, v.grouping(start, end)
		}
		return false, nil
	})
}

// object walks the object at v.pos. For each member, handle is given the
// key and the value's span; it returns true when it wrote (or dropped)
// the member itself, false to have the member copied as it is. Commas
// are written here: handle writes the member only.
func (v *jsonView) object(handle func(key []byte, start, end int) (bool, error)) error {
	d := v.doc
	if v.pos >= len(d) || d[v.pos] != '{' {
		return fmt.Errorf("want an object at byte %d", v.pos)
	}
	v.pos++
	v.out = append(v.out, '{')
	first := true
	for {
		if v.pos >= len(d) {
			return errTruncated
		}
		if d[v.pos] == '}' {
			v.pos++
			v.out = append(v.out, '}')
			return nil
		}
		if !first {
			if d[v.pos] != ',' {
				return fmt.Errorf("want , at byte %d", v.pos)
			}
			v.pos++
		}
		memberStart := v.pos
		keyEnd, err := skipString(d, v.pos)
		if err != nil {
			return err
		}
		key := d[v.pos+1 : keyEnd-1]
		if keyEnd >= len(d) || d[keyEnd] != ':' {
			return fmt.Errorf("want : at byte %d", keyEnd)
		}
		start := keyEnd + 1
		end, err := skipValue(d, start)
		if err != nil {
			return err
		}
		mark := len(v.out)
		if len(v.out) > 0 && v.out[len(v.out)-1] != '{' {
			v.out = append(v.out, ',')
		}
		kept := len(v.out)
		done, err := handle(key, start, end)
		if err != nil {
			return err
		}
		switch {
		case !done:
			v.out = append(v.out, d[memberStart:end]...)
		case len(v.out) == kept:
			v.out = v.out[:mark] // dropped: no comma either
		}
		v.pos = end
		first = false
	}
}

// grouping writes the groups of the array in doc[start:end] that opts
// shows, each without the members opts hides.
func (v *jsonView) grouping(start, end int) error {
	d := v.doc[:end]
	if d[start] != '[' {
		return fmt.Errorf("grouping: want an array at byte %d", start)
	}
	v.out = append(v.out, '[')
	wrote, firstIn := false, true
	for i := start + 1; ; firstIn = false {
		if i >= len(d) {
			return errTruncated
		}
		if d[i] == ']' {
			v.out = append(v.out, ']')
			return nil
		}
		if !firstIn {
			if d[i] != ',' {
				return fmt.Errorf("grouping: want , at byte %d", i)
			}
			i++
		}
		elemEnd, err := skipValue(d, i)
		if err != nil {
			return err
		}
		mark := len(v.out)
		if wrote {
			v.out = append(v.out, ',')
		}
		v.pos = i
		unverified := false
		err = v.object(func(key []byte, s, e int) (bool, error) {
			switch string(key) {
			case "verified":
				unverified = bytes.Equal(v.doc[s:e], []byte("false"))
				return !v.opts.ShowUnverifiedCollections, nil
			case "collection_metadata":
				return !v.opts.ShowCollectionMetadata, nil
			}
			return false, nil
		})
		if err != nil {
			return fmt.Errorf("grouping: %w", err)
		}
		if unverified && !v.opts.ShowUnverifiedCollections {
			v.out = v.out[:mark]
		} else {
			wrote = true
		}
		i = elemEnd
	}
}

// skipString returns the index just past the string starting at i.
func skipString(d []byte, i int) (int, error) {
	if i >= len(d) || d[i] != '"' {
		return 0, fmt.Errorf("want a string at byte %d", i)
	}
	for i++; i < len(d); i++ {
		switch d[i] {
		case '\\':
			i++
		case '"':
			return i + 1, nil
		}
	}
	return 0, errTruncated
}

// skipValue returns the index just past the value starting at i, which
// must be compact JSON (no whitespace between tokens).
func skipValue(d []byte, i int) (int, error) {
	if i >= len(d) {
		return 0, errTruncated
	}
	switch d[i] {
	case '"':
		return skipString(d, i)
	case '{', '[':
		depth := 0
		for ; i < len(d); i++ {
			switch d[i] {
			case '"':
				end, err := skipString(d, i)
				if err != nil {
					return 0, err
				}
				i = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1, nil
				}
			}
		}
		return 0, errTruncated
	}
	start := i
	for ; i < len(d); i++ {
		switch d[i] {
		case ',', '}', ']':
			if i == start {
				return 0, fmt.Errorf("want a value at byte %d", start)
			}
			return i, nil
		case ' ', '\t', '\n', '\r', ':', '{', '[', '"':
			return 0, fmt.Errorf("unexpected %q at byte %d", d[i], i)
		}
	}
	return 0, errTruncated
}
