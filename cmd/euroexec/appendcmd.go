package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/euroexec/euroexec/store"
)

// appendCmd is `euroexec append DIR STUDY --run NAME`.
func appendCmd(stdout, stderr io.Writer) *cobra.Command {
	var runName string
	c := &cobra.Command{
		Use:   "append DIR STUDY --run NAME",
		Short: "Validate a study and add it to a Parquet store as a new run",
		Long: "append validates the study folder STUDY and adds it to the Parquet store DIR (written by\n" +
			"`export STUDY --parquet DIR --partition-by run[,model]`) as the run NAME: its partitions are written\n" +
			"beside DIR, moved in one partition folder at a time, and the run's file DIR/_runs/study_run=NAME.json\n" +
			"is written last; existing files are not touched. A run name the store holds is refused; a second\n" +
			"append to the same store while one runs fails at once; an append that is interrupted or killed\n" +
			"leaves the store as it was (what it left beside DIR is removed by the next command).",
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if runName == "" {
				return &usageError{fmt.Errorf("append: --run NAME is required")}
			}
			r, err := store.Append(cmd.Context(), args[0], args[1], store.Options{Run: runName, Version: version,
				Note: storeNote(stderr), LoadProgress: bytesBar(stderr, "load")})
			if err != nil {
				return reportProblems(stderr, err)
			}
			printWarnings(stderr, r.Warnings)
			fmt.Fprintf(stdout, "added run %q (%d Parquet files) to the store %s\n", r.Name, len(r.Files), args[0])
			return nil
		},
	}
	c.Flags().StringVar(&runName, "run", "", "the new run's name (required)")
	return c
}
