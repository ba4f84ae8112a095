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
	if V < 2 {
		return res, errors.New("stats: krippendorff alpha: there has to be more than one value in the domain")
	}
	if res.PairableUnits == 0 {
		return res, errors.New("stats: krippendorff alpha: there has to be at least one unit with values assigned by at least two raters")
	}
	nc := make([]float64, V)
	n := 0.0
	for c := 0; c < V; c++ {
		for k := 0; k < V; k++ {
			nc[c] += o[c*V+k]
		}
		n += nc[c]
	}
	alpha := func(d2 func(c, k int) float64) float64 {
		var do, de float64
		for c := 0; c < V; c++ {
			for k := 0; k < V; k++ {
				if c == k {
					continue
				}
				d := d2(c, k)
				do += float64(o[c*V+k] * d)
				de += float64(float64(nc[c]*nc[k]) * d)
			}
		}
		return 1 - float64((n-1)*do)/de
	}
	res.Nominal = alpha(func(c, k int) float64 { return 1 })
	res.Interval = alpha(func(c, k int) float64 {
		d := domain[c] - domain[k]
		return d * d
	})
	res.Ratio = alpha(func(c, k int) float64 {
		s := domain[c] + domain[k]
		if s == 0 {
			return 0
		}
		d := (domain[c] - domain[k]) / s
		return d * d
	})
	cum := make([]float64, V+1)
	for g := 0; g < V; g++ {
		cum[g+1] = cum[g] + nc[g]
	}
	res.Ordinal = alpha(func(c, k int) float64 {
		lo, hi := min(c, k), max(c, k)
		d := (cum[hi+1] - cum[lo]) - (nc[c]+nc[k])/2
		return d * d
	})
	return res, nil
}
