package paper

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/euroexec/euroexec/study"
)

// textBenchStudy: nQ questions, each with a reference of 40–80 words
// from a 3,000-word vocabulary, and six models whose responses copy the
// reference with 10–50 % of the words replaced, dropped or repeated; one
// human grading per response on the first 200 questions only, so that the
// text metrics are the bulk of the analysis.
func textBenchStudy(tb testing.TB, nQ int) *study.Study {
	r := rand.New(rand.NewPCG(3, 9))
	vocab := make([]string, 3000)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("w%c%c%d", 'a'+rune(i%26), 'a'+rune(i/26%26), i/676)
	}
	models := []string{"HE", "M1", "M2", "M3", "M4", "M5", "M6"}
	s := &study.Study{Title: "text bench", HumanLabel: "HE", MainRound: "main", Attributes: []string{"A"}, ScaleMin: 1, ScaleMax: 5}
	for _, m := range models {
		s.Models = append(s.Models, study.Model{Name: m, USDPer1kInput: math.NaN(), USDPer1kOutput: math.NaN()})
	}
	s.Evaluators = []study.Evaluator{{ID: "e1", Kind: study.Human}}
	var words []string
	for q := 0; q < nQ; q++ {
		id := fmt.Sprintf("q%06d", q)
		s.Questions = append(s.Questions, study.Question{ID: id, Domain: "D", GateScore: math.NaN()})
		words = words[:0]
		for n := 40 + r.IntN(41); n > 0; n-- {
			words = append(words, vocab[int(float64(len(vocab))*math.Pow(r.Float64(), 3))])
		}
		ref := strings.Join(words, " ") + "."
		s.References = append(s.References, study.Reference{QuestionID: id, ID: "r" + id, Author: "x", Text: ref})
		for k, m := range models[1:] {
			noise := 0.1 + 0.08*float64(k)
			var out []string
			for _, w := range words {
				switch x := r.Float64(); {
				case x < noise/3:
					out = append(out, vocab[r.IntN(len(vocab))])
				case x < 2*noise/3:
				case x < noise:
					out = append(out, w, w)
				default:
					out = append(out, w)
				}
			}
			s.Responses = append(s.Responses, study.Response{QuestionID: id, Model: m, Text: strings.Join(out, " ") + ".",
				CostUSD: math.NaN(), InputTokens: -1, OutputTokens: -1})
			if q < 200 {
				s.Gradings = append(s.Gradings, study.Grading{Evaluator: "e1", Kind: study.Human, Round: "main", QuestionID: id, Model: m,
					Rubric: []float64{float64(1 + (q+k)%5)}, Rank: k + 1})
			}
		}
	}
	return s
}

// BenchmarkTextStage40k times the "text metrics" stage of Analyze at
// 40,000 questions (six models, 240,000 responses; 2,000 bootstrap
// replicates), with and without corpus_metrics, alternating within one
// run, and reports what the corpus metrics add to the stage's CPU and
// wall time, in %, and — the robust figure on a shared machine — the CPU
// spent in corpusMetrics against the rest of the same stage
// (cpu_corpus_share_%).
func BenchmarkTextStage40k(b *testing.B) {
	s := textBenchStudy(b, 40000)
	stage := func(off bool) (wall, cpu time.Duration) {
		corpusMetricsOff = off
		defer func() { corpusMetricsOff = false }()
		var start, end time.Time
		var cpu0, cpu1 time.Duration
		o := DefaultOptions()
		o.Resamples = 0
		o.Progress = func(st string, done, total int) {
			switch {
			case st == "text metrics":
				start, cpu0 = time.Now(), cpuTime()
			case !start.IsZero() && end.IsZero():
				end, cpu1 = time.Now(), cpuTime()
			}
		}
		if _, err := present(context.Background(), s, o); err != nil {
			b.Fatal(err)
		}
		if end.IsZero() {
			end, cpu1 = time.Now(), cpuTime()
		}
		return end.Sub(start), cpu1 - cpu0
	}
	b.ResetTimer()
	var with, without, cWith, cWithout time.Duration
	corpusClock, corpusSpent = cpuTime, 0
	defer func() { corpusClock = nil }()
	for i := 0; i < b.N; i++ {
		w, c := stage(true)
		without, cWithout = without+w, cWithout+c
		w, c = stage(false)
		with, cWith = with+w, cWith+c
	}
	n := float64(b.N)
	// Within the same runs: the CPU spent in corpusMetrics against the rest
	// of the stage it ran in (robust to the machine's load between runs).
	b.ReportMetric(corpusSpent.Seconds()/n, "cpu_s_corpus/op")
	b.ReportMetric(100*corpusSpent.Seconds()/(cWith.Seconds()-corpusSpent.Seconds()), "cpu_corpus_share_%")
	b.ReportMetric(with.Seconds()/n, "wall_s_with/op")
	b.ReportMetric(without.Seconds()/n, "wall_s_without/op")
	b.ReportMetric(cWith.Seconds()/n, "cpu_s_with/op")
	b.ReportMetric(cWithout.Seconds()/n, "cpu_s_without/op")
	b.ReportMetric(100*(cWith.Seconds()-cWithout.Seconds())/cWithout.Seconds(), "cpu_added_%")
	b.ReportMetric(100*(with.Seconds()-without.Seconds())/without.Seconds(), "wall_added_%")
}
