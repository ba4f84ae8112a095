package config

import (
	"strings"
	"testing"
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
		{"unknown key", "titel = \"x\"\n", nil, `study.toml:1:1: unknown key "titel"`},
		{"unknown nested key", "[solve]\nrubric = 3\n", nil, `unknown key "solve.rubric"`},
		{"wrong type", "[analysis]\nseed = \"one\"\n", nil, "study.toml:2"},
		{"bad scale", "[rubric]\nmin = 5\nmax = 5\n", nil, "rubric.min (5) must be below rubric.max (5)"},
		{"bad partial credit", "[solve]\npartial_credit = 0.3\n", nil, "solve.partial_credit = 0.3: expected 0, 0.5 or 1"},
		{"judges.parse", "[judges.parse]\nrubric = { Domain = \"/scores/Domain\" }\nchecklist = \"/items/{index}\"\nmax_failed_share = 0.1\n",
			func(c Config) bool {
				return c.Judges.Parse.Pointers() && c.Judges.Parse.Rubric["Domain"] == "/scores/Domain" && c.Judges.Parse.MaxFailedShare == 0.1 &&
					c.JudgeIDTemplate() == "{question_id}::{model}"
			}, ""},
		{"judges.parse defaults", "", func(c Config) bool { return !c.Judges.Parse.Pointers() && c.Judges.Parse.MaxFailedShare == 0.05 }, ""},
		{"judges.parse bad pointer", "[judges.parse]\nrubric = { Domain = \"scores/Domain\" }\n", nil, `judges.parse: rubric.Domain = "scores/Domain": a JSON pointer starts with /`},
		{"judges.parse unknown attribute", "[judges.parse]\nrubric = { Style = \"/s\" }\n", nil, "judges.parse: rubric.Style: not a rubric attribute"},
		{"judges.parse bad regex group", "[judges.parse]\nregex = \"(?P<score>\\\\d)\"\n", nil, `regex: group "score" is not a rubric attribute`},
		{"judges.parse bad share", "[judges.parse]\nmax_failed_share = 1.5\n", nil, "judges.parse.max_failed_share = 1.5: expected a share in [0,1]"},
		{"judges.parse bad template", "[judges.parse]\nid_template = \"{model}\"\n", nil, "judges.parse.id_template"},
		{"bins must increase", "[difficulty]\nbins = [{name = \"a\", max = 0.5}, {name = \"b\", max = 0.4}]\n", nil, "difficulty.bins: max values must increase"},
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
