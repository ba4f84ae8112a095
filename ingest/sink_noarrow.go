//go:build !duckdb_arrow

package ingest

import (
	"database/sql"
	"errors"

	"github.com/apache/arrow-go/v18/arrow/array"
)

// arrowLoader is DuckDB's Arrow interface (RegisterView).
type arrowLoader interface {
	RegisterView(reader array.RecordReader, name string) (func(), error)
}

// errNoArrow explains a binary built without DuckDB's Arrow interface.
var errNoArrow = errors.New("this binary was built without DuckDB's Arrow interface: rebuild with `go build -tags duckdb_arrow` (the Makefile does); `validate` works without it")

func newArrow(*sql.Conn) (arrowLoader, error) { return nil, errNoArrow }
