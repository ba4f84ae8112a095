package reliability

import (
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"github.com/euroexec/euroexec/metrics/analysis"
	"github.com/euroexec/euroexec/metrics/scores"
)

// domainOfOld is the sorted, deduplicated values of d, as alphaRows built
// it before domainOf.
func domainOfOld(d ratings) []float64 {
	var domain []float64
	for _, ru := range d.units {
		for _, v := range ru.vals {
			domain = append(domain, v.v)
		}
	}
	slices.Sort(domain)
	return slices.Compact(domain)
}

// checkCoincidences checks that newCoincidences builds exactly the sums of
// newCoincidencesOld (the builder before it looked values up in a table
// and kept one slab of entries), for the nominal/interval and the ordinal
// layout.
func checkCoincidences(t *testing.T, name string, d ratings) {
	t.Helper()
	domain := domainOf(d)
	if old := domainOfOld(d); !slices.Equal(domain, old) {
		t.Errorf("%s: domainOf %v, sorted and compacted values %v", name, domain, old)
	}
	for _, ordinal := range []bool{false, true} {
		got, want := newCoincidences(d, domain, ordinal), newCoincidencesOld(d, domain, ordinal)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s (ordinal %v, %d values): got %+v, old %+v", name, ordinal, len(domain), got, want)
		}
		if want.nQ == 0 {
			t.Errorf("%s: no question has a pairable unit; the comparison says little", name)
		}
	}
}

// TestCoincidencesEqualOld: on every instrument of every population of a
// generated study (rubric attributes on a 1–5 scale: the table lookup; the
// rubric mean with half points: the binary search; checklist codes) and on
// hand-made ratings (21 values, more than smallV; a span too wide for the
// table; zeros of both signs; negative values; units of one value,
// skipped; units not in question order), the
// coincidence sums equal the old builder's bit for bit.
func TestCoincidencesEqualOld(t *testing.T) {
	s := synthStudy(300, 11)
	b := newBuilder(s, computeMain(s), s.MainRound)
	pops := []population{{name: "humans"}}
	for _, e := range b.evaluators {
		if b.kind[e] == analysis.Judge {
			pops = append(pops, population{name: "humans+judge:" + e, judge: e})
		}
	}
	for _, p := range pops {
		for a, name := range s.Attributes {
			checkCoincidences(t, p.name+" "+name, b.collect(p, 0, func(g *scores.Grading, _ int) float64 { return g.Rubric[a] }))
		}
		checkCoincidences(t, p.name+" rubric_mean", b.collect(p, 0, func(g *scores.Grading, _ int) float64 { return g.RubricMean }))
		checkCoincidences(t, p.name+" checklist", b.collect(p, b.maxItems, func(g *scores.Grading, it int) float64 {
			if it < len(g.Verdicts) {
				return verdictCode(g.Verdicts[it])
			}
			return math.NaN()
		}))
	}
	r := rand.New(rand.NewPCG(8, 9))
	for _, c := range []struct {
		name  string
		value func() float64
	}{
		{"wide scale", func() float64 { return float64(r.IntN(21)) }},
		{"wide span", func() float64 { return float64(r.IntN(3) * 5000) }},
		{"signed zeros", func() float64 { return []float64{0, math.Copysign(0, -1), 1, 2.5}[r.IntN(4)] }},
		{"negative", func() float64 { return float64(r.IntN(7) - 3) }},
	} {
		var d ratings
		for g := range 5 {
			d.graders = append(d.graders, string(rune('a'+g)))
		}
		for q := range 60 {
			for range 1 + r.IntN(3) {
				ru := rUnit{q: q}
				for _, g := range r.Perm(5)[:1+r.IntN(5)] {
					ru.vals = append(ru.vals, rVal{g, c.value()})
				}
				d.units = append(d.units, ru)
			}
		}
		checkCoincidences(t, c.name, d)
		if c.name == "wide scale" {
			// units not in question order: visited by question, each
			// question's in their order
			r.Shuffle(len(d.units), func(i, j int) { d.units[i], d.units[j] = d.units[j], d.units[i] })
			checkCoincidences(t, "shuffled units", d)
		}
	}
}

// coEntry is one coincidence entry of newCoincidencesOld.
type coEntry struct {
	c, k int
	v    float64
}

