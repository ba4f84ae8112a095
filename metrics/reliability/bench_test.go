package reliability

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/euroexec/euroexec/metrics/scores"
	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/study"
)

// synthStudy is a study shaped like `euroexec sample`: nQ questions, six
// models, two of twelve human graders per question, two judges (the second
// with two runs, so its averaged scores are sometimes half points), five
// rubric attributes on 1…5 and checklists of 4–8 items.
func synthStudy(nQ int, seed uint64) *study.Study {
	r := rand.New(rand.NewPCG(seed, 3))
	attrs := []string{"A1", "A2", "A3", "A4", "A5"}
	s := &study.Study{MainRound: "main", Attributes: attrs, ScaleMin: 1, ScaleMax: 5}
	models := []string{"m1", "m2", "m3", "m4", "m5", "m6"}
	for e := 0; e < 12; e++ {
		s.Evaluators = append(s.Evaluators, study.Evaluator{ID: fmt.Sprintf("e%02d", e), Kind: study.Human})
	}
	s.Evaluators = append(s.Evaluators, study.Evaluator{ID: "j1", Kind: study.Judge}, study.Evaluator{ID: "j2", Kind: study.Judge})
	for q := 0; q < nQ; q++ {
		id := fmt.Sprintf("q%06d", q)
		items := 4 + r.IntN(5)
		qq := study.Question{ID: id}
		for i := 0; i < items; i++ {
			qq.Checklist = append(qq.Checklist, fmt.Sprintf("item %d", i+1))
		}
		s.Questions = append(s.Questions, qq)
		e1 := r.IntN(12)
		e2 := (e1 + 1 + r.IntN(11)) % 12
		type grader struct {
			id, kind, run string
		}
		gs := []grader{{fmt.Sprintf("e%02d", min(e1, e2)), study.Human, ""}, {fmt.Sprintf("e%02d", max(e1, e2)), study.Human, ""},
			{"j1", study.Judge, ""}, {"j2", study.Judge, "1"}, {"j2", study.Judge, "2"}}
		for mi, m := range models {
			lat := 4.2 - 0.3*float64(mi) + r.NormFloat64()*0.5
			for _, g := range gs {
				gr := study.Grading{Evaluator: g.id, Kind: g.kind, Round: "main", QuestionID: id, Model: m, Run: g.run}
				for range attrs {
					gr.Rubric = append(gr.Rubric, math.Max(1, math.Min(5, math.Round(lat+r.NormFloat64()*0.7))))
				}
				for k := 0; k < items; k++ {
					u := r.Float64()
					switch {
					case u < 0.03:
						gr.Verdicts = append(gr.Verdicts, study.NA)
					case u < (lat-1.5)/4:
						gr.Verdicts = append(gr.Verdicts, study.Hit)
					case u < (lat-1.5)/4+0.2:
						gr.Verdicts = append(gr.Verdicts, study.Partial)
					default:
						gr.Verdicts = append(gr.Verdicts, study.Miss)
					}
				}
				s.Gradings = append(s.Gradings, gr)
			}
		}
	}
	return s
}

// sampleStudy is synthStudy shaped more like `euroexec sample` (the 40,000
// question study of issue 19): judge j2 grades in half points over three
// runs, so that its averaged scores are in sixths and an attribute of
// humans+judge:j2 has about 25 distinct values, more than smallV (the wide
// ordinal layout, the largest α kernel at that size).
func sampleStudy(nQ int, seed uint64) *study.Study {
	s := synthStudy(nQ, seed)
	var extra []study.Grading
	for i := range s.Gradings {
		g := &s.Gradings[i]
		if g.Evaluator != "j2" {
			continue
		}
		for a, v := range g.Rubric {
			if (i+a)%3 == 0 && v < 5 {
				g.Rubric[a] = v + 0.5
			}
		}
		if g.Run == "1" {
			g3 := *g
			g3.Run = "3"
			g3.Rubric = slices.Clone(g.Rubric)
			for a, v := range g3.Rubric {
				if (i+a)%2 == 0 && v > 1 {
					g3.Rubric[a] = v - 0.5
				}
			}
			extra = append(extra, g3)
		}
	}
	s.Gradings = append(s.Gradings, extra...)
	return s
}

// instrumentCase is one (population, instrument) of the synthetic study
// with its new rows and the reference replicate functions.
type instrumentCase struct {
	name   string
	groups []*repGroup
	ref    []func(cnt []int, out []float64)
	widths []int
	// reported says, per output column of groups, whether a row of the
	// table reports it (the kernels compute ICC(2,·) even when the table
	// leaves it out)
	reported []bool
}

