package sample_test

import (
	"fmt"
	"io/fs"
	"log"
	"os"

	"github.com/euroexec/euroexec/sample"
)

// Write a small synthetic study and count what it holds.
func ExampleWrite() {
	dir, err := os.MkdirTemp("", "study")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	opt := sample.DefaultOptions()
	opt.Questions = 20
	sum, err := sample.Write(dir, opt)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(sum.Questions, "questions,", sum.Responses, "responses,", sum.SkippedResponses, "skipped")
	fmt.Println(sum.HumanGradings, "human and", sum.JudgeGradings, "judge gradings")
	fmt.Println(sum.Files[0], sum.Files[len(sum.Files)-1])
	// By hand: 20·6 responses less the skipped one; human gradings: 18 questions
	// × 2 graders + 2 questions (8th, 18th) × 3, times 6 models = 252, plus the
	// reference round on the 10th and 20th questions, 2 graders × 7 = 28;
	// judges: 20·6 × (3 runs + 1) = 480.
	// Output:
	// 20 questions, 119 responses, 1 skipped
	// 280 human and 480 judge gradings
	// blinding.csv study.toml
}

// Walk yields the ground truth: here the human gradings of one question.
func ExampleWalk() {
	opt := sample.DefaultOptions()
	opt.Questions = 1
	err := sample.Walk(opt, func(r sample.Record) error {
		if r.Kind == sample.KindGrading && r.EvaluatorKind == "human" && r.Rank == 1 {
			fmt.Println(r.Evaluator, "ranked", r.Model, "first")
		}
		return nil
	})
	if err != nil {
		log.Fatal(err)
	}
	// Output:
	// expert_04 ranked atlas-5 first
	// expert_12 ranked atlas-5 first
}

// The bundled sample is an fs.FS rooted at the study folder.
func ExampleSample() {
	b, err := fs.ReadFile(sample.Sample(), "study.toml")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(b) > 0)
	// Output: true
}
