package ingest

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/euroexec/euroexec/ingest/tabular"
)

var (
	questionSpec  = tableSpec{required: []string{"question_id", "domain", "prompt"}, optional: []string{"author", "difficulty", "gate_score"}}
	checklistSpec = tableSpec{required: []string{"question_id", "item", "text"}}
	modelsSpec    = tableSpec{required: []string{"model"}, optional: []string{"provider", "display_name", "usd_per_1k_input", "usd_per_1k_output"}}
	evalSpec      = tableSpec{required: []string{"evaluator"}, optional: []string{"domain", "provider"}}
	blindSpec     = tableSpec{required: []string{"question_id", "label", "model"}, optional: []string{"evaluator", "position"}}
	refSpec       = tableSpec{required: []string{"question_id", "text"}, optional: []string{"reference_id", "author", "graded"}}
	gateSpec      = tableSpec{required: []string{"question_id", "run", "item", "passed"}}
	criteriaSpec  = tableSpec{required: []string{"question_id", "criterion_id", "text", "weight"}, optional: []string{"category"}}
)

func (st *state) readQuestions() error {
	rel := st.findTable("questions", "csv", "tsv", "jsonl", "xlsx")
	if rel == "" {
		st.ps.add(Problem{Loc: loc0("questions.csv"), Expected: "a questions file (questions.csv, questions.jsonl or questions.xlsx)"})
		return nil
	}
	t := st.out.questions
	st.readTable(rel, questionSpec, nil, func(r row) {
		q, ok := st.id(r, "question_id", "a question id")
		if !ok {
			return
		}
		if prev, dup := st.questions[q]; dup {
			st.ps.add(Problem{Loc: r.at("question_id"), Value: q, Expected: fmt.Sprintf("a question id used once (first at row %d)", prev.row)})
			return
		}
		if other, ok := st.qFold.list(q); ok {
			st.ps.add(Problem{Loc: r.at("question_id"), Value: q, Expected: fmt.Sprintf("question ids that differ in more than letter case (%q is at row %d)", other, st.questions[other].row)})
			return
		}
		dom := st.intern(strings.TrimSpace(r.get("domain")))
		if dom == "" {
			st.ps.add(Problem{Loc: r.at("domain"), Expected: "a domain (the cell is empty)"})
		}
		gate := math.NaN()
		if v := r.get("gate_score"); strings.TrimSpace(v) != "" {
			f, ok := tabular.ParseFloat(v)
			if !ok || f < 0 || f > 1 {
				st.ps.add(Problem{Loc: r.at("gate_score"), Value: v, Expected: "a gate score between 0 and 1"})
			}
			gate = f
		}
		qi := &question{row: int32(r.loc.Row), num: int32(len(st.qids))}
		st.questions[q] = qi
		st.qids = append(st.qids, q)
		st.qs = append(st.qs, qi)
		t.str(0, q)
		t.str(1, dom)
		t.str(2, r.get("prompt"))
		t.optStr(3, strings.TrimSpace(r.get("author")))
		t.optStr(4, strings.TrimSpace(r.get("difficulty")))
		t.f64(5, gate)
		t.str(6, rel)
		t.i64(7, int64(r.loc.Row))
		st.emit(t)
		for i, e := range r.extras() {
			tt := st.out.questionTags
			tt.str(0, q)
			st.tagKeys[strings.ToLower(strings.TrimSpace(e.k))] = true
			if k, _ := st.cfg.TextFilter(); k != "" {
				st.tagValues[strings.ToLower(strings.TrimSpace(e.k))+"\x00"+strings.TrimSpace(e.v)] = true
			}
			tt.str(1, strings.TrimSpace(e.k))
			tt.str(2, e.v)
			tt.i64(3, int64(i))
			st.emit(tt)
		}
	})
	return st.loadErr
}

