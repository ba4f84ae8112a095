package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/euroexec/euroexec/ingest"
	"github.com/euroexec/euroexec/internal/crash"
	"github.com/euroexec/euroexec/internal/termtext"
	"github.com/euroexec/euroexec/outsafe"
	"github.com/euroexec/euroexec/readback"
)

// version is the tool version; set with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

// errReported is returned when the problem was already printed.
var errReported = errors.New("reported")

// Exit statuses, documented in the root command's --help and the README.
const (
	exitOK          = 0   // success
	exitProblems    = 1   // problems in the study, or another failure
	exitUsage       = 2   // bad flags, arguments or command
	exitRefused     = 3   // output refused: it would replace what euroexec did not write
	exitInternal    = 70  // internal error: a panic, a bug of euroexec (EX_SOFTWARE)
	exitInterrupted = 130 // SIGINT (128 + signal number; SIGTERM gives 143)
)

const exitHelp = "Exit status: 0 success; 1 problems in the study (or another failure); 2 usage error (bad flag,\n" +
	"argument or command); 3 output refused (it would replace files euroexec did not write, or another\n" +
	"run is writing it); 70 internal error (a crash: a bug of euroexec, please report it); 130 interrupted\n" +
	"by Ctrl-C (SIGINT; 143 for SIGTERM)."

// usageError is a mistake in the command line (exit status 2).
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// interrupted is the cause of a context cancelled by a signal.
type interrupted struct{ sig syscall.Signal }

func (e *interrupted) Error() string {
	switch e.sig {
	case syscall.SIGINT:
		return "interrupted (SIGINT, Ctrl-C)"
	case syscall.SIGTERM:
		return "interrupted (SIGTERM)"
	}
	return "interrupted by " + e.sig.String()
}

// exitCode maps the error of run (and the context it ran under) to the
// process's exit status.
func exitCode(ctx context.Context, err error) int {
	if err == nil {
		return exitOK
	}
	var in *interrupted
	if errors.As(context.Cause(ctx), &in) || errors.As(err, &in) {
		return 128 + int(in.sig)
	}
	var ue *usageError
	var re *outsafe.RefusedError
	var le *outsafe.LockedError
	var ce *crash.Error
	switch {
	case errors.As(err, &ce):
		return exitInternal
	case errors.As(err, &ue):
		return exitUsage
	case errors.As(err, &re), errors.As(err, &le):
		return exitRefused
	}
	return exitProblems
}

// testPanic, when set (by tests only), is called as a command starts, to
// check that a panic gives exitInternal.
var testPanic func()

// run is the whole command line: tests call it directly. ctx cancels the
// command (main cancels it on SIGINT and SIGTERM). A panic of the command
// is returned as a *crash.Error (exit status 70, never 2).
func run(ctx context.Context, stdout, stderr io.Writer, args []string) (err error) {
	defer crash.Recover(&err)
	started := false
	var prof profiles
	root := &cobra.Command{
		Use:          "euroexec",
		Short:        "Analyse a human evaluation study of LLM answers",
		Long:         "euroexec turns expert grading spreadsheets, model response dumps and LLM-judge outputs into\nthe full analysis of a human evaluation study: tables (CSV), an Excel workbook, an HTML site and\na DuckDB database.\n\n" + exitHelp,
		SilenceUsage: true,
		// Errors before this point are usage errors (flags, arguments, command).
		PersistentPreRunE: func(*cobra.Command, []string) error {
			started = true
			if testPanic != nil {
				testPanic()
			}
			return prof.start()
		},
		SilenceErrors: true,
	}
	prof.flags(root)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetArgs(args)
	root.CompletionOptions.DisableDefaultCmd = true
	root.AddCommand(validateCmd(stdout, stderr), ingestCmd(stdout, stderr), runCmd(stdout, stderr),
		sampleCmd(stdout, stderr), planCmd(stdout, stderr), exportCmd(stdout, stderr), appendCmd(stdout, stderr), compareCmd(stdout, stderr), versionCmd(stdout))
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &usageError{fmt.Errorf("%w (see euroexec %s --help)", err, c.Name())}
	})
	err = root.ExecuteContext(ctx)
	if perr := prof.stop(); err == nil {
		err = perr
	}
	if err != nil && !started {
		var ue *usageError
		if !errors.As(err, &ue) {
			err = &usageError{err}
		}
	}
	return err
}

func versionCmd(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the tool version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			fmt.Fprintf(stdout, "euroexec %s\n", version)
			return nil
		},
	}
}

