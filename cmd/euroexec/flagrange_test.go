package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/euroexec/euroexec/sample"
)

// Every numeric flag out of its documented range is a usage error (exit
// status 2) naming the flag, the value and the range, found before any
// work: nothing is written.
func TestFlagRanges(t *testing.T) {
	tests := []struct {
		cmd, flag, value string
		want             string // in the message
	}{
		{"compare", "bootstrap", "1000000000", "--bootstrap 1000000000: expected 100 to 100,000"},
		{"compare", "bootstrap", "0", "--bootstrap 0: expected 100 to 100,000"},
		{"compare", "bootstrap", "-1", "--bootstrap -1: expected 100 to 100,000"},
		{"compare", "bootstrap", "99", "--bootstrap 99: expected 100 to 100,000"},
		{"compare", "bootstrap", "100001", "--bootstrap 100001: expected 100 to 100,000"},
		{"compare", "bootstrap", "99999999999999999999", "invalid argument"},
		{"compare", "seed", "-1", "--seed -1: expected 0 to 9,223,372,036,854,775,807"},
		{"compare", "seed", "-5", "--seed -5: expected 0 to 9,223,372,036,854,775,807"},
		{"sample", "response-chars", "2000000000", "--response-chars 2000000000: expected 100 to 100,000"},
		{"sample", "response-chars", "99", "--response-chars 99: expected 100 to 100,000"},
		{"sample", "response-chars", "-100", "--response-chars -100: expected 100 to 100,000"},
		{"sample", "questions", "0", "--questions 0: expected 1 to 1,000,000"},
		{"sample", "questions", "-3", "--questions -3: expected 1 to 1,000,000"},
		{"sample", "questions", "1000001", "--questions 1000001: expected 1 to 1,000,000"},
		{"sample", "models", "1", "--models 1: expected 2 to 60"},
		{"sample", "models", "61", "--models 61: expected 2 to 60"},
		{"sample", "evaluators", "2", "--evaluators 2: expected 0 (judge-only) or 3 to 1,000"},
		{"sample", "evaluators", "1", "--evaluators 1: expected 0 (judge-only) or 3 to 1,000"},
		{"sample", "evaluators", "-1", "--evaluators -1: expected 0 (judge-only) or 3 to 1,000"},
		{"sample", "evaluators", "1001", "--evaluators 1001: expected 0 (judge-only) or 3 to 1,000"},
		{"sample", "judges", "-1", "--judges -1: expected 0 to 20"},
		{"sample", "judges", "21", "--judges 21: expected 0 to 20"},
		{"sample", "reference-share", "NaN", "--reference-share NaN: expected a number from 0 to 1"},
		{"sample", "reference-share", "-0.1", "--reference-share -0.1: expected a number from 0 to 1"},
		{"sample", "reference-share", "1.5", "--reference-share 1.5: expected a number from 0 to 1"},
		{"sample", "reference-share", "+Inf", "--reference-share +Inf: expected a number from 0 to 1"},
		{"sample", "seed", "-1", "invalid argument"},
		// 1,000,000 × 6 (the default models) × 1,700 = 10,200,000,000 > 10,000,000,000
		{"sample", "questions=1000000 --response-chars", "1700", "--questions 1000000 × --models 6 × --response-chars 1700: 10,200,000,000 characters of responses; expected at most 10,000,000,000"},
		{"plan", "alpha", "0", "--alpha 0: expected a number from 1e-06 to 0.2"},
		{"plan", "alpha", "NaN", "--alpha NaN: expected a number from 1e-06 to 0.2"},
		{"plan", "alpha", "-0.05", "--alpha -0.05: expected a number from 1e-06 to 0.2"},
		{"plan", "alpha", "0.5", "--alpha 0.5: expected a number from 1e-06 to 0.2"},
		{"plan", "power", "1", "--power 1: expected a number from 0.5 to 0.9999"},
		{"plan", "power", "0.1", "--power 0.1: expected a number from 0.5 to 0.9999"},
		{"plan", "power", "NaN", "--power NaN: expected a number from 0.5 to 0.9999"},
		{"plan", "power", "-Inf", "--power -Inf: expected a number from 0.5 to 0.9999"},
		{"plan", "graders", "0", "--graders 0: expected 1 to 100"},
		{"plan", "graders", "1,2,-3", "--graders -3: expected 1 to 100"},
		{"plan", "graders", "1,101", "--graders 101: expected 1 to 100"},
		{"plan", "graders", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21", "--graders: 21 values: expected 1 to 20"},
	}
	for _, tt := range tests {
		t.Run(tt.cmd+"/"+tt.flag+"="+tt.value, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "out")
			var args []string
			switch tt.cmd {
			case "compare":
				// runs that do not exist: the range check comes first
				args = []string{"compare", filepath.Join(dir, "a"), filepath.Join(dir, "b"), "-o", out}
			case "sample":
				args = []string{"sample", "-o", out}
			case "plan":
				args = []string{"plan", filepath.Join(dir, "study"), "-o", out}
			}
			args = append(args, strings.Fields("--"+tt.flag+"="+tt.value)...) // a flag may be "a=1 --b", for two flags
			checkUsageError(t, args, tt.want, dir)
		})
	}
}