func (st *state) readChecklist() error {
	rel := st.findTable("checklist", "csv", "tsv", "jsonl", "xlsx")
	if rel == "" {
		return nil
	}
	st.haveChecklst = true
	type item struct {
		q   string
		n   int
		loc tabular.Loc
	}
	var items []item
	t := st.out.checklist
	st.readTable(rel, checklistSpec, nil, func(r row) {
		q, qi, ok := st.question(r, "question_id")
		if !ok {
			return
		}
		v := r.get("item")
		n, ok := tabular.ParseInt(v)
		if !ok || n < 1 || n > 1000 {
			st.ps.add(Problem{Loc: r.at("item"), Value: v, Expected: "an item number 1, 2, …"})
			return
		}
		for int(n) > len(qi.itemSeen) {
			qi.itemSeen = append(qi.itemSeen, false)
		}
		if qi.itemSeen[n-1] {
			st.ps.add(Problem{Loc: r.at("item"), Value: v, Expected: fmt.Sprintf("each item number once per question (question %s has item %d twice)", q, n)})
			return
		}
		qi.itemSeen[n-1] = true
		items = append(items, item{q, int(n), r.at("item")})
		t.str(0, q)
		t.i64(1, n)
		t.str(2, r.get("text"))
		st.emit(t)
	})
	// Items must be numbered 1..n without gaps.
	reported := map[string]bool{}
	for _, it := range items {
		qi := st.questions[it.q]
		for i, seen := range qi.itemSeen {
			if !seen && !reported[it.q] {
				reported[it.q] = true
				st.ps.add(Problem{Loc: it.loc, Value: strconv.Itoa(len(qi.itemSeen)), Expected: fmt.Sprintf("items of question %s numbered 1..n without gaps (item %d is missing)", it.q, i+1)})
			}
		}
		qi.items = len(qi.itemSeen)
	}
	return st.loadErr
}

func (st *state) readModels() error {
	rel := st.findTable("models", "csv", "tsv", "xlsx")
	if rel == "" {
		return nil
	}
	st.models = map[string]bool{}
	t := st.out.models
	st.readTable(rel, modelsSpec, nil, func(r row) {
		m, ok := st.id(r, "model", "a model name")
		if !ok {
			return
		}
		if st.models[m] {
			st.ps.add(Problem{Loc: r.at("model"), Value: m, Expected: "each model once"})
			return
		}
		if other, ok := st.mFold.list(m); ok {
			st.ps.add(Problem{Loc: r.at("model"), Value: m, Expected: fmt.Sprintf("model names that differ in more than letter case (%q is listed too)", other)})
			return
		}
		st.models[m] = true
		price := func(c string) float64 {
			v := r.get(c)
			if strings.TrimSpace(v) == "" {
				return math.NaN()
			}
			f, ok := tabular.ParseFloat(v)
			if !ok || f < 0 {
				st.ps.add(Problem{Loc: r.at(c), Value: v, Expected: "a price in USD per 1,000 tokens (a number ≥ 0)"})
				return math.NaN()
			}
			return f
		}
		pin, pout := price("usd_per_1k_input"), price("usd_per_1k_output")
		if !math.IsNaN(pin) && !math.IsNaN(pout) {
			if st.prices == nil {
				st.prices = map[string][2]float64{}
			}
			st.prices[m] = [2]float64{pin, pout}
		}
		t.str(0, m)
		t.optStr(1, strings.TrimSpace(r.get("provider")))
		t.optStr(2, strings.TrimSpace(r.get("display_name")))
		t.f64(3, pin)
		t.f64(4, pout)
		st.emit(t)
	})
	return st.loadErr
}

func (st *state) readEvaluators() error {
	rel := st.findTable("evaluators", "csv", "tsv", "xlsx")
	if rel == "" {
		return nil
	}
	st.readTable(rel, evalSpec, nil, func(r row) {
		e, ok := st.id(r, "evaluator", "an evaluator name")
		if !ok {
			return
		}
		if _, dup := st.evaluators[e]; dup {
			st.ps.add(Problem{Loc: r.at("evaluator"), Value: e, Expected: "each evaluator once"})
			return
		}
		if other, ok := st.eFold.list(e); ok {
			st.ps.add(Problem{Loc: r.at("evaluator"), Value: e, Expected: fmt.Sprintf("evaluator names that differ in more than letter case (%q is listed too)", other)})
			return
		}
		st.evaluators[e] = strings.TrimSpace(r.get("domain"))
		if p := strings.TrimSpace(r.get("provider")); p != "" {
			st.evalProvider[e] = p
		}
	})
	return nil
}

