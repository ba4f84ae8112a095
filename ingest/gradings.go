package ingest

import (
	"fmt"
	"math"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/euroexec/euroexec/ingest/config"
	"github.com/euroexec/euroexec/ingest/internal/suggest"
	"github.com/euroexec/euroexec/ingest/tabular"
)

// Verdict codes as stored while reading (0 = no verdict).
const (
	vNone int8 = iota
	vHit
	vPartial
	vMiss
	vNA
)

var verdictWords = [...]string{"", "hit", "partial", "miss", "na"}

// parseVerdict reads a checklist verdict, case-insensitively.
func parseVerdict(s string) (int8, bool) {
	switch norm(s) {
	case "hit", "yes", "y", "1", "true", "pass", "passed":
		return vHit, true
	case "partial", "part", "0.5", "partially":
		return vPartial, true
	case "miss", "no", "n", "0", "false", "fail", "failed":
		return vMiss, true
	}
	if isNA(s) {
		return vNA, true
	}
	return 0, false
}

// isNA reports whether a cell says "not applicable" as people type it:
// na, n/a, n.a., not applicable (any case), or a lone dash (-, –, —).
func isNA(s string) bool {
	switch norm(s) {
	case "na", "n/a", "n.a.", "n. a.", "not applicable", "-", "–", "—":
		return true
	}
	return false
}

// noNA is added to what a problem expects when the value is an N/A mark
// in a cell that does not take one.
func noNA(v, what string) string {
	if isNA(v) {
		return fmt.Sprintf(" (%s cannot be N/A: an expert's grading needs every score, and a rank when the expert ranks)", what)
	}
	return ""
}

type gradingKey struct{ evaluator, round, run, q, model string }

// grading is one grading as read, before it is checked and written.
type grading struct {
	gradingKey
	kind     string
	label    string
	scores   []float64 // per rubric attribute; NaN = no score
	verdicts []int8    // per checklist item; vNone = no verdict
	rank     int64     // 0 = not ranked
	position int64     // 1 = shown first; 0 = not known
	comment  string
	tags     []kv
	loc      tabular.Loc // the grading's (first) row
	hdr      *header     // the sheet's header (shared), for locating problems
	long     bool        // read from a long-form sheet
	platform bool        // read from an annotation-platform export
	rubric   bool        // the grading's sheet has rubric columns (or long rubric rows)
	sheetEv  bool        // the evaluator still has to be chosen from the sheet or file name
	sheet    string
	reported []string // canonical columns whose value was already a problem
	bad      bool     // a row of the grading had a problem: what it lacks is not reported again
}

// wasReported reports whether the grading's value in canonical column c
// was already reported as a problem (so that it is not reported again as
// missing).
func (g *grading) wasReported(c string) bool {
	for _, x := range g.reported {
		if x == c {
			return true
		}
	}
	return false
}

// column returns the name, as written, of the column that holds the
// canonical column c of this grading (def when the sheet has none).
func (g *grading) column(c, def string) string {
	if g.platform {
		return def
	}
	if g.long {
		return "value"
	}
	if i, ok := g.hdr.idx[c]; ok {
		return g.hdr.names[i]
	}
	return def
}

var gradingFixed = map[string]bool{
	"evaluator": true, "round": true, "question_id": true, "label": true, "model": true,
	"rank": true, "run": true, "position": true, "comment": true, "instrument": true, "key": true, "value": true,
	"model_a": true, "model_b": true, "label_a": true, "label_b": true, "winner": true,
}

func (st *state) gradingSpec() tableSpec {
	return tableSpec{
		required:   []string{"question_id"},
		skipSheets: true,
		looksLike: func(h *header) bool {
			for c := range h.idx {
				if _, attr := st.attrIndex[c]; attr || c == "model" || c == "label" || c == "model_a" || c == "label_a" {
					return true
				}
				if _, item := checklistColumn(c); item {
					return true
				}
			}
			return false
		},
		known: func(c string) bool {
			if gradingFixed[c] {
				return true
			}
			if _, ok := st.attrIndex[c]; ok {
				return true
			}
			_, ok := checklistColumn(c)
			return ok
		},
	}
}

// checklistColumn recognises C1, C2, … (canonical lower-case c1, c2, …).
func checklistColumn(c string) (int, bool) {
	if len(c) < 2 || c[0] != 'c' {
		return 0, false
	}
	n, err := strconv.Atoi(c[1:])
	if err != nil || n < 1 || n > 1000 || c[1] == '0' || c[1] == '+' {
		return 0, false
	}
	return n, true
}

