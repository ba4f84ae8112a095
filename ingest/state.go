package ingest

import (
	"context"
	"fmt"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	unorm "golang.org/x/text/unicode/norm"

	"github.com/euroexec/euroexec/ingest/config"
	"github.com/euroexec/euroexec/ingest/internal/suggest"
	"github.com/euroexec/euroexec/ingest/providers"
	"github.com/euroexec/euroexec/ingest/tabular"
)

// state is everything known while a study is read.
type state struct {
	dir      string
	cfg      config.Config
	scale    config.Scale         // cfg.Rubric's scale, for reading human scores
	aliases  []config.ColumnAlias // [columns], compiled
	colNames map[string]string    // header as written → canonical name (see columnName)
	// prefetched are the workbooks opened and parsed ahead (see prefetch).
	prefetched map[string]*prefetch
	tabOpt     tabular.Options
	ps         problems
	sink       *sink
	out        outTables
	files      []fileRec
	inv        inventory

	attrs     []string // canonical (lower-case) rubric attributes
	attrIndex map[string]int

	questions    map[string]*question
	qids         []string    // question ids by number (question.num)
	qs           []*question // the questions by number
	blankSid     int32       // sid of "" once numbered (blinding rows for every evaluator), else -1
	haveChecklst bool
	models       map[string]bool // from models file; nil when there is none
	evaluators   map[string]string
	evalProvider map[string]string   // evaluator → provider (evaluators file)
	blinding     map[blindKey]int32  // (question, label, evaluator|"") → model (sid); see blindKey
	qLabels      map[string][]string // question → its labels in blinding (built for hints)
	refs         map[string]int      // question → number of references
	qFold, mFold caseFold            // listed question ids and models by lower case
	eFold        caseFold            // evaluators (listed or seen) by lower case
	rounds       map[string]bool     // rounds of human gradings
	tagKeys      map[string]bool     // question tag keys (lower case)
	attrSeen     []bool              // per rubric attribute: some grading sheet has it
	missingCol   map[string]bool     // file, sheet, attribute reported as a missing column
	tainted      map[string]bool     // file, sheet of grading rows with a problem (ranks not checked)
	hidden       map[string]bool     // file, sheet of the sheets hidden in Excel
	tagValues    map[string]bool     // lower-case key + "\x00" + value
	haveDumps    bool
	responses    map[respKey]respInfo
	respMulti    map[respKey][]int64 // responses given more than once → every attempt, in order
	respAttempt  map[respKey]int64   // first attempts that do not fit respInfo.attempt

	// Gradings are checked and written as they are read; only compact keys stay.
	sids        map[string]int32
	names       []string
	groupOf     map[[4]int32]int32 // (evaluator, round, run, question) → index in groups
	groups      []rankGroup        // in the order of their first grading
	noRubric    []where            // human gradings from sheets without rubric columns
	graders     gradersCount       // human graders per response, for [limits] graders_per_response
	haveRubric  bool
	nGradings   int64
	drops       map[string]*dropCount // per grader: scores expected and usable
	dropOrder   []string
	allowEmpty  bool // Options.AllowEmpty
	ctx         context.Context
	pseen       map[pairKey]where // pairwise judgments seen
	nPairs      int64
	nCritGrades int64           // criterion grades read (PRBench-style studies)
	nScored     int64           // gradings with a value of some instrument (rubric, checklist, rank)
	tagCols     []tagCol        // grading columns read as tags, in the order first found
	dropProblem bool            // every score of a population was dropped: already a problem
	refAuthors  map[string]bool // authors named in the references file
	evalKind    map[string]evalSeen
	criteria    map[[2]string]int // (question, criterion) → weight
	strs        map[string]string
	loadErr     error // a database failure while loading (not an input problem)

	prices     map[string][2]float64 // model → USD per 1k input, output tokens (both known)
	idTemplate providers.IDTemplate
	jr         *judgeReader         // judge outputs (batch files, [judges.parse]); nil until used
	imports    *importUse           // [import] keys used by platform exports; nil until one is read
	requestMap map[string][2]string // request id → question, model
	failed     map[respKey]failure  // batch requests that produced no answer

	progress    func(done, total int64)
	done, total int64 // bytes of input files read, and in the study folder
}

