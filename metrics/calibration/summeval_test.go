package calibration

import (
	"encoding/csv"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"testing"
	"unicode/utf8"

	"github.com/euroexec/euroexec/internal/realdata"
	"github.com/euroexec/euroexec/study"
)

// summevalShared is where the SummEval judge answers and summaries live in
// the shared folder beside the repository: they carry no licence that
// allows a copy (internal/realdata/SOURCE.md).
const summevalShared = "datasets/summeval-llm-judge/derived"

// readCSV reads the SummEval table name without its header: the expert
// ratings from the repository's copy, the rest from the shared folder.
func readCSV(t *testing.T, name string) [][]string {
	t.Helper()
	var r io.Reader
	if name == "human_scores_long.csv" {
		var err error
		if r, err = realdata.Open(realdata.SummEvalExperts); err != nil {
			t.Fatal(err)
		}
	} else {
		f, err := os.Open(realdata.SharedPath(t, filepath.Join(summevalShared, name)))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		r = f
	}
	rows, err := csv.NewReader(r).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows[1:]
}

// loadSummEval builds a Study from SummEval: 100 articles (questions) × 12
// systems, the 3 expert annotators and the 3 LLM judges on 4 attributes,
// and the summaries' lengths. A judge score that could not be parsed is NaN.
func loadSummEval(t *testing.T) *study.Study {
	t.Helper()
	attrs := []string{"coherence", "consistency", "fluency", "relevance"}
	aPos := map[string]int{}
	for i, a := range attrs {
		aPos[a] = i
	}
	s := &study.Study{Title: "SummEval", HumanLabel: "Human Expert", MainRound: "main", Attributes: attrs, ScaleMin: 1, ScaleMax: 5}
	type key struct{ e, kind, q, m string }
	gs := map[key][]float64{}
	get := func(k key) []float64 {
		if gs[k] == nil {
			v := make([]float64, len(attrs))
			for i := range v {
				v[i] = math.NaN()
			}
			gs[k] = v
		}
		return gs[k]
	}
	qs := map[string]bool{}
	for _, r := range readCSV(t, "human_scores_long.csv") { // doc_id,system,annotator_type,annotator,attribute,score
		if r[2] != "expert" {
			continue
		}
		v, err := strconv.ParseFloat(r[5], 64)
		if err != nil {
			t.Fatal(err)
		}
		get(key{r[3], study.Human, r[0], r[1]})[aPos[r[4]]] = v
		qs[r[0]] = true
	}
	for _, r := range readCSV(t, "judge_scores_long.csv") { // doc_id,system,judge,prompt,attribute,score,parse_rule
		v, err := strconv.ParseFloat(r[5], 64)
		if err != nil {
			v = math.NaN()
		}
		get(key{r[2], study.Judge, r[0], r[1]})[aPos[r[4]]] = v
	}
	for q := range qs {
		s.Questions = append(s.Questions, study.Question{ID: q, GateScore: math.NaN()})
	}
	sort.Slice(s.Questions, func(i, j int) bool { return s.Questions[i].ID < s.Questions[j].ID })
	for k, v := range gs {
		s.Gradings = append(s.Gradings, study.Grading{Evaluator: k.e, Kind: k.kind, Round: "main", QuestionID: k.q, Model: k.m, Rubric: v})
	}
	sort.Slice(s.Gradings, func(i, j int) bool {
		a, b := s.Gradings[i], s.Gradings[j]
		if a.QuestionID != b.QuestionID {
			return a.QuestionID < b.QuestionID
		}
		if a.Model != b.Model {
			return a.Model < b.Model
		}
		return a.Evaluator < b.Evaluator
	})
	for _, r := range readCSV(t, "summaries.csv") { // doc_id,system,summary
		s.Responses = append(s.Responses, study.Response{QuestionID: r[0], Model: r[1], Text: r[2], Chars: utf8.RuneCountInString(r[2])})
	}
	return s
}

