package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/euroexec/euroexec/ingest"
)

// version is the tool version; set with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

// errReported is returned when the problem was already printed.
var errReported = errors.New("reported")

// run is the whole command line: tests call it directly.
func run(stdout, stderr io.Writer, args []string) error {
	root := &cobra.Command{
		Use:           "euroexec",
		Short:         "Analyse a human evaluation study of LLM answers",
		Long:          "euroexec turns expert grading spreadsheets, model response dumps and LLM-judge outputs into\nthe full analysis of a human evaluation study: tables (CSV), an Excel workbook, an HTML site and\na DuckDB database.",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetArgs(args)
	root.CompletionOptions.DisableDefaultCmd = true
	root.AddCommand(validateCmd(stdout, stderr), ingestCmd(stdout, stderr), runCmd(stdout, stderr),
		sampleCmd(stdout, stderr), planCmd(stdout, stderr), versionCmd(stdout), compareCmd(stdout, stderr))
	return root.ExecuteContext(context.Background())
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
	return &cobra.Command{
		Use:   "validate STUDY",
		Short: "Check every file of a study folder and print every problem; load nothing",
		Long: "validate reads every file of the study folder, checks every rule of the study format and prints\n" +
			"every problem (file, sheet, row, column, the value found and what was expected) and every warning.\n" +
			"It exits with status 1 when there is a problem. Nothing is written.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			res, err := ingest.Validate(cmd.Context(), args[0])
			if err != nil {
				return reportProblems(stderr, err)
			}
			printWarnings(stderr, res.Warnings)
			fmt.Fprintf(stdout, "%s: no problems (%d files, %d warnings)\n", args[0], len(res.Files), len(res.Warnings))
			return nil
		},
	}
}

func ingestCmd(stdout, stderr io.Writer) *cobra.Command {
	var db string
	c := &cobra.Command{
		Use:   "ingest STUDY",
		Short: "Validate a study, then load it into a DuckDB database",
		Long: "ingest validates the study folder and loads it into the canonical DuckDB schema (see the README).\n" +
			"The database is built in a new file and moved over --db only when the whole load succeeded:\n" +
			"a study with problems leaves an existing database exactly as it was.",
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
			res, err := ingest.Ingest(cmd.Context(), args[0], ingest.Options{DB: db, Progress: bytesBar(stderr, "load")})
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
	return c
}

// reportProblems prints a study's problems and returns errReported, or
// returns other errors as they are.
func reportProblems(stderr io.Writer, err error) error {
	var pe *ingest.ProblemsError
	if errors.As(err, &pe) {
		fmt.Fprintln(stderr, pe.Error())
		return errReported
	}
	return err
}

func printWarnings(w io.Writer, warnings []string) {
	for _, s := range warnings {
		fmt.Fprintln(w, "warning:", s)
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
