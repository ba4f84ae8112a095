package ingest

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/euroexec/euroexec/ingest/config"
	"github.com/euroexec/euroexec/ingest/internal/suggest"
	"github.com/euroexec/euroexec/ingest/tabular"
)

// dropCount counts, for one grader (human or judge), the scores its
// gradings were expected to hold and those that were usable, so that the
// warnings can say "400 of 400 rubric scores dropped" and why.
type dropCount struct {
	name, kind     string
	first          tabular.Loc // the first grading's file
	gradings       int64
	rubricHave     int64
	missingCols    map[string]bool // rubric attributes (as configured) absent from a sheet of this grader
	nested         bool            // a sheet without them is JSONL (scores nested in an object?)
	checklistWant  int64
	checklistHave  int64
	rankedGradings int64
	rubricGradings int64 // gradings whose sheet has rubric columns
}

// countDrops records what one accepted grading holds.
func (st *state) countDrops(g *grading, items int) {
	if st.drops == nil {
		st.drops = map[string]*dropCount{}
	}
	d := st.drops[g.evaluator]
	if d == nil {
		d = &dropCount{name: g.evaluator, kind: g.kind, first: loc0(g.loc.File), missingCols: map[string]bool{}}
		st.drops[g.evaluator] = d
		st.dropOrder = append(st.dropOrder, g.evaluator)
	}
	d.gradings++
	if g.rank > 0 || slices.ContainsFunc(g.scores, func(x float64) bool { return !math.IsNaN(x) }) ||
		slices.ContainsFunc(g.verdicts, func(v int8) bool { return v != vNone }) {
		st.nScored++
	}
	for _, tg := range g.tags {
		st.noteTag(strings.TrimSpace(tg.k), strings.TrimSpace(tg.v))
	}
	if g.rank > 0 {
		d.rankedGradings++
	}
	if g.rubric {
		d.rubricGradings++
	}
	for i, sc := range g.scores {
		if !math.IsNaN(sc) {
			d.rubricHave++
		} else if !g.long && g.hdr != nil && !g.hdr.has(st.attrs[i]) {
			d.missingCols[st.cfg.Rubric.Attributes[i]] = true
			if formatOf(g.loc.File) == tabular.FormatJSONL {
				d.nested = true
			}
		}
	}
	if st.haveChecklst {
		d.checklistWant += int64(items)
		for i := 0; i < items && i < len(g.verdicts); i++ {
			if g.verdicts[i] != vNone {
				d.checklistHave++
			}
		}
	}
}

// dropWarnings warns, per judge, of the rubric scores and checklist
// verdicts left out (with counts of all and the likely reason), and makes it
// a problem (unless allowEmpty) when every rubric score or every checklist
// verdict of a whole population (human graders, judges) was dropped.
func (st *state) dropWarnings() {
	nAttr := int64(len(st.attrs))
	type pop struct {
		gradings, rubricWant, rubricHave, checkWant, checkHave int64
		first                                                  tabular.Loc
		why                                                    []string
	}
	pops := map[string]*pop{}
	for _, name := range st.dropOrder {
		d := st.drops[name]
		p := pops[d.kind]
		if p == nil {
			p = &pop{first: d.first}
			pops[d.kind] = p
		}
		p.gradings += d.gradings
		rubricWant := int64(0)
		if st.haveRubric {
			rubricWant = d.gradings * nAttr
		}
		p.rubricWant += rubricWant
		p.rubricHave += d.rubricHave
		p.checkWant += d.checklistWant
		p.checkHave += d.checklistHave
		if d.kind != "judge" {
			continue // a human's missing score is a problem, reported where it is
		}
		if lost := rubricWant - d.rubricHave; lost > 0 {
			why := "empty, or not numbers from " + config.FormatDecimal(st.cfg.Rubric.Min) + " to " + config.FormatDecimal(st.cfg.Rubric.Max)
			if len(d.missingCols) > 0 {
				cols := make([]string, 0, len(d.missingCols))
				for c := range d.missingCols {
					cols = append(cols, c)
				}
				slices.Sort(cols)
				word := "column"
				if len(cols) > 1 {
					word = "columns"
				}
				why = word + " " + strings.Join(cols, ", ") + " missing"
				if d.nested {
					why += " — nested JSON? each score must be a top-level key named as in [rubric] attributes, or mapped with [columns] (docs/FORMAT.md)"
				} else {
					why += " — see [columns] in study.toml to map a differently named column (docs/FORMAT.md)"
				}
			}
			st.ps.warn("judge %s: %d of %d rubric scores dropped: %s", name, lost, rubricWant, why)
			p.why = append(p.why, fmt.Sprintf("%s: %s", name, why))
		}
		if lost := d.checklistWant - d.checklistHave; lost > 0 {
			st.ps.warn("judge %s: %d of %d checklist verdicts dropped (blank or missing columns); they are left out of the judge's rate", name, lost, d.checklistWant)
		}
	}
	for _, kind := range []string{"human", "judge"} {
		p := pops[kind]
		if p == nil {
			continue
		}
		who := "human graders"
		if kind == "judge" {
			who = "judges"
		}
		for _, c := range []struct {
			what       string
			want, have int64
		}{{"rubric scores", p.rubricWant, p.rubricHave}, {"checklist verdicts", p.checkWant, p.checkHave}} {
			if c.want == 0 || c.have > 0 {
				continue
			}
			msg := fmt.Sprintf("every one of the %d %s of the %s was dropped (%d gradings)", c.want, c.what, who, p.gradings)
			if len(p.why) > 0 && c.what == "rubric scores" {
				msg += ": " + strings.Join(p.why, "; ")
			}
			if st.allowEmpty {
				st.ps.warn("%s; going on because of --allow-empty", msg)
				continue
			}
			st.ps.add(Problem{Loc: p.first, Expected: msg + "; fix the files, or pass --allow-empty to analyse without them"})
			st.dropProblem = true
		}
	}
}

