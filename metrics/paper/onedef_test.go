package paper_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/euroexec/euroexec/metrics/calibration"
	"github.com/euroexec/euroexec/metrics/paper"
	"github.com/euroexec/euroexec/metrics/ranking"
	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/tables"
	"github.com/euroexec/euroexec/study"
)

// edgeStudy is a 40-question study with every edge of the scoring rules:
// one human grading of atlas-5 whose checklist items are all na (rubric
// passing), judge gradings whose every score and verdict was dropped, a
// judge with two runs, missing ranks and a second round. Scores come from
// a fixed LCG so the study is the same on every run.
func edgeStudy() *study.Study {
	s := &study.Study{Title: "edge", HumanLabel: "Human Expert", MainRound: "main",
		Attributes: []string{"A", "B", "C"}, ScaleMin: 1, ScaleMax: 5}
	models := []string{"Human Expert", "atlas-5", "borealis", "cirrus"}
	for _, m := range models {
		s.Models = append(s.Models, study.Model{Name: m, USDPer1kInput: math.NaN(), USDPer1kOutput: math.NaN()})
	}
	s.Evaluators = []study.Evaluator{{ID: "h1", Kind: study.Human}, {ID: "h2", Kind: study.Human}, {ID: "j1", Kind: study.Judge}}
	x := uint64(12345)
	next := func(n int) int {
		x = x*6364136223846793005 + 1442695040888963407
		return int((x >> 33) % uint64(n))
	}
	verdicts := []study.Verdict{study.Hit, study.Hit, study.Partial, study.Miss, study.NA}
	for q := 0; q < 40; q++ {
		qid := fmt.Sprintf("q%02d", q)
		s.Questions = append(s.Questions, study.Question{ID: qid, Domain: "D", GateScore: math.NaN(),
			Checklist: []string{"one", "two", "three"}})
		for _, m := range models {
			s.Responses = append(s.Responses, study.Response{QuestionID: qid, Model: m, Text: "answer " + qid + " " + m,
				CostUSD: math.NaN(), InputTokens: -1, OutputTokens: -1})
		}
	}
	add := func(round, ev, kind, run, qid, m string, rub []float64, v []study.Verdict, rank int) {
		s.Gradings = append(s.Gradings, study.Grading{Evaluator: ev, Kind: kind, Round: round, Run: run, QuestionID: qid,
			Model: m, Rubric: rub, Verdicts: v, Rank: rank})
	}
	for _, round := range []string{"main", "reference"} {
		for q := 0; q < 40; q++ {
			if round == "reference" && q%4 != 0 {
				continue
			}
			qid := fmt.Sprintf("q%02d", q)
			for _, ev := range []string{"h1", "h2"} {
				for mi, m := range models {
					if m == "Human Expert" && round == "main" {
						continue
					}
					rub := []float64{float64(1 + next(5)), float64(2 + next(4)), float64(2 + next(4))}
					v := []study.Verdict{verdicts[next(5)], verdicts[next(5)], verdicts[next(5)]}
					if round == "main" && ev == "h1" && m == "atlas-5" && q == 7 {
						rub = []float64{4, 4, 4}
						v = []study.Verdict{study.NA, study.NA, study.NA}
					}
					rank := mi
					if m == "Human Expert" || (ev == "h2" && q%5 == 3) {
						rank = 0 // missing ranks
					}
					add(round, ev, study.Human, "", qid, m, rub, v, rank)
				}
			}
			if round != "main" {
				continue
			}
			for mi, m := range models[1:] {
				runs := []string{""}
				if q%3 == 0 {
					runs = []string{"1", "2"}
				}
				for _, run := range runs {
					rub := []float64{float64(1+next(5)) + 0.5*float64(next(2)), float64(2 + next(4)), float64(2 + next(4))}
					v := []study.Verdict{verdicts[next(5)], verdicts[next(5)], verdicts[next(5)]}
					if q%8 == 5 && mi == 0 {
						// every score and verdict dropped (off the scale): no usable score
						rub = []float64{math.NaN(), math.NaN(), math.NaN()}
						v = []study.Verdict{study.VerdictNone, study.VerdictNone, study.VerdictNone}
					}
					add("main", "j1", study.Judge, run, qid, m, rub, v, mi+1)
				}
			}
		}
	}
	sortGradings(s.Gradings)
	return s
}

func sortGradings(gs []study.Grading) {
	less := func(a, b *study.Grading) bool {
		if a.Round != b.Round {
			return a.Round < b.Round
		}
		if a.QuestionID != b.QuestionID {
			return a.QuestionID < b.QuestionID
		}
		if a.Model != b.Model {
			return a.Model < b.Model
		}
		if a.Evaluator != b.Evaluator {
			return a.Evaluator < b.Evaluator
		}
		return a.Run < b.Run
	}
	for i := 1; i < len(gs); i++ {
		for j := i; j > 0 && less(&gs[j], &gs[j-1]); j-- {
			gs[j], gs[j-1] = gs[j-1], gs[j]
		}
	}
}

