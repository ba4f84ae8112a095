package judgeaudit

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/internal/tabletest"
)

// flagWord is the flagged cell written out independently of flagCell.
func flagWord(b Bias) string {
	if math.IsNaN(b.Estimate) || math.IsNaN(b.Lo) || math.IsNaN(b.Hi) {
		return ""
	}
	if b.Flagged {
		return "yes"
	}
	return "no"
}

// TestPartFromTyped: every cell of judge_bias, judge_bias_by_attribute and
// judge_audit, read by column name, is the typed value of the Result, and
// the forest plot shows the estimates minus their no-bias values.
func TestPartFromTyped(t *testing.T) {
	for _, boot := range []int{0, 200} {
		opt := DefaultOptions()
		opt.Bootstrap = boot
		res, err := Analyze(context.Background(), simStudy(3, 30), opt)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Judges) == 0 || len(res.Attributes) == 0 {
			t.Fatalf("judges %d attributes %v", len(res.Judges), res.Attributes)
		}
		p := res.Part()
		tb, ta, tau := table(res, TableBias), table(res, TableByAttribute), table(res, TableAudit)
		if tb == nil || ta == nil || tau == nil || len(p.Tables) != 3 || len(p.Figures) != len(res.Judges) {
			t.Fatalf("tables %d figures %d", len(p.Tables), len(p.Figures))
		}
		ib, ia, flagged, decided := 0, 0, 0, 0
		for ji, j := range res.Judges {
			tabletest.CheckCells(t, tau, tau.Rows[ji], map[string]any{
				"judge": j.Judge, "provider": j.Provider, "n_responses": j.Responses, "n_questions": j.Questions,
				"tau": j.Tau, "tau_n": j.TauN, "kappa": j.Kappa, "macro_f1": j.MacroF1, "n_pairs": j.Pairs,
				"flagged": strings.Join(j.Flagged, ";"), "verdict": j.Verdict,
			})
			f := p.Figures[ji]
			if f.Series[0].Name != j.Judge {
				t.Errorf("figure %d is of %s, want %s", ji, f.Series[0].Name, j.Judge)
			}
			k := 0
			for _, b := range j.Biases {
				tabletest.CheckCells(t, tb, tb.Rows[ib], map[string]any{
					"judge": j.Judge, "bias": b.Name, "estimate": b.Estimate, "lo": b.Lo, "hi": b.Hi, "n": b.N,
					"unit": b.Unit, "flagged": flagWord(b), "note": b.Note,
				})
				ib++
				if b.Flagged {
					flagged++
				}
				if b.Decided() {
					decided++
				}
				if b.Name == Rerun || b.Name == RerunMAD {
					continue
				}
				if !strings.HasPrefix(f.Categories[k], b.Name+" (") || !tabletest.SameCell(f.Series[0].Values[k], b.Estimate-b.Null) ||
					!tabletest.SameCell(f.Series[0].Lo[k], b.Lo-b.Null) || !tabletest.SameCell(f.Series[0].Hi[k], b.Hi-b.Null) {
					t.Errorf("%s bar %d %q: %v, want %s %v", j.Judge, k, f.Categories[k], f.Series[0].Values[k], b.Name, b.Estimate-b.Null)
				}
				k++
			}
			for ai, b := range j.ByAttribute {
				if b.Attribute != res.Attributes[ai] {
					t.Errorf("%s attribute %d is %s, want %s", j.Judge, ai, b.Attribute, res.Attributes[ai])
				}
				tabletest.CheckCells(t, ta, ta.Rows[ia], map[string]any{
					"judge": j.Judge, "attribute": b.Attribute, "bias": b.Name, "estimate": b.Estimate, "lo": b.Lo, "hi": b.Hi,
					"n": b.N, "unit": b.Unit, "flagged": flagWord(b), "note": b.Note,
				})
				ia++
			}
		}
		if ib != len(tb.Rows) || ia != len(ta.Rows) || len(tau.Rows) != len(res.Judges) {
			t.Errorf("rows: bias %d/%d, by attribute %d/%d, audit %d/%d", ib, len(tb.Rows), ia, len(ta.Rows), len(tau.Rows), len(res.Judges))
		}
		if boot > 0 && (flagged == 0 || decided == flagged) {
			t.Errorf("bootstrap %d: %d flagged of %d decided: both flag words are not exercised", boot, flagged, decided)
		}
		if boot == 0 && decided != 0 {
			t.Errorf("no bootstrap, yet %d flags decided", decided)
		}
	}
	// Without a rubric: no by-attribute table.
	r := Result{Judges: []Judge{{Judge: "j", Tau: math.NaN(), Kappa: math.NaN(), MacroF1: math.NaN()}}}
	if p := r.Part(); len(p.Tables) != 2 || p.Tables[0].Name != TableBias || p.Tables[1].Name != TableAudit {
		t.Errorf("no attributes: tables %v", p.Tables)
	}
	if p := (Result{}).Part(); len(p.Tables) != 0 || len(p.Figures) != 0 {
		t.Error("no judges: tables made")
	}
}
