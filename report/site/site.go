// Package site writes a report.Report as a static HTML site that works opened
// from disk with no network: index.html (findings first: headline sentences
// with intervals and tests and a Methods paragraph ready to paste, from
// report/findings; then how to read the numbers, the study at a glance, the
// summary table with its intervals, the Solve Rate figure, links to every
// section and the instruments present and missing), one page per section
// that has tables or figures (dataset.html, rubric.html, …) opening with the
// section's definitions and thresholds, one page per question under
// questions/ and a searchable, sortable question index
// questions/index.html.
//
// Figures are drawn by ECharts 5.4.3, which the site carries as
// assets/echarts.min.js; pages refer to it and to assets/site.js and
// assets/site.css by relative paths ("assets/…" from the top pages,
// "../assets/…" from questions/), and the output holds no network address of
// its own. The package embeds the folder report/site/assets with go:embed;
// `make assets` puts echarts.min.js there before the build. A binary built
// without it still writes the whole site, with a banner on every page saying
// how to get the charts and every figure's data shown as a table, and Write
// returns a warning.
//
// Every text of the report is untrusted: pages are made with html/template;
// a chart's option is built with go-echarts' option structs and marshalled
// with encoding/json (which escapes <, > and &) inside a
// <script type="application/json"> element, read with JSON.parse — go-echarts'
// Render methods, which write options unescaped, are never called (see
// charts.go); chart tooltips are built by an escaping formatter in
// assets/site.js.
//
// Every chart has export buttons (a 1920×1080 PNG and an SVG, each with
// title, subtitle and footnote), its title, axis names and units, a legend
// when it draws two or more series, tooltips and a text description made
// from its data; each model has one colour and symbol in every chart
// (format.Palette, in the order of the models table) and is called by its
// display name; scatter points carry their labels; p-values are drawn on a
// log axis (report.Figure.LogY). Below 600 px bar charts turn horizontal.
// Each figure links to the CSV of its table (tables/<Table>.csv inside the
// site, which carries them so that it works copied alone)
// and shows its data as a table. Numbers follow report/format: rates as
// percent, rate intervals inside [0 %, 100 %], scores in rubric points,
// p-values in scientific notation below 0.001, differences of rates in
// percentage points. Column heads are written for people, with the CSV
// column name in the tooltip. Tables with a model and a Solve Rate are
// ordered by Solve Rate with the place shown (#); every table is sortable by
// a click on a column head; long tables show their first
// Options.MaxTableRows rows. Pages print cleanly (print CSS opens every
// collapsed block, keeps each chart on one page and fits tables to the
// width). The same Report gives the same bytes.
package site

import (
	"bytes"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/euroexec/euroexec/internal/crash"
	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/csvout"
	"github.com/euroexec/euroexec/report/findings"
	"github.com/euroexec/euroexec/report/format"
)

//go:embed assets
var embedded embed.FS

//go:embed templates/pages.html
var pagesHTML string

//go:embed static/site.js
var siteJS []byte

//go:embed static/site.css
var siteCSS []byte

// EChartsFile is the chart library's file name inside the assets folder.
const EChartsFile = "echarts.min.js"

// Options control Write. A zero field takes its default.
type Options struct {
	// Assets is the folder that holds echarts.min.js. Default (nil): the
	// assets embedded in the binary (report/site/assets at build time).
	Assets fs.FS
	// MaxTableRows caps the rows a table shows on its page; the CSV has
	// them all. Default 500.
	MaxTableRows int
	// MaxCellChars caps the characters of one table cell on a section page;
	// longer text is cut with a marker (question pages show texts whole).
	// Default 600.
	MaxCellChars int
	// TablesHref is the path from the site folder to the CSV folder.
	// Default "tables/": the site carries the CSV of every table and
	// figure it links to, and notes.csv, in its own tables/ folder, so
	// that the folder works copied alone. A path that leaves the site
	// ("../tables/") links there and writes no CSV.
	TablesHref string
	// Workers is the number of goroutines writing the pages. Default
	// runtime.GOMAXPROCS(0). The output does not depend on it.
	Workers int
	// IndexRows is the most questions listed in the HTML of
	// questions/index.html. Above it the index is a search page whose rows
	// come from data files (questions/data/q-NNNN.js, IndexRows rows each,
	// loaded with <script> so that it works from disk), keeping every page
	// under 1 MB. Default 2000.
	IndexRows int
	// Order orders the models in tables with a model and a solve_rate
	// column: format.OrderRank (by Solve Rate, highest first) or
	// format.OrderAlpha (by display name); the place (#) by Solve Rate is
	// shown either way. Default "" = format.OrderRank.
	Order format.Order
}

// DefaultOptions are the options `euroexec run` uses.
var DefaultOptions = Options{MaxTableRows: 500, MaxCellChars: 600, TablesHref: "tables/"}