// checkUsageError runs args and checks exit status 2, a message holding
// want, and that dir (the test's folder) is still empty.
func checkUsageError(t *testing.T, args []string, want, dir string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	ctx := context.Background()
	err := run(ctx, &stdout, &stderr, args)
	if code := exitCode(ctx, err); code != exitUsage {
		t.Errorf("%v: exit status %d (err %v), want %d", args, code, err, exitUsage)
	}
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("%v: err = %v, want it to contain %q", args, err, want)
	}
	entries, rerr := os.ReadDir(dir)
	if rerr != nil {
		t.Fatal(rerr)
	}
	for _, e := range entries {
		t.Errorf("%v: %s was written", args, e.Name())
	}
	if stdout.Len() != 0 {
		t.Errorf("%v: wrote to standard output: %q", args, stdout.String())
	}
}

// The ranges' edges are accepted: the checks do not refuse a value the
// help says is fine.
func TestFlagRangeEdges(t *testing.T) {
	tests := []struct {
		name string
		err  error
	}{
		{"bootstrap 100", rangeBootstrap.check(100)},
		{"bootstrap 100000", rangeBootstrap.check(100_000)},
		{"questions 1", rangeQuestions.check(1)},
		{"questions 1000000", rangeQuestions.check(1_000_000)},
		{"evaluators 0", checkEvaluators(0)},
		{"evaluators 3", checkEvaluators(3)},
		{"evaluators 1000", checkEvaluators(1000)},
		{"reference-share 0", rangeRefShare.check(0)},
		{"reference-share 1", rangeRefShare.check(1)},
		{"alpha 0.2", rangeAlpha.check(0.2)},
		{"power 0.9999", rangePower.check(0.9999)},
		{"compare seed 0", rangeCompareSeed.check(0)},
		{"sample defaults", checkSampleFlags(sample.DefaultOptions())},
		{"1,000,000 questions × 6 models × 1,666 characters", checkSampleFlags(func() sample.Options {
			o := sample.DefaultOptions()
			o.Questions, o.Models, o.ResponseChars = 1_000_000, 6, 1666 // 9,996,000,000 characters
			return o
		}())},
	}
	for _, tt := range tests {
		if tt.err != nil {
			t.Errorf("%s: %v, want accepted", tt.name, tt.err)
		}
	}
}

// Every numeric flag of every command has a case in TestFlagRanges: a new
// numeric flag without a range check fails here.
func TestEveryNumericFlagChecked(t *testing.T) {
	checked := map[string]bool{
		"compare --bootstrap": true, "compare --seed": true,
		"sample --questions": true, "sample --models": true, "sample --evaluators": true, "sample --judges": true,
		"sample --reference-share": true, "sample --response-chars": true,
		"sample --seed": true, // a uint64: every value it parses is valid
		"plan --alpha":  true, "plan --power": true, "plan --graders": true,
	}
	numeric := map[string]bool{"int": true, "int64": true, "int32": true, "uint": true, "uint64": true, "uint32": true,
		"float64": true, "float32": true, "intSlice": true, "int64Slice": true, "float64Slice": true, "uintSlice": true, "duration": true, "count": true}
	seen := map[string]bool{}
	for _, c := range []*cobra.Command{validateCmd(io.Discard, io.Discard), ingestCmd(io.Discard, io.Discard), runCmd(io.Discard, io.Discard),
		sampleCmd(io.Discard, io.Discard), planCmd(io.Discard, io.Discard), exportCmd(io.Discard, io.Discard), compareCmd(io.Discard, io.Discard)} {
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if !numeric[f.Value.Type()] {
				return
			}
			key := c.Name() + " --" + f.Name
			seen[key] = true
			if !checked[key] {
				t.Errorf("%s (%s) has no range check in TestFlagRanges", key, f.Value.Type())
			}
		})
	}
	for key := range checked {
		if !seen[key] {
			t.Errorf("%s is listed as checked but is not a numeric flag", key)
		}
	}
}