// readGradings reads every sheet under grades/humans and grades/judges.
func (st *state) readGradings() error {
	type file struct{ rel, kind, root string }
	var files []file
	for _, kind := range []string{"humans", "judges"} {
		root := "grades/" + kind
		for _, rel := range st.listFiles(root, "csv", "tsv", "jsonl", "xlsx", "json") {
			files = append(files, file{rel, kind, root})
		}
	}
	for i, f := range files {
		if i+1 < len(files) {
			// the next workbook is unzipped and parsed while this file is read
			st.prefetch(files[i+1].rel, st.gradingSpec())
		}
		rel, kind, root := f.rel, f.kind, f.root
		k := "human"
		if kind == "judges" {
			k = "judge"
		}
		round := st.cfg.MainRound
		if parts := strings.Split(strings.TrimPrefix(rel, root+"/"), "/"); len(parts) > 1 {
			round = parts[0]
		}
		if st.readPlatform(rel, k, round) {
			continue
		}
		if kind == "judges" && strings.HasSuffix(strings.ToLower(rel), ".jsonl") && st.readJudgeOutputs(rel, round) {
			continue
		}
		st.readGradingFile(rel, k, round)
	}
	st.checkJudgeOutputs()
	st.checkImportUse()
	st.checkGradersPerResponse()
	return nil
}

// gradersCount counts the human graders of each response and round (a
// human grading has no run: one per evaluator, round, question and model),
// so that a response with more than [limits] graders_per_response is an
// error before the analysis, whose agreement statistics average over
// grader pairs.
type gradersCount struct {
	n    map[[3]int32]int32 // (round, question, model) → human graders
	over map[[3]int32]where // responses over the limit → the grading that went over
	keys [][3]int32         // over's keys in the order they went over
}

// add counts a human grading of the response rk (round and model sids,
// the question's number) found at w.
func (c *gradersCount) add(rk [3]int32, lim int, w where) {
	if c.n == nil {
		c.n = map[[3]int32]int32{}
	}
	c.n[rk]++
	if int(c.n[rk]) == lim+1 {
		if c.over == nil {
			c.over = map[[3]int32]where{}
		}
		c.over[rk] = w
		c.keys = append(c.keys, rk)
	}
}

// checkGradersPerResponse reports each response with more human graders
// than [limits] graders_per_response, at the grading that went over it.
func (st *state) checkGradersPerResponse() {
	c := &st.graders
	lim := st.cfg.Limits.GradersPerResponse
	for _, rk := range c.keys {
		st.ps.add(Problem{Loc: st.loc(c.over[rk]), Value: fmt.Sprintf("%s / %s: %d graders", st.qids[rk[1]], st.name(rk[2]), c.n[rk]), Kind: "responses with too many graders",
			Expected: fmt.Sprintf("at most %d human graders of one response in round %s (agreement statistics compare every pair of graders)", lim, st.name(rk[0])),
			Fix:      "raise [limits] graders_per_response in study.toml, or split the graders into rounds"})
	}
}

// prefetchFirstGrading starts parsing the first grading workbook (see
// state.prefetch) while the files before it are read.
func (st *state) prefetchFirstGrading() {
	for _, kind := range []string{"humans", "judges"} {
		if files := st.listFiles("grades/"+kind, "csv", "tsv", "jsonl", "xlsx", "json"); len(files) > 0 {
			st.prefetch(files[0], st.gradingSpec())
			return
		}
	}
}

