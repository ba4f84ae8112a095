package pipeline

import (
	"context"
	"database/sql/driver"
	"fmt"
	"math"
	"strings"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/euroexec/euroexec/internal/duckopen"
	"github.com/euroexec/euroexec/report"
)

// storeTable writes a report table into the study database as a table of the
// same name, through DuckDB's appender (user values are never spliced into SQL).
func storeTable(ctx context.Context, dbPath string, t *report.Table) error {
	db, err := duckopen.Open(dbPath, duckopen.Options{})
	if err != nil {
		return fmt.Errorf("store %s: %w", t.Name, err)
	}
	defer db.Close()
	var cols []string
	for _, col := range t.Columns {
		typ := "VARCHAR"
		switch col.Kind {
		case report.Int:
			typ = "BIGINT"
		case report.Float, report.Fraction:
			typ = "DOUBLE"
		}
		cols = append(cols, fmt.Sprintf("%q %s", col.Name, typ))
	}
	if _, err := db.ExecContext(ctx, fmt.Sprintf("CREATE OR REPLACE TABLE %q (%s)", t.Name, strings.Join(cols, ", "))); err != nil {
		return fmt.Errorf("store %s: %w", t.Name, err)
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("store %s: %w", t.Name, err)
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		app, err := duckdb.NewAppenderFromConn(dc.(driver.Conn), "", t.Name)
		if err != nil {
			return fmt.Errorf("store %s: %w", t.Name, err)
		}
		for _, row := range t.Rows {
			vals := make([]driver.Value, len(row))
			for i, v := range row {
				switch x := v.(type) {
				case float64:
					if math.IsNaN(x) {
						vals[i] = nil
					} else {
						vals[i] = x
					}
				case int:
					vals[i] = int64(x)
				default:
					vals[i] = v
				}
			}
			if err := app.AppendRow(vals...); err != nil {
				app.Close()
				return fmt.Errorf("store %s: %w", t.Name, err)
			}
		}
		return app.Close()
	})
}
