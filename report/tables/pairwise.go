package tables

import (
	"fmt"
	"math"

	"github.com/euroexec/euroexec/metrics/pairwise"
	"github.com/euroexec/euroexec/report"
)

// pairwiseCol is a column.
func pairwiseCol(name string, kind report.ColumnKind, doc string) report.Column {
	return report.Column{Name: name, Kind: kind, Doc: doc}
}

// pairwiseWithCI are the columns of an estimate with its bootstrap interval.
func pairwiseWithCI(name string, kind report.ColumnKind, doc string) []report.Column {
	return []report.Column{pairwiseCol(name, kind, doc),
		pairwiseCol(name+"_lo", kind, "lower end of the 95 % cluster-bootstrap interval of "+name),
		pairwiseCol(name+"_hi", kind, "upper end of the 95 % cluster-bootstrap interval of "+name)}
}

// pairwiseWithT is pairwiseWithCI for an estimate whose interval is a t interval with
// questions as clusters (how says how its standard error is computed).
func pairwiseWithT(name string, kind report.ColumnKind, doc, how string) []report.Column {
	return []report.Column{pairwiseCol(name, kind, doc),
		pairwiseCol(name+"_lo", kind, "lower end of the 95 % t interval of "+name+" ("+how+")"),
		pairwiseCol(name+"_hi", kind, "upper end of the 95 % t interval of "+name)}
}

// pairwiseCols flattens columns and column lists.
func pairwiseCols(parts ...any) []report.Column {
	var out []report.Column
	for _, p := range parts {
		switch x := p.(type) {
		case report.Column:
			out = append(out, x)
		case []report.Column:
			out = append(out, x...)
		}
	}
	return out
}

// pairwiseCI are the value, lo and hi cells of e.
func pairwiseCI(e pairwise.Estimate) []any { return []any{e.Value, e.Lo, e.Hi} }

// pairwiseIntOrNil is v as a cell, empty when v is 0 (undefined).
func pairwiseIntOrNil(v int64) any {
	if v == 0 {
		return nil
	}
	return v
}

