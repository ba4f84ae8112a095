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
