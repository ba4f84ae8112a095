package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/euroexec/euroexec/ingest"
	"github.com/euroexec/euroexec/internal/duckopen"
	"github.com/euroexec/euroexec/outsafe"
)

// Options are what Export and Append need besides the folders.
type Options struct {
	// Run names the study's run in the store.
	Run string
	// PartitionBy is a subset of "run", "model" (Export only; Append uses
	// the store's).
	PartitionBy []string
	// Force replaces a folder of Export that holds files euroexec did not
	// write.
	Force bool
	// Version is the tool version recorded in the manifest and run files.
	Version string
	// Now is the time recorded as the run's creation; default time.Now.
	Now func() time.Time
	// Note, when set, receives notes (stale temporary folders removed)
	// and the stage lines "load", "write", "commit".
	Note func(string)
	// LoadProgress is ingest's progress callback (ingest.Options.Progress).
	LoadProgress func(done, total int64)
}

func (o Options) note(s string) {
	if o.Note != nil {
		o.Note(s)
	}
}

func (o Options) now() time.Time {
	if o.Now == nil {
		return time.Now()
	}
	return o.Now()
}

// ParsePartitionBy parses --partition-by: "run", "model" or both, comma-
// separated, in any order; the result is in the order run, model.
func ParsePartitionBy(s string) ([]string, error) {
	var run, model bool
	for _, k := range strings.Split(s, ",") {
		switch strings.TrimSpace(k) {
		case "run":
			run = true
		case "model":
			model = true
		default:
			return nil, fmt.Errorf("--partition-by %q: %q is not a partition key; expected run, model or run,model", s, k)
		}
	}
	var out []string
	if run {
		out = append(out, "run")
	}
	if model {
		out = append(out, "model")
	}
	return out, nil
}

// loaded is a study validated and loaded into a scratch database.
type loaded struct {
	db      string
	toml    string
	res     *ingest.Result
	cleanup func()
}

// load validates and loads the study folder studyDir into a scratch
// database; its problems come back as ingest's *ingest.ProblemsError.
func load(ctx context.Context, studyDir string, o Options) (*loaded, error) {
	fi, err := os.Stat(studyDir)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s: not a folder; expected a study folder (a store keeps each study's settings and input hashes)", studyDir)
	}
	if _, err := os.Stat(filepath.Join(studyDir, "study.duckdb")); err == nil {
		return nil, fmt.Errorf("%s: a report folder; expected a study folder (a store keeps each study's settings and input hashes)", studyDir)
	}
	for _, n := range outsafe.CleanScratch() {
		o.note(n)
	}
	tmp, err := outsafe.ScratchDir("store")
	if err != nil {
		return nil, err
	}
	l := &loaded{db: filepath.Join(tmp, "study.duckdb"), cleanup: func() { os.RemoveAll(tmp) }}
	o.note("load")
	l.res, err = ingest.Ingest(ctx, studyDir, ingest.Options{DB: l.db, Now: func() time.Time { return o.now() }, Progress: o.LoadProgress})
	if err != nil {
		l.cleanup()
		return nil, err
	}
	// The settings file as ingest read it: ingest parsed it a moment ago;
	// the run file keeps its text so that a run of the store parses the
	// same settings.
	if b, err := os.ReadFile(filepath.Join(studyDir, "study.toml")); err == nil {
		l.toml = string(b)
	} else if !errors.Is(err, os.ErrNotExist) {
		l.cleanup()
		return nil, err
	}
	return l, nil
}

// runRecord is the run file of a loaded study.
func (l *loaded) runRecord(name string, o Options) Run {
	r := Run{Name: name, CreatedAt: o.now().UTC(), CreatedBy: "euroexec " + o.Version, StudyTOML: l.toml,
		Settings: l.res.Config.Pairs(), Warnings: l.res.Warnings, Rows: l.res.Rows}
	for _, f := range l.res.Files {
		r.Inputs = append(r.Inputs, Input{Path: f.Path, SHA256: f.SHA256, Rows: f.Rows})
	}
	if r.Warnings == nil {
		r.Warnings = []string{}
	}
	return r
}

