package prbench

import (
	"context"

	"github.com/euroexec/euroexec/study"
)

// Analyze computes the PRBench analyses of a study as typed values, the
// rows of the tables prbench_scores, prbench_by_domain, prbench_by_tag,
// prbench_hard_questions, prbench_categories, criterion_agreement,
// judge_parity, prbench_length and prbench_ungraded_criteria. A study with no criteria (or a nil
// study) gives an empty Result. Analyze never panics on user input; invalid
// option values are replaced by their defaults with a warning. A cancelled
// ctx stops it between bootstrap replicates and returns ctx's error.
func Analyze(ctx context.Context, s *study.Study, opt Options) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	if s == nil || len(s.Criteria) == 0 {
		return Result{}, nil
	}
	opt.ctx = ctx
	var res Result
	p := &prep{s: s, opt: opt, res: &res}
	p.checkOptions()
	if !p.index() {
		p.note("prbench_scores", "no criterion belongs to a question of the study; the PRBench tables are left out")
		return res, nil
	}
	res.Populations = append([]string(nil), p.pops...)
	res.Models = append([]string(nil), p.models...)
	if len(p.units) == 0 {
		p.note("prbench_scores", "no criterion grades; the PRBench score and agreement tables are left out")
	} else {
		p.analyzeUnits()
	}
	res.Ungraded = p.ungraded()
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	return res, nil
}

// analyzeUnits computes everything that needs criterion grades.
func (p *prep) analyzeUnits() {
	res := p.res
	res.Hard, res.HardSource = p.hardSubset()
	res.Scores, res.HasHard = p.scoreRows()
	res.ByDomain = p.domainRows()
	if rows, ok := p.tagRows(); ok {
		res.ByTag = rows
	} else {
		p.note("prbench_by_tag", "no question has a tag (an extra column of the questions file); the per-tag table is left out")
	}
	if len(res.Hard) == 0 {
		p.note("prbench_hard_questions", "no question has a defined difficulty score; the Hard subset is empty")
	}
	res.ByCategory = p.categoryRows()
	res.Agreement, res.Parity = p.agreementRows()
	res.Length = p.lengthRows()
}

// ungraded lists the criteria nobody graded.
func (p *prep) ungraded() []UngradedCriterion {
	var out []UngradedCriterion
	for _, q := range p.qs {
		for _, c := range q.crit {
			if !c.graded {
				out = append(out, UngradedCriterion{QuestionID: q.id, CriterionID: c.id, Weight: c.w, Category: c.catStr})
			}
		}
	}
	if len(out) > 0 {
		p.warnf("prbench: %d criteria were graded by nobody (listed in prbench_ungraded_criteria)", len(out))
	}
	return out
}
