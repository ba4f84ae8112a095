// Package realdata serves the real, third-party evaluation data that the
// oracle tests check euroexec against: small gzipped copies, with their
// licences, of SummEval's expert ratings, HANNA's human ratings and PandaLM's
// pairwise test set (see SOURCE.md), embedded so that a fresh clone runs
// every such test. Data whose licence forbids a copy is read from the shared
// folder beside the repository through SharedPath.
//
// Only tests import this package.
package realdata

import (
	"bytes"
	"compress/gzip"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

//go:embed summeval/*.gz hanna/*.gz pandalm/*.gz
var files embed.FS

// Files named by their path in this folder without the .gz suffix.
const (
	SummEvalExperts = "summeval/expert_scores_long.csv"
	HANNAHumans     = "hanna/human_scores_long.csv"
	PandaLMTestSet  = "pandalm/testset-v1.json"
	PandaLMGPT35    = "pandalm/gpt-3.5-turbo-testset-v1.json"
	PandaLMPandaLM  = "pandalm/pandalm-7b-testset-v1.json"
)

// Read returns the uncompressed content of the named file.
func Read(name string) ([]byte, error) {
	b, err := files.ReadFile(name + ".gz")
	if err != nil {
		return nil, fmt.Errorf("realdata: %w", err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("realdata: %s: %w", name, err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("realdata: %s: %w", name, err)
	}
	return out, nil
}

// Open returns a reader of the uncompressed content of the named file.
func Open(name string) (io.Reader, error) {
	b, err := Read(name)
	if err != nil {
		return nil, err
	}
	return bytes.NewReader(b), nil
}

// RequireEnv is the environment variable under which a missing shared
// data set fails a test instead of skipping it (.ci/run sets it to 1).
const RequireEnv = "EUROEXEC_REQUIRE_ORACLES"

// SharedDir returns the shared folder beside the repository (the folder
// holding datasets/ and vectors/), found from this source file's place:
// the repository's parent's "shared".
func SharedDir() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return ""
	}
	repo := filepath.Dir(filepath.Dir(filepath.Dir(file)))
	return filepath.Join(filepath.Dir(repo), "shared")
}

// SharedPath returns the path of rel under SharedDir for data that may not
// be copied into the repository. When the file is absent the test skips,
// saying so, or fails when RequireEnv is set to 1.
func SharedPath(tb testing.TB, rel string) string {
	tb.Helper()
	p := filepath.Join(SharedDir(), rel)
	if _, err := os.Stat(p); err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			tb.Fatal(err)
		}
		Unavailable(tb, fmt.Sprintf("%s is not beside the repository (%v); its licence keeps it out of the repository", rel, err))
	}
	return p
}

// Unavailable ends a test whose independent check cannot run here (a data
// set, or a reference tool such as Python with scipy, Chromium or
// LibreOffice, is missing): it skips, saying why, or fails when RequireEnv
// is 1, so that CI never passes with an oracle unrun.
func Unavailable(tb testing.TB, why string) {
	tb.Helper()
	if os.Getenv(RequireEnv) == "1" {
		tb.Fatal("oracle unavailable: " + why + " (" + RequireEnv + "=1 requires it)")
	}
	tb.Skip("SKIPPED: " + why)
}
