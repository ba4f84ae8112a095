package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/internal/realdata"
	"github.com/euroexec/euroexec/sample"
)

// readCSV reads an output table as header-keyed rows.
func readCSV(t *testing.T, path string) []map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]string
	for _, r := range recs[1:] {
		m := map[string]string{}
		for i, h := range recs[0] {
			m[h] = r[i]
		}
		out = append(out, m)
	}
	return out
}

// near checks got against want to a relative tolerance (pandas/scipy sum in
// another order, so the last bits may differ).
func near(t *testing.T, what string, got string, want float64) {
	t.Helper()
	g, err := strconv.ParseFloat(got, 64)
	if err != nil {
		t.Errorf("%s: %q is not a number", what, got)
		return
	}
	if math.Abs(g-want) > 1e-12*math.Max(1, math.Abs(want)) {
		t.Errorf("%s = %v, want %v (pandas/scipy)", what, g, want)
	}
}

// TestSummEvalStudy runs the SummEval expert annotations (3 experts, 4
// attributes, 12 systems, no checklist or ranks) end to end and checks the
// per-model rubric means, per-attribute means and SDs, Table 5 and the
// evaluator-pair statistics against pandas/scipy (sample/testdata/summeval/expected.py).
func TestSummEvalStudy(t *testing.T) {
	study := filepath.Join("..", "..", "sample", "testdata", "summeval")
	var exp struct {
		Models map[string]struct {
			Rubric     float64 `json:"rubric"`
			NGradings  int     `json:"n_gradings"`
			Attributes map[string]struct{ Mean, SD float64 }
		} `json:"models"`
		Table5 map[string]struct {
			R, Lo, Hi float64
			N         int
		} `json:"table5"`
		Pair struct {
			R      float64 `json:"r"`
			NPairs int     `json:"n_pairs"`
		} `json:"evaluator_pair_pearson_rubric"`
		Kendall struct {
			Mean      float64 `json:"mean_tau_b"`
			NDefined  int     `json:"n_defined"`
			Undefined int     `json:"n_undefined"`
		} `json:"kendall_cross_evaluator_rubric"`
	}
	b, err := os.ReadFile(filepath.Join(study, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &exp); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "r")
	var so, se bytes.Buffer
	if _, err := runStudy(context.Background(), &so, &se, study, runOptions{out: out, quiet: true, now: fixedNow}); err != nil {
		t.Fatalf("run: %v\n%s", err, se.String())
	}
	tables := filepath.Join(out, "tables")
	seen := 0
	for _, r := range readCSV(t, filepath.Join(tables, "summary.csv")) {
		if r["set"] != "all" || r["graders"] != "humans" {
			continue
		}
		m, ok := exp.Models[r["model"]]
		if !ok {
			t.Errorf("unexpected model %q", r["model"])
			continue
		}
		seen++
		near(t, r["model"]+" rubric", r["rubric"], m.Rubric)
		if r["n_gradings"] != strconv.Itoa(m.NGradings) {
			t.Errorf("%s n_gradings = %s, want %d", r["model"], r["n_gradings"], m.NGradings)
		}
	}
	if seen != len(exp.Models) {
		t.Errorf("summary has %d models, want %d", seen, len(exp.Models))
	}
	for _, r := range readCSV(t, filepath.Join(tables, "rubric_by_attribute.csv")) {
		a := exp.Models[r["model"]].Attributes[r["attribute"]]
		near(t, r["model"]+"/"+r["attribute"]+" mean", r["mean"], a.Mean)
		near(t, r["model"]+"/"+r["attribute"]+" sd", r["sd"], a.SD)
	}
	for _, r := range readCSV(t, filepath.Join(tables, "attribute_correlations.csv")) {
		w, ok := exp.Table5[r["attribute"]]
		if !ok {
			continue
		}
		near(t, "table 5 "+r["attribute"]+" r", r["r"], w.R)
		near(t, "table 5 "+r["attribute"]+" lo", r["r_lo"], w.Lo)
		near(t, "table 5 "+r["attribute"]+" hi", r["r_hi"], w.Hi)
	}
	var gotPair, gotTau bool
	for _, r := range readCSV(t, filepath.Join(tables, "consistency.csv")) {
		switch r["comparison"] {
		case "pearson_rubric":
			gotPair = true
			near(t, "evaluator-pair r", r["value"], exp.Pair.R)
			if r["n"] != strconv.Itoa(exp.Pair.NPairs) {
				t.Errorf("evaluator-pair n = %s, want %d", r["n"], exp.Pair.NPairs)
			}
		case "cross_rubric":
			gotTau = true
			near(t, "cross-evaluator tau-b", r["value"], exp.Kendall.Mean)
			if r["n"] != strconv.Itoa(exp.Kendall.NDefined) || r["n_undefined"] != strconv.Itoa(exp.Kendall.Undefined) {
				t.Errorf("tau-b n = %s/%s, want %d/%d", r["n"], r["n_undefined"], exp.Kendall.NDefined, exp.Kendall.Undefined)
			}
		}
	}
	if !gotPair || !gotTau {
		t.Errorf("consistency table lacks pearson_rubric (%v) or cross_rubric (%v)", gotPair, gotTau)
	}
	// A rubric-only study: the tables that need a checklist or ranks are
	// left out with a note.
	notes := readCSV(t, filepath.Join(tables, "notes.csv"))
	if len(notes) == 0 {
		t.Error("no notes for the missing instruments")
	}
	if _, err := os.Stat(filepath.Join(tables, "checklist_distribution.csv")); err == nil {
		t.Error("checklist_distribution written for a study without a checklist")
	}
}

