// Package store writes and reads a partitioned Parquet store of studies:
// the canonical tables of each study (schema/schema.sql), one run per
// appended study, as hive-partitioned Parquet files that DuckDB, Spark or
// Trino read where they lie.
//
// Layout of a store folder DIR (docs/EXPORT.md):
//
//	DIR/manifest.json                          store: format, schema version, partitioning
//	DIR/_runs/study_run=NAME.json              one per run: settings, study.toml, input hashes, rows, files
//	DIR/TABLE/study_run=NAME/model=M/part-0.parquet  tables with a model column
//	DIR/TABLE/study_run=NAME/part-0.parquet          the other tables
//
// NAME and M are escaped as DuckDB escapes hive partition values (Escape),
// so any run or model name is one safe path segment. The run's key is
// study_run, not run: the gradings, pairwise_judgments and gate_runs tables
// have a column run of their own (a judge's repeated runs), which a hive
// key of the same name would shadow in every hive-aware reader.
//
// A run's JSON file is written last, by rename: it is the commit. Readers
// read only the runs that have one, and only their partition folders; a
// run killed while it was written leaves its partitions in a leased
// temporary folder beside DIR (removed by the next command), or, in the
// instant between renames, partition folders without a run file, which
// no reader reads and the next append removes.
package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/euroexec/euroexec/ingest/config"
)

// Format names the manifest's kind of folder.
const Format = "euroexec-parquet-store"

// SchemaVersion is the version of the store's layout and of the canonical
// schema its files follow; a store of another version is refused.
const SchemaVersion = 1

// ManifestName is the store manifest's file name in DIR.
const ManifestName = "manifest.json"

// RunsDir is the folder of the runs' files in DIR.
const RunsDir = "_runs"

// RunKey and ModelKey are the hive partition keys.
const (
	RunKey   = "study_run"
	ModelKey = "model"
)

// MaxSegment is the longest escaped partition value accepted, in bytes:
// a folder name holds at most 255 bytes on the common file systems, less
// the key, the "=" and the run file's ".json".
const MaxSegment = 240

// Manifest is DIR/manifest.json.
type Manifest struct {
	Format        string   `json:"format"`
	SchemaVersion int      `json:"schema_version"`
	PartitionBy   []string `json:"partition_by"` // of "run", "model", in that order
	Tables        []string `json:"tables"`       // the canonical tables, each a folder of DIR
	CreatedBy     string   `json:"created_by"`   // tool and version
}

// ByRun says whether the store has a partition per run.
func (m Manifest) ByRun() bool { return has(m.PartitionBy, "run") }

// ByModel says whether tables with a model column are partitioned by it.
func (m Manifest) ByModel() bool { return has(m.PartitionBy, "model") }

func has(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// Input is one input file of a run's study, as ingest read it.
type Input struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
	Rows   int64  `json:"rows"`
}

// Run is DIR/_runs/study_run=NAME.json: everything `run --store` needs
// besides the tables.
type Run struct {
	Name      string    `json:"name"`
	CreatedAt time.Time `json:"created_at"`
	CreatedBy string    `json:"created_by"`
	// StudyTOML is the study's study.toml as read ("" when it had none:
	// the defaults); Settings the effective settings it gave.
	StudyTOML string      `json:"study_toml"`
	Settings  [][2]string `json:"settings"`
	Inputs    []Input     `json:"inputs"`
	// Warnings are ingest's warnings on the study, shown again by a run
	// of the store.
	Warnings []string         `json:"warnings"`
	Rows     map[string]int64 `json:"rows"`
	// Files are the run's Parquet files, relative to DIR, slash-separated.
	Files []string `json:"files"`
}

// Escape returns s as a hive partition value: the bytes other than ASCII
// letters, digits and "-._~" as %XX (upper-case hex), as DuckDB's COPY …
// PARTITION_BY writes them and every hive reader decodes them. The result
// never holds "/", a NUL, a newline or "=", and with its "key=" prefix it
// is never "." or "..".
func Escape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// CheckRunName says whether name can name a run: not empty and at most
// MaxSegment bytes once escaped.
func CheckRunName(name string) error {
	if name == "" {
		return errors.New("run name is empty; expected a name such as the release or the date graded")
	}
	if n := len(Escape(name)); n > MaxSegment {
		return fmt.Errorf("run name %.40q… is %d bytes once escaped for a folder name; expected at most %d", name, n, MaxSegment)
	}
	return nil
}