// checkSomeGradings makes a study without any grading (rubric, checklist,
// rank, pairwise judgment or criterion grade) a problem, naming the
// files under grades/ that were not read because they are not in
// grades/humans/ or grades/judges/.
func (st *state) checkSomeGradings() {
	if st.nGradings > 0 || st.nPairs > 0 || st.nCritGrades > 0 || st.ps.inGrades > 0 {
		return // (problems in grading files: not echoed as "no gradings")
	}
	var stray []string
	filepath.WalkDir(filepath.Join(st.dir, "grades"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(st.dir, p)
		rel = filepath.ToSlash(rel)
		if !strings.HasPrefix(rel, "grades/humans/") && !strings.HasPrefix(rel, "grades/judges/") {
			stray = append(stray, rel)
		}
		return nil
	})
	exp := "grading sheets in grades/humans/ (human graders) or grades/judges/ (LLM judges), or criterion grades in criterion_grades/: the study has no gradings at all"
	if len(stray) > 0 {
		if len(stray) > 5 {
			stray = append(stray[:5], "…")
		}
		exp += "; not read, because they are not in those folders: " + strings.Join(stray, ", ")
	}
	st.ps.add(Problem{Loc: tabular.Loc{File: "grades/", Offset: -1}, Expected: exp})
}

// tagCol is a grading column read as a tag: its name as written, whether
// every value of it is a number, and its first value.
type tagCol struct {
	name    string
	numeric bool
	first   string
}

// noteTag records a grading tag's column, for the problem of a study whose
// gradings hold no score (checkSomeScore).
func (st *state) noteTag(name, v string) {
	if name == "" {
		return
	}
	_, err := strconv.ParseFloat(strings.ReplaceAll(v, ",", "."), 64)
	for i := range st.tagCols {
		if st.tagCols[i].name == name {
			st.tagCols[i].numeric = st.tagCols[i].numeric && err == nil
			return
		}
	}
	if len(st.tagCols) < 1000 {
		st.tagCols = append(st.tagCols, tagCol{name: name, numeric: err == nil, first: v})
	}
}

// checkSomeScore makes a study whose gradings hold no value of any
// instrument (no rubric score, checklist verdict, rank, pairwise judgment or
// criterion grade) a problem: every number of its report would be
// undefined. The problem names the columns that were read as grading tags
// and the study.toml lines that would make them scores: a rubric attribute
// written nearly like a column, else the column as a rubric attribute (when
// its values are numbers).
func (st *state) checkSomeScore() {
	if st.nGradings == 0 || st.nScored > 0 || st.nPairs > 0 || st.nCritGrades > 0 || st.ps.inGrades > 0 || st.dropProblem {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "a value of some instrument in the grading sheets (rubric %s on %v–%v, checklist items C1…Cn, rank, pairwise winner, or criterion grades): none of the %d gradings has one, so every number of the report would be undefined",
		strings.Join(st.cfg.Rubric.Attributes, ", "), st.cfg.Rubric.Min, st.cfg.Rubric.Max, st.nGradings)
	if len(st.cfg.Rubric.Attributes) == 0 {
		b.Reset()
		fmt.Fprintf(&b, "a value of some instrument in the grading sheets (checklist items C1…Cn, rank, pairwise winner, or criterion grades; the study declares no rubric): none of the %d gradings has one, so every number of the report would be undefined", st.nGradings)
	}
	if len(st.tagCols) == 0 {
		st.ps.add(Problem{Loc: tabular.Loc{File: "grades/", Offset: -1}, Expected: b.String()})
		return
	}
	names := make([]string, len(st.tagCols))
	var numeric []string
	for i, c := range st.tagCols {
		names[i] = c.name
		if c.numeric {
			numeric = append(numeric, c.name)
		}
	}
	fmt.Fprintf(&b, "; these columns were read as grading tags: %s", strings.Join(names, ", "))
	var fixes []string
	used := map[string]bool{}
	for _, a := range st.cfg.Rubric.Attributes {
		if c, ok := suggest.Closest(a, names); ok && !used[c] {
			used[c] = true
			fixes = append(fixes, fmt.Sprintf("did you mean the rubric attribute %q? add %s = %s under [columns]", a, strconv.Quote(c), strconv.Quote(a)))
		}
	}
	var attrs []string
	for _, n := range numeric {
		if !used[n] {
			attrs = append(attrs, strconv.Quote(n))
		}
	}
	if len(attrs) > 0 {
		fixes = append(fixes, fmt.Sprintf("to score with %s, add `attributes = [%s]` under [rubric] (with min and max of its scale)", "the column"+plural(len(attrs)), strings.Join(attrs, ", ")))
	}
	if len(fixes) > 0 {
		b.WriteString("; in study.toml: " + strings.Join(fixes, "; "))
	}
	st.ps.add(Problem{Loc: tabular.Loc{File: "grades/", Offset: -1}, Expected: b.String()})
}
