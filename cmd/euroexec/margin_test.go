package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/metrics/compare"
	"github.com/euroexec/euroexec/sample"
)

func TestParseMargins(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want map[string]float64
		err  string
	}{
		{[]string{"2pp"}, map[string]float64{"solve_rate": 0.02, "checklist_rate": 0.02, "win_rate": 0.02}, ""},
		{[]string{"2pp", "rubric=0.1", "solve_rate=5pp"}, map[string]float64{"solve_rate": 0.05, "checklist_rate": 0.02, "win_rate": 0.02, "rubric": 0.1}, ""},
		{[]string{"avg_rank=0.25"}, map[string]float64{"avg_rank": 0.25}, ""},
		{[]string{"solve_rate=0.03"}, map[string]float64{"solve_rate": 0.03}, ""},
		{[]string{"0.02"}, nil, "must be in percentage points"},
		{[]string{"rubric=2pp"}, nil, "not a rate"},
		{[]string{"-1pp"}, nil, "positive number"},
		{[]string{"NaNpp"}, nil, "positive number"},
		{[]string{"150pp"}, nil, "at most 100 pp"},
		{[]string{"speed=1"}, nil, "unknown metric"},
	} {
		got, err := compare.ParseMargins(tc.in, "--margin")
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%v: error %v, want one containing %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || len(got) != len(tc.want) {
			t.Errorf("%v: got %v, %v; want %v", tc.in, got, err, tc.want)
			continue
		}
		for k, v := range tc.want {
			if d := got[k] - v; d > 1e-15 || d < -1e-15 {
				t.Errorf("%v: %s = %v, want %v", tc.in, k, got[k], v)
			}
		}
	}
}

// TestCompareMarginsFromStudy: the first run's study.toml [compare]
// margins give the non-inferiority columns without --margin (also read
// back from a report folder's study_settings); --margin replaces them; a
// margin compare cannot read is an error naming study.toml, and one
// whose form is wrong is a validate problem.
func TestCompareMarginsFromStudy(t *testing.T) {
	dir := t.TempDir()
	study := filepath.Join(dir, "study")
	if err := os.CopyFS(study, sample.Sample()); err != nil {
		t.Fatal(err)
	}
	toml := filepath.Join(study, "study.toml")
	setMargins := func(line string) {
		t.Helper()
		b, err := os.ReadFile(toml)
		if err != nil {
			t.Fatal(err)
		}
		if i := bytes.Index(b, []byte("\n[compare]")); i >= 0 {
			b = b[:i+1]
		}
		if err := os.WriteFile(toml, append(b, []byte("\n[compare]\nmargins = "+line+"\n")...), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	margins := func(first string, args ...string) map[string]string {
		t.Helper()
		out := filepath.Join(dir, "cmp")
		var stdout, stderr bytes.Buffer
		if err := run(context.Background(), &stdout, &stderr, append([]string{"compare", first, study, "-o", out, "--force", "--bootstrap", "100"}, args...)); err != nil {
			t.Fatalf("compare: %v\n%s", err, stderr.String())
		}
		rows := readCompareCSV(t, filepath.Join(out, "tables", "compare_models.csv"))
		got := map[string]string{}
		m := slices.Index(rows[0], "margin")
		if m < 0 {
			return got
		}
		for _, r := range rows[1:] {
			if r[2] == "humans" && r[0] == rows[1][0] {
				got[r[1]] = r[m]
			}
		}
		return got
	}
	setMargins(`["2pp", "rubric=0.1"]`)
	if got := margins(study); got["solve_rate"] != "0.02" || got["checklist_rate"] != "0.02" || got["rubric"] != "0.1" || got["avg_rank"] != "" {
		t.Errorf("margins from study.toml: %v", got)
	}
	rep := filepath.Join(dir, "report")
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), &stdout, &stderr, []string{"run", study, "-o", rep}); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	if got := margins(rep); got["solve_rate"] != "0.02" || got["rubric"] != "0.1" {
		t.Errorf("margins read back from a report folder: %v", got)
	}
	if got := margins(study, "--margin", "solve_rate=5pp"); got["solve_rate"] != "0.05" || got["rubric"] != "" {
		t.Errorf("--margin should replace study.toml's margins: %v", got)
	}
	setMargins(`["speed=1"]`)
	stdout.Reset()
	stderr.Reset()
	err := run(context.Background(), &stdout, &stderr, []string{"compare", study, study, "-o", filepath.Join(dir, "bad"), "--bootstrap", "100"})
	if err == nil || !strings.Contains(err.Error(), "[compare] margins") || !strings.Contains(err.Error(), "speed") {
		t.Errorf("unknown metric in study.toml: error %v", err)
	}
	setMargins(`["two points"]`)
	stdout.Reset()
	stderr.Reset()
	if err := run(context.Background(), &stdout, &stderr, []string{"validate", study}); err == nil ||
		!strings.Contains(err.Error()+stdout.String()+stderr.String(), "compare.margins") {
		t.Errorf("validate of a malformed margin: %v\n%s%s", err, stdout.String(), stderr.String())
	}
}
