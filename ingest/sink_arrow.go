//go:build duckdb_arrow

package ingest

import (
	"database/sql"
	"database/sql/driver"

	"github.com/apache/arrow-go/v18/arrow/array"
	duckdb "github.com/duckdb/duckdb-go/v2"
)

// arrowLoader is DuckDB's Arrow interface (RegisterView).
type arrowLoader interface {
	RegisterView(reader array.RecordReader, name string) (func(), error)
}

// newArrow opens DuckDB's Arrow interface on a connection.
func newArrow(conn *sql.Conn) (arrowLoader, error) {
	var a arrowLoader
	err := conn.Raw(func(dc any) error {
		var err error
		a, err = duckdb.NewArrowFromConn(dc.(driver.Conn))
		return err
	})
	return a, err
}
