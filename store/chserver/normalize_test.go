package chserver

import (
	"math/big"
	"net"
	"reflect"
	"testing"
	"time"

	"github.com/google/uuid"
)

func ptr[T any](v T) *T { return &v }

func TestNormalize(t *testing.T) {
	tokyo := time.FixedZone("JST", 9*3600)
	u128, _ := new(big.Int).SetString("340282366920938463463374607431768211455", 10)
	key := "\x00\x01" + string(make([]byte, 29)) + "\xff"
	tests := []struct {
		name string
		in   any
		want any
	}{
		{"nil", nil, nil},
		{"uint8", uint8(7), uint8(7)},
		{"uint64 max", uint64(1<<64 - 1), uint64(1<<64 - 1)},
		{"int64", int64(-5), int64(-5)},
		{"float32", float32(1.5), float32(1.5)},
		{"bool", true, true},
		{"string", "abc", "abc"},
		{"fixed string keeps zero bytes", key, key},
		{"nullable null", (*uint64)(nil), nil},
		{"nullable value", ptr(uint64(42)), uint64(42)},
		{"nullable string", ptr("x"), "x"},
		{"nullable string null", (*string)(nil), nil},
		{"nothing", (*any)(nil), nil},
		{"any holding value", ptr(any(uint32(3))), uint32(3)},
		{"datetime to UTC", time.Date(2024, 1, 2, 12, 0, 0, 0, tokyo), time.Date(2024, 1, 2, 3, 0, 0, 0, time.UTC)},
		{"nullable datetime", ptr(time.Unix(0, 0)), time.Unix(0, 0).UTC()},
		{"nullable datetime null", (*time.Time)(nil), nil},
		{"uint128", u128, u128},
		{"nullable uint128 null", (*big.Int)(nil), nil},
		{"array", []uint64{1, 1<<64 - 1}, []any{uint64(1), uint64(1<<64 - 1)}},
		{"array of uint8 stays an array", []uint8{1, 2}, []any{uint8(1), uint8(2)}},
		{"empty array", []string{}, []any{}},
		{"array of nullable", []*string{ptr("a"), nil}, []any{"a", nil}},
		{"nested array", [][]int32{{1}, {}, {2, 3}}, []any{[]any{int32(1)}, []any{}, []any{int32(2), int32(3)}}},
		{"array of datetime", []time.Time{time.Date(2024, 1, 2, 12, 0, 0, 0, tokyo)}, []any{time.Date(2024, 1, 2, 3, 0, 0, 0, time.UTC)}},
		{"tuple", []any{uint8(1), ptr("s"), (*int64)(nil)}, []any{uint8(1), "s", nil}},
		{"uuid", uuid.MustParse("123e4567-e89b-12d3-a456-426614174000"), "123e4567-e89b-12d3-a456-426614174000"},
		{"ipv4", net.IPv4(10, 0, 0, 1), "10.0.0.1"},
		{"map passes through", map[string]uint8{"a": 1}, map[string]uint8{"a": 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := normalize(tt.in)
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("normalize(%#v) = %#v (%T), want %#v (%T)", tt.in, got, got, tt.want, tt.want)
			}
			if tm, ok := got.(time.Time); ok && tm.Location() != time.UTC {
				t.Errorf("location = %v, want UTC", tm.Location())
			}
		})
	}
}