// Export writes the study folder studyDir as a new store at out: every
// canonical table, partitioned as o.PartitionBy asks, the manifest and
// the run file of run o.Run. The store is built in a temporary folder
// beside out and swapped into place when complete (outsafe.Replace); out
// is replaced only when outsafe.CheckFolder allows it (an earlier export,
// empty, absent, or o.Force).
func Export(ctx context.Context, studyDir, out string, o Options) (Run, error) {
	if len(o.PartitionBy) == 0 {
		return Run{}, errors.New("export: no partition key; expected run, model or run,model")
	}
	if err := CheckRunName(o.Run); err != nil {
		return Run{}, err
	}
	out, err := filepath.Abs(out)
	if err != nil {
		return Run{}, err
	}
	if err := outsafe.CheckFolder(out, outsafe.ExportMarker, o.Force, studyDir); err != nil {
		return Run{}, err
	}
	l, err := load(ctx, studyDir, o)
	if err != nil {
		return Run{}, err
	}
	defer l.cleanup()
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return Run{}, err
	}
	unlock, err := outsafe.Lock(out)
	if err != nil {
		return Run{}, err
	}
	defer unlock()
	for _, n := range outsafe.CleanStale(filepath.Dir(out), outsafe.ExportMarker) {
		o.note(n)
	}
	abs, _ := filepath.Abs(studyDir)
	tmp, err := outsafe.TempDir(out, outsafe.ExportMarker, outsafe.Marker(o.Version, abs, o.now()))
	if err != nil {
		return Run{}, err
	}
	done := false
	defer func() {
		if !done {
			os.RemoveAll(tmp)
		}
	}()
	canon, err := duckopen.CanonicalColumns(ctx)
	if err != nil {
		return Run{}, err
	}
	m := Manifest{Format: Format, SchemaVersion: SchemaVersion, PartitionBy: o.PartitionBy, CreatedBy: "euroexec " + o.Version}
	for n := range canon {
		m.Tables = append(m.Tables, n)
	}
	slices.Sort(m.Tables)
	o.note("write")
	r := l.runRecord(o.Run, o)
	if r.Files, err = writeTables(ctx, l.db, tmp, m, o.Run); err != nil {
		return Run{}, err
	}
	if err := writeJSON(filepath.Join(tmp, ManifestName), m); err != nil {
		return Run{}, err
	}
	if err := os.Mkdir(filepath.Join(tmp, RunsDir), 0o755); err != nil {
		return Run{}, err
	}
	if err := writeJSON(runFile(tmp, o.Run), r); err != nil {
		return Run{}, err
	}
	o.note("commit")
	if err := outsafe.Replace(tmp, out); err != nil {
		return Run{}, err
	}
	done = true
	return r, nil
}