// RunSegment is the partition folder of run name: study_run=ESCAPED.
func RunSegment(name string) string { return RunKey + "=" + Escape(name) }

// runFile is the path of run name's JSON file in dir.
func runFile(dir, name string) string {
	return filepath.Join(dir, RunsDir, RunSegment(name)+".json")
}

// ReadManifest reads DIR/manifest.json and checks its format and version.
func ReadManifest(dir string) (Manifest, error) {
	var m Manifest
	p := filepath.Join(dir, ManifestName)
	if err := readJSON(p, &m); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return m, fmt.Errorf("%s: not a Parquet store (no %s; write one with `euroexec export STUDY --parquet DIR --partition-by run`)", dir, ManifestName)
		}
		return m, err
	}
	if m.Format != Format {
		return m, fmt.Errorf("%s: format %q; expected %q", p, m.Format, Format)
	}
	if m.SchemaVersion != SchemaVersion {
		return m, fmt.Errorf("%s: schema version %d; this euroexec reads version %d", p, m.SchemaVersion, SchemaVersion)
	}
	for _, k := range m.PartitionBy {
		if k != "run" && k != "model" {
			return m, fmt.Errorf("%s: partition_by holds %q; expected run or model", p, k)
		}
	}
	return m, nil
}

// maxJSON is the largest manifest or run file read.
const maxJSON = 64 << 20

// readJSON reads the regular file p (no link, device or FIFO) into v.
func readJSON(p string, v any) error {
	fi, err := os.Lstat(p)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s: not a regular file; expected a JSON file written by euroexec", p)
	}
	if fi.Size() > maxJSON {
		return fmt.Errorf("%s: %d bytes; expected at most %d", p, fi.Size(), maxJSON)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	return nil
}

// Runs lists the committed runs of the store in dir, by name.
func Runs(dir string) ([]Run, error) {
	ents, err := os.ReadDir(filepath.Join(dir, RunsDir))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Run
	for _, e := range ents {
		n := e.Name()
		if !strings.HasPrefix(n, RunKey+"=") || !strings.HasSuffix(n, ".json") || !e.Type().IsRegular() {
			continue
		}
		var r Run
		if err := readJSON(filepath.Join(dir, RunsDir, n), &r); err != nil {
			return nil, err
		}
		if RunSegment(r.Name)+".json" != n {
			return nil, fmt.Errorf("%s: names run %q; expected the run of its file name", filepath.Join(dir, RunsDir, n), r.Name)
		}
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// FindRun returns the run called name of the store in dir, or, when name
// is "", its only run.
func FindRun(dir, name string) (Run, error) {
	runs, err := Runs(dir)
	if err != nil {
		return Run{}, err
	}
	var names []string
	for _, r := range runs {
		if r.Name == name || name == "" && len(runs) == 1 {
			return r, nil
		}
		names = append(names, fmt.Sprintf("%q", r.Name))
	}
	if len(runs) == 0 {
		return Run{}, fmt.Errorf("%s: the store holds no run", dir)
	}
	if name == "" {
		return Run{}, fmt.Errorf("%s: the store holds %d runs (%s); choose one with --run NAME", dir, len(runs), strings.Join(names, ", "))
	}
	return Run{}, fmt.Errorf("%s: no run %q; the store holds %s", dir, name, strings.Join(names, ", "))
}

// Config returns the run's effective settings: its study.toml parsed as
// ingest parsed it (the defaults when it had none), checked against the
// settings the run recorded.
func (r Run) Config() (config.Config, error) {
	cfg := config.Default()
	if r.StudyTOML != "" {
		var err error
		if cfg, err = config.Parse("study.toml of run "+r.Name, []byte(r.StudyTOML)); err != nil {
			return cfg, err
		}
	}
	if !slices.Equal(cfg.Pairs(), r.Settings) {
		return cfg, fmt.Errorf("run %q: its study.toml gives other settings than the run recorded (written by another euroexec version?)", r.Name)
	}
	return cfg, nil
}
