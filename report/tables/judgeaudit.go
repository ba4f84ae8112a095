package tables

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/euroexec/euroexec/metrics/judgeaudit"
	"github.com/euroexec/euroexec/report"
)

// JudgeAudit presents r: the tables judge_bias, judge_bias_by_attribute
// (when there are rubric attributes) and judge_audit, and a forest plot
// per unit of the biases (judgeauditFigures), with r's notes and warnings, ready for report.Report.Add. It
// has no tables when no judge was audited.
func JudgeAudit(r judgeaudit.Result) report.Part {
	p := report.Part{Warnings: r.Warnings}
	for _, n := range r.Notes {
		p.Notes = append(p.Notes, report.Note{Table: n.Table, Reason: n.Reason})
	}
	if len(r.Judges) == 0 {
		return p
	}
	tb := judgeauditBiasTable()
	ta := judgeauditAttrTable()
	tau := judgeauditAuditTable(r.Thresholds)
	for _, j := range r.Judges {
		for _, b := range j.Biases {
			tb.Rows = append(tb.Rows, []any{j.Judge, b.Name, b.Estimate, b.Lo, b.Hi, b.N, b.Unit, judgeauditFlagCell(b), b.Note})
		}
		for _, b := range j.ByAttribute {
			ta.Rows = append(ta.Rows, []any{j.Judge, b.Attribute, b.Name, b.Estimate, b.Lo, b.Hi, b.N, b.Unit, judgeauditFlagCell(b), b.Note})
		}
		tau.Rows = append(tau.Rows, []any{j.Judge, j.Provider, j.Responses, j.Questions,
			j.Tau, j.TauN, j.Kappa, j.MacroF1, j.Pairs, strings.Join(j.Flagged, ";"), j.Verdict})
	}
	if len(r.Attributes) > 0 {
		p.Tables = append(p.Tables, tb, ta, tau)
	} else {
		p.Tables = append(p.Tables, tb, tau)
	}
	p.Figures = judgeauditFigures(r.Judges)
	return p
}

// judgeauditAxis is how the figure of one unit names its y axis.
type judgeauditAxis struct {
	name, unit string
	scale      float64 // the values are multiplied by it (100: a rate difference in pp)
}

// judgeauditAxes name the y axis of each unit of judge_bias; a unit not
// listed is drawn as "estimate − no-bias value" in its own unit.
var judgeauditAxes = map[string]judgeauditAxis{
	"rubric points":       {"judge − humans", "rubric points", 1},
	"SD":                  {"judge − humans", "human SDs", 1},
	"points per doubling": {"slope", "rubric points per doubling of length", 1},
	"ratio":               {"SD ratio − 1", "", 1},
	"rate":                {"checklist rate, judge − humans", "pp", 100},
}

// judgeauditFigures are the forest plots of the signed biases, one figure
// per unit so that one axis never mixes units (rubric points, SDs, slopes
// per doubling, ratios, rates): the judges along x, one series per bias
// of that unit, each estimate minus its no-bias value with its interval
// (the questions behind it as n, so that an interval from one question is
// not drawn). Rerun α and rerun_mad are not signed biases: they are in
// the table only. A unit with no estimate for any judge has no figure, a
// bias with none no series.
func judgeauditFigures(judges []judgeaudit.Judge) []*report.Figure {
	var units []string
	byUnit := map[string][]string{} // unit → bias names, in table order
	for _, j := range judges {
		for _, b := range j.Biases {
			if b.Name == judgeaudit.Rerun || b.Name == judgeaudit.RerunMAD || slices.Contains(byUnit[b.Unit], b.Name) {
				continue
			}
			if _, ok := byUnit[b.Unit]; !ok {
				units = append(units, b.Unit)
			}
			byUnit[b.Unit] = append(byUnit[b.Unit], b.Name)
		}
	}
	var out []*report.Figure
	for _, unit := range units {
		ax, ok := judgeauditAxes[unit]
		if !ok {
			ax = judgeauditAxis{"estimate − no-bias value", unit, 1}
		}
		f := &report.Figure{ID: "judge_audit_" + judgeauditFigID(unit), Section: report.SectionJudgeAudit, Kind: report.Bar,
			XName: "judge", YName: ax.name, YUnit: ax.unit, Table: judgeaudit.TableBias}
		for _, j := range judges {
			f.Categories = append(f.Categories, j.Judge)
		}
		for _, name := range byUnit[unit] {
			s := report.Series{Name: name}
			drawn := false
			for _, j := range judges {
				v, lo, hi := math.NaN(), math.NaN(), math.NaN()
				for _, b := range j.Biases {
					if b.Name == name {
						v, lo, hi = ax.scale*(b.Estimate-b.Null), ax.scale*(b.Lo-b.Null), ax.scale*(b.Hi-b.Null)
					}
				}
				drawn = drawn || !math.IsNaN(v)
				s.Values, s.Lo, s.Hi = append(s.Values, v), append(s.Lo, lo), append(s.Hi, hi)
				s.N = append(s.N, int(j.Questions))
			}
			if drawn {
				f.Series = append(f.Series, s)
			}
		}
		if len(f.Series) > 0 {
			var names []string
			for _, s := range f.Series {
				names = append(names, s.Name)
			}
			f.Title = "Judge audit: " + strings.Join(names, ", ") + " (" + unit + "), estimate minus its no-bias value, 95 % intervals"
			out = append(out, f)
		}
	}
	return out
}

