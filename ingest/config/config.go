// Package config reads a study's study.toml. Every setting is optional and
// defaults to the EuroExec paper's choice (see Default); an unknown key is an
// error, so a typo never passes silently.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/euroexec/euroexec/ingest/providers"
	"github.com/euroexec/euroexec/ingest/tabular"
	"github.com/euroexec/euroexec/metrics/textsim"

	toml "github.com/pelletier/go-toml/v2"

	"github.com/euroexec/euroexec/ingest/judgeparse"
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
	// Limits bounds what a study's files may hold, so that a hostile or
	// broken file fails fast with a located error instead of exhausting
	// time or memory.
	Limits Limits `toml:"limits"`
	// Judges holds the LLM-judge settings.
	Judges Judges `toml:"judges"`
	// Site holds the HTML site settings.
	Site Site `toml:"site"`
	// Report holds the report settings ([report] primary).
	Report Report `toml:"report"`
	// Compare holds the settings compare takes from the first run
	// ([compare] margins).
	Compare Compare `toml:"compare"`
	// Import maps the questions and data fields of annotation-platform
	// exports (Label Studio, Argilla) under grades/ to the instrument:
	// platform name as written → target, e.g. "domain_score" =
	// "rubric:Domain", "c1" = "checklist:C1", "winner" = "pairwise",
	// "prompt_id" = "question_id" (see ParseImportTarget). Default none: a
	// name that is, after ColumnKey and the [columns] aliases, a rubric
	// attribute, C<n>, rank, winner, comment or an id column maps to it.
	Import map[string]string `toml:"import"`
}

// Limits are the bounds checked while a study is read. Every limit is
// checked before or while the data it bounds is read, and exceeding one is
// a located error that names the setting raising it ("[limits] NAME in
// study.toml"). Sizes are in bytes.
type Limits struct {
	// Files is the most files (of any kind, in any sub-folder) the study
	// folder may hold; default 10,000; accepted 1 … 10,000,000.
	Files int `toml:"files"`
	// XLSXBytes is the most bytes one workbook may hold unzipped (the sum
	// of its parts, as declared in the zip directory and as actually
	// inflated); default 2 GiB (2147483648); accepted 1 MiB … 1 TiB.
	XLSXBytes int64 `toml:"xlsx_bytes"`
	// XLSXRatio is the most a workbook may grow when unzipped, as
	// unzipped size / file size; default 100; accepted 2 … 100,000. A
	// workbook under 1 MiB unzipped passes whatever its ratio (empty
	// sheets compress very well).
	XLSXRatio float64 `toml:"xlsx_ratio"`
	// TotalXLSXBytes is the most bytes all workbooks of the study together
	// may hold unzipped; default 8 GiB (8589934592); accepted 1 MiB … 1 TiB.
	TotalXLSXBytes int64 `toml:"total_xlsx_bytes"`
	// LineBytes is the longest line of a JSONL file or record of a CSV/TSV
	// file, outside responses/ (see ResponseBytes); default 64 MiB
	// (67108864); accepted 1 KiB … 4 GiB.
	LineBytes int64 `toml:"line_bytes"`
	// CellBytes is the longest cell (a CSV/TSV field, an XLSX cell, a JSONL
	// value) outside the text of responses and references; default 16 MiB
	// (16777216); accepted 1 KiB … 4 GiB.
	CellBytes int64 `toml:"cell_bytes"`
	// Columns is the most columns a table may have: header cells of a
	// CSV/TSV file or worksheet, distinct keys of a JSONL file and so keys
	// per JSON object; default 2,000; accepted 10 … 10,000,000.
	Columns int `toml:"columns"`
	// ResponseBytes is the longest response or reference text, and (plus 1
	// MiB for the other fields) the longest line of a file in responses/;
	// default 16 MiB (16777216); accepted 1 KiB … 4 GiB.
	ResponseBytes int64 `toml:"response_bytes"`
	// GradersPerResponse is the most human graders of one response (one
	// question and model) in one round; default 1,000; accepted 2 …
	// 100,000. Agreement statistics average over grader pairs, whose
	// number grows as its square.
	GradersPerResponse int `toml:"graders_per_response"`
	// XLSXStylesBytes is the most bytes of a workbook's style sheet
	// (xl/styles.xml) unzipped, checked before it is inflated; default 16
	// MiB; accepted 64 KiB … 4 GiB.
	XLSXStylesBytes int64 `toml:"xlsx_styles_bytes"`
	// XLSXStringsBytes is the most bytes of a workbook's shared strings
	// (xl/sharedStrings.xml) unzipped, checked before it is inflated;
	// default 256 MiB; accepted 64 KiB … 4 GiB.
	XLSXStringsBytes int64 `toml:"xlsx_strings_bytes"`
	// XLSXStrings is the most shared strings of a workbook, counted
	// before they are parsed; default 2,000,000; accepted 1,000 …
	// 1,000,000,000.
	XLSXStrings int64 `toml:"xlsx_strings"`
}