// newCoincidencesOld is newCoincidences before the value table and the
// single slab of entries (commit 954eb51): the oracle of
// TestCoincidencesEqualOld.
func newCoincidencesOld(d ratings, domain []float64, ordinal bool) *coincidences {
	co := &coincidences{domain: domain}
	pos := make(map[float64]int, len(domain))
	for i, v := range domain {
		pos[v] = i
	}
	V := len(domain)
	cnt := make([]int, V)
	var perQ [][]coEntry // by question index, only while building
	for _, ru := range d.units {
		m := len(ru.vals)
		if m < 2 {
			continue
		}
		clear(cnt)
		for _, v := range ru.vals {
			cnt[pos[v.v]]++
		}
		den := float64(m - 1)
		for c := 0; c < V; c++ {
			if cnt[c] == 0 {
				continue
			}
			for k := 0; k < V; k++ {
				nk := cnt[k]
				if c == k {
					nk--
				}
				if nk > 0 {
					for len(perQ) <= ru.q {
						perQ = append(perQ, nil)
					}
					perQ[ru.q] = append(perQ[ru.q], coEntry{c, k, float64(cnt[c]*nk) / den})
				}
			}
		}
	}
	nQ := len(perQ)
	co.nQ = nQ
	co.doNom, co.doInt = make([]float64, nQ), make([]float64, nQ)
	co.mStart = make([]int32, nQ+1)
	if V <= smallV {
		co.mD = make([]float64, nQ*V)
	}
	if ordinal {
		co.eStart = make([]int32, nQ+1)
	}
	m := make([]float64, V)
	seen := make([]bool, V)
	var keys []int
	for q, es := range perQ {
		keys = keys[:0]
		for _, e := range es {
			if !seen[e.c] {
				seen[e.c] = true
				keys = append(keys, e.c)
			}
			m[e.c] += e.v
			if e.c != e.k {
				co.doNom[q] += e.v
				d := domain[e.c] - domain[e.k]
				co.doInt[q] += e.v * d * d
				if ordinal {
					if V <= smallV {
						co.eCK = append(co.eCK, int32(e.c*V+e.k))
					} else {
						co.eC = append(co.eC, int32(e.c))
						co.eK = append(co.eK, int32(e.k))
					}
					co.eV = append(co.eV, e.v)
				}
			}
		}
		for _, c := range keys {
			if co.mD != nil {
				co.mD[q*V+c] = m[c]
			} else {
				co.mC = append(co.mC, int32(c))
				co.mN = append(co.mN, m[c])
			}
			m[c], seen[c] = 0, false
		}
		co.mStart[q+1] = int32(len(co.mC))
		if ordinal {
			co.eStart[q+1] = int32(len(co.eV))
		}
		perQ[q] = nil
	}
	return co
}

// BenchmarkCoincidences builds the coincidence sums of every instrument of
// the humans+judge:j2 population (the largest) of a generated study of
// EUROEXEC_BENCH_QUESTIONS questions (default 5,000) with the old builder
// and the new one, in the same run.
func BenchmarkCoincidences(b *testing.B) {
	nQ := 5000
	if v, err := strconv.Atoi(os.Getenv("EUROEXEC_BENCH_QUESTIONS")); err == nil && v > 0 {
		nQ = v
	}
	s := synthStudy(nQ, 5)
	bl := newBuilder(s, computeMain(s), s.MainRound)
	p := population{name: "humans+judge:j2", judge: "j2"}
	var ds []ratings
	for a := range s.Attributes {
		ds = append(ds, bl.collect(p, 0, func(g *scores.Grading, _ int) float64 { return g.Rubric[a] }))
	}
	ds = append(ds, bl.collect(p, 0, func(g *scores.Grading, _ int) float64 { return g.RubricMean }))
	ds = append(ds, bl.collect(p, bl.maxItems, func(g *scores.Grading, it int) float64 {
		if it < len(g.Verdicts) {
			return verdictCode(g.Verdicts[it])
		}
		return math.NaN()
	}))
	domains := make([][]float64, len(ds))
	for i, d := range ds {
		domains[i] = domainOf(d)
	}
	for _, v := range []struct {
		name string
		f    func(ratings, []float64, bool) *coincidences
	}{{"old", newCoincidencesOld}, {"new", newCoincidences}} {
		b.Run(v.name, func(b *testing.B) {
			b.ReportAllocs()
			c0 := cpuSeconds()
			for b.Loop() {
				for i, d := range ds {
					v.f(d, domains[i], true)
				}
			}
			b.ReportMetric((cpuSeconds()-c0)/float64(b.N), "cpu-s/op")
		})
	}
}

// compressCellsOld is compressCells before it sorted question by question
// (commit 954eb51): the oracle of TestCompressCellsEqualsOld.
func compressCellsOld(cs []cell) []cell {
	slices.SortFunc(cs, func(a, b cell) int {
		if a.q != b.q {
			return int(a.q - b.q)
		}
		if a.i != b.i {
			return int(a.i - b.i)
		}
		return int(a.j - b.j)
	})
	out := cs[:0]
	for _, c := range cs {
		if n := len(out); n > 0 && out[n-1].q == c.q && out[n-1].i == c.i && out[n-1].j == c.j {
			out[n-1].w += c.w
			continue
		}
		out = append(out, c)
	}
	return out
}

// TestCompressCellsEqualsOld: cells in question order (sorted question by
// question) and in any order (sorted whole) merge to the old result.
func TestCompressCellsEqualsOld(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, c := range []struct {
		name    string
		ordered bool
		n       int
	}{{"empty", true, 0}, {"one", true, 1}, {"question order", true, 3000}, {"any order", false, 3000}} {
		var cs []cell
		for q := 0; len(cs) < c.n; q += r.IntN(3) {
			for range 1 + r.IntN(20) {
				cs = append(cs, cell{int32(q), int32(r.IntN(4)), int32(r.IntN(4)), int32(1 + r.IntN(2))})
			}
		}
		cs = cs[:min(len(cs), c.n)]
		if !c.ordered {
			r.Shuffle(len(cs), func(i, j int) { cs[i], cs[j] = cs[j], cs[i] })
		}
		got, want := compressCells(slices.Clone(cs)), compressCellsOld(slices.Clone(cs))
		if !slices.Equal(got, want) {
			t.Errorf("%s: got %d cells %v…, old %d cells %v…", c.name, len(got), got[:min(5, len(got))], len(want), want[:min(5, len(want))])
		}
		if c.n > 1 && len(want) >= len(cs) {
			t.Errorf("%s: nothing merged; the comparison says little", c.name)
		}
	}
}
