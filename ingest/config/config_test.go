package config

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name, in string
		check    func(Config) bool
		err      string
	}{
		{"empty gives defaults", "", func(c Config) bool {
			return c.Title == "EuroExec" && c.Rubric.Max == 5 && len(c.Rubric.Attributes) == 5 && c.Stemmer() &&
				c.Analysis.Bootstrap == 2000 && c.Solve.ChecklistThreshold == 0.60 && c.Responses.IDTemplate == "{question_id}::{model}"
		}, ""},
		{"override", "title = \"X\"\n[rubric]\nattributes = [\"a\", \"b\"]\nmax = 7\n[text]\nstemmer = false\n[columns]\n\"Dom.\" = \"Domain\"\n",
			func(c Config) bool {
				return c.Title == "X" && c.Rubric.Max == 7 && c.Rubric.Min == 1 && len(c.Rubric.Attributes) == 2 && !c.Stemmer() && c.Columns["Dom."] == "Domain"
			}, ""},
		{"no rubric", "[rubric]\nattributes = []\n", func(c Config) bool { return len(c.Rubric.Attributes) == 0 && c.Rubric.Max == 5 }, ""},
		{"unknown key", "titel = \"x\"\n", nil, `study.toml:1:1: unknown key "titel"`},
		{"unknown nested key", "[solve]\nrubric = 3\n", nil, `unknown key "solve.rubric"`},
		{"wrong type", "[analysis]\nseed = \"one\"\n", nil, "study.toml:2"},
		{"bad scale", "[rubric]\nmin = 5\nmax = 5\n", nil, "rubric.max = 5: expected above rubric.min (5)"},
		{"bad partial credit", "[solve]\npartial_credit = 0.3\n", nil, "solve.partial_credit = 0.3: expected 0, 0.5 or 1"},
		{"bins must increase", "[difficulty]\nbins = [{name = \"a\", max = 0.5}, {name = \"b\", max = 0.4}]\n", nil, "difficulty.bins[1].max = 0.4: expected above the previous bin's max (0.5)"},
		{"judges.parse", "[judges.parse]\nrubric = { Domain = \"/scores/Domain\" }\nchecklist = \"/items/{index}\"\nmax_failed_share = 0.1\n",
			func(c Config) bool {
				return c.Judges.Parse.Pointers() && c.Judges.Parse.Rubric["Domain"] == "/scores/Domain" && c.Judges.Parse.MaxFailedShare == 0.1 &&
					c.JudgeIDTemplate() == "{question_id}::{model}"
			}, ""},
		{"judges.parse defaults", "", func(c Config) bool { return !c.Judges.Parse.Pointers() && c.Judges.Parse.MaxFailedShare == 0.05 }, ""},
		{"judges.parse bad pointer", "[judges.parse]\nrubric = { Domain = \"scores/Domain\" }\n", nil, `judges.parse = rubric.Domain = "scores/Domain": a JSON pointer starts with /`},
		{"judges.parse unknown attribute", "[judges.parse]\nrubric = { Style = \"/s\" }\n", nil, "judges.parse = rubric.Style: not a rubric attribute"},
		{"judges.parse bad regex group", "[judges.parse]\nregex = \"(?P<score>\\\\d)\"\n", nil, `regex: group "score" is not a rubric attribute`},
		{"judges.parse bad share", "[judges.parse]\nmax_failed_share = 1.5\n", nil, "judges.parse.max_failed_share = 1.5: expected a share from 0 to 1"},
		{"judges.parse bad template", "[judges.parse]\nid_template = \"{model}\"\n", nil, "judges.parse.id_template"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Parse("study.toml", []byte(tc.in))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want it to contain %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !tc.check(c) {
				t.Errorf("unexpected config %+v", c)
			}
		})
	}
}

func TestLoadMissingFileGivesDefaults(t *testing.T) {
	c, err := Load("testdata/does-not-exist.toml")
	if err != nil || c.MainRound != "main" {
		t.Fatalf("Load = %+v, %v", c, err)
	}
}

