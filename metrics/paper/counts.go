package paper

import (
	"slices"

	"github.com/euroexec/euroexec/metrics/scores"
	"github.com/euroexec/euroexec/study"
)

// GradingCounts are a study's gradings and graders counted with the
// definitions of report.Overview (Gradings, HumanGradings, JudgeGradings,
// HumanGraders, Judges).
type GradingCounts struct {
	// HumanGradings and JudgeGradings count the gradings of a listed
	// question, model and evaluator, one per (round, question, model,
	// evaluator): a judge's runs on one response are one grading. The human
	// label's gradings count.
	HumanGradings, JudgeGradings int
	// Humans and Judges are the evaluators with at least one counted
	// grading, sorted.
	Humans, Judges []string
}

// CountGradings counts the gradings and graders of s as report.Overview
// defines them. The analysis's overview and the comparison's (package
// compare) both count with it.
func CountGradings(s *study.Study) GradingCounts {
	var c GradingCounts
	if s == nil {
		return c
	}
	qs := make(map[string]bool, len(s.Questions))
	for _, q := range s.Questions {
		qs[q.ID] = true
	}
	ms := make(map[string]bool, len(s.Models))
	for _, m := range s.Models {
		ms[m.Name] = true
	}
	judge := make(map[string]bool, len(s.Evaluators))
	for _, e := range s.Evaluators {
		judge[e.ID] = e.Kind == study.Judge
	}
	used := map[string]bool{}
	gs, _ := scores.Sorted(s.Gradings)
	for i := range gs {
		g := &gs[i]
		if i > 0 && sameGrading(g, &gs[i-1]) {
			continue // another run of the same judge grading
		}
		j, listed := judge[g.Evaluator]
		if !listed || !qs[g.QuestionID] || !ms[g.Model] {
			continue
		}
		if j {
			c.JudgeGradings++
		} else {
			c.HumanGradings++
		}
		if !used[g.Evaluator] {
			used[g.Evaluator] = true
			if j {
				c.Judges = append(c.Judges, g.Evaluator)
			} else {
				c.Humans = append(c.Humans, g.Evaluator)
			}
		}
	}
	slices.Sort(c.Humans)
	slices.Sort(c.Judges)
	return c
}

// sameGrading reports whether a and b are runs of one grading, as
// scores.Scorer.Collapse groups them.
func sameGrading(a, b *study.Grading) bool {
	return a.Round == b.Round && a.QuestionID == b.QuestionID && a.Model == b.Model && a.Evaluator == b.Evaluator
}
