package rateradjust

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// fullOLS fits score = question + model + grader by least squares on the
// full dummy design (every question's own column, no absorption), with
// gonum's QR solver, and the cluster-robust (CR1, questions) variance from
// the full design's explicit sandwich: an independent path to the same
// estimates and standard errors (with fixed effects nested in the clusters
// the partialled-out and the full design give the same sandwich for the
// remaining coefficients; Cameron and Miller 2015, §IV.A). It returns, per
// model, the effect centred over the models plus the grand mean, and its
// standard error.
func fullOLS(t *testing.T, obs []Obs) (adj, se map[string]float64) {
	t.Helper()
	idx := func(key func(Obs) string) (map[string]int, []string) {
		m := map[string]int{}
		var l []string
		for _, o := range obs {
			if _, ok := m[key(o)]; !ok {
				m[key(o)] = 0
				l = append(l, key(o))
			}
		}
		sort.Strings(l)
		for i, k := range l {
			m[k] = i
		}
		return m, l
	}
	qi, qs := idx(func(o Obs) string { return o.Question })
	mi, ms := idx(func(o Obs) string { return o.Model })
	gi, gs := idx(func(o Obs) string { return o.Grader })
	p := len(qs) + len(ms) - 1 + len(gs) - 1
	x := mat.NewDense(len(obs), p, nil)
	y := mat.NewVecDense(len(obs), nil)
	var grand float64
	for r, o := range obs {
		x.Set(r, qi[o.Question], 1)
		if m := mi[o.Model]; m > 0 {
			x.Set(r, len(qs)+m-1, 1)
		}
		if g := gi[o.Grader]; g > 0 {
			x.Set(r, len(qs)+len(ms)-1+g-1, 1)
		}
		y.SetVec(r, o.Score)
		grand += o.Score
	}
	grand /= float64(len(obs))
	var beta mat.VecDense
	if err := beta.SolveVec(x, y); err != nil {
		t.Fatal(err)
	}
	var fit, res mat.VecDense
	fit.MulVec(x, &beta)
	res.SubVec(y, &fit)
	meat := mat.NewDense(p, p, nil)
	for q := range qs {
		s := mat.NewVecDense(p, nil)
		for r, o := range obs {
			if qi[o.Question] == q {
				s.AddScaledVec(s, res.AtVec(r), x.RowView(r))
			}
		}
		var o mat.Dense
		o.Outer(1, s, s)
		meat.Add(meat, &o)
	}
	var xtx, inv, v, tmp mat.Dense
	xtx.Mul(x.T(), x)
	if err := inv.Inverse(&xtx); err != nil {
		t.Fatal(err)
	}
	tmp.Mul(&inv, meat)
	v.Mul(&tmp, &inv)
	g := float64(len(qs))
	v.Scale(g/(g-1), &v)
	adj, se = map[string]float64{}, map[string]float64{}
	K := len(ms)
	for m, name := range ms {
		a := mat.NewVecDense(p, nil)
		est := grand
		for k := 1; k < K; k++ {
			w := -1 / float64(K)
			if k == m {
				w++
			}
			a.SetVec(len(qs)+k-1, w)
			est += w * beta.AtVec(len(qs)+k-1)
		}
		var va mat.VecDense
		va.MulVec(&v, a)
		adj[name], se[name] = est, math.Sqrt(mat.Dot(a, &va))
	}
	return adj, se
}

// simulate draws an unbalanced study: nQ questions, models with true
// effects, graders with leniencies; each response is graded by two
// graders drawn with model-dependent preferences (the lenient grader
// grades model A far more often).
func simulate(seed uint64, nQ int, effect map[string]float64, leniency map[string]float64, prefer map[string]string) []Obs {
	r := rand.New(rand.NewPCG(seed, 3))
	var models, graders []string
	for m := range effect {
		models = append(models, m)
	}
	for g := range leniency {
		graders = append(graders, g)
	}
	sort.Strings(models)
	sort.Strings(graders)
	var obs []Obs
	for q := 0; q < nQ; q++ {
		qe := r.NormFloat64()
		for _, m := range models {
			chosen := map[string]bool{}
			for len(chosen) < 2 {
				g := graders[r.IntN(len(graders))]
				if pg, ok := prefer[m]; ok && r.Float64() < 0.8 {
					g = pg
				}
				chosen[g] = true
			}
			for _, g := range graders {
				if chosen[g] {
					obs = append(obs, Obs{Question: fmt.Sprintf("q%03d", q), Model: m, Grader: g,
						Score: 3 + qe + effect[m] + leniency[g] + 0.5*r.NormFloat64()})
				}
			}
		}
	}
	return obs
}

