package pairwise

import (
	"fmt"
	"testing"
)

// The test helpers and the package's confusion-matrix statistics both
// reproduce scikit-learn's κ, macro F1, precision and recall on its own
// outputs.
func TestSklearnVectors(t *testing.T) {
	direct := 0
	defer func() {
		if direct < 20 {
			t.Errorf("only %d vectors checked agreementStats directly", direct)
		}
	}()
	for _, v := range sklearnVectors(t) {
		switch v.Fn {
		case "cohen_kappa":
			if v.Want.Kappa == nil {
				continue
			}
			checkClose(t, "helper κ "+v.Case, skKappa(v.Args.A, v.Args.B), *v.Want.Kappa, 1e-12)
			if conf, ok := confusion3(v.Args.A, v.Args.B); ok {
				direct++
				checkClose(t, "agreementStats κ "+v.Case, agreementStats(conf)[aKappa], *v.Want.Kappa, 1e-15)
			}
		case "macro_f1":
			var p, r float64
			for _, c := range v.Want.PerClass {
				p += c.Precision
				r += c.Recall
			}
			p /= float64(len(v.Want.PerClass))
			r /= float64(len(v.Want.PerClass))
			f1, hp, hr := skMacro(v.Args.YTrue, v.Args.YPred)
			checkClose(t, "helper F1 "+v.Case, f1, v.Want.MacroF1, 1e-12)
			checkClose(t, "helper precision "+v.Case, hp, p, 1e-12)
			checkClose(t, "helper recall "+v.Case, hr, r, 1e-12)
			if conf, ok := confusion3(v.Args.YTrue, v.Args.YPred); ok {
				direct++
				st := agreementStats(conf)
				checkClose(t, "agreementStats F1 "+v.Case, st[aF1], v.Want.MacroF1, 0)
				checkClose(t, "agreementStats precision "+v.Case, st[aPrec], p, 1e-15)
				checkClose(t, "agreementStats recall "+v.Case, st[aRec], r, 1e-15)
			}
		}
	}
}

// confusion3 maps up to three distinct labels (in sorted order) onto 0..2
// and counts conf[3·ref + other]; false for more labels.
func confusion3(ref, other []int) ([9]int64, bool) {
	var conf [9]int64
	u := union(ref, other)
	if len(u) > 3 || len(ref) == 0 {
		return conf, false
	}
	pos := map[int]int{}
	for i, l := range u {
		pos[l] = i
	}
	for i := range ref {
		conf[3*pos[ref[i]]+pos[other[i]]]++
	}
	return conf, true
}

var _ = fmt.Sprint