// fileRead records one input file as read and reports progress.
func (st *state) fileRead(f fileRec) {
	st.files = append(st.files, f)
	if st.progress != nil {
		st.done += st.sizeOf(f.path)
		st.progress(min(st.done, st.total), st.total)
	}
}

type question struct {
	items    int
	itemSeen []bool
	row      int32 // its row in the questions file
	num      int32 // the question's number: its index in state.qids
	// respModels are the models (sid) with a response to the question in
	// the dumps, in the order first read: the keys of state.responses of
	// this question, found without a look-up in that large map.
	respModels []int32
	// shown is what blinding gives the question's models: per (model,
	// evaluator or "" for every evaluator), the label shown and position.
	// A question has a few; they are scanned instead of looked up in a
	// map of every question's.
	shown []shownAt
}

// shownAt is one (model, evaluator) of a question in blinding: its label
// (sid) and position (0 when blinding gives none). Evaluator "" is every
// evaluator's.
type shownAt struct {
	m, ev, label int32
	pos          int64
}

// shownAt returns the blinding entry of model m for evaluator ev (sids).
func (qi *question) shownAt(m, ev int32) *shownAt {
	for i := range qi.shown {
		if s := &qi.shown[i]; s.m == m && s.ev == ev {
			return s
		}
	}
	return nil
}

// hasResponse reports whether model m (sid) has a response to the question.
func (qi *question) hasResponse(m int32) bool {
	for _, x := range qi.respModels {
		if x == m {
			return true
		}
	}
	return false
}

// blindKey keys the blinding maps by numbers, not strings: the question's
// number (question.num), then a label or model and an evaluator ("" for
// every evaluator) numbered by sid. Three numbers take 12 bytes where three
// strings took 48 and kept each key's strings alive; at 200,000 questions
// × 6 models the blinding holds 1.2 million keys.
type blindKey [3]int32

// respKey keys the response index: question number in the high 32 bits,
// model (sid) in the low 32 bits.
type respKey uint64

func newRespKey(q, m int32) respKey { return respKey(uint64(uint32(q))<<32 | uint64(uint32(m))) }

func (k respKey) q() int32 { return int32(uint32(k >> 32)) }
func (k respKey) m() int32 { return int32(uint32(k)) }

// respInfo is what the response index keeps of a (question, model): where
// its first response is and that response's attempt (attemptBig when it
// does not fit in 32 bits: the attempt is then in state.respAttempt).
type respInfo struct {
	at      where
	attempt int32
}

const attemptBig = -1

type evalSeen struct {
	kind string
	loc  tabular.Loc
}

func newState(dir string, cfg config.Config) *state {
	st := &state{
		dir: dir, cfg: cfg, scale: cfg.Rubric.Scale(),
		tabOpt: tabular.Options{SheetInclude: cfg.Sheets.Include, SheetExclude: cfg.Sheets.Exclude,
			Limits: tabular.Limits{LineBytes: cfg.Limits.LineBytes, CellBytes: cfg.Limits.CellBytes,
				Columns: cfg.Limits.Columns, XLSXBytes: cfg.Limits.XLSXBytes, XLSXRatio: cfg.Limits.XLSXRatio,
				XLSXStylesBytes: cfg.Limits.XLSXStylesBytes, XLSXStringsBytes: cfg.Limits.XLSXStringsBytes, XLSXStrings: cfg.Limits.XLSXStrings}},
		attrIndex:    map[string]int{},
		questions:    map[string]*question{},
		evaluators:   map[string]string{},
		evalProvider: map[string]string{},
		blinding:     map[blindKey]int32{},
		refs:         map[string]int{},
		qFold:        caseFold{}, mFold: caseFold{}, eFold: caseFold{},
		rounds:     map[string]bool{},
		tagKeys:    map[string]bool{},
		attrSeen:   make([]bool, len(cfg.Rubric.Attributes)),
		missingCol: map[string]bool{},
		tainted:    map[string]bool{},
		hidden:     map[string]bool{},
		tagValues:  map[string]bool{},
		responses:  map[respKey]respInfo{},
		evalKind:   map[string]evalSeen{},
		criteria:   map[[2]string]int{},
		strs:       map[string]string{},
		sids:       map[string]int32{},
		pseen:      map[pairKey]where{},
		groupOf:    map[[4]int32]int32{},
		blankSid:   -1,
	}
	st.aliases = cfg.ColumnAliases()
	for i, a := range cfg.Rubric.Attributes {
		st.attrs = append(st.attrs, config.ColumnKey(a))
		st.attrIndex[config.ColumnKey(a)] = i
	}
	return st
}