// DefaultLimits returns the default Limits.
func DefaultLimits() Limits {
	return Limits{
		Files:          10_000,
		XLSXBytes:      2 << 30,
		XLSXRatio:      100,
		TotalXLSXBytes: 8 << 30,
		LineBytes:      64 << 20,
		CellBytes:      16 << 20,
		Columns:        2_000,
		ResponseBytes:  16 << 20,

		GradersPerResponse: 1_000,
		XLSXStylesBytes:    16 << 20,
		XLSXStringsBytes:   256 << 20,
		XLSXStrings:        2_000_000,
	}
}

// Judges holds the LLM-judge settings.
type Judges struct {
	// Parse says how a judge's output text (provider batch files under
	// grades/judges/) or a nested JSONL judge line maps to the instrument.
	Parse JudgeParse `toml:"parse"`
}

// JudgeParse maps a judge's verdict to the instrument. JSON pointers (RFC
// 6901) address fields of the verdict object; Regex replaces them for
// plain-text verdicts.
type JudgeParse struct {
	// Rubric maps rubric attributes to JSON pointers, e.g. Domain =
	// "/scores/Domain"; an attribute not listed is read from "/<attribute>".
	Rubric map[string]string `toml:"rubric"`
	// Checklist is the pointer template of checklist verdicts; {item} is the
	// item number (1, 2, …), {index} item − 1; default "/C{item}".
	Checklist string `toml:"checklist"`
	// Rank is the pointer of the rank; default "/rank".
	Rank string `toml:"rank"`
	// Regex is a regular expression (Go syntax) with named groups for
	// attributes, C1…Cn and rank, used instead of JSON; default none.
	Regex string `toml:"regex"`
	// IDTemplate maps a judge batch request id to question and model;
	// default "" = responses.id_template.
	IDTemplate string `toml:"id_template"`
	// MaxFailedShare is the largest share of a judge's outputs that may fail
	// to parse (each is a warning); above it the load fails. Default 0.05;
	// accepted [0, 1].
	MaxFailedShare float64 `toml:"max_failed_share"`
}

// Pointers reports whether [judges.parse] sets any field mapping, in which
// case plain JSONL judge files are read through the pointers too.
func (p JudgeParse) Pointers() bool {
	return len(p.Rubric) > 0 || p.Checklist != "" || p.Rank != "" || p.Regex != ""
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
	// HeaderRow is the row number of the header in every sheet and CSV/TSV
	// file of the graders (under grades/ and criterion_grades/; other
	// files by Files only); default 0: the first of the first 20 rows that
	// holds the table's required columns (else the first non-blank row).
	// Accepted 0 … 1048576.
	HeaderRow int `toml:"header_row"`
	// EvaluatorFrom says who graded the rows of a grading sheet: "column"
	// (the evaluator column, required), "file" (the file name without
	// extension), "sheet" (the sheet name) or "" (default: the evaluator
	// column when the sheet has one, else the sheet name when several
	// sheets of a workbook lack it, else the file name).
	EvaluatorFrom string `toml:"evaluator_from"`
	// Files overrides EvaluatorFrom and HeaderRow for single files, by
	// path relative to the study folder with forward slashes
	// ("grades/humans/panel.xlsx"); default none. A path that names no
	// file of the study is a warning.
	Files map[string]SheetFile `toml:"files"`
}