// cell returns the value of column col in the row of t whose key columns
// hold the given values; it fails the test when there is none.
func cell(t *testing.T, tab *report.Table, col string, key ...string) any {
	t.Helper()
	if tab == nil {
		t.Fatalf("table missing")
	}
	idx := func(name string) int {
		for i, c := range tab.Columns {
			if c.Name == name {
				return i
			}
		}
		t.Fatalf("%s: no column %q", tab.Name, name)
		return -1
	}
	c := idx(col)
rows:
	for _, r := range tab.Rows {
		for k := 0; k+1 < len(key); k += 2 {
			if fmt.Sprint(r[idx(key[k])]) != key[k+1] {
				continue rows
			}
		}
		return r[c]
	}
	t.Fatalf("%s: no row %v", tab.Name, key)
	return nil
}

func num(t *testing.T, v any) float64 {
	t.Helper()
	switch x := v.(type) {
	case float64:
		return x
	case int64:
		return float64(x)
	case int:
		return float64(x)
	}
	t.Fatalf("%v (%T) is not a number", v, v)
	return 0
}

// sameBits fails unless got and want are the same float64, bit for bit
// (NaN equals NaN).
func sameBits(t *testing.T, what string, got, want float64) {
	t.Helper()
	if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
		t.Errorf("%s: got %v, want %v (bit for bit)", what, got, want)
	}
}

func analyzeAll(t *testing.T, s *study.Study) *report.Report {
	t.Helper()
	opt := paper.DefaultOptions()
	opt.Bootstrap = 50
	ctx := context.Background()
	res, err := paper.AnalyzeResult(ctx, s, opt)
	if err != nil {
		t.Fatal(err)
	}
	rep := tables.Paper(res)
	ko := ranking.DefaultOptions()
	ko.Bootstrap = 50
	kr, err := ranking.Analyze(ctx, s, ko)
	if err != nil {
		t.Fatal(err)
	}
	rep.Add(tables.Ranking(kr))
	co := calibration.DefaultOptions()
	co.Bootstrap = 50
	cr, err := calibration.Analyze(ctx, s, co)
	if err != nil {
		t.Fatal(err)
	}
	rep.Add(tables.Calibration(cr))
	return rep
}

// TestSolveRateOneDefinition: the grading with an all-na checklist has an
// undefined solved flag, left out of every Solve Rate; summary.csv and
// rankings.csv report the same Solve Rate (and rubric mean) for each model.
// The expected atlas-5 Solve Rate is counted here from the gradings.
func TestSolveRateOneDefinition(t *testing.T) {
	s := edgeStudy()
	rep := analyzeAll(t, s)
	sum, rk := rep.Table("summary"), rep.Table(ranking.RankingsTable)
	// Independent count for atlas-5: human gradings of the main round.
	solved, defined := 0, 0
	for _, g := range s.Gradings {
		if g.Round != "main" || g.Kind != study.Human || g.Model != "atlas-5" {
			continue
		}
		var rs float64
		for _, v := range g.Rubric {
			rs += v
		}
		var h, p, n int
		for _, v := range g.Verdicts {
			switch v {
			case study.Hit:
				h, n = h+1, n+1
			case study.Partial:
				p, n = p+1, n+1
			case study.Miss:
				n++
			}
		}
		if n == 0 {
			continue // undefined
		}
		defined++
		// rubric mean ≥ 3 ⇔ sum ≥ 9; rate ≥ 0.6 ⇔ 2h + p ≥ 1.2 n ⇔ 10h + 5p ≥ 6n
		if rs >= 9 && 10*h+5*p >= 6*n {
			solved++
		}
	}
	want := float64(solved) / float64(defined)
	sameBits(t, "summary atlas-5 solve_rate", num(t, cell(t, sum, "solve_rate", "set", "all", "graders", "humans", "model", "atlas-5")), want)
	for _, m := range []string{"atlas-5", "borealis", "cirrus"} {
		sameBits(t, m+" rankings vs summary solve_rate",
			num(t, cell(t, rk, "solve_rate", "model", m)),
			num(t, cell(t, sum, "solve_rate", "set", "all", "graders", "humans", "model", m)))
		sameBits(t, m+" rankings vs summary rubric",
			num(t, cell(t, rk, "rubric", "model", m)),
			num(t, cell(t, sum, "rubric", "set", "all", "graders", "humans", "model", m)))
	}
}