func (st *state) readGradingFile(rel, kind, round string) {
	stem := strings.TrimSuffix(path.Base(rel), path.Ext(rel))
	var local []*grading
	var localPairs []*pairJudgment
	byKey := map[gradingKey]*grading{}
	sheetsNoEv := map[string]bool{}
	long := false
	from := st.cfg.EvaluatorFromFor(rel)
	where := "[sheets] evaluator_from"
	if f, ok := st.cfg.Sheets.Files[rel]; ok && f.EvaluatorFrom != "" {
		where = fmt.Sprintf("[sheets.files] %q", rel)
	}
	st.readTable(rel, st.gradingSpec(), func(h *header, sheet string) bool {
		h.evFrom = from
		long = h.has("instrument") && h.has("key") && h.has("value")
		pairCols := (h.has("model_a") || h.has("label_a")) && (h.has("model_b") || h.has("label_b"))
		if !h.has("model") && !h.has("label") && !isPairwiseSheet(h) && !(long && pairCols) {
			st.ps.warn("%s%s: skipped: no model or label column, nor model_a, model_b and winner (columns found: %s)", rel, sheetSuffix(sheet), h.written())
			return false
		}
		if from == "column" && !h.has("evaluator") {
			st.ps.add(Problem{Loc: h.at(rel, sheet), Expected: fmt.Sprintf(`a header with the column evaluator (%s = "column" in study.toml); columns found: %s`, where, h.written())})
			return false
		}
		if st.evaluatorFromName(h) {
			sheetsNoEv[sheet] = true
		}
		return true
	}, func(r row) {
		if v, ok := totalsRow(r); ok {
			l := r.loc
			l.Offset = -1
			st.ps.add(Problem{Loc: l, Value: v, Expected: "a grading: this row looks like a totals row", Kind: "totals rows",
				Fix: "delete it (every row under the header is read as a grading; keep totals on another sheet)"})
			st.taint(r.loc)
			return
		}
		before := st.ps.total
		var held *grading // the grading this row adds to, when it is held until the file ends
		defer func() {
			if st.ps.total > before {
				st.taint(r.loc)
				if held != nil {
					held.bad = true
				}
			}
		}()
		if (long && norm(r.get("instrument")) == "pairwise") || (!long && isPairwiseSheet(r.h)) {
			if p := st.pairwiseRow(r, kind, round, long); p != nil {
				if p.sheetEv {
					localPairs = append(localPairs, p)
				} else {
					st.acceptPair(p)
				}
			}
			return
		}
		ev, ok := st.cleanID(r, "evaluator", "an evaluator name")
		if !ok {
			return
		}
		sheetEv := false
		if st.evaluatorFromName(r.h) {
			ev, sheetEv = "\x00"+r.loc.Sheet, true
		} else if ev == "" {
			st.ps.add(Problem{Loc: r.at("evaluator"), Expected: "an evaluator name (the cell is empty)"})
			return
		}
		q, qi, ok := st.question(r, "question_id")
		if !ok {
			return
		}
		rd := round
		if r.h.has("round") {
			v, ok := st.cleanID(r, "round", "a round name")
			if !ok {
				return
			}
			if v != "" {
				rd = st.intern(v)
			}
		}
		if kind == "human" {
			st.rounds[rd] = true
		}
		run := st.intern(strings.TrimSpace(r.get("run")))
		if run != "" && kind == "human" {
			st.ps.add(Problem{Loc: r.at("run"), Value: run, Expected: "no run for a human grading (runs are for repeated judge runs)"})
			return
		}
		evName := ev
		if !sheetEv {
			evName = st.intern(ev)
		}
		m, ok := st.resolveModel(r, q, ev)
		if !ok {
			return
		}
		key := gradingKey{evName, rd, run, q, m}
		if !sheetEv && !long {
			// Wide rows that name their evaluator are complete: check and
			// write them at once, so a large sheet is never held in memory.
			g := &grading{gradingKey: key, kind: kind, loc: r.loc, sheet: r.loc.Sheet, hdr: r.h}
			g.loc.Offset = -1
			g.label = strings.TrimSpace(r.get("label"))
			g.scores = st.nanScores()
			st.setPosition(r, g)
			st.wideRow(r, g, qi)
			st.accept(g)
			return
		}
		g := byKey[key]
		if g != nil && !long {
			st.ps.add(Problem{Loc: r.at("question_id"), Value: q + " / " + m,
				Expected: fmt.Sprintf("one grading per evaluator, round, question and model (the same grading is at row %d)", g.loc.Row), Kind: "gradings given twice",
				Fix: "delete one of the two rows"})
			return
		}
		if g == nil {
			g = &grading{gradingKey: key, kind: kind, loc: r.loc, sheetEv: sheetEv, sheet: r.loc.Sheet, hdr: r.h, long: long}
			g.loc.Offset = -1
			g.label = strings.TrimSpace(r.get("label"))
			g.scores = st.nanScores()
			byKey[key] = g
			local = append(local, g)
		}
		held = g
		st.setPosition(r, g)
		if long {
			st.longRow(r, g, qi)
		} else {
			st.wideRow(r, g, qi)
		}
	})
	// Choose evaluator names for sheets without an evaluator column (or
	// all sheets, by [sheets] evaluator_from): the sheet name when several
	// sheets of the workbook are read, else the file name without extension.
	name := func(sheet string) string {
		switch {
		case from == "file", from == "sheet" && sheet == "":
			return st.intern(stem)
		case from == "sheet", len(sheetsNoEv) > 1:
			return st.intern(sheet)
		}
		return st.intern(stem)
	}
	if from == "" && len(sheetsNoEv) > 1 {
		names := make([]string, 0, len(sheetsNoEv))
		for s := range sheetsNoEv {
			names = append(names, strconv.Quote(s))
		}
		sort.Strings(names)
		st.ps.warn("%s: no evaluator column: the gradings of each of its %d sheets (%s) are taken as one grader's, named after its sheet; if the workbook is one grader's, set [sheets] evaluator_from = \"file\" in study.toml, or for this workbook only [sheets.files] %q = { evaluator_from = \"file\" } (or add an evaluator column)",
			rel, len(names), strings.Join(names, ", "), rel)
	}
	for _, g := range local {
		if g.sheetEv {
			g.evaluator = name(g.sheet)
		}
		st.accept(g)
	}
	for _, p := range localPairs {
		p.ev = name(p.sheet)
		st.acceptPair(p)
	}
}

// closestWord is ` (did you mean "rubric"?)` for the word nearest to s,
// "" when none is near.
func closestWord(s string, words ...string) string {
	if c, ok := suggest.Closest(s, words); ok {
		return fmt.Sprintf(" (did you mean %q?)", c)
	}
	return ""
}

// totalsWords start a totals row: the first cell of such a row says what
// it sums up.
var totalsWords = []string{"total", "totals", "sum", "average", "mean", "overall", "grand total", "summe", "totaal"}

// totalsRow reports whether a grading row is a totals row, one whose first
// non-empty cell is "Total", "Sum", "Average", … (optionally followed by a
// colon or more words) and whose question id is empty or that cell, and
// returns that cell.
func totalsRow(r row) (string, bool) {
	for _, c := range r.cells {
		v := strings.TrimSpace(c.Text)
		if v == "" {
			continue
		}
		for _, t := range totalsWords {
			// v starts with t (any case), then ends, or a space or colon follows
			if len(v) >= len(t) && strings.EqualFold(v[:len(t)], t) && (len(v) == len(t) || v[len(t)] == ' ' || v[len(t)] == ':') {
				q := strings.TrimSpace(r.get("question_id"))
				return v, q == "" || q == v
			}
		}
		return "", false
	}
	return "", false
}

