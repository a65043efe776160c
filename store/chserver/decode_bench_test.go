package chserver

import (
	"context"
	"testing"
)

// BenchmarkQueryDecode reads 100,000 rows of the column types dasch's
// hot paths read (keys, amounts, slots, flags, text) through Query.
func BenchmarkQueryDecode(b *testing.B) {
	s := openTestServer(b)
	ctx := context.Background()
	const sql = `SELECT toFixedString(reinterpretAsString(cityHash64(number)), 32) AS key, number AS amount,
		toUInt32(number % 1000) AS idx, number % 2 = 0 AS flag, toString(number) AS text, toInt64(number) AS t
		FROM numbers(100000)`
	b.ResetTimer()
	for range b.N {
		res, err := s.Query(ctx, sql, nil)
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Rows) != 100000 {
			b.Fatalf("%d rows", len(res.Rows))
		}
	}
	b.ReportMetric(float64(b.N*100000)/b.Elapsed().Seconds(), "rows/s")
}