func (o Options) withDefaults() Options {
	if o.Assets == nil {
		sub, err := fs.Sub(embedded, "assets")
		if err == nil {
			o.Assets = sub
		}
	}
	if o.IndexRows <= 0 {
		o.IndexRows = 2000
	}
	if o.MaxTableRows <= 0 {
		o.MaxTableRows = DefaultOptions.MaxTableRows
	}
	if o.MaxCellChars <= 0 {
		o.MaxCellChars = DefaultOptions.MaxCellChars
	}
	if o.TablesHref == "" {
		o.TablesHref = DefaultOptions.TablesHref
	}
	if !strings.HasSuffix(o.TablesHref, "/") {
		o.TablesHref += "/"
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	return o
}

// HasECharts says whether this binary embeds echarts.min.js.
func HasECharts() bool {
	_, err := fs.Stat(embedded, "assets/"+EChartsFile)
	return err == nil
}

// MissingEChartsWarning is the warning Write returns when it has no
// echarts.min.js.
const MissingEChartsWarning = "site: charts not drawn: this binary was built without assets/echarts.min.js; run `make assets` and rebuild (make build) to get ECharts 5.4.3"

// Section titles, in page order.
var sectionTitles = []struct{ key, title string }{
	{report.SectionOverview, "Overview"},
	{report.SectionDataset, "Dataset"},
	{report.SectionRubric, "Rubric and Solve Rate"},
	{report.SectionChecklist, "Checklist"},
	{report.SectionConsistency, "Consistency and significance"},
	{report.SectionAutomatic, "Automatic metrics"},
	{report.SectionJudges, "LLM judges"},
	{report.SectionJudgeAudit, "Judge audit"},
	{report.SectionCost, "Cost and length"},
	{report.SectionPRBench, "PRBench criteria"},
	{report.SectionPairwise, "Pairwise preferences"},
	{report.SectionBeyond, "Beyond the paper"},
	{report.SectionCompare, "Comparison"},
}

var tmpl = template.Must(template.New("site").Parse(pagesHTML))

// Write writes the site for r into dir (created if needed; existing files of
// the same names are replaced). It returns the warnings (the missing chart
// library) and an error naming the page that could not be written. A
// cancelled ctx stops it between pages and returns ctx's error (the pages
// written so far stay; the caller writes into a temporary folder).
func Write(ctx context.Context, dir string, r *report.Report, opt Options) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if r == nil {
		return nil, fmt.Errorf("site: nil report")
	}
	opt = opt.withDefaults()
	var warnings []string
	var echarts []byte
	if opt.Assets != nil {
		if b, err := fs.ReadFile(opt.Assets, EChartsFile); err == nil && len(b) > 0 {
			echarts = b
		}
	}
	if echarts == nil {
		warnings = append(warnings, MissingEChartsWarning)
	}
	for _, d := range []string{dir, filepath.Join(dir, "assets"), filepath.Join(dir, "questions")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return warnings, fmt.Errorf("site: create %s: %w", d, err)
		}
	}
	assets := map[string][]byte{"site.js": siteJS, "site.css": siteCSS}
	if echarts != nil {
		assets[EChartsFile] = echarts
	}
	for name, b := range assets {
		p := filepath.Join(dir, "assets", name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return warnings, fmt.Errorf("site: write %s: %w", p, err)
		}
	}
	b := newBuilder(r, opt, echarts == nil)
	b.ctx = ctx
	if err := b.writeAll(dir); err != nil {
		return warnings, err
	}
	if err := b.writeTables(dir); err != nil {
		return warnings, err
	}
	return warnings, nil
}

// writeTables writes, when Options.TablesHref is a folder inside the site,
// the CSV of every table a page shows or a figure draws, and notes.csv,
// into it (the same bytes as csvout writes to OUT/tables).
func (b *builder) writeTables(dir string) error {
	rel := strings.TrimSuffix(b.opt.TablesHref, "/")
	if rel == "" || path.IsAbs(rel) || strings.Contains(rel, ":") || slices.Contains(strings.Split(rel, "/"), "..") {
		return nil
	}
	out := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(out, 0o755); err != nil {
		return fmt.Errorf("site: create %s: %w", out, err)
	}
	linked := map[string]bool{}
	for name := range b.tableSec {
		linked[name] = true
	}
	for _, f := range b.r.Figures {
		if f != nil && f.Table != "" {
			linked[f.Table] = true
		}
	}
	for _, t := range b.r.Tables {
		if t == nil || !linked[t.Name] || t.Name == csvout.NotesName {
			continue
		}
		if err := b.ctx.Err(); err != nil {
			return err
		}
		var buf bytes.Buffer
		if err := csvout.WriteTable(&buf, t); err != nil {
			return fmt.Errorf("site: table %s: %w", t.Name, err)
		}
		p := filepath.Join(out, filepath.Base(t.Name)+".csv")
		if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
			return fmt.Errorf("site: write %s: %w", p, err)
		}
	}
	var buf bytes.Buffer
	if err := csvout.WriteNotes(&buf, b.r.Notes); err != nil {
		return fmt.Errorf("site: notes: %w", err)
	}
	p := filepath.Join(out, csvout.NotesName+".csv")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("site: write %s: %w", p, err)
	}
	return nil
}

// builder holds what every page shares.
type builder struct {
	ctx        context.Context
	r          *report.Report
	opt        Options
	noECharts  bool
	nav        []navItem
	sections   map[string]*sectionContent
	order      []string
	qfiles     []string          // per question its page file; "" = none
	pages      []int             // the questions with a page, in order
	tableSec   map[string]string // table name → section page file
	style      *chartStyle       // one colour and display name per model
	evaluators []*evalView       // one page each under evaluators/
	diffOrder  map[string]int    // difficulty bin → its row in the difficulty table
	// questionTop is the "top" template rendered once for every question
	// page (writeQuestions); "" before
	questionTop template.HTML
	// head is the metric the model tables are ordered by (the report's
	// primary metric), computed once by newBuilder.
	head headline
}