// TestSettingsOneErrorEach checks that every bad setting is reported once,
// with its key, the value found and the accepted range, and that the
// extreme values the red-team run used (they panicked or ran out of memory
// later) are rejected here.
func TestSettingsOneErrorEach(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string // one line per setting, in order
	}{
		{"huge scale", "[rubric]\nmin = -2147483648\nmax = 2147483647\n", []string{
			"rubric.min = -2147483648: expected a decimal from -1000000 to 1000000 with at most 6 decimal places",
			"rubric.max = 2147483647: expected a decimal from -1000000 to 1000000 with at most 6 decimal places"}},
		{"empty scale", "[rubric]\nmin = 3\nmax = 2\n[solve]\nrubric_threshold = 2\n", []string{
			"rubric.max = 2: expected above rubric.min (3)"}},
		{"nan thresholds", "[solve]\nrubric_threshold = nan\nchecklist_threshold = nan\n[criteria]\nhard_share = nan\nparity_margin = inf\n[responses]\nbatch_discount = nan\n", []string{
			"solve.rubric_threshold = NaN: expected a number from rubric.min (1) to rubric.max (5)",
			"solve.checklist_threshold = NaN: expected a fraction from 0 to 1",
			"criteria.hard_share = NaN: expected a share above 0 and at most 1",
			"criteria.parity_margin = +Inf: expected a margin from 0 to 1",
			"responses.batch_discount = NaN: expected a fraction from 0 up to (not including) 1"}},
		{"threshold off the scale", "[solve]\nrubric_threshold = 6\n", []string{
			"solve.rubric_threshold = 6: expected a number from rubric.min (1) to rubric.max (5)"}},
		{"huge extreme_evaluators", "[analysis]\nextreme_evaluators = 9223372036854775807\nbootstrap = 1000000000\n", []string{
			"analysis.bootstrap = 1000000000: expected a count from 0 to 1000000",
			"analysis.extreme_evaluators = 9223372036854775807: expected a count from 0 to 100000"}},
		{"nan bin", "[difficulty]\nbins = [{name = \"a\", max = nan}, {name = \"\", max = 0.5}]\n", []string{
			"difficulty.bins[0].max = NaN: expected a gate score from 0 to 1",
			`difficulty.bins[1].name = "": expected a distinct, non-empty bin name`}},
		{"bad sheet pattern", "[sheets]\ninclude = [\"[\"]\n", []string{
			`sheets.include = ["["]: expected sheet-name patterns`}},
		{"control characters", "main_round = \"ma\\u001b]0;x\\u0007in\"\nhuman_label = \"\"\n", []string{
			`human_label = "": expected a non-empty name`,
			`main_round = "ma\x1b]0;x\ain": expected text without control or invisible characters`}},
		{"text language", "[text]\nlanguage = \"German!\"\n", []string{
			`text.language = "German!": expected a BCP 47 language tag such as "en", "de" or "zh-Hans", or "" to detect it`}},
		{"id template", "[responses]\nid_template = \"{question}\"\n", []string{
			`responses.id_template = "{question}": expected a request id template`}},
		{"limits", "[limits]\nfiles = 0\nxlsx_ratio = nan\nline_bytes = 10\ncolumns = -1\ngraders_per_response = 1\nxlsx_styles_bytes = 1024\nxlsx_strings = 10\n", []string{
			"limits.files = 0: expected an integer from 1 to 10000000",
			"limits.xlsx_ratio = NaN: expected a ratio from 2 to 100000",
			"limits.line_bytes = 10: expected an integer from 1024 to 4294967296",
			"limits.columns = -1: expected an integer from 10 to 10000000",
			"limits.graders_per_response = 1: expected an integer from 2 to 100000",
			"limits.xlsx_styles_bytes = 1024: expected an integer from 65536 to 4294967296",
			"limits.xlsx_strings = 10: expected an integer from 1000 to 1000000000"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("study.toml", []byte(tc.in))
			var se *SettingsError
			if !errors.As(err, &se) {
				t.Fatalf("err = %v (%T), want *SettingsError", err, err)
			}
			var got []string
			for _, s := range se.Settings {
				got = append(got, s.Error())
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %d settings errors, want %d:\n%s", len(got), len(tc.want), strings.Join(got, "\n"))
			}
			// human_label and main_round are checked in that order.
			for i := range got {
				if !strings.HasPrefix(got[i], tc.want[i]) {
					t.Errorf("setting %d:\n got %s\nwant %s…", i, got[i], tc.want[i])
				}
			}
			if !strings.Contains(err.Error(), "study.toml: "+tc.want[0]) {
				t.Errorf("Error() = %q does not name the file and the first setting", err)
			}
		})
	}
}