// TestTable7TagFilter restricts Table 7 to one question tag (text.filter)
// and checks that text_metrics holds exactly the tagged questions that have
// references.
func TestTable7TagFilter(t *testing.T) {
	study := filepath.Join(t.TempDir(), "s")
	if err := os.CopyFS(study, sample.Sample()); err != nil {
		t.Fatal(err)
	}
	toml, _ := os.ReadFile(filepath.Join(study, "study.toml"))
	toml = append(toml, []byte("\n[text]\nfilter = \"decision_type=pricing\"\n")...)
	os.WriteFile(filepath.Join(study, "study.toml"), toml, 0o644)
	// The questions tagged partnership that have a reference, from the files.
	tagged := map[string]bool{}
	for _, r := range readCSV(t, filepath.Join(study, "questions.csv")) {
		if r["decision_type"] == "pricing" {
			tagged[r["question_id"]] = true
		}
	}
	want := map[string]bool{}
	b, _ := os.ReadFile(filepath.Join(study, "references.jsonl"))
	for _, line := range bytes.Split(b, []byte("\n")) {
		var ref struct {
			Q string `json:"question_id"`
		}
		if json.Unmarshal(line, &ref) == nil && tagged[ref.Q] {
			want[ref.Q] = true
		}
	}
	if len(want) == 0 {
		t.Fatal("the sample has no tagged question with a reference; pick another tag")
	}
	out := filepath.Join(t.TempDir(), "r")
	var so, se bytes.Buffer
	if _, err := runStudy(context.Background(), &so, &se, study, runOptions{out: out, quiet: true, now: fixedNow}); err != nil {
		t.Fatalf("run: %v\n%s", err, se.String())
	}
	got := map[string]bool{}
	for _, r := range readCSV(t, filepath.Join(out, "tables", "text_metrics.csv")) {
		got[r["question_id"]] = true
	}
	if len(got) != len(want) {
		t.Errorf("text_metrics questions = %v, want %v", got, want)
	}
	for q := range got {
		if !want[q] {
			t.Errorf("question %s is not tagged pricing", q)
		}
	}
}

