package findings

import (
	"fmt"
	"math"
	"strings"

	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/format"
)

// Gap is the leader's lead over the runner-up of a Board, read from the
// paired test the ranking ran on that pair (pairwise_significance:
// paired_solve_rate, stats.PairedClusterDiff with the questions as
// clusters; paired_t_rubric for the rubric) or, for Bradley–Terry
// ratings, from the pair's head-to-head win rate (pairwise_matrix).
type Gap struct {
	Leader, RunnerUp Leader
	// Diff is leader − runner-up in the metric's unit (for pairwise: the
	// leader's head-to-head win rate), Lo and Hi its 95 % interval.
	Diff, Lo, Hi float64
	// Test names the test ("" when the pair was not tested), PHolm its
	// Holm-adjusted p-value, MDE its 80 %-power minimum detectable effect.
	Test          string
	P, PHolm, MDE float64
	Significant   bool
	N             int64
	// SkipMDE leaves the minimum detectable effect out of Sentence (the
	// finding it is appended to states the study's already).
	SkipMDE bool
}

// LeaderGap returns the gap between the first two rows of b; ok is false
// when b has fewer than two rows.
func LeaderGap(r *report.Report, b Board) (Gap, bool) {
	if len(b.Rows) < 2 {
		return Gap{}, false
	}
	g := Gap{Leader: b.Rows[0], RunnerUp: b.Rows[1], Diff: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), P: math.NaN(), PHolm: math.NaN(), MDE: math.NaN()}
	a, o := g.Leader.ID, g.RunnerUp.ID
	switch {
	case b.Key == "pairwise":
		t := r.Table("pairwise_matrix")
		if t == nil {
			break
		}
		c := cols(t)
		pop := "humans"
		if j, ok := strings.CutPrefix(b.Who, "judge "); ok {
			pop = "judge:" + j
		}
		for _, row := range t.Rows {
			if str(row, c.i("graders")) == pop && str(row, c.i("model_a")) == a && str(row, c.i("model_b")) == o {
				g.Diff, g.Lo, g.Hi, g.N = num(row, c, "win_rate_a"), num(row, c, "win_rate_a_lo"), num(row, c, "win_rate_a_hi"), integer(row, c, "n")
				g.Test = "head-to-head"
			}
		}
	case b.Who == "human graders" && (b.Key == "solve_rate" || b.Key == "rubric"):
		t := r.Table("pairwise_significance")
		if t == nil {
			break
		}
		test := "paired_solve_rate"
		if b.Key == "rubric" {
			test = "paired_t_rubric"
		}
		c := cols(t)
		for _, row := range t.Rows {
			if str(row, c.i("test")) != test {
				continue
			}
			x, y := str(row, c.i("model_a")), str(row, c.i("model_b"))
			sign := 0.0
			switch {
			case x == a && y == o:
				sign = 1
			case x == o && y == a:
				sign = -1
			default:
				continue
			}
			e, lo, hi := num(row, c, "estimate"), num(row, c, "estimate_lo"), num(row, c, "estimate_hi")
			g.Diff, g.Lo, g.Hi = sign*e, sign*lo, sign*hi
			if sign < 0 {
				g.Lo, g.Hi = -hi, -lo
			}
			g.Test, g.P, g.PHolm, g.MDE, g.N = str(row, c.i("method")), num(row, c, "p"), num(row, c, "p_holm"), num(row, c, "mde"), integer(row, c, "n")
			g.Significant = str(row, c.i("significant")) == "true"
		}
	}
	if g.Test == "" {
		g.Diff = g.Leader.Value - g.RunnerUp.Value
		if b.Key == "pairwise" {
			g.Diff = math.NaN() // a rating difference without a test says little
		}
	}
	return g, true
}

// diffText writes a difference of the Board's metric: pp for rates,
// points otherwise, with a sign.
func (b Board) diffText(v float64) string {
	switch b.Key {
	case "solve_rate", "checklist", "prbench":
		return format.PercentPoints(v)
	}
	if math.IsNaN(v) {
		return format.Missing
	}
	return fmt.Sprintf("%+.2f points", v)
}

// Sentence says the gap in words, with its interval and test, and P(best)
// when the Board has it.
func (g Gap) Sentence(b Board) string {
	var s string
	switch {
	case g.Test == "head-to-head":
		s = fmt.Sprintf("Against the runner-up, %s, %s wins %s %s of their %d head-to-head judgments (ties count half; 50 %% is no difference)",
			g.RunnerUp.Name, g.Leader.Name, format.Percent(g.Diff), format.RateInterval(g.Lo, g.Hi), g.N)
		switch {
		case g.Lo > 0.5:
			s += ": the interval excludes 50 %."
		case math.IsNaN(g.Lo):
			s += "."
		default:
			s += ": the interval includes 50 %, so the order of the two is not established."
		}
	case g.Test != "":
		unit := "percentage points"
		if b.Key == "rubric" {
			unit = "points"
		}
		iv := "[" + strings.TrimSuffix(b.diffText(g.Lo), " pp") + ", " + b.diffText(g.Hi) + "]"
		if b.Key == "rubric" {
			iv = fmt.Sprintf("[%+.2f, %+.2f]", g.Lo, g.Hi)
		}
		s = fmt.Sprintf("Its gap to the runner-up, %s, is %s %s (leader − runner-up in %s; 95 %% paired interval, %s over %d questions, not adjusted for the other pairs; p = %s)",
			g.RunnerUp.Name, b.diffText(g.Diff), iv, unit, g.Test, g.N, format.PValue(g.P))
		if g.Significant {
			s += fmt.Sprintf(": significant after Holm's adjustment over every pair (p = %s).", format.PValue(g.PHolm))
		} else {
			s += fmt.Sprintf(", but after Holm's adjustment over every pair p = %s, not significant at α = 0.05: the study does not separate the two", format.PValue(g.PHolm))
			if g.MDE > 0 && !g.SkipMDE {
				s += fmt.Sprintf(" (it detects gaps of about %s or more)", strings.TrimPrefix(b.diffText(g.MDE), "+"))
			}
			s += "."
		}
	case g.Leader.Rank == g.RunnerUp.Rank:
		s = fmt.Sprintf("It shares first place with %s (the same %s); the tie is not tested.", g.RunnerUp.Name, b.Metric)
	case math.IsNaN(g.Diff):
		s = fmt.Sprintf("Its lead over the runner-up, %s, is not tested (no head-to-head judgments of the pair).", g.RunnerUp.Name)
	default:
		s = fmt.Sprintf("Its gap to the runner-up, %s, is %s (leader − runner-up; not tested).",
			g.RunnerUp.Name, b.diffText(g.Diff))
	}
	if !math.IsNaN(g.Leader.PBest) {
		s += fmt.Sprintf(" %s is best in %s of the bootstrap replicates over questions (P(best)); %s in %s.",
			g.Leader.Name, format.Percent(g.Leader.PBest), g.RunnerUp.Name, format.Percent(g.RunnerUp.PBest))
	}
	return s
}
