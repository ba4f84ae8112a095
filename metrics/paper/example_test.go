package paper_test

import (
	"context"
	"fmt"
	"math"

	"github.com/euroexec/euroexec/metrics/paper"
	"github.com/euroexec/euroexec/report/tables"
	"github.com/euroexec/euroexec/study"
)

// Two questions, two models, one human evaluator with a two-attribute
// rubric, a checklist and ranks.
func Example() {
	s := &study.Study{
		Title: "demo", HumanLabel: "Human Expert", MainRound: "main",
		Attributes: []string{"Domain", "Reasoning"}, ScaleMin: 1, ScaleMax: 5,
		Questions: []study.Question{
			{ID: "q1", Domain: "Finance", GateScore: math.NaN(), Checklist: []string{"a", "b"}},
			{ID: "q2", Domain: "Finance", GateScore: math.NaN(), Checklist: []string{"a", "b"}},
		},
		Models:     []study.Model{{Name: "A"}, {Name: "B"}},
		Evaluators: []study.Evaluator{{ID: "ann", Kind: study.Human}},
	}
	grade := func(q, m string, r1, r2 float64, v1, v2 study.Verdict, rank int) study.Grading {
		return study.Grading{Evaluator: "ann", Kind: study.Human, Round: "main", QuestionID: q, Model: m,
			Rubric: []float64{r1, r2}, Verdicts: []study.Verdict{v1, v2}, Rank: rank}
	}
	s.Gradings = []study.Grading{
		grade("q1", "A", 4, 3, study.Hit, study.Partial, 1),  // mean 3.5, checklist 0.75: solved
		grade("q1", "B", 2, 3, study.Hit, study.Hit, 2),      // mean 2.5: not solved
		grade("q2", "A", 3, 3, study.Miss, study.Partial, 2), // checklist 0.25: not solved
		grade("q2", "B", 5, 4, study.Hit, study.Hit, 1),      // solved
	}
	opt := paper.DefaultOptions()
	opt.Bootstrap = 0 // no intervals in this example
	res, err := paper.AnalyzeResult(context.Background(), s, opt)
	if err != nil {
		fmt.Println(err)
		return
	}
	rep := tables.Paper(res) // the report's tables, as a run writes them
	for _, row := range rep.Table("summary").Rows {
		fmt.Printf("%s %s %s: solve %.2f, rank %.1f, rubric %.2f, checklist %.3f\n",
			row[0], row[1], row[2], row[5], row[8], row[14], row[17])
	}
	// Output:
	// all humans A: solve 0.50, rank 1.5, rubric 3.25, checklist 0.500
	// all humans B: solve 0.50, rank 1.5, rubric 3.50, checklist 1.000
}

// AnalyzeResult gives the summary rows as typed values: no column
// positions, no type assertions. Two human evaluators grade one question;
// model A's rubric means are 4 and 3 (mean 3.5), B's 5 and 2 (also 3.5:
// an exact tie, whatever the order of the graders).
func ExampleAnalyzeResult() {
	s := &study.Study{HumanLabel: "Human Expert", MainRound: "main", Attributes: []string{"R"}, ScaleMin: 1, ScaleMax: 5,
		Questions:  []study.Question{{ID: "q1", GateScore: math.NaN()}},
		Models:     []study.Model{{Name: "A"}, {Name: "B"}},
		Evaluators: []study.Evaluator{{ID: "ann", Kind: study.Human}, {ID: "bob", Kind: study.Human}}}
	for _, g := range []struct {
		e, m string
		x    float64
	}{{"ann", "A", 4}, {"bob", "A", 3}, {"ann", "B", 5}, {"bob", "B", 2}} {
		s.Gradings = append(s.Gradings, study.Grading{Evaluator: g.e, Kind: study.Human, Round: "main",
			QuestionID: "q1", Model: g.m, Rubric: []float64{g.x}})
	}
	opt := paper.DefaultOptions()
	opt.Bootstrap = 0
	res, err := paper.AnalyzeResult(context.Background(), s, opt)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range res.Summary {
		fmt.Printf("%s %s %s: %d gradings, Solve Rate %.2f, rubric %.2f\n", r.Set, r.Graders, r.Model, r.Gradings, r.SolveRate, r.Rubric)
	}
	fmt.Println("tie:", res.Summary[0].Rubric == res.Summary[1].Rubric)
	// Output:
	// all humans A: 2 gradings, Solve Rate 1.00, rubric 3.50
	// all humans B: 2 gradings, Solve Rate 0.50, rubric 3.50
	// tie: true
}

// A human grades two responses; a judge grades one of them in two runs,
// which count as one grading; an evaluator without a grading is no grader.
func ExampleCountGradings() {
	s := &study.Study{
		Questions:  []study.Question{{ID: "q1"}},
		Models:     []study.Model{{Name: "m1"}, {Name: "m2"}},
		Evaluators: []study.Evaluator{{ID: "ana", Kind: study.Human}, {ID: "bob", Kind: study.Human}, {ID: "gpt", Kind: study.Judge}},
		Gradings: []study.Grading{
			{Evaluator: "ana", Kind: study.Human, Round: "main", QuestionID: "q1", Model: "m1"},
			{Evaluator: "gpt", Kind: study.Judge, Round: "main", QuestionID: "q1", Model: "m1", Run: "1"},
			{Evaluator: "gpt", Kind: study.Judge, Round: "main", QuestionID: "q1", Model: "m1", Run: "2"},
			{Evaluator: "ana", Kind: study.Human, Round: "main", QuestionID: "q1", Model: "m2"},
		},
	}
	c := paper.CountGradings(s)
	fmt.Println(c.HumanGradings, c.JudgeGradings, c.Humans, c.Judges)
	// Output: 2 1 [ana] [gpt]
}

// A study of four ungraded questions with at most two full question pages:
// the response texts Analyze reads are those of the two paged questions (a
// random sample seeded by Options.Seed, as nothing is unsolved or disputed)
// and of q4, which has a reference (for the text metrics). A caller that
// reads a large study from a database can load only these texts.
func ExampleTextQuestions() {
	s := &study.Study{HumanLabel: "Human Expert", MainRound: "main"}
	for _, id := range []string{"q1", "q2", "q3", "q4"} {
		s.Questions = append(s.Questions, study.Question{ID: id, GateScore: math.NaN()})
	}
	s.References = []study.Reference{{QuestionID: "q4", ID: "r1", Text: "the expert's answer"}}
	opt := paper.DefaultOptions()
	opt.QuestionPages = 2
	ids, err := paper.TextQuestions(s, opt)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ids)
	// Output: [q1 q3 q4]
}
