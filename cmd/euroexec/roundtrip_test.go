package main

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/euroexec/euroexec/sample"
)

// TestSampleRoundTrip writes a synthetic study, ingests it with the CLI and
// checks that every rubric score, verdict, rank, comment and text in the
// database equals what the generator wrote (sample.Walk), not only the counts.
func TestSampleRoundTrip(t *testing.T) {
	dir := t.TempDir()
	study := filepath.Join(dir, "study")
	opt := sample.DefaultOptions()
	opt.Questions = 24
	opt.Criteria = true
	var out, errb bytes.Buffer
	args := []string{"sample", "-o", study, "--questions", "24", "--criteria"}
	if err := run(context.Background(), &out, &errb, args); err != nil {
		t.Fatalf("sample: %v\n%s", err, errb.String())
	}
	db := filepath.Join(dir, "study.duckdb")
	if err := run(context.Background(), &out, &errb, []string{"ingest", study, "--db", db}); err != nil {
		t.Fatalf("ingest: %v\n%s", err, errb.String())
	}
	c, err := duckdb.NewConnector(db+"?access_mode=read_only", nil)
	if err != nil {
		t.Fatal(err)
	}
	h := sql.OpenDB(c)
	defer h.Close()

	type key struct{ ev, round, run, q, m string }
	type got struct {
		scores   map[string]float64
		verdicts map[int]string
		rank     int
		comment  string
	}
	gradings := map[key]*got{}
	ids := map[int64]*got{}
	rows, err := h.Query(`SELECT grading_id, evaluator, round, run, question_id, model, coalesce(rank, 0), coalesce(comment, '') FROM gradings`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id int64
		var k key
		g := &got{scores: map[string]float64{}, verdicts: map[int]string{}}
		if err := rows.Scan(&id, &k.ev, &k.round, &k.run, &k.q, &k.m, &g.rank, &g.comment); err != nil {
			t.Fatal(err)
		}
		gradings[k] = g
		ids[id] = g
	}
	rows.Close()
	scan := func(q string, fn func(*sql.Rows)) {
		rows, err := h.Query(q)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			fn(rows)
		}
	}
	scan(`SELECT grading_id, attribute, score FROM rubric_scores`, func(r *sql.Rows) {
		var id int64
		var a string
		var s sql.NullFloat64
		r.Scan(&id, &a, &s)
		v := math.NaN()
		if s.Valid {
			v = s.Float64
		}
		ids[id].scores[a] = v
	})
	scan(`SELECT grading_id, item, coalesce(verdict, '') FROM checklist_verdicts`, func(r *sql.Rows) {
		var id int64
		var item int
		var v string
		r.Scan(&id, &item, &v)
		ids[id].verdicts[item] = v
	})
	texts := map[[2]string]string{}
	scan(`SELECT question_id, model, text FROM responses WHERE latest`, func(r *sql.Rows) {
		var q, m, s string
		r.Scan(&q, &m, &s)
		texts[[2]string{q, m}] = s
	})
	attrs := []string{"Domain", "Localization", "Reasoning", "Communication", "Actionability"}
	var nGrading, nResp int
	err = sample.Walk(opt, func(rec sample.Record) error {
		switch rec.Kind {
		case sample.KindResponse:
			nResp++
			if got := texts[[2]string{rec.QuestionID, rec.Model}]; got != rec.Text {
				return fmt.Errorf("response %s/%s: text differs (%d vs %d bytes)", rec.QuestionID, rec.Model, len(got), len(rec.Text))
			}
		case sample.KindGrading:
			nGrading++
			run := ""
			if rec.Run > 0 {
				run = strconv.Itoa(rec.Run)
			}
			g := gradings[key{rec.Evaluator, rec.Round, run, rec.QuestionID, rec.Model}]
			where := fmt.Sprintf("%s %s/%s round %s run %q (%s row %d)", rec.Evaluator, rec.QuestionID, rec.Model, rec.Round, run, rec.File, rec.Row)
			if g == nil {
				return fmt.Errorf("grading %s: not in the database", where)
			}
			for i, a := range attrs {
				w, v := rec.Scores[i], g.scores[a]
				if !(w == v || math.IsNaN(w) && math.IsNaN(v)) {
					return fmt.Errorf("grading %s: %s = %v, want %v", where, a, v, w)
				}
			}
			for i, w := range rec.Verdicts {
				if v := g.verdicts[i+1]; v != w {
					return fmt.Errorf("grading %s: C%d = %q, want %q", where, i+1, v, w)
				}
			}
			if g.rank != rec.Rank || g.comment != rec.Comment {
				return fmt.Errorf("grading %s: rank %d comment %q, want %d %q", where, g.rank, g.comment, rec.Rank, rec.Comment)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if nGrading != len(gradings) {
		t.Errorf("database has %d gradings, the generator wrote %d", len(gradings), nGrading)
	}
	if nResp != len(texts) {
		t.Errorf("database has %d responses, the generator wrote %d", len(texts), nResp)
	}
	if !strings.Contains(out.String(), "loaded") {
		t.Errorf("ingest output %q", out.String())
	}
}

func TestValidateBundledSample(t *testing.T) {
	var out, errb bytes.Buffer
	if err := run(context.Background(), &out, &errb, []string{"validate", filepath.Join("..", "..", "sample", "study")}); err != nil {
		t.Fatalf("validate: %v\n%s", err, errb.String())
	}
	if !strings.Contains(out.String(), "no problems") {
		t.Errorf("validate printed %q", out.String())
	}
	_ = context.Background
}

// TestSampleJudgeOnly writes a judge-only study with the CLI, checks that it
// validates and runs, that the database holds exactly questions × models
// judge gradings and no human ones, and that --judge-only refuses a human
// pool or reference answers asked for beside it.
func TestSampleJudgeOnly(t *testing.T) {
	dir := t.TempDir()
	study := filepath.Join(dir, "study")
	code, _, se, err := cli(context.Background(), "sample", "-o", study, "--questions", "15", "--judge-only",
		"--judges", "1", "--single-run", "--response-chars", "100")
	checkExit(t, err, code, exitOK, se)
	code, _, se, err = cli(context.Background(), "validate", study)
	checkExit(t, err, code, exitOK, se)
	out := filepath.Join(dir, "report")
	code, _, se, err = cli(context.Background(), "run", study, "-o", out, "-q")
	checkExit(t, err, code, exitOK, se)

	c, err := duckdb.NewConnector(filepath.Join(out, "study.duckdb")+"?access_mode=read_only", nil)
	if err != nil {
		t.Fatal(err)
	}
	h := sql.OpenDB(c)
	defer h.Close()
	var judge, human, runs int
	if err := h.QueryRow(`SELECT count(*) FILTER (WHERE e.kind = 'judge'), count(*) FILTER (WHERE e.kind <> 'judge'),
		count(DISTINCT coalesce(g.run, '')) FROM gradings g JOIN evaluators e USING (evaluator)`).Scan(&judge, &human, &runs); err != nil {
		t.Fatal(err)
	}
	// 15 questions × 6 models × 1 judge; the one response missing from the
	// dumps is still graded.
	if judge != 15*6 || human != 0 || runs != 1 {
		t.Errorf("gradings: %d judge, %d human, %d distinct runs; want 90, 0, 1", judge, human, runs)
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--judge-only", "--evaluators", "5"}, "--evaluators 5"},
		{[]string{"--judge-only", "--reference-share", "0.2"}, "--reference-share 0.2"},
		{[]string{"--evaluators", "0"}, "reference share"},
		{[]string{"--judge-only", "--judges", "0"}, "at least 1 judge"},
	} {
		args := append([]string{"sample", "-o", filepath.Join(dir, "bad"), "--questions", "3"}, tc.args...)
		code, _, se, err := cli(context.Background(), args...)
		if code == exitOK {
			t.Errorf("%v: exit status 0, want a refusal", tc.args)
			continue
		}
		checkExit(t, err, code, code, se, tc.want)
	}
}