// TestSummEval runs the package on SummEval's expert ratings and the three
// LLM judges. It checks what must hold on any data (every judge gets both
// metrics for every system; intervals contain their estimates; held-out
// isotonic calibration does not lose to the raw judge on the rubric scale
// by much) and logs the measured numbers.
func TestSummEval(t *testing.T) {
	if testing.Short() {
		t.Skip("real data set")
	}
	s := loadSummEval(t)
	opt := DefaultOptions()
	opt.Bootstrap = 500
	res := analyze(t, s, opt)
	for _, w := range res.Warnings {
		t.Log("warning:", w)
	}
	sum := res.Summary
	for _, r := range sum {
		t.Logf("%v %v: mae raw %.3f isotonic %.3f; PPI/human width ratio %.3f", r.Judge, r.Metric, r.MAERaw, r.MAEIsotonic, r.WidthRatio)
		if r.Metric == MetricRubric && r.MAEIsotonic > r.MAERaw {
			t.Errorf("%v: isotonic calibration increased the rubric error", r.Judge)
		}
	}
	cal := calRows(t, res)
	if len(cal) != 3*2*12 {
		t.Errorf("judge_calibration has %d rows, want 3 judges × 2 metrics × 12 systems", len(cal))
	}
	for _, r := range cal {
		p, lo, hi := r.PPI.Estimate, r.PPI.Lo, r.PPI.Hi
		if !(lo <= p && p <= hi) {
			t.Errorf("%v %v %v: ppi %v outside [%v, %v]", r.Judge, r.Model, r.Metric, p, lo, hi)
		}
	}
	t.Logf("length_coef %.4f [%.4f, %.4f]", res.Length.Coef, res.Length.CoefLo, res.Length.CoefHi)
	for _, r := range res.Length.Rows {
		t.Logf("  %v raw_effect %.3f adjusted %.3f [%.3f, %.3f] chars %.0f", r.Model, r.RawEffect,
			r.AdjustedEffect, r.AdjustedLo, r.AdjustedHi, r.MeanChars)
	}
}

// TestSummEvalSubsample keeps the expert gradings of 15 of the 100 articles
// (every 7th article in id order, the first 15) and compares, per judge and
// system, the PPI and human-only intervals with the all-expert mean of the
// full data (the "truth" here). Logged: how often each interval contains
// it, and the mean width ratio.
func TestSummEvalSubsample(t *testing.T) {
	if testing.Short() {
		t.Skip("real data set")
	}
	full := loadSummEval(t)
	keep := map[string]bool{}
	for i := 0; i < len(full.Questions) && len(keep) < 15; i += 7 {
		keep[full.Questions[i].ID] = true
	}
	truth := map[string]float64{}
	{
		res := analyze(t, full, noLength())
		cal := calRows(t, res)
		for _, r := range cal {
			if r.Metric == MetricRubric {
				truth[r.Model] = r.Human
			}
		}
	}
	sub := *full
	sub.Gradings = nil
	for _, g := range full.Gradings {
		if g.Kind == study.Judge || keep[g.QuestionID] {
			sub.Gradings = append(sub.Gradings, g)
		}
	}
	res := analyze(t, &sub, noLength())
	cal := calRows(t, res)
	type acc struct {
		n, ppi, hum, tuned int
		ratio, ratioT      float64
	}
	by := map[string]*acc{}
	for _, r := range cal {
		if r.Metric != MetricRubric {
			continue
		}
		a := by[r.Judge]
		if a == nil {
			a = &acc{}
			by[r.Judge] = a
		}
		want := truth[r.Model]
		lo, hi := r.PPI.Lo, r.PPI.Hi
		hlo, hhi := r.PPI.HumanLo, r.PPI.HumanHi
		if n := r.Questions; n != 15 {
			t.Fatalf("n_questions = %v, want 15", n)
		}
		a.n++
		if lo <= want && want <= hi {
			a.ppi++
		}
		if hlo <= want && want <= hhi {
			a.hum++
		}
		a.ratio += (hi - lo) / (hhi - hlo)
		tlo, thi := r.PPI.TunedLo, r.PPI.TunedHi
		if tlo <= want && want <= thi {
			a.tuned++
		}
		a.ratioT += (thi - tlo) / (hhi - hlo)
	}
	for _, j := range []string{"gpt-4-0314", "gpt-3.5-turbo-0301", "llama-2-70b-chat-hf"} {
		a := by[j]
		t.Logf("%s: 15/100 articles labelled: the all-expert mean is inside PPI for %d/%d systems, tuned PPI %d, human-only %d; mean width ratio to human-only %.3f (tuned %.3f)",
			j, a.ppi, a.n, a.tuned, a.hum, a.ratio/float64(a.n), a.ratioT/float64(a.n))
	}
}