// SheetFile holds the [sheets] settings of one file ([sheets.files]).
type SheetFile struct {
	// EvaluatorFrom: "column", "file" or "sheet" as in [sheets]; default
	// "": the [sheets] evaluator_from.
	EvaluatorFrom string `toml:"evaluator_from"`
	// HeaderRow is the row number of the header in every sheet of the file
	// (1 … 1048576); default 0: the [sheets] header_row for a grading file,
	// else found.
	HeaderRow int `toml:"header_row"`
}

// EvaluatorFromFor returns the evaluator_from setting of the file at rel
// (its [sheets.files] entry, else [sheets] evaluator_from).
func (c Config) EvaluatorFromFor(rel string) string {
	if f, ok := c.Sheets.Files[rel]; ok && f.EvaluatorFrom != "" {
		return f.EvaluatorFrom
	}
	return c.Sheets.EvaluatorFrom
}

// Rubric describes the rubric instrument.
type Rubric struct {
	// Attributes in display order; default Domain, Localization, Reasoning,
	// Communication, Actionability. Empty: the study has no rubric.
	Attributes []string `toml:"attributes"`
	// Min is the lowest score, a decimal; default 1.
	Min float64 `toml:"min"`
	// Max is the highest score, a decimal; default 5.
	Max float64 `toml:"max"`
	// Step is the scale's step: every human score is a multiple of it
	// (0.1 for MQM-style penalties, 0.5 for half points); default 1. A
	// positive decimal with at most 6 decimal places; min and max are
	// multiples of it. Judge scores may be any number from min to max.
	Step float64 `toml:"step"`
	// Direction says which end of the scale is better: "higher" (default)
	// or "lower" (penalties such as MQM). It flows through every ranking,
	// comparison, the Solve rule and the words of the report.
	Direction string `toml:"direction"`
	// Averaged says that a human score may be the mean of up to this many
	// raters' scores on the step (a dataset that ships only per-item means,
	// 2.3333333333 for 7/3): such a score counts as the fraction k·step/n
	// (n ≤ Averaged) whose rounding to the digits written it is. Default
	// 1: every human score is a multiple of the step. Accepted 1 … 100.
	Averaged int `toml:"averaged"`
}

// Lower reports whether lower rubric scores are better (direction = "lower").
func (r Rubric) Lower() bool { return r.Direction == DirectionLower }

// The values of [rubric] direction.
const (
	DirectionHigher = "higher"
	DirectionLower  = "lower"
)

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
	// Language is the language of the references and responses, a BCP 47
	// tag ("en", "de", "zh-Hans"); default "" detects it from the
	// references (textsim.DetectLanguage). It selects the BLEU tokenizer and
	// whether ROUGE uses rouge-score's English tokenizer and stemmer.
	Language string `toml:"language"`
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
		Import:     map[string]string{},
		Sheets:     Sheets{Include: []string{"*"}},
		Rubric: Rubric{
			Attributes: []string{"Domain", "Localization", "Reasoning", "Communication", "Actionability"},
			Min:        1, Max: 5, Step: 1, Direction: DirectionHigher, Averaged: 1,
		},
		Solve:      Solve{RubricThreshold: 3.0, ChecklistThreshold: 0.60, PartialCredit: 0.5},
		Difficulty: Difficulty{Bins: []Bin{{"Hard", 0.30}, {"Medium", 0.50}, {"Easy", 0.60}}},
		Text:       Text{Stemmer: &stem},
		Criteria:   Criteria{HardShare: 0.25, ParityMargin: 0.05},
		Responses:  Responses{IDTemplate: "{question_id}::{model}"},
		Analysis:   Analysis{Seed: 1, Bootstrap: 2000, Resamples: 500, ExtremeEvaluators: 10},
		Limits:     DefaultLimits(),
		Judges:     Judges{Parse: JudgeParse{MaxFailedShare: 0.05}},
	}
}

// Stemmer reports the effective text.stemmer setting.
func (c Config) Stemmer() bool { return c.Text.Stemmer == nil || *c.Text.Stemmer }