// intern returns one shared copy of a repeated string (ids, names).
func (st *state) intern(s string) string {
	if v, ok := st.strs[s]; ok {
		return v
	}
	s = strings.Clone(s) // do not keep the reader's row buffer alive
	st.strs[s] = s
	return s
}

// id reads an identifier cell: surrounding spaces trimmed, Unicode NFC;
// empty, or holding control or invisible characters, is a problem.
func (st *state) id(r row, col, what string) (string, bool) {
	v, ok := st.cleanID(r, col, what)
	if !ok {
		return "", false
	}
	if v == "" {
		p := Problem{Loc: r.at(col), Expected: what + " (the cell is empty)", Kind: "empty " + col + " cells"}
		if r.loc.Format == tabular.FormatXLSX {
			p.Fix = "if it is part of merged cells, unmerge them and fill in the value on every row (a merged cell holds its value in its first row only)"
		}
		st.ps.add(p)
		return "", false
	}
	return st.intern(v), true
}

// cleanID returns an id cell trimmed and in Unicode NFC ("" when empty),
// adding a problem for control and invisible characters (two ids that
// print alike would otherwise be two ids).
func (st *state) cleanID(r row, col, what string) (string, bool) {
	v, i := idText(r.get(col))
	if i >= 0 {
		c, _ := utf8.DecodeRuneInString(v[i:])
		st.ps.add(Problem{Loc: r.at(col), Value: v,
			Expected: fmt.Sprintf("%s without control or invisible characters (found %U at byte %d)", what, c, i)})
		return "", false
	}
	return v, true
}

// idText returns an id cell trimmed and in Unicode NFC, and the byte index
// in it of its first control or invisible character (-1 when none). An id
// of printable ASCII only (most are) is both: it is not decoded rune by
// rune.
func idText(s string) (string, int) {
	v := strings.TrimSpace(s)
	if printableASCII(v) {
		return v, -1
	}
	if !unorm.NFC.IsNormalString(v) {
		v = unorm.NFC.String(v)
	}
	return v, strings.IndexFunc(v, tabular.Invisible)
}

// printableASCII reports whether s holds only the bytes ' ' to '~': text
// in NFC without a control or invisible character.
func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c > '~' {
			return false
		}
	}
	return true
}

// caseFold maps the lower-case form of listed ids to the id as listed, to
// tell ids that differ only in letter case.
type caseFold map[string]string

// similar returns the listed id that equals id but for letter case.
func (f caseFold) similar(id string) (string, bool) {
	other, ok := f[strings.ToLower(id)]
	return other, ok && other != id
}

// list records a listed id; it returns the id listed earlier that differs
// only in letter case, if any.
func (f caseFold) list(id string) (string, bool) {
	k := strings.ToLower(id)
	if other, ok := f[k]; ok && other != id {
		return other, true
	}
	f[k] = id
	return "", false
}

// didYouMean is the hint for an id that a listed id matches but for case.
func didYouMean(f caseFold, id string) string {
	if other, ok := f.similar(id); ok {
		return fmt.Sprintf(" (did you mean %q? ids are compared with their letter case)", other)
	}
	return ""
}

// hint is what a problem about an unknown id adds: a listed id that differs
// only in case, else the closest listed id and, when there are few, all of
// them (see suggest.Hint). Past MaxProblems nothing is computed.
func (st *state) hint(f caseFold, id string, listed func() []string, what string) string {
	if h := didYouMean(f, id); h != "" {
		return h
	}
	if st.ps.full() {
		return ""
	}
	return suggest.Hint(id, listed(), what)
}

