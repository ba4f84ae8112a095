package compare_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/euroexec/euroexec/metrics/compare"
	"github.com/euroexec/euroexec/report/tables"

	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/study"
)

func pwStudy(cs ...study.Comparison) *study.Study {
	s := &study.Study{MainRound: "main", Comparisons: cs}
	seen := map[string]bool{}
	for _, c := range cs {
		for _, m := range []string{c.ModelA, c.ModelB} {
			if !seen[m] {
				seen[m] = true
				s.Models = append(s.Models, study.Model{Name: m})
			}
		}
	}
	return s
}

func pj(ev, kind, q, a, b string, w study.Preference) study.Comparison {
	return study.Comparison{Evaluator: ev, Kind: kind, Round: "main", QuestionID: q, ModelA: a, ModelB: b, Winner: w}
}

func pwTable(t *testing.T, p report.Part, name string) []map[string]any {
	t.Helper()
	for _, tb := range p.Tables {
		if tb.Name == name {
			var out []map[string]any
			for _, r := range tb.Rows {
				m := map[string]any{}
				for i, c := range tb.Columns {
					m[c.Name] = r[i]
				}
				out = append(out, m)
			}
			return out
		}
	}
	t.Fatalf("no table %s", name)
	return nil
}

// Hand-computed: the humans' A beats B 3–1 in OLD and 1–3 in NEW (win rate
// 0.75 → 0.25; rating 1000 ± 200·log10 3 swaps sign); judge j's verdicts on
// the same four items change on one of them.
func TestComparePairwiseHand(t *testing.T) {
	A, B := study.PreferA, study.PreferB
	H, J := study.Human, study.Judge
	old := pwStudy(pj("h", H, "q1", "A", "B", A), pj("h", H, "q2", "A", "B", A), pj("h", H, "q3", "B", "A", B), pj("h", H, "q4", "A", "B", B),
		pj("j", J, "q1", "A", "B", A), pj("j", J, "q2", "A", "B", A), pj("j", J, "q3", "A", "B", A), pj("j", J, "q4", "A", "B", B))
	new := pwStudy(pj("h", H, "q1", "A", "B", B), pj("h", H, "q2", "A", "B", B), pj("h", H, "q3", "B", "A", A), pj("h", H, "q4", "A", "B", A),
		pj("j", J, "q1", "A", "B", A), pj("j", J, "q2", "B", "A", A), pj("j", J, "q3", "A", "B", A), pj("j", J, "q4", "A", "B", B))
	opt := compare.DefaultOptions()
	opt.Bootstrap = 100
	p, err := compare.Analyze(context.Background(), []compare.Run{{Label: "old", Study: old}, {Label: "new", Study: new}}, opt)
	if err != nil {
		t.Fatal(err)
	}
	rows := pwTable(t, tables.Compare(p), compare.PairwiseTable)
	get := func(pop, model, metric string) map[string]any {
		for _, r := range rows {
			if r["graders"] == pop && r["model"] == model && r["metric"] == metric {
				return r
			}
		}
		t.Fatalf("no row %s %s %s", pop, model, metric)
		return nil
	}
	r := get("humans", "A", "win_rate")
	if r["old"] != 0.75 || r["new"] != 0.25 || r["delta"] != -0.5 || r["n_old"] != int64(4) {
		t.Errorf("humans A win rate: %v", r)
	}
	l3 := 200 * math.Log10(3)
	r = get("humans", "A", "bt_rating")
	if math.Abs(r["old"].(float64)-(1000+l3)) > 1e-9 || math.Abs(r["delta"].(float64)+2*l3) > 1e-9 {
		t.Errorf("humans A rating: %v, want %v → %v", r, 1000+l3, 1000-l3)
	}
	if lo, hi := r["delta_lo"].(float64), r["delta_hi"].(float64); !(lo <= r["delta"].(float64) && r["delta"].(float64) <= hi) {
		t.Errorf("rating change outside its interval: %v", r)
	}
	d := pwTable(t, tables.Compare(p), compare.PairwiseDriftTable)
	if len(d) != 1 || d[0]["judge"] != "j" || d[0]["items"] != int64(4) || d[0]["changed"] != int64(1) || d[0]["agreement"] != 0.75 {
		t.Errorf("drift rows %v; want j: 4 items, 1 changed, agreement 0.75", d)
	}
}

// Two runs of the same truth (three models, 60 questions, one human
// population): the paired interval of the change of a model's win rate
// covers 0 in ≥ 90 of 100 simulated pairs of runs; a real change of the
// top model's strength by 1 logit is found in most.
func TestComparePairwiseSim(t *testing.T) {
	beta := map[string]float64{"a": 0.5, "b": 0, "c": -0.5}
	gen := func(r *rand.Rand, shift float64) *study.Study {
		var cs []study.Comparison
		ms := []string{"a", "b", "c"}
		for q := 0; q < 60; q++ {
			for i := 0; i < 3; i++ {
				x, y := ms[i], ms[(i+1)%3]
				bx, by := beta[x], beta[y]
				if x == "a" {
					bx += shift
				}
				if y == "a" {
					by += shift
				}
				w := study.PreferB
				if r.Float64() < 1/(1+math.Exp(by-bx)) {
					w = study.PreferA
				}
				cs = append(cs, pj(fmt.Sprint("h", r.IntN(5)), study.Human, fmt.Sprintf("q%02d", q), x, y, w))
			}
		}
		return pwStudy(cs...)
	}
	opt := compare.DefaultOptions()
	opt.Bootstrap = 200
	cover, found := 0, 0
	const seeds = 100
	for seed := range uint64(seeds) {
		r := rand.New(rand.NewPCG(seed, 77))
		for k, shift := range []float64{0, 1} {
			p, err := compare.Analyze(context.Background(), []compare.Run{{Label: "old", Study: gen(r, 0)}, {Label: "new", Study: gen(r, shift)}}, opt)
			if err != nil {
				t.Fatal(err)
			}
			for _, row := range pwTable(t, tables.Compare(p), compare.PairwiseTable) {
				if row["model"] != "a" || row["metric"] != "win_rate" {
					continue
				}
				lo, hi := row["delta_lo"].(float64), row["delta_hi"].(float64)
				if k == 0 && lo <= 0 && 0 <= hi {
					cover++
				}
				if k == 1 && lo > 0 {
					found++
				}
			}
		}
	}
	t.Logf("same truth: the win-rate change's interval covers 0 in %d of %d; a +1 logit change found in %d", cover, seeds, found)
	if cover < 90 || found < 80 {
		t.Errorf("covers 0 in %d of %d (want ≥ 90), finds the change in %d (want ≥ 80)", cover, seeds, found)
	}
}
