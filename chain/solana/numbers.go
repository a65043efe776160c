package solana

import (
	"fmt"
	"strconv"
)

// U64 is an unsigned JSON integer written either as a number or, above
// 2^53, as a decimal string. It is parsed exactly: the JSON library would
// silently wrap values past 2^64.
type U64 uint64

// UnmarshalJSON implements json.Unmarshaler.
func (u *U64) UnmarshalJSON(b []byte) error {
	v, err := strconv.ParseUint(unquote(b), 10, 64)
	if err != nil {
		return fmt.Errorf("expected an unsigned 64-bit integer, got %s", b)
	}
	*u = U64(v)
	return nil
}

// I64 is the signed counterpart of U64 (block times).
type I64 int64

// UnmarshalJSON implements json.Unmarshaler.
func (i *I64) UnmarshalJSON(b []byte) error {
	v, err := strconv.ParseInt(unquote(b), 10, 64)
	if err != nil {
		return fmt.Errorf("expected a signed 64-bit integer, got %s", b)
	}
	*i = I64(v)
	return nil
}

func unquote(b []byte) string {
	if len(b) >= 2 && b[0] == '"' && b[len(b)-1] == '"' {
		b = b[1 : len(b)-1]
	}
	return string(b)
}

// optU64 and optI64 turn optional JSON numbers into optional Go values.
func optU64(v *U64) *uint64 {
	if v == nil {
		return nil
	}
	u := uint64(*v)
	return &u
}

func optI64(v *I64) *int64 {
	if v == nil {
		return nil
	}
	i := int64(*v)
	return &i
}
