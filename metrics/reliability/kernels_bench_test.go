package reliability

import (
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
)

// BenchmarkKernels evaluates each kind of replicate kernel (α, κ, ICC) of
// every population of sampleStudy on one block of repBlock replicates
// (counts drawn once, as a multinomial resample gives them), without the
// draws: the kernels' own cost per block, with the sums slot-major
// (slots: addCounts, where AVX2 runs it) and replicate-major (rows: the
// kernels without AVX2) in the same run. EUROEXEC_BENCH_QUESTIONS sets the
// number of questions (default 20,000).
func BenchmarkKernels(b *testing.B) {
	nQ := 20000
	if v, err := strconv.Atoi(os.Getenv("EUROEXEC_BENCH_QUESTIONS")); err == nil && v > 0 {
		nQ = v
	}
	pops, nQ := populationGroups(sampleStudy(nQ, 5))
	r := rand.New(rand.NewPCG(1, 2))
	cnt := make([]int32, nQ*repBlock)
	for rep := 0; rep < repBlock; rep++ {
		for range nQ {
			cnt[r.IntN(nQ)*repBlock+rep]++
		}
	}
	var bc blockCounts
	bc.fill(cnt, repBlock)
	for _, run := range []string{"alpha/rows", "alpha/slots", "kappa/rows", "kappa/slots", "icc/rows", "icc/slots"} {
		kind, layout, _ := strings.Cut(run, "/")
		if layout == "slots" && !useAVX2 {
			continue
		}
		b.Run(run, func(b *testing.B) {
			defer func(v bool) { useAVX2 = v }(useAVX2)
			useAVX2 = layout == "slots"
			sc := &scratch{}
			var outs [][][]float64
			var ks []kernel
			for _, gs := range pops {
				for _, g := range gs {
					var ok bool
					switch kind {
					case "alpha":
						_, ok = g.k.(*alphaKernel)
					case "kappa":
						_, ok = g.k.(*kappaKernel)
					default:
						_, ok = g.k.(*anovaSums)
					}
					if !ok {
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
