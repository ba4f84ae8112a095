package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/euroexec/euroexec/outsafe"
	"github.com/euroexec/euroexec/sample"
)

func sampleCmd(stdout, stderr io.Writer) *cobra.Command {
	opt := sample.DefaultOptions()
	var dir string
	var force, judgeOnly bool
	c := &cobra.Command{
		Use:   "sample -o DIR",
		Short: "Write a synthetic study in the study format",
		Long: "sample writes a synthetic study drawn from a latent model (model quality, evaluator leniency and\n" +
			"noise, question difficulty, over-crisp judges). It is deterministic by --seed and streams, so\n" +
			"large studies (--questions 40000) are written in bounded memory.\n" +
			"The study is written to a temporary folder beside DIR and moved into place when complete. DIR\n" +
			"is replaced only when it does not exist, is empty or holds a study written by sample (marked by\n" +
			"its " + outsafe.SampleMarker + " file), unless --force; nothing of a previous study is left behind.\n" +
			outRule + "\n" +
			"--judge-only writes a study graded by LLM judges alone (no human graders, no reference answers);\n" +
			"with --single-run every judge grades each response once, so a study has questions × models ×\n" +
			"judges gradings, e.g. --questions 200000 --judge-only --judges 1 --single-run --response-chars 100\n" +
			"for 1.2 M gradings of short answers.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkSampleFlags(opt); err != nil {
				return err
			}
			if dir == "" {
				return &usageError{fmt.Errorf("sample: -o DIR is required")}
			}
			if judgeOnly {
				fl := cmd.Flags()
				if fl.Changed("evaluators") && opt.Evaluators != 0 {
					return &usageError{fmt.Errorf("sample: --judge-only with --evaluators %d: a judge-only study has no human evaluators; drop one of the two", opt.Evaluators)}
				}
				if fl.Changed("reference-share") && opt.ReferenceShare != 0 {
					return &usageError{fmt.Errorf("sample: --judge-only with --reference-share %v: reference answers are graded by human evaluators; drop one of the two", opt.ReferenceShare)}
				}
				opt.Evaluators, opt.ReferenceShare = 0, 0
			}
			out, err := filepath.Abs(dir)
			if err != nil {
				return err
			}
			if err := outsafe.CheckFolder(dir, outsafe.SampleMarker, force); err != nil {
				return err
			}
			if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
				return fmt.Errorf("sample: create %s: %w", filepath.Dir(out), err)
			}
			unlock, err := outsafe.Lock(out)
			if err != nil {
				return err
			}
			defer unlock()
			for _, n := range outsafe.CleanStale(filepath.Dir(out), outsafe.SampleMarker) {
				fmt.Fprintln(stderr, "note:", n)
			}
			tmp, err := outsafe.TempDir(out, outsafe.SampleMarker, outsafe.Marker(version, "(synthetic)", time.Now()))
			if err != nil {
				return err
			}
			defer os.RemoveAll(tmp) // a no-op once moved into place
			sum, err := sample.WriteContext(cmd.Context(), tmp, opt)
			if err != nil {
				return err
			}
			if err := cmd.Context().Err(); err != nil {
				return fmt.Errorf("sample: %w", err)
			}
			if err := outsafe.Replace(tmp, out); err != nil {
				return fmt.Errorf("sample: %w", err)
			}
			fmt.Fprintf(stdout, "wrote a synthetic study to %s: %+v\n", dir, sum)
			return nil
		},
	}
	f := c.Flags()
	f.StringVarP(&dir, "out", "o", "", "folder to write the study into (required)")
	f.BoolVar(&force, "force", false, "replace DIR even when it holds files sample did not write")
	f.IntVar(&opt.Questions, "questions", opt.Questions, "number of questions, "+rangeQuestions.String())
	f.IntVar(&opt.Models, "models", opt.Models, "number of models, "+rangeModels.String())
	f.IntVar(&opt.Evaluators, "evaluators", opt.Evaluators, "size of the human grader pool: 0 (judge-only, see --judge-only) or 3 to "+thousands(rangeEvaluators.max))
	f.BoolVar(&judgeOnly, "judge-only", false, "no human graders and no reference answers: LLM judges only (same as --evaluators 0 --reference-share 0)")
	f.IntVar(&opt.Judges, "judges", opt.Judges, "number of LLM judges, "+rangeJudges.String())
	f.BoolVar(&opt.SingleRun, "single-run", opt.SingleRun, "run every judge once (by default the first judge is run three times, with a run column)")
	f.Float64Var(&opt.ReferenceShare, "reference-share", opt.ReferenceShare, "share of questions with an expert answer, "+rangeRefShare.String())
	f.IntVar(&opt.ResponseChars, "response-chars", opt.ResponseChars, "typical response length in characters, "+rangeRespChars.String()+
		" (and questions × models × response-chars at most "+thousands(maxResponseText)+")")
	f.Uint64Var(&opt.Seed, "seed", opt.Seed, "random seed (any integer from 0 to 18,446,744,073,709,551,615)")
	f.BoolVar(&opt.Criteria, "criteria", opt.Criteria, "also write PRBench-style weighted criteria and criterion grades")
	return c
}

// checkSampleFlags checks the numeric flags of sample against their
// documented ranges (flagrange.go).
func checkSampleFlags(opt sample.Options) error {
	for _, c := range []struct {
		r intRange
		v int
	}{{rangeQuestions, opt.Questions}, {rangeModels, opt.Models}, {rangeJudges, opt.Judges}, {rangeRespChars, opt.ResponseChars}} {
		if err := c.r.check(int64(c.v)); err != nil {
			return err
		}
	}
	if err := checkEvaluators(opt.Evaluators); err != nil {
		return err
	}
	if n := int64(opt.Questions) * int64(opt.Models) * int64(opt.ResponseChars); n > maxResponseText {
		return &usageError{fmt.Errorf("--questions %d × --models %d × --response-chars %d: %s characters of responses; expected at most %s: lower one of them",
			opt.Questions, opt.Models, opt.ResponseChars, thousands(n), thousands(maxResponseText))}
	}
	return rangeRefShare.check(opt.ReferenceShare)
}
