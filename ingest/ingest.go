// Package ingest reads a study folder (the format is in docs/FORMAT.md),
// checks every rule of the format, and bulk-loads the study into a new
// DuckDB database through Arrow record batches, the batches of each
// step of the load (questions, responses, gradings, ...) in one
// transaction, committed while the next step is read.
//
// Before any file is read, study.toml is parsed and every setting checked,
// and the study folder is listed: named pipes, sockets, devices, symbolic
// links leaving the folder, more files than [limits] files and workbooks
// over [limits] total_xlsx_bytes are problems found there, so that no
// reader ever blocks on or exhausts memory with them. Every file no table
// takes is named in a warning (Result.Warnings) with the nearest supported
// form.
//
// Nothing is written unless the whole study is valid: the database is built
// in a new file beside the target and renamed over it only when the load
// succeeded, so an existing database is left byte for byte as it was when
// the study has problems. Problems come in a *ProblemsError, grouped by
// file, sheet, column and kind (see Group; its message lists MaxGroups
// groups and counts the rest); warnings are returned as data in Result.
package ingest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/euroexec/euroexec/ingest/config"
	"github.com/euroexec/euroexec/ingest/tabular"
)

// Options control a load.
type Options struct {
	// DB is the database file to write. Empty means validate only: read and
	// check everything, write nothing.
	DB string
	// Now returns the load time recorded in ingest_files; default time.Now.
	Now func() time.Time
	// Progress, when not nil, is called after each input file is read with
	// the bytes read so far and the total size of the study's files.
	Progress func(done, total int64)
	// AllowEmpty accepts a study in which every rubric score (or every
	// checklist verdict) of the human graders or of the judges was dropped;
	// default false: that is a problem (flag --allow-empty). A study with no
	// gradings at all is a problem either way.
	AllowEmpty bool
	// Finish, when set, completes the new database file (path db) after
	// it is loaded and closed and before it takes its final name, so that
	// an interrupted ingest still leaves the old database or the complete
	// new one: readback.StoreScores writes the table grading_scores there.
	Finish func(ctx context.Context, db string, cfg config.Config) error
	// AllProblems keeps every problem in the *ProblemsError; default false:
	// MaxExamples problems of each group are kept and the rest counted
	// (for a terminal).
	AllProblems bool
}

// Result describes a successful read.
type Result struct {
	// Config is the effective study.toml.
	Config config.Config
	// Files lists every input file read, in reading order.
	Files []File
	// Warnings are the non-fatal findings, each once (repeated findings
	// with a count).
	Warnings []string
	// Rows counts the rows loaded per table.
	Rows map[string]int64
}

// File is one input file as read.
type File struct {
	Path   string // relative to the study folder, forward slashes
	SHA256 string
	Rows   int64
}

type fileRec struct {
	path, sha string
	rows      int64
}

// Validate reads and checks the study in dir without writing anything.
func Validate(ctx context.Context, dir string) (*Result, error) {
	return Ingest(ctx, dir, Options{})
}

// Ingest reads, checks and (when opt.DB is set) loads the study in dir. A
// study with problems returns a *ProblemsError and writes nothing.
func Ingest(ctx context.Context, dir string, opt Options) (*Result, error) {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("study folder: %w", err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("study folder %s: not a folder", dir)
	}
	if err := checkSettingsLink(dir); err != nil {
		return nil, err
	}
	cfg, err := config.Load(filepath.Join(dir, "study.toml"))
	if err != nil {
		return nil, err
	}
	st := newState(dir, cfg)
	st.progress = opt.Progress
	st.allowEmpty = opt.AllowEmpty
	st.ps.all = opt.AllProblems
	st.ctx = ctx
	st.walk()
	st.total = st.inv.total
	if err := st.ps.err(); err != nil {
		// Special files, links leaving the folder, too many files: nothing
		// is read.
		return nil, err
	}
	if opt.DB != "" {
		st.sink, err = openSink(ctx, opt.DB)
		if err != nil {
			return nil, err
		}
	}
	st.openTables()
	err = st.readAll()
	if err == nil {
		err = st.ctxErr()
	}
	if st.progress != nil {
		st.progress(st.total, st.total) // files not read as tables (study.toml) count as done
	}
	if err != nil {
		st.sink.abort()
		return nil, err
	}
	if err := st.ps.err(); err != nil {
		st.sink.abort()
		return nil, err
	}
	if err := st.writeFiles(opt.Now()); err != nil {
		st.sink.abort()
		return nil, err
	}
	if st.sink != nil && opt.Finish != nil {
		st.sink.finish = func(tmp string) error { return opt.Finish(ctx, tmp, cfg) }
	}
	if err := st.sink.commit(); err != nil {
		return nil, err
	}
	res := &Result{Config: cfg, Warnings: st.ps.allWarnings(), Rows: map[string]int64{}}
	for _, f := range st.files {
		res.Files = append(res.Files, File{Path: f.path, SHA256: f.sha, Rows: f.rows})
	}
	for name, t := range st.out.all() {
		res.Rows[name] = t.rows
	}
	return res, nil
}

