package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/euroexec/euroexec/outsafe"
	"github.com/euroexec/euroexec/pipeline"
	"github.com/euroexec/euroexec/store"
)

// exportCmd is `euroexec export SOURCE --parquet DIR`.
func exportCmd(stdout, stderr io.Writer) *cobra.Command {
	var dir, partitionBy, runName string
	var force bool
	c := &cobra.Command{
		Use:   "export STUDY_OR_REPORT --parquet DIR [--partition-by run,model [--run NAME]]",
		Short: "Write the tables of a study database as Parquet files, for other SQL engines",
		Long: "export writes the tables of the study database (the canonical schema, the per-grading scores\n" +
			"grading_scores and the text metrics of a run; views stored in the database are never run) as\n" +
			"DIR/NAME.parquet with DuckDB's COPY … (FORMAT parquet): any Parquet reader (Spark, Trino, …)\n" +
			"reads the files (docs/EXPORT.md).\n" +
			"STUDY_OR_REPORT is a study folder (validated and loaded first, into a temporary database), a report\n" +
			"folder written by `run` (its study.duckdb), or a .duckdb file written by `ingest`. The files are\n" +
			"written into a temporary folder beside DIR and moved into place when complete. DIR is replaced only\n" +
			"when it does not exist, is empty or was written by export (its " + outsafe.ExportMarker + " file), unless\n" +
			"--force; never when it is, holds or lies inside STUDY_OR_REPORT.\n" +
			"With --partition-by run, model or run,model, STUDY_OR_REPORT must be a study folder and DIR becomes\n" +
			"a hive-partitioned store (DIR/TABLE/study_run=NAME/model=M/part-0.parquet, a manifest.json and\n" +
			"one file per run in DIR/_runs) that `run --store`, `append` and `compare --store` read (docs/EXPORT.md). " + outRule,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if dir == "" {
				return &usageError{fmt.Errorf("export: --parquet DIR is required")}
			}
			if partitionBy != "" {
				return exportStore(cmd.Context(), stdout, stderr, args[0], dir, partitionBy, runName, force)
			}
			if runName != "" {
				return &usageError{fmt.Errorf("export: --run names the run of a store; it needs --partition-by")}
			}
			n, err := exportParquet(cmd.Context(), stderr, args[0], dir, force)
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "wrote %d tables and views as Parquet into %s\n", n, dir)
			return nil
		},
	}
	c.Flags().StringVar(&dir, "parquet", "", "folder to write NAME.parquet into, one file per table and view (required)")
	c.Flags().BoolVar(&force, "force", false, "replace DIR even when it holds files euroexec did not write")
	c.Flags().StringVar(&partitionBy, "partition-by", "", "write a partitioned store instead: run, model or run,model")
	c.Flags().StringVar(&runName, "run", "", "the run's name in the store (default: the study folder's name)")
	return c
}

// exportStore is `export STUDY --parquet DIR --partition-by KEYS`.
func exportStore(ctx context.Context, stdout, stderr io.Writer, src, dir, partitionBy, runName string, force bool) error {
	keys, err := store.ParsePartitionBy(partitionBy)
	if err != nil {
		return &usageError{err}
	}
	if runName == "" {
		abs, err := filepath.Abs(src)
		if err != nil {
			return err
		}
		runName = filepath.Base(abs)
	}
	r, err := store.Export(ctx, src, dir, store.Options{Run: runName, PartitionBy: keys, Force: force, Version: version,
		Note: storeNote(stderr), LoadProgress: bytesBar(stderr, "load")})
	if err != nil {
		return reportProblems(stderr, err)
	}
	printWarnings(stderr, r.Warnings)
	fmt.Fprintf(stdout, "wrote run %q (%d Parquet files, partitioned by %s) into the store %s\n", r.Name, len(r.Files), strings.Join(keys, ","), dir)
	return nil
}

// storeNote prints the store's notes to stderr, its stage names as
// "stage NAME" lines (tests wait for them).
func storeNote(stderr io.Writer) func(string) {
	return func(s string) {
		switch s {
		case "load", "write", "commit":
			fmt.Fprintln(stderr, "stage", s)
		default:
			fmt.Fprintln(stderr, "note:", s)
		}
	}
}

// exportParquet writes the tables of the database behind src into out as
// Parquet (pipeline.ExportSource)
// and returns how many it wrote. The command keeps output safety: out is
// checked first, written as a temporary folder beside it and moved into
// place when complete.
func exportParquet(ctx context.Context, stderr io.Writer, src, out string, force bool) (int, error) {
	if err := outsafe.CheckFolder(out, outsafe.ExportMarker, force, src); err != nil {
		return 0, err
	}
	es, err := pipeline.OpenExportSource(ctx, src, pipeline.ExportOptions{Progress: bytesBar(stderr, "load"),
		Note: func(n string) { fmt.Fprintln(stderr, "note:", n) }})
	if err != nil {
		return 0, reportProblems(stderr, err)
	}
	defer es.Close()
	printWarnings(stderr, es.Warnings)
	out, err = filepath.Abs(out)
	if err != nil {
		return 0, err
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return 0, fmt.Errorf("export: create %s: %w", filepath.Dir(out), err)
	}
	unlock, err := outsafe.Lock(out)
	if err != nil {
		return 0, err
	}
	defer unlock()
	for _, n := range outsafe.CleanStale(filepath.Dir(out), outsafe.ExportMarker) {
		fmt.Fprintln(stderr, "note:", n)
	}
	abs, _ := filepath.Abs(src)
	tmp, err := outsafe.TempDir(out, outsafe.ExportMarker, outsafe.Marker(version, abs, time.Now()))
	if err != nil {
		return 0, fmt.Errorf("export: %w", err)
	}
	done := false
	defer func() {
		if !done {
			os.RemoveAll(tmp)
		}
	}()
	names, err := es.Write(ctx, tmp)
	if err != nil {
		return 0, err
	}
	if err := outsafe.Replace(tmp, out); err != nil {
		return 0, err
	}
	done = true
	return len(names), nil
}
