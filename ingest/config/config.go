// Package config reads a study's study.toml. Every setting is optional and
// defaults to the EuroExec paper's choice (see Default); an unknown key is an
// error, so a typo never passes silently.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
)

// Config is the content of study.toml.
type Config struct {
	// Title is the study's title. Default "EuroExec".
	Title string `toml:"title"`
	// HumanLabel is the model name under which graded expert answers
	// appear. Default "Human Expert".
	HumanLabel string `toml:"human_label"`
	// MainRound is the grading round behind the all-questions tables.
	// Default "main".
	MainRound string `toml:"main_round"`
	// Columns maps header names as written to canonical names
	// (case-insensitive on both sides), e.g. "Dom." = "Domain".
	Columns map[string]string `toml:"columns"`
	// Sheets selects workbook sheets by glob pattern.
	Sheets Sheets `toml:"sheets"`
	// Rubric names the rubric attributes and their integer scale.
	Rubric Rubric `toml:"rubric"`
	// Solve holds the Solve Rate rule.
	Solve Solve `toml:"solve"`
	// Difficulty holds the gate-score bins.
	Difficulty Difficulty `toml:"difficulty"`
	// Text holds the text-metric settings.
	Text Text `toml:"text"`
	// Criteria holds the weighted-criteria (PRBench) settings.
	Criteria Criteria `toml:"criteria"`
	// Responses holds the response-dump settings.
	Responses Responses `toml:"responses"`
	// Analysis holds resampling settings.
	Analysis Analysis `toml:"analysis"`
	// Site holds the HTML site settings.
	Site Site `toml:"site"`
}

// Site holds the settings of the HTML site.
type Site struct {
	// QuestionPages bounds the per-question pages: a positive integer N
	// (default 2000) or "all". A study with at most N questions gets a page
	// for every question; a larger one gets N pages, for the questions
	// that matter (unsolved by every model, largest grader disagreement,
	// then a seeded random sample), and the searchable index lists all.
	QuestionPages any `toml:"question_pages"`
}

func sitePages(n int) string {
	if n < 0 {
		return "all"
	}
	return strconv.Itoa(n)
}

// DefaultQuestionPages is the default of [site] question_pages.
const DefaultQuestionPages = 2000

// SiteQuestionPages returns [site] question_pages as a number: N, or −1
// for "all"; DefaultQuestionPages when not set.
func (c Config) SiteQuestionPages() int {
	switch v := c.Site.QuestionPages.(type) {
	case int64:
		return int(v)
	case string:
		if v == "all" {
			return -1
		}
	}
	return DefaultQuestionPages
}

// Sheets selects the sheets of every workbook that are read.
type Sheets struct {
	// Include are glob patterns (path.Match); default ["*"].
	Include []string `toml:"include"`
	// Exclude are glob patterns; default none.
	Exclude []string `toml:"exclude"`
}

// Rubric describes the rubric instrument.
type Rubric struct {
	// Attributes in display order; default Domain, Localization, Reasoning,
	// Communication, Actionability.
	Attributes []string `toml:"attributes"`
	// Min is the lowest score; default 1.
	Min int `toml:"min"`
	// Max is the highest score; default 5.
	Max int `toml:"max"`
}

// Solve is the Solve Rate rule.
type Solve struct {
	// RubricThreshold: rubric mean at least this; default 3.0.
	RubricThreshold float64 `toml:"rubric_threshold"`
	// ChecklistThreshold: checklist rate at least this; default 0.60.
	ChecklistThreshold float64 `toml:"checklist_threshold"`
	// PartialCredit is what a partial verdict counts; default 0.5.
	// It must be a multiple of 0.5 so that sums stay exact in half points.
	PartialCredit float64 `toml:"partial_credit"`
}

// Difficulty holds the gate-score bins; upper bounds are inclusive.
type Difficulty struct {
	// Bins in increasing Max; default Hard ≤ .30, Medium ≤ .50, Easy ≤ .60.
	Bins []Bin `toml:"bins"`
}

// Bin is one difficulty bin.
type Bin struct {
	Name string  `toml:"name"`
	Max  float64 `toml:"max"`
}

// Text holds text-metric settings.
type Text struct {
	// Stemmer selects ROUGE with rouge-score's use_stemmer for the headline
	// Table 7; default true.
	Stemmer *bool `toml:"stemmer"`
	// Filter restricts Table 7 and the text metrics to questions with one
	// tag value, written "key=value" (e.g. "set=balanced"); default "" (all
	// questions with references).
	Filter string `toml:"filter"`
}

// TextFilter splits text.filter into tag key and value ("" when unset).
func (c Config) TextFilter() (key, value string) {
	k, v, _ := strings.Cut(c.Text.Filter, "=")
	return strings.TrimSpace(k), strings.TrimSpace(v)
}

