package paper

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/euroexec/euroexec/study"

	"github.com/euroexec/euroexec/report"
)

// synthStudy builds a random study shaped like the paper: nQ questions in
// four domains, six models of decreasing quality, two human graders per
// response out of 47 domain experts, one judge, 5 attributes, checklists
// of 5–10 items, ranks, costs, and the human label graded on the first 8 %
// of the questions. Text is left empty (text metrics are not timed).
func synthStudy(nQ int, seed uint64) *study.Study {
	r := rand.New(rand.NewPCG(seed, 7))
	attrs := []string{"Domain", "Localization", "Reasoning", "Communication", "Actionability"}
	s := &study.Study{Title: "synthetic", HumanLabel: "Human Expert", MainRound: "main", Attributes: attrs, ScaleMin: 1, ScaleMax: 5}
	models := []string{"Fable 5", "GPT-5.5", "Opus 4.8", "Gemini 3.1 Pro", "GLM-5.2", "Mistral Large"}
	quality := map[string]float64{"Human Expert": 4.4, "Fable 5": 4.1, "GPT-5.5": 3.9, "Opus 4.8": 3.8, "Gemini 3.1 Pro": 3.6, "GLM-5.2": 3.4, "Mistral Large": 3.0}
	all := append([]string{"Human Expert"}, models...)
	for _, m := range all {
		s.Models = append(s.Models, study.Model{Name: m, Provider: "p", USDPer1kInput: 0.003, USDPer1kOutput: 0.015})
	}
	sortModels(s.Models)
	domains := []string{"Business", "Finance", "Marketing", "Product"}
	var perDomain [4][]string
	for i := 0; i < 47; i++ {
		id := fmt.Sprintf("e%02d", i)
		s.Evaluators = append(s.Evaluators, study.Evaluator{ID: id, Kind: study.Human, Domain: domains[i%4]})
		perDomain[i%4] = append(perDomain[i%4], id)
	}
	s.Evaluators = append(s.Evaluators, study.Evaluator{ID: "judge", Kind: study.Judge})
	lenient := map[string]float64{}
	for _, e := range s.Evaluators {
		lenient[e.ID] = r.NormFloat64() * 0.3
	}
	for q := 0; q < nQ; q++ {
		id := fmt.Sprintf("q%06d", q)
		d := q % 4
		items := 5 + r.IntN(6)
		qq := study.Question{ID: id, Domain: domains[d], Prompt: strings.Repeat("word ", 150+r.IntN(100)), GateScore: 0.6 * r.Float64()}
		for i := 0; i < items; i++ {
			qq.Checklist = append(qq.Checklist, fmt.Sprintf("item %d", i+1))
		}
		s.Questions = append(s.Questions, qq)
		ms := models
		if q*100 < 8*nQ {
			ms = all
		}
		e1 := perDomain[d][r.IntN(len(perDomain[d]))]
		e2 := e1
		for e2 == e1 {
			e2 = perDomain[d][r.IntN(len(perDomain[d]))]
		}
		for _, m := range ms {
			s.Responses = append(s.Responses, study.Response{QuestionID: id, Model: m, Chars: 20000 + r.IntN(40000), Words: 3000 + r.IntN(6000),
				CostUSD: math.NaN(), InputTokens: 300, OutputTokens: int64(5000 + r.IntN(10000))})
		}
		evs := []string{e1, e2}
		if !(q*100 < 8*nQ) {
			evs = append(evs, "judge")
		}
		for _, e := range evs {
			lat := make([]float64, len(ms))
			for i, m := range ms {
				lat[i] = quality[m] + lenient[e] + r.NormFloat64()*0.6
			}
			order := rankOf(lat)
			for i, m := range ms {
				g := study.Grading{Evaluator: e, Kind: study.Human, Round: "main", QuestionID: id, Model: m, Rank: order[i]}
				if e == "judge" {
					g.Kind = study.Judge
				}
				for range attrs {
					g.Rubric = append(g.Rubric, math.Max(1, math.Min(5, math.Round(lat[i]+r.NormFloat64()*0.7))))
				}
				ph := (lat[i] - 1.5) / 4
				for k := 0; k < items; k++ {
					u := r.Float64()
					switch {
					case u < 0.03:
						g.Verdicts = append(g.Verdicts, study.NA)
					case u < ph:
						g.Verdicts = append(g.Verdicts, study.Hit)
					case u < ph+0.2:
						g.Verdicts = append(g.Verdicts, study.Partial)
					default:
						g.Verdicts = append(g.Verdicts, study.Miss)
					}
				}
				s.Gradings = append(s.Gradings, g)
			}
		}
	}
	sortGradings(s.Gradings)
	return s
}

