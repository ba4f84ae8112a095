package reliability

import (
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"testing"
)

// untypedGroups returns the population groups of sampleStudy(nQ, seed)
// built with (typed) and without (untyped: maxOrdTypes = 0) typedEntries.
func untypedGroups(nQ int, seed uint64) (typed, untyped [][]*repGroup, n int) {
	typed, n = populationGroups(sampleStudy(nQ, seed))
	defer func(m int) { maxOrdTypes = m }(maxOrdTypes)
	maxOrdTypes = 0
	untyped, _ = populationGroups(sampleStudy(nQ, seed))
	return typed, untyped, n
}

// The α kernels on typedEntries give every replicate the values they give
// on the layout without types (wideEntries), bit for bit, on every population of sampleStudy
// (rubric scales of 5 and of about 25 values, the checklist), whatever
// the number of cores and the block size.
func TestTypedEqualsUntyped(t *testing.T) {
	typed, untyped, nQ := untypedGroups(300, 17)
	kinds := map[reflect.Type]int{}
	for pi := range typed {
		for gi, g := range typed[pi] {
			k, ok := g.k.(*alphaKernel)
			if !ok || k.co.ord == nil {
				continue
			}
			kinds[reflect.TypeOf(k.co.ord)]++
			kinds[reflect.TypeOf(untyped[pi][gi].k.(*alphaKernel).co.ord)]++
		}
	}
	if kinds[reflect.TypeOf(&typedEntries{})] == 0 || kinds[reflect.TypeOf(&wideEntries{})] == 0 {
		t.Fatalf("layouts %v: the test means typed entries against the untyped layout", kinds)
	}
	const B = 150
	for _, procs := range []int{1, 2} {
		for _, block := range []int{1, 5, repBlock} {
			for pi := range typed {
				want := popBootstrapProcs(t, untyped[pi], nQ, B, 3, repBlock, 1)
				got := popBootstrapProcs(t, typed[pi], nQ, B, 3, block, procs)
				checkSameReplicates(t, got, want)
			}
		}
	}
}

// popBootstrapProcs is popBootstrap (the new kernels) with GOMAXPROCS
// procs.
func popBootstrapProcs(t *testing.T, groups []*repGroup, nQ, B int, seed uint64, block, procs int) [][]float64 {
	t.Helper()
	defer func(p int) { setProcs(p) }(setProcs(procs))
	return newBootstrap(t, groups, nQ, B, seed, block)
}

// checkSameReplicates fails unless got and want hold the same values bit
// for bit (NaN equal to NaN), most of them finite.
func checkSameReplicates(t *testing.T, got, want [][]float64) {
	t.Helper()
	finite, all := 0, 0
	for i := range want {
		for j := range want[i] {
			g, w := got[i][j], want[i][j]
			if math.Float64bits(g) != math.Float64bits(w) && !(math.IsNaN(g) && math.IsNaN(w)) {
				t.Fatalf("replicate %d column %d: got %v, want %v", i, j, g, w)
			}
			all++
			if !math.IsNaN(w) {
				finite++
			}
		}
	}
	if finite < all*9/10 {
		t.Errorf("%d finite replicate values of %d; the comparison says little", finite, all)
	}
}

// An ordBuilder that meets one type too many keeps every entry, the
// earlier ones too, as an ordBuilder without types does: the same entries
// and values.
func TestOrdBuilderTypesOverflow(t *testing.T) {
	for _, tc := range []struct {
		name     string
		V, maxT  int
		n        int
		wantType reflect.Type
	}{
		{"typed", 7, maxTypes, 3000, reflect.TypeOf(&typedEntries{})},
		{"overflow small", 7, 10, 3000, reflect.TypeOf(&wideEntries{})},
		{"overflow wide", 90, maxTypes, 20000, reflect.TypeOf(&wideEntries{})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(tc.V), 9))
			typed := &ordBuilder{V: tc.V, maxT: tc.maxT}
			plain := &ordBuilder{V: tc.V, untyped: true}
			type entry struct {
				c, k int32
				v    float64
			}
			var want []entry
			for range tc.n {
				c, k := r.IntN(tc.V), r.IntN(tc.V)
				num, den := 1+r.IntN(6), 1+r.IntN(3)
				typed.add(c, k, num, den)
				plain.add(c, k, num, den)
				want = append(want, entry{int32(c), int32(k), float64(num) / float64(den)})
			}
			got := typed.entries()
			if reflect.TypeOf(got) != tc.wantType {
				t.Fatalf("entries %T, want %v", got, tc.wantType)
			}
			var have []entry
			switch e := got.(type) {
			case *typedEntries:
				for _, ty := range e.typ {
					have = append(have, entry{e.c[ty], e.k[ty], typed.vTab[e.vi[ty]]})
				}
			case *wideEntries:
				for i := range e.vi {
					have = append(have, entry{e.c[i], e.k[i], typed.vTab[e.vi[i]]})
				}
			}
			if !slices.Equal(have, want) {
				t.Errorf("entries differ from those added")
			}
			if !slices.Equal(typed.vTab, plain.vTab) {
				t.Errorf("value table %v, want %v", typed.vTab, plain.vTab)
			}
		})
	}
}

