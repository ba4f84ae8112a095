package pairwise

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/study"
)

// arenaStudy is a Chatbot-Arena-scale study: 100 models, 50,000 questions,
// 12 battles per question judged once each by one of 1,000 human voters
// (600,000 judgments) and 4 more judged by each of 2 judges in a random
// order (400,000 judgments; 1,000,000 in all). Outcomes follow a
// Bradley–Terry model with 10 % ties. Every judged response has a length
// and markdown counts, so the length and style model is fitted too.
func arenaStudy() *study.Study {
	r := rand.New(rand.NewPCG(7, 7))
	const nm, nq = 100, 50000
	models := make([]string, nm)
	beta := make([]float64, nm)
	for i := range models {
		models[i] = fmt.Sprintf("model-%03d", i)
		beta[i] = r.NormFloat64()
	}
	voters := make([]string, 1000)
	for i := range voters {
		voters[i] = fmt.Sprintf("voter-%04d", i)
	}
	s := &study.Study{MainRound: "main", Comparisons: make([]study.Comparison, 0, 1000000)}
	outcome := func(a, b int) study.Preference {
		if r.Float64() < 0.1 {
			return study.Tie
		}
		if r.Float64() < 1/(1+math.Exp(beta[b]-beta[a])) {
			return study.PreferA
		}
		return study.PreferB
	}
	for q := 0; q < nq; q++ {
		qid := fmt.Sprintf("q%05d", q)
		seen := map[int]bool{}
		for k := 0; k < 16; k++ {
			a := r.IntN(nm)
			b := (a + 1 + r.IntN(nm-1)) % nm
			for _, m := range []int{a, b} {
				if !seen[m] {
					seen[m] = true
					s.Responses = append(s.Responses, study.Response{QuestionID: qid, Model: models[m], Chars: 200 + r.IntN(3000),
						Headers: int32(r.IntN(4)), ListItems: int32(r.IntN(10)), Bold: int32(r.IntN(6)), HasStyle: true})
				}
			}
			if k < 12 {
				s.Comparisons = append(s.Comparisons, study.Comparison{Evaluator: voters[r.IntN(len(voters))], Kind: study.Human,
					Round: "main", QuestionID: qid, ModelA: models[a], ModelB: models[b], Winner: outcome(a, b)})
			} else {
				// the last 4 battles: judged by both judges, each in its own order
				for _, j := range []string{"judge-1", "judge-2"} {
					x, y := a, b
					if r.IntN(2) == 0 {
						x, y = b, a
					}
					s.Comparisons = append(s.Comparisons, study.Comparison{Evaluator: j, Kind: study.Judge,
						Round: "main", QuestionID: qid, ModelA: models[x], ModelB: models[y], Winner: outcome(x, y)})
				}
			}
		}
	}
	slices.SortFunc(s.Responses, func(x, y study.Response) int {
		if c := strings.Compare(x.QuestionID, y.QuestionID); c != 0 {
			return c
		}
		return strings.Compare(x.Model, y.Model)
	})
	return s
}

// BenchmarkArena analyses 1,000,000 judgments (100 models, 50,000
// questions) with 2,000 bootstrap replicates and the length and style
// model. Target: < 60 s, < 2 GB.
func BenchmarkArena(b *testing.B) {
	s := arenaStudy()
	runtime.GC()
	b.ResetTimer()
	opt := DefaultOptions()
	if n := os.Getenv("PAIRWISE_BENCH_BOOTSTRAP"); n != "" {
		opt.Bootstrap, _ = strconv.Atoi(n)
	}
	for i := 0; i < b.N; i++ {
		res, err := Analyze(context.Background(), s, opt)
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Populations) == 0 || !res.Populations[0].HasLength || !res.Populations[0].HasModel || res.Populations[0].Model.Failed {
			b.Fatalf("%d populations, length model %+v", len(res.Populations), res.Populations[0].Model)
		}
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.Sys)/(1<<20), "MB-sys")
	b.ReportMetric(float64(len(s.Comparisons)), "judgments")
}
