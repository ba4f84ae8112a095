package paper_test

import (
	"encoding/csv"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
	"testing"

	"github.com/euroexec/euroexec/internal/realdata"
	"github.com/euroexec/euroexec/study"
)

// The real HANNA data set (third party, MIT; internal/realdata/SOURCE.md):
// 96 prompts × 11 systems × 3 rating slots × 6 criteria.

// rubricStudy builds a rubric-only study: scores[q][m][h][a] are integer
// human scores; judge[q][m][a] those of one judge "j".
func rubricStudy(nQ int, models []string, nH int, attrs []string, score func(q, m, h, a int) int, judge func(q, m, a int) int) *study.Study {
	s := &study.Study{Title: "tau", HumanLabel: "Human Expert", MainRound: "main", Attributes: attrs, ScaleMin: 1, ScaleMax: 5}
	for _, m := range models {
		s.Models = append(s.Models, study.Model{Name: m, USDPer1kInput: math.NaN(), USDPer1kOutput: math.NaN()})
	}
	sort.Slice(s.Models, func(i, j int) bool { return s.Models[i].Name < s.Models[j].Name })
	for h := 0; h < nH; h++ {
		s.Evaluators = append(s.Evaluators, study.Evaluator{ID: fmt.Sprintf("h%d", h+1), Kind: study.Human})
	}
	s.Evaluators = append(s.Evaluators, study.Evaluator{ID: "j", Kind: study.Judge})
	for q := 0; q < nQ; q++ {
		qid := fmt.Sprintf("p%02d", q)
		s.Questions = append(s.Questions, study.Question{ID: qid, Domain: "D", GateScore: math.NaN()})
		for mi, m := range models {
			s.Responses = append(s.Responses, study.Response{QuestionID: qid, Model: m, CostUSD: math.NaN(), InputTokens: -1, OutputTokens: -1})
			for h := 0; h < nH; h++ {
				r := make([]float64, len(attrs))
				for a := range r {
					r[a] = float64(score(q, mi, h, a))
				}
				s.Gradings = append(s.Gradings, study.Grading{Evaluator: fmt.Sprintf("h%d", h+1), Kind: study.Human, Round: "main", QuestionID: qid, Model: m, Rubric: r})
			}
			r := make([]float64, len(attrs))
			for a := range r {
				r[a] = float64(judge(q, mi, a))
			}
			s.Gradings = append(s.Gradings, study.Grading{Evaluator: "j", Kind: study.Judge, Round: "main", QuestionID: qid, Model: m, Rubric: r})
		}
	}
	sortGradings(s.Gradings)
	return s
}

// tauRat is Kendall τ-b of paired exact values (an independent
// implementation: pair counts compared as big.Rat); ok is false when a
// side is constant.
func tauRat(x, y []*big.Rat) (float64, bool) {
	var c, d, n0, n1, n2 int64
	for i := range x {
		for j := i + 1; j < len(x); j++ {
			sx, sy := x[i].Cmp(x[j]), y[i].Cmp(y[j])
			n0++
			if sx == 0 {
				n1++
			}
			if sy == 0 {
				n2++
			}
			switch {
			case sx*sy > 0:
				c++
			case sx*sy < 0:
				d++
			}
		}
	}
	den := float64(n0-n1) * float64(n0-n2)
	if den == 0 {
		return 0, false
	}
	return float64(c-d) / math.Sqrt(den), true
}

// tauFloat is the same on floats, for showing that float means break ties.
func tauFloat(x, y []float64) (float64, bool) {
	bx, by := make([]*big.Rat, len(x)), make([]*big.Rat, len(y))
	for i := range x {
		bx[i], by[i] = new(big.Rat).SetFloat64(x[i]), new(big.Rat).SetFloat64(y[i])
	}
	return tauRat(bx, by)
}