// headline returns the report's primary metric.
func (b *builder) headline() headline { return b.head }

type navItem struct {
	Key, Title, File string
	Tables, Figures  int
}

type sectionContent struct {
	key, title, file string
	tables           []*report.Table
	figures          []*report.Figure
}

func newBuilder(r *report.Report, opt Options, noECharts bool) *builder {
	b := &builder{r: r, opt: opt, noECharts: noECharts, sections: map[string]*sectionContent{}, tableSec: map[string]string{},
		style: newChartStyle(r), head: headlineOf(r)}
	known := map[string]string{}
	for _, s := range sectionTitles {
		known[s.key] = s.title
	}
	get := func(key string) *sectionContent {
		if key == "" {
			key = "other"
		}
		if sc, ok := b.sections[key]; ok {
			return sc
		}
		title, ok := known[key]
		if !ok {
			title = key
		}
		sc := &sectionContent{key: key, title: title}
		b.sections[key] = sc
		return sc
	}
	for _, t := range r.Tables {
		if t != nil {
			sc := get(t.Section)
			sc.tables = append(sc.tables, t)
		}
	}
	for _, f := range r.Figures {
		if f != nil {
			sc := get(f.Section)
			sc.figures = append(sc.figures, f)
		}
	}
	// Page order: the known sections in order, then the others by first use.
	for _, s := range sectionTitles {
		if _, ok := b.sections[s.key]; ok {
			b.order = append(b.order, s.key)
		}
	}
	seen := map[string]bool{}
	for _, k := range b.order {
		seen[k] = true
	}
	addOther := func(key string) {
		if key == "" {
			key = "other"
		}
		if !seen[key] {
			seen[key] = true
			b.order = append(b.order, key)
		}
	}
	for _, t := range r.Tables {
		if t != nil {
			addOther(t.Section)
		}
	}
	for _, f := range r.Figures {
		if f != nil {
			addOther(f.Section)
		}
	}
	usedFiles := map[string]bool{"index": true, "questions": true, "assets": true}
	for _, k := range b.order {
		sc := b.sections[k]
		if k == report.SectionOverview {
			sc.file = "index.html"
		} else {
			sc.file = uniqueName(safeName(k), usedFiles) + ".html"
			b.nav = append(b.nav, navItem{Key: k, Title: sc.title, File: sc.file, Tables: len(sc.tables), Figures: len(sc.figures)})
		}
		for _, t := range sc.tables {
			if _, dup := b.tableSec[t.Name]; !dup {
				b.tableSec[t.Name] = sc.file
			}
		}
	}
	qused := map[string]bool{"index": true}
	for i, q := range r.Questions {
		id := ""
		if q != nil {
			id = q.ID
		}
		if q != nil && q.Summary {
			b.qfiles = append(b.qfiles, "") // listed in the index, no page
			continue
		}
		b.qfiles = append(b.qfiles, uniqueName(safeName(id), qused)+".html")
		b.pages = append(b.pages, i)
	}
	b.evaluators = b.evaluatorViews()
	b.diffOrder = map[string]int{}
	if t := r.Table("difficulty"); t != nil {
		for i, row := range t.Rows {
			if s, ok := at(row, 0).(string); ok {
				b.diffOrder[s] = i
			}
		}
	}
	return b
}

// safeName makes a file stem from any text: ASCII letters, digits, '-' and
// '_' are kept, every other character becomes '_'; when anything changed (or
// the stem is over 80 characters) the first 8 hex digits of the text's SHA-256
// are appended, so distinct ids keep distinct, stable names.
func safeName(s string) string {
	var b strings.Builder
	changed := false
	for _, c := range s {
		if c == '-' || c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') {
			b.WriteRune(c)
		} else {
			b.WriteByte('_')
			changed = true
		}
	}
	out := b.String()
	if len(out) > 80 {
		out = out[:80]
		changed = true
	}
	if changed || out == "" {
		h := sha256.Sum256([]byte(s))
		out += "-" + hex.EncodeToString(h[:4])
	}
	return out
}

// QuestionFile is the path of question id's page relative to the site
// folder: questions/<name>.html, name being the id made safe for a file
// name (ASCII letters, digits, '-' and '_' kept; otherwise '_' and a short
// hash of the id added). Ids equal except for letter case get -2, -3, … in
// the order of the report's questions; this function gives the first.
func QuestionFile(id string) string { return "questions/" + safeName(id) + ".html" }

// uniqueName returns stem, or stem-2, stem-3, … when a name equal in lower
// case is already used, and records it.
func uniqueName(stem string, used map[string]bool) string {
	cand := stem
	for i := 2; used[strings.ToLower(cand)]; i++ {
		cand = stem + "-" + strconv.Itoa(i)
	}
	used[strings.ToLower(cand)] = true
	return cand
}

