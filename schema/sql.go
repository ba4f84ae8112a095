// Package schema holds the canonical database schema and the ordered transform
// files (views) that derive per-grading scores, embedded in the binary.
package schema

import "embed"

// Files holds schema.sql and the transform files NN_*.sql, applied in name order.
//
//go:embed *.sql
var Files embed.FS

// Schema is the DDL of the canonical tables.
//
//go:embed schema.sql
var Schema string