func rankOf(x []float64) []int {
	r := make([]int, len(x))
	for i := range x {
		r[i] = 1
		for j := range x {
			if x[j] > x[i] || (x[j] == x[i] && j < i) {
				r[i]++
			}
		}
	}
	return r
}

func sortModels(m []study.Model) {
	for i := 1; i < len(m); i++ {
		for j := i; j > 0 && m[j].Name < m[j-1].Name; j-- {
			m[j], m[j-1] = m[j-1], m[j]
		}
	}
}

func sortGradings(gs []study.Grading) {
	less := func(a, b *study.Grading) bool {
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
	}
	sortSlice(gs, less)
}

func sortSlice(gs []study.Grading, less func(a, b *study.Grading) bool) {
	// Merge sort to stay stable without importing sort in a hot path.
	if len(gs) < 2 {
		return
	}
	tmp := make([]study.Grading, len(gs))
	var rec func(lo, hi int)
	rec = func(lo, hi int) {
		if hi-lo < 2 {
			return
		}
		mid := (lo + hi) / 2
		rec(lo, mid)
		rec(mid, hi)
		i, j, k := lo, mid, lo
		for i < mid && j < hi {
			if less(&gs[j], &gs[i]) {
				tmp[k] = gs[j]
				j++
			} else {
				tmp[k] = gs[i]
				i++
			}
			k++
		}
		k += copy(tmp[k:], gs[i:mid])
		copy(tmp[k:], gs[j:hi])
		copy(gs[lo:hi], tmp[lo:hi])
	}
	rec(0, len(gs))
}

// sameTables reports the first difference between two reports' tables,
// comparing floats bit for bit (NaN equal to NaN).
func sameTables(a, b *report.Report) error {
	if len(a.Tables) != len(b.Tables) {
		return fmt.Errorf("%d tables vs %d", len(a.Tables), len(b.Tables))
	}
	for i, ta := range a.Tables {
		tb := b.Tables[i]
		if ta.Name != tb.Name || len(ta.Rows) != len(tb.Rows) {
			return fmt.Errorf("table %d: %s (%d rows) vs %s (%d rows)", i, ta.Name, len(ta.Rows), tb.Name, len(tb.Rows))
		}
		for r := range ta.Rows {
			for c := range ta.Rows[r] {
				x, y := ta.Rows[r][c], tb.Rows[r][c]
				if fx, ok := x.(float64); ok {
					if fy, ok := y.(float64); !ok || math.Float64bits(fx) != math.Float64bits(fy) && !(math.IsNaN(fx) && math.IsNaN(fy)) {
						return fmt.Errorf("%s row %d col %s: %v vs %v", ta.Name, r, ta.Columns[c].Name, x, y)
					}
					continue
				}
				if x != y {
					return fmt.Errorf("%s row %d col %s: %v vs %v", ta.Name, r, ta.Columns[c].Name, x, y)
				}
			}
		}
	}
	return nil
}