// pageData is what the "page" template renders.
type pageData struct {
	Kind, Title, Active string
	Study, Version      string
	RunTime             string
	Root                string
	Nav                 []navItem
	HasQuestions        bool
	HasEvaluators       bool
	HasCharts           bool
	NoECharts           bool

	// index: the findings and the guide to the numbers; section: the
	// section's definitions
	Findings    findings.Findings
	Definitions []report.KV

	// index
	Overview   report.Overview
	Notes      []report.Note
	Warnings   []string
	Settings   []report.KV
	Inputs     []report.InputFile
	TablesHref string
	Questions  []qRow
	// QTotal and QPages count the questions and those with a page; Shards
	// are the index data files (relative to questions/) when the index is
	// too large to be HTML.
	QTotal, QPages int
	Shards         []string

	// index: the leaderboard, shown first; nil when the study defines no
	// score per model
	Board *boardView
	// index of a comparison: what changed, shown first
	Changes *changesView
	// index: the headline chart (Solve Rate with intervals), shown right
	// after the findings; nil when the report has none
	Headline *figView

	// index and section
	Figures []figView
	Tables  []tableView

	// evaluators
	Evaluators []*evalView
	Evaluator  *evalView

	// question
	// Top, when not empty, is the page's head links, header and
	// navigation already rendered (the "top" template): the same for every
	// question page, so it is rendered once for all of them.
	Top       template.HTML
	Q         *report.QuestionPage
	Responses []respView
	HasLabels bool // a response of the question page has a blinded label
	// ResponseSections are the sections of Responses with their gradings,
	// written by responseSections (no template reflection: they are most
	// of a question page's bytes).
	ResponseSections template.HTML
	Prev, Next       string
}

func (b *builder) base(kind, title, active, root string) *pageData {
	study := b.r.Title
	if study == "" {
		study = "EuroExec"
	}
	rt := ""
	if !b.r.GeneratedAt.IsZero() {
		rt = b.r.GeneratedAt.UTC().Format("2006-01-02 15:04:05 UTC")
	}
	return &pageData{
		Kind: kind, Title: title, Active: active, Root: root,
		Study: study, Version: b.r.Version, RunTime: rt,
		Nav: b.nav, HasQuestions: len(b.r.Questions) > 0, HasEvaluators: len(b.evaluators) > 0, NoECharts: b.noECharts,
		TablesHref: root + b.opt.TablesHref,
	}
}

// writeAll writes every page: the overview, the section pages, the
// evaluator pages, the question index and the question pages. The pages
// are independent (each reads only the report and the builder, which
// newBuilder made and nothing changes), so they are rendered by
// opt.Workers goroutines from one queue; each file is the same whatever
// the order. The errors of the pages that failed are joined in page order.
func (b *builder) writeAll(dir string) error {
	jobs := []func() error{func() error { return b.writeIndex(dir) }}
	// Section pages.
	for _, k := range b.order {
		sc := b.sections[k]
		// The further pages of its paged tables.
		for _, t := range sc.tables {
			for k := 2; k <= b.tablePages(t); k++ {
				jobs = append(jobs, func() error {
					p := b.base("section", fmt.Sprintf("%s: %s, page %d of %d", sc.title, t.Title, k, b.tablePages(t)), sc.key, "")
					p.Tables = []tableView{b.tablePage(t, map[string]bool{}, k, sc.file)}
					return b.render(filepath.Join(dir, pagedFile(sc.file, t.Name, k)), p)
				})
			}
		}
		if sc.file == "index.html" {
			continue
		}
		jobs = append(jobs, func() error {
			p := b.base("section", sc.title, k, "")
			p.Definitions = b.sectionDefinitions(k)
			if err := b.fill(p, sc.figures, sc.tables, map[string]bool{}, sc.file); err != nil {
				return err
			}
			return b.render(filepath.Join(dir, sc.file), p)
		})
	}
	// Evaluators.
	ej, err := b.evaluatorJobs(dir, b.evaluators)
	if err != nil {
		return fmt.Errorf("site: evaluators: %w", err)
	}
	jobs = append(jobs, ej...)
	// Questions.
	if len(b.r.Questions) > 0 {
		jobs = append(jobs, func() error { return b.writeQuestionIndex(dir) })
		qj, err := b.questionJobs(filepath.Join(dir, "questions"))
		if err != nil {
			return err
		}
		jobs = append(jobs, qj...)
	}
	return b.runJobs(jobs)
}

// runJobs runs the page jobs with opt.Workers goroutines, in queue order;
// a worker stops at the first cancelled check of ctx. It returns the
// jobs' errors joined in job order.
func (b *builder) runJobs(jobs []func() error) error {
	errs := make([]error, len(jobs))
	var next int
	var mu sync.Mutex
	var wg sync.WaitGroup
	var relay crash.Relay // a worker's panic is raised again here
	for w := 0; w < min(max(b.opt.Workers, 1), len(jobs)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer relay.Catch()
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= len(jobs) {
					return
				}
				if b.ctx != nil && b.ctx.Err() != nil {
					errs[i] = fmt.Errorf("site: %w", b.ctx.Err())
					return // cancelled: no more pages
				}
				errs[i] = jobs[i]()
			}
		}()
	}
	wg.Wait()
	relay.Raise()
	return errors.Join(errs...)
}

