//go:build !duckdb_arrow

package readback

import (
	"context"
	"errors"

	"github.com/euroexec/euroexec/ingest/config"
	"github.com/euroexec/euroexec/study"
)

// haveArrow says that this binary lacks DuckDB's Arrow interface (build
// tag duckdb_arrow): Load reads every table row by row.
const haveArrow = false

var errNoArrow = errors.New("this binary was built without DuckDB's Arrow interface (build tag duckdb_arrow)")

func (d *DB) loadGradingsArrow(context.Context, *study.Study, config.Config) error { return errNoArrow }

func (d *DB) responseRowsArrow(context.Context) ([]ResponseRow, error) { return nil, errNoArrow }
