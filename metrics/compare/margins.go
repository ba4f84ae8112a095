package compare

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// rateMetrics are the compared metrics measured as rates, whose margins may
// be given in percentage points.
var rateMetrics = []string{"solve_rate", "checklist_rate", "win_rate"}

// ParseMargins reads `compare --margin` values (or study.toml [compare] margins; what names them in errors) into per-metric
// non-inferiority margins: "2pp" is 2 percentage points for every rate
// metric (solve_rate, checklist_rate, win_rate); "METRIC=V" sets one
// metric, V in percentage points with a "pp" suffix (rates only) or in the
// metric's units (rates as fractions, rubric in points, avg_rank in ranks).
// Every margin must be positive and finite; rates at most 100 pp.
func ParseMargins(vals []string, what string) (map[string]float64, error) {
	out := map[string]float64{}
	for _, v := range vals {
		metric, val, named := strings.Cut(v, "=")
		if !named {
			val, metric = v, ""
		}
		metric, val = strings.TrimSpace(metric), strings.TrimSpace(val)
		pp := strings.HasSuffix(val, "pp")
		x, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(val, "pp")), 64)
		if err != nil || !(x > 0) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("%s %q: expected a positive number, e.g. 2pp or rubric=0.1", what, v)
		}
		if pp {
			x /= 100
		}
		targets := rateMetrics
		if named {
			if _, ok := HigherIsBetter[metric]; !ok {
				return nil, fmt.Errorf("%s %q: unknown metric %q; expected one of %s", what, v, metric, strings.Join(Metrics, ", "))
			}
			targets = []string{metric}
		} else if !pp {
			return nil, fmt.Errorf("%s %q: a margin without a metric must be in percentage points (e.g. 2pp); name the metric otherwise (rubric=0.1)", what, v)
		}
		for _, m := range targets {
			isRate := m != "rubric" && m != "avg_rank"
			if pp && !isRate {
				return nil, fmt.Errorf("%s %q: %s is not a rate; give its margin in its own units (e.g. %s=0.1)", what, v, m, m)
			}
			if isRate && x > 1 {
				return nil, fmt.Errorf("%s %q: a rate's margin is at most 100 pp", what, v)
			}
			out[m] = x
		}
	}
	return out, nil
}
