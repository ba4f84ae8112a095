package format

import (
	"fmt"
	"math"
	"strconv"
	"testing"
)

func TestFormats(t *testing.T) {
	nan := math.NaN()
	cases := []struct {
		name, got, want string
	}{
		{"percent", Percent(0.569), "56.9 %"},
		{"percent 1", Percent(1), "100.0 %"},
		{"percent nan", Percent(nan), "—"},
		{"interval clamped low", RateInterval(-0.015, 0.25), "[0.0 %, 25.0 %]"},
		{"interval clamped high", RateInterval(0.9, 1.0001), "[90.0 %, 100.0 %]"},
		{"interval nan", RateInterval(nan, 0.5), "[—, 50.0 %]"},
		{"pp", PercentPoints(0.057), "+5.7 pp"},
		{"pp neg", PercentPoints(-0.09), "-9.0 pp"},
		{"pp negative zero", PercentPoints(math.Copysign(0, -1)), "+0.0 pp"},
		{"pp rounds to zero", PercentPoints(-1e-6), "+0.0 pp"},
		{"points", Points(3.5571), "3.56"},
		{"points interval", PointsInterval(3.3376, 3.7712), "[3.34, 3.77]"},
		{"p small", PValue(8.2e-07), "8.2e-07"},
		{"p tiny", PValue(2.846973941251195e-16), "2.8e-16"},
		{"p boundary", PValue(0.001), "0.001"},
		{"p just below", PValue(0.00099), "9.9e-04"},
		{"p", PValue(0.0136), "0.014"},
		{"p zero", PValue(0), "0"},
		{"number", Number(2.5), "2.500"},
		{"number small", Number(4e-5), "4.00e-05"},
		{"number big", Number(1234.56), "1234.6"},
		{"header known", Header("solve_rate"), "Solve Rate"},
		{"header n", Header("n_gradings"), "Gradings (n)"},
		{"header lo", Header("rubric_bias_lo"), "Rubric bias, lower end"},
		{"header p", Header("p_holm"), "p (Holm)"},
		{"header plain", Header("model_a"), "Model a"},
		{"header solve rate", Header("human_solve_rate"), "Human Solve Rate"},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, c.got, c.want)
		}
	}
}

// Headers: one table's headers are distinct; the model ids beside display
// names are "Model id"; a header that repeats another says its CSV name.
func TestHeaders(t *testing.T) {
	for _, c := range []struct {
		name    string
		columns []string
		want    []string
		ids     bool
	}{
		{"Table 3", []string{"model", "display_name", "provider"}, []string{"Model id", "Display name", "Provider"}, true},
		{"model only", []string{"model", "solve_rate"}, []string{"Model", "Solve Rate"}, false},
		{"repeat", []string{"n_gradings", "gradings_(n)", "p"}, []string{"Gradings (n) (n_gradings)", "Gradings (n) (gradings_(n))", "p"}, false},
		{"repeat by case", []string{"solve_rate", "Solve_rate"}, []string{"Solve Rate (solve_rate)", "Solve rate (Solve_rate)"}, false},
		{"empty", nil, []string{}, false},
	} {
		got := Headers(c.columns)
		if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", c.want) {
			t.Errorf("%s: Headers(%q) = %q, want %q", c.name, c.columns, got, c.want)
		}
		if ShowsIDs(c.columns) != c.ids {
			t.Errorf("%s: ShowsIDs = %v, want %v", c.name, !c.ids, c.ids)
		}
	}
}

func TestColumnClasses(t *testing.T) {
	for _, c := range []struct {
		name    string
		p, diff bool
	}{
		{"p", true, false}, {"p_holm", true, false}, {"median_p", true, false}, {"pl_strength", false, false},
		{"solve_rate", false, false}, {"solve_bias", false, true}, {"checklist_bias_lo", false, true},
	} {
		if got := IsPValue(c.name); got != c.p {
			t.Errorf("IsPValue(%q) = %v, want %v", c.name, got, c.p)
		}
		if got := IsDifference(c.name); got != c.diff {
			t.Errorf("IsDifference(%q) = %v, want %v", c.name, got, c.diff)
		}
	}
}