// judgeauditFlagCell is the flagged cell of b: "yes", "no" or "" when
// undecided.
func judgeauditFlagCell(b judgeaudit.Bias) string {
	switch {
	case !b.Decided():
		return ""
	case b.Flagged:
		return "yes"
	}
	return "no"
}

// judgeauditFigID is s in lower case with every character but a–z and
// 0–9 replaced by _, for a figure id.
func judgeauditFigID(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

func judgeauditCol(name string, kind report.ColumnKind, doc string) report.Column {
	return report.Column{Name: name, Kind: kind, Doc: doc}
}

func judgeauditBiasTable() *report.Table {
	col := judgeauditCol
	return &report.Table{Name: judgeaudit.TableBias, Title: "Judge audit: bias per judge", Section: report.SectionJudgeAudit,
		Doc: "Per judge and bias: the estimate, its 95 % cluster-bootstrap interval over questions (paired across judges and biases), the units behind it, and whether the interval excludes the no-bias value. Residual = judge rubric mean − mean of the human rubric means on the same response (judge runs averaged, main round).",
		Columns: []report.Column{
			col("judge", report.Text, "judge (evaluator id)"),
			col("bias", report.Text, "leniency, leniency_std, length, self_preference, position, scale, rerun, rerun_mad, checklist_leniency"),
			col("estimate", report.Float, "the bias estimate (see unit); empty when it cannot be computed (note says why)"),
			col("lo", report.Float, "95 % cluster-bootstrap interval over questions, lower end"),
			col("hi", report.Float, "95 % cluster-bootstrap interval over questions, upper end"),
			col("n", report.Int, "units behind the estimate: responses (run gradings for position)"),
			col("unit", report.Text, "unit of the estimate"),
			col("flagged", report.Text, "yes when the interval excludes the no-bias value (rerun: upper end below the rerun threshold), no otherwise, empty without an interval"),
			col("note", report.Text, "why the row is empty, or a remark"),
		}}
}

func judgeauditAttrTable() *report.Table {
	col := judgeauditCol
	return &report.Table{Name: judgeaudit.TableByAttribute, Title: "Judge audit: leniency per rubric attribute", Section: report.SectionJudgeAudit,
		Doc: "Per judge and rubric attribute: mean of (judge score − mean human score) on the responses both graded, with its 95 % cluster-bootstrap interval over questions.",
		Columns: []report.Column{
			col("judge", report.Text, "judge (evaluator id)"),
			col("attribute", report.Text, "rubric attribute"),
			col("bias", report.Text, "leniency"),
			col("estimate", report.Float, "mean judge − human score on the attribute"),
			col("lo", report.Float, "95 % interval, lower end"),
			col("hi", report.Float, "95 % interval, upper end"),
			col("n", report.Int, "responses"),
			col("unit", report.Text, "rubric points"),
			col("flagged", report.Text, "yes when the interval excludes 0"),
			col("note", report.Text, "why the row is empty"),
		}}
}

func judgeauditAuditTable(th judgeaudit.Thresholds) *report.Table {
	col := judgeauditCol
	return &report.Table{Name: judgeaudit.TableAudit, Title: "Judge audit: verdict per judge", Section: report.SectionJudgeAudit,
		Doc: fmt.Sprintf("Per judge: agreement with the humans (Table 8 τ, Cohen's κ and macro-F1 on solved/unsolved), the flagged biases and a verdict. Usable for ranking: τ ≥ %.2f and no flagged self_preference ≥ %.2f points or length ≥ %.2f per doubling; usable for absolute scores: κ ≥ %.2f and no flagged leniency or position ≥ %.2f points, scale outside [%.2f, %.2f] or checklist_leniency ≥ %.2f. A flagged bias below its threshold is named in the verdict as detectable but below the materiality thresholds, with its size.",
			th.Tau, th.Points, th.Length, th.Kappa, th.Points, th.ScaleLow, th.ScaleHigh, th.Rate),
		Columns: []report.Column{
			col("judge", report.Text, "judge (evaluator id)"),
			col("provider", report.Text, "the judge's provider (evaluators.provider)"),
			col("n_responses", report.Int, "responses graded by the judge and humans"),
			col("n_questions", report.Int, "questions with such responses"),
			col("tau", report.Float, "Table 8 τ-b: judge rubric vs mean-human rubric ranking, averaged over questions"),
			col("tau_n", report.Int, "questions with a defined τ"),
			col("kappa", report.Float, "Cohen's κ between judge and human solved/unsolved, over (judge grading, human grading) pairs of a response"),
			col("macro_f1", report.Float, "macro-F1 of the judge's solved against the humans' (humans as truth)"),
			col("n_pairs", report.Int, "(judge, human) grading pairs behind κ and macro-F1"),
			col("flagged", report.Text, "flagged biases, separated by ;"),
			col("verdict", report.Text, "the verdict in plain words"),
		}}
}