func (st *state) readBlinding() error {
	rel := st.findTable("blinding", "csv", "tsv", "xlsx")
	if rel == "" {
		return nil
	}
	st.readTable(rel, blindSpec, nil, func(r row) {
		q, qi, ok := st.question(r, "question_id")
		l, ok2 := st.id(r, "label", "a label")
		m, ok3 := st.id(r, "model", "a model name")
		if !ok || !ok2 || !ok3 {
			return
		}
		ev, _ := st.cleanID(r, "evaluator", "an evaluator name")
		qn, ln, mn, en := qi.num, st.sid(l), st.sid(m), st.sid(ev)
		k := blindKey{qn, ln, en}
		if prev, dup := st.blinding[k]; dup && prev != mn {
			st.ps.add(Problem{Loc: r.at("label"), Value: l, Expected: fmt.Sprintf("one model per label (label %s of question %s is already %s)", l, q, st.name(prev))})
			return
		}
		if ev == "" {
			st.blankSid = en
		}
		sh := qi.shownAt(mn, en)
		if sh != nil && sh.label != ln {
			who := ""
			if ev != "" {
				who = " for evaluator " + ev
			}
			st.ps.add(Problem{Loc: r.at("label"), Value: l, Expected: fmt.Sprintf("one label per model (model %s of question %s already has label %s%s: two labels would hide one response)", m, q, st.name(sh.label), who)})
			return
		}
		st.checkModel(r, "model", m)
		st.blinding[k] = mn
		if sh == nil { // a row repeated: its position, if any, is kept
			qi.shown = append(qi.shown, shownAt{m: mn, ev: en, label: ln})
			sh = &qi.shown[len(qi.shown)-1]
		}
		if v := strings.TrimSpace(r.get("position")); v != "" {
			if pos, ok := parsePosition(r, "position", v, st); ok {
				sh.pos = pos
			}
		}
	})
	return nil
}

// checkModel reports a model that the models file does not list.
func (st *state) checkModel(r row, col, m string) bool {
	if st.models == nil || st.models[m] || m == st.cfg.HumanLabel {
		return true
	}
	st.ps.add(Problem{Loc: r.at(col), Value: m, Expected: "a model listed in the models file" + st.hint(st.mFold, m, func() []string { return keys(st.models) }, "models"), Kind: "unknown models"})
	return false
}

func (st *state) readReferences() error {
	rel := st.findTable("references", "jsonl", "csv", "tsv")
	if rel == "" {
		return nil
	}
	t := st.out.references
	seen := map[[2]string]bool{}
	st.readTable(rel, refSpec, nil, func(r row) {
		q, _, ok := st.question(r, "question_id")
		if !ok {
			return
		}
		id := strings.TrimSpace(r.get("reference_id"))
		if id == "" {
			id = strconv.Itoa(st.refs[q] + 1)
		}
		if seen[[2]string{q, id}] {
			st.ps.add(Problem{Loc: r.at("reference_id"), Value: id, Expected: "distinct reference ids per question"})
			return
		}
		seen[[2]string{q, id}] = true
		st.refs[q]++
		graded := false
		if v := r.get("graded"); strings.TrimSpace(v) != "" {
			b, ok := parseBool(v)
			if !ok {
				st.ps.add(Problem{Loc: r.at("graded"), Value: v, Expected: "true or false"})
			}
			graded = b
		}
		text := r.get("text")
		if !st.textFits(r.at("text"), text, "reference") {
			return
		}
		t.str(0, q)
		t.str(1, id)
		if a := strings.TrimSpace(r.get("author")); a != "" {
			if st.refAuthors == nil {
				st.refAuthors = map[string]bool{}
			}
			st.refAuthors[a] = true
		}
		t.optStr(2, strings.TrimSpace(r.get("author")))
		t.str(3, text)
		t.boolean(4, graded)
		t.i64(5, chars(text))
		t.i64(6, words(text))
		st.emit(t)
	})
	return st.loadErr
}