// TestContrastReference checks Contrast against published WCAG ratios.
func TestContrastReference(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want float64
	}{
		{"#000000", "#FFFFFF", 21},    // the maximum
		{"#767676", "#FFFFFF", 4.54},  // the lightest grey passing AA text (WebAIM)
		{"#777777", "#ffffff", 4.48},  // just fails it (WebAIM)
		{"#FFFFFF", "#FFFFFF", 1},     // the minimum
		{"#F0E442", "#FFFFFF", 1.32},  // the old palette's yellow (issue 35: "1.3:1")
		{"#0000FF", "#FFFFFF", 8.59},  // WebAIM: pure blue on white
		{"#FF0000", "#FFFFFF", 3.998}, // WebAIM: 4.0:1
	} {
		if got := Contrast(c.a, c.b); math.Abs(got-c.want) > 0.01 {
			t.Errorf("Contrast(%s, %s) = %.3f, want %.2f", c.a, c.b, got, c.want)
		}
	}
	if !math.IsNaN(Contrast("#12", "#FFFFFF")) {
		t.Error("Contrast of a bad colour is not NaN")
	}
}

// TestPaletteContrast: every series colour a chart draws stands out from the
// white background at WCAG's 3:1 for graphics.
func TestPaletteContrast(t *testing.T) {
	for _, list := range [][]string{Palette, Neutral} {
		for _, c := range list {
			if r := Contrast(c, "#FFFFFF"); !(r >= 3) {
				t.Errorf("colour %s has contrast %.2f:1 against white, want ≥ 3:1", c, r)
			}
		}
	}
}

// cvdLab is a colour in CIELAB as seen with normal vision (k = "") or a
// dichromacy simulated with the Machado, Oliveira & Fernandes (2009)
// matrices at severity 1.
func cvdLab(t *testing.T, hex, k string) [3]float64 {
	t.Helper()
	m := map[string][3][3]float64{
		"deut": {{0.367322, 0.860646, -0.227968}, {0.280085, 0.672501, 0.047413}, {-0.011820, 0.042940, 0.968881}},
		"prot": {{0.152286, 1.052583, -0.204868}, {0.114503, 0.786281, 0.099216}, {-0.003882, -0.048116, 1.051998}},
		"trit": {{1.255528, -0.076749, -0.178779}, {-0.078411, 0.930809, 0.147602}, {0.004733, 0.691367, 0.303900}},
	}
	var v [3]float64
	for i := 0; i < 3; i++ {
		x, _ := strconv.ParseUint(hex[1+2*i:3+2*i], 16, 8)
		c := float64(x) / 255
		if c <= 0.04045 {
			v[i] = c / 12.92
		} else {
			v[i] = math.Pow((c+0.055)/1.055, 2.4)
		}
	}
	if mm, ok := m[k]; ok {
		var w [3]float64
		for i := range 3 {
			for j := range 3 {
				w[i] += mm[i][j] * v[j]
			}
			w[i] = math.Min(math.Max(w[i], 0), 1)
		}
		v = w
	}
	X := 0.4124*v[0] + 0.3576*v[1] + 0.1805*v[2]
	Y := 0.2126*v[0] + 0.7152*v[1] + 0.0722*v[2]
	Z := 0.0193*v[0] + 0.1192*v[1] + 0.9505*v[2]
	f := func(x float64) float64 {
		if x > 0.008856 {
			return math.Cbrt(x)
		}
		return 7.787*x + 16.0/116
	}
	fx, fy, fz := f(X/0.95047), f(Y), f(Z/1.08883)
	return [3]float64{116*fy - 16, 500 * (fx - fy), 200 * (fy - fz)}
}

// TestPaletteDistinct: the first eight model colours stay apart (CIELAB
// ΔE76 ≥ 13) for normal vision and the three simulated dichromacies, and
// (colour, symbol) is unique for the first 84 models.
func TestPaletteDistinct(t *testing.T) {
	for _, k := range []string{"", "deut", "prot", "trit"} {
		for i := 0; i < 8; i++ {
			for j := i + 1; j < 8; j++ {
				a, b := cvdLab(t, Palette[i], k), cvdLab(t, Palette[j], k)
				d := math.Sqrt((a[0]-b[0])*(a[0]-b[0]) + (a[1]-b[1])*(a[1]-b[1]) + (a[2]-b[2])*(a[2]-b[2]))
				if d < 13 {
					t.Errorf("vision %q: %s and %s are ΔE %.1f apart, want ≥ 13", k, Palette[i], Palette[j], d)
				}
			}
		}
	}
	seen := map[string]int{}
	for i := range 84 {
		key := Palette[i%len(Palette)] + Symbols[i%len(Symbols)]
		if j, dup := seen[key]; dup {
			t.Fatalf("models %d and %d share colour and symbol %s", j, i, key)
		}
		seen[key] = i
	}
}
