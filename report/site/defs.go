package site

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/findings"
	"github.com/euroexec/euroexec/report/format"
)

// setting returns a study setting's value, or "".
func (b *builder) setting(key string) string {
	for _, kv := range b.r.Settings {
		if kv.Key == key {
			return kv.Value
		}
	}
	return ""
}

// solveRule states the Solve Rate thresholds from the settings:
// "mean rubric score ≥ 3 points and checklist fulfilment ≥ 60 %".
// A study without a checklist (or without a rubric) is solved on the other
// instrument alone.
func (b *builder) solveRule() string {
	rt, ct := b.setting("solve.rubric_threshold"), b.setting("solve.checklist_threshold")
	if rt == "" || ct == "" {
		return "mean rubric score and checklist fulfilment at or above the study's thresholds"
	}
	if v, err := strconv.ParseFloat(ct, 64); err == nil {
		ct = strconv.FormatFloat(v*100, 'f', -1, 64) + " %"
	}
	rel, lower := "≥", ""
	if b.setting("rubric.direction") == "lower" {
		rel, lower = "≤", " (lower is better)"
	}
	rubric, checklist := findings.Has(b.r, "rubric"), findings.Has(b.r, "checklist")
	switch {
	case rubric && !checklist:
		return "mean rubric score " + rel + " " + rt + " points" + lower
	case checklist && !rubric:
		return "checklist fulfilment ≥ " + ct
	}
	return "mean rubric score " + rel + " " + rt + " points" + lower + " and checklist fulfilment ≥ " + ct
}

func (b *builder) scale() string {
	lo, hi := b.setting("rubric.min"), b.setting("rubric.max")
	if lo == "" || hi == "" {
		return ""
	}
	s := " on the " + lo + "–" + hi + " scale"
	if st := b.setting("rubric.step"); st != "" {
		s += " in steps of " + st
	}
	if b.setting("rubric.direction") == "lower" {
		s += ", lower is better"
	}
	return s
}

// howToRead is the index's guide to the numbers.
// Entries for instruments the study does not have are left out.
func (b *builder) howToRead() []report.KV {
	var kv []report.KV
	if findings.Has(b.r, "rubric") || findings.Has(b.r, "checklist") {
		kv = append(kv, report.KV{Key: "Solve Rate", Value: "The share of a model's gradings in which its response is solved: " + b.solveRule() + ". Shown as a percent."})
	}
	if findings.Has(b.r, "rubric") {
		kv = append(kv, report.KV{Key: "Rubric score", Value: "The mean of the rubric attributes" + b.scale() + ", in rubric points (two decimals)."})
	}
	reliability := "Krippendorff's α measures agreement between graders: ≥ .800 reliable, .667–.800 tentative, below .667 not reliable."
	if s := findings.AgreementNote(b.r); s != "" {
		reliability = s
	}
	return append(kv, []report.KV{
		{Key: "Intervals [lo, hi]", Value: "A value followed by [lo, hi] is an estimate with its 95 % interval: the range a cluster bootstrap over questions puts the true value in, 95 times in 100. Rate intervals lie inside [0 %, 100 %]. Overlapping intervals do not mean two models are equal, and separate intervals are not a test: read the group letters."},
		{Key: "Group letters", Value: "Models that share a letter (a, b, …) do not differ significantly after Holm's adjustment for many comparisons (α = 0.05); a model marked \"ab\" cannot be told apart from models in group a or in group b."},
		{Key: "Rank (#)", Value: "Tables are ordered by " + b.headline().describe() + "; # is the place, equal " + b.headline().plural() + " share it. Click a column head to sort by it."},
		{Key: "p-values", Value: "Three decimals from 0.001 up, scientific notation below (8.2e-07 = 0.00000082)."},
		{Key: "Differences", Value: "A difference of two rates (a judge's bias, say) is in percentage points (pp); a difference of scores in rubric points."},
		{Key: "Reliability", Value: reliability},
	}...)
}

// sectionDefinitions are the definitions shown at the top of a section page.
func (b *builder) sectionDefinitions(key string) []report.KV {
	solve := report.KV{Key: "Solve Rate", Value: "Share of gradings with " + b.solveRule() + "."}
	rubric := report.KV{Key: "Rubric score", Value: "Mean of the rubric attributes" + b.scale() + ", in points."}
	checklist := report.KV{Key: "Checklist fulfilment", Value: "Share of a question's checklist items the response fulfils (a partial verdict counts " + orDefault(b.setting("solve.partial_credit"), "the partial credit") + "), as a percent."}
	switch key {
	case report.SectionRubric:
		return []report.KV{solve, rubric}
	case report.SectionChecklist:
		return []report.KV{checklist, solve}
	case report.SectionConsistency:
		return []report.KV{
			{Key: "p-value", Value: "Probability of a difference at least this large if the models were equal; p (Holm) is adjusted for the number of comparisons, significant when below 0.05."},
			{Key: "Group letters", Value: "Models sharing a letter do not differ significantly after Holm's adjustment."},
			{Key: "Krippendorff's α", Value: "Agreement between graders: " + findings.Band(findings.Reliable) + "; " + findings.Band(findings.Tentative) + "; below .667 not reliable. Fewer than 2 graders per unit: undefined."},
		}
	case report.SectionJudges:
		return []report.KV{
			{Key: "Bias", Value: "Judge minus human on the same responses: rubric in points, checklist and Solve Rate in percentage points; positive means the judge is more lenient."},
			solve,
			{Key: "Calibration", Value: "Maps judge scores onto the human scale; a curve fitted from few points (fewer than 5 models) is shown but not to be relied on."},
		}
	case report.SectionAutomatic:
		return []report.KV{
			{Key: "Corpus BLEU, chrF", Value: "A model's score over all its responses at once (n-gram statistics summed, then one score, as sacrebleu's corpus_bleu and corpus_chrf), from 0 to 100: what machine-translation evaluation reports for a system. The mean of sentence BLEU is a different figure and can order models differently."},
			{Key: "ROUGE, sentence BLEU, chrF", Value: "Overlap between one response and the expert references: ROUGE from 0 to 1, BLEU and chrF from 0 to 100; they measure wording, not correctness."},
		}
	case report.SectionCost:
		return []report.KV{{Key: "Cost", Value: "Price of all of a model's responses in USD from the token counts and the per-1,000-token prices in models.csv."}, solve}
	case report.SectionDataset:
		return []report.KV{{Key: "Evaluators", Value: "Counts are of people (human graders) and of judge models, each counted once whatever the rounds."}}
	}
	return nil
}

