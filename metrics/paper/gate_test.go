package paper

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"sort"
	"testing"

	"github.com/euroexec/euroexec/study"
)

// gateStudy is a small study whose gate is given by runs (unsorted on
// purpose): the gradings only make Analyze run.
func gateStudy(t *testing.T, qs []study.Question, runs []study.GateRun) *study.Study {
	t.Helper()
	s := buildStudy(t, []string{"A"}, qs, []string{"HE", "M1"}, []string{
		"e1 . q1 HE 5 . 1", "e1 . q1 M1 3 . 2",
	})
	s.GateRuns = runs
	return s
}

// gateRows returns the typed rows of table name as cells (nil when absent).
func gateRows(r *Result, name string) [][]any {
	var out [][]any
	d := r.Dataset
	switch name {
	case "gate_items":
		for _, g := range d.GateItems {
			out = append(out, []any{g.QuestionID, g.Item, g.Runs, g.Passed, g.Fulfilment})
		}
	case "gate_questions":
		for _, g := range d.GateQuestions {
			out = append(out, []any{g.QuestionID, g.Cells, g.Passed, g.Score, g.Difficulty})
		}
	case "difficulty":
		for _, g := range d.Difficulty {
			out = append(out, []any{g.Difficulty, g.GateFrom, g.GateTo, g.Questions})
		}
	}
	return out
}

// checkRows compares table rows cell by cell (floats by bits, NaN equal).
func checkRows(t *testing.T, what string, got, want [][]any) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d rows, want %d\ngot  %v\nwant %v", what, len(got), len(want), got, want)
	}
	for i := range want {
		if len(got[i]) != len(want[i]) {
			t.Fatalf("%s row %d: got %v, want %v", what, i, got[i], want[i])
		}
		for c := range want[i] {
			g, w := got[i][c], want[i][c]
			if gf, ok := g.(float64); ok {
				if wf, ok := w.(float64); ok && (math.Float64bits(gf) == math.Float64bits(wf) || math.IsNaN(gf) && math.IsNaN(wf)) {
					continue
				}
			}
			if g != w {
				t.Errorf("%s row %d column %d: got %#v, want %#v (row %v)", what, i, c, g, w, got[i])
			}
		}
	}
}

// Hand-computed gate: per-item tallies over runs in byte order of question
// id and numeric order of item (2 before 10, "Q0" before "q1"); a question
// not in the study is listed per item but has no gate score; the score is
// passed cells / all cells, binned exactly (q1: 3/6 = 0.5 is Medium, upper
// bounds inclusive).
func TestGateTablesHand(t *testing.T) {
	qs := []study.Question{
		{ID: "Q0", Domain: "D", GateScore: math.NaN()},
		{ID: "q1", Domain: "D", GateScore: math.NaN()},
		{ID: "q2", Domain: "D", GateScore: math.NaN(), Difficulty: "Custom"},
	}
	runs := []study.GateRun{
		gr("q1", "r3", 2, false), gr("q1", "r1", 1, true), gr("zz", "1", 1, true),
		gr("q1", "r1", 2, false), gr("Q0", "a", 10, false), gr("q1", "r2", 1, true),
		gr("q2", "x", 1, false), gr("q1", "r2", 2, true), gr("Q0", "a", 2, true),
		gr("q1", "r3", 1, false), gr("Q0", "b", 2, true),
	}
	r := analyzeRes(t, gateStudy(t, qs, runs), nil)
	checkRows(t, "gate_items", gateRows(r, "gate_items"), [][]any{
		{"Q0", int64(2), int64(2), int64(2), 1.0},
		{"Q0", int64(10), int64(1), int64(0), 0.0},
		{"q1", int64(1), int64(3), int64(2), 2.0 / 3},
		{"q1", int64(2), int64(3), int64(1), 1.0 / 3},
		{"q2", int64(1), int64(1), int64(0), 0.0},
		{"zz", int64(1), int64(1), int64(1), 1.0},
	})
	checkRows(t, "gate_questions", gateRows(r, "gate_questions"), [][]any{
		{"Q0", int64(3), int64(2), 2.0 / 3, "Above gate"},
		{"q1", int64(6), int64(3), 0.5, "Medium"},
		{"q2", int64(1), int64(0), 0.0, "Custom"},
	})
	// the same gate given as tallies (what package transform reads)
	s := gateStudy(t, qs, nil)
	s.GateItems = []study.GateItem{
		{QuestionID: "Q0", Item: 2, Runs: 2, Passed: 2}, {QuestionID: "Q0", Item: 10, Runs: 1},
		{QuestionID: "q1", Item: 1, Runs: 3, Passed: 2}, {QuestionID: "q1", Item: 2, Runs: 3, Passed: 1},
		{QuestionID: "q2", Item: 1, Runs: 1}, {QuestionID: "zz", Item: 1, Runs: 1, Passed: 1},
	}
	r2 := analyzeRes(t, s, nil)
	for _, name := range []string{"gate_items", "gate_questions", "difficulty"} {
		checkRows(t, name+" from GateItems", gateRows(r2, name), gateRows(r, name))
	}
}