// TestSummaryCrossCheck compares summary.csv on the bundled sample with an
// independent Python implementation (testdata/xcheck/summary.py: its own
// reading of the sheets, exact fractions) for both sets. It skips, saying
// so, when python3 with openpyxl and scipy is not installed (.ci/run
// installs them).
func TestSummaryCrossCheck(t *testing.T) {
	py := "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import openpyxl, scipy").Run(); err != nil {
		realdata.Unavailable(t, py+" with openpyxl and scipy is needed for the cross-check (apt-get install python3-openpyxl python3-scipy)")
	}
	out := filepath.Join(t.TempDir(), "r")
	var so, se bytes.Buffer
	if _, err := runStudy(context.Background(), &so, &se, "", runOptions{out: out, quiet: true, now: fixedNow}); err != nil {
		t.Fatalf("run: %v\n%s", err, se.String())
	}
	rows := readCSV(t, filepath.Join(out, "tables", "summary.csv"))
	for _, c := range []struct{ round, set string }{{"main", "all"}, {"reference", "reference_subset"}} {
		res, err := exec.Command(py, filepath.Join("testdata", "xcheck", "summary.py"), filepath.Join("..", "..", "sample", "study"), c.round).Output()
		if err != nil {
			t.Fatalf("summary.py: %v", err)
		}
		lines := strings.Split(strings.TrimSpace(string(res)), "\n")
		seen := 0
		for _, l := range lines {
			f := strings.Split(l, ",")
			for _, r := range rows {
				if r["set"] != c.set || r["graders"] != "humans" || r["model"] != f[0] {
					continue
				}
				seen++
				if r["n_gradings"] != f[1] {
					t.Errorf("%s %s n_gradings = %s, python %s", c.set, f[0], r["n_gradings"], f[1])
				}
				for i, col := range []string{"solve_rate", "avg_rank", "win_rate", "rubric", "checklist_rate"} {
					w, _ := strconv.ParseFloat(f[2+i], 64)
					near(t, c.set+" "+f[0]+" "+col, r[col], w)
				}
			}
		}
		if seen != len(lines) || seen == 0 {
			t.Errorf("%s: matched %d of %d models", c.set, seen, len(lines))
		}
	}
	// Table 6 (within and across evaluators), Fig. 5 overall and Table 5,
	// computed by the same script with scipy.
	res, err := exec.Command(py, filepath.Join("testdata", "xcheck", "summary.py"), filepath.Join("..", "..", "sample", "study"), "main", "consistency").Output()
	if err != nil {
		t.Fatalf("summary.py consistency: %v", err)
	}
	want := map[string][2]string{} // name → value, n
	for _, l := range strings.Split(strings.TrimSpace(string(res)), "\n") {
		if f := strings.Split(l, ","); len(f) == 3 {
			want[f[0]] = [2]string{f[1], f[2]}
		}
	}
	check := func(name, got, n string) {
		t.Helper()
		w, ok := want[name]
		if !ok {
			t.Errorf("python gave no %s", name)
			return
		}
		v, _ := strconv.ParseFloat(w[0], 64)
		near(t, name, got, v)
		if n != w[1] {
			t.Errorf("%s n = %s, python %s", name, n, w[1])
		}
	}
	for _, r := range readCSV(t, filepath.Join(out, "tables", "consistency.csv")) {
		if r["scope"] != "pearson" {
			check(r["comparison"], r["value"], r["n"])
		}
	}
	for _, r := range readCSV(t, filepath.Join(out, "tables", "verdict_pairs.csv")) {
		if r["domain"] == "Overall" {
			for _, k := range []string{"yes_yes", "yes_partial", "yes_no", "partial_partial", "partial_no", "no_no"} {
				check("fig5_"+k, r[k], r["cells"])
			}
		}
	}
	for _, r := range readCSV(t, filepath.Join(out, "tables", "attribute_correlations.csv")) {
		check("table5_"+r["attribute"], r["r"], r["n"])
	}
	pairs := 0
	for _, r := range readCSV(t, filepath.Join(out, "tables", "pairwise_tests.csv")) {
		if r["comparison"] == "adjacent" && r["set"] == "all" {
			pairs++
			check("ttest_t_"+r["model_a"]+"_"+r["model_b"], r["t"], r["n"])
			check("ttest_p_"+r["model_a"]+"_"+r["model_b"], r["p"], r["n"])
		}
	}
	if pairs != 5 {
		t.Errorf("%d adjacent pairs, want 5", pairs)
	}
}
