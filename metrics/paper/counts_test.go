package paper_test

import (
	"testing"

	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/study"
)

// TestCountsOneDefinition: the overview, Table 3 (models) and the summary
// count models, people and gradings the same way, on a study with a human
// label graded in a second round, a judge with repeated runs and human
// gradings whose solved flag is undefined (every checklist item na). The
// expected counts come from the study's design (edgeStudy's comment) and
// from the raw gradings, counted here.
func TestCountsOneDefinition(t *testing.T) {
	s := edgeStudy()
	rep := analyzeAll(t, s)
	o := rep.Overview
	models := []string{"atlas-5", "borealis", "cirrus"}

	// Design: 40 questions; h1 and h2 grade the 3 models on every question
	// in the main round (80 each), and the 3 models plus the human label on
	// every fourth question in the reference round (20 each); j1 grades the
	// 3 models on every question (runs averaged: 40 each).
	want := report.Overview{Questions: 40, Models: 3, HumanLabel: "Human Expert", Domains: 1, HumanGraders: 2, Judges: 1,
		Gradings: 3*(80+20+40) + 20, HumanGradings: 3*(80+20) + 20, JudgeGradings: 3 * 40}
	checkInts(t, "overview", []string{"Questions", "Models", "Domains", "HumanGraders", "Judges", "Gradings", "HumanGradings", "JudgeGradings"},
		[]int{o.Questions, o.Models, o.Domains, o.HumanGraders, o.Judges, o.Gradings, o.HumanGradings, o.JudgeGradings},
		[]int{want.Questions, want.Models, want.Domains, want.HumanGraders, want.Judges, want.Gradings, want.HumanGradings, want.JudgeGradings})
	if o.HumanLabel != want.HumanLabel {
		t.Errorf("overview HumanLabel: got %q, want %q", o.HumanLabel, want.HumanLabel)
	}

	// Undefined solved flags, counted from the raw gradings: a human grading
	// of the main round whose every verdict is na.
	undefined := map[string]int{}
	for _, g := range s.Gradings {
		if g.Kind != study.Human || g.Round != "main" {
			continue
		}
		allNA := true
		for _, v := range g.Verdicts {
			allNA = allNA && v == study.NA
		}
		if allNA {
			undefined[g.Model]++
		}
	}
	if undefined["atlas-5"] == 0 {
		t.Fatal("edgeStudy lost its undefined grading of atlas-5")
	}

	tab3, sum := rep.Table("models"), rep.Table("summary")
	var nModels, total int
	for _, m := range append([]string{"Human Expert"}, models...) {
		if cell(t, tab3, "human_label", "model", m) == "no" {
			nModels++
		}
		total += int(num(t, cell(t, tab3, "gradings", "model", m)))
	}
	if nModels != o.Models || total != o.Gradings {
		t.Errorf("Table 3: %d models, %d gradings; overview %d, %d", nModels, total, o.Models, o.Gradings)
	}
	for _, m := range models {
		main := num(t, cell(t, tab3, "human_gradings", "model", m))
		checkInts(t, "Table 3 "+m, []string{"gradings", "human_gradings", "solve_gradings", "judge_gradings"},
			[]int{int(num(t, cell(t, tab3, "gradings", "model", m))), int(main),
				int(num(t, cell(t, tab3, "solve_gradings", "model", m))), int(num(t, cell(t, tab3, "judge_gradings", "model", m)))},
			[]int{80 + 20 + 40, 80, 80 - undefined[m], 40})
		// The summary counts the same gradings and divides by the defined ones.
		if n := num(t, cell(t, sum, "n_gradings", "set", "all", "graders", "humans", "model", m)); n != main {
			t.Errorf("%s: summary n_gradings %v, Table 3 human_gradings %v", m, n, main)
		}
		if n := num(t, cell(t, sum, "n_gradings", "set", "all", "graders", "judge:j1", "model", m)); n != 40 {
			t.Errorf("%s: summary judge n_gradings %v, want 40", m, n)
		}
	}
	// People: Table 1's Total evaluators is the overview's human graders.
	if n := num(t, cell(t, rep.Table("domains"), "evaluators", "domain", "Total")); int(n) != o.HumanGraders {
		t.Errorf("Table 1 Total evaluators %v, overview human graders %d", n, o.HumanGraders)
	}
}

// checkInts compares named counts.
func checkInts(t *testing.T, what string, names []string, got, want []int) {
	t.Helper()
	for i := range names {
		if got[i] != want[i] {
			t.Errorf("%s %s: got %d, want %d", what, names[i], got[i], want[i])
		}
	}
}
