package tables

import (
	"math"

	"github.com/euroexec/euroexec/metrics/reliability"
	"github.com/euroexec/euroexec/report"
)

// ReliabilityTable is the name of the reliability table.
const ReliabilityTable = reliability.TableName

// Reliability presents r: the reliability table and the α figure, with
// r's notes and warnings, ready for report.Report.Add. It has no table
// when r has no rows.
func Reliability(r reliability.Result) report.Part {
	p := report.Part{Warnings: r.Warnings}
	for _, n := range r.Notes {
		p.Notes = append(p.Notes, report.Note{Table: ReliabilityTable, Reason: n})
	}
	if len(r.Rows) == 0 {
		return p
	}
	t := &report.Table{
		Name:    ReliabilityTable,
		Title:   "Inter-rater reliability",
		Section: report.SectionBeyond,
		Doc: "Agreement between graders per instrument: Krippendorff's α (units = responses, or (response, item) for the checklist), " +
			"pairwise Cohen's κ averaged over grader pairs weighted by shared units, and intraclass correlations; for the humans alone and with each judge as one more grader. " +
			"lo/hi: percentile interval of a cluster bootstrap over questions.",
		Columns: []report.Column{
			{Name: "instrument", Kind: report.Text, Doc: "rubric:<attribute>, rubric_mean or checklist"},
			{Name: "population", Kind: report.Text, Doc: "humans, or humans+judge:<name> (the judge as one more grader)"},
			{Name: "statistic", Kind: report.Text, Doc: "alpha_nominal, alpha_ordinal, alpha_interval, kappa, kappa_quadratic, icc1_1, icc1_k, icc2_1 or icc2_k"},
			{Name: "value", Kind: report.Float, Doc: "the statistic; empty when undefined"},
			{Name: "n_units", Kind: report.Int, Doc: "units used: pairable units (α), shared units summed over grader pairs (κ), units with k values (ICC)"},
			{Name: "n_graders", Kind: report.Int, Doc: "graders with at least one value in the units used"},
			{Name: "lo", Kind: report.Float, Doc: "lower end of the bootstrap percentile interval"},
			{Name: "hi", Kind: report.Float, Doc: "upper end of the bootstrap percentile interval"},
			{Name: "note", Kind: report.Text, Doc: "how the value was computed or why it is empty"},
		},
	}
	for _, w := range r.Rows {
		t.Rows = append(t.Rows, []any{w.Instrument, w.Population, w.Statistic, w.Value, w.Units, w.Graders, w.Lo, w.Hi, w.Note})
	}
	p.Tables = append(p.Tables, t)
	if f := alphaFigure(r.Rows, r.Populations, r.Instruments); f != nil {
		p.Figures = append(p.Figures, f)
	}
	return p
}

// alphaFigure draws the headline α of every instrument (interval α for the
// rubric, nominal α for the checklist) per population, with its interval.
func alphaFigure(rows []reliability.Row, pops []string, instruments []string) *report.Figure {
	if len(instruments) == 0 {
		return nil
	}
	f := &report.Figure{
		ID:         "reliability_alpha",
		Section:    report.SectionBeyond,
		Title:      "Krippendorff's α per instrument",
		Kind:       report.Bar,
		XName:      "instrument",
		YName:      "α",
		Table:      ReliabilityTable,
		Categories: instruments,
	}
	pos := map[string]int{}
	for i, c := range instruments {
		pos[c] = i
	}
	for _, p := range pops {
		s := report.Series{Name: p, Values: nanSlice(len(instruments)), Lo: nanSlice(len(instruments)), Hi: nanSlice(len(instruments))}
		for _, r := range rows {
			if r.Population != p {
				continue
			}
			want := reliability.AlphaInterval
			if r.Instrument == "checklist" {
				want = reliability.AlphaNominal
			}
			if r.Statistic != want {
				continue
			}
			i := pos[r.Instrument]
			s.Values[i], s.Lo[i], s.Hi[i] = r.Value, r.Lo, r.Hi
		}
		f.Series = append(f.Series, s)
	}
	return f
}

// nanSlice is n NaNs.
func nanSlice(n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = math.NaN()
	}
	return s
}
