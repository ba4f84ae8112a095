package paper

import (
	"context"
	"math"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/study"

	"github.com/euroexec/euroexec/report"
)

// buildStudy builds a study from compact grading lines, each
// "evaluator run question model A,B verdicts rank", where verdicts are
// letters h (hit), p (partial), m (miss), n (na), - (none), "." for no
// checklist, and A,B is "." for no rubric. run "." = no run. Evaluators whose id
// starts with "J" are judges. Every grading is in round "main".
func buildStudy(t *testing.T, attrs []string, qs []study.Question, models []string, lines []string) *study.Study {
	t.Helper()
	s := &study.Study{Title: "mini", HumanLabel: "HE", MainRound: "main", Attributes: attrs, ScaleMin: 1, ScaleMax: 5}
	s.Questions = qs
	for _, m := range models {
		s.Models = append(s.Models, study.Model{Name: m, USDPer1kInput: math.NaN(), USDPer1kOutput: math.NaN()})
	}
	evs := map[string]bool{}
	for _, ln := range lines {
		f := strings.Fields(ln)
		if len(f) != 7 {
			t.Fatalf("bad grading line %q", ln)
		}
		gr := study.Grading{Evaluator: f[0], Kind: study.Human, Round: "main", QuestionID: f[2], Model: f[3]}
		if strings.HasPrefix(f[0], "J") {
			gr.Kind = study.Judge
		}
		if f[1] != "." {
			gr.Run = f[1]
		}
		if f[4] != "." {
			for _, x := range strings.Split(f[4], ",") {
				v, err := strconv.ParseFloat(x, 64)
				if err != nil {
					t.Fatal(err)
				}
				gr.Rubric = append(gr.Rubric, v)
			}
		}
		if f[5] != "." {
			for _, c := range f[5] {
				gr.Verdicts = append(gr.Verdicts, map[rune]study.Verdict{'h': study.Hit, 'p': study.Partial, 'm': study.Miss, 'n': study.NA, '-': study.VerdictNone}[c])
			}
		}
		r, err := strconv.Atoi(f[6])
		if err != nil {
			t.Fatal(err)
		}
		gr.Rank = r
		s.Gradings = append(s.Gradings, gr)
		if !evs[f[0]] {
			evs[f[0]] = true
			s.Evaluators = append(s.Evaluators, study.Evaluator{ID: f[0], Kind: gr.Kind})
		}
	}
	sort.Slice(s.Evaluators, func(i, j int) bool { return s.Evaluators[i].ID < s.Evaluators[j].ID })
	sort.SliceStable(s.Gradings, func(i, j int) bool {
		a, b := s.Gradings[i], s.Gradings[j]
		if a.Round != b.Round {
			return a.Round < b.Round
		}
		if a.QuestionID != b.QuestionID {
			return a.QuestionID < b.QuestionID
		}
		if a.Model != b.Model {
			return a.Model < b.Model
		}
		if a.Evaluator != b.Evaluator {
			return a.Evaluator < b.Evaluator
		}
		return a.Run < b.Run
	})
	return s
}

// PresentForTest is tables.Paper, set by the external test package
// (present_test.go): this package's own tests cannot import report/tables
// (an import cycle), and those that read tables read the report a run
// shows.
var PresentForTest func(*Result) *report.Report

// present runs AnalyzeResult and presents the result as a run does.
func present(ctx context.Context, s *study.Study, o Options) (*report.Report, error) {
	r, err := AnalyzeResult(ctx, s, o)
	if err != nil {
		return nil, err
	}
	return PresentForTest(r), nil
}

// analyze runs AnalyzeResult with a small bootstrap, presents the result
// with tables.Paper and fails the test on error.
func analyze(t *testing.T, s *study.Study, mod func(*Options)) *report.Report {
	t.Helper()
	if PresentForTest == nil {
		t.Fatal("PresentForTest is not set")
	}
	return PresentForTest(analyzeRes(t, s, mod))
}

// analyzeRes runs AnalyzeResult with a small bootstrap and fails the test
// on error.
func analyzeRes(t *testing.T, s *study.Study, mod func(*Options)) *Result {
	t.Helper()
	o := DefaultOptions()
	o.Bootstrap = 50
	o.Resamples = 20
	if mod != nil {
		mod(&o)
	}
	r, err := AnalyzeResult(context.Background(), s, o)
	if err != nil {
		t.Fatalf("AnalyzeResult: %v", err)
	}
	return r
}

// rowWhere returns the first row of table name whose text columns match
// the key=value pairs.
func rowWhere(t *testing.T, r *report.Report, name string, kv ...string) map[string]any {
	t.Helper()
	tb := r.Table(name)
	if tb == nil {
		t.Fatalf("no table %s", name)
	}
	for _, row := range tb.Rows {
		ok := true
		for i := 0; i+1 < len(kv); i += 2 {
			found := false
			for c, col := range tb.Columns {
				if col.Name == kv[i] {
					found = true
					if row[c] != kv[i+1] {
						ok = false
					}
				}
			}
			if !found {
				t.Fatalf("table %s has no column %s", name, kv[i])
			}
		}
		if ok {
			m := map[string]any{}
			for c, col := range tb.Columns {
				m[col.Name] = row[c]
			}
			return m
		}
	}
	t.Fatalf("table %s: no row with %v", name, kv)
	return nil
}

// checkFloat compares a float cell with a hand-computed value (NaN = empty).
func checkFloat(t *testing.T, what string, got any, want float64) {
	t.Helper()
	f, ok := got.(float64)
	if !ok {
		t.Errorf("%s: got %T %v, want float %v", what, got, got, want)
		return
	}
	if math.IsNaN(want) {
		if !math.IsNaN(f) {
			t.Errorf("%s: got %v, want NaN (empty)", what, f)
		}
		return
	}
	if math.Abs(f-want) > 1e-12*math.Max(1, math.Abs(want)) {
		t.Errorf("%s: got %v, want %v", what, f, want)
	}
}

// checkExact compares a float cell bit for bit.
func checkExact(t *testing.T, what string, got any, want float64) {
	t.Helper()
	f, ok := got.(float64)
	if !ok || f != want {
		t.Errorf("%s: got %v, want exactly %v", what, got, want)
	}
}

func checkInt(t *testing.T, what string, got any, want int64) {
	t.Helper()
	if v, ok := got.(int64); !ok || v != want {
		t.Errorf("%s: got %v (%T), want %d", what, got, got, want)
	}
}

// hasNote says whether some note of table mentions substr.
func hasNote(r *report.Report, table, substr string) bool {
	for _, n := range r.Notes {
		if n.Table == table && strings.Contains(n.Reason, substr) {
			return true
		}
	}
	return false
}
