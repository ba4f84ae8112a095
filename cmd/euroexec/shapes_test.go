package main

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/findings"
)

// The shape matrix: every shape of study an analyst may bring, each a tiny
// study (3 questions, 1 to 2 models, hand-chosen scores), run through run;
// the values are computed by hand below and written as exact fractions.
//
// Rubric Quality and Clarity on 1–5; checklist items C1, C2 on every
// question; solved = mean rubric ≥ 3 and checklist ≥ 60 % (partial = ½).
//
//	model q   Quality Clarity C1 C2      rank  mean  checklist  solved
//	m1    q1  4       4       hit hit     1     4     1          yes
//	m1    q2  2       3       hit miss    2     5/2   1/2        no
//	m1    q3  5       3       hit partial 1     4     3/4        yes
//	m2    q1  2       2       miss miss   2     2     0          no
//	m2    q2  4       4       hit hit     1     4     1          yes
//	m2    q3  3       2       miss partial 2    5/2   1/4        no
//
// m1: Solve Rate 2/3, rubric (4 + 5/2 + 4)/3 = 7/2, checklist 3/4, avg rank
// 4/3, win rate 2/3; m2: Solve Rate 1/3, rubric 17/6, checklist 5/12, avg
// rank 5/3, win rate 1/3. Checklist alone (≥ 60 %): m1 q1, q3 solved (2/3),
// m2 q2 (1/3). Rubric alone (mean ≥ 3): the same sets.
type shapeRow struct {
	q, m           string
	quality, clar  string
	c1, c2, rank   string
	pairWinnerVsM2 string // m1 vs m2 on q: a (m1), b (m2) or tie
}

var shapeRows = []shapeRow{
	{"q1", "m1", "4", "4", "hit", "hit", "1", "a"},
	{"q2", "m1", "2", "3", "hit", "miss", "2", "b"},
	{"q3", "m1", "5", "3", "hit", "partial", "1", "a"},
	{"q1", "m2", "2", "2", "miss", "miss", "2", ""},
	{"q2", "m2", "4", "4", "hit", "hit", "1", ""},
	{"q3", "m2", "3", "2", "miss", "partial", "2", ""},
}

// shapeStudy holds the files of one shape.
type shapeStudy map[string]string

// newShape is the common part: questions, a study.toml with the rubric
// (unless toml is given), a checklist and dumps for models.
func newShape(toml string, checklist bool, models ...string) shapeStudy {
	s := shapeStudy{"questions.csv": "question_id,domain,prompt\nq1,Finance,Hedge?\nq2,Finance,Tax?\nq3,Law,Sue?\n"}
	if toml == "" {
		toml = "title = \"Shape\"\n[rubric]\nattributes = [\"Quality\", \"Clarity\"]\nmin = 1\nmax = 5\n"
	}
	s["study.toml"] = toml
	if checklist {
		s["checklist.csv"] = "question_id,item,text\nq1,1,a\nq1,2,b\nq2,1,a\nq2,2,b\nq3,1,a\nq3,2,b\n"
	}
	for _, m := range models {
		var b strings.Builder
		for _, q := range []string{"q1", "q2", "q3"} {
			fmt.Fprintf(&b, "{\"question_id\":%q,\"model\":%q,\"text\":\"the answer of %s to %s, in a few words\"}\n", q, m, m, q)
		}
		s["responses/"+m+".jsonl"] = b.String()
	}
	return s
}