func (st *state) readGate() error {
	rel := st.findTable("gate", "csv", "tsv", "jsonl")
	if rel == "" {
		return nil
	}
	t := st.out.gate
	var seen gateSeen
	st.readTable(rel, gateSpec, nil, func(r row) {
		q, qi, ok := st.question(r, "question_id")
		if !ok {
			return
		}
		run, ok := st.id(r, "run", "a run name or number")
		if !ok {
			return
		}
		v := r.get("item")
		n, ok := tabular.ParseInt(v)
		if !ok || n < 1 || n > math.MaxInt32 || (st.haveChecklst && int(n) > qi.items) {
			// gate_runs.item is an INTEGER: a larger number failed the load
			exp := "an item number 1, 2, …"
			if st.haveChecklst {
				exp = fmt.Sprintf("an item of question %s (1..%d)", q, qi.items)
			}
			st.ps.add(Problem{Loc: r.at("item"), Value: v, Expected: exp})
			return
		}
		pv := r.get("passed")
		p, ok := parseBool(pv)
		if !ok {
			st.ps.add(Problem{Loc: r.at("passed"), Value: pv, Expected: "passed as 0 or 1"})
			return
		}
		if seen.add(qi.num, st.sid(run), n) {
			st.ps.add(Problem{Loc: r.at("item"), Value: v, Expected: "one row per question, run and item"})
			return
		}
		t.str(0, q)
		t.str(1, run)
		t.i64(2, n)
		t.boolean(3, p)
		st.emit(t)
	})
	return st.loadErr
}

// gateSeen is the set of (question, run, item) of the gate rows read, to
// find a row given twice. Items 1..64 of a (question, run) are bits of one
// word: 16 bytes per question and run instead of a string key per row
// (five million gate rows at 200,000 questions). Other items, rare, are
// kept one by one.
type gateSeen struct {
	bits  map[uint64]uint64     // question number << 32 | run (sid) → items 1..64
	other map[gateItem]struct{} // items above 64
}

type gateItem struct {
	qr   uint64
	item int64
}

// add records (question, run, item), item ≥ 1; it reports whether the
// set held it already.
func (g *gateSeen) add(q, run int32, item int64) bool {
	qr := uint64(uint32(q))<<32 | uint64(uint32(run))
	if item <= 64 {
		if g.bits == nil {
			g.bits = map[uint64]uint64{}
		}
		b := uint64(1) << (item - 1)
		w := g.bits[qr]
		g.bits[qr] = w | b
		return w&b != 0
	}
	if g.other == nil {
		g.other = map[gateItem]struct{}{}
	}
	k := gateItem{qr, item}
	if _, dup := g.other[k]; dup {
		return true
	}
	g.other[k] = struct{}{}
	return false
}

func (st *state) readCriteria() error {
	rel := st.findTable("criteria", "jsonl", "csv", "tsv")
	if rel == "" {
		return nil
	}
	t := st.out.criteria
	positive := map[string]bool{}
	first := map[string]tabular.Loc{}
	var order []string
	st.readTable(rel, criteriaSpec, nil, func(r row) {
		q, _, ok := st.question(r, "question_id")
		if !ok {
			return
		}
		id, ok := st.id(r, "criterion_id", "a criterion id")
		if !ok {
			return
		}
		if _, dup := st.criteria[[2]string{q, id}]; dup {
			st.ps.add(Problem{Loc: r.at("criterion_id"), Value: id, Expected: fmt.Sprintf("each criterion id once per question (question %s)", q)})
			return
		}
		v := r.get("weight")
		w, ok := tabular.ParseInt(v)
		if !ok || w == 0 || w < -10 || w > 10 {
			st.ps.add(Problem{Loc: r.at("weight"), Value: v, Expected: "a non-zero integer weight from -10 to 10"})
			return
		}
		st.criteria[[2]string{q, id}] = int(w)
		if _, ok := first[q]; !ok {
			first[q] = r.at("weight")
			order = append(order, q)
		}
		if w > 0 {
			positive[q] = true
		}
		t.str(0, q)
		t.str(1, id)
		t.str(2, r.get("text"))
		t.i64(3, w)
		t.optStr(4, strings.TrimSpace(r.get("category")))
		st.emit(t)
	})
	for _, q := range order {
		if !positive[q] {
			st.ps.add(Problem{Loc: first[q], Value: q, Expected: "at least one criterion with a positive weight for each question"})
		}
	}
	return st.loadErr
}

// criterionGradeSpec is the columns of criterion_grades files.
var criterionGradeSpec = tableSpec{required: []string{"evaluator", "question_id", "criterion_id", "met"}, optional: []string{"model", "label"}}

