package photon

import (
	"bytes"
	"errors"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

// maxFilters is Photon's bound on memcmp filters per request.
const maxFilters = 5

// FilterList is the filters param of getCompressedAccountsByOwner: a list
// of {"memcmp": {"offset": n, "bytes": base58}}. A null memcmp is kept as
// nil so the method can refuse it the way Photon does.
type FilterList []*compressed.Memcmp

// UnmarshalJSON decodes the selectors; members other than memcmp are
// ignored, as serde does for these structs.
func (f *FilterList) UnmarshalJSON(b []byte) error {
	var sels []struct {
		Memcmp json.RawMessage `json:"memcmp"`
	}
	if t := bytes.TrimSpace(b); len(t) == 0 || t[0] != '[' {
		return invalidType(b, "a sequence")
	}
	if err := json.Unmarshal(b, &sels); err != nil {
		return jsonrpc.InvalidParams("invalid type: expected struct FilterSelector")
	}
	out := make(FilterList, 0, len(sels))
	for _, s := range sels {
		if len(s.Memcmp) == 0 || string(s.Memcmp) == "null" {
			out = append(out, nil)
			continue
		}
		m, err := decodeMemcmp(s.Memcmp)
		if err != nil {
			return err
		}
		out = append(out, m)
	}
	*f = out
	return nil
}

func decodeMemcmp(b []byte) (*compressed.Memcmp, error) {
	var m struct {
		Offset json.RawMessage `json:"offset"`
		Bytes  json.RawMessage `json:"bytes"`
	}
	if t := bytes.TrimSpace(b); len(t) == 0 || t[0] != '{' || json.Unmarshal(t, &m) != nil {
		return nil, invalidType(b, "struct Memcmp")
	}
	if isAbsent(m.Offset) {
		return nil, jsonrpc.MissingField("offset")
	}
	if isAbsent(m.Bytes) {
		return nil, jsonrpc.MissingField("bytes")
	}
	off, err := u64Member("offset", m.Offset)
	if err != nil {
		return nil, err
	}
	str, ok := unquote(m.Bytes)
	if !ok {
		return nil, memberError("bytes", invalidType(m.Bytes, "a base58 encoded string"))
	}
	raw, err := decodeBase58(str)
	if err != nil {
		return nil, memberError("bytes", err)
	}
	return &compressed.Memcmp{Offset: off, Bytes: raw}, nil
}

// isAbsent: a member missing or null, which serde reports as missing for
// a required field.
func isAbsent(v json.RawMessage) bool {
	t := bytes.TrimSpace(v)
	return len(t) == 0 || string(t) == "null"
}

// u64Member decodes a nested object's u64 member: a JSON integer, not a
// string holding one.
func u64Member(name string, v json.RawMessage) (uint64, error) {
	n, err := parseU64(v)
	if err != nil {
		return 0, memberError(name, err)
	}
	return n, nil
}

// memberError names the nested member a param error is about.
func memberError(name string, err error) error {
	var je *jsonrpc.Error
	if errors.As(err, &je) {
		return jsonrpc.InvalidParams("`" + name + "`: " + je.Message)
	}
	return err
}

// DataSlice asks for a window of each account's data.
type DataSlice struct {
	Offset uint64
	Length uint64
}

// UnmarshalJSON decodes {"offset": n, "length": n}.
func (s *DataSlice) UnmarshalJSON(b []byte) error {
	var v struct {
		Offset json.RawMessage `json:"offset"`
		Length json.RawMessage `json:"length"`
	}
	if t := bytes.TrimSpace(b); len(t) == 0 || t[0] != '{' || json.Unmarshal(t, &v) != nil {
		return invalidType(b, "struct DataSlice")
	}
	if isAbsent(v.Offset) {
		return jsonrpc.MissingField("offset")
	}
	if isAbsent(v.Length) {
		return jsonrpc.MissingField("length")
	}
	var err error
	if s.Offset, err = u64Member("offset", v.Offset); err != nil {
		return err
	}
	s.Length, err = u64Member("length", v.Length)
	return err
}

// apply cuts data to the slice, as SQL SUBSTRING does past the end.
func (s DataSlice) apply(data []byte) []byte {
	n := uint64(len(data))
	if s.Offset >= n {
		return []byte{}
	}
	end := n
	if s.Length < n-s.Offset {
		end = s.Offset + s.Length
	}
	return data[s.Offset:end]
}
