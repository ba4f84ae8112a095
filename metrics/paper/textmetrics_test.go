package paper

import (
	"math"
	"testing"

	"github.com/euroexec/euroexec/study"
)

// textStudy: one question with an expert reference, three models graded
// by one human, the human label's own answer graded too.
func textStudy(t *testing.T) *study.Study {
	qs := []study.Question{{ID: "q1", Domain: "D", GateScore: math.NaN()}}
	lines := []string{
		"e1 . q1 HE 5,5 . 1", "e1 . q1 M1 5,5 . 2", "e1 . q1 M2 3,3 . 3", "e1 . q1 M3 1,1 . 4",
	}
	s := buildStudy(t, []string{"A", "B"}, qs, []string{"HE", "M1", "M2", "M3"}, lines)
	ref := "the cat sat on the mat"
	s.References = []study.Reference{{QuestionID: "q1", ID: "r1", Author: "a", Text: ref, Graded: true}}
	s.Responses = []study.Response{
		{QuestionID: "q1", Model: "HE", Text: ref, CostUSD: math.NaN(), InputTokens: -1, OutputTokens: -1},
		{QuestionID: "q1", Model: "M1", Text: ref, CostUSD: math.NaN(), InputTokens: -1, OutputTokens: -1},
		{QuestionID: "q1", Model: "M2", Text: "the cat", CostUSD: math.NaN(), InputTokens: -1, OutputTokens: -1},
		{QuestionID: "q1", Model: "M3", Text: "dog", CostUSD: math.NaN(), InputTokens: -1, OutputTokens: -1},
	}
	return s
}

func TestTextMetrics(t *testing.T) {
	r := analyze(t, textStudy(t), nil)
	// The human label is left out of the table.
	if n := len(r.Table("text_metrics").Rows); n != 3 {
		t.Fatalf("text_metrics has %d rows, want 3 (HE left out)", n)
	}
	// M1 = the reference: every F1 is 1 and BLEU 100.
	m1 := rowWhere(t, r, "text_metrics", "model", "M1")
	for _, c := range []string{"rouge1_f1", "rouge2_f1", "rougeL_f1", "rougeLsum_f1", "rougeLsum_f1_nostem"} {
		checkFloat(t, "M1 "+c, m1[c], 1)
	}
	checkFloat(t, "M1 bleu", m1["bleu"], 100)
	// M2 "the cat" against "the cat sat on the mat": ROUGE-1 P 2/2, R 2/6 →
	// F1 1/2; ROUGE-2 P 1/1, R 1/5 → F1 1/3; LCS 2 → ROUGE-L F1 1/2.
	m2 := rowWhere(t, r, "text_metrics", "model", "M2")
	checkFloat(t, "M2 rouge1", m2["rouge1_f1"], 0.5)
	checkFloat(t, "M2 rouge2", m2["rouge2_f1"], 1.0/3)
	checkFloat(t, "M2 rougeL", m2["rougeL_f1"], 0.5)
	checkFloat(t, "M2 rougeLsum", m2["rougeLsum_f1"], 0.5)
	checkFloat(t, "M2 human rubric", m2["human_rubric"], 3)
	// M3 "dog": nothing in common.
	m3 := rowWhere(t, r, "text_metrics", "model", "M3")
	checkFloat(t, "M3 rougeLsum", m3["rougeLsum_f1"], 0)
	checkFloat(t, "M3 bleu", m3["bleu"], 0)
	// Table 7: ROUGE-Lsum (1, 1/2, 0) against the rubric (5, 3, 1) on the
	// one question: exactly linear → r = 1, τ = 1 at item, pooled and model level.
	for _, lvl := range []string{"item", "pooled", "model"} {
		row := rowWhere(t, r, "table7_correlations", "metric", "rougeLsum_f1", "level", lvl)
		checkFloat(t, lvl+" r", row["pearson_r"], 1)
		checkFloat(t, lvl+" tau", row["kendall_tau"], 1)
	}
	checkInt(t, "item n", rowWhere(t, r, "table7_correlations", "metric", "rougeLsum_f1", "level", "item")["pearson_n"], 1)
	t7 := rowWhere(t, r, "table7", "model", "M2")
	checkExact(t, "table7 rubric", t7["rubric"], 3)
	checkFloat(t, "table7 rouge", t7["rougeLsum_f1"], 0.5)
}

func TestCostAndLength(t *testing.T) {
	s := textStudy(t)
	// Costs: M1 cost_usd 2; M2 from tokens: 1000 in × 0.5 + 2000 out × 1.0
	// per 1k → 0.5 + 2 = 2.5; M3 unknown → left out of the fit and noted.
	s.Responses[1].CostUSD = 2
	s.Responses[2].InputTokens, s.Responses[2].OutputTokens = 1000, 2000
	for i := range s.Models {
		if s.Models[i].Name == "M2" {
			s.Models[i].USDPer1kInput, s.Models[i].USDPer1kOutput = 0.5, 1.0
		}
	}
	for i := range s.Responses {
		s.Responses[i].Chars = 10 * (i + 1)
		s.Responses[i].Words = i + 1
	}
	res := analyzeRes(t, s, nil)
	c := res.Cost
	cost := map[string]CostRow{}
	for _, w := range c.Solve {
		cost[w.Model] = w
	}
	checkFloat(t, "M1 cost", cost["M1"].TotalUSD, 2)
	checkFloat(t, "M2 cost", cost["M2"].TotalUSD, 2.5)
	checkFloat(t, "M3 cost", cost["M3"].TotalUSD, math.NaN())
	checkFloat(t, "M3 known cost", cost["M3"].KnownUSD, 0)
	checkInt(t, "M3 responses with cost", cost["M3"].WithCost, 0)
	checkFloat(t, "M3 fit", cost["M3"].FitSolveRate, math.NaN())
	// Two models in the fit: the line passes through both.
	checkFloat(t, "M1 fit", cost["M1"].FitSolveRate, cost["M1"].SolveRate)
	checkFloat(t, "M2 fit", cost["M2"].FitSolveRate, cost["M2"].SolveRate)
	if c.Fit == nil || c.Fit.X1 != 2 || c.Fit.X2 != 2.5 {
		t.Errorf("fit line %+v, want from cost 2 to 2.5", c.Fit)
	}
	if !hasNote(PresentForTest(res), "cost_vs_solve", "model M3 left out of the fit") {
		t.Errorf("no note for M3's missing cost: %v", res.Notes)
	}
	// Lengths (chars) 20, 30, 40 for M1, M2, M3 against rubric 5, 3, 1:
	// exactly linear with negative slope → r = −1.
	found := false
	for _, w := range c.LengthCorrelations {
		if w.Length == "chars" && w.Score == "rubric" {
			found = true
			checkFloat(t, "length r", w.R, -1)
			checkInt(t, "length n", w.N, 3)
		}
	}
	if !found {
		t.Errorf("no chars/rubric row in %+v", c.LengthCorrelations)
	}
	for _, w := range c.Length {
		if w.Model == "M2" {
			checkFloat(t, "M2 mean chars", w.MeanChars, 30)
			checkFloat(t, "M2 mean words", w.MeanWords, 3)
		}
	}
}