// writeIndex writes index.html, the overview.
func (b *builder) writeIndex(dir string) error {
	// index.html
	idx := b.base("index", "Overview", "index", "")
	idx.Overview = b.r.Overview
	idx.Findings = findings.Make(b.r)
	idx.Board = b.leaderboardView()
	idx.Changes = b.changesSection()
	idx.Definitions = b.howToRead()
	idx.Notes = b.r.Notes
	idx.Warnings = b.r.Warnings
	idx.Settings = b.r.Settings
	idx.Inputs = b.r.Inputs
	idx.Questions = make([]qRow, len(b.r.Questions))
	ids := map[string]bool{}
	var figs []*report.Figure
	var tabs []*report.Table
	// The headline figure and table first, then the rest of the overview
	// section.
	headline := b.headlineFigure()
	if headline != nil {
		figs = append(figs, headline)
	}
	for _, f := range b.r.Figures {
		// a comparison's other delta dot plots follow the first
		if f != nil && f != headline && strings.HasPrefix(f.ID, deltaPrefix) {
			figs = append(figs, f)
		}
	}
	if t := b.r.Table("summary"); t != nil {
		tabs = append(tabs, t)
	}
	if sc := b.sections[report.SectionOverview]; sc != nil {
		for _, f := range sc.figures {
			if len(figs) == 0 || f != figs[0] {
				figs = append(figs, f)
			}
		}
		for _, t := range sc.tables {
			if len(tabs) == 0 || t != tabs[0] {
				tabs = append(tabs, t)
			}
		}
	}
	if err := b.fill(idx, figs, tabs, ids, "index.html"); err != nil {
		return err
	}
	if headline != nil {
		// the first screen: findings, then this chart, then the Methods
		idx.Headline = &idx.Figures[0]
		idx.Figures = idx.Figures[1:]
	}
	return b.render(filepath.Join(dir, "index.html"), idx)
}

// writeQuestionIndex writes questions/index.html (and, above
// opt.IndexRows questions, its data shards).
func (b *builder) writeQuestionIndex(dir string) error {
	qi := b.base("qindex", "Questions", "questions", "../")
	qi.QTotal, qi.QPages = len(b.r.Questions), len(b.pages)
	if len(b.r.Questions) <= b.opt.IndexRows {
		for i, q := range b.r.Questions {
			qi.Questions = append(qi.Questions, b.qrow(i, q))
		}
	} else {
		shards, err := b.writeIndexData(filepath.Join(dir, "questions", "data"))
		if err != nil {
			return err
		}
		qi.Shards = shards
	}
	return b.render(filepath.Join(dir, "questions", "index.html"), qi)
}

// deltaPrefix starts the ids of a comparison's delta dot plots
// (findings.DeltaFigures).
const deltaPrefix = "compare_delta_"

// headlineFigure is the Solve Rate figure of the index page: the first bar
// figure on the summary table, else the first bar figure whose id names the
// Solve Rate.
func (b *builder) headlineFigure() *report.Figure {
	// a comparison: the first delta dot plot of what changed
	for _, f := range b.r.Figures {
		if f != nil && strings.HasPrefix(f.ID, deltaPrefix) {
			return f
		}
	}
	// a primary metric with its own figure: the humans' Bradley–Terry
	// ratings, or the humans' clipped PRBench scores
	if id := map[string]string{"pairwise": "pairwise_bt_ratings", "prbench": "prbench_clipped_humans"}[b.head.key]; id != "" {
		for _, f := range b.r.Figures {
			if f != nil && f.ID == id {
				return f
			}
		}
	}
	for _, f := range b.r.Figures {
		if f != nil && f.Table == "summary" && (f.Kind == report.Bar || f.Kind == report.Histogram) {
			return f
		}
	}
	for _, f := range b.r.Figures {
		if f != nil && f.Kind == report.Bar && strings.Contains(strings.ToLower(f.ID), "solve_rate") {
			return f
		}
	}
	return nil
}

