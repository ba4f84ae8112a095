//go:build duckdb_arrow

package ingest

import (
	"database/sql/driver"

	"github.com/apache/arrow-go/v18/arrow/array"
	duckdb "github.com/duckdb/duckdb-go/v2"
)

// arrowLoader is DuckDB's Arrow interface (RegisterView).
type arrowLoader interface {
	RegisterView(reader array.RecordReader, name string) (func(), error)
}

// initArrow opens DuckDB's Arrow interface on the sink's connection.
func (s *sink) initArrow() error {
	return s.conn.Raw(func(dc any) error {
		a, err := duckdb.NewArrowFromConn(dc.(driver.Conn))
		s.arrow = a
		return err
	})
}
