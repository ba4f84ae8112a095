package stats

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"slices"
	"strconv"
	"testing"
)

// vcase is one line of testdata/stats_vectors.jsonl (see README-stats.md in
// the shared vectors: scipy 1.10.1, sklearn 1.2.1, statsmodels 0.13.5,
// fast-krippendorff 0.8.2 and exact-rational references).
type vcase struct {
	Fn        string                     `json:"fn"`
	Case      string                     `json:"case"`
	Args      map[string]json.RawMessage `json:"args"`
	Want      map[string]json.RawMessage `json:"want"`
	Tol       map[string]json.RawMessage `json:"tol"`
	Nonfinite map[string]string          `json:"nonfinite"`
}

func loadVectors(t *testing.T) (cases []vcase, counts map[string]int) {
	t.Helper()
	f, err := os.Open("testdata/stats_vectors.jsonl")
	if err != nil {
		t.Fatalf("open vectors: %v", err)
	}
	defer f.Close()
	dec := json.NewDecoder(f)
	for {
		var c vcase
		if err := dec.Decode(&c); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("decode vectors: %v", err)
		}
		if c.Fn == "_meta" {
			var m struct {
				Counts map[string]int `json:"counts"`
			}
			raw, _ := json.Marshal(c.Want)
			if err := json.Unmarshal(raw, &m); err != nil {
				t.Fatalf("meta: %v", err)
			}
			counts = m.Counts
			continue
		}
		if len(c.Fn) > 0 && c.Fn[0] == '_' {
			continue
		}
		cases = append(cases, c)
	}
	return cases, counts
}

// parseF parses one JSON number (or null → NaN) to the exact float64.
func parseF(t *testing.T, raw json.RawMessage) float64 {
	t.Helper()
	s := string(bytes.TrimSpace(raw))
	if s == "null" {
		return math.NaN()
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("parse %q: %v", s, err)
	}
	return v
}

func (c *vcase) floats(t *testing.T, name string) []float64 {
	t.Helper()
	var raw []json.RawMessage
	if err := json.Unmarshal(c.Args[name], &raw); err != nil {
		t.Fatalf("arg %s: %v", name, err)
	}
	out := make([]float64, len(raw))
	for i, r := range raw {
		out[i] = parseF(t, r)
	}
	return out
}

func (c *vcase) matrix(t *testing.T, name string) [][]float64 {
	t.Helper()
	var raw [][]json.RawMessage
	if err := json.Unmarshal(c.Args[name], &raw); err != nil {
		t.Fatalf("arg %s: %v", name, err)
	}
	out := make([][]float64, len(raw))
	for i, row := range raw {
		out[i] = make([]float64, len(row))
		for j, r := range row {
			out[i][j] = parseF(t, r)
		}
	}
	return out
}

func (c *vcase) ints(t *testing.T, name string) []int {
	t.Helper()
	var out []int
	if err := json.Unmarshal(c.Args[name], &out); err != nil {
		t.Fatalf("arg %s: %v", name, err)
	}
	return out
}

func (c *vcase) argF(t *testing.T, name string) float64 {
	t.Helper()
	return parseF(t, c.Args[name])
}

func (c *vcase) wantsError() bool {
	_, ok := c.Want["error"]
	return ok
}

// tolFor returns the tolerance of a field: skip, or (rel, abs) with
// exact = true when the field has none.
func (c *vcase) tolFor(t *testing.T, field string) (skip bool, rel, abs float64, exact bool) {
	t.Helper()
	raw, ok := c.Tol[field]
	if !ok {
		return false, 0, 0, true
	}
	if string(bytes.TrimSpace(raw)) == `"skip"` {
		return true, 0, 0, false
	}
	var ra []float64
	if err := json.Unmarshal(raw, &ra); err != nil || len(ra) != 2 {
		t.Fatalf("%s: tol %s: %s", c.Case, field, raw)
	}
	return false, ra[0], ra[1], false
}

