package tables

import (
	"context"
	"fmt"
	"testing"

	"github.com/euroexec/euroexec/internal/tabletest"
	"github.com/euroexec/euroexec/metrics/pairwise"
	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/study"
)

// pairwiseAddCI adds name, name_lo and name_hi of e to m.
func pairwiseAddCI(m map[string]any, name string, e pairwise.Estimate) map[string]any {
	m[name], m[name+"_lo"], m[name+"_hi"] = e.Value, e.Lo, e.Hi
	return m
}

// pairwiseRankCell is a rank cell: empty when 0 (undefined).
func pairwiseRankCell(v int64) any {
	if v == 0 {
		return nil
	}
	return v
}

// pairwisePartStudy: three models, 24 questions; two humans and a judge each judge
// every pair of every question, the judge in both orders; responses have
// texts of different lengths and a human rubric grade.
func pairwisePartStudy() *study.Study {
	s := &study.Study{MainRound: "main", Attributes: []string{"Overall"}}
	models := []string{"alpha", "beta", "gamma"}
	prefs := []study.Preference{study.PreferA, study.PreferB, study.Tie, study.PreferA, study.PreferA}
	k := 0
	for q := 0; q < 24; q++ {
		qid := fmt.Sprintf("q%02d", q)
		for m, name := range models {
			s.Responses = append(s.Responses, study.Response{QuestionID: qid, Model: name, Text: "x", Chars: 100 + 80*m + 7*q})
			s.Gradings = append(s.Gradings, study.Grading{Evaluator: "h1", Kind: study.Human, Round: "main", QuestionID: qid, Model: name,
				Rubric: []float64{float64(1 + (q+2*m)%5)}})
		}
		for a := 0; a < 3; a++ {
			for b := a + 1; b < 3; b++ {
				for _, ev := range []string{"h1", "h2", "judge"} {
					kind := study.Human
					if ev == "judge" {
						kind = study.Judge
					}
					k++
					s.Comparisons = append(s.Comparisons, study.Comparison{Evaluator: ev, Kind: kind, Round: "main", QuestionID: qid,
						ModelA: models[a], ModelB: models[b], Winner: prefs[(k+q)%len(prefs)]})
					if ev == "judge" {
						s.Comparisons = append(s.Comparisons, study.Comparison{Evaluator: ev, Kind: kind, Round: "main", QuestionID: qid,
							ModelA: models[b], ModelB: models[a], Winner: prefs[(k+q+1)%len(prefs)]})
					}
				}
			}
		}
	}
	return s
}

