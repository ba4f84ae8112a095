package prbench

import (
	"context"
	"math"
	"strconv"

	"github.com/euroexec/euroexec/metrics/analysis"
	"github.com/euroexec/euroexec/report"
)

// Result is what Analyze produced: the tables and figures of the PRBench
// section, the notes for tables/notes.csv (tables left out and why) and the
// non-fatal problems found.
type Result = report.Part

// Analyze computes the PRBench tables and figures of a study:
// prbench_scores, prbench_by_domain, prbench_by_tag, prbench_hard_questions,
// prbench_categories, criterion_agreement, judge_parity, prbench_length and
// prbench_ungraded_criteria (each only when it has rows), all in
// report.SectionPRBench. A study with no criteria (or a nil study) gives an
// empty Result. Analyze never panics on user input; invalid option values
// are replaced by their defaults with a warning. A cancelled ctx stops it
// between bootstrap replicates and returns ctx's error.
func Analyze(ctx context.Context, s *analysis.Study, opt Options) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	if s == nil || len(s.Criteria) == 0 {
		return Result{}, nil
	}
	opt.ctx = ctx
	var res Result
	p := &prep{s: s, opt: opt, res: &res, figIDs: map[string]bool{}}
	p.checkOptions()
	if !p.index() {
		p.note("prbench_scores", "no criterion belongs to a question of the study; the PRBench tables are left out")
		return res, nil
	}
	add := func(t *report.Table) {
		if t != nil && len(t.Rows) > 0 {
			res.Tables = append(res.Tables, t)
		}
	}
	if len(p.units) == 0 {
		p.note("prbench_scores", "no criterion grades; the PRBench score and agreement tables are left out")
	} else {
		p.analyzeUnits(add)
	}
	add(p.ungradedTable())
	p.noteNaN()
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	return res, nil
}

// analyzeUnits builds every table that needs criterion grades.
func (p *prep) analyzeUnits(add func(*report.Table)) {
	res := p.res
	hard := p.hardSubset()
	scores, blocks := p.scoresTable()
	add(scores)
	add(p.domainTable())
	if tt := p.tagTable(); tt != nil {
		add(tt)
	} else {
		p.note("prbench_by_tag", "no question has a tag (an extra column of the questions file); the per-tag table is left out")
	}
	add(hard)
	if len(hard.Rows) == 0 {
		p.note("prbench_hard_questions", "no question has a defined difficulty score; the Hard subset is empty")
	}
	for pop := range p.pops {
		if f := p.scoreFigure(pop, blocks); f != nil {
			res.Figures = append(res.Figures, f)
		}
	}
	ct, cf := p.categoryTable()
	add(ct)
	res.Figures = append(res.Figures, cf...)
	at, af, pt := p.agreementTables()
	add(at)
	add(pt)
	if af != nil && len(af.Categories) > 0 {
		res.Figures = append(res.Figures, af)
	}
	lt, lf := p.lengthTable()
	add(lt)
	if lf != nil && len(lf.Series) > 0 {
		res.Figures = append(res.Figures, lf)
	}
}

// scoreFigure is the bar chart of the clipped mean per model, all and hard,
// with the 95 % intervals as error bars.
func (p *prep) scoreFigure(pop int, blocks map[[2]int][]modelRow) *report.Figure {
	all := blocks[[2]int{0, pop}]
	if len(all) == 0 {
		return nil
	}
	f := &report.Figure{ID: p.figID("prbench_clipped_" + slug(p.pops[pop])), Section: report.SectionPRBench,
		Title: "Clipped score per model (" + p.pops[pop] + ")", Kind: report.Bar,
		XName: "model", YName: "clipped score", Percent: true, Table: "prbench_scores"}
	pos := map[int]int{}
	for i, r := range all {
		pos[r.model] = i
		f.Categories = append(f.Categories, p.models[r.model])
	}
	for si, name := range []string{"all", "hard"} {
		rows, ok := blocks[[2]int{si, pop}]
		if !ok {
			continue
		}
		s := report.Series{Name: name, Values: nanSlice(len(all)), Lo: nanSlice(len(all)), Hi: nanSlice(len(all))}
		for _, r := range rows {
			if i, ok := pos[r.model]; ok {
				s.Values[i], s.Lo[i], s.Hi[i] = r.mean[0], r.lo[0], r.hi[0]
			}
		}
		f.Series = append(f.Series, s)
	}
	return f
}

func nanSlice(n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = math.NaN()
	}
	return s
}

// figID makes a figure id unique within the result.
func (p *prep) figID(base string) string {
	id := base
	for i := 2; p.figIDs[id]; i++ {
		id = base + "_" + strconv.Itoa(i)
	}
	p.figIDs[id] = true
	return id
}

// ungradedTable lists the criteria nobody graded.
func (p *prep) ungradedTable() *report.Table {
	t := &report.Table{Name: "prbench_ungraded_criteria", Title: "Criteria nobody graded", Section: report.SectionPRBench,
		Doc: "Criteria without a single grade from any grader; they count in no score.",
		Columns: []report.Column{
			col("question_id", report.Text, "question id"),
			col("criterion_id", report.Text, "criterion id"),
			col("weight", report.Int, "criterion weight"),
			col("category", report.Text, "criterion category"),
		}}
	for _, q := range p.qs {
		for _, c := range q.crit {
			if !c.graded {
				addRow(t, q.id, c.id, c.w, c.catStr)
			}
		}
	}
	if len(t.Rows) > 0 {
		p.warnf("prbench: %d criteria were graded by nobody (listed in prbench_ungraded_criteria)", len(t.Rows))
	}
	return t
}

// noteNaN adds one note per table with undefined cells.
func (p *prep) noteNaN() {
	for _, t := range p.res.Tables {
		n := 0
		for _, r := range t.Rows {
			for _, v := range r {
				if f, ok := v.(float64); ok && math.IsNaN(f) {
					n++
				}
			}
		}
		if n > 0 {
			p.note(t.Name, "%d cells are undefined and left empty (an SD of one value, an interval without bootstrap replicates or with no defined replicate, κ with both graders constant, a correlation with a constant side, or a clipped score with no positive criterion graded)", n)
		}
	}
}
