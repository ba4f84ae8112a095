package prbench

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"testing"

	"github.com/euroexec/euroexec/study"
)

// synthStudy builds a PRBench-shaped synthetic study: nQ questions (55 %
// Finance, 45 % Legal, a decision-type tag), nCrit criteria per question
// with weights in −10..10 (about 70 % positive, never 0) in 7 categories,
// nM models, judge J on every cell and experts H1, H2 on humanShare of the
// questions. Grades depend on a model's ability and agree with a latent
// truth about 85 % of the time.
func synthStudy(nQ, nM, nCrit int, humanShare float64, seed uint64) *study.Study {
	r := rand.New(rand.NewPCG(seed, 0))
	s := &study.Study{}
	cats := []string{"Accuracy", "Process Transparency", "Handling Uncertainty", "Practical Utility", "Risk & Ethics", "Supplemental Insight", "Instruction Following"}
	decisions := []string{"Informational", "Transaction", "Planning", "Compliance"}
	for m := 0; m < nM; m++ {
		s.Models = append(s.Models, study.Model{Name: fmt.Sprintf("model-%02d", m)})
	}
	for q := 0; q < nQ; q++ {
		id := fmt.Sprintf("q%04d", q)
		dom := "Finance"
		if q%20 >= 11 {
			dom = "Legal"
		}
		s.Questions = append(s.Questions, study.Question{ID: id, Domain: dom,
			Tags: []study.Tag{{Key: "decision_type", Value: decisions[r.IntN(len(decisions))]}}})
		for c := 0; c < nCrit; c++ {
			w := 1 + r.IntN(10)
			if c > 0 && r.Float64() < 0.3 {
				w = -w
			}
			s.Criteria = append(s.Criteria, study.Criterion{QuestionID: id, ID: fmt.Sprintf("c%02d", c),
				Weight: w, Category: cats[r.IntN(len(cats))]})
		}
	}
	crits := map[string][]study.Criterion{}
	for _, c := range s.Criteria {
		crits[c.QuestionID] = append(crits[c.QuestionID], c)
	}
	for qi, q := range s.Questions {
		human := float64(qi%100) < humanShare*100
		hard := r.Float64() * 0.4
		for mi, m := range s.Models {
			ability := 0.3 + 0.5*float64(mi)/float64(nM) - hard
			s.Responses = append(s.Responses, study.Response{QuestionID: q.ID, Model: m.Name, Text: "x",
				Chars: 500 + r.IntN(4000) + 100*mi})
			for _, c := range crits[q.ID] {
				p := ability
				if c.Weight < 0 {
					p = 0.25 - ability/4
				}
				truth := r.Float64() < p
				g := func(ev, kind string, acc float64) {
					met := truth
					if r.Float64() > acc {
						met = !met
					}
					s.CriterionGrades = append(s.CriterionGrades, study.CriterionGrade{Evaluator: ev, Kind: kind,
						QuestionID: q.ID, Model: m.Name, CriterionID: c.ID, Met: met})
				}
				if human {
					g("H1", study.Human, 0.92)
					g("H2", study.Human, 0.92)
				}
				g("J", study.Judge, 0.9)
			}
		}
	}
	return s
}

// TestDeterministicAcrossCores checks that the numbers do not depend on the
// number of cores.
func TestDeterministicAcrossCores(t *testing.T) {
	s := synthStudy(60, 4, 6, 0.2, 3)
	opt := DefaultOptions()
	opt.Bootstrap = 200
	prev := runtime.GOMAXPROCS(1)
	one := analyze(s, opt)
	runtime.GOMAXPROCS(max(prev, 4))
	many := analyze(s, opt)
	runtime.GOMAXPROCS(prev)
	if len(tableNames(one)) < 8 {
		t.Fatalf("synthetic study gave tables %v, want every PRBench table", tableNames(one))
	}
	// fmt prints NaN as NaN, so equal strings mean equal results
	if a, b := fmt.Sprintf("%+v", one), fmt.Sprintf("%+v", many); a != b {
		t.Errorf("the results differ between GOMAXPROCS 1 and 4:\n%s\n%s", a, b)
	}
	if !reflect.DeepEqual(one.Warnings, many.Warnings) {
		t.Error("warnings differ")
	}
}

// BenchmarkAnalyzePRBenchScale runs Analyze end to end on a PRBench-sized
// study: 1,100 questions × 20 models × 18 criteria, the judge on every cell
// (396,000 grades) and two experts on 10 % of the questions (79,200 grades).
func BenchmarkAnalyzePRBenchScale(b *testing.B) {
	s := synthStudy(1100, 20, 18, 0.1, 1)
	b.ReportMetric(float64(len(s.CriterionGrades)), "grades")
	opt := DefaultOptions()
	b.ResetTimer()
	for b.Loop() {
		res := analyze(s, opt)
		if len(res.Scores) == 0 {
			b.Fatal("no tables")
		}
	}
}
