//go:build !linux

package duckopen

// ReadSources knows only the CPUs outside Linux.
func ReadSources() Sources { return Sources{CPUs: cpus()} }