// taint marks the sheet of a grading row that had a problem: the ranks of
// its questions are not checked, as a dropped row would make them look
// incomplete (the problem is reported once, not echoed as a rank problem).
func (st *state) taint(l tabular.Loc) {
	st.tainted[l.File+"\x00"+l.Sheet] = true
}

// duplicateFix says how to fix a grading given twice, from where the two
// copies are: the same sheet, two sheets of a workbook (one hidden), or
// two files.
func (st *state) duplicateFix(g *grading, prev tabular.Loc) string {
	switch {
	case prev.File != g.loc.File:
		return fmt.Sprintf("two files hold the same gradings: remove the copy (%s or %s), or put a repeated grading in a round folder of its own (grades/humans/ROUND/)", prev.File, g.loc.File)
	case prev.Sheet != g.sheet && g.hdr.hidden:
		return fmt.Sprintf("sheet %q is hidden in Excel but read all the same: delete it, or leave it out with [sheets] exclude = [%q] in study.toml", g.sheet, g.sheet)
	case prev.Sheet != g.sheet && st.hidden[prev.File+"\x00"+prev.Sheet]:
		return fmt.Sprintf("sheet %q is hidden in Excel but read all the same: delete it, or leave it out with [sheets] exclude = [%q] in study.toml", prev.Sheet, prev.Sheet)
	case prev.Sheet != g.sheet:
		return fmt.Sprintf("sheet %q repeats sheet %q: delete one, or leave it out with [sheets] exclude = [%q] in study.toml", g.sheet, prev.Sheet, g.sheet)
	}
	return "delete one of the two rows"
}

// knownModel reports whether m is a model the study knows (any name when
// there is no models file).
func (st *state) knownModel(m string) bool {
	return st.models == nil || st.models[m] || m == st.cfg.HumanLabel
}

// isLabel reports whether v is a blinded label of question q.
func (st *state) isLabel(q, v, evaluator string) bool {
	_, ok := st.blindModel(q, v, evaluator)
	return ok
}

// evaluatorFromName reports whether the evaluator of a sheet's rows comes
// from the file or sheet name rather than its evaluator column.
func (st *state) evaluatorFromName(h *header) bool {
	switch h.evFrom {
	case "file", "sheet":
		return true
	}
	return !h.has("evaluator")
}

func sheetSuffix(sheet string) string {
	if sheet == "" {
		return ""
	}
	return fmt.Sprintf(", sheet %q", sheet)
}

// resolveModel returns the model of a grading row: the model column, else
// the blinded label resolved per evaluator, then per question.
func (st *state) resolveModel(r row, q, evaluator string) (string, bool) {
	m, ok := st.cleanID(r, "model", "a model name")
	if !ok {
		return "", false
	}
	if m != "" {
		m = st.intern(m)
		if !st.knownModel(m) && st.isLabel(q, m, evaluator) {
			st.ps.add(Problem{Loc: r.at("model"), Value: m, Expected: "a model listed in the models file", Kind: "unknown models",
				Fix: fmt.Sprintf("%q is a blinded label of question %s: head the column \"label\"", m, q)})
			return "", false
		}
		return m, st.checkModel(r, "model", m)
	}
	l, ok := st.cleanID(r, "label", "a label")
	if !ok {
		return "", false
	}
	if l == "" {
		col := "model"
		if r.h.has("label") {
			col = "label"
		}
		st.ps.add(Problem{Loc: r.at(col), Expected: "a model name or a blinded label (the cell is empty)"})
		return "", false
	}
	if m, ok := st.blindModel(q, l, evaluator); ok {
		return m, true
	}
	exp := fmt.Sprintf("a label of question %s in the blinding file", q) + st.labelHint(q, l)
	if len(st.blinding) == 0 {
		exp = "a label listed in a blinding file (blinding.csv), or a model column"
	}
	fix := ""
	if st.models[l] {
		fix = fmt.Sprintf("%q is a model name: head the column \"model\"", l)
	}
	st.ps.add(Problem{Loc: r.at("label"), Value: l, Expected: exp, Kind: "unknown labels", Fix: fix})
	return "", false
}

// wideCols are a wide sheet's rubric and checklist columns in header order.
type wideCols struct {
	attr  [][2]int // (attribute index, column position)
	items [][2]int // (item number, column position)
	names []string // canonical names by column position
}

// wide returns (and caches on the header) the sheet's rubric and checklist columns.
func (st *state) wide(h *header) *wideCols {
	if h.wide != nil {
		return h.wide
	}
	w := &wideCols{names: make([]string, len(h.names))}
	for c, i := range h.idx {
		w.names[i] = c
	}
	for i, c := range w.names {
		st.wideAdd(w, c, i)
	}
	h.wide = w
	return w
}