// Criteria holds weighted-criteria settings.
type Criteria struct {
	// HardShare is the share of questions per domain in the Hard subset;
	// default 0.25. Ignored when HardCount is set.
	HardShare float64 `toml:"hard_share"`
	// HardCount is the number of questions per domain in the Hard subset;
	// default 0 (use HardShare).
	HardCount int `toml:"hard_count"`
	// ParityMargin is the judge "within expert range" margin; default 0.05.
	ParityMargin float64 `toml:"parity_margin"`
}

// Responses holds settings for provider batch dumps.
type Responses struct {
	// IDTemplate maps a batch request id to question and model; default
	// "{question_id}::{model}".
	IDTemplate string `toml:"id_template"`
	// BatchDiscount is the price discount of batch requests as a fraction
	// (0.5 = half price); default 0.
	BatchDiscount float64 `toml:"batch_discount"`
}

// Analysis holds resampling settings.
type Analysis struct {
	// Seed of every random draw; default 1.
	Seed uint64 `toml:"seed"`
	// Bootstrap is the number of cluster-bootstrap replicates; default 2000.
	Bootstrap int `toml:"bootstrap"`
	// Resamples is the number of draws per point of the p-value curve;
	// default 500.
	Resamples int `toml:"resamples"`
	// ExtremeEvaluators is the size of the most critical / most lenient
	// groups; default 10.
	ExtremeEvaluators int `toml:"extreme_evaluators"`
}

// Default returns the EuroExec settings.
func Default() Config {
	stem := true
	return Config{
		Title:      "EuroExec",
		HumanLabel: "Human Expert",
		MainRound:  "main",
		Columns:    map[string]string{},
		Sheets:     Sheets{Include: []string{"*"}},
		Rubric: Rubric{
			Attributes: []string{"Domain", "Localization", "Reasoning", "Communication", "Actionability"},
			Min:        1, Max: 5,
		},
		Solve:      Solve{RubricThreshold: 3.0, ChecklistThreshold: 0.60, PartialCredit: 0.5},
		Difficulty: Difficulty{Bins: []Bin{{"Hard", 0.30}, {"Medium", 0.50}, {"Easy", 0.60}}},
		Text:       Text{Stemmer: &stem},
		Criteria:   Criteria{HardShare: 0.25, ParityMargin: 0.05},
		Responses:  Responses{IDTemplate: "{question_id}::{model}"},
		Analysis:   Analysis{Seed: 1, Bootstrap: 2000, Resamples: 500, ExtremeEvaluators: 10},
	}
}

// Stemmer reports the effective text.stemmer setting.
func (c Config) Stemmer() bool { return c.Text.Stemmer == nil || *c.Text.Stemmer }

// Load reads path over the defaults. A missing file gives the defaults.
func Load(path string) (Config, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return Default(), nil
	}
	if err != nil {
		return Config{}, fmt.Errorf("read study settings: %w", err)
	}
	return Parse(path, b)
}

// Parse decodes study.toml content over the defaults; name is used in errors.
func Parse(name string, b []byte) (Config, error) {
	c := Default()
	dec := toml.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		var sm *toml.StrictMissingError
		if errors.As(err, &sm) {
			var keys []string
			for _, e := range sm.Errors {
				row, col := e.Position()
				keys = append(keys, fmt.Sprintf("%s:%d:%d: unknown key %q", name, row, col, strings.Join(e.Key(), ".")))
			}
			return Config{}, fmt.Errorf("%s (the accepted keys are listed in the README)", strings.Join(keys, "; "))
		}
		var de *toml.DecodeError
		if errors.As(err, &de) {
			row, col := de.Position()
			return Config{}, fmt.Errorf("%s:%d:%d: %w", name, row, col, err)
		}
		return Config{}, fmt.Errorf("%s: %w", name, err)
	}
	if err := c.validate(); err != nil {
		return Config{}, fmt.Errorf("%s: %w", name, err)
	}
	return c, nil
}

