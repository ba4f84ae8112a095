package ranking

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/euroexec/euroexec/study"
)

// rankedBy returns the ranked model called m of res.
func rankedBy(t *testing.T, res Result, m string) Ranked {
	t.Helper()
	for _, r := range res.Models {
		if r.Model == m {
			return r
		}
	}
	t.Fatalf("no ranked model %s in %v", m, res.Models)
	return Ranked{}
}

// TestPBestAndSolveRateRanks checks P(best) and the Solve Rate rank
// intervals against cases whose answer is known without the bootstrap:
// a model better on every question is best in every replicate (P = 1,
// rank interval [1, 1]); two models with the same gradings tie in every
// replicate, which splits it (P = ½ each); and for two models whose
// per-question differences d have mean μ and SD s over n questions, the
// bootstrap share of replicates with a positive mean difference is close
// to the normal approximation Φ(μ / (s·√((n−1)/n) / √n)) (tolerance 0.03
// at 4,000 replicates and n = 60).
func TestPBestAndSolveRateRanks(t *testing.T) {
	ctx := context.Background()
	opt := DefaultOptions()
	opt.Bootstrap = 4000
	t.Run("dominance and ties", func(t *testing.T) {
		var gs []study.Grading
		for q := 0; q < 20; q++ {
			id := fmt.Sprintf("q%d", q)
			gs = append(gs, grading("h", id, "A", 5, 0), grading("h", id, "B", 2, 0), grading("h", id, "C", 2, 0))
		}
		res, err := Analyze(ctx, newStudy(gs), opt)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			m                      string
			pBest, pBestSR, lo, hi float64
		}{{"A", 1, 1, 1, 1}, {"B", 0, 0, 2.5, 2.5}, {"C", 0, 0, 2.5, 2.5}} {
			r := rankedBy(t, res, c.m)
			if r.PBest != c.pBest || r.PBestSolveRate != c.pBestSR || r.RankSolveRateLo != c.lo || r.RankSolveRateHi != c.hi {
				t.Errorf("%s: P(best) %v, by Solve Rate %v, Solve Rate rank interval [%v, %v]; want %v, %v, [%v, %v]",
					c.m, r.PBest, r.PBestSolveRate, r.RankSolveRateLo, r.RankSolveRateHi, c.pBest, c.pBestSR, c.lo, c.hi)
			}
		}
	})
	t.Run("identical models split", func(t *testing.T) {
		var gs []study.Grading
		for q := 0; q < 20; q++ {
			id := fmt.Sprintf("q%d", q)
			s := float64(1 + q%5)
			gs = append(gs, grading("h", id, "A", s, 0), grading("h", id, "B", s, 0))
		}
		res, err := Analyze(ctx, newStudy(gs), opt)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []string{"A", "B"} {
			if r := rankedBy(t, res, m); r.PBest != 0.5 || r.PBestSolveRate != 0.5 {
				t.Errorf("%s: P(best) %v and %v by Solve Rate, want 0.5 (every replicate a tie)", m, r.PBest, r.PBestSolveRate)
			}
		}
	})
	t.Run("normal approximation", func(t *testing.T) {
		rng := rand.New(rand.NewPCG(7, 7))
		for _, lower := range []bool{false, true} {
			var gs []study.Grading
			const n = 60
			var d []float64
			for q := 0; q < n; q++ {
				id := fmt.Sprintf("q%d", q)
				a, b := float64(1+rng.IntN(5)), float64(1+rng.IntN(5))
				if rng.Float64() < 0.2 {
					a = min(a+1, 5)
				}
				gs = append(gs, grading("h", id, "A", a, 0), grading("h", id, "B", b, 0))
				d = append(d, a-b)
			}
			var mu, ss float64
			for _, v := range d {
				mu += v / n
			}
			for _, v := range d {
				ss += (v - mu) * (v - mu)
			}
			se := math.Sqrt(ss/n) / math.Sqrt(n)
			want := distuv.UnitNormal.CDF(mu / se)
			st := newStudy(gs)
			st.LowerIsBetter = lower
			if lower {
				want = 1 - want
			}
			res, err := Analyze(ctx, st, opt)
			if err != nil {
				t.Fatal(err)
			}
			r := rankedBy(t, res, "A")
			if math.Abs(r.PBest-want) > 0.03 {
				t.Errorf("lower %v: P(A best) %.4f, normal approximation %.4f (μ %.3f, SE %.3f)", lower, r.PBest, want, mu, se)
			}
			if b := rankedBy(t, res, "B"); math.Abs(r.PBest+b.PBest-1) > 1e-12 {
				t.Errorf("lower %v: P(best) of A and B sum to %v, want 1", lower, r.PBest+b.PBest)
			}
		}
	})
}