func TestEstimateMatchesFullOLS(t *testing.T) {
	obs := simulate(1, 60, map[string]float64{"A": 0, "B": 0.3, "C": -0.2},
		map[string]float64{"g1": 1, "g2": 0, "g3": -0.5, "g4": 0.2}, map[string]string{"A": "g1"})
	// a few NaN scores are left out
	obs = append(obs, Obs{"q000", "A", "g2", math.NaN()})
	res, err := Estimate(context.Background(), obs, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	want, wantSE := fullOLS(t, obs[:len(obs)-1])
	if !res.Identified || res.Unused != 1 || res.Balanced {
		t.Fatalf("identified %v unused %d balanced %v; want true, 1, false", res.Identified, res.Unused, res.Balanced)
	}
	for _, e := range res.Effects {
		if math.Abs(e.Adjusted-want[e.Model]) > 1e-9 || math.Abs(e.SE-wantSE[e.Model]) > 1e-9 {
			t.Errorf("%s: adjusted %.12f se %.12f, full OLS %.12f se %.12f", e.Model, e.Adjusted, e.SE, want[e.Model], wantSE[e.Model])
		}
	}
}

// TestKnownTruth: the lenient grader (+1.5) grades model A 80 % of the time,
// so A's raw mean is inflated and A ranks first raw; A's true effect is the
// lowest. The adjusted effects recover the true differences, and the
// intervals cover them.
func TestKnownTruth(t *testing.T) {
	effect := map[string]float64{"A": -0.1, "B": 0.1, "C": 0}
	obs := simulate(7, 300, effect, map[string]float64{"g1": 1.5, "g2": 0, "g3": -0.5, "g4": 0}, map[string]string{"A": "g1"})
	res, err := Estimate(context.Background(), obs, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]Effect{}
	for _, e := range res.Effects {
		by[e.Model] = e
	}
	for _, pair := range [][2]string{{"B", "A"}, {"C", "A"}, {"B", "C"}} {
		got := by[pair[0]].Adjusted - by[pair[1]].Adjusted
		truth := effect[pair[0]] - effect[pair[1]]
		raw := by[pair[0]].Raw - by[pair[1]].Raw
		if math.Abs(got-truth) > 0.06 {
			t.Errorf("%s − %s: adjusted %.3f, truth %.3f (raw %.3f)", pair[0], pair[1], got, truth, raw)
		}
	}
	if !(by["A"].Raw > by["B"].Raw) {
		t.Fatalf("the simulation should inflate A's raw mean: %+v", by)
	}
	if !res.OrderChanged(true) {
		t.Error("adjustment should change the order")
	}
	for _, e := range res.Effects {
		if !(e.Lo <= e.Adjusted && e.Adjusted <= e.Hi) {
			t.Errorf("%s: interval [%v, %v] misses %v", e.Model, e.Lo, e.Hi, e.Adjusted)
		}
	}
}

// TestBalanced: every grader grades every model once per question, so the
// adjusted means equal the raw means and the order cannot change.
func TestBalanced(t *testing.T) {
	var obs []Obs
	r := rand.New(rand.NewPCG(2, 2))
	for q := 0; q < 10; q++ {
		for _, m := range []string{"A", "B", "C"} {
			for _, g := range []string{"g1", "g2"} {
				obs = append(obs, Obs{fmt.Sprint(q), m, g, float64(1 + r.IntN(5))})
			}
		}
	}
	res, err := Estimate(context.Background(), obs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Balanced {
		t.Error("not balanced")
	}
	for _, e := range res.Effects {
		if math.Abs(e.Adjusted-e.Raw) > 1e-12 {
			t.Errorf("%s: adjusted %v, raw %v", e.Model, e.Adjusted, e.Raw)
		}
	}
	if res.OrderChanged(true) {
		t.Error("order changed in a balanced design")
	}
}

// TestNotIdentified: model B is graded only by g2, who grades nothing else,
// on a question no one else graded: B's effect cannot be told from g2's.
func TestNotIdentified(t *testing.T) {
	obs := []Obs{{"q1", "A", "g1", 3}, {"q1", "C", "g1", 4}, {"q2", "A", "g1", 2}, {"q2", "C", "g1", 5}, {"q3", "B", "g2", 4}}
	res, err := Estimate(context.Background(), obs, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if res.Identified {
		t.Errorf("identified: %+v", res.Effects)
	}
	for _, e := range res.Effects {
		if !math.IsNaN(e.Adjusted) || math.IsNaN(e.Raw) {
			t.Errorf("%s: adjusted %v raw %v; want NaN and a number", e.Model, e.Adjusted, e.Raw)
		}
	}
	if res.OrderChanged(true) {
		t.Error("order changed without estimates")
	}
}

// TestCoverage: over 300 simulated unbalanced studies of 80 questions, the
// 95 % interval of each model's centred effect (Adjusted minus the grand
// mean, against the true effect centred over the models) covers the truth
// in at least 92 % of the intervals.
func TestCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation")
	}
	effect := map[string]float64{"A": -0.1, "B": 0.1, "C": 0.3}
	truth := map[string]float64{"A": -0.2, "B": 0, "C": 0.2} // centred
	covered, total := 0, 0
	for seed := range 300 {
		obs := simulate(uint64(100+seed), 80, effect, map[string]float64{"g1": 1, "g2": 0, "g3": -0.5, "g4": 0}, map[string]string{"A": "g1"})
		res, err := Estimate(context.Background(), obs, DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		var grand float64
		for _, o := range obs {
			grand += o.Score
		}
		grand /= float64(len(obs))
		for _, e := range res.Effects {
			total++
			if e.Lo-grand <= truth[e.Model] && truth[e.Model] <= e.Hi-grand {
				covered++
			}
		}
	}
	rate := float64(covered) / float64(total)
	t.Logf("coverage %.3f over %d intervals", rate, total)
	if rate < 0.92 {
		t.Errorf("coverage %.3f < 0.92", rate)
	}
}

// BenchmarkEstimate40k: 40,000 questions × 6 models × 2 of 10 graders
// (480,000 gradings).
func BenchmarkEstimate40k(b *testing.B) {
	eff := map[string]float64{"m1": 0, "m2": 0.1, "m3": 0.2, "m4": -0.1, "m5": 0.3, "m6": 0}
	len := map[string]float64{}
	for g := 0; g < 10; g++ {
		len[fmt.Sprintf("g%d", g)] = 0.1 * float64(g%3)
	}
	obs := simulate(1, 40000, eff, len, map[string]string{"m1": "g1"})
	b.ResetTimer()
	for range b.N {
		if _, err := Estimate(context.Background(), obs, DefaultOptions()); err != nil {
			b.Fatal(err)
		}
	}
}

// TestMissingModelNotBalanced: each question's graders grade its models
// equally, but model C is missing on half the questions, which are the
// hard ones: the raw mean of C is flattered, the design is not balanced,
// and the adjusted means follow the full least-squares fit.
func TestMissingModelNotBalanced(t *testing.T) {
	var obs []Obs
	for q := 0; q < 8; q++ {
		hard := float64(q % 2 * 2)
		for _, m := range []string{"A", "B", "C"} {
			if m == "C" && q%2 == 1 {
				continue
			}
			for _, g := range []string{"g1", "g2"} {
				obs = append(obs, Obs{fmt.Sprint(q), m, g, 4 - hard + float64(len(m)+q%3)*0.1})
			}
		}
	}
	res, err := Estimate(context.Background(), obs, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if res.Balanced {
		t.Error("balanced although C is missing on half the questions")
	}
	want, _ := fullOLS(t, obs)
	for _, e := range res.Effects {
		if math.Abs(e.Adjusted-want[e.Model]) > 1e-9 {
			t.Errorf("%s: adjusted %v, full OLS %v", e.Model, e.Adjusted, want[e.Model])
		}
	}
}

// TestDeterministic: the same gradings give the same bits every time (no
// sum runs in a map's order).
func TestDeterministic(t *testing.T) {
	obs := simulate(4, 60, map[string]float64{"A": 0, "B": 0.2, "C": 0.1}, map[string]float64{"g1": 0.5, "g2": 0, "g3": -0.3}, map[string]string{"B": "g1"})
	first, err := Estimate(context.Background(), obs, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for range 20 {
		again, _ := Estimate(context.Background(), obs, DefaultOptions())
		for i := range first.Effects {
			if first.Effects[i] != again.Effects[i] {
				t.Fatalf("%+v != %+v", first.Effects[i], again.Effects[i])
			}
		}
	}
}
