package ingest

import (
	"fmt"
	"strings"

	"github.com/euroexec/euroexec/ingest/tabular"
)

// Pairwise judgments: rows of grading sheets that compare two answers to a
// question (wide: model_a|label_a, model_b|label_b, winner; long:
// instrument = pairwise with the verdict in value).

// isPairwiseSheet reports whether a wide sheet holds pairwise judgments.
func isPairwiseSheet(h *header) bool {
	return h.has("winner") && (h.has("model_a") || h.has("label_a")) && (h.has("model_b") || h.has("label_b"))
}

// Winner codes as stored: relative to model_a / model_b as stored (model_a
// is the answer shown first).
const (
	winA   = "a"
	winB   = "b"
	winTie = "tie"
)

// parseWinner reads a pairwise verdict: a/b/tie, 1/2/0, model_a/model_b,
// tie (bothbad); any case, surrounding spaces ignored.
func parseWinner(s string) (string, bool) {
	switch norm(s) {
	case "a", "1", "model_a", "model a", "a>b":
		return winA, true
	case "b", "2", "model_b", "model b", "b>a":
		return winB, true
	case "tie", "0", "draw", "tie (bothbad)", "tie (both bad)", "bothbad", "both bad", "a=b":
		return winTie, true
	}
	return "", false
}

// parsePairPosition reads the position at which model_a's answer was shown;
// an empty cell or unknown (also ?, n/a, na) says the order shown is
// unknown.
func parsePairPosition(s string) (first, unknown, ok bool) {
	switch norm(s) {
	case "1", "first", "left", "top":
		return true, false, true
	case "2", "second", "right", "bottom":
		return false, false, true
	case "", "unknown", "?", "n/a", "na":
		return true, true, true
	}
	return false, false, false
}

// pairJudgment is one pairwise judgment as read.
type pairJudgment struct {
	ev, kind, round, run, q string
	a, b                    string // models, a shown first
	la, lb                  string // labels as written
	winner                  string // winA, winB or winTie, relative to a and b
	posUnknown              bool   // the order shown is unknown (a, b as written)
	comment                 string
	loc                     tabular.Loc
	sheet                   string
	sheetEv                 bool
}

// pairwiseRow reads one pairwise row (wide, or long with instrument =
// pairwise). It returns the judgment, or nil after adding its problems.
func (st *state) pairwiseRow(r row, kind, round string, long bool) *pairJudgment {
	ev, ok := st.cleanID(r, "evaluator", "an evaluator name")
	if !ok {
		return nil
	}
	sheetEv := false
	if st.evaluatorFromName(r.h) {
		ev, sheetEv = "\x00"+r.loc.Sheet, true
	} else if ev == "" {
		st.ps.add(Problem{Loc: r.at("evaluator"), Expected: "an evaluator name (the cell is empty)"})
		return nil
	} else {
		ev = st.intern(ev)
	}
	q, _, ok := st.question(r, "question_id")
	if !ok {
		return nil
	}
	rd := round
	if v := strings.TrimSpace(r.get("round")); v != "" {
		rd = st.intern(v)
	}
	run := st.intern(strings.TrimSpace(r.get("run")))
	bad := false
	if run != "" && kind == "human" {
		st.ps.add(Problem{Loc: r.at("run"), Value: run, Expected: "no run for a human judgment (runs are for repeated judge runs)"})
		bad = true
	}
	a, okA := st.resolvePairModel(r, q, ev, "model_a", "label_a")
	b, okB := st.resolvePairModel(r, q, ev, "model_b", "label_b")
	if okA && okB && a == b {
		col := "model_b"
		if !r.h.has("model_b") || strings.TrimSpace(r.get("model_b")) == "" {
			col = "label_b"
		}
		st.ps.add(Problem{Loc: r.at(col), Value: b, Expected: "two different models (model_a is " + a + " too)"})
		bad = true
	}
	wcol := "winner"
	if long {
		wcol = "value"
	}
	raw := r.get(wcol)
	w, okW := parseWinner(raw)
	if !okW {
		exp := "a verdict: a, b or tie (also 1, 2, 0; model_a, model_b; tie (bothbad))"
		if strings.TrimSpace(raw) == "" {
			exp += " (the cell is empty)"
		}
		st.ps.add(Problem{Loc: r.at(wcol), Value: raw, Expected: exp})
		bad = true
	}
	la, lb := strings.TrimSpace(r.get("label_a")), strings.TrimSpace(r.get("label_b"))
	posUnknown := false
	if r.h.has("position") {
		v := strings.TrimSpace(r.get("position"))
		first, unknown, ok := parsePairPosition(v)
		posUnknown = unknown
		if !ok {
			st.ps.add(Problem{Loc: r.at("position"), Value: v, Expected: "the position of model_a's answer: 1 (shown first) or 2 (second); also first/second, left/right; empty or unknown when not known"})
			bad = true
		} else if !first {
			a, b, la, lb = b, a, lb, la
			switch w {
			case winA:
				w = winB
			case winB:
				w = winA
			}
		}
	}
	if !okA || !okB || bad {
		return nil
	}
	comment := r.get("comment")
	loc := r.loc
	loc.Offset = -1
	return &pairJudgment{ev: ev, kind: kind, round: rd, run: run, q: q, a: a, b: b, la: la, lb: lb, winner: w,
		posUnknown: posUnknown, comment: comment, loc: loc, sheet: r.loc.Sheet, sheetEv: sheetEv}
}

