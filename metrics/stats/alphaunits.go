package stats

import (
	"errors"
	"fmt"
	"iter"
	"math"
	"slices"
)

// KrippendorffAlphaUnits is KrippendorffAlphaDetail on data given unit by
// unit instead of as a dense raters × units matrix: units yields the values
// of each unit in turn (missing values left out; a unit may yield none). It
// allocates nothing per unit or per value, so that a study with millions of
// sparse units needs no raters × units matrix of NaNs.
//
// The result equals KrippendorffAlphaDetail's on the matrix that holds the
// same values bit for bit: the same coincidence sums are taken in the same
// order (units in order, a unit's values counted per domain value). Errors
// are the same too, except that there is no "no raters" error: with no
// units the domain is empty and α is undefined for that reason. When domain
// is nil it is the sorted distinct values, and units is ranged over twice;
// the yielded slices are only read during the call.
func KrippendorffAlphaUnits(units iter.Seq[[]float64], domain []float64) (AlphaResult, error) {
	nan := math.NaN()
	res := AlphaResult{Nominal: nan, Ordinal: nan, Interval: nan, Ratio: nan}
	if domain == nil {
		seen := map[float64]struct{}{}
		for vals := range units {
			for _, v := range vals {
				if !math.IsNaN(v) {
					seen[v] = struct{}{}
				}
			}
		}
		domain = make([]float64, 0, len(seen))
		for v := range seen {
			domain = append(domain, v)
		}
		slices.Sort(domain)
	} else if hasNaN(domain) {
		return res, errors.New("stats: krippendorff alpha: value domain holds NaN")
	}
	V := len(domain)
	pos := make(map[float64]int, V)
	for i, v := range domain {
		pos[v] = i
	}
	o := make([]float64, V*V)
	cnt := make([]int, V)
	u := -1
	var err error
	for vals := range units {
		u++
		clear(cnt)
		m := 0
		for _, v := range vals {
			if math.IsNaN(v) {
				continue
			}
			p, ok := pos[v]
			if !ok {
				err = fmt.Errorf("stats: krippendorff alpha: unit %d: value %v is not in the value domain", u, v)
				break
			}
			cnt[p]++
			m++
		}
		if err != nil {
			break
		}
		if m < 2 {
			continue
		}
		res.PairableUnits++
		res.PairableValues += m
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
					o[c*V+k] += float64(cnt[c]*nk) / den
				}
			}
		}
	}
	if err != nil {
		return res, err
	}
	return alphaFromCoincidences(res, o, domain)
}
