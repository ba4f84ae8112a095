package pairwise

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"runtime"
	"sort"
	"testing"

	"github.com/euroexec/euroexec/study"
)

// skKappa is Cohen's κ as sklearn.metrics.cohen_kappa_score(y1, y2)
// defines it, written independently of the package in the textbook form
// (po − pe)/(1 − pe) over the sorted union of observed labels.
func skKappa(y1, y2 []int) float64 {
	labels := union(y1, y2)
	n := float64(len(y1))
	po := 0.0
	for i := range y1 {
		if y1[i] == y2[i] {
			po++
		}
	}
	po /= n
	pe := 0.0
	for _, l := range labels {
		c1, c2 := 0.0, 0.0
		for i := range y1 {
			if y1[i] == l {
				c1++
			}
			if y2[i] == l {
				c2++
			}
		}
		pe += c1 / n * c2 / n
	}
	return (po - pe) / (1 - pe)
}

// skMacro returns sklearn's macro F1, macro precision and macro recall
// (precision_recall_fscore_support(average='macro'), zero_division=0) of
// yPred against yTrue over the sorted union of observed labels.
func skMacro(yTrue, yPred []int) (f1, prec, rec float64) {
	labels := union(yTrue, yPred)
	for _, l := range labels {
		tp, fp, fn := 0.0, 0.0, 0.0
		for i := range yTrue {
			switch {
			case yTrue[i] == l && yPred[i] == l:
				tp++
			case yPred[i] == l:
				fp++
			case yTrue[i] == l:
				fn++
			}
		}
		p, r := 0.0, 0.0
		if tp+fp > 0 {
			p = tp / (tp + fp)
		}
		if tp+fn > 0 {
			r = tp / (tp + fn)
		}
		if tp > 0 {
			f1 += 2 * tp / (2*tp + fp + fn)
		}
		prec += p
		rec += r
	}
	k := float64(len(labels))
	return f1 / k, prec / k, rec / k
}

func union(a, b []int) []int {
	seen := map[int]bool{}
	var u []int
	for _, x := range append(append([]int(nil), a...), b...) {
		if !seen[x] {
			seen[x] = true
			u = append(u, x)
		}
	}
	sort.Ints(u)
	return u
}

type vector struct {
	Fn   string `json:"fn"`
	Case string `json:"case"`
	Args struct {
		A      []int `json:"a"`
		B      []int `json:"b"`
		YTrue  []int `json:"y_true"`
		YPred  []int `json:"y_pred"`
		Labels []int `json:"labels"`
	} `json:"args"`
	Want struct {
		Kappa    *float64 `json:"kappa"`
		MacroF1  float64  `json:"macro_f1"`
		PerClass []struct {
			Precision, Recall float64
		} `json:"per_class"`
	} `json:"want"`
}

// sklearnVectors reads scikit-learn's κ and macro-F1 outputs
// (testdata/sklearn_kappa_f1.jsonl, copied from the shared reference
// vectors) without a labels argument.
func sklearnVectors(t *testing.T) []vector {
	t.Helper()
	f, err := os.Open("testdata/sklearn_kappa_f1.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []vector
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var v vector
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatal(err)
		}
		if v.Args.Labels == nil {
			out = append(out, v)
		}
	}
	if len(out) < 40 {
		t.Fatalf("only %d vectors read", len(out))
	}
	return out
}

func checkClose(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.IsNaN(want) && math.IsNaN(got) {
		return
	}
	if !(math.Abs(got-want) <= tol*math.Max(1, math.Abs(want))) {
		t.Errorf("%s: got %.17g, want %.17g (tolerance %g)", what, got, want, tol)
	}
}

