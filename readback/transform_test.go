package readback

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/euroexec/euroexec/ingest"
	"github.com/euroexec/euroexec/study"
)

// load ingests ingest/testdata/base (a hand-made study) and reads it back.
func load(t *testing.T) (*DB, *study.Study, []string) {
	t.Helper()
	db := filepath.Join(t.TempDir(), "s.duckdb")
	res, err := ingest.Ingest(context.Background(), filepath.Join("..", "ingest", "testdata", "base"), ingest.Options{DB: db})
	if err != nil {
		t.Fatal(err)
	}
	d, err := Open(db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	s, warn, err := d.Load(context.Background(), res.Config)
	if err != nil {
		t.Fatal(err)
	}
	return d, s, warn
}

func TestLoad(t *testing.T) {
	_, s, _ := load(t)
	if len(s.Questions) != 2 || s.Questions[0].ID != "q1" || s.Questions[0].Prompt != `What is "EBITDA"?` {
		t.Fatalf("questions = %+v", s.Questions)
	}
	q1 := s.Questions[0]
	if len(q1.Tags) != 1 || q1.Tags[0] != (study.Tag{Key: "decision_type", Value: "strategic"}) {
		t.Errorf("q1 tags = %+v", q1.Tags)
	}
	if len(q1.Checklist) != 2 || q1.Checklist[1] != "example" {
		t.Errorf("q1 checklist = %q", q1.Checklist)
	}
	// gate.csv: q1 passed 1 of 2 cells → 0.5 → "Medium" (0.30 < 0.5 ≤ 0.50);
	// q2 passed 0 of 1 → 0 → "Hard".
	if q1.GateScore != 0.5 || q1.Difficulty != "Medium" || s.Questions[1].Difficulty != "Hard" {
		t.Errorf("difficulty: q1 %v %q, q2 %q", q1.GateScore, q1.Difficulty, s.Questions[1].Difficulty)
	}
	// q2/m1 has attempts 1 and 2: the second is analysed.
	var got string
	for _, r := range s.Responses {
		if r.QuestionID == "q2" && r.Model == "m1" {
			got = r.Text
		}
	}
	if got != "GDPR is the EU privacy law." {
		t.Errorf("q2/m1 text = %q, want attempt 2", got)
	}
	// alice's grading of q1/m1: 4,4,3,5,4; Hit, partial; rank 1.
	for _, g := range s.Gradings {
		if g.Evaluator == "alice" && g.QuestionID == "q1" && g.Model == "m1" {
			want := []float64{4, 4, 3, 5, 4}
			for i := range want {
				if g.Rubric[i] != want[i] {
					t.Errorf("alice q1/m1 rubric = %v, want %v", g.Rubric, want)
					break
				}
			}
			if len(g.Verdicts) != 2 || g.Verdicts[0] != study.Hit || g.Verdicts[1] != study.Partial || g.Rank != 1 || g.Comment != "good" {
				t.Errorf("alice q1/m1 = %+v", g)
			}
		}
		if g.Evaluator == "gpt" && g.Model == "m2" && !math.IsNaN(g.Rubric[4]) {
			t.Errorf("gpt q1/m2 Actionability = %v, want NaN (null in the judge file)", g.Rubric[4])
		}
		if g.Evaluator == "bob" && g.QuestionID == "q1" && g.Model != "m1" && g.Model != "m2" {
			t.Errorf("bob's label not resolved: %q", g.Model)
		}
		// bob graded by label, alice and the judge gpt named the models: every
		// grading carries the label blinding.csv gives its question and model
		// (q1: A = m1, B = m2; q2: A = m2, B = m1).
		wantLabel := map[string]string{"q1/m1": "A", "q1/m2": "B", "q2/m2": "A", "q2/m1": "B"}[g.QuestionID+"/"+g.Model]
		if g.Label != wantLabel {
			t.Errorf("%s %s/%s label = %q, want %q", g.Evaluator, g.QuestionID, g.Model, g.Label, wantLabel)
		}
	}
	if len(s.References) != 1 || !s.References[0].Graded {
		t.Errorf("references = %+v", s.References)
	}
	if len(s.Models) != 2 || s.Models[0].Provider != "Acme" || !math.IsNaN(s.Models[1].USDPer1kInput) {
		t.Errorf("models = %+v", s.Models)
	}
}

// Gradings share one copy of each evaluator, kind, round, question and
// model string (interned while loading); the gate items share their
// question ids with Study.Questions.
func TestLoadInternsStrings(t *testing.T) {
	_, s, _ := load(t)
	var gradings, gate []string
	for _, g := range s.Gradings {
		gradings = append(gradings, g.Evaluator, g.Kind, g.Round, g.QuestionID, g.Model)
	}
	for _, q := range s.Questions {
		gate = append(gate, q.ID)
	}
	for _, g := range s.GateItems {
		gate = append(gate, g.QuestionID)
	}
	if len(s.GateItems) == 0 {
		t.Fatal("the test study has no gate")
	}
	checkInterned(t, "Gradings", gradings)
	checkInterned(t, "GateItems", gate)
}

// checkInterned fails when two equal non-empty values of vals are separate
// copies, or when no value repeats (the check would say nothing).
func checkInterned(t *testing.T, what string, vals []string) {
	t.Helper()
	first := map[string]*byte{}
	shared := 0
	for _, v := range vals {
		if v == "" {
			continue
		}
		p := unsafe.StringData(v)
		if q, ok := first[v]; !ok {
			first[v] = p
		} else if q != p {
			t.Fatalf("%s: %q loaded twice as separate copies", what, v)
		} else {
			shared++
		}
	}
	if shared == 0 {
		t.Fatalf("%s: no repeated value in the test study; the check says nothing", what)
	}
}

// Every grading's verdicts, as read back, are its checklist_verdicts rows in
// item order (NULL as VerdictNone): checked against one query per grading.
func TestLoadVerdictsInItemOrder(t *testing.T) {
	d, s, _ := load(t)
	names := map[study.Verdict]string{study.Hit: "hit", study.Partial: "partial", study.Miss: "miss", study.NA: "na", study.VerdictNone: "-"}
	checked := 0
	for _, g := range s.Gradings {
		var want []string
		rows, err := d.SQL().Query(`SELECT coalesce(v.verdict, '-') FROM checklist_verdicts v JOIN gradings g USING (grading_id)
			WHERE g.evaluator = ? AND g.round = ? AND g.run = ? AND g.question_id = ? AND g.model = ? ORDER BY v.item`,
			g.Evaluator, g.Round, g.Run, g.QuestionID, g.Model)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var v string
			if err := rows.Scan(&v); err != nil {
				t.Fatal(err)
			}
			want = append(want, v)
		}
		rows.Close()
		var got []string
		for _, v := range g.Verdicts {
			got = append(got, names[v])
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s %s/%s run %q: verdicts %v, want %v", g.Evaluator, g.QuestionID, g.Model, g.Run, got, want)
		}
		if len(want) > 0 {
			checked++
		}
		if cap(g.Verdicts) != len(g.Verdicts) {
			t.Errorf("%s %s/%s: verdicts capacity %d > length %d (an append would overwrite the next grading's)", g.Evaluator, g.QuestionID, g.Model, cap(g.Verdicts), len(g.Verdicts))
		}
	}
	if checked < 2 {
		t.Errorf("only %d gradings with verdicts; the test says little", checked)
	}
}

