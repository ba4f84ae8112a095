package tables

import (
	"math"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/internal/tabletest"
	"github.com/euroexec/euroexec/metrics/judgeaudit"
	"github.com/euroexec/euroexec/report"
)

// judgeauditTable is the table of p named name, or nil.
func judgeauditTable(p report.Part, name string) *report.Table {
	for _, t := range p.Tables {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// judgeauditResult is a hand-made audit of one judge: leniency flagged,
// scale decided and not flagged, position undecided (no interval), rerun
// (left off the forest plot), and one rubric attribute.
func judgeauditResult() judgeaudit.Result {
	nan := math.NaN()
	return judgeaudit.Result{
		Attributes: []string{"A"},
		Thresholds: judgeaudit.DefaultThresholds(),
		Notes:      []judgeaudit.Note{{Table: judgeaudit.TableByAttribute, Reason: "a reason"}},
		Warnings:   []string{"a warning"},
		Judges: []judgeaudit.Judge{{
			Judge: "GPT 4", Provider: "openai", Responses: 40, Questions: 20, Tau: 0.6, TauN: 18,
			Kappa: 0.5, MacroF1: 0.7, Pairs: 80, Flagged: []string{judgeaudit.Leniency}, Verdict: "v",
			Biases: []judgeaudit.Bias{
				{Name: judgeaudit.Leniency, Estimate: 0.4, Lo: 0.2, Hi: 0.6, N: 40, Unit: "rubric points", Null: 0, Flagged: true},
				{Name: judgeaudit.Scale, Estimate: 1.1, Lo: 0.9, Hi: 1.3, N: 40, Unit: "ratio", Null: 1},
				{Name: judgeaudit.Position, Estimate: 0.1, Lo: nan, Hi: nan, N: 80, Unit: "rubric points", Null: 0, Note: "no interval"},
				{Name: judgeaudit.Rerun, Estimate: 0.9, Lo: 0.85, Hi: 0.95, N: 40, Unit: "alpha", Null: 1},
			},
			ByAttribute: []judgeaudit.Bias{{Name: judgeaudit.Leniency, Attribute: "A", Estimate: 0.3, Lo: 0.1, Hi: 0.5, N: 40, Unit: "rubric points", Flagged: true}},
		}},
	}
}

// TestJudgeAuditFromTyped: every cell of judge_bias,
// judge_bias_by_attribute and judge_audit, read by column name, is the
// hand-made typed value; the flagged cell is yes, no or empty
// (undecided); notes and warnings are kept; without attributes there is
// no by-attribute table and without judges no table.
func TestJudgeAuditFromTyped(t *testing.T) {
	r := judgeauditResult()
	p := JudgeAudit(r)
	tb, ta, tau := judgeauditTable(p, judgeaudit.TableBias), judgeauditTable(p, judgeaudit.TableByAttribute), judgeauditTable(p, judgeaudit.TableAudit)
	if len(p.Tables) != 3 || tb == nil || ta == nil || tau == nil {
		t.Fatalf("tables %v", p.Tables)
	}
	if len(tb.Rows) != 4 || len(ta.Rows) != 1 || len(tau.Rows) != 1 {
		t.Fatalf("rows: bias %d, by attribute %d, audit %d; want 4, 1, 1", len(tb.Rows), len(ta.Rows), len(tau.Rows))
	}
	nan := math.NaN()
	for i, want := range []map[string]any{
		{"judge": "GPT 4", "bias": "leniency", "estimate": 0.4, "lo": 0.2, "hi": 0.6, "n": int64(40), "unit": "rubric points", "flagged": "yes", "note": ""},
		{"judge": "GPT 4", "bias": "scale", "estimate": 1.1, "lo": 0.9, "hi": 1.3, "n": int64(40), "unit": "ratio", "flagged": "no", "note": ""},
		{"judge": "GPT 4", "bias": "position", "estimate": 0.1, "lo": nan, "hi": nan, "n": int64(80), "unit": "rubric points", "flagged": "", "note": "no interval"},
		{"judge": "GPT 4", "bias": "rerun", "estimate": 0.9, "lo": 0.85, "hi": 0.95, "n": int64(40), "unit": "alpha", "flagged": "no", "note": ""},
	} {
		tabletest.CheckCells(t, tb, tb.Rows[i], want)
	}
	tabletest.CheckCells(t, ta, ta.Rows[0], map[string]any{"judge": "GPT 4", "attribute": "A", "bias": "leniency", "estimate": 0.3,
		"lo": 0.1, "hi": 0.5, "n": int64(40), "unit": "rubric points", "flagged": "yes", "note": ""})
	tabletest.CheckCells(t, tau, tau.Rows[0], map[string]any{"judge": "GPT 4", "provider": "openai", "n_responses": int64(40),
		"n_questions": int64(20), "tau": 0.6, "tau_n": int64(18), "kappa": 0.5, "macro_f1": 0.7, "n_pairs": int64(80),
		"flagged": "leniency", "verdict": "v"})
	if !strings.Contains(tau.Doc, "τ ≥ 0.50") || !strings.Contains(tau.Doc, "[0.80, 1.25]") {
		t.Errorf("judge_audit doc does not state the thresholds: %s", tau.Doc)
	}
	if len(p.Notes) != 1 || p.Notes[0] != (report.Note{Table: judgeaudit.TableByAttribute, Reason: "a reason"}) || len(p.Warnings) != 1 {
		t.Errorf("notes %v warnings %v", p.Notes, p.Warnings)
	}
	r.Attributes = nil
	if p := JudgeAudit(r); len(p.Tables) != 2 || p.Tables[0].Name != judgeaudit.TableBias || p.Tables[1].Name != judgeaudit.TableAudit {
		t.Errorf("no attributes: tables %v", p.Tables)
	}
	if p := JudgeAudit(judgeaudit.Result{Notes: r.Notes}); len(p.Tables) != 0 || len(p.Figures) != 0 || len(p.Notes) != 1 {
		t.Errorf("no judges: %d tables, %d figures, notes %v", len(p.Tables), len(p.Figures), p.Notes)
	}
}

// TestJudgeAuditFigure: one figure per unit, never two units on one
// axis: the judges along x, a series per signed bias of that unit with
// the estimate minus its no-bias value (scale 1.1 → 0.1), rerun left
// off, a bias undefined for every judge without a series, and a judge
// without an estimate a gap.
func TestJudgeAuditFigure(t *testing.T) {
	r := judgeauditResult()
	nan := math.NaN()
	r.Judges = append(r.Judges, judgeaudit.Judge{Judge: "j2", Questions: 1, Biases: []judgeaudit.Bias{
		{Name: judgeaudit.Leniency, Estimate: -0.2, Lo: -0.2, Hi: -0.2, Unit: "rubric points"},
		{Name: judgeaudit.Scale, Estimate: nan, Lo: nan, Hi: nan, Unit: "ratio", Null: 1},
		{Name: judgeaudit.SelfPreference, Estimate: nan, Lo: nan, Hi: nan, Unit: "rubric points"},
		{Name: judgeaudit.Position, Estimate: nan, Lo: nan, Hi: nan, Unit: "rubric points"},
		{Name: judgeaudit.Rerun, Estimate: nan, Lo: nan, Hi: nan, Unit: "alpha", Null: 1},
		{Name: judgeaudit.ChecklistLeniency, Estimate: -0.05, Lo: -0.08, Hi: -0.02, Unit: "rate"},
	}})
	p := JudgeAudit(r)
	type bar struct{ val, lo, hi float64 }
	want := map[string]map[string][]bar{ // figure → series → bar per judge (GPT 4, j2)
		"judge_audit_rubric_points": {
			"leniency": {{0.4, 0.2, 0.6}, {-0.2, -0.2, -0.2}},
			"position": {{0.1, nan, nan}, {nan, nan, nan}},
		},
		"judge_audit_ratio": {"scale": {{0.1, -0.1, 0.3}, {nan, nan, nan}}},
		// a checklist rate difference in percentage points, not a fraction
		"judge_audit_rate": {"checklist_leniency": {{nan, nan, nan}, {-5, -8, -2}}},
	}
	units := map[string]string{"judge_audit_rubric_points": "rubric points", "judge_audit_ratio": "", "judge_audit_rate": "pp"}
	if f := p.Figures[0]; strings.Contains(f.Title, "self_preference") {
		t.Errorf("title %q names a bias without a series", f.Title)
	}
	if len(p.Figures) != len(want) {
		t.Fatalf("%d figures, want %d (rubric points, ratio, rate)", len(p.Figures), len(want))
	}
	for _, f := range p.Figures {
		w, ok := want[f.ID]
		if !ok {
			t.Errorf("unexpected figure %s", f.ID)
			continue
		}
		if f.Percent {
			t.Errorf("%s: drawn as percent; a difference of rates is in pp", f.ID)
		}
		if f.YUnit != units[f.ID] || len(f.Categories) != 2 || f.Categories[0] != "GPT 4" || f.Categories[1] != "j2" || len(f.Series) != len(w) {
			t.Errorf("%s: unit %q categories %v series %d", f.ID, f.YUnit, f.Categories, len(f.Series))
			continue
		}
		for _, s := range f.Series {
			if !strings.Contains(f.Title, s.Name) {
				t.Errorf("%s: title %q does not name its series %s", f.ID, f.Title, s.Name)
			}
			ws, ok := w[s.Name]
			if !ok {
				t.Errorf("%s: series %s of another unit", f.ID, s.Name)
				continue
			}
			for i, b := range ws {
				if !judgeauditNear(s.Values[i], b.val) || !judgeauditNear(s.Lo[i], b.lo) || !judgeauditNear(s.Hi[i], b.hi) {
					t.Errorf("%s %s judge %d: %v [%v, %v], want %v [%v, %v]", f.ID, s.Name, i, s.Values[i], s.Lo[i], s.Hi[i], b.val, b.lo, b.hi)
				}
			}
			if s.N[0] != 20 || s.N[1] != 1 {
				t.Errorf("%s %s: n %v, want the judges' questions [20 1]", f.ID, s.Name, s.N)
			}
		}
	}
}

// judgeauditNear: equal within 1e-12, or both NaN.
func judgeauditNear(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= 1e-12
}