// Append validates the study folder studyDir and adds it to the store at
// dir as the new run o.Run: its partitions are written in a temporary
// folder beside dir, moved into dir one partition folder at a time
// (rename), and the run's file is written last (rename): the commit.
// Existing files are never opened for writing. The store's lock
// (outsafe.Lock) is held throughout: a second append at the same time is
// refused with *outsafe.LockedError. A run name the store holds is
// refused with *outsafe.RefusedError. Partition folders of a run without a run file (an append
// killed between its renames) are removed first.
func Append(ctx context.Context, dir, studyDir string, o Options) (Run, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return Run{}, err
	}
	if err := CheckRunName(o.Run); err != nil {
		return Run{}, err
	}
	if fi, err := os.Lstat(dir); err != nil {
		return Run{}, fmt.Errorf("append: %w", err)
	} else if !fi.IsDir() {
		return Run{}, fmt.Errorf("append: %s is not a folder; expected a Parquet store", dir)
	}
	m, err := ReadManifest(dir)
	if err != nil {
		return Run{}, err
	}
	if !m.ByRun() {
		return Run{}, fmt.Errorf("append: %s is partitioned by %s, not by run: a run cannot be added; export a new store with --partition-by run", dir, strings.Join(m.PartitionBy, ","))
	}
	unlock, err := outsafe.Lock(dir)
	if err != nil {
		return Run{}, err
	}
	defer unlock()
	for _, n := range outsafe.CleanStale(filepath.Dir(dir), outsafe.ExportMarker) {
		o.note(n)
	}
	if _, err := os.Lstat(runFile(dir, o.Run)); err == nil {
		return Run{}, &outsafe.RefusedError{Path: dir, Reason: fmt.Sprintf("it already holds a run %q", o.Run), Hint: "choose another --run name"}
	}
	if err := removeUncommitted(dir, m, o); err != nil {
		return Run{}, err
	}
	l, err := load(ctx, studyDir, o)
	if err != nil {
		return Run{}, err
	}
	defer l.cleanup()
	abs, _ := filepath.Abs(studyDir)
	tmp, err := outsafe.TempDir(dir, outsafe.ExportMarker, outsafe.Marker(o.Version, abs, o.now()))
	if err != nil {
		return Run{}, err
	}
	defer os.RemoveAll(tmp)
	o.note("write")
	r := l.runRecord(o.Run, o)
	if r.Files, err = writeTables(ctx, l.db, tmp, m, o.Run); err != nil {
		return Run{}, err
	}
	if err := outsafe.SyncTree(tmp); err != nil {
		return Run{}, err
	}
	if err := ctx.Err(); err != nil {
		return Run{}, err
	}
	o.note("commit")
	seg := RunSegment(o.Run)
	var moved []string
	committed := false
	defer func() {
		if !committed {
			// uncommitted partitions are never read; remove them now
			// rather than at the next append
			for _, p := range moved {
				os.RemoveAll(p)
			}
		}
	}()
	for _, t := range m.Tables {
		src := filepath.Join(tmp, t, seg)
		if _, err := os.Lstat(src); err != nil {
			continue // nothing written for t
		}
		if err := os.MkdirAll(filepath.Join(dir, t), 0o755); err != nil {
			return Run{}, err
		}
		dst := filepath.Join(dir, t, seg)
		if err := os.Rename(src, dst); err != nil {
			return Run{}, fmt.Errorf("append: move partition %s/%s into place: %w", t, seg, err)
		}
		moved = append(moved, dst)
	}
	if err := os.MkdirAll(filepath.Join(dir, RunsDir), 0o755); err != nil {
		return Run{}, err
	}
	rf := runFile(dir, o.Run)
	// The temporary name is built from a short base: the run file's own
	// name may take all of a folder name's 255 bytes.
	tf := outsafe.TempFileName(filepath.Join(dir, RunsDir, "run"))
	if err := writeJSON(tf, r); err != nil {
		os.Remove(tf)
		return Run{}, err
	}
	if err := outsafe.ReplaceFile(tf, rf); err != nil {
		os.Remove(tf)
		return Run{}, err
	}
	committed = true
	return r, nil
}

// removeUncommitted removes the partition folders of dir whose run has no
// run file: left by an append killed between its renames. It runs under
// the store's lock.
func removeUncommitted(dir string, m Manifest, o Options) error {
	runs, err := Runs(dir)
	if err != nil {
		return err
	}
	committed := map[string]bool{}
	for _, r := range runs {
		committed[RunSegment(r.Name)] = true
	}
	for _, t := range m.Tables {
		ents, err := os.ReadDir(filepath.Join(dir, t))
		if err != nil {
			continue
		}
		for _, e := range ents {
			if e.IsDir() && strings.HasPrefix(e.Name(), RunKey+"=") && !committed[e.Name()] {
				p := filepath.Join(dir, t, e.Name())
				if err := os.RemoveAll(p); err != nil {
					return err
				}
				o.note("removed " + p + ": a partition of an append that did not finish")
			}
		}
	}
	// Temporary run files of a killed commit.
	for _, n := range outsafe.CleanStaleFiles(filepath.Join(dir, RunsDir, "run")) {
		o.note(n)
	}
	return nil
}