// resolvePairModel returns one side's model: the model column, else the
// blinded label resolved per evaluator, then per question.
func (st *state) resolvePairModel(r row, q, ev, mcol, lcol string) (string, bool) {
	if m := strings.TrimSpace(r.get(mcol)); m != "" {
		m = st.intern(m)
		return m, st.checkModel(r, mcol, m)
	}
	l := strings.TrimSpace(r.get(lcol))
	if l == "" {
		col := mcol
		if r.h.has(lcol) {
			col = lcol
		}
		st.ps.add(Problem{Loc: r.at(col), Expected: "a model name or a blinded label (the cell is empty)"})
		return "", false
	}
	if m, ok := st.blindModel(q, l, ev); ok {
		return m, true
	}
	exp := fmt.Sprintf("a label of question %s in the blinding file", q)
	if len(st.blinding) == 0 {
		exp = "a label listed in a blinding file (blinding.csv), or a " + mcol + " column"
	}
	st.ps.add(Problem{Loc: r.at(lcol), Value: l, Expected: exp})
	return "", false
}

// pairKey identifies a judgment for the duplicate check: evaluator, round,
// run, question and the two models in the order shown.
type pairKey [6]int32

// acceptPair checks a complete judgment against the rest of the study and
// writes it.
func (st *state) acceptPair(p *pairJudgment) {
	st.noteKind(p.ev, p.kind, p.loc)
	k := pairKey{st.sid(p.ev), st.sid(p.round), st.sid(p.run), st.sid(p.q), st.sid(p.a), st.sid(p.b)}
	if prev, dup := st.pseen[k]; dup {
		st.ps.add(Problem{Loc: p.loc, Value: p.q + " / " + p.a + " vs " + p.b,
			Expected: fmt.Sprintf("one judgment per evaluator, round, run, question and pair in the order shown (evaluator %s judged it also at %s)", p.ev, st.loc(prev).String())})
		return
	}
	st.pseen[k] = st.where(p.loc)
	if st.haveDumps {
		for _, m := range []string{p.a, p.b} {
			if m == st.cfg.HumanLabel {
				continue
			}
			if !st.hasResponse(p.q, m) {
				if f, failed := st.failedRequest(p.q, m); failed {
					st.ps.add(Problem{Loc: p.loc, Value: p.q + " / " + m,
						Expected: fmt.Sprintf("a response that exists: its batch request failed (%s, %s)", f.loc.String(), f.err)})
				} else {
					st.ps.count("pairwise judgments of responses missing from the response dumps")
				}
			}
		}
	}
	st.nPairs++
	t := st.out.pairwise
	t.str(0, p.ev)
	t.str(1, p.kind)
	t.str(2, p.round)
	t.str(3, p.run)
	t.str(4, p.q)
	t.str(5, p.a)
	t.str(6, p.b)
	t.optStr(7, p.la)
	t.optStr(8, p.lb)
	t.str(9, p.winner)
	t.optStr(10, p.comment)
	t.str(11, p.loc.File)
	t.optStr(12, p.sheet)
	t.i64(13, int64(p.loc.Row))
	t.boolean(14, p.posUnknown)
	st.emit(t)
}
