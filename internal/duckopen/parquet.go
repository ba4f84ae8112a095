package duckopen

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/euroexec/euroexec/schema"
)

// OpenParquet opens an in-memory database (with Open's memory limit,
// threads and spill folder; o may lower them) in which each canonical table of
// schema/schema.sql is a view over the Parquet files files[table] (absolute
// paths, read with read_parquet, union by name), with the canonical
// columns cast to their canonical types and the file column row_ord as a
// last column rowid (the row's place in its table when written; read back
// orders by it). A canonical table without files is an empty view of the
// same columns. The files are data: nothing in them runs. External
// access is then limited to the folder root (allowed_directories: the
// views read their files when queried) and the configuration locked.
//
// A file that lacks a canonical column, or holds one that does not cast to
// its type, is an error naming the table and its files.
func OpenParquet(ctx context.Context, root string, files map[string][]string, o Options) (*DB, error) {
	d, err := Open("", o)
	if err != nil {
		return nil, err
	}
	if err := parquetSetup(ctx, d, root, files); err != nil {
		d.Close()
		return nil, err
	}
	d.Locked = true
	return d, nil
}

// parquetSetup makes OpenParquet's views in d.
func parquetSetup(ctx context.Context, d *DB, root string, files map[string][]string) error {
	conn, err := d.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	exec := func(q string) error {
		_, err := conn.ExecContext(ctx, q)
		return err
	}
	canon, err := CanonicalColumns(ctx)
	if err != nil {
		return err
	}
	names := make([]string, 0, len(canon))
	for n := range canon {
		names = append(names, n)
	}
	slices.Sort(names)
	for n := range files {
		if _, ok := canon[n]; !ok {
			return fmt.Errorf("parquet store: %s is not a table of the canonical schema (schema/schema.sql)", n)
		}
	}
	for _, n := range names {
		cols := canon[n]
		var sel []string
		fs := files[n]
		for i, c := range cols.names {
			typ := strings.TrimPrefix(cols.cols[i], c+" ")
			if len(fs) == 0 {
				sel = append(sel, "CAST(NULL AS "+typ+") AS "+quoteIdent(c))
			} else {
				sel = append(sel, "CAST("+quoteIdent(c)+" AS "+typ+") AS "+quoteIdent(c))
			}
		}
		var q string
		if len(fs) == 0 {
			q = fmt.Sprintf("CREATE VIEW %s AS SELECT %s, CAST(NULL AS BIGINT) AS rowid WHERE false", quoteIdent(n), strings.Join(sel, ", "))
		} else {
			lits := make([]string, len(fs))
			for i, f := range fs {
				lits[i] = quoteLit(f)
			}
			// read_parquet's files are not a parameter of a view: they are
			// paths the store built (escaped partition folders), quoted.
			q = fmt.Sprintf("CREATE VIEW %s AS SELECT %s, CAST(row_ord AS BIGINT) AS rowid FROM read_parquet([%s], union_by_name = true, hive_partitioning = false)",
				quoteIdent(n), strings.Join(sel, ", "), strings.Join(lits, ", "))
		}
		if err := exec(q); err != nil {
			return fmt.Errorf("parquet store: table %s (%d files, first %s): %w; expected the columns (%s) and row_ord", n, len(fs), first(fs), err, strings.Join(cols.cols, ", "))
		}
	}
	dir := quoteLit(strings.TrimSuffix(root, string(filepath.Separator)) + string(filepath.Separator))
	return exec("SET allowed_directories = [" + dir + "]; SET enable_external_access = false; SET lock_configuration = true")
}

// first is fs[0], or "" when fs is empty.
func first(fs []string) string {
	if len(fs) == 0 {
		return ""
	}
	return fs[0]
}

// Columns are the columns of a canonical table: Names in order and Types
// as "name TYPE".
type Columns struct {
	names, cols []string
}

// Names returns the column names in table order.
func (c Columns) Names() []string { return c.names }

// CanonicalColumns returns the columns of every table of schema/schema.sql,
// read from a scratch in-memory database.
func CanonicalColumns(ctx context.Context) (map[string]Columns, error) {
	d, err := Open("", Options{})
	if err != nil {
		return nil, err
	}
	defer d.Close()
	conn, err := d.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "ATTACH ':memory:' AS canon; USE canon; "+schema.Schema+"; USE memory"); err != nil {
		return nil, fmt.Errorf("canonical schema: %w", err)
	}
	t, err := columns(ctx, conn, "canon")
	if err != nil {
		return nil, err
	}
	out := make(map[string]Columns, len(t))
	for n, x := range t {
		out[n] = Columns{names: x.names, cols: x.cols}
	}
	return out, nil
}