// writeJSON writes v as indented JSON to the new file p.
func writeJSON(p string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// writeTables writes every canonical table of the database at dbPath into
// the store layout under root for run name (its partition folder when m
// is by run; by model within it for the tables with a model column when
// m is by model) and returns the files written, relative to root. The
// database is read as data (duckopen.OpenUntrusted) with only root
// writable.
func writeTables(ctx context.Context, dbPath, root string, m Manifest, name string) ([]string, error) {
	db, err := duckopen.OpenUntrusted(ctx, dbPath, root)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	canon, err := duckopen.CanonicalColumns(ctx)
	if err != nil {
		return nil, err
	}
	if m.ByModel() {
		if err := checkModelNames(ctx, db, canon); err != nil {
			return nil, err
		}
	}
	for _, t := range m.Tables {
		cols, ok := canon[t]
		if !ok {
			return nil, fmt.Errorf("store: %s is not a canonical table", t)
		}
		base := filepath.Join(root, t)
		if m.ByRun() {
			base = filepath.Join(base, RunSegment(name))
		}
		if err := os.MkdirAll(base, 0o755); err != nil {
			return nil, err
		}
		if !db.Canonical[t] {
			continue // a database without t: the reader makes it empty
		}
		// row_ord keeps the row's place in its table (read back orders
		// some tables by it).
		sel := fmt.Sprintf("SELECT * EXCLUDE (rowid), rowid AS row_ord FROM %s", quoteIdent(t))
		var q string
		if m.ByModel() && slices.Contains(cols.Names(), "model") {
			// DuckDB writes one folder model=ESCAPED per model (Escape is
			// its escaping); the files keep the model column, so each file
			// is whole without its path.
			q = fmt.Sprintf("COPY (%s) TO %s (FORMAT parquet, PARTITION_BY (model), WRITE_PARTITION_COLUMNS true, FILENAME_PATTERN 'part-{i}')", sel, quoteString(base))
		} else {
			q = fmt.Sprintf("COPY (%s) TO %s (FORMAT parquet)", sel, quoteString(filepath.Join(base, "part-0.parquet")))
		}
		if _, err := db.ExecContext(ctx, q); err != nil {
			return nil, fmt.Errorf("store: write %s: %w", t, err)
		}
	}
	var files []string
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() && strings.HasSuffix(p, ".parquet") {
			rel, _ := filepath.Rel(root, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	slices.Sort(files)
	return files, err
}

// checkModelNames refuses, naming them, before anything is written, a
// model whose escaped name is too long for a partition folder, and two
// models whose folders differ only in letter case (on a case-insensitive
// file system, macOS's and Windows' default, they would share one folder
// and one file name).
func checkModelNames(ctx context.Context, db *duckopen.DB, canon map[string]duckopen.Columns) error {
	var parts []string
	for t, c := range canon {
		if db.Canonical[t] && slices.Contains(c.Names(), "model") {
			parts = append(parts, "SELECT model FROM "+quoteIdent(t))
		}
	}
	if len(parts) == 0 {
		return nil
	}
	slices.Sort(parts)
	rows, err := db.QueryContext(ctx, "SELECT DISTINCT model FROM ("+strings.Join(parts, " UNION ALL ")+") WHERE model IS NOT NULL ORDER BY model")
	if err != nil {
		return err
	}
	defer rows.Close()
	folded := map[string]string{}
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return err
		}
		e := Escape(s)
		if len(e) > MaxSegment {
			return fmt.Errorf("store: model %.40q… is %d bytes once escaped for a folder name; expected at most %d (partition by run only)", s, len(e), MaxSegment)
		}
		k := strings.ToLower(e)
		if other, ok := folded[k]; ok {
			return fmt.Errorf("store: models %q and %q differ only in letter case: on a case-insensitive file system their partition folders would be one; partition by run only, or rename one", other, s)
		}
		folded[k] = s
	}
	return rows.Err()
}

// quoteIdent quotes a SQL identifier.
func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// quoteString quotes a SQL string literal.
func quoteString(s string) string { return `'` + strings.ReplaceAll(s, `'`, `''`) + `'` }
