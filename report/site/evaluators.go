package site

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"

	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/format"
)

// evalView is one evaluator's page: their row of the evaluators table
// (leniency) and every grading they gave, with the other human graders'
// mean rubric scores of the same response beside it (agreement, shown, not
// computed).
type evalView struct {
	Name, File string
	Human      bool
	Facts      []report.KV // the evaluators table's row, for people
	// Gradings are the evaluator's gradings on the question pages, in
	// question order, at most maxEvaluatorRows of them; Total counts all.
	Gradings []evalGrading
	Total    int
}

// maxEvaluatorRows caps the gradings listed on one evaluator page, so that
// the page stays under 1 MB at any study size (a judge of a 40,000-question
// study has 12,000 gradings on the question pages: 2.8 MB of rows). The page
// says how many are left out and where every grading is.
const maxEvaluatorRows = 2000

type evalGrading struct {
	QID, QFile, Model, Round string
	Rubric, Checklist        string
	RubricSort               string
	Solved                   bool
	Others                   string // "expert_03 3.40 · expert_07 2.80"
}

// evaluatorViews collects the evaluators from the question pages (every
// grader with a grading), in name order, with their row of the evaluators
// table.
func (b *builder) evaluatorViews() []*evalView {
	byName := map[string]*evalView{}
	used := map[string]bool{"index": true}
	get := func(name, kind string) *evalView {
		if v, ok := byName[name]; ok {
			return v
		}
		v := &evalView{Name: name, Human: kind != "judge"}
		byName[name] = v
		return v
	}
	for qi, q := range b.r.Questions {
		if q == nil {
			continue
		}
		for _, rv := range q.Responses {
			for gi, g := range rv.Gradings {
				v := get(g.Evaluator, g.Kind)
				eg := evalGrading{QID: q.ID, QFile: b.qfiles[qi], Model: b.style.name(rv.Model), Round: g.Round,
					Rubric: format.Points(g.RubricMean), RubricSort: strconv.FormatFloat(g.RubricMean, 'g', -1, 64),
					Checklist: format.Percent(g.ChecklistRate), Solved: g.Solved}
				if eg.RubricSort == "NaN" {
					eg.RubricSort = ""
				}
				for oj, o := range rv.Gradings {
					if oj == gi || o.Kind == "judge" || o.Evaluator == g.Evaluator {
						continue
					}
					if eg.Others != "" {
						eg.Others += " · "
					}
					eg.Others += o.Evaluator + " " + format.Points(o.RubricMean)
				}
				v.Total++
				if len(v.Gradings) < maxEvaluatorRows {
					v.Gradings = append(v.Gradings, eg)
				}
			}
		}
	}
	var out []*evalView
	for _, v := range byName {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	t := b.r.Table("evaluators")
	for _, v := range out {
		v.File = uniqueName(safeName(v.Name), used) + ".html"
		if t == nil {
			continue
		}
		ei := t.Index("evaluator")
		if ei < 0 {
			continue
		}
		for _, row := range t.Rows {
			if at(row, ei) != v.Name {
				continue
			}
			for i, c := range t.Columns {
				if i != ei {
					v.Facts = append(v.Facts, report.KV{Key: columnHeader(c), Value: b.colCell(at(row, i), c).Text})
				}
			}
		}
	}
	return out
}

// evaluatorJobs creates the evaluators folder and returns the jobs that
// write evaluators/index.html and one page per evaluator (none without
// evaluators); a job's error says it is an evaluator page.
func (b *builder) evaluatorJobs(dir string, evs []*evalView) ([]func() error, error) {
	if len(evs) == 0 {
		return nil, nil
	}
	d := filepath.Join(dir, "evaluators")
	if err := os.MkdirAll(d, 0o755); err != nil {
		return nil, err
	}
	wrap := func(err error) error {
		if err != nil {
			return fmt.Errorf("site: evaluators: %w", err)
		}
		return nil
	}
	jobs := []func() error{func() error {
		idx := b.base("eindex", "Evaluators", "evaluators", "../")
		idx.Evaluators = evs
		idx.Definitions = []report.KV{
			{Key: "Leniency", Value: "An evaluator's mean rubric score, checklist fulfilment and Solve Rate over their gradings; the group (lenient, critical) is from tables/evaluators.csv."},
			{Key: "Agreement", Value: "Mean |Δ| from the others: the mean distance, in rubric points, between the evaluator's rubric mean and the mean of the other human graders of the same response (0 = always agrees); Spearman ρ with the others: whether the evaluator orders the responses as the others do (1 = the same order; from 3 shared responses); Solve agreement: the share of pairs with another grader of the same response that agree on solved. Each grading is shown beside the other graders' scores; Krippendorff's α over all graders is on the Consistency page."},
		}
		return wrap(b.render(filepath.Join(d, "index.html"), idx))
	}}
	for _, v := range evs {
		jobs = append(jobs, func() error {
			p := b.base("evaluator", "Evaluator "+v.Name, "evaluators", "../")
			p.Evaluator = v
			if v.Total < 10 {
				p.Warnings = []string{"Only " + strconv.Itoa(v.Total) + " gradings: this evaluator's leniency rests on few units."}
			}
			return wrap(b.render(filepath.Join(d, v.File), p))
		})
	}
	return jobs, nil
}

// columnHeader is the header people read for column c: its own Header when
// it has one, else the one derived from its name.
func columnHeader(c report.Column) string {
	if c.Header != "" {
		return c.Header
	}
	return format.Header(c.Name)
}