// wideAdd classifies the column at position i with canonical name c.
func (st *state) wideAdd(w *wideCols, c string, i int) {
	w.names[i] = c
	if ai, ok := st.attrIndex[c]; ok {
		w.attr = append(w.attr, [2]int{ai, i})
	} else if n, ok := checklistColumn(c); ok && c != "" {
		w.items = append(w.items, [2]int{n, i})
	}
}

// wideRow reads one row of a wide sheet into g.
func (st *state) wideRow(r row, g *grading, qi *question) {
	w := st.wide(r.h)
	for _, a := range w.attr {
		g.rubric = true
		if a[1] < len(r.cells) {
			if v := r.cells[a[1]].Text; strings.TrimSpace(v) != "" {
				st.setScore(r, w.names[a[1]], v, g, a[0])
			}
		}
	}
	for _, it := range w.items {
		if it[1] < len(r.cells) {
			if v := r.cells[it[1]].Text; strings.TrimSpace(v) != "" {
				st.setVerdict(r, w.names[it[1]], v, g, qi, it[0])
			}
		}
	}
	if v := strings.TrimSpace(r.get("rank")); v != "" {
		st.setRank(r, "rank", v, g)
	}
	g.comment = r.get("comment")
	g.tags = r.extras()
}

// longRow reads one row of a long sheet (instrument, key, value) into g.
func (st *state) longRow(r row, g *grading, qi *question) {
	inst, key, v := norm(r.get("instrument")), strings.TrimSpace(r.get("key")), r.get("value")
	switch inst {
	case "rubric":
		ai, ok := st.attrIndex[config.ColumnKey(key)]
		if !ok {
			st.ps.add(Problem{Loc: r.at("key"), Value: key, Expected: "a rubric attribute (" + strings.Join(st.cfg.Rubric.Attributes, ", ") + ")"})
			return
		}
		if !math.IsNaN(g.scores[ai]) {
			st.ps.add(Problem{Loc: r.at("key"), Value: key, Expected: "one score per attribute and grading"})
			return
		}
		g.rubric = true
		if strings.TrimSpace(v) != "" {
			st.setScore(r, "value", v, g, ai)
		}
	case "checklist":
		k := strings.TrimPrefix(strings.TrimPrefix(key, "C"), "c")
		n, ok := tabular.ParseInt(k)
		if !ok || n < 1 {
			st.ps.add(Problem{Loc: r.at("key"), Value: key, Expected: "a checklist item number"})
			return
		}
		if int(n) <= len(g.verdicts) && g.verdicts[n-1] != vNone {
			st.ps.add(Problem{Loc: r.at("key"), Value: key, Expected: "one verdict per item and grading"})
			return
		}
		if strings.TrimSpace(v) != "" {
			st.setVerdict(r, "value", v, g, qi, int(n))
		}
	case "rank":
		if g.rank != 0 {
			st.ps.add(Problem{Loc: r.at("instrument"), Value: "rank", Expected: "one rank per grading"})
			return
		}
		if strings.TrimSpace(v) != "" {
			st.setRank(r, "value", v, g)
		}
	case "comment":
		g.comment = v
	default:
		st.ps.add(Problem{Loc: r.at("instrument"), Value: r.get("instrument"), Kind: "unknown instruments",
			Expected: "rubric, checklist, rank, comment or pairwise" + closestWord(inst, "rubric", "checklist", "rank", "comment", "pairwise")})
	}
}

func (st *state) setScore(r row, col, v string, g *grading, ai int) {
	lo, hi := st.cfg.Rubric.Min, st.cfg.Rubric.Max
	if g.kind == "human" {
		n, ok := st.scale.Parse(v)
		if !ok {
			fix := ""
			if _, num := tabular.ParseFloat(v); num {
				fix = "if the sheet uses another scale, set [rubric] min, max and step in study.toml"
				if n := st.cfg.Rubric.MeanOf(v, 10); n > st.cfg.Rubric.Averaged {
					fix = fmt.Sprintf("the score looks like a mean of %d raters' scores: if the sheet holds such means, set [rubric] averaged = %d (the most raters averaged) in study.toml", n, n)
				}
			}
			scale := st.cfg.Rubric.Describe()
			st.ps.add(Problem{Loc: r.at(col), Value: v, Expected: scale + noNA(v, "a rubric score"),
				Kind: "scores that are not " + st.cfg.Rubric.DescribePlural(), Fix: fix})
			g.reported = append(g.reported, st.attrs[ai])
			return
		}
		g.scores[ai] = n
		return
	}
	// A judge's score that is not a number on the scale (a failure code
	// averaged in, unparsable free text) is not a score: it is left out like
	// a missing one, and counted in the warnings with its first location.
	f, ok := tabular.ParseFloat(v)
	if !ok || f < lo || f > hi {
		from, to := config.FormatDecimal(lo), config.FormatDecimal(hi)
		msg := fmt.Sprintf("judge gradings: a score that is not a number from %s to %s was left out", from, to)
		if st.ps.counts[msg] == 0 {
			st.ps.warn("%s: found %q; judge scores must be numbers from %s to %s (this and any like it are left out)", r.at(col).String(), v, from, to)
		}
		st.ps.count(msg)
		return
	}
	g.scores[ai] = f
}