// TestPairwiseFromTyped: every cell of the pairwise tables, read by column
// name, is the typed value of the Result; the figures show the same values.
func TestPairwiseFromTyped(t *testing.T) {
	opt := pairwise.DefaultOptions()
	opt.Bootstrap, opt.MinOverlap = 60, 1
	res, err := pairwise.Analyze(context.Background(), pairwisePartStudy(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Populations) != 2 || len(res.Agreement) == 0 {
		t.Fatalf("populations %d, agreement rows %d; want 2 and some", len(res.Populations), len(res.Agreement))
	}
	p := Pairwise(res)
	tabs := map[string]*report.Table{}
	var names []string
	for _, tb := range p.Tables {
		tabs[tb.Name] = tb
		names = append(names, tb.Name)
	}
	if fmt.Sprint(names) != fmt.Sprint([]string{pairwise.ModelsTable, pairwise.MatrixTable, pairwise.AgreementTable, pairwise.PositionTable, pairwise.LengthTable, pairwise.RubricTable, pairwise.JudgeAuditTable}) {
		t.Fatalf("tables %v", names)
	}
	next := map[string]int{}
	row := func(name string) []any {
		tb := tabs[name]
		i := next[name]
		next[name]++
		if i >= len(tb.Rows) {
			t.Fatalf("%s: fewer rows than typed values", name)
		}
		return tb.Rows[i]
	}
	withLen, withRub, ranked := 0, 0, 0
	for pi, pop := range res.Populations {
		bt := p.Figures[0].Series[pi]
		for _, m := range pop.Models {
			w := map[string]any{"graders": pop.Name, "model": m.Model, "n": m.N, "wins": m.Wins, "losses": m.Losses, "ties": m.Ties,
				"rank": pairwiseRankCell(m.Rank), "rank_lo": pairwiseRankCell(m.RankLo), "rank_hi": pairwiseRankCell(m.RankHi)}
			pairwiseAddCI(pairwiseAddCI(pairwiseAddCI(pairwiseAddCI(w, "win_rate", m.WinRate), "bt_rating", m.Rating), "lc_win_rate", m.LCWinRate), "sc_bt_rating", m.SCRating)
			tabletest.CheckCells(t, tabs[pairwise.ModelsTable], row(pairwise.ModelsTable), w)
			if x := m.WinRateExact(); x.Float64() != m.WinRate.Value {
				t.Errorf("%s %s: win rate %v, exact %d/%d", pop.Name, m.Model, m.WinRate.Value, x.Num, x.Den)
			}
			if m.RankLo > 0 {
				ranked++
			}
			for g, name := range res.Models {
				if name == m.Model && (!tabletest.SameCell(bt.Values[g], m.Rating.Value) || !tabletest.SameCell(bt.Lo[g], m.Rating.Lo)) {
					t.Errorf("rating bar %s %s = %v, want %v", pop.Name, name, bt.Values[g], m.Rating.Value)
				}
			}
		}
		heat := p.Figures[1+pi]
		for ci, c := range pop.Matrix {
			tabletest.CheckCells(t, tabs[pairwise.MatrixTable], row(pairwise.MatrixTable), pairwiseAddCI(map[string]any{"graders": pop.Name, "model_a": c.ModelA, "model_b": c.ModelB,
				"n": c.N, "wins_a": c.WinsA, "ties": c.Ties, "wins_b": c.WinsB}, "win_rate_a", c.WinRateA))
			if x := c.WinRateExact(); x.Float64() != c.WinRateA.Value {
				t.Errorf("%s %s–%s: win rate %v, exact %d/%d", pop.Name, c.ModelA, c.ModelB, c.WinRateA.Value, x.Num, x.Den)
			}
			cell := heat.Series[0].Cells[ci]
			if heat.Categories[cell.X] != c.ModelB || heat.YCategories[cell.Y] != c.ModelA || cell.Value != c.WinRateA.Value {
				t.Errorf("heat cell %v, want %s vs %s %v", cell, c.ModelA, c.ModelB, c.WinRateA.Value)
			}
		}
		ps := pop.Position
		w := map[string]any{"graders": pop.Name, "n": ps.N, "first_wins": ps.FirstWins, "p_value": ps.PValue, "n_swapped": ps.Swapped, "n_position_unknown": ps.Unknown}
		pairwiseAddCI(pairwiseAddCI(pairwiseAddCI(w, "first_share", ps.FirstShare), "swap_consistency", ps.SwapConsistency), "conflict_rate", ps.ConflictRate)
		tabletest.CheckCells(t, tabs[pairwise.PositionTable], row(pairwise.PositionTable), w)
		if pop.HasLength {
			withLen++
			lb := pop.Length
			w := pairwiseAddCI(map[string]any{"graders": pop.Name, "n": lb.N, "longer_wins": lb.LongerWins,
				"p_value": lb.PValue, "n_model": pop.Model.N, "questions": int64(pop.Model.Questions)}, "longer_share", lb.LongerShare)
			if !pop.HasModel {
				t.Errorf("%s: a length row without the length model", pop.Name)
			}
			for _, e := range pop.Model.Effects {
				pairwiseAddCI(w, e.Name+"_logit", e.Estimate)
				w[e.Name+"_p"] = e.PValue
			}
			tabletest.CheckCells(t, tabs[pairwise.LengthTable], row(pairwise.LengthTable), w)
		}
		if pop.HasRubric {
			withRub++
			ra := pop.Rubric
			tabletest.CheckCells(t, tabs[pairwise.RubricTable], row(pairwise.RubricTable), pairwiseAddCI(map[string]any{"graders": pop.Name, "n": ra.N, "agree": ra.Agree}, "agreement", ra.Agreement))
		}
	}
	for _, j := range res.Judges {
		w := map[string]any{"judge": j.Judge, "n": j.N, "position_p": j.PositionP, "length_p": j.LengthP, "n_self": j.SelfN, "self_p": j.SelfP, "n_humans": j.KappaN}
		pairwiseAddCI(pairwiseAddCI(pairwiseAddCI(pairwiseAddCI(pairwiseAddCI(w, "first_share", j.FirstShare), "length_logit", j.Length), "self_preference", j.SelfPreference), "agreement_humans", j.Agreement), "kappa_humans", j.Kappa)
		tabletest.CheckCells(t, tabs[pairwise.JudgeAuditTable], row(pairwise.JudgeAuditTable), w)
	}
	for _, a := range res.Agreement {
		w := map[string]any{"grader_a": a.GraderA, "grader_b": a.GraderB, "n": a.N}
		pairwiseAddCI(pairwiseAddCI(pairwiseAddCI(pairwiseAddCI(pairwiseAddCI(w, "agreement", a.Agreement), "kappa", a.Kappa), "macro_f1", a.MacroF1), "precision_macro", a.Precision), "recall_macro", a.Recall)
		tabletest.CheckCells(t, tabs[pairwise.AgreementTable], row(pairwise.AgreementTable), w)
	}
	for name, tb := range tabs {
		if next[name] != len(tb.Rows) {
			t.Errorf("%s: %d rows, %d typed values", name, len(tb.Rows), next[name])
		}
	}
	if withLen == 0 || withRub == 0 || ranked == 0 {
		t.Errorf("length rows %d, rubric rows %d, rank intervals %d: a part of the check proves nothing", withLen, withRub, ranked)
	}
	if q := Pairwise(pairwise.Result{}); len(q.Tables) != 0 || len(q.Figures) != 0 {
		t.Error("no populations: tables made")
	}
}
