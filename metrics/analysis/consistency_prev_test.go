package analysis

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"testing"
	"time"

	"github.com/euroexec/euroexec/report"
)

// withMoreGraders is synthStudy with a third human on every third question
// (so that human_vs_mean_of_others has units) and a second judge with two
// runs per response (averaged ranks that tie, some rubric scores missing).
func withMoreGraders(nQ int, seed uint64) *Study {
	s := synthStudy(nQ, seed)
	r := rand.New(rand.NewPCG(seed, 99))
	s.Evaluators = append(s.Evaluators, Evaluator{ID: "extra", Kind: Human, Domain: "Business"},
		Evaluator{ID: "judge2", Kind: Judge})
	var add []Grading
	firstHuman := map[string]string{} // question → its first human grader
	for _, g := range s.Gradings {
		if g.Kind != Human || g.Round != "main" {
			continue
		}
		if e, ok := firstHuman[g.QuestionID]; ok && e != g.Evaluator {
			continue
		}
		firstHuman[g.QuestionID] = g.Evaluator
		var q int
		fmt.Sscanf(g.QuestionID, "q%d", &q)
		if q%3 == 0 {
			h := g
			h.Evaluator = "extra"
			h.Rubric = append([]float64(nil), g.Rubric...)
			for k := range h.Rubric {
				h.Rubric[k] = math.Max(1, math.Min(5, h.Rubric[k]+float64(r.IntN(3)-1)))
			}
			h.Rank = 1 + r.IntN(7)
			add = append(add, h)
		}
		for _, run := range []string{"1", "2"} {
			j := g
			j.Evaluator, j.Kind, j.Run = "judge2", Judge, run
			j.Rubric = append([]float64(nil), g.Rubric...)
			for k := range j.Rubric {
				j.Rubric[k] = math.Max(1, math.Min(5, j.Rubric[k]+float64(r.IntN(3)-1)))
				if r.IntN(40) == 0 {
					j.Rubric[k] = math.NaN()
				}
			}
			j.Rank = 1 + r.IntN(6)
			add = append(add, j)
		}
	}
	s.Gradings = append(s.Gradings, add...)
	sortGradings(s.Gradings)
	return s
}

// newTestRun prepares a run of Analyze on s without running a stage.
func newTestRun(t *testing.T, s *Study, opt Options) *run {
	t.Helper()
	p, err := newPrep(s, opt)
	if err != nil {
		t.Fatal(err)
	}
	return &run{ctx: context.Background(), p: p, opt: opt, rep: &report.Report{},
		views: map[string]*view{}, stats_: map[string][]modelStats{}}
}

// TestConsistencyTablesEqualPrev checks Table 6 (consistency) and Table 8
// (judge_consistency) against the code before their τ were computed on
// several goroutines (prevconsistency_test.go), bit for bit, on one and two
// cores.
func TestConsistencyTablesEqualPrev(t *testing.T) {
	opt := DefaultOptions()
	opt.Bootstrap = 40
	for _, tc := range []struct {
		name string
		s    *Study
	}{
		{"synthetic 700", synthStudy(700, 3)},
		{"more graders 1500", withMoreGraders(1500, 4)},
		{"mini", miniStudy(t)},
		{"rubric only", rubricOnly(t)},
	} {
		old := newTestRun(t, tc.s, opt)
		old.prevConsistencyTables()
		if hv := old.view(setAll, -1); len(hv.g) > 0 && len(old.p.judges) > 0 {
			old.prevJudgeConsistency(hv)
		}
		for _, procs := range []int{1, 2} {
			t.Run(fmt.Sprintf("%s/GOMAXPROCS=%d", tc.name, procs), func(t *testing.T) {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
				a := newTestRun(t, tc.s, opt)
				a.consistencyTables()
				if hv := a.view(setAll, -1); len(hv.g) > 0 && len(a.p.judges) > 0 {
					a.judgeConsistency(hv)
				}
				if err := sameTables(a.rep, old.rep); err != nil {
					t.Errorf("new vs prev: %v", err)
				}
				if !reflect.DeepEqual(a.p.notes, old.p.notes) {
					t.Errorf("notes %v, want %v", a.p.notes, old.p.notes)
				}
			})
		}
	}
}

// BenchmarkConsistencyTables times Tables 6 and 8 on a 10,000-question
// study (two judges, a third human on every third question), before
// (prevconsistency_test.go) and after, in the same run; cpu-ns/op is the
// CPU time, the measure of a shared machine.
func BenchmarkConsistencyTables(b *testing.B) {
	s := withMoreGraders(10000, 5)
	opt := DefaultOptions()
	t := &testing.T{}
	for _, v := range []struct {
		name string
		run  func(a *run)
	}{
		{"old", func(a *run) {
			a.prevConsistencyTables()
			a.prevJudgeConsistency(a.view(setAll, -1))
		}},
		{"new", func(a *run) {
			a.consistencyTables()
			a.judgeConsistency(a.view(setAll, -1))
		}},
	} {
		b.Run(v.name, func(b *testing.B) {
			var cpu time.Duration
			for range b.N {
				b.StopTimer()
				a := newTestRun(t, s, opt)
				a.view(setAll, -1)
				for _, j := range a.p.judges {
					a.view(setAll, j)
				}
				b.StartTimer()
				c0 := cpuTime()
				v.run(a)
				cpu += cpuTime() - c0
			}
			b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}
