package format

import (
	"fmt"
	"math"
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