// ctxErr is the error of the load's context once it is cancelled.
func (st *state) ctxErr() error {
	if st.ctx == nil || st.ctx.Err() == nil {
		return nil
	}
	return fmt.Errorf("load %s: %w", st.dir, st.ctx.Err())
}

// readAll reads the tables in dependency order. It returns an error only
// for failures that are not problems of the input (I/O on the database).
func (st *state) readAll() error {
	defer st.dropPrefetched() // the workbooks read ahead and never taken (cancelled)
	steps := []func() error{
		st.readQuestions, st.readChecklist, st.readModels, st.readEvaluators,
		st.readBlinding, st.readReferences, st.readResponses, st.readGradings,
		st.readGate, st.readCriteria, st.readCriterionGrades, st.finish,
		func() error { st.checkNamedSettings(); st.warnUnread(); return nil },
	}
	for _, f := range steps {
		if err := st.ctxErr(); err != nil {
			return err
		}
		if err := f(); err != nil {
			return err
		}
		if err := st.flushTables(); err != nil {
			return err
		}
	}
	return nil
}

// flushTables hands every table's open batch to the loaders at the end of a
// step, so that the text of a table a step has finished with (prompts,
// checklist texts, references, responses) is not held until the load ends,
// then the end of the step itself (the loader commits the step's
// transaction, see inTransactions).
func (st *state) flushTables() error {
	if st.sink == nil {
		return nil
	}
	for _, t := range st.sink.tables {
		if err := t.flush(); err != nil {
			if st.loadErr == nil {
				st.loadErr = fmt.Errorf("load: %w", err)
			}
			return st.loadErr
		}
	}
	if err := st.sink.endStep(); err != nil {
		if st.loadErr == nil {
			st.loadErr = fmt.Errorf("load: %w", err)
		}
		return st.loadErr
	}
	return nil
}

// writeFiles records every input file and the effective settings.
func (st *state) writeFiles(now time.Time) error {
	t := st.out.files
	for _, f := range st.files {
		t.str(0, f.path)
		t.str(1, f.sha)
		t.i64(2, f.rows)
		t.ts(3, now)
		if err := t.end(); err != nil {
			return err
		}
	}
	for _, s := range st.cfg.Pairs() {
		st.out.settings.str(0, s[0])
		st.out.settings.str(1, s[1])
		if err := st.out.settings.end(); err != nil {
			return err
		}
	}
	return nil
}

// loc0 is the location of a whole file.
func loc0(rel string) tabular.Loc { return tabular.Loc{File: rel, Offset: -1, Format: formatOf(rel)} }

// checkSettingsLink refuses a study.toml that is a symbolic link leading
// outside the study folder, before it is read (its content could otherwise
// be echoed in a parse error).
func checkSettingsLink(dir string) error {
	p := filepath.Join(dir, "study.toml")
	fi, err := os.Lstat(p)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		return nil
	}
	root, err1 := filepath.EvalSymlinks(dir)
	t, err2 := filepath.EvalSymlinks(p)
	if err1 != nil || err2 != nil {
		return fmt.Errorf("study.toml: a symbolic link that leads nowhere; expected a regular file")
	}
	root, _ = filepath.Abs(root)
	t, _ = filepath.Abs(t)
	if !inside(root, t) {
		return fmt.Errorf("study.toml: a symbolic link leading outside the study folder, not followed; expected a regular file inside the study folder")
	}
	return nil
}
