package main

import "runtime/debug"

// setMemoryLimit sets the Go soft memory limit to lim bytes (duckopen's
// share of the memory the process may use: see duckopen.Compute), unless
// the user set GOMEMLIMIT (which the Go runtime then honours as it is) or
// lim is 0 (nothing known). It returns the limit set, or 0 when it left the
// runtime's own. DuckDB's memory is limited too (its share of the same
// budget), so the soft limit guards against running out of memory; it is
// large enough on a machine of some GiB not to make the garbage collector
// run continuously on a large study.
func setMemoryLimit(getenv func(string) string, lim int64) int64 {
	if getenv("GOMEMLIMIT") != "" || lim <= 0 {
		return 0
	}
	debug.SetMemoryLimit(lim)
	return lim
}

// gcPercent is pipeline.Options.GCPercent for `euroexec run`: the
// pipeline's default, unless the user set GOGC, which the Go runtime read
// at start and which then stands (-1: leave it alone).
func gcPercent(getenv func(string) string) int {
	if getenv("GOGC") != "" {
		return -1
	}
	return 0
}
