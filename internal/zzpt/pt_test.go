package zzpt

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/internal/cmdkit"
	"github.com/dasch-labs/dasch/store"
)

const n = 1000000

func TestPointReads(t *testing.T) {
	ctx := context.Background()
	s, closer, err := cmdkit.OpenStore(ctx, slog.Default(), "embedded:/tmp/pt", false)
	if err != nil {
		t.Fatal(err)
	}
	defer closer()
	doc := "concat('{\"interface\":\"V1_NFT\",\"id\":\"', hex(id), '\",\"content\":{\"json_uri\":\"https://arweave.net/', hex(sipHash64(number)), '\",\"metadata\":{\"name\":\"Asset ', toString(number), '\",\"symbol\":\"SYM\"}},', repeat('\"x\":\"' || hex(sipHash128(number)) || '\",', 40), '\"end\":1}')"
	if os.Getenv("FILL") != "" {
		for _, q := range []string{
			`DROP TABLE IF EXISTS rmt`, `DROP TABLE IF EXISTS rdb`, `DROP TABLE IF EXISTS mt`,
			`CREATE TABLE rmt (id FixedString(32), version UInt64, slot UInt64, status LowCardinality(String), error String, doc String CODEC(ZSTD(3)), owner FixedString(32), a String, b String, c UInt64, d UInt64, e Array(String)) ENGINE = ReplacingMergeTree(version) ORDER BY id SETTINGS index_granularity = 64, min_compress_block_size = 4096, max_compress_block_size = 16384`,
			`CREATE TABLE mt (id FixedString(32), version UInt64, slot UInt64, status LowCardinality(String), error String, doc String CODEC(ZSTD(3))) ENGINE = ReplacingMergeTree(version) ORDER BY id SETTINGS index_granularity = 64, min_compress_block_size = 4096, max_compress_block_size = 16384`,
			`CREATE TABLE rdb (id FixedString(32), slot UInt64, status String, error String, doc String) ENGINE = EmbeddedRocksDB PRIMARY KEY id`,
		} {
			if err := s.Exec(ctx, q, nil); err != nil {
				t.Fatal(err)
			}
		}
		for part := 0; part < 10; part++ {
			src := fmt.Sprintf("(SELECT toFixedString(unhex(hex(sipHash128(number))) || unhex(hex(sipHash128(number+1))), 32) AS id, number FROM numbers(%d, %d))", part*n/10, n/10)
			for _, q := range []string{
				`INSERT INTO rmt SELECT id, 1, number, '', '', ` + doc + `, id, 'a', 'b', 1, 2, ['x','y'] FROM ` + src,
				`INSERT INTO mt SELECT id, 1, number, '', '', ` + doc + ` FROM ` + src,
				`INSERT INTO rdb SELECT id, number, '', '', ` + doc + ` FROM ` + src,
			} {
				if err := s.Exec(ctx, q, nil); err != nil {
					t.Fatal(err)
				}
			}
		}
		return
	}
	res, err := s.Query(ctx, `SELECT hex(id) FROM mt WHERE rand() % 1000 = 0 LIMIT 2000`, nil)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for i := range res.Rows {
		r := res.Row(i)
		ids = append(ids, r.Str(0))
	}
	run := func(name, q string, batch int) {
		var lat []time.Duration
		for i := 0; i < 300; i++ {
			var in []string
			packed := ""
			for j := 0; j < batch || j < -batch; j++ {
				in = append(in, "unhex('"+ids[rand.Intn(len(ids))]+"')")
				packed += ids[rand.Intn(len(ids))]
			}
			sql := strings.ReplaceAll(q, "IDS", strings.Join(in, ","))
			sql = strings.ReplaceAll(sql, "PACKED", "unhex('"+packed+"')")
			st := time.Now()
			r, err := s.Query(ctx, sql, store.Params{})
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Rows) == 0 {
				t.Fatal("no rows")
			}
			lat = append(lat, time.Since(st))
		}
		sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
		t.Logf("%-28s p50 %6.2f ms  p99 %6.2f ms", name, float64(lat[150])/1e6, float64(lat[296])/1e6)
	}
	run("rocksdb packed 100", `SELECT id, status, error, doc, slot FROM rdb WHERE id IN (SELECT toFixedString(substring(PACKED, number * 32 + 1, 32), 32) FROM numbers(intDiv(length(PACKED), 32))) SETTINGS max_threads = 1`, -100)
	for _, b := range []int{1, 100} {
		run(fmt.Sprintf("rmt wide FINAL %d", b), `SELECT id, status, error, doc, slot FROM rmt FINAL WHERE id IN (IDS) SETTINGS max_threads = 1`, b)
		run(fmt.Sprintf("rmt wide nofinal %d", b), `SELECT id, status, error, doc, slot FROM rmt WHERE id IN (IDS) SETTINGS max_threads = 1`, b)
		run(fmt.Sprintf("mt narrow FINAL %d", b), `SELECT id, status, error, doc, slot FROM mt FINAL WHERE id IN (IDS) SETTINGS max_threads = 1`, b)
		run(fmt.Sprintf("rocksdb %d", b), `SELECT id, status, error, doc, slot FROM rdb WHERE id IN (IDS) SETTINGS max_threads = 1`, b)
	}
}