// labelHint is the hint for an unknown label of question q: the closest
// label of q in the blinding file and its labels.
func (st *state) labelHint(q, l string) string {
	if st.ps.full() || len(st.blinding) == 0 {
		return ""
	}
	if st.qLabels == nil {
		st.qLabels = map[string][]string{}
		seen := map[[2]int32]bool{}
		for k := range st.blinding {
			if !seen[[2]int32{k[0], k[1]}] {
				seen[[2]int32{k[0], k[1]}] = true
				q := st.qids[k[0]]
				st.qLabels[q] = append(st.qLabels[q], st.name(k[1]))
			}
		}
	}
	return suggest.Hint(l, st.qLabels[q], "labels of question "+q)
}

// qnum returns the number of a question id of the questions file.
func (st *state) qnum(q string) (int32, bool) {
	if qi := st.questions[q]; qi != nil {
		return qi.num, true
	}
	return 0, false
}

// sidOf returns the number sid gave s, without numbering a new string
// (a string never numbered is in no key).
func (st *state) sidOf(s string) (int32, bool) {
	n, ok := st.sids[s]
	return n, ok
}

// blindKeyOf returns the blinding key of (question, label or model,
// evaluator); false when one of them was never numbered, so that no key
// holds it.
func (st *state) blindKeyOf(q, x, evaluator string) (blindKey, bool) {
	qn, ok1 := st.qnum(q)
	xn, ok2 := st.sidOf(x)
	en, ok3 := st.sidOf(evaluator)
	return blindKey{qn, xn, en}, ok1 && ok2 && ok3
}

// blindModel resolves label l of question q for an evaluator: the label
// blinding gives for that evaluator, else the one for every evaluator.
func (st *state) blindModel(q, l, evaluator string) (string, bool) {
	if k, ok := st.blindKeyOf(q, l, evaluator); ok {
		if m, ok := st.blinding[k]; ok {
			return st.name(m), true
		}
	}
	if k, ok := st.blindKeyOf(q, l, ""); ok {
		if m, ok := st.blinding[k]; ok {
			return st.name(m), true
		}
	}
	return "", false
}

// shownFor looks up what blinding gives (question qi, model m) for
// evaluator ev, both numbered, else for every evaluator: the label (sid)
// and the position (0 when none), each from the first of the two that has
// it.
func (st *state) shownFor(qi *question, m, ev int32) (label int32, hasLabel bool, pos int64) {
	if len(qi.shown) == 0 {
		return 0, false, 0
	}
	var all *shownAt
	if st.blankSid >= 0 {
		all = qi.shownAt(m, st.blankSid)
	}
	if s := qi.shownAt(m, ev); s != nil {
		label, hasLabel, pos = s.label, true, s.pos
	} else if all != nil {
		label, hasLabel = all.label, true
	}
	if pos == 0 && all != nil {
		pos = all.pos
	}
	return label, hasLabel, pos
}

// respKeyOf returns the response-index key of (question, model); false
// when either was never numbered (no response has it).
func (st *state) respKeyOf(q, m string) (respKey, bool) {
	qn, ok1 := st.qnum(q)
	mn, ok2 := st.sidOf(m)
	return newRespKey(qn, mn), ok1 && ok2
}

// hasResponse reports whether the dumps hold a response of (question, model).
func (st *state) hasResponse(q, m string) bool {
	k, ok := st.respKeyOf(q, m)
	if !ok {
		return false
	}
	_, ok = st.responses[k]
	return ok
}

// failedRequest returns the failed batch request of (question, model), if any.
func (st *state) failedRequest(q, m string) (failure, bool) {
	k, ok := st.respKeyOf(q, m)
	if !ok {
		return failure{}, false
	}
	return st.failedAt(k)
}

// failedAt returns the failed batch request of a response key, if any.
func (st *state) failedAt(k respKey) (failure, bool) {
	if st.failed == nil {
		return failure{}, false
	}
	f, ok := st.failed[k]
	return f, ok
}