// gr is one gate cell.
func gr(q, run string, item int, passed bool) study.GateRun {
	return study.GateRun{QuestionID: q, Run: run, Item: item, Passed: passed}
}

// oldGateTables is the gate tables as Analyze computed them from the
// per-run rows before the gate was tallied (map per (question, item), then
// per question over the study's questions): the reference the compact
// form must reproduce.
func oldGateTables(s *study.Study) (items, questions [][]any) {
	type key struct {
		q    string
		item int
	}
	cnt := map[key][2]int64{}
	var keys []key
	perQ := map[string][2]int64{}
	for _, r := range s.GateRuns {
		k := key{r.QuestionID, r.Item}
		c, ok := cnt[k]
		if !ok {
			keys = append(keys, k)
		}
		c[1]++
		pq := perQ[r.QuestionID]
		pq[1]++
		if r.Passed {
			c[0]++
			pq[0]++
		}
		cnt[k] = c
		perQ[r.QuestionID] = pq
	}
	sort.SliceStable(keys, func(i, j int) bool {
		if keys[i].q != keys[j].q {
			return keys[i].q < keys[j].q
		}
		return keys[i].item < keys[j].item
	})
	for _, k := range keys {
		c := cnt[k]
		items = append(items, []any{k.q, int64(k.item), c[1], c[0], float64(c[0]) / float64(c[1])})
	}
	for _, q := range s.Questions {
		if c, ok := perQ[q.ID]; ok {
			questions = append(questions, []any{q.ID, c[1], c[0], float64(c[0]) / float64(c[1])})
		}
	}
	return items, questions
}

// A random gate (uneven runs and items per question, duplicate cells,
// questions outside the study) gives the same tables from its runs, from
// study.TallyGate's items and from the old per-run computation.
func TestGateTablesMatchPerRun(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 7))
	var qs []study.Question
	var runs []study.GateRun
	for q := range 60 {
		id := fmt.Sprintf("q%03d", q)
		if q%7 != 3 { // some gate questions are not in the study
			qs = append(qs, study.Question{ID: id, Domain: "D", GateScore: math.NaN()})
		}
		nRuns, nItems := 1+rng.IntN(6), 1+rng.IntN(12)
		if q%5 == 0 {
			nRuns += 300 // a run count above 255 (boxed differently in Go)
		}
		for r := range nRuns {
			for i := 1; i <= nItems; i++ {
				if rng.IntN(9) == 0 {
					continue // a cell missing
				}
				n := 1 + rng.IntN(2) // a cell twice now and then: each row counts
				for range n {
					runs = append(runs, study.GateRun{QuestionID: id, Run: fmt.Sprint(r + 1), Item: i, Passed: rng.IntN(3) > 0})
				}
			}
		}
	}
	rng.Shuffle(len(runs), func(i, j int) { runs[i], runs[j] = runs[j], runs[i] })
	qs = append(qs, study.Question{ID: "q1", Domain: "D", GateScore: math.NaN()}) // the gradings' question, no gate
	sort.Slice(qs, func(i, j int) bool { return qs[i].ID < qs[j].ID })

	fromRuns := gateStudy(t, qs, runs)
	wantItems, wantQ := oldGateTables(fromRuns)
	fromItems := gateStudy(t, qs, nil)
	fromItems.GateItems = study.TallyGate(runs)
	for name, s := range map[string]*study.Study{"GateRuns": fromRuns, "GateItems": fromItems} {
		r := analyzeRes(t, s, nil)
		checkRows(t, name+" gate_items", gateRows(r, "gate_items"), wantItems)
		var gotQ [][]any
		for _, row := range gateRows(r, "gate_questions") {
			gotQ = append(gotQ, row[:4]) // the difficulty column is binning's
		}
		checkRows(t, name+" gate_questions", gotQ, wantQ)
	}
	if !reflect.DeepEqual(fromRuns.Gate(), fromItems.Gate()) {
		t.Error("Gate() differs between the runs and their tally")
	}
}