func TestIDIndex(t *testing.T) {
	for _, c := range []struct {
		name   string
		ids    []int64
		sparse bool
	}{
		{"dense from 1", []int64{1, 2, 3, 5}, false},
		{"dense from 0", []int64{0, 4, 2}, false},
		{"sparse", []int64{7, 1 << 40, -3}, true},
	} {
		lo, hi := c.ids[0], c.ids[0]
		for _, id := range c.ids {
			lo, hi = min(lo, id), max(hi, id)
		}
		x := newIDIndex(len(c.ids), lo, hi)
		if (x.m != nil) != c.sparse {
			t.Errorf("%s: map used = %v, want %v", c.name, x.m != nil, c.sparse)
		}
		for i, id := range c.ids {
			x.set(id, i)
		}
		for i, id := range c.ids {
			if got, ok := x.get(id); !ok || got != i {
				t.Errorf("%s: get(%d) = %d, %v; want %d, true", c.name, id, got, ok, i)
			}
		}
		for _, id := range []int64{lo - 1, hi + 1, 6} {
			if slices.Contains(c.ids, id) {
				continue
			}
			if got, ok := x.get(id); ok {
				t.Errorf("%s: get(%d) = %d, true; want not found", c.name, id, got)
			}
		}
	}
}

// The responses, read in batches of rowids and sorted in Go, are what one
// ordered query returns, whatever the batch size.
func TestLoadResponsesBatched(t *testing.T) {
	for _, batch := range []int64{1, 2, 3, 16384} {
		prev := responseBatch
		responseBatch = batch
		d, s, _ := load(t)
		responseBatch = prev
		var want []study.Response
		rows, err := d.SQL().Query(`SELECT question_id, model, text, chars, words FROM responses WHERE latest ORDER BY question_id, model`)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var x study.Response
			if err := rows.Scan(&x.QuestionID, &x.Model, &x.Text, &x.Chars, &x.Words); err != nil {
				t.Fatal(err)
			}
			want = append(want, x)
		}
		rows.Close()
		if len(s.Responses) != len(want) || len(want) < 3 {
			t.Fatalf("batch %d: %d responses, want %d (at least 3)", batch, len(s.Responses), len(want))
		}
		for i, w := range want {
			g := s.Responses[i]
			if g.QuestionID != w.QuestionID || g.Model != w.Model || g.Text != w.Text || g.Chars != w.Chars || g.Words != w.Words {
				t.Errorf("batch %d: response %d = %s/%s %q, want %s/%s %q", batch, i, g.QuestionID, g.Model, g.Text, w.QuestionID, w.Model, w.Text)
			}
		}
	}
}

