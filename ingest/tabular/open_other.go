//go:build !unix

package tabular

import "os"

// openNoBlock opens path read-only (no named pipes to block on here).
func openNoBlock(path string) (*os.File, error) { return os.Open(path) }