// Pairwise presents r: the pairwise tables (pairwise_models, pairwise_matrix,
// pairwise_agreement when there are agreement rows, pairwise_position,
// pairwise_length and pairwise_rubric when some population has them) and
// their figures from r; with its Notes and Warnings it is ready for
// report.Report.Add. It has no tables when r has no populations.
func Pairwise(r pairwise.Result) report.Part {
	res := report.Part{Warnings: r.Warnings}
	for _, n := range r.Notes {
		res.Notes = append(res.Notes, report.Note{Table: n.Table, Reason: n.Reason})
	}
	if len(r.Populations) == 0 {
		return res
	}
	mt := &report.Table{Name: pairwise.ModelsTable, Title: "Pairwise judgments: win rates and Bradley–Terry ratings", Section: report.SectionPairwise,
		Doc: "Per grader population (humans pooled, each judge) and model, on the main round: judgments, wins, losses, ties, the win rate (ties count half) and the Bradley–Terry rating (ties as half wins, Elo scale 1000 + 400·log10(e)·β, mean β = 0), with the rank by rating; 95 % cluster-bootstrap intervals over questions (one-sided for a model that never lost or never won). Where the responses have texts, also the length-controlled win rate and the style-controlled rating from the Bradley–Terry model with length and markdown-style covariates of pairwise_length, with t intervals from its question-clustered sandwich covariance.",
		Columns: pairwiseCols(pairwiseCol("graders", report.Text, "humans (pooled) or a judge"), pairwiseCol("model", report.Text, "the model"),
			pairwiseCol("n", report.Int, "judgments of the model's answers against another model's"),
			pairwiseCol("wins", report.Int, "judgments the model won"), pairwiseCol("losses", report.Int, "judgments the model lost"), pairwiseCol("ties", report.Int, "ties"),
			pairwiseWithCI("win_rate", report.Fraction, "(wins + ties/2) / n"),
			pairwiseWithCI("bt_rating", report.Float, "Bradley–Terry rating on the Elo scale (1000 = average)"),
			pairwiseCol("rank", report.Int, "rank by rating, 1 = best (1 + models rated strictly higher)"),
			pairwiseCol("rank_lo", report.Int, "best rank in the 95 % bootstrap interval (2.5th percentile, rounded down)"),
			pairwiseCol("rank_hi", report.Int, "worst rank in the 95 % bootstrap interval (97.5th percentile, rounded up)"),
			pairwiseWithT("lc_win_rate", report.Fraction, "length-controlled win rate: the win rate against the same opponents predicted at equal length and markdown style, Σ_j n_j·σ(θ_m − θ_j) / Σ_j n_j (AlpacaEval 2.0's idea without its instruction-difficulty term)", "delta method on the logit scale, question-clustered sandwich covariance, questions − 1 degrees of freedom; empty for a model that never lost or never won"),
			pairwiseWithT("sc_bt_rating", report.Float, "style-controlled Bradley–Terry rating (length and markdown style held equal), Elo scale", "question-clustered sandwich covariance, questions − 1 degrees of freedom; empty for a model that never lost or never won"))}
	xt := &report.Table{Name: pairwise.MatrixTable, Title: "Pairwise judgments: win-rate matrix", Section: report.SectionPairwise,
		Doc: "Per grader population and every ordered pair of models that met, whichever was shown first: judgments, wins of model_a, ties, wins of model_b and model_a's win rate (ties count half), with its 95 % cluster-bootstrap interval over questions.",
		Columns: pairwiseCols(pairwiseCol("graders", report.Text, "humans (pooled) or a judge"), pairwiseCol("model_a", report.Text, "the row model"), pairwiseCol("model_b", report.Text, "the column model"),
			pairwiseCol("n", report.Int, "judgments of the pair"), pairwiseCol("wins_a", report.Int, "won by model_a"), pairwiseCol("ties", report.Int, "ties"), pairwiseCol("wins_b", report.Int, "won by model_b"),
			pairwiseWithCI("win_rate_a", report.Fraction, "(wins_a + ties/2) / n"))}
	figBT := &report.Figure{ID: "pairwise_bt_ratings", Section: report.SectionPairwise, Title: "Bradley–Terry ratings with 95 % intervals",
		Kind: report.Bar, XName: "model", YName: "rating (Elo scale)", Table: pairwise.ModelsTable, Categories: r.Models}
	figBT.Dots = true // a rating has no zero: dots with intervals, not bars
	gpos := make(map[string]int, len(r.Models))
	for i, m := range r.Models {
		gpos[m] = i
	}
	var heat []*report.Figure
	for pi, pop := range r.Populations {
		ser := report.Series{Name: pop.Name, Values: make([]float64, len(r.Models)), Lo: make([]float64, len(r.Models)), Hi: make([]float64, len(r.Models))}
		for i := range ser.Values {
			ser.Values[i], ser.Lo[i], ser.Hi[i] = math.NaN(), math.NaN(), math.NaN()
		}
		for _, m := range pop.Models {
			row := append([]any{pop.Name, m.Model, m.N, m.Wins, m.Losses, m.Ties}, pairwiseCI(m.WinRate)...)
			row = append(row, pairwiseCI(m.Rating)...)
			row = append(append(row, pairwiseIntOrNil(m.Rank), pairwiseIntOrNil(m.RankLo), pairwiseIntOrNil(m.RankHi)), pairwiseCI(m.LCWinRate)...)
			mt.Rows = append(mt.Rows, append(row, pairwiseCI(m.SCRating)...))
			g := gpos[m.Model]
			ser.Values[g], ser.Lo[g], ser.Hi[g] = m.Rating.Value, pairwiseFinite(m.Rating.Lo), pairwiseFinite(m.Rating.Hi)
		}
		figBT.Series = append(figBT.Series, ser)
		hf := &report.Figure{ID: fmt.Sprintf("pairwise_matrix_%d", pi+1), Section: report.SectionPairwise,
			Title: "Win rate of the row model against the column model: " + pop.Name, Kind: report.Heatmap,
			XName: "against", YName: "model", Percent: true, Table: pairwise.MatrixTable}
		ppos := make(map[string]int, len(pop.Present))
		for i, m := range pop.Present {
			hf.Categories = append(hf.Categories, m)
			hf.YCategories = append(hf.YCategories, m)
			ppos[m] = i
		}
		hs := report.Series{Name: "win rate"}
		for _, c := range pop.Matrix {
			xt.Rows = append(xt.Rows, append([]any{pop.Name, c.ModelA, c.ModelB, c.N, c.WinsA, c.Ties, c.WinsB}, pairwiseCI(c.WinRateA)...))
			hs.Cells = append(hs.Cells, report.Cell{X: ppos[c.ModelB], Y: ppos[c.ModelA], Value: c.WinRateA.Value})
		}
		hf.Series = []report.Series{hs}
		heat = append(heat, hf)
	}
	res.Tables = append(res.Tables, mt, xt)
	res.Figures = append(res.Figures, figBT)
	res.Figures = append(res.Figures, heat...)

	// Agreement.
	if len(r.Agreement) > 0 {
		at := &report.Table{Name: pairwise.AgreementTable, Title: "Pairwise judgments: agreement between graders", Section: report.SectionPairwise,
			Doc: "For every two graders over the comparisons both judged (same question and model pair, either order; a grader's verdict is the sign of its wins minus losses over its judgments of the comparison), and for each grader against the strict majority of the other human graders: raw agreement, Cohen's κ on three classes (one model better, tie, the other better), macro F1, precision and recall with grader_b as the reference, each counted over every comparison in both orientations of its pair so that no number depends on the models' names or the order shown; 95 % cluster-bootstrap intervals over questions.",
			Columns: pairwiseCols(pairwiseCol("grader_a", report.Text, "a grader (the predictions for F1)"), pairwiseCol("grader_b", report.Text, "the other grader or the majority of the other humans (the reference for F1)"),
				pairwiseCol("n", report.Int, "comparisons both judged"),
				pairwiseWithCI("agreement", report.Fraction, "share of comparisons with the same verdict"),
				pairwiseWithCI("kappa", report.Float, "Cohen's κ, three classes"),
				pairwiseWithCI("macro_f1", report.Float, "macro F1 over the classes observed"),
				pairwiseWithCI("precision_macro", report.Float, "macro precision"),
				pairwiseWithCI("recall_macro", report.Float, "macro recall"))}
		fig := &report.Figure{ID: "pairwise_kappa", Section: report.SectionPairwise, Title: "Cohen's κ between graders on the pairwise judgments, 95 % intervals",
			Kind: report.Bar, XName: "graders", YName: "κ", Table: pairwise.AgreementTable}
		sk := report.Series{Name: "κ"}
		for _, ap := range r.Agreement {
			row := []any{ap.GraderA, ap.GraderB, ap.N}
			for _, e := range []pairwise.Estimate{ap.Agreement, ap.Kappa, ap.MacroF1, ap.Precision, ap.Recall} {
				row = append(row, pairwiseCI(e)...)
			}
			at.Rows = append(at.Rows, row)
			fig.Categories = append(fig.Categories, ap.GraderA+" vs "+ap.GraderB)
			sk.Values, sk.Lo, sk.Hi = append(sk.Values, ap.Kappa.Value), append(sk.Lo, ap.Kappa.Lo), append(sk.Hi, ap.Kappa.Hi)
		}
		fig.Series = []report.Series{sk}
		res.Tables = append(res.Tables, at)
		res.Figures = append(res.Figures, fig)
	}

	// Position, length, rubric.
	pt := &report.Table{Name: pairwise.PositionTable, Title: "Pairwise judgments: position bias", Section: report.SectionPairwise,
		Doc: "Per grader population: share of non-tie verdicts won by the answer shown first (judgments whose order shown is unknown left out), with a two-sided p-value against ½ that treats questions as clusters (so judge reruns and several pairs of one question do not count as independent); for comparisons judged in both orders by the same grader (and run), the share with the same verdict after swapping (swap consistency) and with opposite winners (conflict rate).",
		Columns: pairwiseCols(pairwiseCol("graders", report.Text, "humans (pooled) or a judge"), pairwiseCol("n", report.Int, "non-tie verdicts"), pairwiseCol("first_wins", report.Int, "won by the answer shown first"),
			pairwiseWithCI("first_share", report.Fraction, "first_wins / n"), pairwiseCol("p_value", report.Float, "two-sided test of first_share = ½ with questions as clusters: the larger of the one-sample t test of first_wins − n/2 per question and the exact binomial test"),
			pairwiseCol("n_swapped", report.Int, "comparisons judged in both orders"),
			pairwiseWithCI("swap_consistency", report.Fraction, "same verdict in both orders"),
			pairwiseWithCI("conflict_rate", report.Fraction, "a different model wins in each order"),
			pairwiseCol("n_position_unknown", report.Int, "judgments whose order shown is unknown (position empty or unknown), left out of this table"))}
	lt := &report.Table{Name: pairwise.LengthTable, Title: "Pairwise judgments: length bias", Section: report.SectionPairwise,
		Doc: fmt.Sprintf("Per grader population: the length bias with model quality held fixed — from a Bradley–Terry model of the judgments of two responses with texts, logit P(a beats b) = θ_a − θ_b + γ·log2(len_a/len_b) + markdown-style terms (log2 of (1 + headers), (1 + list items), (1 + bold spans) of a over b, where they vary), ties as half wins, with sandwich standard errors clustered by question, t intervals and p-values — and, descriptively, the share of non-tie verdicts won by the longer answer, over the pairs whose lengths differ by more than %d characters, with the same question-clustered p-value against ½ as pairwise_position. The share is descriptive: when better models write longer answers it measures quality as much as length.", r.LengthMargin),
		Columns: pairwiseCols(pairwiseCol("graders", report.Text, "humans (pooled) or a judge"), pairwiseCol("n", report.Int, "non-tie verdicts on pairs of different length"),
			pairwiseCol("longer_wins", report.Int, "won by the longer answer"), pairwiseWithCI("longer_share", report.Fraction, "longer_wins / n"),
			pairwiseCol("p_value", report.Float, "two-sided test of longer_share = ½ with questions as clusters, as in pairwise_position (not a test of length bias: better models may write longer answers)"),
			pairwiseCol("n_model", report.Int, "judgments of two responses with texts, in the length and style model"),
			pairwiseCol("questions", report.Int, "questions of those judgments (the clusters)"),
			pairwiseEffectCols(pairwise.CovariateNames[0], "length bias with model quality held fixed: logit effect per doubling of the ratio of the two answers' lengths"),
			pairwiseEffectCols(pairwise.CovariateNames[1], "logit effect per doubling of (1 + markdown headers)"),
			pairwiseEffectCols(pairwise.CovariateNames[2], "logit effect per doubling of (1 + list items)"),
			pairwiseEffectCols(pairwise.CovariateNames[3], "logit effect per doubling of (1 + bold spans)"))}
	rt := &report.Table{Name: pairwise.RubricTable, Title: "Pairwise judgments against rubric grades", Section: report.SectionPairwise,
		Doc: "Per grader population: over the non-tie pairwise verdicts whose two responses have different rubric means from the same population (mean over its gradings of each grading's rubric mean), the share where the answer with the higher rubric mean won.",
		Columns: pairwiseCols(pairwiseCol("graders", report.Text, "humans (pooled) or a judge"), pairwiseCol("n", report.Int, "non-tie verdicts on responses with different rubric means"),
			pairwiseCol("agree", report.Int, "verdicts won by the answer with the higher rubric mean"), pairwiseWithCI("agreement", report.Fraction, "agree / n"))}
	fp := &report.Figure{ID: "pairwise_position", Section: report.SectionPairwise, Title: "Share of non-tie verdicts won by the answer shown first, 95 % intervals",
		Kind: report.Bar, XName: "graders", YName: "share", Percent: true, Table: pairwise.PositionTable}
	sp := report.Series{Name: "first shown wins"}
	hasLen, hasRub := false, false
	for _, pop := range r.Populations {
		ps := pop.Position
		row := append([]any{pop.Name, ps.N, ps.FirstWins}, pairwiseCI(ps.FirstShare)...)
		row = append(append(row, ps.PValue, ps.Swapped), pairwiseCI(ps.SwapConsistency)...)
		pt.Rows = append(pt.Rows, append(append(row, pairwiseCI(ps.ConflictRate)...), ps.Unknown))
		fp.Categories = append(fp.Categories, pop.Name)
		sp.Values, sp.Lo, sp.Hi = append(sp.Values, ps.FirstShare.Value), append(sp.Lo, ps.FirstShare.Lo), append(sp.Hi, ps.FirstShare.Hi)
		if pop.HasLength {
			hasLen = true
			lb := pop.Length
			row := append(append([]any{pop.Name, lb.N, lb.LongerWins}, pairwiseCI(lb.LongerShare)...), lb.PValue)
			if pop.HasModel {
				row = append(row, pop.Model.N, int64(pop.Model.Questions))
			} else {
				row = append(row, nil, nil)
			}
			for _, e := range pop.Model.Effects {
				if pop.HasModel {
					row = append(append(row, pairwiseCI(e.Estimate)...), e.PValue)
				} else {
					row = append(row, nil, nil, nil, nil)
				}
			}
			lt.Rows = append(lt.Rows, row)
		}
		if pop.HasRubric {
			hasRub = true
			ra := pop.Rubric
			rt.Rows = append(rt.Rows, append([]any{pop.Name, ra.N, ra.Agree}, pairwiseCI(ra.Agreement)...))
		}
	}
	fp.Series = []report.Series{sp}
	res.Tables = append(res.Tables, pt)
	res.Figures = append(res.Figures, fp)
	if hasLen {
		res.Tables = append(res.Tables, lt)
	}
	if hasRub {
		res.Tables = append(res.Tables, rt)
	}
	if jt := pairwiseJudgeAuditTable(r); jt != nil {
		res.Tables = append(res.Tables, jt)
	}
	return res
}