// The gate is read tallied per (question, item): the same as tallying the
// table's rows one by one (q1 item 1 passed, item 2 failed; q2 item 1
// failed, one run each).
func TestLoadGateItems(t *testing.T) {
	d, s, _ := load(t)
	want := []study.GateItem{
		{QuestionID: "q1", Item: 1, Runs: 1, Passed: 1},
		{QuestionID: "q1", Item: 2, Runs: 1, Passed: 0},
		{QuestionID: "q2", Item: 1, Runs: 1, Passed: 0},
	}
	if !reflect.DeepEqual(s.GateItems, want) {
		t.Errorf("GateItems = %+v, want %+v", s.GateItems, want)
	}
	if s.GateRuns != nil {
		t.Errorf("GateRuns = %+v, want nil (read tallied)", s.GateRuns)
	}
	var runs []study.GateRun
	rows, err := d.SQL().Query(`SELECT question_id, run, item, passed FROM gate_runs`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var r study.GateRun
		if err := rows.Scan(&r.QuestionID, &r.Run, &r.Item, &r.Passed); err != nil {
			t.Fatal(err)
		}
		runs = append(runs, r)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if got := study.TallyGate(runs); !reflect.DeepEqual(s.GateItems, got) {
		t.Errorf("GateItems = %+v, the rows tallied = %+v", s.GateItems, got)
	}
}

// Grading tags (extra columns of grading rows) are read into
// Study.GradingTags, sorted by grading index, in column order within a
// grading, each distinct key and value held once; TagsOf finds them.
func TestLoadGradingTags(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "ingest", "testdata", "base"))); err != nil {
		t.Fatal(err)
	}
	alice := `evaluator,question_id,model,Domain,Localization,Reasoning,Communication,Actionability,C1,C2,rank,comment,batch,shift
alice,q1,m1,4,4,3,5,4,Hit,partial,1,good,b2,am
alice,q1,m2,2,3,2,3,2,miss,na,2,,b1,pm
alice,q2,m1,4,4,3,5,4,hit,,1,,b2,am
alice,q2,m2,3,3,3,3,3,no,,2,,b1,
`
	if err := os.WriteFile(filepath.Join(dir, "grades", "humans", "main", "alice.csv"), []byte(alice), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "s.duckdb")
	res, err := ingest.Ingest(context.Background(), dir, ingest.Options{DB: db})
	if err != nil {
		t.Fatal(err)
	}
	d, err := Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	s, _, err := d.Load(context.Background(), res.Config)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{ // question/model → tags of alice's grading
		"q1/m1": "[{batch b2} {shift am}]", "q1/m2": "[{batch b1} {shift pm}]",
		"q2/m1": "[{batch b2} {shift am}]", "q2/m2": "[{batch b1}]", // an empty cell is no tag
	}
	var vals []string
	for i, g := range s.Gradings {
		got := fmt.Sprint(s.TagsOf(i))
		if g.Evaluator != "alice" {
			if got != "[]" {
				t.Errorf("%s %s/%s: tags %s, want none", g.Evaluator, g.QuestionID, g.Model, got)
			}
			continue
		}
		if w := want[g.QuestionID+"/"+g.Model]; got != w {
			t.Errorf("alice %s/%s: tags %s, want %s", g.QuestionID, g.Model, got, w)
		}
		delete(want, g.QuestionID+"/"+g.Model)
		for _, tg := range s.TagsOf(i) {
			vals = append(vals, tg.Key, tg.Value)
		}
	}
	if len(want) != 0 {
		t.Errorf("gradings not found: %v", want)
	}
	if !slices.IsSortedFunc(s.GradingTags, func(a, b study.GradingTag) int { return a.Grading - b.Grading }) {
		t.Errorf("GradingTags not sorted by grading: %+v", s.GradingTags)
	}
	checkInterned(t, "GradingTags", vals)
}

// Repeated comments share one copy until maxComments distinct ones are
// kept; later ones are copies with the same text.
func TestCommentInterner(t *testing.T) {
	c := newCommentInterner()
	a := c.str(strings.Clone("Covers 3 of 4 checklist items."))
	b := c.bytes([]byte("Covers 3 of 4 checklist items."))
	if a != b || unsafe.StringData(a) != unsafe.StringData(b) {
		t.Fatalf("a repeated comment was copied: %q at %p, %q at %p", a, unsafe.StringData(a), b, unsafe.StringData(b))
	}
	for i := range maxComments {
		c.str(fmt.Sprint("comment ", i))
	}
	if len(c.in) != maxComments {
		t.Fatalf("%d comments kept, want %d", len(c.in), maxComments)
	}
	x, y := c.str("one more"), c.bytes([]byte("one more"))
	if x != "one more" || y != "one more" || len(c.in) != maxComments {
		t.Errorf("past the cap: got %q, %q with %d kept; want the text and %d kept", x, y, len(c.in), maxComments)
	}
	if got := c.str(a); unsafe.StringData(got) != unsafe.StringData(a) {
		t.Error("a comment kept before the cap is copied after it")
	}
}
