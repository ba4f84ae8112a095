//go:build duckdb_arrow

package readback

import (
	"context"
	"database/sql/driver"
	"os"
	"strings"
	"testing"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/euroexec/euroexec/schema"
)

// BenchmarkGradingScoresView times, on the study database named by
// EUROEXEC_VIEW_DB (opened read only), read back's scan of the view
// grading_scores (scoresQuery, through the Arrow interface, its rows
// dropped) for the view of schema/ ("sql", created as a temporary view) and
// the view the database holds ("db", the definition of the binary that
// wrote it). It reports DuckDB's and Go's CPU seconds per scan (cpu-s/op)
// besides the wall time: on a shared machine the CPU is the steadier
// figure. Run the two in one go, alternating (-count), e.g.
//
//	EUROEXEC_VIEW_DB=/tmp/s40k.duckdb go test -tags duckdb_arrow -run '^$' -bench GradingScoresView -count 3 ./transform
func BenchmarkGradingScoresView(b *testing.B) {
	path := os.Getenv("EUROEXEC_VIEW_DB")
	if path == "" {
		b.Skip("EUROEXEC_VIEW_DB is not set")
	}
	ctx := context.Background()
	d, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	conn, err := d.SQL().Conn(ctx)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	src, err := schema.Files.ReadFile("10_grading_scores.sql")
	if err != nil {
		b.Fatal(err)
	}
	const create = "CREATE OR REPLACE VIEW grading_scores AS"
	v := string(src)
	i := strings.Index(v, create)
	if i < 0 {
		b.Fatal("schema/10_grading_scores.sql defines no view grading_scores")
	}
	for _, v := range []string{strings.Replace(v[i:], create, "CREATE OR REPLACE TEMP VIEW grading_scores_sql AS", 1)} {
		if _, err := conn.ExecContext(ctx, v); err != nil {
			b.Fatal(err)
		}
	}
	for _, c := range []struct{ name, view string }{{"db", "grading_scores"}, {"sql", "grading_scores_sql"}} {
		q := strings.Replace(scoresQuery, "FROM grading_scores", "FROM "+c.view, 1)
		b.Run(c.name, func(b *testing.B) {
			cpu0, rows := cpuSeconds(), int64(0)
			for b.Loop() {
				err := conn.Raw(func(dc any) error {
					a, err := duckdb.NewArrowFromConn(dc.(driver.Conn))
					if err != nil {
						return err
					}
					rr, err := a.QueryContext(ctx, q)
					if err != nil {
						return err
					}
					defer rr.Release()
					for rr.Next() {
						rows += rr.RecordBatch().NumRows()
					}
					return rr.Err()
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((cpuSeconds()-cpu0)/float64(b.N), "cpu-s/op")
			b.ReportMetric(float64(rows)/float64(b.N), "rows/op")
		})
	}
}
