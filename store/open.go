package store

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/euroexec/euroexec/internal/duckopen"
)

// Open opens run name of the store at dir ("" for its only run) as an
// in-memory DuckDB database whose canonical tables are views over the
// run's Parquet files (duckopen.OpenParquet): queries stream the files,
// within duckopen's memory limit, spilling to its scratch folder. Only
// the run's partition folders are read; a link or special file among them
// is an error.
func Open(ctx context.Context, dir, name string) (*duckopen.DB, Run, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, Run{}, err
	}
	m, err := ReadManifest(dir)
	if err != nil {
		return nil, Run{}, err
	}
	r, err := FindRun(dir, name)
	if err != nil {
		return nil, Run{}, err
	}
	files, err := runFiles(dir, m, r.Name)
	if err != nil {
		return nil, Run{}, err
	}
	db, err := duckopen.OpenParquet(ctx, dir, files, duckopen.Options{})
	if err != nil {
		return nil, Run{}, fmt.Errorf("%s, run %q: %w", dir, r.Name, err)
	}
	return db, r, nil
}

// runFiles lists the Parquet files of run name per table.
func runFiles(dir string, m Manifest, name string) (map[string][]string, error) {
	out := map[string][]string{}
	for _, t := range m.Tables {
		if strings.ContainsAny(t, `/\`) || t == "" || t[0] == '.' {
			return nil, fmt.Errorf("%s: table %q in %s; expected a table name", dir, t, ManifestName)
		}
		base := filepath.Join(dir, t)
		if m.ByRun() {
			base = filepath.Join(base, RunSegment(name))
		}
		if _, err := os.Lstat(base); os.IsNotExist(err) {
			continue
		}
		err := filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if p != base && strings.HasPrefix(d.Name(), ".") {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(d.Name(), ".parquet") || strings.HasPrefix(d.Name(), ".") {
				return nil
			}
			if !d.Type().IsRegular() {
				return fmt.Errorf("%s: not a regular file; expected a Parquet file written by euroexec", p)
			}
			out[t] = append(out[t], p)
			return nil
		})
		if err != nil {
			return nil, err
		}
		slices.Sort(out[t])
	}
	return out, nil
}