// checkExactTau checks Table 8's rubric rows human_vs_mean_of_others and
// llm_mean against τ-b computed here from exact fractions (math/big), and
// that means averaged in floating point (grader means summed in grader
// order) would have broken at least one tie — so the test can fail.
func checkExactTau(t *testing.T, s *study.Study, nQ, nM, nH int, score func(q, m, h, a int) int, judge func(q, m, a int) int, nA int) {
	t.Helper()
	rep := analyzeAll(t, s)
	jc := rep.Table("judge_consistency")
	// model order in the study is sorted by name; keep indexes as given
	graderMean := func(q, m, h int) *big.Rat {
		sum := int64(0)
		for a := 0; a < nA; a++ {
			sum += int64(score(q, m, h, a))
		}
		return big.NewRat(sum, int64(nA))
	}
	graderMeanF := func(q, m, h int) float64 {
		sum := 0.0
		for a := 0; a < nA; a++ {
			sum += float64(score(q, m, h, a))
		}
		return sum / float64(nA)
	}
	var sumOthers, sumLLM float64
	var nOthers, nLLM, broken int
	for q := 0; q < nQ; q++ {
		for h := 0; h < nH; h++ {
			x, y := make([]*big.Rat, nM), make([]*big.Rat, nM)
			xf, yf := make([]float64, nM), make([]float64, nM)
			for m := 0; m < nM; m++ {
				x[m], xf[m] = graderMean(q, m, h), graderMeanF(q, m, h)
				y[m] = new(big.Rat)
				for o := 0; o < nH; o++ {
					if o != h {
						y[m].Add(y[m], graderMean(q, m, o))
						yf[m] += graderMeanF(q, m, o)
					}
				}
				y[m].Quo(y[m], big.NewRat(int64(nH-1), 1))
				yf[m] /= float64(nH - 1)
			}
			if tv, ok := tauRat(x, y); ok {
				sumOthers += tv
				nOthers++
				if tf, _ := tauFloat(xf, yf); tf != tv {
					broken++
				}
			}
		}
		x, y := make([]*big.Rat, nM), make([]*big.Rat, nM)
		for m := 0; m < nM; m++ {
			js := int64(0)
			for a := 0; a < nA; a++ {
				js += int64(judge(q, m, a))
			}
			x[m] = big.NewRat(js, int64(nA))
			y[m] = new(big.Rat)
			for h := 0; h < nH; h++ {
				y[m].Add(y[m], graderMean(q, m, h))
			}
			y[m].Quo(y[m], big.NewRat(int64(nH), 1))
		}
		if tv, ok := tauRat(x, y); ok {
			sumLLM += tv
			nLLM++
		}
	}
	if broken == 0 {
		t.Fatalf("no unit where floating-point means break a tie: the case does not test exactness")
	}
	t.Logf("%d of %d (question, human) units have a τ that float means would change", broken, nOthers)
	for _, c := range []struct {
		graders, comparison string
		want                float64
		n                   int
	}{
		{"humans", "human_vs_mean_of_others", sumOthers / float64(nOthers), nOthers},
		{"judge:j", "llm_mean", sumLLM / float64(nLLM), nLLM},
	} {
		got := num(t, cell(t, jc, "tau", "graders", c.graders, "instrument", "rubric", "comparison", c.comparison))
		n := num(t, cell(t, jc, "n", "graders", c.graders, "instrument", "rubric", "comparison", c.comparison))
		if math.Abs(got-c.want) > 1e-12 || n != float64(c.n) {
			t.Errorf("%s %s: got τ %v over %v units, want %v over %d (exact fractions)", c.graders, c.comparison, got, n, c.want, c.n)
		}
	}
}

// TestTauExactMeansHANNALike: a 6-attribute rubric, 3 graders, 11 models
// on 96 questions with integer scores from a fixed LCG — grader means tie
// often (22/9 and the like).
func TestTauExactMeansHANNALike(t *testing.T) {
	const nQ, nM, nH, nA = 96, 11, 3, 6
	x := uint64(7)
	tab := make([]int, nQ*nM*nH*nA)
	jt := make([]int, nQ*nM*nA)
	for i := range tab {
		x = x*6364136223846793005 + 1442695040888963407
		tab[i] = 1 + int((x>>33)%5)
	}
	for i := range jt {
		x = x*6364136223846793005 + 1442695040888963407
		jt[i] = 1 + int((x>>33)%5)
	}
	score := func(q, m, h, a int) int { return tab[((q*nM+m)*nH+h)*nA+a] }
	judge := func(q, m, a int) int { return jt[(q*nM+m)*nA+a] }
	var models []string
	for m := 0; m < nM; m++ {
		models = append(models, fmt.Sprintf("sys%02d", m))
	}
	attrs := []string{"Relevance", "Coherence", "Empathy", "Surprise", "Engagement", "Complexity"}
	checkExactTau(t, rubricStudy(nQ, models, nH, attrs, score, judge), nQ, nM, nH, score, judge, nA)
}

// TestTauExactMeansHANNA runs the same check on the real HANNA human
// scores (rating slots as the three graders); the judge is a fixed
// function of the scores so that its means are exact too.
func TestTauExactMeansHANNA(t *testing.T) {
	f, err := realdata.Open(realdata.HANNAHumans)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	attrs := []string{"Relevance", "Coherence", "Empathy", "Surprise", "Engagement", "Complexity"}
	aPos := map[string]int{}
	for i, a := range attrs {
		aPos[a] = i
	}
	sysSet := map[string]bool{}
	for _, r := range rows[1:] {
		sysSet[r[2]] = true
	}
	var models []string
	for m := range sysSet {
		models = append(models, m)
	}
	sort.Strings(models)
	mPos := map[string]int{}
	for i, m := range models {
		mPos[m] = i
	}
	const nQ, nH, nA = 96, 3, 6
	nM := len(models)
	tab := make([]int, nQ*nM*nH*nA)
	for _, r := range rows[1:] { // story_id,prompt_id,system,annotator_slot,attribute,score
		q, _ := strconv.Atoi(r[1])
		h, _ := strconv.Atoi(r[3])
		v, err := strconv.Atoi(r[5])
		if err != nil || q < 0 || q >= nQ || h < 1 || h > nH {
			t.Fatalf("HANNA row %v: unexpected value", r)
		}
		tab[((q*nM+mPos[r[2]])*nH+h-1)*nA+aPos[r[4]]] = v
	}
	score := func(q, m, h, a int) int { return tab[((q*nM+m)*nH+h)*nA+a] }
	judge := func(q, m, a int) int { return 1 + (score(q, m, 0, a)+score(q, m, 2, (a+1)%nA))%5 }
	checkExactTau(t, rubricStudy(nQ, models, nH, attrs, score, judge), nQ, nM, nH, score, judge, nA)
}
