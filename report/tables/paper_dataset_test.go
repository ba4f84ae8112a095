package tables

import (
	"math"
	"testing"

	"github.com/euroexec/euroexec/metrics/paper"
)

// TestPaperDatasetFromTyped: each dataset table holds its typed rows cell
// by cell (Table 1 ends with the Total row, Table 3 says yes/no for the
// human label); Figure 1 has one series per model with one value per
// difficulty; without a gate the two gate tables are absent.
func TestPaperDatasetFromTyped(t *testing.T) {
	nan := math.NaN()
	d := paper.Dataset{
		Domains:    []paper.DomainRow{{Domain: "D1", Experts: 2, Authors: 1, Evaluators: 2, Questions: 2}},
		Total:      paper.DomainRow{Domain: "Total", Experts: 3, Authors: 1, Evaluators: 3, Questions: 3},
		Difficulty: []paper.DifficultyRow{{Difficulty: "Hard", GateFrom: 0, GateTo: 0.3, Questions: 1}, {Difficulty: "Custom", GateFrom: nan, GateTo: nan, Questions: 2}},
		Models: []paper.ModelRow{{Model: "HE", HumanLabel: true, USDPer1kInput: nan, USDPer1kOutput: nan},
			{Model: "M1", DisplayName: "Model 1", Provider: "p", USDPer1kInput: 0.5, USDPer1kOutput: 1, Responses: 3, Gradings: 7, HumanGradings: 4, SolveGradings: 3, JudgeGradings: 3}},
		GateItems:     []paper.GateItemRow{{QuestionID: "q1", Item: 1, Runs: 3, Passed: 2, Fulfilment: 2.0 / 3}, {QuestionID: "q1", Item: 2, Runs: 3, Passed: 2, Fulfilment: 2.0 / 3}},
		GateQuestions: []paper.GateQuestionRow{{QuestionID: "q1", Cells: 6, Passed: 4, Score: 2.0 / 3, Difficulty: "Hard"}},
		Descriptives:  []paper.DescriptiveRow{{Measure: "prompt_chars", Group: "all", N: 1, Mean: 5, SD: nan, Median: 5, Min: 5, Max: 5}},
		SolveByDifficulty: []paper.DifficultySolveRow{
			{Difficulty: "Hard", Model: "M1", N: 2, SolveRate: 0.5, Lo: 0, Hi: 1}, {Difficulty: "Custom", Model: "M1", N: 1, SolveRate: 1, Lo: nan, Hi: nan},
			{Difficulty: "Hard", Model: "M2", N: 2, SolveRate: 0, Lo: 0, Hi: 0}, {Difficulty: "Custom", Model: "M2", N: 0, SolveRate: nan, Lo: nan, Hi: nan}},
		Difficulties: []string{"Hard", "Custom"},
	}
	p := paperDataset(d)
	var names []string
	for _, tb := range p.Tables {
		names = append(names, tb.Name)
	}
	want := []string{"domains", "difficulty", "models", "gate_items", "gate_questions", "descriptives", "solve_rate_by_difficulty"}
	if len(names) != len(want) {
		t.Fatalf("tables %v, want %v", names, want)
	}
	for i := range want {
		if names[i] != want[i] {
			t.Fatalf("tables %v, want %v", names, want)
		}
	}
	dom := p.Tables[0]
	if len(dom.Rows) != 2 {
		t.Fatalf("domains rows %v", dom.Rows)
	}
	checkCell(t, dom, dom.Rows[1], "domain", "Total")
	checkCell(t, dom, dom.Rows[1], "experts", int64(3))
	diff := p.Tables[1]
	checkCell(t, diff, diff.Rows[1], "gate_from", nan)
	checkCell(t, diff, diff.Rows[0], "gate_to", 0.3)
	mod := p.Tables[2]
	checkCell(t, mod, mod.Rows[0], "human_label", "yes")
	checkCell(t, mod, mod.Rows[1], "human_label", "no")
	checkCell(t, mod, mod.Rows[1], "display_name", "Model 1")
	checkCell(t, mod, mod.Rows[1], "solve_gradings", int64(3))
	checkCell(t, mod, mod.Rows[1], "usd_per_1k_output", 1.0)
	gi := p.Tables[3]
	checkCell(t, gi, gi.Rows[1], "item", int64(2))
	checkCell(t, gi, gi.Rows[1], "fulfilment", 2.0/3)
	gq := p.Tables[4]
	checkCell(t, gq, gq.Rows[0], "gate_score", 2.0/3)
	checkCell(t, gq, gq.Rows[0], "difficulty", "Hard")
	ds := p.Tables[5]
	checkCell(t, ds, ds.Rows[0], "sd", nan)
	checkCell(t, ds, ds.Rows[0], "median", 5.0)
	sb := p.Tables[6]
	checkCell(t, sb, sb.Rows[3], "model", "M2")
	checkCell(t, sb, sb.Rows[3], "n_gradings", int64(0))
	f := p.Figures[0]
	if len(f.Series) != 2 || f.Series[1].Name != "M2" || len(f.Series[1].Values) != 2 || f.Series[0].Values[1] != 1 || f.Series[0].N[0] != 2 {
		t.Errorf("Figure 1 series %+v: want M1 (0.5, 1) and M2 with 2 values each", f.Series)
	}

	d.GateItems, d.GateQuestions = nil, nil
	for _, tb := range paperDataset(d).Tables {
		if tb.Name == "gate_items" || tb.Name == "gate_questions" {
			t.Errorf("table %s without a gate", tb.Name)
		}
	}
}