func (b *builder) fill(p *pageData, figs []*report.Figure, tabs []*report.Table, ids map[string]bool, file string) error {
	onPage := map[string]string{}
	for _, t := range tabs {
		tv := b.tablePage(t, ids, 1, file)
		onPage[t.Name] = tv.DOMID
		p.Tables = append(p.Tables, tv)
	}
	for _, f := range figs {
		fv, err := b.figView(f, ids, onPage)
		if err != nil {
			return fmt.Errorf("site: %s: %w", file, err)
		}
		p.Figures = append(p.Figures, fv)
	}
	p.HasCharts = len(p.Figures) > 0
	return nil
}

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func (b *builder) render(path string, p *pageData) error {
	if b.ctx != nil && b.ctx.Err() != nil {
		return fmt.Errorf("site: %w", b.ctx.Err())
	}
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer bufPool.Put(buf)
	if err := tmpl.ExecuteTemplate(buf, "page", p); err != nil {
		return fmt.Errorf("site: render %s: %w", path, err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("site: write %s: %w", path, err)
	}
	return nil
}

// --- tables ---------------------------------------------------------------

// headCell is a column head: Name for people, the CSV column name in CSV
// (shown in the tooltip with the column's doc).
type headCell struct {
	Name, Doc, CSV string
	Num            bool
}

// dataCell is one shown value; Title is its tooltip (a model's id).
type dataCell struct {
	Text, Sort, Class, Title string
	Href                     string // a relative address: the cell is a link
	Undefined                bool
}

type grid struct {
	Head []headCell
	Rows [][]dataCell
}

type tableView struct {
	DOMID, Title, Doc string
	CSVHref, CSVFile  string
	Total, Shown      int
	Intervals         bool
	Ranked            bool // ordered by Solve Rate with a # column
	Grid              grid

	// Paging of a report.Table with Paged: this view shows rows From–To
	// (1-based) as page Page of Pages; Prev and Next link the neighbours.
	Page, Pages, From, To int
	Prev, Next            string
}

func domID(prefix, s string, used map[string]bool) string {
	return uniqueName(prefix+safeName(s), used)
}

// pagedFile is the file of page k (≥ 2) of paged table t on the section
// page file: "automatic.html" → "automatic-text_metrics-2.html"; page 1
// is file itself.
func pagedFile(file, table string, k int) string {
	if k <= 1 {
		return file
	}
	return strings.TrimSuffix(file, ".html") + "-" + table + "-" + strconv.Itoa(k) + ".html"
}

// tablePages is the number of pages of t on the site: more than one only
// for a Paged table longer than the row cap.
func (b *builder) tablePages(t *report.Table) int {
	if !t.Paged || len(t.Rows) <= b.opt.MaxTableRows {
		return 1
	}
	return (len(t.Rows) + b.opt.MaxTableRows - 1) / b.opt.MaxTableRows
}

// tablePage lays page k of table t out (rows (k−1)·cap … k·cap−1; page 1
// is every table's first rows) for the section page file, which the links
// of a paged table need. A column X that has X_lo and X_hi beside it is
// shown as "X [lo, hi]" in one cell.
func (b *builder) tablePage(t *report.Table, ids map[string]bool, k int, file string) tableView {
	tv := tableView{
		DOMID: domID("table-", t.Name, ids), Title: t.Title, Doc: t.Doc,
		CSVHref: b.opt.TablesHref + t.Name + ".csv", CSVFile: "tables/" + t.Name + ".csv",
		Total: len(t.Rows),
	}
	if tv.Title == "" {
		tv.Title = t.Name
	}
	col := map[string]int{}
	names := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		col[c.Name] = i
		names[i] = c.Name
	}
	headers, showIDs := format.Headers(names), format.ShowsIDs(names)
	for i, c := range t.Columns {
		if c.Header != "" {
			headers[i] = c.Header
		}
	}
	type shown struct{ i, lo, hi int }
	var cols []shown
	hidden := map[int]bool{}
	for i, c := range t.Columns {
		lo, okLo := col[c.Name+"_lo"]
		hi, okHi := col[c.Name+"_hi"]
		if okLo && okHi {
			hidden[lo], hidden[hi] = true, true
			cols = append(cols, shown{i, lo, hi})
			tv.Intervals = true
		} else {
			cols = append(cols, shown{i, -1, -1})
		}
	}
	for _, s := range cols {
		if hidden[s.i] {
			continue
		}
		c := t.Columns[s.i]
		name := headers[s.i]
		csv := c.Name
		if s.lo >= 0 {
			name += " [lo, hi]"
			csv += ", " + t.Columns[s.lo].Name + ", " + t.Columns[s.hi].Name
		}
		doc := c.Doc
		if doc != "" {
			doc += " "
		}
		doc += "(CSV column: " + csv + ")"
		tv.Grid.Head = append(tv.Grid.Head, headCell{Name: name, Doc: doc, CSV: csv, Num: c.Kind != report.Text && c.Kind != report.Link})
	}
	h := b.headline()
	order, rank, ranked := headlineOrder(t, b.opt.Order, b.style.name, h)
	if ranked {
		tv.Grid.Head = append([]headCell{{Name: "#", Doc: "place by " + h.describe() + " within its block; equal " + h.plural() + " share it (not in the CSV)", Num: true}}, tv.Grid.Head...)
		tv.Ranked = true
	}
	start := 0
	if pages := b.tablePages(t); pages > 1 {
		start = (k - 1) * b.opt.MaxTableRows
		tv.Page, tv.Pages, tv.From = k, pages, start+1
		if k > 1 {
			tv.Prev = pagedFile(file, t.Name, k-1)
		}
		if k < pages {
			tv.Next = pagedFile(file, t.Name, k+1)
		}
	}
	end := min(len(t.Rows), start+b.opt.MaxTableRows)
	tv.Shown, tv.To = end-start, end
	for k := start; k < end; k++ {
		ri := k
		if ranked {
			ri = order[k]
		}
		row := t.Rows[ri]
		var cells []dataCell
		if ranked {
			r := strconv.Itoa(rank[k])
			cells = append(cells, dataCell{Text: r, Sort: r, Class: "num"})
		}
		for _, s := range cols {
			if hidden[s.i] {
				continue
			}
			col := t.Columns[s.i]
			c := b.colCell(at(row, s.i), col)
			if showIDs && modelColumns[col.Name] {
				c = b.cell(at(row, s.i), col.Kind) // the ids, beside their display names
			}
			if col.Kind == report.Link {
				c = linkCell(at(row, s.i))
			}
			if s.lo >= 0 && !c.Undefined {
				lo, hi := at(row, s.lo), at(row, s.hi)
				if col.Kind == report.Fraction && !format.IsDifference(col.Name) {
					lo, hi = clampAny(lo), clampAny(hi)
				}
				c.Text += " [" + b.colCell(lo, col).Text + ", " + b.colCell(hi, col).Text + "]"
			}
			cells = append(cells, c)
		}
		tv.Grid.Rows = append(tv.Grid.Rows, cells)
	}
	return tv
}