// addResponse records a response of (question, model) with its attempt:
// its index entry when it is the first, else every attempt in respMulti.
// It returns where the first one is when there was one already.
func (st *state) addResponse(k respKey, attempt int64, at tabular.Loc) (first where, dup bool) {
	ri, dup := st.responses[k]
	if !dup {
		ri = respInfo{at: st.where(at), attempt: int32(attempt)}
		if attempt > math.MaxInt32 || attempt < 0 {
			ri.attempt = attemptBig
			if st.respAttempt == nil {
				st.respAttempt = map[respKey]int64{}
			}
			st.respAttempt[k] = attempt
		}
		st.responses[k] = ri
		qi := st.qs[k.q()]
		qi.respModels = append(qi.respModels, k.m())
		return ri.at, false
	}
	if st.respMulti == nil {
		st.respMulti = map[respKey][]int64{}
	}
	at0, ok := st.respMulti[k]
	if !ok {
		at0 = []int64{st.firstAttempt(k, ri)}
	}
	st.respMulti[k] = append(at0, attempt)
	return ri.at, true
}

// firstAttempt is the attempt of the first response of k.
func (st *state) firstAttempt(k respKey, ri respInfo) int64 {
	if ri.attempt == attemptBig {
		return st.respAttempt[k]
	}
	return int64(ri.attempt)
}

// keys returns a set's members.
func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// question looks up a question id, adding a problem when it is unknown.
func (st *state) question(r row, col string) (string, *question, bool) {
	if v, bad := idText(r.get(col)); v != "" && bad < 0 {
		// a listed id: its copy in qids, without a look-up in the interned
		// strings
		if qi := st.questions[v]; qi != nil {
			return st.qids[qi.num], qi, true
		}
	}
	q, ok := st.id(r, col, "a question id")
	if !ok {
		return "", nil, false
	}
	qi := st.questions[q]
	if qi == nil {
		st.ps.add(Problem{Loc: r.at(col), Value: q, Expected: "a question id of the questions file" + didYouMean(st.qFold, q), Kind: "unknown question ids"})
		return q, nil, false
	}
	return q, qi, true
}

// words counts whitespace-separated words (as strings.Fields splits them,
// without building the slice).
//
// An ASCII byte is counted without a branch: a word starts at a byte that
// is not a space after one that is (or at the start). Past the first byte
// that is not ASCII, the words are counted rune by rune (wordsSlow).
func words(s string) int64 {
	var n int64
	prev := byte(1) // the byte before was a space, or there is none
	for i := 0; i < len(s); i++ {
		c := wordClass[s[i]]
		if c > 1 {
			return n + wordsSlow(s[i:], prev == 0)
		}
		n += int64(prev &^ c)
		prev = c
	}
	return n
}

// wordClass classes bytes for words: 1 ASCII white space, 0 another ASCII
// byte, 2 a byte that is not ASCII.
var wordClass = func() (t [256]byte) {
	for c := utf8.RuneSelf; c < 256; c++ {
		t[c] = 2
	}
	for _, c := range []byte{'\t', '\n', '\v', '\f', '\r', ' '} {
		t[c] = 1
	}
	return t
}()

// wordsSlow counts the words of s, which may hold any Unicode white space;
// in says whether the text before s ended inside a word.
func wordsSlow(s string, in bool) int64 {
	var n int64
	for _, r := range s {
		var space bool
		if r < utf8.RuneSelf {
			space = wordClass[r] == 1
		} else {
			space = unicode.IsSpace(r)
		}
		if space {
			in = false
		} else if !in {
			in = true
			n++
		}
	}
	return n
}

func chars(s string) int64 { return int64(utf8.RuneCountInString(s)) }

// parseBool reads met/graded/passed cells.
func parseBool(s string) (bool, bool) {
	switch norm(s) {
	case "true", "yes", "y", "1", "t":
		return true, true
	case "false", "no", "n", "0", "f":
		return false, true
	}
	return false, false
}

