package planning

import (
	"encoding/csv"
	"math"
	"sort"
	"strconv"
	"testing"

	"github.com/euroexec/euroexec/internal/realdata"
	"github.com/euroexec/euroexec/study"
)

// TestSummEvalPlan plans a follow-up of SummEval from its 3 expert
// ratings (100 articles × 12 systems, 4 attributes). It checks what must
// hold (11 adjacent pairs; var_question ≥ 0; more graders never need more
// questions) and logs the plan.
func TestSummEvalPlan(t *testing.T) {
	if testing.Short() {
		t.Skip("real data set")
	}
	f, err := realdata.Open(realdata.SummEvalExperts)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	attrs := []string{"coherence", "consistency", "fluency", "relevance"}
	aPos := map[string]int{}
	for i, a := range attrs {
		aPos[a] = i
	}
	type key struct{ e, q, m string }
	gs := map[key][]float64{}
	qs := map[string]bool{}
	for _, r := range rows[1:] { // doc_id,system,annotator_type,annotator,attribute,score
		if r[2] != "expert" {
			continue
		}
		v, err := strconv.ParseFloat(r[5], 64)
		if err != nil {
			t.Fatal(err)
		}
		k := key{r[3], r[0], r[1]}
		if gs[k] == nil {
			gs[k] = []float64{math.NaN(), math.NaN(), math.NaN(), math.NaN()}
		}
		gs[k][aPos[r[4]]] = v
		qs[r[0]] = true
	}
	s := &study.Study{HumanLabel: "Human Expert", MainRound: "main", Attributes: attrs}
	for q := range qs {
		s.Questions = append(s.Questions, study.Question{ID: q})
	}
	sort.Slice(s.Questions, func(i, j int) bool { return s.Questions[i].ID < s.Questions[j].ID })
	for k, v := range gs {
		s.Gradings = append(s.Gradings, study.Grading{Evaluator: k.e, Kind: study.Human, Round: "main", QuestionID: k.q, Model: k.m, Rubric: v})
	}
	pairs, err := Plan(s, DefaultPlanOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(pairs) != 11 {
		t.Fatalf("%d pairs, want 11", len(pairs))
	}
	for _, ps := range pairs {
		vq := ps.VarQuestion
		t.Logf("%v>%v d=%.3f var_diff=%.3f var_q=%.3f var_e=%.3f power_pilot=%.2f n: pilot %v g1 %v g2 %v g3 %v %v",
			ps.ModelA, ps.ModelB, ps.D, ps.VarDiff, vq, ps.VarGrader, ps.PowerPilot,
			ps.QuestionsPilot, ps.QuestionsByGraders[0], ps.QuestionsByGraders[1], ps.QuestionsByGraders[2], ps.Note)
		if vq < 0 {
			t.Errorf("negative var_question %v", vq)
		}
		// Every response has the 3 experts, so the pilot's own design is
		// g = 3 and the decomposition must reproduce it.
		if ps.Graders != 3 {
			t.Errorf("graders_pilot = %v, want 3", ps.Graders)
		}
		if vq > 0 && ps.QuestionsPilot != ps.QuestionsByGraders[2] {
			t.Errorf("%v vs %v: pilot n %v != g3 n %v", ps.ModelA, ps.ModelB, ps.QuestionsPilot, ps.QuestionsByGraders[2])
		}
		prev := int64(math.MaxInt64)
		for k, n := range ps.QuestionsByGraders {
			if n == 0 {
				continue
			}
			if n > prev {
				t.Errorf("%v vs %v: n_questions_g%d = %d needs more questions than with fewer graders (%d)", ps.ModelA, ps.ModelB, k+1, n, prev)
			}
			prev = n
		}
	}
}