// instrumentCases returns every (population, instrument) of s with the
// replicate groups of its rows and, as reference, metrics/stats on the
// duplicated data (dupRef).
func instrumentCases(s *study.Study) ([]instrumentCase, int) {
	b := newBuilder(s, computeMain(s), s.MainRound)
	var out []instrumentCase
	add := func(name string, d ratings, makers ...func(ratings) []*row) {
		c := instrumentCase{name: name}
		for _, mk := range makers {
			rows := mk(d)
			var g *repGroup
			for _, r := range rows {
				if r.grp != nil {
					g = r.grp
				}
			}
			if g == nil {
				continue
			}
			rep := make([]bool, g.n)
			for _, r := range rows {
				if r.grp == g {
					rep[r.gi] = true
				}
			}
			c.groups = append(c.groups, g)
			c.ref = append(c.ref, dupRef(d, mk))
			c.widths = append(c.widths, g.n)
			c.reported = append(c.reported, rep...)
		}
		out = append(out, c)
	}
	alpha := func(levels ...string) func(ratings) []*row {
		return func(x ratings) []*row { return alphaRows(x, levels, "") }
	}
	kappa := func(labels []int, weighted bool) func(ratings) []*row {
		return func(x ratings) []*row { r, _ := kappaRows(x, labelsOf(labels, 1), weighted); return r }
	}
	icc := func(x ratings) []*row { r, _ := iccRows(x); return r }
	for _, p := range studyPopulations(b) {
		d := b.collect(p, 0, func(g *scores.Grading, _ int) float64 { return g.Rubric[1] })
		add(p.name+" rubric:A2", d, alpha(AlphaNominal, AlphaOrdinal, AlphaInterval), kappa([]int{1, 2, 3, 4, 5}, true), icc)
		d = b.collect(p, 0, func(g *scores.Grading, _ int) float64 { return g.RubricMean })
		add(p.name+" rubric_mean", d, alpha(AlphaOrdinal, AlphaInterval), icc)
		d = b.collect(p, b.maxItems, func(g *scores.Grading, it int) float64 {
			if it < len(g.Verdicts) {
				return verdictCode(g.Verdicts[it])
			}
			return math.NaN()
		})
		add(p.name+" checklist", d, alpha(AlphaNominal), kappa([]int{1, 2, 3}, false))
	}
	return out, len(b.questions)
}

// newBootstrap runs the packed groups through the counts engine in blocks
// of block replicates (0: the default, as bootstrapRows does; 1: one
// replicate at a time, as before blocks).
func newBootstrap(t testing.TB, groups []*repGroup, nQ, B int, seed uint64, block int) [][]float64 {
	width := 0
	for _, g := range groups {
		width += g.n
	}
	reps, err := stats.ClusterBootstrapCountBlocks(context.Background(), nQ, B, seed, width, block, func() stats.CountBlockStat {
		sc := &scratch{}
		var sub [][]float64
		var bc blockCounts
		return func(cnt []int32, out [][]float64) {
			bc.fill(cnt, len(out))
			o := 0
			for _, g := range groups {
				sub = sub[:0]
				for _, row := range out {
					sub = append(sub, row[o:o+g.n])
				}
				g.k.eval(&bc, sub, sc)
				o += g.n
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return reps
}

// BenchmarkBootstrap compares the previous replicate statistics (old, the
// reference implementation on ClusterBootstrap) with the packed ones on the
// counts engine one replicate at a time (packed) and in blocks of
// stats.DefaultCountBlock replicates (new), on the same study in one run:
// every (population, instrument) of TestPackedEqualsReference, 200
// replicates. EUROEXEC_BENCH_QUESTIONS sets the number of questions
// (default 2,000; the per-question data outgrow the caches from about
// 10,000, where blocks pay most).
func BenchmarkBootstrap(b *testing.B) {
	nQ := 2000
	if v, err := strconv.Atoi(os.Getenv("EUROEXEC_BENCH_QUESTIONS")); err == nil && v > 0 {
		nQ = v
	}
	s := synthStudy(nQ, 5)
	cases, nQ := instrumentCases(s)
	const B = 200
	for _, v := range []struct {
		name  string
		block int
	}{{"packed", 1}, {"new", 0}} {
		b.Run(v.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				for _, c := range cases {
					newBootstrap(b, c.groups, nQ, B, 9, v.block)
				}
			}
		})
	}
}

// Analyze bootstraps one population at a time (so that only one
// population's packed statistics are held); its intervals equal those of
// one bootstrap over every population's rows at once, bit for bit.
func TestPerPopulationBootstrapEqualsJoint(t *testing.T) {
	s := synthStudy(120, 8)
	opt := DefaultOptions()
	opt.Bootstrap, opt.Seed = 150, 4
	res := analyze(t, s, opt)
	b := newBuilder(s, computeMain(s), s.MainRound)
	var joint []*row
	for _, p := range []population{{name: "humans"}, {name: "humans+judge:j1", judge: "j1"}, {name: "humans+judge:j2", judge: "j2"}} {
		pr, _, _ := b.analyzePopulation(s, p, wholeLabels(1, 5))
		joint = append(joint, pr...)
	}
	if err := bootstrapRows(context.Background(), joint, len(b.questions), opt); err != nil {
		t.Fatal(err)
	}
	tab := tableRows(res)
	if len(tab) != len(joint) {
		t.Fatalf("Analyze gave %d rows, the joint build %d", len(tab), len(joint))
	}
	same := func(a, b float64) bool {
		return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
	}
	finite := 0
	for i, r := range joint {
		lo, hi := tab[i][6].(float64), tab[i][7].(float64)
		if !same(lo, r.lo) || !same(hi, r.hi) {
			t.Errorf("row %d (%s %s %s): Analyze [%v, %v], joint bootstrap [%v, %v]", i, r.population, r.instrument, r.statistic, lo, hi, r.lo, r.hi)
		}
		if !math.IsNaN(r.lo) {
			finite++
		}
	}
	if finite < len(joint)/2 {
		t.Errorf("only %d of %d rows have an interval; the comparison says little", finite, len(joint))
	}
}
