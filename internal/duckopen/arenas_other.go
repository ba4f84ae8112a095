//go:build !linux || !cgo

package duckopen

// MallocArenasCapped is false here: the cap is glibc's (see the Linux
// version).
func MallocArenasCapped() bool { return false }