// closeTo compares got with want under the case's rule for field.
func (c *vcase) closeTo(t *testing.T, field string, got, want float64, wantNonfinite string) bool {
	t.Helper()
	if wantNonfinite != "" {
		switch wantNonfinite {
		case "NaN":
			return math.IsNaN(got)
		case "+Inf":
			return math.IsInf(got, 1)
		case "-Inf":
			return math.IsInf(got, -1)
		}
		t.Fatalf("%s: unknown nonfinite %q", c.Case, wantNonfinite)
	}
	skip, rel, abs, exact := c.tolFor(t, field)
	if skip {
		return true
	}
	tally.compared[c.Fn]++
	if got == want {
		tally.bitExact[c.Fn]++
	}
	if exact {
		return got == want
	}
	return math.Abs(got-want) <= rel*math.Abs(want)+abs
}

// checkF checks the scalar float field against want.
func (c *vcase) checkF(t *testing.T, field string, got float64) {
	t.Helper()
	raw, ok := c.Want[field]
	if !ok {
		return
	}
	want := parseF(t, raw)
	nf := ""
	if math.IsNaN(want) {
		nf = c.Nonfinite[field]
		if nf == "" {
			t.Fatalf("%s: %s is null without a nonfinite entry", c.Case, field)
		}
	}
	if !c.closeTo(t, field, got, want, nf) {
		_, rel, abs, _ := c.tolFor(t, field)
		t.Errorf("%s [%s]: %s = %v (%s), want %v (%s), tol rel %g abs %g",
			c.Fn, c.Case, field, got, strconv.FormatFloat(got, 'g', 17, 64),
			want, strconv.FormatFloat(want, 'g', 17, 64), rel, abs)
	}
}

// checkList checks a list field; the field's tolerance applies to every element.
func (c *vcase) checkList(t *testing.T, field string, got []float64) {
	t.Helper()
	var raw []json.RawMessage
	if err := json.Unmarshal(c.Want[field], &raw); err != nil {
		t.Fatalf("%s: want %s: %v", c.Case, field, err)
	}
	if len(raw) != len(got) {
		t.Errorf("%s [%s]: %s has %d values, want %d", c.Fn, c.Case, field, len(got), len(raw))
		return
	}
	for i, r := range raw {
		want := parseF(t, r)
		if !c.closeTo(t, field, got[i], want, "") {
			t.Errorf("%s [%s]: %s[%d] = %v, want %v", c.Fn, c.Case, field, i,
				strconv.FormatFloat(got[i], 'g', 17, 64), strconv.FormatFloat(want, 'g', 17, 64))
		}
	}
}

// checkJSON compares a non-float field (ints, strings, bools, lists of
// them) by its JSON encoding.
func (c *vcase) checkJSON(t *testing.T, field string, got any) {
	t.Helper()
	raw, ok := c.Want[field]
	if !ok {
		return
	}
	var w, g any
	if err := json.Unmarshal(raw, &w); err != nil {
		t.Fatalf("%s: want %s: %v", c.Case, field, err)
	}
	gb, _ := json.Marshal(got)
	_ = json.Unmarshal(gb, &g)
	if fmt.Sprint(w) != fmt.Sprint(g) {
		t.Errorf("%s [%s]: %s = %v, want %v", c.Fn, c.Case, field, g, w)
	}
}

// tally counts, per fn, finite float comparisons and how many matched to
// the bit (informational; the pass rule is each case's tolerance).
var tally struct{ compared, bitExact map[string]int }