// TestJudgeHumanPairing: a judge grading whose every score was dropped is
// not a grading, so judge_vs_human.csv and judge_calibration.csv pair the
// judge and the humans on the same questions. j1's gradings of atlas-5 on
// 5 of the 40 questions have no usable score: 35 remain.
func TestJudgeHumanPairing(t *testing.T) {
	s := edgeStudy()
	rep := analyzeAll(t, s)
	// independent count: questions where j1 has a usable score for the model
	// and a human graded it
	want := map[string]int64{}
	for _, m := range []string{"atlas-5", "borealis", "cirrus"} {
		usable := map[string]bool{}
		for _, g := range s.Gradings {
			if g.Evaluator != "j1" || g.Model != m {
				continue
			}
			for _, v := range g.Rubric {
				if !math.IsNaN(v) {
					usable[g.QuestionID] = true
				}
			}
		}
		want[m] = int64(len(usable))
	}
	if want["atlas-5"] != 35 {
		t.Fatalf("edge study: j1 has usable gradings of atlas-5 on %d questions, want 35", want["atlas-5"])
	}
	jh, cal := rep.Table("judge_vs_human"), rep.Table(calibration.TableCalibration)
	for m, n := range want {
		if got := num(t, cell(t, jh, "n_questions", "judge", "judge:j1", "model", m)); got != float64(n) {
			t.Errorf("judge_vs_human j1/%s: n_questions %v, want %d", m, got, n)
		}
		if got := num(t, cell(t, cal, "n_questions", "judge", "j1", "model", m, "metric", "rubric")); got != float64(n) {
			t.Errorf("judge_calibration j1/%s: n_questions %v, want %d", m, got, n)
		}
	}
}

// TestCrossTableConsistency: on the edge study (all-na checklists, judge
// gradings with every score dropped, a judge with two runs, missing ranks,
// two rounds), every table that reports the same quantity for the same
// population reports the same value, bit for bit.
func TestCrossTableConsistency(t *testing.T) {
	s := edgeStudy()
	rep := analyzeAll(t, s)
	sum, rk, ro := rep.Table("summary"), rep.Table(ranking.RankingsTable), rep.Table("rubric_overall")
	jh, cal := rep.Table("judge_vs_human"), rep.Table(calibration.TableCalibration)
	hum := func(col, m string) float64 {
		return num(t, cell(t, sum, col, "set", "all", "graders", "humans", "model", m))
	}
	jud := func(col, m string) float64 {
		return num(t, cell(t, sum, col, "set", "all", "graders", "judge:j1", "model", m))
	}
	for _, m := range []string{"atlas-5", "borealis", "cirrus"} {
		// humans, main round, all questions: summary = rankings = rubric_overall
		sameBits(t, m+": rankings n_gradings", num(t, cell(t, rk, "n_gradings", "model", m)), hum("n_gradings", m))
		sameBits(t, m+": rankings solve_rate", num(t, cell(t, rk, "solve_rate", "model", m)), hum("solve_rate", m))
		sameBits(t, m+": rankings rubric", num(t, cell(t, rk, "rubric", "model", m)), hum("rubric", m))
		sameBits(t, m+": rubric_overall mean", num(t, cell(t, ro, "mean", "scope", "overall", "model", m)), hum("rubric", m))
		// judge j1, all its usable gradings (every question was graded by
		// humans): summary's judge row = judge_vs_human's judge side =
		// judge_calibration's raw judge Solve Rate
		sameBits(t, m+": judge_vs_human judge_rubric", num(t, cell(t, jh, "judge_rubric", "judge", "judge:j1", "model", m)), jud("rubric", m))
		sameBits(t, m+": judge_vs_human judge_checklist_rate", num(t, cell(t, jh, "judge_checklist_rate", "judge", "judge:j1", "model", m)), jud("checklist_rate", m))
		sameBits(t, m+": judge_vs_human judge_solve_rate", num(t, cell(t, jh, "judge_solve_rate", "judge", "judge:j1", "model", m)), jud("solve_rate", m))
		sameBits(t, m+": judge_calibration judge_raw solve_rate", num(t, cell(t, cal, "judge_raw", "judge", "j1", "model", m, "metric", "solve_rate")), jud("solve_rate", m))
	}
	// j1 graded borealis and cirrus usably on every question, so the human
	// side of judge_vs_human is the whole human population there.
	for _, m := range []string{"borealis", "cirrus"} {
		sameBits(t, m+": judge_vs_human human_rubric", num(t, cell(t, jh, "human_rubric", "judge", "judge:j1", "model", m)), hum("rubric", m))
		sameBits(t, m+": judge_vs_human human_checklist_rate", num(t, cell(t, jh, "human_checklist_rate", "judge", "judge:j1", "model", m)), hum("checklist_rate", m))
		sameBits(t, m+": judge_vs_human human_solve_rate", num(t, cell(t, jh, "human_solve_rate", "judge", "judge:j1", "model", m)), hum("solve_rate", m))
	}
}
