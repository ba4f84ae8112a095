package study_test

import (
	"fmt"
	"strings"

	"github.com/euroexec/euroexec/study"
)

// Three graders' rubric means over six attributes, summed as exact
// fractions: the mean is 22/9 whatever the order of the graders.
func ExampleRatSum() {
	var s study.RatSum
	for _, sum := range []int64{14, 15, 15} {
		s.Add(study.NewRat(sum, 6), float64(sum)/6)
	}
	fmt.Println(s.Rat(), s.Mean())
	// Output: {22 9} 2.4444444444444446
}

// A threshold written as 0.60 compares exactly: 3 of 5 checklist items
// meet it.
func ExampleRatOf() {
	thr, _ := study.RatOf(0.60)
	fmt.Println(thr, study.NewRat(3, 5).Cmp(thr) >= 0)
	// Output: {3 5} true
}

// PromptSnippet puts a prompt on one line for the question index and cuts
// it after SnippetChars code points; TextLen measures it as
// Question.PromptChars and PromptWords.
func ExamplePromptSnippet() {
	prompt := "What is \"EBITDA\"?\n\tAnswer in  two lines. " + strings.Repeat("More context. ", 12)
	fmt.Println(study.PromptSnippet(prompt))
	fmt.Println(study.TextLen(prompt))
	// Output:
	// What is "EBITDA"? Answer in two lines. More context. More context. More context. More context. More context. More context. More context. More context. More cont … [46 more characters]
	// 209 31
}

// Five gate cells of two questions, in any order, tallied per checklist
// item: q1's item 1 passed in both runs, its item 2 in one of two.
func ExampleTallyGate() {
	runs := []study.GateRun{
		{QuestionID: "q2", Run: "1", Item: 1, Passed: false},
		{QuestionID: "q1", Run: "2", Item: 2, Passed: true},
		{QuestionID: "q1", Run: "1", Item: 1, Passed: true},
		{QuestionID: "q1", Run: "1", Item: 2, Passed: false},
		{QuestionID: "q1", Run: "2", Item: 1, Passed: true},
	}
	for _, g := range study.TallyGate(runs) {
		fmt.Printf("%s item %d: %d of %d\n", g.QuestionID, g.Item, g.Passed, g.Runs)
	}
	// Output:
	// q1 item 1: 2 of 2
	// q1 item 2: 1 of 2
	// q2 item 1: 0 of 1
}