func (st *state) setVerdict(r row, col, v string, g *grading, qi *question, n int) {
	if !st.haveChecklst {
		st.ps.add(Problem{Loc: r.at(col), Value: v, Expected: "no checklist verdicts, or a checklist file that lists the items"})
		return
	}
	if n > qi.items {
		st.ps.add(Problem{Loc: r.at(col), Value: v, Expected: fmt.Sprintf("a blank cell: question %s has %d checklist items, not %d", g.q, qi.items, n), Kind: "verdicts for items the question does not have"})
		return
	}
	vd, ok := parseVerdict(v)
	if !ok {
		st.ps.add(Problem{Loc: r.at(col), Value: v, Expected: "a verdict: hit, partial, miss or na (also yes/no/1/0; N/A and a lone dash are na)", Kind: "verdicts that are not hit, partial, miss or na"})
		g.reported = append(g.reported, "c"+strconv.Itoa(n))
		return
	}
	for len(g.verdicts) < qi.items {
		g.verdicts = append(g.verdicts, vNone)
	}
	g.verdicts[n-1] = vd
}

// setPosition reads the optional position column (1 = shown first) of a
// grading row; the rows of one long-form grading must agree.
func (st *state) setPosition(r row, g *grading) {
	v := strings.TrimSpace(r.get("position"))
	if v == "" {
		return
	}
	n, ok := parsePosition(r, "position", v, st)
	if !ok {
		return
	}
	if g.position != 0 && g.position != n {
		st.ps.add(Problem{Loc: r.at("position"), Value: v, Expected: fmt.Sprintf("the same position on every row of a grading (an earlier row says %d)", g.position)})
		return
	}
	g.position = n
}

// parsePosition reads a display position: an integer 1, 2, … (1 = shown first).
func parsePosition(r row, col, v string, st *state) (int64, bool) {
	n, ok := tabular.ParseInt(v)
	if !ok || n < 1 {
		st.ps.add(Problem{Loc: r.at(col), Value: v, Expected: "a position 1, 2, … (1 = shown first)"})
		return 0, false
	}
	return n, true
}

func (st *state) setRank(r row, col, v string, g *grading) {
	n, ok := tabular.ParseInt(v)
	if !ok || n < 1 {
		st.ps.add(Problem{Loc: r.at(col), Value: v, Expected: "a rank 1, 2, … (1 = best)" + noNA(v, "a rank"), Kind: "ranks that are not 1, 2, …"})
		return
	}
	g.rank = n
}

// nanScores returns a fresh score slice with every attribute missing.
func (st *state) nanScores() []float64 {
	sc := make([]float64, len(st.attrs))
	for i := range sc {
		sc[i] = math.NaN()
	}
	return sc
}

// sid numbers a string (ids and names) for compact keys.
func (st *state) sid(s string) int32 {
	if n, ok := st.sids[s]; ok {
		return n
	}
	n := int32(len(st.sids))
	s = strings.Clone(s)
	st.sids[s] = n
	st.names = append(st.names, s)
	return n
}

// where is a compact location of a grading: file, sheet and row.
type where struct{ file, sheet, row int32 }

func (st *state) where(l tabular.Loc) where {
	return where{st.sid(l.File), st.sid(l.Sheet), int32(l.Row)}
}

func (st *state) loc(w where) tabular.Loc {
	f := st.name(w.file)
	return tabular.Loc{File: f, Sheet: st.name(w.sheet), Row: int(w.row), Offset: -1, Format: formatOf(f)}
}

// name is the string numbered id by sid.
func (st *state) name(id int32) string { return st.names[id] }

// rankGroup collects the ranks of one (evaluator, round, run, question).
// It holds numbered ids (see sid): at 40,000 questions there are a few
// hundred thousand groups.
type rankGroup struct {
	first  where
	n      int32
	ev, qv int32 // evaluator (sid) and question (question.num)
	ranks  []int32
	// seen are the models (sid) graded in the group, with where first:
	// a group has a few, scanned instead of looked up in a map keyed by
	// (group, model) of every grading's.
	seen []modelSeen
}

// modelSeen is a model of a rank group and where it was first graded.
type modelSeen struct {
	m  int32
	at where
}

// seenAt returns where model m (sid) was first graded in the group.
func (rg *rankGroup) seenAt(m int32) (where, bool) {
	for _, s := range rg.seen {
		if s.m == m {
			return s.at, true
		}
	}
	return where{}, false
}