// linkCell shows a Link column's relative address as a link named "open";
// an address with a scheme or a host ("x:", "//") is shown as text, so a
// page never links out of the reports on disk.
func linkCell(v any) dataCell {
	s, _ := v.(string)
	if s == "" {
		return dataCell{}
	}
	if strings.Contains(s, ":") || strings.HasPrefix(s, "//") || strings.Contains(s, "\\") {
		return dataCell{Text: s}
	}
	return dataCell{Text: "open", Href: s, Sort: s}
}

func at(row []any, i int) any {
	if i < len(row) {
		return row[i]
	}
	return nil
}

// colCell formats one value of a table column by the column's quantity:
// p-values in p-value form, differences of rates in percentage points, model
// ids as display names (the id in the tooltip).
func (b *builder) colCell(v any, col report.Column) dataCell {
	if x, ok := v.(float64); ok && !math.IsNaN(x) {
		switch {
		case format.IsPValue(col.Name) && col.Kind != report.Text:
			return dataCell{Text: format.PValue(x), Sort: strconv.FormatFloat(x, 'g', -1, 64), Class: "num"}
		case col.Kind == report.Fraction && format.IsDifference(col.Name):
			return dataCell{Text: format.PercentPoints(x), Sort: strconv.FormatFloat(x, 'g', -1, 64), Class: "num"}
		case col.Kind == report.Float && strings.Contains(col.Name, "rubric"):
			return dataCell{Text: format.Points(x), Sort: strconv.FormatFloat(x, 'g', -1, 64), Class: "num"}
		}
	}
	if id, ok := v.(string); ok && modelColumns[col.Name] {
		if d := b.style.name(id); d != id {
			return dataCell{Text: d, Title: id}
		}
	}
	return b.cell(v, col.Kind)
}

// clampAny clamps a float64 rate into [0, 1].
func clampAny(v any) any {
	if x, ok := v.(float64); ok {
		return format.ClampRate(x)
	}
	return v
}

// cell formats one value for display; Sort holds the raw number for sorting.
func (b *builder) cell(v any, kind report.ColumnKind) dataCell {
	switch x := v.(type) {
	case nil:
		return dataCell{Text: "—", Undefined: true, Class: "undef"}
	case string:
		return dataCell{Text: cutText(x, b.opt.MaxCellChars)}
	case bool:
		return dataCell{Text: strconv.FormatBool(x)}
	case float32:
		return b.cell(float64(x), kind)
	case int:
		return b.cell(int64(x), kind)
	case int32:
		return b.cell(int64(x), kind)
	case int64:
		if kind == report.Fraction || kind == report.Float {
			return b.cell(float64(x), kind)
		}
		s := strconv.FormatInt(x, 10)
		return dataCell{Text: s, Sort: s, Class: "num"}
	case float64:
		if math.IsNaN(x) {
			return dataCell{Text: "—", Undefined: true, Class: "num undef"}
		}
		sort := strconv.FormatFloat(x, 'g', -1, 64)
		if kind == report.Fraction {
			return dataCell{Text: FormatPercent(x), Sort: sort, Class: "num"}
		}
		return dataCell{Text: FormatNumber(x), Sort: sort, Class: "num"}
	default:
		return dataCell{Text: fmt.Sprint(x)}
	}
}

// FormatPercent shows a fraction as a percent with one decimal: 0.569 →
// "56.9 %". NaN is "—". It is format.Percent.
func FormatPercent(x float64) string { return format.Percent(x) }

// FormatNumber shows a float for people: three decimals below 1000, one
// decimal from 1000, exponent form with two decimals below 0.001 or from 1e6
// up (4.00e-05); 0 is "0"; NaN is "—". It is format.Number.
func FormatNumber(x float64) string { return format.Number(x) }

// cutText shortens text for a table cell, saying how much was left out.
func cutText(s string, n int) string {
	if len(s) <= n || utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + fmt.Sprintf(" … [%d more characters]", len(r)-n)
}

// --- figures --------------------------------------------------------------

type figView struct {
	// Warning says the figure rests on few points (empty when it does not).
	Warning              string
	DOMID, SpecID, Title string
	Spec                 template.JS
	Caption              string
	TableHref, TableFile string
	TableAnchor          string
	Dropped              int
	Data                 grid
	// Whiskers says what the whiskers are and which were left out.
	Whiskers string
	// Desc is the chart's description for screen readers, from its data.
	Desc string
}