func validateCmd(stdout, stderr io.Writer) *cobra.Command {
	var allowEmpty bool
	var format string
	c := &cobra.Command{
		Use:   "validate STUDY",
		Short: "Check every file of a study folder and print every problem; load nothing",
		Long: "validate reads every file of the study folder, checks every rule of the study format and prints\n" +
			"its problems and warnings. Problems of one file, sheet, column and kind are one group, printed once\n" +
			"with their count, the rows and values of the first three and what was expected; the first 50\n" +
			"groups are printed and the rest counted. It exits with status 1 when there is a problem. Nothing\n" +
			"is written.\n\n" +
			"With --format json or csv, every problem (no cap) and every warning is written to standard output\n" +
			"as a JSON array or a CSV table (severity, file, sheet, row, column, value, expected, fix, group,\n" +
			"kind; group numbers the problem's group as printed) for a script or a spreadsheet.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "text" && format != ingest.ListJSON && format != ingest.ListCSV {
				return fmt.Errorf("--format %q: expected text, json or csv", format)
			}
			res, err := ingest.Ingest(cmd.Context(), args[0], ingest.Options{AllowEmpty: allowEmpty, AllProblems: format != "text"})
			if format != "text" {
				var pe *ingest.ProblemsError
				switch {
				case errors.As(err, &pe):
					if werr := ingest.WriteAllProblems(stdout, format, pe); werr != nil {
						return werr
					}
					return errReported
				case err != nil:
					return err
				}
				return ingest.WriteProblems(stdout, format, nil, res.Warnings)
			}
			if err != nil {
				return reportProblems(stderr, err)
			}
			printWarnings(stderr, res.Warnings)
			fmt.Fprintf(stdout, "%s: no problems (%d files, %d warnings)\n", termtext.Escape(args[0]), len(res.Files), len(res.Warnings))
			return nil
		},
	}
	c.Flags().BoolVar(&allowEmpty, "allow-empty", false, allowEmptyHelp)
	c.Flags().StringVar(&format, "format", "text", "how problems are written: text (to the terminal, grouped, the first 50 groups), json or csv (every problem and warning, to standard output)")
	return c
}

// allowEmptyHelp is the help of --allow-empty (validate, ingest, run).
const allowEmptyHelp = "accept a study in which every score of the human graders or of the judges was dropped"

func ingestCmd(stdout, stderr io.Writer) *cobra.Command {
	var db string
	var force, allowEmpty bool
	c := &cobra.Command{
		Use:   "ingest STUDY",
		Short: "Validate a study, then load it into a DuckDB database",
		Long: "ingest validates the study folder and loads it into the canonical DuckDB schema (see the README).\n" +
			"The database is built in a new file and moved over --db only when the whole load succeeded:\n" +
			"a study with problems leaves an existing database exactly as it was. An existing --db file is\n" +
			"replaced only when it is a DuckDB database (or empty), unless --force; never inside the study folder,\n" +
			"and never a symbolic link, pipe, socket or device, whatever --force says. The old database's .wal\n" +
			"file is removed with it, so the new database holds only the new load.\n" +
			"A second ingest into the same --db fails at once while one runs; the temporary database a killed\n" +
			"ingest left beside --db is removed by the next one.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if db == "" {
				// Never write into the study folder: inputs are read-only.
				abs, err := filepath.Abs(args[0])
				if err != nil {
					return err
				}
				db = filepath.Base(abs) + ".duckdb"
			}
			if err := outsafe.CheckDB(db, force, args[0]); err != nil {
				return err
			}
			// One ingest per database at a time; a killed one's temporary
			// file is removed by the next.
			unlock, err := outsafe.Lock(db)
			if err != nil {
				return err
			}
			defer unlock()
			for _, n := range outsafe.CleanStaleFiles(db) {
				fmt.Fprintln(stderr, "note:", n)
			}
			res, err := ingest.Ingest(cmd.Context(), args[0], ingest.Options{DB: db, Progress: bytesBar(stderr, "load"), AllowEmpty: allowEmpty, Finish: readback.StoreScores})
			if err != nil {
				return reportProblems(stderr, err)
			}
			printWarnings(stderr, res.Warnings)
			fmt.Fprintf(stdout, "loaded %s into %s\n", args[0], db)
			printRows(stdout, res.Rows)
			return nil
		},
	}
	c.Flags().StringVar(&db, "db", "", "database file to write (default ./NAME.duckdb, NAME being the study folder's name)")
	c.Flags().BoolVar(&force, "force", false, "replace --db even when it is not a DuckDB database")
	c.Flags().BoolVar(&allowEmpty, "allow-empty", false, allowEmptyHelp)
	return c
}

// reportProblems prints a study's problems and returns errReported, or
// returns other errors as they are.
func reportProblems(stderr io.Writer, err error) error {
	var pe *ingest.ProblemsError
	if errors.As(err, &pe) {
		fmt.Fprintln(stderr, termtext.Escape(pe.Error()))
		return errReported
	}
	return err
}

func printWarnings(w io.Writer, warnings []string) {
	for _, s := range warnings {
		fmt.Fprintln(w, "warning:", termtext.Escape(s))
	}
}

func printRows(w io.Writer, rows map[string]int64) {
	names := make([]string, 0, len(rows))
	for n := range rows {
		names = append(names, n)
	}
	sort.Strings(names)
	width := 0
	for _, n := range names {
		width = max(width, len(n))
	}
	for _, n := range names {
		fmt.Fprintf(w, "  %-*s %10d rows\n", width, n, rows[n])
	}
}

var _ = strings.TrimSpace