// pairwiseEffectCols are a covariate's columns: NAME_logit with its interval and
// NAME_p.
func pairwiseEffectCols(name, doc string) []report.Column {
	return []report.Column{pairwiseCol(name+"_logit", report.Float, doc+" (empty when the covariate does not vary)"),
		pairwiseCol(name+"_logit_lo", report.Float, "lower end of the 95 % t interval of "+name+"_logit (question-clustered sandwich SE, questions − 1 degrees of freedom)"),
		pairwiseCol(name+"_logit_hi", report.Float, "upper end of the 95 % t interval of "+name+"_logit"),
		pairwiseCol(name+"_p", report.Float, "two-sided t-test p-value of "+name+"_logit = 0")}
}

// pairwiseFinite is x, or NaN (no whisker end) for ±Inf.
func pairwiseFinite(x float64) float64 {
	if math.IsInf(x, 0) {
		return math.NaN()
	}
	return x
}

// pairwiseJudgeAuditTable is the pairwise_judge_audit table; nil without judges.
func pairwiseJudgeAuditTable(r pairwise.Result) *report.Table {
	if len(r.Judges) == 0 {
		return nil
	}
	t := &report.Table{Name: pairwise.JudgeAuditTable, Title: "Pairwise judges: audit", Section: report.SectionPairwise,
		Doc: "Per LLM judge of pairwise judgments, the biases the judge audit measures on rubric gradings, measured on preferences: position (share of non-tie verdicts won by the answer shown first, question-clustered p-value), length with model quality held fixed (logit per doubling of the length ratio, from the model of pairwise_length), self-preference (over the comparisons the humans judged too in which exactly one answer comes from the judge's provider, the judge's score of that answer minus the humans' mean score, 1 win, ½ tie, 0 loss; t interval and p-value with questions as clusters) and agreement with the strict majority of the human graders (κ as in pairwise_agreement).",
		Columns: pairwiseCols(pairwiseCol("judge", report.Text, "the judge"), pairwiseCol("n", report.Int, "its pairwise judgments"),
			pairwiseWithCI("first_share", report.Fraction, "share of non-tie verdicts won by the answer shown first (½ = no position bias)"),
			pairwiseCol("position_p", report.Float, "question-clustered p-value of first_share = ½"),
			pairwiseWithT("length_logit", report.Float, "logit effect per doubling of the length ratio, model quality held fixed (0 = no length bias)", "as in pairwise_length"),
			pairwiseCol("length_p", report.Float, "p-value of length_logit = 0"),
			pairwiseCol("n_self", report.Int, "comparisons judged by the judge and by humans with exactly one answer from the judge's provider"),
			pairwiseWithT("self_preference", report.Float, "judge's minus humans' score of its provider's answer (0 = none; empty without providers or such comparisons)", "cluster-robust SE of the ratio estimator, questions − 1 degrees of freedom"),
			pairwiseCol("self_p", report.Float, "p-value of self_preference = 0, questions as clusters"),
			pairwiseCol("n_humans", report.Int, "comparisons with a strict human majority"),
			pairwiseWithCI("agreement_humans", report.Fraction, "share of those with the majority's verdict"),
			pairwiseWithCI("kappa_humans", report.Float, "Cohen's κ against the majority (both orientations)"))}
	for _, j := range r.Judges {
		row := append([]any{j.Judge, j.N}, pairwiseCI(j.FirstShare)...)
		row = append(append(row, j.PositionP), pairwiseCI(j.Length)...)
		row = append(append(row, j.LengthP, j.SelfN), pairwiseCI(j.SelfPreference)...)
		row = append(append(row, j.SelfP, j.KappaN), pairwiseCI(j.Agreement)...)
		t.Rows = append(t.Rows, append(row, pairwiseCI(j.Kappa)...))
	}
	return t
}