// humanSheet is a grading sheet of evaluator ev over the rows of models,
// with the columns asked for (of Quality, Clarity, C1, C2, rank).
func humanSheet(ev string, models []string, cols ...string) string {
	var b strings.Builder
	b.WriteString("evaluator,question_id,model," + strings.Join(cols, ",") + "\n")
	for _, r := range shapeRows {
		if !contains(models, r.m) {
			continue
		}
		cells := []string{ev, r.q, r.m}
		for _, c := range cols {
			cells = append(cells, map[string]string{"Quality": r.quality, "Clarity": r.clar, "C1": r.c1, "C2": r.c2, "rank": r.rank}[c])
		}
		b.WriteString(strings.Join(cells, ",") + "\n")
	}
	return b.String()
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// judgeFile is judge ev's JSONL grading of both models: the same scores as
// the human rows, except that m1's q2 is scored as averages of three runs
// written with all their digits (Quality 13/3, Clarity 5/3): its rubric mean
// is 3 and m1's judge rubric mean (4 + 3 + 4)/3 = 11/3; q2 stays unsolved
// (checklist 1/2), so m1's judge Solve Rate is 2/3.
func judgeFile(ev string) string {
	var b strings.Builder
	for _, r := range shapeRows {
		ql, cl := r.quality, r.clar
		if r.m == "m1" && r.q == "q2" {
			ql, cl = "4.333333333333333", "1.6666666666666667"
		}
		fmt.Fprintf(&b, "{\"evaluator\":%q,\"question_id\":%q,\"model\":%q,\"Quality\":%s,\"Clarity\":%s,\"C1\":%q,\"C2\":%q}\n", ev, r.q, r.m, ql, cl, r.c1, r.c2)
	}
	return b.String()
}

// want is one expected value of a table: the row whose key columns have
// the given values, and a column's value (NaN: undefined).
type want struct {
	table string
	key   map[string]string
	col   string
	v     float64
}

func frac(a, b int) float64 { return float64(a) / float64(b) }

var undefined = math.NaN()

// summaryWants are a model's summary values for the human graders (or
// graders g) on all questions.
func summaryWants(g, m string, solve, rubric, checklist, avgRank, winRate float64) []want {
	k := map[string]string{"set": "all", "graders": g, "model": m}
	return []want{{"summary", k, "solve_rate", solve}, {"summary", k, "rubric", rubric}, {"summary", k, "checklist_rate", checklist},
		{"summary", k, "avg_rank", avgRank}, {"summary", k, "win_rate", winRate}}
}

func TestShapeMatrix(t *testing.T) {
	both := []string{"m1", "m2"}
	all := []string{"Quality", "Clarity", "C1", "C2", "rank"}
	full := func() shapeStudy {
		s := newShape("", true, both...)
		s["grades/humans/main/alice.csv"] = humanSheet("alice", both, all...)
		s["grades/humans/main/bob.csv"] = humanSheet("bob", both, all...)
		s["grades/judges/gpt.jsonl"] = judgeFile("gpt")
		return s
	}
	humans := append(summaryWants("humans", "m1", frac(2, 3), frac(7, 2), frac(3, 4), frac(4, 3), frac(2, 3)),
		summaryWants("humans", "m2", frac(1, 3), frac(17, 6), frac(5, 12), frac(5, 3), frac(1, 3))...)
	cases := []struct {
		name   string
		study  func() shapeStudy
		wants  []want
		notes  []string // in tables/notes.csv
		stdout []string // in the terminal summary
		stderr []string // warnings
		absent []string // tables left out
		err    []string // the run fails with these
		// in the Methods paragraph, and not in it
		methods, methodsNot []string
		// exact: gradings whose rubric mean grading_scores (in OUT/study.duckdb)
		// must hold as this exact fraction
		exact []exactWant
	}{
		{name: "full", study: full,
			wants: append(append(humans[:len(humans):len(humans)],
				want{"summary", map[string]string{"set": "all", "graders": "judge:gpt", "model": "m1"}, "rubric", frac(11, 3)}),
				want{"summary", map[string]string{"set": "all", "graders": "judge:gpt", "model": "m2"}, "solve_rate", frac(1, 3)}),
			stdout:  []string{"human graders, all questions, by Solve Rate"},
			methods: []string{"Agreement between graders is Krippendorff's α"}},
		{name: "checklist only, attributes = []", study: func() shapeStudy {
			s := newShape("title = \"Shape\"\n[rubric]\nattributes = []\n", true, both...)
			s["grades/humans/main/alice.csv"] = humanSheet("alice", both, "C1", "C2", "rank")
			return s
		}, wants: append(summaryWants("humans", "m1", frac(2, 3), undefined, frac(3, 4), frac(4, 3), frac(2, 3)),
			summaryWants("humans", "m2", frac(1, 3), undefined, frac(5, 12), frac(5, 3), frac(1, 3))...),
			notes: []string{"rubric_by_attribute,left out: the study has no rubric"}, absent: []string{"rubric_by_attribute"},
			methods:    []string{"Each response was checked against a per-question checklist. A response counts as solved when at least 60 % of its checklist is fulfilled", "Agreement between graders could not be measured: no response was graded twice."},
			methodsNot: []string{"rubric"}},
		{name: "checklist only, no [rubric]", study: func() shapeStudy {
			s := newShape("title = \"Shape\"\n", true, both...)
			s["grades/humans/main/alice.csv"] = humanSheet("alice", both, "C1", "C2")
			return s
		}, wants: append(summaryWants("humans", "m1", frac(2, 3), undefined, frac(3, 4), undefined, undefined),
			summaryWants("humans", "m2", frac(1, 3), undefined, frac(5, 12), undefined, undefined)...),
			notes: []string{"rubric_by_attribute,left out: the study has no rubric", "the study has no preference ranks"}},
		{name: "rubric only", study: func() shapeStudy {
			s := newShape("", false, both...)
			s["grades/humans/main/alice.csv"] = humanSheet("alice", both, "Quality", "Clarity", "rank")
			return s
		}, wants: append(summaryWants("humans", "m1", frac(2, 3), frac(7, 2), undefined, frac(4, 3), frac(2, 3)),
			summaryWants("humans", "m2", frac(1, 3), frac(17, 6), undefined, frac(5, 3), frac(1, 3))...),
			notes: []string{"checklist_distribution,left out: the study has no checklist"}, absent: []string{"checklist_distribution"},
			methods:    []string{"rubric of Quality, Clarity on the 1–5 scale. A response counts as solved when its mean rubric score is at least 3;"},
			methodsNot: []string{"checklist"}},
		{name: "judge only", study: func() shapeStudy {
			s := newShape("", true, both...)
			s["grades/judges/gpt.jsonl"] = judgeFile("gpt")
			return s
		}, wants: append(summaryWants("judge:gpt", "m1", frac(2, 3), frac(11, 3), frac(3, 4), undefined, undefined),
			summaryWants("judge:gpt", "m2", frac(1, 3), frac(17, 6), frac(5, 12), undefined, undefined)...),
			notes:  []string{"summary,set all has no human gradings"},
			stdout: []string{"judge gpt, all questions, by Solve Rate", "m1     3         66.7 %"},
			// the judge's 4.333333333333333 and 1.6666666666666667: 13/3 and 5/3
			exact:   []exactWant{{"gpt", "q2", "m1", 3, 1}, {"gpt", "q1", "m1", 4, 1}},
			methods: []string{"1 LLM judge graded the responses, and no human grader (6 judge gradings).", "Agreement between human graders could not be measured: the study has none."}},
		{name: "human only", study: func() shapeStudy {
			s := newShape("", true, both...)
			s["grades/humans/main/alice.csv"] = humanSheet("alice", both, all...)
			s["grades/humans/main/bob.csv"] = humanSheet("bob", both, all...)
			return s
		}, wants: humans, notes: []string{"judge_vs_human,left out: the study has no LLM-judge gradings"}},
		{name: "pairwise only", study: func() shapeStudy {
			s := newShape("title = \"Shape\"\n", false, both...)
			var b strings.Builder
			b.WriteString("evaluator,question_id,model_a,model_b,winner\n")
			for _, r := range shapeRows {
				if r.pairWinnerVsM2 != "" {
					fmt.Fprintf(&b, "alice,%s,m1,m2,%s\n", r.q, r.pairWinnerVsM2)
				}
			}
			s["grades/humans/main/alice.csv"] = b.String()
			return s
		}, wants: []want{
			{"pairwise_models", map[string]string{"graders": "humans", "model": "m1"}, "win_rate", frac(2, 3)},
			{"pairwise_models", map[string]string{"graders": "humans", "model": "m2"}, "win_rate", frac(1, 3)},
		}, notes: []string{"rubric_by_attribute,left out: the study has no rubric"},
			stdout: []string{"human graders, pairwise judgments, by win rate"}},
		{name: "PRBench only", study: func() shapeStudy {
			// Criteria a (3), b (1), c (−2) on every question; max = 4.
			// m1: q1 a b → 4/4; q2 a c → 1/4; q3 none → 0: mean 5/12.
			// m2: q1 a c → 1/4; q2 c → −2/4, clipped 0; q3 b → 1/4: mean 1/6.
			s := newShape("title = \"Shape\"\n", false, both...)
			var c, g strings.Builder
			c.WriteString("question_id,criterion_id,text,weight\n")
			for _, q := range []string{"q1", "q2", "q3"} {
				fmt.Fprintf(&c, "%s,a,x,3\n%s,b,y,1\n%s,c,z,-2\n", q, q, q)
			}
			g.WriteString("evaluator,question_id,model,criterion_id,met\n")
			met := map[string]string{"m1q1": "abc:110", "m1q2": "abc:101", "m1q3": "abc:000", "m2q1": "abc:101", "m2q2": "abc:001", "m2q3": "abc:010"}
			for _, m := range both {
				for _, q := range []string{"q1", "q2", "q3"} {
					v := strings.TrimPrefix(met[m+q], "abc:")
					for i, cr := range []string{"a", "b", "c"} {
						fmt.Fprintf(&g, "alice,%s,%s,%s,%c\n", q, m, cr, v[i])
					}
				}
			}
			s["criteria.csv"] = c.String()
			s["criterion_grades/humans/alice.csv"] = g.String()
			return s
		}, wants: []want{
			{"prbench_scores", map[string]string{"set": "all", "graders": "humans", "model": "m1"}, "clipped_mean", frac(5, 12)},
			{"prbench_scores", map[string]string{"set": "all", "graders": "humans", "model": "m2"}, "clipped_mean", frac(1, 6)},
		}, notes: []string{"rubric_by_attribute,left out: the study has no rubric"},
			stdout:     []string{"human graders, PRBench criteria, all questions, by clipped score"},
			absent:     []string{"summary"},
			methods:    []string{"weighted per-question criteria (PRBench)"},
			methodsNot: []string{"rubric", "checklist", "Solve Rate"}},
		{name: "gradings without response dumps", study: func() shapeStudy {
			s := newShape("", true)
			s["grades/humans/main/alice.csv"] = humanSheet("alice", both, all...)
			return s
		}, wants: humans, stdout: []string{"human graders, all questions"}},
		{name: "a single model", study: func() shapeStudy {
			s := newShape("", true, "m1")
			s["grades/humans/main/alice.csv"] = humanSheet("alice", []string{"m1"}, "Quality", "Clarity", "C1", "C2")
			return s
		}, wants: summaryWants("humans", "m1", frac(2, 3), frac(7, 2), frac(3, 4), undefined, undefined),
			// one model, one grader: no pair to compare, no agreement to measure
			notes:   []string{"pairwise_tests,left out: no rows", `reliability,"left out: every value is undefined (value, lo, hi empty in all`},
			absent:  []string{"pairwise_tests", "reliability"},
			methods: []string{"Agreement between graders could not be measured: no response was graded twice."}},
		{name: "several rounds", study: func() shapeStudy {
			// bob's second-round sheet gives every response 1s and misses:
			// the main round's values are alice's alone.
			s := newShape("", true, both...)
			s["grades/humans/main/alice.csv"] = humanSheet("alice", both, all...)
			var b strings.Builder
			b.WriteString("evaluator,question_id,model,Quality,Clarity,C1,C2,rank\n")
			for _, r := range shapeRows {
				fmt.Fprintf(&b, "bob,%s,%s,1,1,miss,miss,%s\n", r.q, r.m, r.rank)
			}
			s["grades/humans/second/bob.csv"] = b.String()
			return s
		}, wants: humans},
		// A dataset that ships per-item means of three raters (as UniEval's
		// Topical-Chat): m1's q2 is Quality 13/3 written to 10 decimals and
		// Clarity 5/3 rounded to 2, so its mean is 3 and m1's rubric mean
		// (4 + 3 + 4)/3 = 11/3; q2 stays unsolved (checklist 1/2).
		{name: "human means of raters", study: func() shapeStudy {
			s := newShape("title = \"Shape\"\n[rubric]\nattributes = [\"Quality\", \"Clarity\"]\nmin = 1\nmax = 5\naveraged = 3\n", true, both...)
			s["grades/humans/main/alice.csv"] = strings.Replace(humanSheet("alice", both, all...), "alice,q2,m1,2,3,", "alice,q2,m1,4.3333333333,1.67,", 1)
			return s
		}, wants: append(summaryWants("humans", "m1", frac(2, 3), frac(11, 3), frac(3, 4), frac(4, 3), frac(2, 3)),
			summaryWants("humans", "m2", frac(1, 3), frac(17, 6), frac(5, 12), frac(5, 3), frac(1, 3))...),
			exact: []exactWant{{"alice", "q2", "m1", 3, 1}}},
		{name: "human means without [rubric] averaged", study: func() shapeStudy {
			s := newShape("", true, both...)
			s["grades/humans/main/alice.csv"] = strings.Replace(humanSheet("alice", both, all...), "alice,q2,m1,2,3,", "alice,q2,m1,4.3333333333,1.67,", 1)
			return s
		}, err: []string{"4.3333333333", "looks like a mean of 3 raters' scores", "set [rubric] averaged = 3"}},
		{name: "no score", study: func() shapeStudy {
			s := newShape("title = \"Shape\"\n", false, both...)
			s["grades/humans/main/alice.csv"] = "evaluator,question_id,model,MQM\nalice,q1,m1,2.5\nalice,q1,m2,5\nalice,q2,m1,0\n"
			return s
		}, err: []string{"none of the 3 gradings has one", "read as grading tags: MQM", "add `attributes = [\"MQM\"]` under [rubric]"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for rel, content := range tc.study() {
				p := filepath.Join(dir, filepath.FromSlash(rel))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			out := filepath.Join(t.TempDir(), "report")
			var stdout, stderr bytes.Buffer
			rep, err := runStudy(context.Background(), &stdout, &stderr, dir, runOptions{out: out, now: fixedNow})
			if len(tc.err) > 0 {
				if err == nil {
					t.Fatalf("run succeeded, want it to fail with %q", tc.err)
				}
				if !errors.Is(err, errReported) {
					t.Errorf("error %v, want the problems reported", err)
				}
				for _, w := range tc.err {
					if !strings.Contains(stderr.String(), w) {
						t.Errorf("problems %q lack %q", stderr.String(), w)
					}
				}
				if _, err := os.Stat(out); err == nil {
					t.Errorf("a report was written to %s", out)
				}
				return
			}
			if err != nil {
				t.Fatalf("run: %v\n%s", err, stderr.String())
			}
			for _, w := range tc.wants {
				checkShapeValue(t, rep, w)
			}
			notes, _ := os.ReadFile(filepath.Join(out, "tables", "notes.csv"))
			for _, n := range tc.notes {
				if !strings.Contains(string(notes), n) {
					t.Errorf("notes.csv lacks %q:\n%s", n, notes)
				}
			}
			for _, s := range tc.stdout {
				if !strings.Contains(stdout.String(), s) {
					t.Errorf("terminal summary lacks %q:\n%s", s, stdout.String())
				}
			}
			for _, s := range tc.stderr {
				if !strings.Contains(stderr.String(), s) {
					t.Errorf("warnings lack %q:\n%s", s, stderr.String())
				}
			}
			m := findings.Make(rep).Methods
			for _, w := range tc.methods {
				if !strings.Contains(m, w) {
					t.Errorf("Methods lacks %q:\n%s", w, m)
				}
			}
			for _, w := range tc.methodsNot {
				if strings.Contains(m, w) {
					t.Errorf("Methods has %q:\n%s", w, m)
				}
			}
			for _, name := range tc.absent {
				if rep.Table(name) != nil {
					t.Errorf("table %s written, want it left out", name)
				}
			}
			checkShapeLeaderboard(t, rep, stdout.String(), out)
			checkShapeExact(t, filepath.Join(out, "study.duckdb"), tc.exact)
		})
	}
}

// exactWant is a grading's rubric mean as an exact fraction num/den.
type exactWant struct {
	evaluator, question, model string
	num, den                   int64
}

// checkShapeExact checks the rubric_num/rubric_den of grading_scores in
// the run's database for each wanted grading.
func checkShapeExact(t *testing.T, dbPath string, wants []exactWant) {
	t.Helper()
	if len(wants) == 0 {
		return
	}
	db, err := sql.Open("duckdb", dbPath+"?access_mode=read_only")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, w := range wants {
		var num, den sql.NullInt64
		err := db.QueryRow(`SELECT rubric_num, rubric_den FROM grading_scores WHERE evaluator = ? AND question_id = ? AND model = ?`,
			w.evaluator, w.question, w.model).Scan(&num, &den)
		if err != nil || !num.Valid || num.Int64 != w.num || den.Int64 != w.den {
			t.Errorf("grading_scores %s %s/%s: rubric %v/%v (%v), want exactly %d/%d", w.evaluator, w.question, w.model, num, den, err, w.num, w.den)
		}
	}
}

// checkShapeLeaderboard: every shape gets the leaderboard its instruments
// allow, never an empty one: m1 (better than m2 by every instrument)
// leads it in the terminal, the site's index and the first finding,
// which states its gap to the runner-up when there is one.
func checkShapeLeaderboard(t *testing.T, rep *report.Report, stdout, out string) {
	t.Helper()
	b := findings.Leaderboard(rep)
	if len(b.Rows) == 0 || b.Rows[0].ID != "m1" {
		t.Errorf("leaderboard %+v: want m1 first", b)
		return
	}
	if !strings.Contains(stdout, "Leaderboard — "+b.Caption()) {
		t.Errorf("terminal lacks the leaderboard %q:\n%s", b.Caption(), stdout)
	}
	idx, _ := os.ReadFile(filepath.Join(out, "site", "index.html"))
	if !strings.Contains(string(idx), `id="leaderboard"`) {
		t.Error("site index without the leaderboard")
	}
	first := findings.Make(rep).Headlines[0].Text
	if !strings.Contains(first, "m1") || (len(b.Rows) > 1 && !strings.Contains(first, "runner-up, m2")) {
		t.Errorf("first finding %q: want m1 and its gap to the runner-up m2", first)
	}
}

// checkShapeValue finds w's row in its table and compares the value with
// the hand-computed one (to 1e-12; NaN wants an undefined value).
func checkShapeValue(t *testing.T, rep *report.Report, w want) {
	t.Helper()
	tb := rep.Table(w.table)
	if tb == nil {
		t.Errorf("no table %s", w.table)
		return
	}
	for _, row := range tb.Rows {
		match := true
		for k, v := range w.key {
			if fmt.Sprint(tb.Get(row, k)) != v {
				match = false
				break
			}
		}
		if !match {
			continue
		}
		got, ok := tb.Get(row, w.col).(float64)
		if !ok {
			got = math.NaN()
		}
		if math.IsNaN(w.v) != math.IsNaN(got) || (!math.IsNaN(w.v) && math.Abs(got-w.v) > 1e-12) {
			t.Errorf("%s %v %s = %v, want %v", w.table, w.key, w.col, got, w.v)
		}
		return
	}
	t.Errorf("%s has no row %v", w.table, w.key)
}
