// Package duckopen is the one place euroexec opens DuckDB. Every database
// it opens gets the same settings at open time:
//
//   - no extension is installed or loaded on its own
//     (autoinstall_known_extensions and autoload_known_extensions off), so
//     DuckDB neither downloads anything nor creates ~/.duckdb;
//   - memory_limit, threads and temp_directory sized from what the process
//     may use (see Limits): the address-space limit (RLIMIT_AS, `ulimit -v`),
//     the cgroup's memory limit and the memory available;
//   - its allocator's background threads (allocator_background_threads):
//     without them the memory DuckDB frees after a large scan stays in the
//     process until DuckDB allocates again.
//
// Databases from elsewhere (a report folder's study.duckdb, a --db file)
// are data, not code: OpenUntrusted reads only their canonical tables and
// recreates the views from the tool's own SQL, with external access off.
package duckopen

import (
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"strconv"

	"github.com/euroexec/euroexec/outsafe"
)

// DB is an open DuckDB database and the temporary folder it may spill to,
// removed by Close.
type DB struct {
	*sql.DB
	tmp string
	// Locked says the configuration can no longer be changed (SET fails):
	// the databases of OpenUntrusted.
	Locked bool
	// Canonical holds the canonical tables of a database of OpenUntrusted,
	// whose views have the column rowid beyond the table's.
	Canonical map[string]bool
}

// Close closes the database and removes its temporary folder.
func (d *DB) Close() error {
	err := d.DB.Close()
	if d.tmp != "" {
		if rerr := os.RemoveAll(d.tmp); err == nil && rerr != nil {
			err = fmt.Errorf("remove duckdb temporary folder: %w", rerr)
		}
	}
	return err
}

// Options change the settings of one open.
type Options struct {
	// ReadOnly opens the file read-only.
	ReadOnly bool
	// MemoryLimit, when above 0 and below the process's share (Current),
	// is DuckDB's memory limit in bytes.
	MemoryLimit int64
	// Threads, when above 0 and below the process's share, is DuckDB's
	// thread count.
	Threads int
}

// Open opens the DuckDB database at path ("" for an in-memory database)
// with the settings of the package comment. Use it only for databases the
// tool itself writes or has just written; OpenUntrusted for any other.
func Open(path string, o Options) (*DB, error) {
	lim := Current()
	mem, threads := lim.DuckDBMemory, lim.Threads
	if o.MemoryLimit > 0 && (mem == 0 || o.MemoryLimit < mem) {
		mem = o.MemoryLimit
	}
	if o.Threads > 0 && (threads == 0 || o.Threads < threads) {
		threads = o.Threads
	}
	// leased like every scratch folder, so that the next command removes
	// it when this process is killed (outsafe.CleanScratch)
	tmp, err := outsafe.ScratchDir("duckdb")
	if err != nil {
		return nil, fmt.Errorf("duckdb temporary folder: %w", err)
	}
	v := url.Values{}
	v.Set("autoinstall_known_extensions", "false")
	v.Set("autoload_known_extensions", "false")
	v.Set("allow_persistent_secrets", "false")
	v.Set("allocator_background_threads", "true")
	v.Set("temp_directory", tmp)
	if mem > 0 {
		v.Set("memory_limit", strconv.FormatInt((mem+1023)>>10, 10)+"KiB")
	}
	if threads > 0 {
		v.Set("threads", strconv.Itoa(threads))
	}
	if o.ReadOnly {
		v.Set("access_mode", "read_only")
	}
	db, err := connect(path+"?"+v.Encode(), nil)
	if err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	return &DB{DB: db, tmp: tmp}, nil
}

// quoteLit quotes a SQL string literal.
func quoteLit(s string) string {
	b := []byte{'\''}
	for i := 0; i < len(s); i++ {
		if s[i] == '\'' {
			b = append(b, '\'')
		}
		b = append(b, s[i])
	}
	return string(append(b, '\''))
}

// quoteIdent quotes a SQL identifier.
func quoteIdent(s string) string {
	b := []byte{'"'}
	for i := 0; i < len(s); i++ {
		if s[i] == '"' {
			b = append(b, '"')
		}
		b = append(b, s[i])
	}
	return string(append(b, '"'))
}