// MaxFileBytes is the largest study.toml accepted.
const MaxFileBytes = 1 << 20

// Load reads path over the defaults. A missing file gives the defaults.
// Anything but a regular file of at most MaxFileBytes is an error, found
// before the file is opened (a named pipe would block the read forever).
func Load(path string) (Config, error) {
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		if _, lerr := os.Lstat(path); lerr == nil {
			return Config{}, fmt.Errorf("%s: a symbolic link to a missing file; expected a regular file", path)
		}
		return Default(), nil
	}
	if err != nil {
		return Config{}, fmt.Errorf("read study settings: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return Config{}, fmt.Errorf("%s: not a regular file (%s); expected a TOML text file", path, KindOf(fi.Mode()))
	}
	if fi.Size() > MaxFileBytes {
		return Config{}, fmt.Errorf("%s: %d bytes; expected a settings file of at most %d bytes", path, fi.Size(), MaxFileBytes)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("read study settings: %w", err)
	}
	return Parse(path, b)
}

// KindOf names a file mode's type for messages ("named pipe", "socket",
// "device", "folder", "symbolic link", "regular file", "special file").
func KindOf(m os.FileMode) string {
	switch {
	case m.IsRegular():
		return "regular file"
	case m&os.ModeNamedPipe != 0:
		return "named pipe (FIFO)"
	case m&os.ModeSocket != 0:
		return "socket"
	case m&os.ModeDevice != 0, m&os.ModeCharDevice != 0:
		return "device"
	case m.IsDir():
		return "folder"
	case m&os.ModeSymlink != 0:
		return "symbolic link"
	}
	return "special file"
}

// SettingError is one invalid setting: its key, the value found and what
// is accepted.
type SettingError struct {
	// Key is the setting's dotted name, e.g. "rubric.max".
	Key string
	// Value is the value as set, formatted for people.
	Value string
	// Expected says what is accepted, e.g. "an integer from -1000 to 1000".
	Expected string
}

// Error formats the problem as `KEY = VALUE: expected EXPECTED`.
func (e SettingError) Error() string {
	return fmt.Sprintf("%s = %s: expected %s", e.Key, e.Value, e.Expected)
}

// SettingsError lists every invalid setting of one study.toml, one
// SettingError per setting.
type SettingsError struct {
	// File is the settings file's name as given to Parse.
	File string
	// Settings are the invalid settings, in study.toml order.
	Settings []SettingError
}

// Error lists the invalid settings, one per line, each prefixed by the
// file name.
func (e *SettingsError) Error() string {
	var b strings.Builder
	n := len(e.Settings)
	fmt.Fprintf(&b, "%s: %d invalid setting", e.File, n)
	if n != 1 {
		b.WriteString("s")
	}
	for _, s := range e.Settings {
		b.WriteString("\n  ")
		b.WriteString(e.File)
		b.WriteString(": ")
		b.WriteString(s.Error())
	}
	return b.String()
}

// Parse decodes study.toml content over the defaults; name is used in errors.
// Every setting is checked; invalid ones are returned together as a
// *SettingsError.
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
				keys = append(keys, fmt.Sprintf("%s:%d:%d: unknown key %s%s", name, row, col, strconv.QuoteToASCII(strings.Join(e.Key(), ".")), unknownKeyHint(e.Key())))
			}
			return Config{}, fmt.Errorf("%s (the accepted keys are listed in docs/FORMAT.md)", strings.Join(keys, "; "))
		}
		var de *toml.DecodeError
		if errors.As(err, &de) {
			row, col := de.Position()
			if msg, ok := typeMismatch(err.Error()); ok && len(de.Key()) > 0 {
				return Config{}, fmt.Errorf("%s:%d:%d: %s: %s", name, row, col, strings.Join(de.Key(), "."), msg)
			}
			return Config{}, fmt.Errorf("%s:%d:%d: %w", name, row, col, err)
		}
		return Config{}, fmt.Errorf("%s: %w", name, err)
	}
	if probs := c.validate(); len(probs) > 0 {
		return Config{}, &SettingsError{File: name, Settings: probs}
	}
	return c, nil
}