// accept checks one complete grading against the rest of the study and
// writes it. Only compact keys stay in memory.
func (st *state) accept(g *grading) {
	st.noteKind(g.evaluator, g.kind, g.loc)
	// A grading is keyed by its rank group and its model: one 8-byte key
	// per grading instead of five ids.
	qi := st.questions[g.q]
	ev, q, mn := st.sid(g.evaluator), qi.num, st.sid(g.model)
	gk := [4]int32{ev, st.sid(g.round), st.sid(g.run), q}
	gi, ok := st.groupOf[gk]
	if ok {
		if prev, dup := st.groups[gi].seenAt(mn); dup {
			pl := st.loc(prev)
			st.ps.add(Problem{Loc: g.loc, Value: g.q + " / " + g.model,
				Expected: fmt.Sprintf("one grading per evaluator, round, question and model (evaluator %s graded it also at %s)", g.evaluator, pl.String()), Kind: "gradings given twice",
				Fix: st.duplicateFix(g, pl)})
			st.taint(g.loc)
			return
		}
	}
	w := st.where(g.loc)
	if !ok {
		gi = int32(len(st.groups))
		st.groupOf[gk] = gi
		st.groups = append(st.groups, rankGroup{first: w, ev: ev, qv: q})
	}
	if g.kind == "human" {
		st.graders.add([3]int32{gk[1], q, mn}, st.cfg.Limits.GradersPerResponse, w)
	}
	rg := &st.groups[gi]
	rg.seen = append(rg.seen, modelSeen{mn, w})
	rg.n++
	if g.rank > 0 {
		rg.ranks = append(rg.ranks, int32(g.rank))
	}
	if g.rubric {
		st.haveRubric = true
	}
	if g.rubric {
		for i := range st.attrs {
			if g.long || g.hdr.has(st.attrs[i]) {
				st.attrSeen[i] = true
			}
		}
	}
	if g.kind == "human" && !g.bad {
		if g.rubric {
			for i, sc := range g.scores {
				if math.IsNaN(sc) && !g.long && !g.hdr.has(st.attrs[i]) {
					// The sheet has no column for the attribute: one
					// problem for the sheet, not one per grading.
					k := g.loc.File + "\x00" + g.sheet + "\x00" + st.attrs[i]
					if !st.missingCol[k] {
						st.missingCol[k] = true
						st.ps.add(Problem{Loc: g.hdr.at(g.loc.File, g.sheet), Kind: "missing columns", Expected: fmt.Sprintf("a column for the rubric attribute %q (rubric.attributes in study.toml) in a sheet with rubric scores; columns found: %s%s", st.cfg.Rubric.Attributes[i], g.hdr.written(), g.hdr.closest([]string{st.cfg.Rubric.Attributes[i]}))})
					}
				} else if math.IsNaN(sc) && !g.wasReported(st.attrs[i]) {
					l := g.loc
					l.Column = g.column(st.attrs[i], st.cfg.Rubric.Attributes[i])
					st.ps.add(Problem{Loc: l, Expected: fmt.Sprintf("a %s score for every human grading (it is missing)", st.cfg.Rubric.Attributes[i]), Kind: "missing scores"})
				}
			}
		} else {
			st.noRubric = append(st.noRubric, w)
		}
		if st.haveChecklst {
			for i := 0; i < qi.items; i++ {
				c := "c" + strconv.Itoa(i+1)
				if !g.long && !g.hdr.has(c) {
					// The sheet has no column for the item: one problem
					// for the sheet, not one per grading.
					k := g.loc.File + "\x00" + g.sheet + "\x00" + c
					if !st.missingCol[k] {
						st.missingCol[k] = true
						st.ps.add(Problem{Loc: g.hdr.at(g.loc.File, g.sheet), Kind: "missing columns",
							Expected: fmt.Sprintf("a column C%d for item %d of the checklist (question %s has %d items); columns found: %s%s", i+1, i+1, g.q, qi.items, g.hdr.written(), g.hdr.closest([]string{fmt.Sprintf("C%d", i+1)}))})
					}
					continue
				}
				if (i >= len(g.verdicts) || g.verdicts[i] == vNone) && !g.wasReported(c) {
					l := g.loc
					l.Column = g.column(fmt.Sprintf("c%d", i+1), fmt.Sprintf("C%d", i+1))
					st.ps.add(Problem{Loc: l, Expected: fmt.Sprintf("a verdict for item %d of question %s (hit, partial, miss or na; it is blank)", i+1, g.q), Kind: "blank checklist verdicts"})
				}
			}
		}
	}
	st.countDrops(g, qi.items)
	if st.haveDumps && g.model != st.cfg.HumanLabel {
		if !qi.hasResponse(mn) {
			if f, failed := st.failedAt(newRespKey(q, mn)); failed {
				st.ps.add(Problem{Loc: g.loc, Value: g.q + " / " + g.model,
					Expected: fmt.Sprintf("a response that exists: its batch request failed (%s, %s)", f.loc.String(), f.err)})
			} else {
				msg := "gradings of responses missing from the response dumps: model " + strconv.Quote(g.model)
				if st.refAuthors[g.model] {
					msg += fmt.Sprintf(", the author of reference answers: if these gradings are of the references, write the model as the human_label %q, or set human_label = %q in study.toml", st.cfg.HumanLabel, g.model)
				}
				st.ps.count(msg)
			}
		}
	}
	if g.model == st.cfg.HumanLabel && st.refs[g.q] == 0 {
		st.ps.count(fmt.Sprintf("%s is graded on a question without a reference answer", st.cfg.HumanLabel))
	}
	st.writeGrading(g, qi, ev, mn)
}

