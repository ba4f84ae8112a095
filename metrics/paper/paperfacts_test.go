package paper

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/euroexec/euroexec/study"
)

// TestPaperTable4Counts rebuilds the counts behind Table 4 (seeds/README):
// 413 questions × 2 evaluators = 826 gradings per model; Fable 5 solves 470
// of them (56.9 %); the six win counts 409 + 186 + 78 + 65 + 41 + 47 add up
// to 826, one winner per grading.
func TestPaperTable4Counts(t *testing.T) {
	models := []string{"Claude Opus 4.8", "Fable 5", "GLM-5.2", "GPT-5.5", "Gemini 3.1 Pro", "Mistral Large"}
	wins := map[string]int{"Fable 5": 409, "GPT-5.5": 186, "Claude Opus 4.8": 78, "Gemini 3.1 Pro": 65, "GLM-5.2": 41, "Mistral Large": 47}
	order := []string{"Fable 5", "GPT-5.5", "Claude Opus 4.8", "Gemini 3.1 Pro", "GLM-5.2", "Mistral Large"}
	s := &study.Study{HumanLabel: "Human Expert", MainRound: "main", Attributes: []string{"A"}, ScaleMin: 1, ScaleMax: 5,
		Evaluators: []study.Evaluator{{ID: "e1", Kind: study.Human}, {ID: "e2", Kind: study.Human}}}
	for _, m := range models {
		s.Models = append(s.Models, study.Model{Name: m})
	}
	k := 0 // grading index 0..825
	left := map[string]int{}
	for m, w := range wins {
		left[m] = w
	}
	for q := 0; q < 413; q++ {
		id := fmt.Sprintf("q%03d", q)
		s.Questions = append(s.Questions, study.Question{ID: id, Domain: "D", GateScore: math.NaN(), Checklist: []string{"x"}})
		for _, e := range []string{"e1", "e2"} {
			winner := ""
			for _, m := range order {
				if left[m] > 0 {
					winner = m
					left[m]--
					break
				}
			}
			rank := 2
			for _, m := range models {
				r := rank
				if m == winner {
					r = 1
				} else {
					rank++
				}
				score := 2.0
				if m == "Fable 5" && k < 470 {
					score = 4 // solved
				}
				s.Gradings = append(s.Gradings, study.Grading{Evaluator: e, Kind: study.Human, Round: "main", QuestionID: id, Model: m,
					Rubric: []float64{score}, Verdicts: []study.Verdict{study.Hit}, Rank: r})
			}
			k++
		}
	}
	sortGradings(s.Gradings)
	o := DefaultOptions()
	o.Bootstrap, o.Resamples = 20, 0
	r, err := present(context.Background(), s, o)
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for m, w := range wins {
		row := rowWhere(t, r, "summary", "set", "all", "model", m)
		checkInt(t, m+" gradings", row["n_gradings"], 826)
		checkExact(t, m+" win", row["win_rate"], float64(w)/826)
		sum += row["win_rate"].(float64) * 826
	}
	if math.Round(sum) != 826 {
		t.Errorf("wins add up to %v, want 826", sum)
	}
	fable := rowWhere(t, r, "summary", "set", "all", "model", "Fable 5")
	checkExact(t, "Fable solve", fable["solve_rate"], 470.0/826)
	if got := fmt.Sprintf("%.1f", 100*fable["solve_rate"].(float64)); got != "56.9" {
		t.Errorf("Fable 5 Solve Rate shows as %s %%, want 56.9", got)
	}
	checkExact(t, "Fable win", fable["win_rate"], 409.0/826)
}
