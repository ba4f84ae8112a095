// Command euroexec turns expert grading spreadsheets, model response dumps
// and LLM-judge outputs into the full analysis of a human evaluation study.
//
// Usage:
//
//	euroexec run [STUDY] [-o OUT]      the main job (bundled sample when STUDY is omitted)
//	euroexec validate STUDY            check everything, load nothing
//	euroexec ingest STUDY [--db FILE]  load the study into DuckDB
//	euroexec sample -o DIR [flags]     write a synthetic study
//	euroexec export SRC --parquet DIR  tables and views of the study database as Parquet
//	euroexec version
//
// Run `euroexec help COMMAND` for the flags of each command.
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	// A soft limit sized from the machine's memory (GOMEMLIMIT wins): a
	// fixed small limit made the garbage collector run continuously on
	// large studies.
	setMemoryLimit(os.Getenv, openOrNil("/proc/meminfo"), openOrNil("/sys/fs/cgroup/memory.max"))
	if err := run(os.Stdout, os.Stderr, os.Args[1:]); err != nil {
		if err != errReported {
			fmt.Fprintln(os.Stderr, "euroexec:", err)
		}
		os.Exit(1)
	}
}

var _ io.Writer = os.Stdout
