package stats

import (
	"fmt"
	"iter"
	"math"
	"math/rand/v2"
	"testing"
)

// unitsOf yields the columns of data[rater][unit] with the NaNs left out,
// as a sparse caller would give them.
func unitsOf(data [][]float64) iter.Seq[[]float64] {
	return func(yield func([]float64) bool) {
		if len(data) == 0 {
			return
		}
		var buf []float64
		for u := range data[0] {
			buf = buf[:0]
			for _, row := range data {
				if !math.IsNaN(row[u]) {
					buf = append(buf, row[u])
				}
			}
			if !yield(buf) {
				return
			}
		}
	}
}

// checkAlphaSame fails unless the two results and errors are identical,
// the α fields bit for bit.
func checkAlphaSame(t *testing.T, name string, got, want AlphaResult, gotErr, wantErr error) {
	t.Helper()
	bits := func(a, b float64) bool {
		return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
	}
	if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
		t.Errorf("%s: error %v, dense %v", name, gotErr, wantErr)
	}
	if !bits(got.Nominal, want.Nominal) || !bits(got.Ordinal, want.Ordinal) || !bits(got.Interval, want.Interval) || !bits(got.Ratio, want.Ratio) ||
		got.PairableUnits != want.PairableUnits || got.PairableValues != want.PairableValues {
		t.Errorf("%s: got %+v, dense %+v", name, got, want)
	}
}

// KrippendorffAlphaUnits gives KrippendorffAlphaDetail's results bit for
// bit on random matrices: small and large domains, whole and fractional
// values, many missing values, given and derived domains, values outside a
// given domain.
func TestKrippendorffAlphaUnitsEqualsDetail(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	finite := 0
	for it := 0; it < 400; it++ {
		raters, units := 1+r.IntN(6), r.IntN(60)
		V := 1 + r.IntN(12)
		frac := r.IntN(3) == 0
		missing := r.Float64() * 0.8
		value := func() float64 {
			v := float64(r.IntN(V))
			if frac {
				v = v/3 - 1.5
			}
			return v
		}
		data := make([][]float64, raters)
		for g := range data {
			data[g] = make([]float64, units)
			for u := range data[g] {
				data[g][u] = math.NaN()
				if r.Float64() >= missing {
					data[g][u] = value()
				}
			}
		}
		var domain []float64
		switch r.IntN(3) {
		case 1: // a given domain holding every value (and more)
			for i := 0; i <= V; i++ {
				v := float64(i)
				if frac {
					v = v/3 - 1.5
				}
				domain = append(domain, v)
			}
		case 2: // a given domain that may miss some values
			domain = []float64{value(), value() + 100}
			if domain[0] > domain[1] {
				domain[0], domain[1] = domain[1], domain[0]
			}
		}
		want, wantErr := KrippendorffAlphaDetail(data, domain)
		got, gotErr := KrippendorffAlphaUnits(unitsOf(data), domain)
		checkAlphaSame(t, fmt.Sprintf("case %d (%d raters × %d units, domain %v)", it, raters, units, domain), got, want, gotErr, wantErr)
		if !math.IsNaN(want.Ordinal) {
			finite++
		}
	}
	if finite < 150 {
		t.Errorf("only %d of 400 cases with a finite α; the comparison says little", finite)
	}
}

// KrippendorffAlphaUnits reproduces the fast-krippendorff reference
// vectors (and KrippendorffAlphaDetail on them bit for bit).
func TestKrippendorffAlphaUnitsVectors(t *testing.T) {
	cases, _ := loadVectors(t)
	if tally.compared == nil { // checkF counts comparisons (TestVectors resets the tally)
		tally.compared, tally.bitExact = map[string]int{}, map[string]int{}
	}
	n := 0
	for i := range cases {
		c := &cases[i]
		if c.Fn != "krippendorff_alpha" {
			continue
		}
		n++
		data := c.matrix(t, "data")
		var domain []float64
		if string(c.Args["value_domain"]) != "null" {
			domain = c.floats(t, "value_domain")
		}
		got, err := KrippendorffAlphaUnits(unitsOf(data), domain)
		if _, pkgErr := c.Want["package_errors"]; pkgErr != (err != nil) {
			t.Errorf("krippendorff [%s]: err = %v, reference raised: %v", c.Case, err, pkgErr)
		}
		c.checkF(t, "nominal", got.Nominal)
		c.checkF(t, "ordinal", got.Ordinal)
		c.checkF(t, "interval", got.Interval)
		c.checkF(t, "ratio", got.Ratio)
		c.checkJSON(t, "pairable_units", got.PairableUnits)
		c.checkJSON(t, "n_pairable_values", got.PairableValues)
		if len(data) > 0 {
			want, wantErr := KrippendorffAlphaDetail(data, domain)
			checkAlphaSame(t, "krippendorff ["+c.Case+"]", got, want, err, wantErr)
		}
	}
	if n == 0 {
		t.Fatal("no krippendorff_alpha vectors")
	}
}