// headline is the metric the site's model tables are ordered by: the
// primary metric (findings.PrimaryOf), Solve Rate by default.
type headline struct {
	// key is the primary metric (findings.Primary.Key).
	key string
	// column is the metric's column (solve_rate, rubric, checklist_rate); a
	// table without it is ordered by byModel, else by Solve Rate.
	column string
	// byModel are the values by model of a metric without a column in the
	// model tables (pairwise ratings, PRBench scores); nil otherwise.
	byModel map[string]float64
	// lower: lower values are better.
	lower bool
	// label names the metric ("Solve Rate").
	label string
}

// describe says the order: "Solve Rate, highest first".
func (h headline) describe() string {
	if h.lower {
		return h.label + ", lowest first"
	}
	return h.label + ", highest first"
}

// plural names the compared values: "rates" for Solve Rate (the wording
// of the default), else "values".
func (h headline) plural() string {
	if h.label == "Solve Rate" {
		return "rates"
	}
	return "values"
}

// headlineOf is the headline of the report: its primary metric.
func headlineOf(r *report.Report) headline {
	p := findings.PrimaryOf(r)
	h := headline{key: p.Key, column: p.Column, lower: p.Lower, label: p.Label}
	if p.Column == "" {
		h.byModel = findings.PrimaryValues(r, p)
	}
	return h
}

// headlineOrder orders the rows of a table with a model and a solve_rate
// column by the headline metric h (Solve Rate, highest first, by default;
// the table's h.column when it has it, else h.byModel), best first, within
// blocks of equal set, graders and judge, and gives each row its place
// (equal values share it). With
// format.OrderAlpha the rows of a block are ordered by the model's display
// name (name) instead, keeping their places. ok is false for other tables,
// which keep their order.
func headlineOrder(t *report.Table, by format.Order, name func(string) string, h headline) (order []int, rank []int, ok bool) {
	idx := map[string]int{}
	for i, c := range t.Columns {
		idx[c.Name] = i
	}
	si, hasSR := idx["solve_rate"]
	if _, hasModel := idx["model"]; !hasModel || !hasSR {
		return nil, nil, false
	}
	var keyCols []int
	for _, k := range []string{"set", "graders", "judge"} {
		if i, ok := idx[k]; ok {
			keyCols = append(keyCols, i)
		}
	}
	blockOf := map[string]int{}
	block := make([]int, len(t.Rows))
	for r, row := range t.Rows {
		key := ""
		for _, c := range keyCols {
			key += "\x00" + cellString(at(row, c))
		}
		if _, seen := blockOf[key]; !seen {
			blockOf[key] = len(blockOf)
		}
		block[r] = blockOf[key]
	}
	vi, lower := si, false
	if i, ok := idx[h.column]; ok && h.column != "" {
		vi, lower = i, h.lower
	}
	mi := idx["model"]
	// undefined values sort last and share their place
	missing := math.Inf(-1)
	if lower {
		missing = math.Inf(1)
	}
	rate := func(r int) float64 {
		if h.byModel != nil && vi == si {
			if v, ok := h.byModel[cellString(at(t.Rows[r], mi))]; ok && v == v {
				return v
			}
			return missing
		}
		if v, ok := at(t.Rows[r], vi).(float64); ok && v == v {
			return v
		}
		return missing
	}
	order = make([]int, len(t.Rows))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		ra, rb := order[a], order[b]
		if block[ra] != block[rb] {
			return block[ra] < block[rb]
		}
		if lower {
			return rate(ra) < rate(rb)
		}
		return rate(ra) > rate(rb)
	})
	rank = make([]int, len(order))
	for i, r := range order {
		rank[i] = 1
		if i > 0 && block[order[i-1]] == block[r] {
			rank[i] = i + 1 - firstOfBlock(order, block, i)
			if rate(order[i-1]) == rate(r) {
				rank[i] = rank[i-1]
			}
		}
	}
	if by != format.OrderAlpha {
		return order, rank, true
	}
	placeOf := make([]int, len(t.Rows))
	for i, r := range order {
		placeOf[r] = rank[i]
	}
	key := func(r int) string {
		id := cellString(at(t.Rows[r], mi))
		return strings.ToLower(name(id)) + "\x00" + id
	}
	sort.SliceStable(order, func(a, b int) bool {
		ra, rb := order[a], order[b]
		if block[ra] != block[rb] {
			return block[ra] < block[rb]
		}
		return key(ra) < key(rb)
	})
	for i, r := range order {
		rank[i] = placeOf[r]
	}
	return order, rank, true
}

func firstOfBlock(order, block []int, i int) int {
	j := i
	for j > 0 && block[order[j-1]] == block[order[i]] {
		j--
	}
	return j
}

func cellString(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return ""
}

// modelColumns are the columns whose values are model ids, shown with the
// model's display name.
var modelColumns = map[string]bool{"model": true, "model_a": true, "model_b": true}