func (b *builder) figView(f *report.Figure, ids map[string]bool, onPage map[string]string) (figView, error) {
	id := f.ID
	if id == "" {
		id = f.Title
	}
	fv := figView{DOMID: domID("fig-", id, ids), Title: f.Title}
	fv.SpecID = fv.DOMID + "-spec"
	ids[strings.ToLower(fv.SpecID)] = true
	spec, info, err := buildSpec(f, b.style)
	if err != nil {
		return fv, err
	}
	fv.Spec = template.JS(spec) // json.Marshal escaped <, >, & and U+2028/9
	var parts []string
	if f.XName != "" {
		parts = append(parts, "x: "+axisName(f.XName, f.XUnit))
	}
	if f.YName != "" {
		y := axisName(f.YName, f.YUnit)
		if f.Percent && f.YUnit == "" && f.Kind != report.Heatmap {
			y += " (%)"
		}
		parts = append(parts, "y: "+y)
	}
	if f.Kind == report.Heatmap && f.Percent {
		parts = append(parts, "cells: %")
	}
	if f.LogX {
		parts = append(parts, "log-scale x axis")
	}
	if len(parts) > 0 {
		fv.Caption = strings.Join(parts, "; ") + "."
	}
	if f.Table != "" {
		fv.TableHref = b.opt.TablesHref + f.Table + ".csv"
		fv.TableFile = "tables/" + f.Table + ".csv"
		if a, ok := onPage[f.Table]; ok {
			fv.TableAnchor = "#" + a
		}
	}
	fv.Data = figureGrid(f, b)
	fv.Dropped = info.Dropped
	fv.Whiskers = info.Whiskers
	fv.Desc = info.Desc
	if info.Suppressed > 0 {
		fv.Whiskers += fmt.Sprintf(" %d intervals rest on fewer than 2 observations or have zero width: not drawn, their n is written at the value.", info.Suppressed)
	}
	fv.Warning = fewPoints(f)
	return fv, nil
}

// Few-point thresholds: a scatter with fewer than MinScatterPoints points
// and a curve (numeric line) with fewer than MinCurvePoints points get a
// small-sample warning.
const (
	MinScatterPoints = 5
	MinCurvePoints   = 3
)

// fewPoints is the small-sample warning of a figure, or "".
func fewPoints(f *report.Figure) string {
	switch f.Kind {
	case report.Scatter:
		n := 0
		for _, s := range f.Series {
			n += len(s.Points)
		}
		if n > 0 && n < MinScatterPoints {
			return fmt.Sprintf("Small sample: this chart rests on %d points; a fitted line or calibration from so few points is not to be relied on.", n)
		}
	case report.Line:
		least := -1
		for _, s := range f.Series {
			if len(s.Points) > 0 && (least < 0 || len(s.Points) < least) {
				least = len(s.Points)
			}
		}
		if least > 0 && least < MinCurvePoints {
			return fmt.Sprintf("Small sample: a curve here is drawn from %d points.", least)
		}
	}
	return ""
}

// maxFigRows caps the rows of a figure's data table.
const maxFigRows = 1000

// figureGrid is the figure's own data as a table.
func figureGrid(f *report.Figure, b *builder) grid {
	var g grid
	kind := report.Float
	if f.Percent {
		kind = report.Fraction
	}
	xkind := report.Float
	if f.Percent && f.XUnit == "%" {
		xkind = report.Fraction
	}
	switch f.Kind {
	case report.Heatmap:
		g.Head = []headCell{{Name: "series"}, {Name: orDefault(f.XName, "x")}, {Name: orDefault(f.YName, "y")}, {Name: "value", Num: true}}
		for _, s := range f.Series {
			for _, c := range s.Cells {
				if len(g.Rows) >= maxFigRows {
					break
				}
				g.Rows = append(g.Rows, []dataCell{{Text: s.Name}, {Text: pick(f.Categories, c.X)}, {Text: pick(f.YCategories, c.Y)}, b.cell(c.Value, kind)})
			}
		}
		return g
	}
	hasPoints := false
	for _, s := range f.Series {
		if len(s.Points) > 0 {
			hasPoints = true
		}
	}
	if hasPoints {
		g.Head = []headCell{{Name: "series"}, {Name: orDefault(axisName(f.XName, f.XUnit), "x"), Num: true}, {Name: orDefault(axisName(f.YName, f.YUnit), "y"), Num: true}, {Name: "label"}}
		for _, s := range f.Series {
			for _, p := range s.Points {
				if len(g.Rows) >= maxFigRows {
					break
				}
				g.Rows = append(g.Rows, []dataCell{{Text: s.Name}, b.cell(p.X, xkind), b.cell(p.Y, kind), {Text: p.Label}})
			}
		}
		for _, l := range f.Lines {
			g.Rows = append(g.Rows,
				[]dataCell{{Text: l.Name}, b.cell(l.X1, xkind), b.cell(l.Y1, kind), {Text: "reference line"}},
				[]dataCell{{Text: l.Name}, b.cell(l.X2, xkind), b.cell(l.Y2, kind), {Text: "reference line"}})
		}
		return g
	}
	g.Head = []headCell{{Name: orDefault(f.XName, "category")}}
	for _, s := range f.Series {
		name := s.Name
		if len(s.Lo) == len(f.Categories) && len(s.Hi) == len(f.Categories) && len(s.Lo) > 0 {
			name += " [lo, hi]"
		}
		g.Head = append(g.Head, headCell{Name: name, Num: true})
	}
	for i, c := range f.Categories {
		if i >= maxFigRows {
			break
		}
		row := []dataCell{{Text: c}}
		for _, s := range f.Series {
			v := math.NaN()
			if i < len(s.Values) {
				v = s.Values[i]
			}
			dc := b.cell(v, kind)
			if len(s.Lo) == len(f.Categories) && len(s.Hi) == len(f.Categories) && !dc.Undefined {
				dc.Text += " [" + b.cell(s.Lo[i], kind).Text + ", " + b.cell(s.Hi[i], kind).Text + "]"
			}
			row = append(row, dc)
		}
		g.Rows = append(g.Rows, row)
	}
	return g
}

func pick(s []string, i int) string {
	if i >= 0 && i < len(s) {
		return s[i]
	}
	return strconv.Itoa(i)
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}