// outTables are the batchers of the canonical tables.
type outTables struct {
	questions, questionTags, checklist, models, evaluators, responses, failed,
	references, gradings, gradingTags, rubric, verdicts, gate, criteria,
	criterionGrades, files, settings, pairwise *batcher
}

func (o *outTables) all() map[string]*batcher {
	return map[string]*batcher{
		"questions": o.questions, "question_tags": o.questionTags, "checklist_items": o.checklist,
		"models": o.models, "evaluators": o.evaluators, "responses": o.responses,
		"failed_requests": o.failed, "references": o.references, "gradings": o.gradings,
		"grading_tags": o.gradingTags, "rubric_scores": o.rubric, "checklist_verdicts": o.verdicts,
		"gate_runs": o.gate, "criteria": o.criteria, "criterion_grades": o.criterionGrades,
		"ingest_files": o.files, "pairwise_judgments": o.pairwise,
	}
}

func (st *state) openTables() {
	s := st.sink
	S := func(n string) col { return col{n, kStr} }
	I := func(n string) col { return col{n, kInt} }
	F := func(n string) col { return col{n, kF64} }
	B := func(n string) col { return col{n, kBool} }
	D := func(n string) col { return col{n, kDict} }
	st.out = outTables{
		questions:    s.table("questions", S("question_id"), S("domain"), S("prompt"), S("author"), S("difficulty"), F("gate_score"), S("source_file"), I("source_row")),
		questionTags: s.table("question_tags", S("question_id"), S("key"), S("value"), I("ord")),
		checklist:    s.table("checklist_items", S("question_id"), I("item"), S("text")),
		models:       s.table("models", S("model"), S("provider"), S("display_name"), F("usd_per_1k_input"), F("usd_per_1k_output")),
		evaluators:   s.table("evaluators", S("evaluator"), S("kind"), S("domain"), S("provider")),
		responses: s.table("responses", D("question_id"), D("model"), I("attempt"), B("latest"), S("text"), I("chars"), I("words"),
			F("cost_usd"), I("input_tokens"), I("output_tokens"), D("source_file"), I("source_row")),
		failed:     s.table("failed_requests", S("question_id"), S("model"), S("request_id"), S("error"), S("source_file"), I("source_row")),
		references: s.table("references", S("question_id"), S("reference_id"), S("author"), S("text"), B("graded"), I("chars"), I("words")),
		gradings: s.table("gradings", I("grading_id"), D("evaluator"), D("kind"), D("round"), D("run"), D("question_id"), D("model"),
			D("label"), I("rank"), S("comment"), D("source_file"), D("sheet"), I("source_row"), I("position")),
		gradingTags:     s.table("grading_tags", I("grading_id"), S("key"), S("value")),
		rubric:          s.table("rubric_scores", I("grading_id"), D("attribute"), F("score")),
		verdicts:        s.table("checklist_verdicts", I("grading_id"), I("item"), D("verdict")),
		gate:            s.table("gate_runs", D("question_id"), D("run"), I("item"), B("passed")),
		criteria:        s.table("criteria", S("question_id"), S("criterion_id"), S("text"), I("weight"), S("category")),
		criterionGrades: s.table("criterion_grades", D("evaluator"), D("kind"), D("question_id"), D("model"), D("criterion_id"), B("met"), D("source_file"), I("source_row")),
		files:           s.table("ingest_files", S("path"), S("sha256"), I("rows"), col{"loaded_at", kTime}),
		settings:        s.table("study_settings", S("key"), S("value")),
		pairwise: s.table("pairwise_judgments", D("evaluator"), D("kind"), D("round"), D("run"), D("question_id"), D("model_a"), D("model_b"),
			D("label_a"), D("label_b"), D("winner"), S("comment"), D("source_file"), D("sheet"), I("source_row"), B("position_unknown")),
	}
}

// emit ends a row, turning a load failure into a fatal error kept for later.
func (st *state) emit(t *batcher) {
	if err := t.end(); err != nil && st.loadErr == nil {
		st.loadErr = fmt.Errorf("load: %w", err)
	}
}
