package duckopen

import (
	"database/sql"
	"database/sql/driver"
	"fmt"
	"strings"

	duckdb "github.com/duckdb/duckdb-go/v2"
)

// connect opens dsn with DuckDB's connector; init, when set, runs on every
// new connection.
func connect(dsn string, init func(driver.ExecerContext) error) (*sql.DB, error) {
	c, err := duckdb.NewConnector(dsn, init)
	if err != nil {
		path, _, _ := strings.Cut(dsn, "?")
		if path == "" {
			path = "in-memory database"
		}
		return nil, fmt.Errorf("open duckdb %s: %w", path, err)
	}
	return sql.OpenDB(c), nil
}