func TestVectors(t *testing.T) {
	cases, counts := loadVectors(t)
	tally.compared, tally.bitExact = map[string]int{}, map[string]int{}
	defer func() {
		all, exact := 0, 0
		for _, fn := range slices.Sorted(maps.Keys(tally.compared)) {
			t.Logf("%-20s %5d float comparisons, %5d bit-exact", fn, tally.compared[fn], tally.bitExact[fn])
			all += tally.compared[fn]
			exact += tally.bitExact[fn]
		}
		t.Logf("total %d float comparisons, %d bit-exact", all, exact)
	}()
	seen := map[string]int{}
	for i := range cases {
		c := &cases[i]
		seen[c.Fn]++
		run, ok := vectorRunners[c.Fn]
		if !ok {
			t.Errorf("no runner for fn %q (case %q)", c.Fn, c.Case)
			continue
		}
		run(t, c)
	}
	total := 0
	for fn, n := range counts {
		if seen[fn] != n {
			t.Errorf("fn %s: ran %d cases, meta says %d", fn, seen[fn], n)
		}
		total += n
	}
	if total != 740 || len(cases) != 740 {
		t.Errorf("ran %d cases, meta total %d, want 740", len(cases), total)
	}
}

var vectorRunners = map[string]func(t *testing.T, c *vcase){
	"pearson": func(t *testing.T, c *vcase) {
		r, p := Pearson(c.floats(t, "x"), c.floats(t, "y"))
		c.checkF(t, "r", r)
		c.checkF(t, "p", p)
	},
	"spearman": func(t *testing.T, c *vcase) {
		s := SpearmanDetail(c.floats(t, "x"), c.floats(t, "y"))
		c.checkF(t, "rho", s.Rho)
		c.checkF(t, "p", s.P)
		if _, ok := c.Want["ranks_x"]; ok {
			c.checkList(t, "ranks_x", s.RanksX)
			c.checkList(t, "ranks_y", s.RanksY)
		}
		rho, p := Spearman(c.floats(t, "x"), c.floats(t, "y"))
		if !same(rho, s.Rho) || !same(p, s.P) {
			t.Errorf("spearman [%s]: Spearman = %v, %v; SpearmanDetail = %v, %v", c.Case, rho, p, s.Rho, s.P)
		}
	},
	"kendall_tau_b": func(t *testing.T, c *vcase) {
		x, y := c.floats(t, "x"), c.floats(t, "y")
		k := KendallTauBDetail(x, y)
		c.checkF(t, "tau", k.Tau)
		c.checkF(t, "p", k.P)
		c.checkF(t, "p_asymptotic", k.PAsymptotic)
		c.checkF(t, "p_exact", k.PExact)
		c.checkF(t, "z", k.Z)
		c.checkF(t, "var", k.Var)
		method := "asymptotic"
		if k.Exact {
			method = "exact"
		}
		c.checkJSON(t, "p_method", method)
		for f, v := range map[string]int64{"concordant": k.Concordant, "discordant": k.Discordant,
			"ties_x_only": k.TiesXOnly, "ties_y_only": k.TiesYOnly, "ties_both": k.TiesBoth,
			"pairs": k.Pairs, "xtie": k.XTie, "ytie": k.YTie} {
			c.checkJSON(t, f, v)
		}
		tau, p := KendallTauB(x, y)
		if !same(tau, k.Tau) || !same(p, k.P) {
			t.Errorf("kendall [%s]: KendallTauB = %v, %v; detail = %v, %v", c.Case, tau, p, k.Tau, k.P)
		}
	},
	"ttest_rel": func(t *testing.T, c *vcase) {
		r := TTestRel(c.floats(t, "x"), c.floats(t, "y"))
		c.checkF(t, "t", r.T)
		c.checkF(t, "df", r.DF)
		c.checkF(t, "p", r.P)
		c.checkF(t, "mean_diff", r.Mean)
		c.checkF(t, "se", r.SE)
	},
	"ttest_1samp": func(t *testing.T, c *vcase) {
		r := TTest1Samp(c.floats(t, "x"), c.argF(t, "popmean"))
		c.checkF(t, "t", r.T)
		c.checkF(t, "df", r.DF)
		c.checkF(t, "p", r.P)
		c.checkF(t, "mean", r.Mean)
		c.checkF(t, "se", r.SE)
	},
	"ttest_welch": func(t *testing.T, c *vcase) {
		r := TTestWelchDetail(c.floats(t, "a"), c.floats(t, "b"))
		c.checkF(t, "t", r.T)
		c.checkF(t, "df", r.DF)
		c.checkF(t, "p", r.P)
		c.checkF(t, "mean_a", r.MeanA)
		c.checkF(t, "mean_b", r.MeanB)
		c.checkF(t, "var_a", r.VarA)
		c.checkF(t, "var_b", r.VarB)
		c.checkF(t, "se", r.SE)
		if plain := TTestWelch(c.floats(t, "a"), c.floats(t, "b")); !same(plain.T, r.T) || !same(plain.P, r.P) {
			t.Errorf("welch [%s]: TTestWelch differs from TTestWelchDetail", c.Case)
		}
	},
	"linregress": func(t *testing.T, c *vcase) {
		x, y := c.floats(t, "x"), c.floats(t, "y")
		l, err := LinRegressDetail(x, y)
		if c.wantsError() {
			if err == nil {
				t.Errorf("linregress [%s]: no error, want %s", c.Case, c.Want["error"])
			}
			if p := LinRegress(x, y); !math.IsNaN(p.Slope) || !math.IsNaN(p.P) {
				t.Errorf("linregress [%s]: LinRegress = %+v, want NaN fields", c.Case, p)
			}
			return
		}
		if err != nil {
			t.Errorf("linregress [%s]: %v", c.Case, err)
			return
		}
		c.checkF(t, "slope", l.Slope)
		c.checkF(t, "intercept", l.Intercept)
		c.checkF(t, "r", l.R)
		c.checkF(t, "p", l.P)
		c.checkF(t, "stderr", l.StdErr)
		c.checkF(t, "intercept_stderr", l.InterceptStdErr)
		if LinRegress(x, y) != l {
			t.Errorf("linregress [%s]: LinRegress differs from LinRegressDetail", c.Case)
		}
	},
	"student_t": func(t *testing.T, c *vcase) {
		df := c.argF(t, "df")
		tt := c.argF(t, "t")
		if math.IsNaN(tt) {
			var nf string
			_ = json.Unmarshal(c.Args["t_nonfinite"], &nf)
			switch nf {
			case "+Inf":
				tt = math.Inf(1)
			case "-Inf":
				tt = math.Inf(-1)
			default:
				t.Fatalf("student_t [%s]: t null with t_nonfinite %q", c.Case, nf)
			}
		}
		c.checkF(t, "cdf", StudentTCDF(tt, df))
		c.checkF(t, "sf", StudentTSF(tt, df))
		c.checkF(t, "p_two_sided", StudentTTwoSided(tt, df))
	},
	"cohen_kappa": func(t *testing.T, c *vcase) {
		a, b := c.ints(t, "a"), c.ints(t, "b")
		var labels []int
		if string(c.Args["labels"]) != "null" {
			labels = c.ints(t, "labels")
		}
		k, err := CohenKappaDetail(a, b, labels)
		if c.wantsError() {
			if err == nil {
				t.Errorf("cohen_kappa [%s]: no error, want %s", c.Case, c.Want["error"])
			}
			if v := CohenKappa(a, b, labels, ""); !math.IsNaN(v) {
				t.Errorf("cohen_kappa [%s]: CohenKappa = %v, want NaN", c.Case, v)
			}
			return
		}
		if err != nil {
			t.Errorf("cohen_kappa [%s]: %v", c.Case, err)
			return
		}
		c.checkF(t, "kappa", k.Kappa)
		c.checkF(t, "kappa_linear", k.Linear)
		c.checkF(t, "kappa_quadratic", k.Quadratic)
		c.checkJSON(t, "labels_used", k.Labels)
		c.checkJSON(t, "confusion", k.Confusion)
		for w, want := range map[string]float64{"": k.Kappa, "linear": k.Linear, "quadratic": k.Quadratic} {
			if got := CohenKappa(a, b, labels, w); !same(got, want) {
				t.Errorf("cohen_kappa [%s]: CohenKappa(%q) = %v, detail %v", c.Case, w, got, want)
			}
		}
	},
	"macro_f1": func(t *testing.T, c *vcase) {
		yt, yp := c.ints(t, "y_true"), c.ints(t, "y_pred")
		var labels []int
		if string(c.Args["labels"]) != "null" {
			labels = c.ints(t, "labels")
		}
		r := MacroF1Detail(yt, yp, labels)
		c.checkF(t, "macro_f1", r.MacroF1)
		c.checkF(t, "accuracy", r.Accuracy)
		c.checkJSON(t, "labels_used", r.Labels)
		var want []struct {
			Label                 int
			Precision, Recall, F1 float64
			Support               int
		}
		if err := json.Unmarshal(c.Want["per_class"], &want); err != nil {
			t.Fatalf("macro_f1 [%s]: per_class: %v", c.Case, err)
		}
		if len(want) != len(r.PerClass) {
			t.Errorf("macro_f1 [%s]: %d classes, want %d", c.Case, len(r.PerClass), len(want))
		} else {
			for i, w := range want {
				g := r.PerClass[i]
				if g.Label != w.Label || g.Precision != w.Precision || g.Recall != w.Recall || g.F1 != w.F1 || g.Support != w.Support {
					t.Errorf("macro_f1 [%s]: class %d = %+v, want %+v", c.Case, i, g, w)
				}
			}
		}
		if got := MacroF1(yt, yp, labels); !same(got, r.MacroF1) {
			t.Errorf("macro_f1 [%s]: MacroF1 = %v, detail %v", c.Case, got, r.MacroF1)
		}
	},
	"krippendorff_alpha": func(t *testing.T, c *vcase) {
		data := c.matrix(t, "data")
		var domain []float64
		if string(c.Args["value_domain"]) != "null" {
			domain = c.floats(t, "value_domain")
		}
		a, err := KrippendorffAlphaDetail(data, domain)
		_, pkgErr := c.Want["package_errors"]
		if pkgErr != (err != nil) {
			t.Errorf("krippendorff [%s]: err = %v, reference raised: %v", c.Case, err, pkgErr)
		}
		c.checkF(t, "nominal", a.Nominal)
		c.checkF(t, "ordinal", a.Ordinal)
		c.checkF(t, "interval", a.Interval)
		c.checkF(t, "ratio", a.Ratio)
		c.checkJSON(t, "pairable_units", a.PairableUnits)
		c.checkJSON(t, "n_pairable_values", a.PairableValues)
		if domain == nil {
			for lvl, want := range map[string]float64{"nominal": a.Nominal, "ordinal": a.Ordinal, "interval": a.Interval, "ratio": a.Ratio} {
				if got := KrippendorffAlpha(data, lvl); !same(got, want) {
					t.Errorf("krippendorff [%s]: KrippendorffAlpha(%s) = %v, detail %v", c.Case, lvl, got, want)
				}
			}
		}
	},
	"holm": func(t *testing.T, c *vcase) {
		p := c.floats(t, "p")
		adj, rej := HolmReject(p, c.argF(t, "alpha"))
		c.checkList(t, "p_adj", adj)
		c.checkJSON(t, "reject", rej)
		c.checkList(t, "p_adj", Holm(p))
	},
	"benjamini_hochberg": func(t *testing.T, c *vcase) {
		p := c.floats(t, "p")
		adj, rej := BenjaminiHochbergReject(p, c.argF(t, "alpha"))
		c.checkList(t, "p_adj", adj)
		c.checkJSON(t, "reject", rej)
		c.checkList(t, "p_adj", BenjaminiHochberg(p))
	},
	"mcnemar": func(t *testing.T, c *vcase) {
		var tab [2][2]int
		if err := json.Unmarshal(c.Args["table"], &tab); err != nil {
			t.Fatalf("mcnemar [%s]: %v", c.Case, err)
		}
		r := McNemar(tab)
		c.checkF(t, "exact_statistic", r.ExactStatistic)
		c.checkF(t, "exact_p", r.ExactP)
		c.checkF(t, "chi2_statistic", r.Chi2)
		c.checkF(t, "chi2_p", r.Chi2P)
		c.checkF(t, "chi2_statistic_uncorrected", r.Chi2Uncorrected)
		c.checkF(t, "chi2_p_uncorrected", r.Chi2PUncorrected)
	},
	"icc": func(t *testing.T, c *vcase) {
		r := ICC(c.matrix(t, "data"))
		c.checkF(t, "icc1", r.ICC1)
		c.checkF(t, "icc1_k", r.ICC1k)
		c.checkF(t, "icc2_1", r.ICC2)
		c.checkF(t, "icc2_k", r.ICC2k)
		c.checkF(t, "icc3_1", r.ICC3)
		c.checkF(t, "icc3_k", r.ICC3k)
		c.checkF(t, "msr", r.MSR)
		c.checkF(t, "msc", r.MSC)
		c.checkF(t, "mse", r.MSE)
		c.checkF(t, "msw", r.MSW)
		c.checkF(t, "F", r.F)
		c.checkF(t, "df1", r.DF1)
		c.checkF(t, "df2", r.DF2)
		c.checkF(t, "p", r.P)
		c.checkJSON(t, "n", r.N)
		c.checkJSON(t, "k", r.K)
	},
	"percentile": func(t *testing.T, c *vcase) {
		x, qs := c.floats(t, "x"), c.floats(t, "q")
		var m string
		_ = json.Unmarshal(c.Args["method"], &m)
		if m != "linear" {
			t.Fatalf("percentile [%s]: method %q", c.Case, m)
		}
		c.checkList(t, "values", Percentiles(x, qs))
		one := make([]float64, len(qs))
		for i, q := range qs {
			one[i] = Percentile(x, q)
		}
		c.checkList(t, "values", one)
	},
	"wilcoxon": func(t *testing.T, c *vcase) {
		x, y := c.floats(t, "x"), c.floats(t, "y")
		w, err := WilcoxonTest(x, y)
		if c.wantsError() {
			if err == nil {
				t.Errorf("wilcoxon [%s]: no error, want %s", c.Case, c.Want["error"])
			}
			if s, p := Wilcoxon(x, y); !math.IsNaN(s) || !math.IsNaN(p) {
				t.Errorf("wilcoxon [%s]: Wilcoxon = %v, %v, want NaN", c.Case, s, p)
			}
			return
		}
		if err != nil {
			t.Errorf("wilcoxon [%s]: %v", c.Case, err)
			return
		}
		c.checkF(t, "statistic", w.Statistic)
		c.checkF(t, "p", w.P)
		c.checkF(t, "r_plus", w.RPlus)
		c.checkF(t, "r_minus", w.RMinus)
		c.checkF(t, "p_approx", w.PApprox)
		c.checkF(t, "z_approx", w.ZApprox)
		c.checkJSON(t, "n_used", w.NUsed)
		mode := "approx"
		if w.Exact {
			mode = "exact"
		}
		c.checkJSON(t, "mode", mode)
		if s, p := Wilcoxon(x, y); !same(s, w.Statistic) || !same(p, w.P) {
			t.Errorf("wilcoxon [%s]: Wilcoxon differs from WilcoxonTest", c.Case)
		}
	},
}

// same reports a == b, treating two NaNs as equal.
func same(a, b float64) bool {
	return a == b || (math.IsNaN(a) && math.IsNaN(b))
}
