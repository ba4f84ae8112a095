package findings

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/format"
)

// styleControl says, per grader population of pairwise_models, when
// holding answer length and markdown style fixed (sc_bt_rating) changes
// the order of the Bradley–Terry ratings (bt_rating), with the effects'
// tests from pairwise_length that make the change meaningful or not.
func styleControl(r *report.Report) []string {
	t := r.Table("pairwise_models")
	if t == nil {
		return nil
	}
	c := cols(t)
	if !c.has("graders") || !c.has("bt_rating") || !c.has("sc_bt_rating") {
		return nil
	}
	type row struct {
		name            string
		raw, sc, lo, hi float64
	}
	byPop := map[string][]row{}
	var pops []string
	for _, x := range t.Rows {
		g := str(x, c.i("graders"))
		rw := row{str(x, c.i("model")), num(x, c, "bt_rating"), num(x, c, "sc_bt_rating"), num(x, c, "sc_bt_rating_lo"), num(x, c, "sc_bt_rating_hi")}
		if math.IsNaN(rw.sc) || math.IsNaN(rw.raw) {
			continue
		}
		if _, ok := byPop[g]; !ok {
			pops = append(pops, g)
		}
		byPop[g] = append(byPop[g], rw)
	}
	var out []string
	for _, g := range pops {
		rows := byPop[g]
		sort.SliceStable(rows, func(i, j int) bool { return rows[i].raw > rows[j].raw })
		var moves []string
		overlap := true
		for i := range rows {
			for j := i + 1; j < len(rows); j++ {
				a, b := rows[i], rows[j] // a above b by raw rating
				if a.raw > b.raw && b.sc > a.sc {
					moves = append(moves, b.name+" above "+a.name)
					overlap = overlap && !(b.lo > a.hi)
				}
			}
		}
		if len(moves) == 0 {
			continue
		}
		shown := moves
		more := ""
		if len(moves) > 3 {
			shown, more = moves[:3], fmt.Sprintf(" and %d more", len(moves)-3)
		}
		s := fmt.Sprintf("Pairwise judgments of %s: holding answer length and markdown style fixed changes the order of the Bradley–Terry ratings — %s%s (sc_bt_rating in pairwise_models.csv).",
			g, strings.Join(shown, ", "), more)
		effects, significant := lengthEffects(r, g)
		switch {
		case effects == "":
		case significant:
			s += " The judgments depend on " + effects + "."
		default:
			s += " No length or style effect is significant (" + effects + "), so the change may be noise."
		}
		if overlap {
			s += " The style-controlled intervals of the models that change places overlap, so the new order is not established either."
		}
		out = append(out, s)
	}
	return out
}

// lengthEffects describes population g's length and style effects from
// pairwise_length ("length +0.41 logit per doubling (p = 0.001), …"), and
// whether one is significant at α = 0.05.
func lengthEffects(r *report.Report, g string) (string, bool) {
	t := r.Table("pairwise_length")
	if t == nil {
		return "", false
	}
	c := cols(t)
	for _, x := range t.Rows {
		if str(x, c.i("graders")) != g {
			continue
		}
		var parts []string
		sig := false
		for _, e := range []struct{ col, what string }{{"length", "length"}, {"headers", "headers"}, {"list_items", "list items"}, {"bold", "bold"}} {
			v, p := num(x, c, e.col+"_logit"), num(x, c, e.col+"_p")
			if math.IsNaN(v) || math.IsNaN(p) {
				continue
			}
			sig = sig || p < 0.05
			parts = append(parts, fmt.Sprintf("%s %s logit per doubling (p = %s)", e.what, signed(v), format.PValue(p)))
		}
		return strings.Join(parts, ", "), sig
	}
	return "", false
}

func signed(x float64) string {
	if x >= 0 {
		return fmt.Sprintf("+%.2f", x)
	}
	return fmt.Sprintf("−%.2f", -x)
}
