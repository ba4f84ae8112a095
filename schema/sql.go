// Package schema holds the canonical database schema (schema.sql), embedded
// in the binary: the tables ingest fills from a study's files.
package schema

import _ "embed"

// Schema is the DDL of the canonical tables.
//
//go:embed schema.sql
var Schema string
