package compare_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/euroexec/euroexec/study"
)

// simParams describe a pair of simulated runs of one study. The simulator
// is written for the tests, independently of the code under test: it draws
// solved/unsolved gradings with known probabilities, so the true change of
// Solve Rate is known exactly.
type simParams struct {
	questions int
	seed      uint64
	// improve is added to model-a's solve probability in NEW (its
	// responses change text there; the others keep theirs).
	improve float64
	// lenient is added to the judge's scores in NEW.
	lenient float64
	// models, when above 3, adds models model-d, model-e, … (unchanged).
	models int
}

var simModels = []string{"model-a", "model-b", "model-c"}
var simBase = []float64{0.45, 0.5, 0.35}

// simulate returns OLD and NEW. Question effects and each response's true
// quality are drawn once (stream 0) and shared by both runs; the gradings of
// OLD and NEW are independent draws (streams 1 and 2).
func simulate(p simParams) (old, new *study.Study) {
	r0 := rand.New(rand.NewPCG(p.seed, 0))
	simModels, simBase := simModels, simBase
	for m := len(simModels); m < p.models; m++ {
		simModels = append(simModels[:m:m], fmt.Sprintf("model-%c", 'a'+m))
		simBase = append(simBase[:m:m], 0.3+0.04*float64(m))
	}
	nQ, nM := p.questions, len(simModels)
	qEff := make([]float64, nQ)
	quality := make([]float64, nQ*nM) // judge's view of the response, fixed
	for q := range qEff {
		qEff[q] = []float64{-0.15, 0, 0.15}[r0.IntN(3)]
		for m := 0; m < nM; m++ {
			quality[q*nM+m] = 3 + 2*(simBase[m]+qEff[q]-0.45) + 0.5*r0.NormFloat64()
		}
	}
	build := func(stream uint64, newRun bool) *study.Study {
		r := rand.New(rand.NewPCG(p.seed, stream))
		s := &study.Study{Title: "sim", HumanLabel: "Human Expert", MainRound: "main",
			Attributes: []string{"A", "B"}, ScaleMin: 1, ScaleMax: 5}
		for _, m := range simModels {
			s.Models = append(s.Models, study.Model{Name: m})
		}
		for h := 1; h <= 6; h++ {
			s.Evaluators = append(s.Evaluators, study.Evaluator{ID: fmt.Sprintf("h%d", h), Kind: study.Human})
		}
		s.Evaluators = append(s.Evaluators, study.Evaluator{ID: "judge-1", Kind: study.Judge})
		for q := 0; q < nQ; q++ {
			qid := fmt.Sprintf("q%04d", q)
			s.Questions = append(s.Questions, study.Question{ID: qid})
			graders := []string{fmt.Sprintf("h%d", 1+q%3), fmt.Sprintf("h%d", 4+q%3)}
			type g struct {
				m      int
				solved bool
				key    float64
			}
			for _, h := range graders {
				var gs []g
				for m := 0; m < nM; m++ {
					prob := simBase[m] + qEff[q]
					if newRun && m == 0 {
						prob += p.improve
					}
					gs = append(gs, g{m: m, solved: r.Float64() < prob, key: r.Float64()})
				}
				// Ranks: solved before unsolved, ties at random.
				for _, x := range gs {
					rank := 1
					for _, y := range gs {
						if y.m != x.m && (b(y.solved) > b(x.solved) || (y.solved == x.solved && y.key > x.key)) {
							rank++
						}
					}
					score, hits := 2.0, 2
					if x.solved {
						score, hits = 4, 4
					}
					s.Gradings = append(s.Gradings, study.Grading{Evaluator: h, Kind: study.Human, Round: "main",
						QuestionID: qid, Model: simModels[x.m], Rubric: []float64{score, score}, Verdicts: verdicts(hits), Rank: rank})
				}
			}
			for m := 0; m < nM; m++ {
				text := fmt.Sprintf("answer of %s to %s", simModels[m], qid)
				if newRun && m == 0 && p.improve != 0 {
					text += " (new version)"
				}
				s.Responses = append(s.Responses, study.Response{QuestionID: qid, Model: simModels[m], Text: text, Chars: len(text)})
				score := quality[q*nM+m] + 0.2*r.NormFloat64()
				if newRun {
					score += p.lenient
					if m == 0 {
						score += 2 * p.improve
					}
				}
				hits := 2
				if score >= 3 {
					hits = 4
				}
				s.Gradings = append(s.Gradings, study.Grading{Evaluator: "judge-1", Kind: study.Judge, Round: "main",
					QuestionID: qid, Model: simModels[m], Rubric: []float64{score, score}, Verdicts: verdicts(hits)})
			}
		}
		return s
	}
	return build(1, false), build(2, true)
}

func b(x bool) int {
	if x {
		return 1
	}
	return 0
}

// verdicts returns five checklist verdicts with hits hits (4 → rate 0.8,
// solved with a rubric of 4; 2 → 0.4, not solved).
func verdicts(hits int) []study.Verdict {
	v := make([]study.Verdict, 5)
	for i := range v {
		v[i] = study.Miss
		if i < hits {
			v[i] = study.Hit
		}
	}
	return v
}

// row finds a table row by its first columns.
func findRow(rows [][]any, key ...any) []any {
	for _, r := range rows {
		ok := true
		for i, k := range key {
			if r[i] != k {
				ok = false
				break
			}
		}
		if ok {
			return r
		}
	}
	return nil
}

func isNaN(v any) bool { f, ok := v.(float64); return ok && math.IsNaN(f) }
