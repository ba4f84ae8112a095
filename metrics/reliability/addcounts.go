package reliability

// addCounts adds, for every x, the block's draw counts cnt[0:nb] (one per
// replicate) times vals[x] to the nb sums of slot slots[x]:
// acc[slots[x]·nb + b] += float64(cnt[b]·vals[x]) for b < nb — the product
// rounded, then the addition (no fused multiply-add), as the replicate-major
// kernels add them one replicate at a time. A replicate that did not draw
// the question adds 0·v = ±0, which changes no sum (vals are finite; a sum
// that starts at +0 never becomes −0). The sums of a slot are contiguous,
// so that on amd64 with AVX2 four replicates go in one instruction
// (addCountsAVX2, when nb is a multiple of 4).
func addCounts(acc []float64, nb int, cnt []int32, slots []int32, vals []float64) {
	cnt = cnt[:nb]
	vals = vals[:len(slots)]
	if slotMajor(nb) {
		// the assembly does not check bounds: every slot's sums must lie in acc
		lo, hi := int32(0), int32(-1)
		for _, s := range slots {
			lo, hi = min(lo, s), max(hi, s)
		}
		if lo < 0 || int(hi)*nb+nb > len(acc) {
			panic("reliability: addCounts: a slot's sums are not in acc")
		}
		addCountsAVX2(acc, nb, cnt, slots, vals)
		return
	}
	addCountsGo(acc, nb, cnt, slots, vals)
}

// addCountsDense is addCounts on the slots 0, 1, …, len(vals)−1, whose
// bounds need no scan.
func addCountsDense(acc []float64, nb int, cnt []int32, vals []float64) {
	if len(vals) > len(slotIota) {
		addCounts(acc, nb, cnt, iota32(len(vals)), vals)
		return
	}
	slots := slotIota[:len(vals)]
	if slotMajor(nb) {
		if len(cnt) < nb || len(vals)*nb > len(acc) {
			panic("reliability: addCountsDense: the sums are not in acc")
		}
		addCountsAVX2(acc, nb, cnt, slots, vals)
		return
	}
	addCountsGo(acc, nb, cnt, slots, vals)
}

// iota32 returns the slots 0, 1, …, n−1.
func iota32(n int) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = int32(i)
	}
	return s
}

// addCountsGo is addCounts in Go.
func addCountsGo(acc []float64, nb int, cnt []int32, slots []int32, vals []float64) {
	cnt = cnt[:nb]
	for x, s := range slots {
		v := vals[x]
		a := acc[int(s)*nb : int(s)*nb+nb]
		a = a[:len(cnt)]
		for b, c := range cnt {
			a[b] += float64(float64(c) * v)
		}
	}
}

// slotMajor reports whether the kernels sum a block of nb replicates
// slot-major with addCounts: only when AVX2 runs it. In Go the
// replicate-major kernels, which visit only the replicates that drew a
// question, are faster (BenchmarkKappaLayouts: 1.7× on κ).
func slotMajor(nb int) bool { return useAVX2 && nb > 0 && nb%4 == 0 }

// slotIota is the slots 0, 1, …, 255: the slots of dense sums (α's
// disagreements and dense margins, ICC's sums and column sums).
var slotIota = iota32(256)

// sumTypes32 sets s[b], for each of the 32 replicates b of a block, to the
// sum of the terms perT[typ[x]·32 + b] of a question's entries x (the
// typed ordinal α's terms, type-major), from +0 in entry order as
// typedEntries.addQuestion adds them replicate by replicate: bit for bit
// the same sums. With AVX2 the 32 sums are kept in eight registers.
func sumTypes32(perT []float64, typ []uint16, s *[32]float64) {
	if !useAVX2 {
		sumTypes32Go(perT, typ, s)
		return
	}
	top := uint16(0)
	for _, t := range typ {
		top = max(top, t)
	}
	if len(typ) > 0 && int(top)*32+32 > len(perT) {
		panic("reliability: sumTypes32: a type's terms are not in perT")
	}
	sumTypes32AVX2(perT, typ, s)
}

// sumTypes32Go is sumTypes32 in Go.
func sumTypes32Go(perT []float64, typ []uint16, s *[32]float64) {
	*s = [32]float64{}
	for _, t := range typ {
		row := (*[32]float64)(perT[int(t)*32 : int(t)*32+32])
		for b := range s {
			s[b] += row[b]
		}
	}
}
