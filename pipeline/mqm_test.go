package pipeline

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/findings"
)

// mqmStudy writes an MQM-style study: three systems translate four
// segments, two raters give each translation an MQM penalty (decimal,
// multiples of 0.1 from 0 to 25, lower is better); a translation counts as
// solved when its penalty is at most 1; the mean MQM is the primary metric.
func mqmStudy(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"study.toml": "title = \"MQM\"\n[rubric]\nattributes = [\"MQM\"]\nmin = 0\nmax = 25\nstep = 0.1\ndirection = \"lower\"\n" +
			"[solve]\nrubric_threshold = 1\n[report]\nprimary = \"rubric\"\n",
		"questions.csv": "question_id,domain,prompt\nseg1,news,s1\nseg2,news,s2\nseg3,news,s3\nseg4,news,s4\n",
		"models.csv":    "model,provider\nsysA,A\nsysB,B\nsysC,C\n",
	}
	pen := map[string]map[string][4]string{ // rater → system → segments 1–4
		"r1": {"sysA": {"0", "0.1", "1", "0"}, "sysB": {"5", "0.1", "1", "0.5"}, "sysC": {"25", "5", "1", "0.1"}},
		"r2": {"sysA": {"0.1", "0", "0", "1.1"}, "sysB": {"1", "0", "5", "0.2"}, "sysC": {"5", "25", "0.1", "1"}},
	}
	for _, r := range []string{"r1", "r2"} {
		var b strings.Builder
		b.WriteString("evaluator,question_id,model,MQM\n")
		for _, m := range []string{"sysA", "sysB", "sysC"} {
			for i, v := range pen[r][m] {
				b.WriteString(r + ",seg" + string(rune('1'+i)) + "," + m + "," + v + "\n")
			}
		}
		files["grades/humans/main/"+r+".csv"] = b.String()
	}
	for rel, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestMQMLowerIsBetter runs the MQM study end to end. Hand-computed: the
// eight penalties of sysA sum to 2.3 (mean 23/80), sysB's to 12.8 (8/5),
// sysC's to 62.2 (311/40); at most 1 point: sysA 7 of 8, sysB 6, sysC 4.
func TestMQMLowerIsBetter(t *testing.T) {
	opts := DefaultOptions()
	opts.Now = func() time.Time { return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) }
	res, err := Run(context.Background(), mqmStudy(t), opts)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		model       string
		mean, solve float64
		rank        float64
	}{
		{"sysA", 23.0 / 80, 7.0 / 8, 1},
		{"sysB", 8.0 / 5, 6.0 / 8, 2},
		{"sysC", 311.0 / 40, 4.0 / 8, 3},
	}
	check := func(what string, got, want float64) {
		t.Helper()
		if got != want {
			t.Errorf("%s = %v, want %v", what, got, want)
		}
	}
	seen := 0
	for _, r := range res.Summary {
		if r.Set != "all" || r.Graders != "humans" {
			continue
		}
		for _, w := range want {
			if r.Model == w.model {
				seen++
				check(w.model+" summary rubric", r.Rubric, w.mean)
				check(w.model+" summary Solve Rate", r.SolveRate, w.solve)
			}
		}
	}
	if seen != len(want) {
		t.Errorf("summary has %d of the %d systems", seen, len(want))
	}
	if got := len(res.Rankings.Models); got != len(want) {
		t.Fatalf("rankings list %d models, want %d", got, len(want))
	}
	for i, w := range want { // rank order: lowest MQM first
		m := res.Rankings.Models[i]
		if m.Model != w.model {
			t.Errorf("rankings place %d = %s, want %s", i+1, m.Model, w.model)
			continue
		}
		check(w.model+" rank", m.Rank, w.rank)
		check(w.model+" rankings rubric", m.Rubric, w.mean)
	}
	f := findings.Make(res.Report)
	var rubric string
	for _, h := range f.Headlines {
		if h.Topic == "rubric" {
			rubric = h.Text
		}
	}
	if !strings.Contains(rubric, "sysA leads with the lowest, 0.29 points") {
		t.Errorf("rubric finding %q; want sysA leading with the lowest MQM", rubric)
	}
	if f.Headlines[0].Topic != "rubric" {
		t.Errorf("first finding %+v; want the rubric (primary) one", f.Headlines[0])
	}
	// the leaderboard: fewest penalty points first; the gap to the
	// runner-up is sysA − sysB < 0 (hand-computed means 23/80 − 8/5 over
	// the same segments: −105/80)
	b := findings.Leaderboard(res.Report)
	var order []string
	for _, l := range b.Rows {
		order = append(order, l.ID)
	}
	if strings.Join(order, " ") != "sysA sysB sysC" || !b.Lower || b.Metric != "mean MQM" {
		t.Errorf("leaderboard %q by %q (lower %v), want sysA sysB sysC by mean MQM, lower", order, b.Metric, b.Lower)
	}
	if g, ok := findings.LeaderGap(res.Report, b); !ok || math.Abs(g.Diff-(23.0/80-8.0/5)) > 1e-12 || !(g.Lo < g.Diff && g.Diff < g.Hi) {
		t.Errorf("gap %+v, want sysA − sysB = %v inside its interval", g, 23.0/80-8.0/5)
	}
	if !strings.Contains(f.Headlines[0].Text, "Its gap to the runner-up, sysB, is -1.31 points") {
		t.Errorf("first finding %q lacks the gap to sysB", f.Headlines[0].Text)
	}
	var fig *report.Figure
	for _, g := range res.Report.Figures {
		if g.ID == "rubric_by_model" {
			fig = g
		}
	}
	if fig == nil || len(fig.Series) != 1 {
		t.Fatalf("no headline figure rubric_by_model with one series: %+v", fig)
	}
	for i, w := range want { // the headline chart: lowest MQM first
		if i >= len(fig.Categories) || fig.Categories[i] != w.model || fig.Series[0].Values[i] != w.mean {
			t.Errorf("headline figure: categories %v values %v; want %s = %v at %d", fig.Categories, fig.Series[0].Values, w.model, w.mean, i)
		}
	}
	for _, w := range []string{"on the 0–25 scale in steps of 0.1, lower is better", "at most 1"} {
		if !strings.Contains(f.Methods, w) {
			t.Errorf("Methods lack %q:\n%s", w, f.Methods)
		}
	}
}