// Bounds of the settings (see validate and docs/FORMAT.md).
const (
	scaleBound    = 1000000 // rubric.min and rubric.max within ±scaleBound
	maxReplicates = 1000000 // analysis.bootstrap and analysis.resamples
	maxExtreme    = 100000  // analysis.extreme_evaluators
	maxTextLen    = 1000    // title, human_label, main_round, names and patterns
)

func (c Config) validate() []SettingError {
	var probs []SettingError
	bad := func(key string, value any, expected string) {
		var v string
		switch x := value.(type) {
		case string:
			v = strconv.QuoteToASCII(x)
		case []string:
			q := make([]string, len(x))
			for i, s := range x {
				q[i] = strconv.QuoteToASCII(s)
			}
			v = "[" + strings.Join(q, ", ") + "]"
		case float64:
			v = strconv.FormatFloat(x, 'g', -1, 64)
		default:
			v = fmt.Sprint(x)
		}
		probs = append(probs, SettingError{Key: key, Value: v, Expected: expected})
	}
	finiteIn := func(key string, v, lo, hi float64, what string) {
		if math.IsNaN(v) || v < lo || v > hi {
			bad(key, v, what)
		}
	}
	text := func(key, v string, empty bool) {
		switch {
		case !empty && strings.TrimSpace(v) == "":
			bad(key, v, "a non-empty name")
		case len(v) > maxTextLen:
			bad(key, v[:40]+"…", fmt.Sprintf("at most %d bytes", maxTextLen))
		case !utf8.ValidString(v) || strings.IndexFunc(v, tabular.Invisible) >= 0:
			bad(key, v, "text without control or invisible characters")
		}
	}
	text("title", c.Title, true)
	text("human_label", c.HumanLabel, false)
	text("main_round", c.MainRound, false)
	if strings.ContainsAny(c.MainRound, "/\\") {
		bad("main_round", c.MainRound, "a round name (a folder name under grades/humans/, without slashes)")
	}
	for k, v := range c.Columns {
		text("columns."+k, v, false)
	}
	c.checkColumns(bad)
	c.checkReport(bad)
	c.checkCompare(bad)
	c.checkImport(bad)
	for _, key := range []string{"sheets.include", "sheets.exclude"} {
		pats := c.Sheets.Include
		if key == "sheets.exclude" {
			pats = c.Sheets.Exclude
		}
		for _, p := range pats {
			if _, err := path.Match(p, ""); err != nil {
				bad(key, pats, fmt.Sprintf("sheet-name patterns (%q: %v; * ? and [a-z] are the wildcards)", p, err))
				break
			}
		}
	}
	if c.Sheets.HeaderRow < 0 || c.Sheets.HeaderRow > 1<<20 {
		bad("sheets.header_row", c.Sheets.HeaderRow, "a row number from 1 to 1048576, or 0 to find the header")
	}
	switch c.Sheets.EvaluatorFrom {
	case "", "column", "file", "sheet":
	default:
		bad("sheets.evaluator_from", c.Sheets.EvaluatorFrom, `"column", "file" or "sheet"`)
	}
	for _, p := range sortedKeys(c.Sheets.Files) {
		f := c.Sheets.Files[p]
		key := "sheets.files." + strconv.Quote(p)
		switch {
		case p == "" || strings.TrimSpace(p) != p:
			bad(key, p, "a file path relative to the study folder, without surrounding spaces")
		case strings.Contains(p, `\`):
			bad(key, p, "a path with forward slashes (grades/humans/panel.xlsx)")
		case strings.HasPrefix(p, "/") || p != path.Clean(p) || strings.HasPrefix(p, "../") || p == "..":
			bad(key, p, "a file path relative to the study folder, inside it (grades/humans/panel.xlsx)")
		}
		switch f.EvaluatorFrom {
		case "", "column", "file", "sheet":
		default:
			bad(key+".evaluator_from", f.EvaluatorFrom, `"column", "file" or "sheet"`)
		}
		if f.HeaderRow < 0 || f.HeaderRow > 1<<20 {
			bad(key+".header_row", f.HeaderRow, "a row number from 1 to 1048576, or 0 for [sheets] header_row")
		}
	}
	okScale := c.checkScale(bad)
	if len(c.Rubric.Attributes) > 1000 {
		bad("rubric.attributes", c.Rubric.Attributes, "at most 1000 attribute names (none: a study without a rubric)")
	}
	seen := map[string]bool{}
	for _, a := range c.Rubric.Attributes {
		k := strings.ToLower(strings.TrimSpace(a))
		if k == "" || seen[k] || strings.IndexFunc(a, tabular.Invisible) >= 0 {
			bad("rubric.attributes", c.Rubric.Attributes, fmt.Sprintf("distinct, non-empty names without control characters (%s is empty, invisible or repeated)", strconv.QuoteToASCII(a)))
			break
		}
		seen[k] = true
	}
	if okScale {
		finiteIn("solve.rubric_threshold", c.Solve.RubricThreshold, c.Rubric.Min, c.Rubric.Max,
			fmt.Sprintf("a number from rubric.min (%s) to rubric.max (%s)", FormatDecimal(c.Rubric.Min), FormatDecimal(c.Rubric.Max)))
	}
	finiteIn("solve.checklist_threshold", c.Solve.ChecklistThreshold, 0, 1, "a fraction from 0 to 1")
	if pc := c.Solve.PartialCredit; pc != 0 && pc != 0.5 && pc != 1 {
		bad("solve.partial_credit", pc, "0, 0.5 or 1")
	}
	if len(c.Difficulty.Bins) > 100 {
		bad("difficulty.bins", fmt.Sprintf("%d bins", len(c.Difficulty.Bins)), "at most 100 bins")
	} else {
		names := map[string]bool{}
		for i, b := range c.Difficulty.Bins {
			key := fmt.Sprintf("difficulty.bins[%d]", i)
			if math.IsNaN(b.Max) || b.Max < 0 || b.Max > 1 {
				bad(key+".max", b.Max, "a gate score from 0 to 1")
			} else if p := c.Difficulty.Bins[max(i-1, 0)].Max; i > 0 && p >= 0 && p <= 1 && !(b.Max > p) {
				bad(key+".max", b.Max, fmt.Sprintf("above the previous bin's max (%v): max values must increase", c.Difficulty.Bins[i-1].Max))
			}
			n := strings.ToLower(strings.TrimSpace(b.Name))
			if n == "" || names[n] || strings.IndexFunc(b.Name, tabular.Invisible) >= 0 {
				bad(key+".name", b.Name, "a distinct, non-empty bin name")
			}
			names[n] = true
		}
	}
	if c.Text.Filter != "" {
		if k, v, ok := strings.Cut(c.Text.Filter, "="); !ok || strings.TrimSpace(k) == "" || strings.TrimSpace(v) == "" {
			bad("text.filter", c.Text.Filter, `"key=value" (a question tag and its value)`)
		}
	}
	if c.Text.Language != "" {
		if _, err := textsim.ParseLanguage(c.Text.Language); err != nil {
			bad("text.language", c.Text.Language, `a BCP 47 language tag such as "en", "de" or "zh-Hans", or "" to detect it`)
		}
	}
	finiteIn("criteria.hard_share", c.Criteria.HardShare, math.SmallestNonzeroFloat64, 1, "a share above 0 and at most 1")
	if c.Criteria.HardCount < 0 || c.Criteria.HardCount > 10_000_000 {
		bad("criteria.hard_count", c.Criteria.HardCount, "a count from 0 to 10000000 (0: use hard_share)")
	}
	finiteIn("criteria.parity_margin", c.Criteria.ParityMargin, 0, 1, "a margin from 0 to 1")
	if len(c.Responses.IDTemplate) > maxTextLen {
		bad("responses.id_template", c.Responses.IDTemplate[:40]+"…", fmt.Sprintf("at most %d bytes", maxTextLen))
	} else if _, err := providers.ParseIDTemplate(c.Responses.IDTemplate); err != nil {
		bad("responses.id_template", c.Responses.IDTemplate, "a request id template: "+err.Error())
	}
	if d := c.Responses.BatchDiscount; math.IsNaN(d) || d < 0 || d >= 1 {
		bad("responses.batch_discount", d, "a fraction from 0 up to (not including) 1")
	}
	switch v := c.Site.QuestionPages.(type) {
	case nil:
	case int64:
		if v < 1 || v > 1<<31 {
			bad("site.question_pages", v, `a positive number of pages or "all"`)
		}
	case string:
		if v != "all" {
			bad("site.question_pages", v, `a positive number of pages or "all"`)
		}
	default:
		bad("site.question_pages", v, `a positive number of pages or "all"`)
	}
	if c.Analysis.Bootstrap < 0 || c.Analysis.Bootstrap > maxReplicates {
		bad("analysis.bootstrap", c.Analysis.Bootstrap, fmt.Sprintf("a count from 0 to %d", maxReplicates))
	}
	if c.Analysis.Resamples < 0 || c.Analysis.Resamples > maxReplicates {
		bad("analysis.resamples", c.Analysis.Resamples, fmt.Sprintf("a count from 0 to %d", maxReplicates))
	}
	jp := c.Judges.Parse
	finiteIn("judges.parse.max_failed_share", jp.MaxFailedShare, 0, 1, "a share from 0 to 1")
	if _, err := judgeparse.New(c.JudgeSpec(), c.Rubric.Attributes); err != nil {
		for _, e := range strings.Split(err.Error(), "; ") {
			probs = append(probs, SettingError{Key: "judges.parse", Value: e, Expected: "JSON pointers starting with / for rubric attributes, checklist and rank, or a regex whose named groups are attributes, C1…Cn or rank (docs/FORMAT.md)"})
		}
	}
	if jp.IDTemplate != "" {
		if _, err := providers.ParseIDTemplate(jp.IDTemplate); err != nil {
			bad("judges.parse.id_template", jp.IDTemplate, strings.TrimPrefix(err.Error(), "providers: "))
		}
	}
	if c.Analysis.ExtremeEvaluators < 0 || c.Analysis.ExtremeEvaluators > maxExtreme {
		bad("analysis.extreme_evaluators", c.Analysis.ExtremeEvaluators, fmt.Sprintf("a count from 0 to %d", maxExtreme))
	}
	l := c.Limits
	const kib, mib, gib, tib = int64(1) << 10, int64(1) << 20, int64(1) << 30, int64(1) << 40
	intIn := func(key string, v, lo, hi int64) {
		if v < lo || v > hi {
			bad("limits."+key, v, fmt.Sprintf("an integer from %d to %d", lo, hi))
		}
	}
	intIn("files", int64(l.Files), 1, 10_000_000)
	intIn("xlsx_bytes", l.XLSXBytes, mib, tib)
	finiteIn("limits.xlsx_ratio", l.XLSXRatio, 2, 100_000, "a ratio from 2 to 100000")
	intIn("total_xlsx_bytes", l.TotalXLSXBytes, mib, tib)
	intIn("line_bytes", l.LineBytes, kib, 4*gib)
	intIn("cell_bytes", l.CellBytes, kib, 4*gib)
	intIn("columns", int64(l.Columns), 10, 10_000_000)
	intIn("response_bytes", l.ResponseBytes, kib, 4*gib)
	intIn("graders_per_response", int64(l.GradersPerResponse), 2, 100_000)
	intIn("xlsx_styles_bytes", l.XLSXStylesBytes, 64*kib, 4*gib)
	intIn("xlsx_strings_bytes", l.XLSXStringsBytes, 64*kib, 4*gib)
	intIn("xlsx_strings", l.XLSXStrings, 1_000, 1_000_000_000)
	return probs
}

// JudgeSpec is [judges.parse] as a judgeparse.Spec.
func (c Config) JudgeSpec() judgeparse.Spec {
	jp := c.Judges.Parse
	return judgeparse.Spec{Rubric: jp.Rubric, Checklist: jp.Checklist, Rank: jp.Rank, Regex: jp.Regex}
}

// JudgeIDTemplate is the effective request-id template of judge batch files.
func (c Config) JudgeIDTemplate() string {
	if c.Judges.Parse.IDTemplate != "" {
		return c.Judges.Parse.IDTemplate
	}
	return c.Responses.IDTemplate
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
	var ptrs []string
	for k, v := range c.Judges.Parse.Rubric {
		ptrs = append(ptrs, strconv.Quote(k)+" = "+strconv.Quote(v))
	}
	sort.Strings(ptrs)
	var imps []string
	for k, v := range c.Import {
		imps = append(imps, strconv.Quote(k)+" = "+strconv.Quote(v))
	}
	sort.Strings(imps)
	pairs := [][2]string{
		{"title", c.Title},
		{"human_label", c.HumanLabel},
		{"main_round", c.MainRound},
		{"columns", strings.Join(cols, ", ")},
		{"sheets.include", strings.Join(c.Sheets.Include, ", ")},
		{"sheets.exclude", strings.Join(c.Sheets.Exclude, ", ")},
		{"sheets.header_row", strconv.Itoa(c.Sheets.HeaderRow)},
		{"sheets.evaluator_from", c.Sheets.EvaluatorFrom},
		{"rubric.attributes", strings.Join(c.Rubric.Attributes, ", ")},
		{"rubric.min", FormatDecimal(c.Rubric.Min)},
		{"rubric.max", FormatDecimal(c.Rubric.Max)},
		{"solve.rubric_threshold", f(c.Solve.RubricThreshold)},
		{"solve.checklist_threshold", f(c.Solve.ChecklistThreshold)},
		{"solve.partial_credit", f(c.Solve.PartialCredit)},
		{"difficulty.bins", strings.Join(bins, ", ")},
		{"text.stemmer", strconv.FormatBool(c.Stemmer())},
		{"text.filter", c.Text.Filter},
		{"text.language", c.Text.Language},
		{"criteria.hard_share", f(c.Criteria.HardShare)},
		{"criteria.hard_count", strconv.Itoa(c.Criteria.HardCount)},
		{"criteria.parity_margin", f(c.Criteria.ParityMargin)},
		{"responses.id_template", c.Responses.IDTemplate},
		{"responses.batch_discount", f(c.Responses.BatchDiscount)},
		{"analysis.seed", strconv.FormatUint(c.Analysis.Seed, 10)},
		{"analysis.bootstrap", strconv.Itoa(c.Analysis.Bootstrap)},
		{"analysis.resamples", strconv.Itoa(c.Analysis.Resamples)},
		{"analysis.extreme_evaluators", strconv.Itoa(c.Analysis.ExtremeEvaluators)},
		{"judges.parse.rubric", strings.Join(ptrs, ", ")},
		{"judges.parse.checklist", c.Judges.Parse.Checklist},
		{"judges.parse.rank", c.Judges.Parse.Rank},
		{"judges.parse.regex", c.Judges.Parse.Regex},
		{"judges.parse.id_template", c.Judges.Parse.IDTemplate},
		{"judges.parse.max_failed_share", f(c.Judges.Parse.MaxFailedShare)},
		{"site.question_pages", sitePages(c.SiteQuestionPages())},
	}
	pairs = append(pairs, c.scalePairs()...)
	pairs = append(pairs, c.reportPairs()...)
	pairs = append(pairs, c.comparePairs()...)
	if len(imps) > 0 { // listed only when set, so studies without it keep their settings table
		pairs = append(pairs, [2]string{"import", strings.Join(imps, ", ")})
	}
	return append(pairs, c.sheetFilePairs()...)
}

// sheetFilePairs lists the [sheets.files] settings, by path (none when
// there are none, so that studies without them list the same settings).
func (c Config) sheetFilePairs() [][2]string {
	var out [][2]string
	for _, p := range sortedKeys(c.Sheets.Files) {
		f := c.Sheets.Files[p]
		key := "sheets.files." + strconv.Quote(p)
		if f.EvaluatorFrom != "" {
			out = append(out, [2]string{key + ".evaluator_from", f.EvaluatorFrom})
		}
		if f.HeaderRow > 0 {
			out = append(out, [2]string{key + ".header_row", strconv.Itoa(f.HeaderRow)})
		}
	}
	return out
}

// sortedKeys returns the keys of a map in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