// rowsOf returns the typed rows of r behind the table name as maps by
// the table's column names (report/tables.Pairwise lays them out so:
// report/tables tests that every cell is the typed value); it fails when
// r has no such rows.
func rowsOf(t *testing.T, r Result, name string) []map[string]any {
	t.Helper()
	ci := func(m map[string]any, name string, e Estimate) map[string]any {
		m[name], m[name+"_lo"], m[name+"_hi"] = e.Value, e.Lo, e.Hi
		return m
	}
	rank := func(v int64) any {
		if v == 0 {
			return nil
		}
		return v
	}
	var out []map[string]any
	switch name {
	case ModelsTable, MatrixTable, PositionTable, LengthTable, RubricTable:
		for _, pop := range r.Populations {
			switch name {
			case ModelsTable:
				for _, m := range pop.Models {
					w := map[string]any{"graders": pop.Name, "model": m.Model, "n": m.N, "wins": m.Wins, "losses": m.Losses, "ties": m.Ties,
						"rank": rank(m.Rank), "rank_lo": rank(m.RankLo), "rank_hi": rank(m.RankHi)}
					out = append(out, ci(ci(ci(ci(w, "win_rate", m.WinRate), "bt_rating", m.Rating), "lc_win_rate", m.LCWinRate), "sc_bt_rating", m.SCRating))
				}
			case MatrixTable:
				for _, c := range pop.Matrix {
					out = append(out, ci(map[string]any{"graders": pop.Name, "model_a": c.ModelA, "model_b": c.ModelB,
						"n": c.N, "wins_a": c.WinsA, "ties": c.Ties, "wins_b": c.WinsB}, "win_rate_a", c.WinRateA))
				}
			case PositionTable:
				ps := pop.Position
				w := map[string]any{"graders": pop.Name, "n": ps.N, "first_wins": ps.FirstWins, "p_value": ps.PValue, "n_swapped": ps.Swapped, "n_position_unknown": ps.Unknown}
				out = append(out, ci(ci(ci(w, "first_share", ps.FirstShare), "swap_consistency", ps.SwapConsistency), "conflict_rate", ps.ConflictRate))
			case LengthTable:
				if !pop.HasLength {
					continue
				}
				lb := pop.Length
				w := ci(map[string]any{"graders": pop.Name, "n": lb.N, "longer_wins": lb.LongerWins, "p_value": lb.PValue, "n_model": nil, "questions": nil}, "longer_share", lb.LongerShare)
				if pop.HasModel {
					w["n_model"], w["questions"] = pop.Model.N, int64(pop.Model.Questions)
				}
				for _, e := range pop.Model.Effects {
					if pop.HasModel {
						ci(w, e.Name+"_logit", e.Estimate)
						w[e.Name+"_p"] = e.PValue
					} else {
						w[e.Name+"_logit"], w[e.Name+"_logit_lo"], w[e.Name+"_logit_hi"], w[e.Name+"_p"] = nil, nil, nil, nil
					}
				}
				out = append(out, w)
			case RubricTable:
				if pop.HasRubric {
					ra := pop.Rubric
					out = append(out, ci(map[string]any{"graders": pop.Name, "n": ra.N, "agree": ra.Agree}, "agreement", ra.Agreement))
				}
			}
		}
	case AgreementTable:
		for _, a := range r.Agreement {
			w := map[string]any{"grader_a": a.GraderA, "grader_b": a.GraderB, "n": a.N}
			out = append(out, ci(ci(ci(ci(ci(w, "agreement", a.Agreement), "kappa", a.Kappa), "macro_f1", a.MacroF1), "precision_macro", a.Precision), "recall_macro", a.Recall))
		}
	case JudgeAuditTable:
		for _, j := range r.Judges {
			w := map[string]any{"judge": j.Judge, "n": j.N, "position_p": j.PositionP, "length_p": j.LengthP, "n_self": j.SelfN, "self_p": j.SelfP, "n_humans": j.KappaN}
			out = append(out, ci(ci(ci(ci(ci(w, "first_share", j.FirstShare), "length_logit", j.Length), "self_preference", j.SelfPreference), "agreement_humans", j.Agreement), "kappa_humans", j.Kappa))
		}
	}
	if len(out) == 0 {
		t.Fatalf("no rows of %s", name)
	}
	return out
}

func find(rows []map[string]any, kv ...string) map[string]any {
	for _, r := range rows {
		ok := true
		for i := 0; i < len(kv); i += 2 {
			if r[kv[i]] != kv[i+1] {
				ok = false
			}
		}
		if ok {
			return r
		}
	}
	return nil
}

func f(v any) float64 {
	switch x := v.(type) {
	case float64:
		return x
	case int64:
		return float64(x)
	}
	return math.NaN()
}

// judg builds a comparison.
func judg(ev, kind, q, a, b string, w study.Preference) study.Comparison {
	return study.Comparison{Evaluator: ev, Kind: kind, Round: "main", QuestionID: q, ModelA: a, ModelB: b, Winner: w}
}

func hasNote(res Result, table, sub string) bool {
	for _, n := range res.Notes {
		if n.Table == table && contains(n.Reason, sub) {
			return true
		}
	}
	return false
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// mmSolve is a plain Bradley–Terry solver written for the tests: Zermelo's
// (Hunter's MM) iteration p_i ← W_i / Σ_j n_ij/(p_i + p_j), normalised to a
// geometric mean of 1, iterated until the change is below 1e-15; it
// returns β = log p (mean 0). w[i][j] is the number of (half-)wins of i
// over j.
func mmSolve(w [][]float64) []float64 {
	k := len(w)
	p := make([]float64, k)
	for i := range p {
		p[i] = 1
	}
	for it := 0; it < 1000000; it++ {
		next := make([]float64, k)
		for i := 0; i < k; i++ {
			wi, den := 0.0, 0.0
			for j := 0; j < k; j++ {
				if i == j {
					continue
				}
				wi += w[i][j]
				den += (w[i][j] + w[j][i]) / (p[i] + p[j])
			}
			next[i] = wi / den
		}
		g := 0.0
		for _, v := range next {
			g += math.Log(v)
		}
		g /= float64(k)
		change := 0.0
		for i := range next {
			next[i] = math.Exp(math.Log(next[i]) - g)
			change = math.Max(change, math.Abs(math.Log(next[i])-math.Log(p[i])))
		}
		p = next
		if change < 1e-15 {
			break
		}
	}
	beta := make([]float64, k)
	for i := range p {
		beta[i] = math.Log(p[i])
	}
	return beta
}

func setProcs(n int) int { return runtime.GOMAXPROCS(n) }
