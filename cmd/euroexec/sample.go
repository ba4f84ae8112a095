package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/euroexec/euroexec/data"
)

func sampleCmd(stdout, stderr io.Writer) *cobra.Command {
	opt := data.DefaultOptions()
	var dir string
	c := &cobra.Command{
		Use:   "sample -o DIR",
		Short: "Write a synthetic study in the study format",
		Long: "sample writes a synthetic study drawn from a latent model (model quality, evaluator leniency and\n" +
			"noise, question difficulty, over-crisp judges). It is deterministic by --seed and streams, so\n" +
			"large studies (--questions 40000) are written in bounded memory.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if dir == "" {
				return fmt.Errorf("sample: -o DIR is required")
			}
			sum, err := data.Write(dir, opt)
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "wrote a synthetic study to %s: %+v\n", dir, sum)
			return nil
		},
	}
	f := c.Flags()
	f.StringVarP(&dir, "out", "o", "", "folder to write the study into (required)")
	f.IntVar(&opt.Questions, "questions", opt.Questions, "number of questions")
	f.IntVar(&opt.Models, "models", opt.Models, "number of models")
	f.IntVar(&opt.Evaluators, "evaluators", opt.Evaluators, "size of the human grader pool")
	f.IntVar(&opt.Judges, "judges", opt.Judges, "number of LLM judges")
	f.Float64Var(&opt.ReferenceShare, "reference-share", opt.ReferenceShare, "share of questions with an expert answer")
	f.IntVar(&opt.ResponseChars, "response-chars", opt.ResponseChars, "typical response length in characters")
	f.Uint64Var(&opt.Seed, "seed", opt.Seed, "random seed")
	f.BoolVar(&opt.Criteria, "criteria", opt.Criteria, "also write PRBench-style weighted criteria and criterion grades")
	return c
}