// finish checks what needs the whole study: ranks, rubric presence, and
// writes the evaluators.
func (st *state) finish() error {
	if st.haveRubric {
		for _, w := range st.noRubric {
			l := st.loc(w)
			st.ps.add(Problem{Loc: l, Expected: "rubric scores (" + strings.Join(st.cfg.Rubric.Attributes, ", ") + ") for every human grading: this sheet has none, other sheets do"})
		}
	}
	st.checkRanks()
	st.dropWarnings()
	st.checkSomeGradings()
	st.checkSomeScore()
	return st.writeEvaluators()
}

// checkRanks requires the ranks of each (evaluator, round, run, question) to
// be a permutation of 1..k over its responses, with every response ranked
// when any is.
func (st *state) checkRanks() {
	for i := range st.groups {
		rg := &st.groups[i]
		if len(rg.ranks) == 0 {
			continue
		}
		first := st.loc(rg.first)
		if st.tainted[first.File+"\x00"+first.Sheet] {
			continue // a row of the sheet had a problem: its ranks may lack that row
		}
		first.Column = "rank"
		if int32(len(rg.ranks)) < rg.n {
			st.ps.add(Problem{Loc: first, Expected: fmt.Sprintf("a rank for every response of question %s graded by %s (%d of %d are ranked)", st.qids[rg.qv], st.name(rg.ev), len(rg.ranks), rg.n), Kind: "questions with responses left unranked"})
			continue
		}
		ranks := append([]int32(nil), rg.ranks...)
		sort.Slice(ranks, func(i, j int) bool { return ranks[i] < ranks[j] })
		for i, r := range ranks {
			if int(r) != i+1 {
				var txt []string
				for _, r := range ranks {
					txt = append(txt, strconv.Itoa(int(r)))
				}
				st.ps.add(Problem{Loc: first, Value: strings.Join(txt, ","), Expected: fmt.Sprintf("ranks of question %s by %s forming a permutation of 1..%d without ties", st.qids[rg.qv], st.name(rg.ev), len(ranks)), Kind: "questions whose ranks are not 1..k without ties"})
				break
			}
		}
	}
}

// writeGrading writes one grading and its scores, verdicts and tags; qi,
// ev and m are its question, evaluator (sid) and model (sid).
//
// gradings.label is the label the grading's row names, else the label the
// blinding file gives its (question, model) for its evaluator, then for
// every evaluator; none when neither has one. It is the one place
// gradings.label is filled, so a grading row that names the model still
// carries the label its grader saw. The position, when the row gives none,
// comes from blinding the same way.
func (st *state) writeGrading(g *grading, qi *question, ev, m int32) {
	o := st.out
	st.nGradings++
	id := st.nGradings
	t := o.gradings
	t.i64(0, id)
	t.str(1, g.evaluator)
	t.str(2, g.kind)
	t.str(3, g.round)
	t.str(4, g.run)
	t.str(5, g.q)
	t.str(6, g.model)
	label, hasLabel, shownPos := st.shownFor(qi, m, ev)
	switch {
	case g.label != "":
		t.str(7, g.label)
	case hasLabel:
		t.str(7, st.name(label))
	default:
		t.null(7)
	}
	if g.rank > 0 {
		t.i64(8, g.rank)
	} else {
		t.null(8)
	}
	t.optStr(9, g.comment)
	t.str(10, g.loc.File)
	t.optStr(11, g.sheet)
	t.i64(12, int64(g.loc.Row))
	pos := g.position
	if pos == 0 {
		pos = shownPos
	}
	if pos > 0 {
		t.i64(13, pos)
	} else {
		t.null(13)
	}
	st.emit(t)
	if g.rubric {
		for ai, s := range g.scores {
			o.rubric.i64(0, id)
			o.rubric.str(1, st.cfg.Rubric.Attributes[ai])
			o.rubric.f64(2, s)
			st.emit(o.rubric)
		}
	}
	if st.haveChecklst {
		for n := 0; n < qi.items; n++ {
			o.verdicts.i64(0, id)
			o.verdicts.i64(1, int64(n+1))
			if n < len(g.verdicts) && g.verdicts[n] != vNone {
				o.verdicts.str(2, verdictWords[g.verdicts[n]])
			} else {
				o.verdicts.null(2)
			}
			st.emit(o.verdicts)
		}
	}
	for _, tg := range g.tags {
		o.gradingTags.i64(0, id)
		o.gradingTags.str(1, strings.TrimSpace(tg.k))
		o.gradingTags.str(2, tg.v)
		st.emit(o.gradingTags)
	}
}

// writeEvaluators writes every grader seen, with its kind and domain.
func (st *state) writeEvaluators() error {
	o := st.out
	names := make([]string, 0, len(st.evalKind))
	for e := range st.evalKind {
		names = append(names, e)
	}
	for e := range st.evaluators {
		if _, ok := st.evalKind[e]; !ok {
			names = append(names, e)
		}
	}
	sort.Strings(names)
	for _, e := range names {
		kind := st.evalKind[e].kind
		if kind == "" {
			kind = "human"
		}
		o.evaluators.str(0, e)
		o.evaluators.str(1, kind)
		o.evaluators.optStr(2, st.evaluators[e])
		o.evaluators.optStr(3, st.evalProvider[e])
		st.emit(o.evaluators)
	}
	return st.loadErr
}
