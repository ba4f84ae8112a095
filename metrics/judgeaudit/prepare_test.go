package judgeaudit

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/study"
)

// roughen makes the simulated study s look like real data: some responses
// lose their human gradings (not audited), some gradings their rubric
// score, some responses their text length, some judge gradings a run; the
// humans and the judges give checklist verdicts on a 3-item checklist, and
// one human grading is of a question that is not in s.Questions.
func roughen(s *study.Study, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 7))
	noHuman := map[[2]string]bool{}
	for i := range s.Responses {
		if r.IntN(5) == 0 {
			noHuman[[2]string{s.Responses[i].QuestionID, s.Responses[i].Model}] = true
		}
		if r.IntN(7) == 0 {
			s.Responses[i].Chars = 0
		}
	}
	verdicts := func() []study.Verdict {
		v := make([]study.Verdict, 3)
		for k := range v {
			v[k] = study.Verdict(1 + r.IntN(4))
		}
		return v
	}
	var out []study.Grading
	for _, g := range s.Gradings {
		k := [2]string{g.QuestionID, g.Model}
		if g.Kind == study.Human && noHuman[k] {
			continue
		}
		if g.Kind == study.Judge && g.Run == "2" && r.IntN(6) == 0 {
			continue
		}
		if r.IntN(9) == 0 {
			g.Rubric = []float64{math.NaN()}
		}
		if r.IntN(3) > 0 {
			g.Verdicts = verdicts()
		}
		out = append(out, g)
	}
	out = append(out, study.Grading{Evaluator: "h1", Kind: study.Human, Round: "main", QuestionID: "zz-extra",
		Model: "m1", Rubric: []float64{3}})
	s.Gradings = out
}

// TestPrepareNoHumans checks a round without human gradings: every judge
// is listed with no statistic, as before.
func TestPrepareNoHumans(t *testing.T) {
	s := simStudyOf(9, 20, simJudges[:2])
	var js []study.Grading
	for _, g := range s.Gradings {
		if g.Kind == study.Judge {
			js = append(js, g)
		}
	}
	s.Gradings = js
	got := prepare(s, DefaultOptions())
	if len(got.judges) != 2 || got.humans {
		t.Fatalf("%d judges, humans %v; want 2, false", len(got.judges), got.humans)
	}
	for _, j := range got.judges {
		if j.responses != 0 || j.nQuestions != 0 {
			t.Errorf("judge %s: %d audited responses on %d questions, want none without humans", j.id, j.responses, j.nQuestions)
		}
	}
}

// TestBootstrapMatchesIndexLists checks that the intervals of Analyze, whose
// bootstrap passes draw counts (stats.ClusterBootstrapCounts), equal bit
// for bit those of the index-list bootstrap
// (stats.ClusterBootstrap, weights counted from the indices), computed here.
func TestBootstrapMatchesIndexLists(t *testing.T) {
	s := simStudyOf(11, 60, simJudges)
	roughen(s, 11)
	opt := DefaultOptions()
	opt.Bootstrap = 300
	res, err := Analyze(context.Background(), s, opt)
	if err != nil {
		t.Fatal(err)
	}
	p := prepare(s, opt)
	nA, nQ := len(p.attrs), len(p.questions)
	perJudge := len(biases) + nA
	reps := stats.ClusterBootstrap(nQ, opt.Bootstrap, opt.Seed, len(p.judges)*perJudge, func(idx []int, out []float64) {
		w := make([]float64, nQ)
		for _, q := range idx {
			w[q]++
		}
		estimate(p, w, perJudge, out, nil)
	})
	n := 0
	for ji, j := range res.Judges {
		rows := append(append([]Bias(nil), j.Biases...), j.ByAttribute...)
		for k, b := range rows {
			if math.IsNaN(b.Estimate) {
				continue
			}
			lo, hi := stats.PercentileInterval(reps, ji*perJudge+k, ExpandedLevel(opt.Level, p.judges[ji].nQuestions))
			if math.Float64bits(lo) != math.Float64bits(b.Lo) || math.Float64bits(hi) != math.Float64bits(b.Hi) {
				t.Errorf("%s %s %s: got [%v, %v], want [%v, %v]", j.Judge, b.Name, b.Attribute, b.Lo, b.Hi, lo, hi)
			}
			n++
		}
	}
	if n < 20 {
		t.Fatalf("only %d intervals compared", n)
	}
}

// TestNoEstimateNoReplicates checks a judge-only round: no estimate, so
// Analyze draws no replicates, and the result is the one without a
// bootstrap (every row empty, the same notes and flags).
func TestNoEstimateNoReplicates(t *testing.T) {
	s := simStudyOf(9, 30, simJudges[:2])
	var js []study.Grading
	for _, g := range s.Gradings {
		if g.Kind == study.Judge {
			js = append(js, g)
		}
	}
	s.Gradings = js
	opt := DefaultOptions()
	with, err := Analyze(context.Background(), s, opt)
	if err != nil {
		t.Fatal(err)
	}
	opt.Bootstrap = 0
	without, err := Analyze(context.Background(), s, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(with.Judges) != 2 {
		t.Fatalf("got %d judges, want 2", len(with.Judges))
	}
	for _, j := range with.Judges {
		for _, b := range append(append([]Bias(nil), j.Biases...), j.ByAttribute...) {
			if !math.IsNaN(b.Estimate) || !math.IsNaN(b.Lo) || !math.IsNaN(b.Hi) {
				t.Errorf("%s %s: got %v [%v, %v], want all NaN", j.Judge, b.Name, b.Estimate, b.Lo, b.Hi)
			}
		}
	}
	if fmt.Sprintf("%+v", with) != fmt.Sprintf("%+v", without) {
		t.Errorf("with replicates:\n%+v\nwithout:\n%+v", with, without)
	}
}
