package tables

import (
	"fmt"

	"github.com/euroexec/euroexec/metrics/paper"
	"github.com/euroexec/euroexec/report"
)

// paperSignificance presents Figure 3 (pvalue_curve with its figure,
// pvalue_crossings) and then pairwise_tests, the order in which the
// report has always listed them; a table the analysis left out (nil
// rows) is absent.
func paperSignificance(s paper.Significance) report.Part {
	var p report.Part
	if s.Curve != nil && len(s.Sizes) > 0 {
		t := &report.Table{Name: "pvalue_curve", Title: "Figure 3: Median p-value against sample size", Section: report.SectionRubric,
			Doc: fmt.Sprintf("Median over %d draws of n questions without replacement of the paired t-test p-value of each adjacent pair (rubric order), set all, human graders. Sizes: 10, 20, 30, … below the number of questions and that number; beyond 200 sizes, 10…1000 and then 100 log-spaced sizes.", s.Resamples),
			Columns: []report.Column{
				paperCol("model_a", report.Text, "higher-ranked model"),
				paperCol("model_b", report.Text, "next model"),
				paperCol("n", report.Int, "questions drawn"),
				paperCol("median_p", report.Float, "median p-value over the draws with a defined p"),
				paperCol("defined", report.Int, "draws with a defined p-value"),
			}}
		f := &report.Figure{ID: "fig3_pvalue_curve", Section: report.SectionRubric,
			Title: fmt.Sprintf("Figure 3: Median p-value (%d resamples) of paired t-tests against sample size", s.Resamples),
			Kind:  report.Line, XName: "questions (n)", YName: "median p-value", LogX: true, LogY: true, Table: t.Name}
		for i, r := range s.Curve {
			t.Rows = append(t.Rows, []any{r.ModelA, r.ModelB, r.N, r.MedianP, r.Defined})
			if i%len(s.Sizes) == 0 {
				f.Series = append(f.Series, report.Series{Name: r.ModelA + " vs " + r.ModelB})
			}
			se := &f.Series[len(f.Series)-1]
			se.Points = append(se.Points, report.Point{X: float64(r.N), Y: r.MedianP, Label: se.Name})
		}
		lo, hi := float64(s.Sizes[0]), float64(s.Sizes[len(s.Sizes)-1])
		f.Lines = []report.RefLine{{Name: "p = 0.01", X1: lo, Y1: 0.01, X2: hi, Y2: 0.01},
			{Name: "p = 0.001", X1: lo, Y1: 0.001, X2: hi, Y2: 0.001}}
		p.Tables = append(p.Tables, t)
		p.Figures = append(p.Figures, f)
	}
	if s.Crossings != nil {
		t := &report.Table{Name: "pvalue_crossings", Title: "Figure 3: Sample size at which each pair crosses p = 0.01 and 0.001", Section: report.SectionRubric,
			Doc: "Smallest number of questions from which the median p-value of the pair stays below the threshold (grid, then refined with step 1); empty when it never does.",
			Columns: []report.Column{
				paperCol("model_a", report.Text, "higher-ranked model"),
				paperCol("model_b", report.Text, "next model"),
				paperCol("threshold", report.Float, "p-value threshold"),
				paperCol("n_cross", report.Int, "smallest n from which the median p stays below the threshold; empty if never"),
				paperCol("full_n", report.Int, "questions in the full comparison"),
				paperCol("full_p", report.Float, "median p at the full n"),
			}}
		for _, r := range s.Crossings {
			var cross any
			if r.Crossed {
				cross = r.NCross
			}
			t.Rows = append(t.Rows, []any{r.ModelA, r.ModelB, r.Threshold, cross, r.FullN, r.FullP})
		}
		p.Tables = append(p.Tables, t)
	}
	if s.Tests != nil {
		t := &report.Table{Name: "pairwise_tests", Title: "Significance of the rubric ranking", Section: report.SectionRubric,
			Doc: "Paired two-sided t-tests over questions of the per-question rubric score (mean over the question's human gradings): each pair of models adjacent in the overall rubric order (set all), and the human label against every model (reference_subset).",
			Columns: []report.Column{
				paperCol("set", report.Text, "all or reference_subset"),
				paperCol("comparison", report.Text, "adjacent (next in the rubric order) or human_label"),
				paperCol("model_a", report.Text, "higher-ranked model (or the human label)"),
				paperCol("model_b", report.Text, "the other model"),
				paperCol("n", report.Int, "questions with a score for both"),
				paperCol("mean_a", report.Float, "mean per-question score of model_a"),
				paperCol("mean_b", report.Float, "mean per-question score of model_b"),
				paperCol("t", report.Float, "paired t statistic (a − b)"),
				paperCol("df", report.Float, "degrees of freedom (n − 1)"),
				paperCol("p", report.Float, "two-sided p-value"),
				paperCol("p_holm", report.Float, "Holm-adjusted p-value within the set's comparisons"),
			}}
		for _, r := range s.Tests {
			t.Rows = append(t.Rows, []any{r.Set, r.Comparison, r.ModelA, r.ModelB, r.N, r.MeanA, r.MeanB, r.T, r.DF, r.P, r.PHolm})
		}
		p.Tables = append(p.Tables, t)
	}
	return p
}