func (c Config) validate() error {
	var probs []string
	if c.Rubric.Min >= c.Rubric.Max {
		probs = append(probs, fmt.Sprintf("rubric.min (%d) must be below rubric.max (%d)", c.Rubric.Min, c.Rubric.Max))
	}
	seen := map[string]bool{}
	for _, a := range c.Rubric.Attributes {
		k := strings.ToLower(strings.TrimSpace(a))
		if k == "" || seen[k] {
			probs = append(probs, fmt.Sprintf("rubric.attributes: %q is empty or repeated", a))
		}
		seen[k] = true
	}
	if pc := c.Solve.PartialCredit * 2; pc != float64(int(pc)) || pc < 0 || pc > 2 {
		probs = append(probs, fmt.Sprintf("solve.partial_credit = %v: expected 0, 0.5 or 1", c.Solve.PartialCredit))
	}
	if c.Solve.ChecklistThreshold < 0 || c.Solve.ChecklistThreshold > 1 {
		probs = append(probs, fmt.Sprintf("solve.checklist_threshold = %v: expected a fraction in [0,1]", c.Solve.ChecklistThreshold))
	}
	for i := 1; i < len(c.Difficulty.Bins); i++ {
		if c.Difficulty.Bins[i].Max <= c.Difficulty.Bins[i-1].Max {
			probs = append(probs, "difficulty.bins: max values must increase")
			break
		}
	}
	if c.Text.Filter != "" && !strings.Contains(c.Text.Filter, "=") {
		probs = append(probs, fmt.Sprintf("text.filter = %q: expected \"key=value\" (a question tag and its value)", c.Text.Filter))
	}
	if c.Criteria.HardShare <= 0 || c.Criteria.HardShare > 1 {
		probs = append(probs, fmt.Sprintf("criteria.hard_share = %v: expected a share in (0,1]", c.Criteria.HardShare))
	}
	if c.Criteria.HardCount < 0 {
		probs = append(probs, "criteria.hard_count must not be negative")
	}
	if c.Analysis.Bootstrap < 0 || c.Analysis.Resamples < 0 || c.Analysis.ExtremeEvaluators < 0 {
		probs = append(probs, "analysis: bootstrap, resamples and extreme_evaluators must not be negative")
	}
	switch v := c.Site.QuestionPages.(type) {
	case nil:
	case int64:
		if v < 1 || v > 1<<31 {
			probs = append(probs, fmt.Sprintf("site.question_pages = %d: expected a positive number of pages or \"all\"", v))
		}
	case string:
		if v != "all" {
			probs = append(probs, fmt.Sprintf("site.question_pages = %q: expected a positive number of pages or \"all\"", v))
		}
	default:
		probs = append(probs, fmt.Sprintf("site.question_pages = %v: expected a positive number of pages or \"all\"", v))
	}
	if c.Responses.BatchDiscount < 0 || c.Responses.BatchDiscount >= 1 {
		probs = append(probs, fmt.Sprintf("responses.batch_discount = %v: expected a fraction in [0,1)", c.Responses.BatchDiscount))
	}
	if len(probs) > 0 {
		return errors.New(strings.Join(probs, "; "))
	}
	return nil
}

// Pairs lists the effective settings as key/value text, in study.toml
// order, for the database's study_settings table and the report's About
// sheet.
func (c Config) Pairs() [][2]string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	var bins []string
	for _, b := range c.Difficulty.Bins {
		bins = append(bins, b.Name+" ≤ "+f(b.Max))
	}
	var cols []string
	for k, v := range c.Columns {
		cols = append(cols, strconv.Quote(k)+" = "+strconv.Quote(v))
	}
	sort.Strings(cols)
	return [][2]string{
		{"title", c.Title},
		{"human_label", c.HumanLabel},
		{"main_round", c.MainRound},
		{"columns", strings.Join(cols, ", ")},
		{"sheets.include", strings.Join(c.Sheets.Include, ", ")},
		{"sheets.exclude", strings.Join(c.Sheets.Exclude, ", ")},
		{"rubric.attributes", strings.Join(c.Rubric.Attributes, ", ")},
		{"rubric.min", strconv.Itoa(c.Rubric.Min)},
		{"rubric.max", strconv.Itoa(c.Rubric.Max)},
		{"solve.rubric_threshold", f(c.Solve.RubricThreshold)},
		{"solve.checklist_threshold", f(c.Solve.ChecklistThreshold)},
		{"solve.partial_credit", f(c.Solve.PartialCredit)},
		{"difficulty.bins", strings.Join(bins, ", ")},
		{"text.stemmer", strconv.FormatBool(c.Stemmer())},
		{"text.filter", c.Text.Filter},
		{"criteria.hard_share", f(c.Criteria.HardShare)},
		{"criteria.hard_count", strconv.Itoa(c.Criteria.HardCount)},
		{"criteria.parity_margin", f(c.Criteria.ParityMargin)},
		{"responses.id_template", c.Responses.IDTemplate},
		{"responses.batch_discount", f(c.Responses.BatchDiscount)},
		{"analysis.seed", strconv.FormatUint(c.Analysis.Seed, 10)},
		{"analysis.bootstrap", strconv.Itoa(c.Analysis.Bootstrap)},
		{"analysis.resamples", strconv.Itoa(c.Analysis.Resamples)},
		{"analysis.extreme_evaluators", strconv.Itoa(c.Analysis.ExtremeEvaluators)},
		{"site.question_pages", sitePages(c.SiteQuestionPages())},
	}
}