func TestDeterminism(t *testing.T) {
	s := synthStudy(80, 3)
	o := DefaultOptions()
	o.Bootstrap = 200
	o.Resamples = 40
	r1, err := present(context.Background(), s, o)
	if err != nil {
		t.Fatal(err)
	}
	r2, _ := present(context.Background(), s, o)
	if err := sameTables(r1, r2); err != nil {
		t.Fatalf("two runs differ: %v", err)
	}
	prev := runtime.GOMAXPROCS(1)
	r3, _ := present(context.Background(), s, o)
	runtime.GOMAXPROCS(prev)
	if err := sameTables(r1, r3); err != nil {
		t.Fatalf("GOMAXPROCS=1 differs: %v", err)
	}
	o.Seed = 2
	r4, _ := present(context.Background(), s, o)
	if sameTables(r1, r4) == nil {
		t.Fatal("a different seed gave identical intervals")
	}
}

// TestSyntheticSanity checks invariants of a paper-sized synthetic study:
// win rates × gradings add up to one winner per grading, average ranks add
// up to 1 + … + k, and the coverage rule keeps every model.
func TestSyntheticSanity(t *testing.T) {
	s := synthStudy(413, 1)
	o := DefaultOptions()
	o.Bootstrap = 100
	o.Resamples = 20
	r, err := present(context.Background(), s, o)
	if err != nil {
		t.Fatal(err)
	}
	tb := r.Table("summary")
	for _, set := range []string{"all", "reference_subset"} {
		var wins, gradings int64
		var rankSum float64
		k := 0
		for _, row := range tb.Rows {
			if row[0] != set || row[1] != "humans" {
				continue
			}
			k++
			n := row[4].(int64)
			gradings = n
			wins += int64(math.Round(row[11].(float64) * float64(n)))
			rankSum += row[8].(float64)
		}
		want := 6
		if set == "reference_subset" {
			want = 7
		}
		if k != want {
			t.Fatalf("%s: %d models, want %d", set, k, want)
		}
		if wins != gradings {
			t.Errorf("%s: %d wins for %d gradings per model", set, wins, gradings)
		}
		if math.Abs(rankSum-float64(k*(k+1)/2)) > 1e-9 {
			t.Errorf("%s: average ranks add up to %v, want %d", set, rankSum, k*(k+1)/2)
		}
	}
	if g := len(r.Table("pvalue_curve").Rows); g != 5*42 {
		t.Errorf("pvalue_curve rows = %d, want 5 pairs × 42 sizes (10…410, 413)", g)
	}
}

func benchAnalyze(b *testing.B, nQ int) {
	s := synthStudy(nQ, 1)
	o := DefaultOptions()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		cpu0 := cpuTime()
		stages := map[string]time.Time{}
		var order []string
		o.Progress = func(stage string, done, total int) {
			stages[stage] = time.Now()
			order = append(order, stage)
		}
		if _, err := present(context.Background(), s, o); err != nil {
			b.Fatal(err)
		}
		if testing.Verbose() {
			for k := 0; k+1 < len(order); k++ {
				b.Logf("%-14s %v", order[k], stages[order[k+1]].Sub(stages[order[k]]).Round(time.Millisecond))
			}
			b.Logf("total %v wall, %v CPU (user+sys)", time.Since(start).Round(time.Millisecond), (cpuTime() - cpu0).Round(time.Millisecond))
		}
	}
}

// BenchmarkAnalyzePaper: 413 questions, 6 models (+ the human label on 33),
// 2 humans per response, one judge, 2,000 bootstrap replicates, 500
// resamples per Figure 3 point.
func BenchmarkAnalyzePaper(b *testing.B) { benchAnalyze(b, 413) }

// BenchmarkAnalyze40k: the same shape with 40,000 questions.
func BenchmarkAnalyze40k(b *testing.B) { benchAnalyze(b, 40000) }

// BenchmarkAnalyze10k: the same shape with 10,000 questions.
func BenchmarkAnalyze10k(b *testing.B) { benchAnalyze(b, 10000) }

// cpuTime is the process's user + system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