// BenchmarkOrdinalTypes evaluates the α kernels of every population of
// sampleStudy on one block of repBlock replicates with typedEntries
// (typed) and without types (wideEntries, untyped), on the same data in
// one run.
// EUROEXEC_BENCH_QUESTIONS sets the number of questions (default 20,000).
func BenchmarkOrdinalTypes(b *testing.B) {
	nQ := 20000
	if v, err := strconv.Atoi(os.Getenv("EUROEXEC_BENCH_QUESTIONS")); err == nil && v > 0 {
		nQ = v
	}
	typed, untyped, nQ := untypedGroups(nQ, 5)
	r := rand.New(rand.NewPCG(1, 2))
	cnt := make([]int32, nQ*repBlock)
	for rep := 0; rep < repBlock; rep++ {
		for range nQ {
			cnt[r.IntN(nQ)*repBlock+rep]++
		}
	}
	var bc blockCounts
	bc.fill(cnt, repBlock)
	for _, v := range []struct {
		name string
		pops [][]*repGroup
	}{{"untyped", untyped}, {"typed", typed}} {
		b.Run(v.name, func(b *testing.B) {
			sc := &scratch{}
			var outs [][][]float64
			var ks []kernel
			for _, gs := range v.pops {
				for _, g := range gs {
					if _, ok := g.k.(*alphaKernel); !ok {
						continue
					}
					out := make([][]float64, repBlock)
					for i := range out {
						out[i] = make([]float64, g.n)
					}
					ks, outs = append(ks, g.k), append(outs, out)
				}
			}
			c0 := cpuSeconds()
			for b.Loop() {
				for i, k := range ks {
					k.eval(&bc, outs[i], sc)
				}
			}
			b.ReportMetric((cpuSeconds()-c0)/float64(b.N), "cpu-s/op")
		})
	}
}

// setProcs sets GOMAXPROCS to n and returns the previous value.
func setProcs(n int) int { return runtime.GOMAXPROCS(n) }

// typedEntries.addQuestion adds to every replicate's sum what the layouts
// without types add, bit for bit, on random entries, values and mid-ranks
// (no dyadic shortcut: every term rounds), for blocks of every length (the
// passes of eight, four and one replicates).
func TestTypedAddQuestion(t *testing.T) {
	for _, V := range []int{5, 20, 39} {
		r := rand.New(rand.NewPCG(uint64(V), 11))
		typed := &ordBuilder{V: V, maxT: maxTypes}
		plain := &ordBuilder{V: V, untyped: true}
		const nQ = 40
		start := []int32{0}
		for range nQ {
			for range r.IntN(30) {
				c, k := r.IntN(V), r.IntN(V)
				num, den := 1+r.IntN(9), 1+r.IntN(7)
				typed.add(c, k, num, den)
				plain.add(c, k, num, den)
			}
			start = append(start, int32(typed.n()))
		}
		te, pe := typed.entries(), plain.entries()
		if _, ok := te.(*typedEntries); !ok {
			t.Fatalf("V %d: entries %T, want typed", V, te)
		}
		for _, nb := range []int{1, 3, 4, 7, 8, 13, repBlock} {
			ns := make([]float64, nb)
			mids := make([]float64, nb*V)
			for b := range ns {
				ns[b] = 1
				for g := range V {
					mids[b*V+g] = r.Float64() * 50
				}
			}
			table := func(e ordEntries) ([]float64, int) {
				tl := e.perLen(V)
				if tl == 0 {
					return mids, V
				}
				per := make([]float64, tl*nb+maxTypes)
				for b := range nb {
					e.fill(mids[b*V:b*V+V], typed.vTab, per[b*tl:b*tl+tl])
				}
				return per, tl
			}
			tPer, tStride := table(te)
			pPer, pStride := table(pe)
			got, want := make([]float64, nb), make([]float64, nb)
			for q := range nQ {
				var bs []uint8
				var cs []int32
				for b := range nb {
					if c := r.IntN(3); c > 0 {
						bs, cs = append(bs, uint8(b)), append(cs, int32(c))
					}
				}
				te.addQuestion(start[q], start[q+1], bs, cs, ns, tPer, tStride, typed.vTab, got)
				pe.addQuestion(start[q], start[q+1], bs, cs, ns, pPer, pStride, plain.vTab, want)
			}
			for b := range nb {
				if math.Float64bits(got[b]) != math.Float64bits(want[b]) {
					t.Fatalf("V %d, %d replicates (%T): replicate %d sum %v, want %v", V, nb, pe, b, got[b], want[b])
				}
			}
		}
	}
}