func TestLimitsDefaultAndOverride(t *testing.T) {
	c, err := Parse("study.toml", []byte("[limits]\nresponse_bytes = 2048\nxlsx_ratio = 1000\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := DefaultLimits()
	want.ResponseBytes, want.XLSXRatio = 2048, 1000
	if c.Limits != want {
		t.Errorf("limits = %+v, want %+v", c.Limits, want)
	}
	if d := DefaultLimits(); d.XLSXBytes != 2<<30 || d.XLSXRatio != 100 || d.Files != 10000 {
		t.Errorf("DefaultLimits() = %+v, want 2 GiB and 100× per workbook, 10,000 files", d)
	}
}

func TestLoadSpecialFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "study.toml")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	done := make(chan error, 1)
	go func() { _, err := Load(p); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "named pipe") {
			t.Fatalf("Load(FIFO) = %v, want a not-a-regular-file error", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Load blocked on a named pipe")
	}
	big := filepath.Join(dir, "big.toml")
	if err := os.WriteFile(big, bytes.Repeat([]byte("#\n"), MaxFileBytes), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(big); err == nil || !strings.Contains(err.Error(), "at most 1048576 bytes") {
		t.Fatalf("Load(2 MB) = %v, want a size error", err)
	}
}

// FuzzParse checks that no study.toml makes Parse panic, and that a
// config it accepts keeps the invariants the analyses rely on.
func FuzzParse(f *testing.F) {
	f.Add([]byte(""))
	f.Add([]byte("[rubric]\nmin = 0\nmax = 10\n[solve]\nrubric_threshold = 5\n"))
	f.Add([]byte("[analysis]\nextreme_evaluators = 3\n[limits]\nfiles = 5\n"))
	f.Add([]byte("[difficulty]\nbins = [{name = \"a\", max = 0.1}]\n[text]\nfilter = \"a=b\"\n"))
	f.Add([]byte("main_round = \"r1\"\n[columns]\n\"x\" = \"model\"\n[sheets]\nexclude = [\"*tmp*\"]\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := Parse("study.toml", b)
		if err != nil {
			return
		}
		if c.Rubric.Min >= c.Rubric.Max || c.Rubric.Step <= 0 || c.Rubric.Points() < 2 {
			t.Fatalf("accepted scale %v..%v step %v", c.Rubric.Min, c.Rubric.Max, c.Rubric.Step)
		}
		for _, v := range []float64{c.Solve.RubricThreshold, c.Solve.ChecklistThreshold, c.Criteria.HardShare, c.Criteria.ParityMargin, c.Responses.BatchDiscount, c.Limits.XLSXRatio} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("accepted a non-finite number: %+v", c)
			}
		}
		if c.Analysis.ExtremeEvaluators > maxExtreme || c.Analysis.Bootstrap > maxReplicates || c.Analysis.Resamples > maxReplicates {
			t.Fatalf("accepted analysis %+v", c.Analysis)
		}
		if c.Limits.Files < 1 || c.Limits.Columns < 10 || c.Limits.LineBytes < 1024 {
			t.Fatalf("accepted limits %+v", c.Limits)
		}
		for _, p := range append(append([]string(nil), c.Sheets.Include...), c.Sheets.Exclude...) {
			if _, err := path.Match(p, ""); err != nil {
				t.Fatalf("accepted bad pattern %q", p)
			}
		}
		_ = c.Pairs()
	})
}

// Every invalid setting is one SettingError with the key, the value and
// what is accepted.
func ExampleSettingsError() {
	_, err := Parse("study.toml", []byte("[rubric]\nmax = 0.5\n[solve]\nchecklist_threshold = nan\n"))
	var se *SettingsError
	if errors.As(err, &se) {
		for _, s := range se.Settings {
			fmt.Println(s)
		}
	}
	// Output:
	// rubric.max = 0.5: expected above rubric.min (1)
	// solve.checklist_threshold = NaN: expected a fraction from 0 to 1
}

func TestSiteQuestionPages(t *testing.T) {
	for _, c := range []struct {
		toml string
		want int
		err  string
	}{
		{"", DefaultQuestionPages, ""},
		{"[site]\nquestion_pages = 500\n", 500, ""},
		{"[site]\nquestion_pages = \"all\"\n", -1, ""},
		{"[site]\nquestion_pages = 0\n", 0, "site.question_pages = 0: expected a positive number of pages or \"all\""},
		{"[site]\nquestion_pages = \"some\"\n", 0, `site.question_pages = "some"`},
		{"[site]\nquestion_pages = 2.5\n", 0, "site.question_pages = 2.5"},
	} {
		cfg, err := Parse("study.toml", []byte(c.toml))
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) || !strings.Contains(err.Error(), "study.toml") {
				t.Errorf("%q: error %v, want one naming study.toml and containing %q", c.toml, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.toml, err)
			continue
		}
		if got := cfg.SiteQuestionPages(); got != c.want {
			t.Errorf("%q: SiteQuestionPages = %d, want %d", c.toml, got, c.want)
		}
	}
}