func (st *state) readCriterionGrades() error {
	t := st.out.criterionGrades
	seen := map[string]tabular.Loc{}
	type qm struct{ q, m string }
	graded := map[qm]map[string]bool{} // response → criteria graded (by anyone)
	for _, kind := range []string{"humans", "judges"} {
		k := "human"
		if kind == "judges" {
			k = "judge"
		}
		for _, rel := range st.listFiles("criterion_grades/"+kind, "csv", "tsv", "jsonl", "xlsx") {
			st.readTable(rel, criterionGradeSpec, func(h *header, sheet string) bool {
				if !h.has("model") && !h.has("label") {
					st.ps.add(Problem{Loc: loc0(rel), Expected: "a model or label column; columns found: " + h.written()})
					return false
				}
				return true
			}, func(r row) {
				e, ok := st.id(r, "evaluator", "an evaluator name")
				if !ok {
					return
				}
				st.noteKind(e, k, r.at("evaluator"))
				q, _, ok := st.question(r, "question_id")
				if !ok {
					return
				}
				m, ok := st.resolveModel(r, q, e)
				if !ok {
					return
				}
				c, ok := st.id(r, "criterion_id", "a criterion id")
				if !ok {
					return
				}
				if _, ok := st.criteria[[2]string{q, c}]; !ok {
					st.ps.add(Problem{Loc: r.at("criterion_id"), Value: c, Expected: fmt.Sprintf("a criterion of question %s in the criteria file", q)})
					return
				}
				v := r.get("met")
				met, ok := parseBool(v)
				if !ok {
					st.ps.add(Problem{Loc: r.at("met"), Value: v, Expected: "met as true/false, yes/no or 1/0"})
					return
				}
				key := strings.Join([]string{e, q, m, c}, "\x00")
				if prev, dup := seen[key]; dup {
					st.ps.add(Problem{Loc: r.at("criterion_id"), Value: c, Expected: fmt.Sprintf("one grade per evaluator, response and criterion (first at %s)", prev.String())})
					return
				}
				seen[key] = r.loc
				rk := qm{q, m}
				if graded[rk] == nil {
					graded[rk] = map[string]bool{}
				}
				graded[rk][c] = true
				t.str(0, e)
				t.str(1, k)
				t.str(2, q)
				t.str(3, m)
				t.str(4, c)
				t.boolean(5, met)
				t.str(6, rel)
				t.i64(7, int64(r.loc.Row))
				st.emit(t)
				st.nCritGrades++
			})
		}
	}
	// A graded response with some criteria ungraded is a warning with a count.
	perQ := map[string]int{}
	for k := range st.criteria {
		perQ[k[0]]++
	}
	keys := make([]qm, 0, len(graded))
	for k := range graded {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].q+"\x00"+keys[i].m < keys[j].q+"\x00"+keys[j].m })
	for _, k := range keys {
		if n := len(graded[k]); n < perQ[k.q] {
			st.ps.count("criterion grades: a graded response has some of its criteria ungraded by everyone")
		}
	}
	return st.loadErr
}

// noteKind records whether an evaluator is a human or a judge; one found
// among both is a problem.
func (st *state) noteKind(e, kind string, l tabular.Loc) {
	prev, ok := st.evalKind[e]
	if !ok {
		if _, listed := st.evaluators[e]; !listed {
			if other, ok := st.eFold.similar(e); ok {
				at := "in the evaluators file"
				if p, seen := st.evalKind[other]; seen {
					at = "at " + p.loc.String()
				}
				st.ps.add(Problem{Loc: l, Value: e, Expected: fmt.Sprintf("an evaluator name that differs from %q (%s) in more than letter case (did you mean %q?)", other, at, other)})
			} else {
				st.eFold.list(e)
			}
		}
		st.evalKind[e] = evalSeen{kind, l}
		return
	}
	if prev.kind != kind {
		st.ps.add(Problem{Loc: l, Value: e, Expected: fmt.Sprintf("an evaluator that is either a human or a judge (%s is a %s at %s)", e, prev.kind, prev.loc.String())})
		prev.kind = kind // report once
		st.evalKind[e] = prev
	}
}
