package xlsx

import (
	"archive/zip"
	"context"
	"encoding/xml"
	"io"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/format"
	"github.com/euroexec/euroexec/report/internal/reporttest"
	"github.com/xuri/excelize/v2"
)

func writeSmall(t *testing.T) (string, *excelize.File) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "report.xlsx")
	if err := Write(context.Background(), path, reporttest.Small(), DefaultOptions); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return path, f
}

func checkCell(t *testing.T, f *excelize.File, sheet, cell, want string) {
	t.Helper()
	got, err := f.GetCellValue(sheet, cell, excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatalf("%s!%s: %v", sheet, cell, err)
	}
	if got != want {
		t.Errorf("%s!%s = %q, want %q", sheet, cell, got, want)
	}
}

func numFmt(t *testing.T, f *excelize.File, sheet, cell string) string {
	t.Helper()
	id, err := f.GetCellStyle(sheet, cell)
	if err != nil {
		t.Fatal(err)
	}
	st, err := f.GetStyle(id)
	if err != nil {
		t.Fatal(err)
	}
	if st.CustomNumFmt != nil {
		return *st.CustomNumFmt
	}
	return "builtin:" + string(rune('0'+st.NumFmt))
}

func TestSheetsAndHeaders(t *testing.T) {
	_, f := writeSmall(t)
	want := []string{"Findings", "About", "Summary", "Charts", "Heat maps", "tiny", "solve_rate_by_difficulty", "judge_vs_human",
		"verdict_pairs", "pvalue_curve", "responses", "Notes", "Chart data"}
	if got := f.GetSheetList(); !slices.Equal(got, want) {
		t.Errorf("sheets = %q, want %q", got, want)
	}
	// row 1: headers for people; row 2: the CSV names, heading the table
	for i, h := range [][2]string{{"Set", "set"}, {"Graders", "graders"}, {"Model", "model"}, {"Gradings (n)", "n_gradings"},
		{"Solve Rate", "solve_rate"}, {"Solve Rate, lower end", "solve_rate_lo"}, {"Solve Rate, upper end", "solve_rate_hi"},
		{"Average rank", "avg_rank"}, {"Rubric (points)", "rubric"}} {
		for r := range h {
			c, _ := excelize.CoordinatesToCellName(i+1, r+1)
			checkCell(t, f, "Summary", c, h[r])
		}
	}
	checkCell(t, f, "Summary", "C4", reporttest.XSSModel)
	checkCell(t, f, "Summary", "E3", "0.75")
	checkCell(t, f, "Summary", "I5", "") // NaN → empty
	checkCell(t, f, "tiny", "E3", "1")   // bool true
	checkCell(t, f, "tiny", "C4", "0.0000001")

	// Percent on Fraction, decimal on Float, integer on Int.
	for _, tc := range []struct{ sheet, cell, want string }{
		{"Summary", "E3", "0.0%"}, {"Summary", "F4", "0.0%"}, {"Summary", "H3", "0.000"},
		{"Summary", "I3", "0.00"}, {"tiny", "D3", "0.0%"}, {"Summary", "D3", "builtin:1"}, // I: rubric, in points
	} {
		if got := numFmt(t, f, tc.sheet, tc.cell); got != tc.want {
			t.Errorf("%s!%s number format = %q, want %q", tc.sheet, tc.cell, got, tc.want)
		}
	}

	for _, s := range []string{"Summary", "tiny", "responses"} {
		p, err := f.GetPanes(s)
		if err != nil {
			t.Fatal(err)
		}
		if !p.Freeze || p.YSplit != 2 || p.TopLeftCell != "A3" {
			t.Errorf("%s panes = %+v, want the two header rows frozen", s, p)
		}
		tabs, err := f.GetTables(s)
		if err != nil {
			t.Fatal(err)
		}
		if len(tabs) != 1 {
			t.Errorf("%s: %d tables (filters), want 1", s, len(tabs))
		}
	}
	tabs, _ := f.GetTables("Summary")
	if len(tabs) == 1 && tabs[0].Range != "A2:I5" {
		t.Errorf("Summary filter range = %s, want A2:I5", tabs[0].Range)
	}
}

func TestTextStaysText(t *testing.T) {
	path, f := writeSmall(t)
	// responses: row 3 is alpha's formula-looking answer.
	checkCell(t, f, "responses", "D3", reporttest.FormulaAnswer)
	if fm, _ := f.GetCellFormula("responses", "D3"); fm != "" {
		t.Errorf("responses!D3 has formula %q, want none", fm)
	}
	typ, err := f.GetCellType("responses", "D3")
	if err != nil {
		t.Fatal(err)
	}
	if typ != excelize.CellTypeInlineString && typ != excelize.CellTypeSharedString {
		t.Errorf("responses!D3 type = %v, want a string type", typ)
	}
	// No formula element anywhere in the worksheets.
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	for _, zf := range zr.File {
		if !strings.HasPrefix(zf.Name, "xl/worksheets/sheet") {
			continue
		}
		rc, _ := zf.Open()
		b, _ := io.ReadAll(rc)
		rc.Close()
		if strings.Contains(string(b), "<f>") || strings.Contains(string(b), "<f ") {
			t.Errorf("%s holds a formula", zf.Name)
		}
	}

	// The 40,000-character answer (row 4): marker(40000) is
	// "… [cut: 40,000 more characters; full text in the site]" = 54
	// characters, so 32767 − 54 = 32713 characters are kept and
	// 40000 − 32713 = 7287 are cut; the final marker has 53 characters,
	// 32766 in all.
	got, _ := f.GetCellValue("responses", "D4")
	want := reporttest.LongText()[:32713] + "… [cut: 7,287 more characters; full text in the site]"
	if got != want {
		t.Errorf("long text: got %d characters ending %q, want %d ending %q",
			utf8.RuneCountInString(got), tail(got), utf8.RuneCountInString(want), tail(want))
	}
}

func tail(s string) string {
	r := []rune(s)
	if len(r) > 60 {
		r = r[len(r)-60:]
	}
	return string(r)
}

func TestAbout(t *testing.T) {
	_, f := writeSmall(t)
	rows, err := f.GetRows("About")
	if err != nil {
		t.Fatal(err)
	}
	var all []string
	for _, r := range rows {
		all = append(all, strings.Join(r, "\t"))
	}
	text := strings.Join(all, "\n")
	for _, want := range []string{
		"Test study <b>bold</b>",
		"Tool version\tv0.0.0-test",
		"The study\tWe evaluated 3 models on 2 questions",
		"How to read it\tStart with the Findings sheet",
		"Run time (UTC)\t2026-01-02 03:04:05",
		"questions.csv\td9b3a3cd7bd5b2e4e63ac7c8b1e6e8bb0d6b5cfad6ebbaa2d1b0bd3d0a1b2c3d\t2",
		"grades/humans/main/a.xlsx\t0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0\t12",
		"solve.checklist_threshold\t0.6",
		"Instruments missing\tcriteria, gate, cost",
		"Summary\ttables/summary.csv\tTable 4: Summary of results",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("About lacks %q", want)
		}
	}
	notes, _ := f.GetRows("Notes")
	if len(notes) < 2 || notes[1][0] != "cost_vs_solve" {
		t.Errorf("Notes rows = %q", notes)
	}
}

// The Small report has five figures: two bars, a scatter and a log-x line are
// charted (the log-x line on a linear axis: excelize cannot write a log x
// axis); the heatmap is no chart but a grid on the Heat maps sheet
// (TestHeatmaps).
func TestCharts(t *testing.T) {
	path, f := writeSmall(t)
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	charts := map[string]string{}
	drawings := 0
	for _, zf := range zr.File {
		if regexp.MustCompile(`^xl/charts/chart\d+\.xml$`).MatchString(zf.Name) {
			rc, _ := zf.Open()
			b, _ := io.ReadAll(rc)
			rc.Close()
			charts[zf.Name] = string(b)
		}
		if strings.HasPrefix(zf.Name, "xl/drawings/drawing") && strings.HasSuffix(zf.Name, ".xml") {
			drawings++
		}
	}
	// the four figures on the Charts sheet, and the headline figure again
	// beside the leaderboard on the Findings sheet
	if len(charts) != 5 || drawings != 2 {
		t.Fatalf("got %d charts in %d drawings, want 5 in 2", len(charts), drawings)
	}
	var all string
	for _, c := range charts {
		all += c
	}
	for _, want := range []string{"<barChart>", "<scatterChart>", "linear here, log scale on the site", "Solve Rate by model", "&#39;Chart data&#39;!$B$3:$B$5", `<varyColors val="0">`,
		// numeric x values, error bars of the intervals, dark ticks, log p axis,
		// a rate axis that stops at 100 %
		"<xVal><numRef>", `<errBars><errBarType val="both"></errBarType><errValType val="cust"></errValType><noEndCap val="0"></noEndCap><plus><numRef><f>&#39;Chart data&#39;!$C$3:$C$5</f>`,
		`222222`, `<logBase val="10"></logBase>`, `<max val="1"></max>`} {
		if !strings.Contains(all, want) {
			t.Errorf("charts lack %q", want)
		}
	}
	// The headline figure comes first, its data at the top of Chart data.
	checkCell(t, f, "Chart data", "A1", "Solve Rate by model [fig_solve_rate]")
	checkCell(t, f, "Chart data", "A3", "alpha")
	checkCell(t, f, "Chart data", "A4", reporttest.XSSModel)
	checkCell(t, f, "Chart data", "B3", "0.75")
	checkCell(t, f, "Chart data", "C2", "humans +")
	checkCell(t, f, "Chart data", "C3", "0.25") // 1 − 0.75
}

// A heat map is a grid on the Heat maps sheet: y categories down column A, x
// categories across the top, the values (percent) in between, empty where
// there is no cell, formula-looking names kept as text, and a 3-colour scale
// over the grid.
func TestHeatmaps(t *testing.T) {
	r := &report.Report{Title: "heat", Figures: []*report.Figure{
		{ID: "fig_bar", Kind: report.Bar, Title: "a bar", Categories: []string{"a"}, Series: []report.Series{{Name: "s", Values: []float64{1}}}},
		{ID: "pairwise_matrix_1", Kind: report.Heatmap, Title: "=Win rate", XName: "against", YName: "model", Percent: true,
			Categories:  []string{"x1", "=SUM(1,2)", "x3"},
			YCategories: []string{"alpha", "beta"},
			Series: []report.Series{{Name: "win rate", Cells: []report.Cell{
				{X: 0, Y: 0, Value: 0.5}, {X: 1, Y: 0, Value: 0.25}, {X: 2, Y: 0, Value: 1},
				{X: 0, Y: 1, Value: 0.75}, {X: 2, Y: 1, Value: 0}, // (1,1) empty
			}}}},
	}}
	path := filepath.Join(t.TempDir(), "report.xlsx")
	if err := Write(context.Background(), path, r, DefaultOptions); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := f.GetSheetList(); !slices.Contains(got, SheetHeatmaps) {
		t.Fatalf("sheets = %q, want a %q sheet", got, SheetHeatmaps)
	}
	sh := SheetHeatmaps
	checkCell(t, f, sh, "A3", "=Win rate [pairwise_matrix_1]")
	checkCell(t, f, sh, "A4", "model \\ against")
	for cell, want := range map[string]string{
		"B4": "x1", "C4": "=SUM(1,2)", "D4": "x3", "A5": "alpha", "A6": "beta",
		"B5": "0.5", "C5": "0.25", "D5": "1",
		"B6": "0.75", "C6": "", "D6": "0",
		"E4": "", "E5": "", "A7": "",
	} {
		checkCell(t, f, sh, cell, want)
	}
	for _, c := range []string{"A3", "C4"} {
		if fo, _ := f.GetCellFormula(sh, c); fo != "" {
			t.Errorf("%s!%s has formula %q, want text", sh, c, fo)
		}
	}
	if got := numFmt(t, f, sh, "B5"); got != "0.0%" {
		t.Errorf("B5 format = %q, want 0.0%%", got)
	}
	cfs, err := f.GetConditionalFormats(sh)
	if err != nil {
		t.Fatal(err)
	}
	opts, ok := cfs["B5:D6"]
	if !ok || len(opts) != 1 || opts[0].Type != "3_color_scale" {
		t.Errorf("conditional formats = %+v, want a 3_color_scale on B5:D6", cfs)
	}
}

func TestSheetName(t *testing.T) {
	used := map[string]bool{"about": true, "history": true}
	tests := []struct{ in, want string }{
		{"a:b/c\\d?e*f[g]h", "a_b_c_d_e_f_g_h"},
		{"a_very_long_table_name_over_thirty_one_chars", "a_very_long_table_name_over_thi"},
		{"a_very_long_table_name_over_thirty_one_chars_2", "a_very_long_table_name_over_t~2"},
		{"About", "About~2"},
		{"HISTORY", "HISTORY~2"},
		{"'quoted'", "quoted"},
		{"", "Table"},
		{"''", "Table~2"},
	}
	for _, tc := range tests {
		if got := SheetName(tc.in, used); got != tc.want {
			t.Errorf("SheetName(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestCut(t *testing.T) {
	short := strings.Repeat("é", CellLimit)
	if Cut(short) != short {
		t.Error("a text of exactly CellLimit characters was cut")
	}
	// 20,000 emoji are 40,000 UTF-16 units: marker(20000) has 54 characters,
	// so (32767 − 54) / 2 = 16356 emoji fit (32712 units) and 3644 are cut.
	emoji := strings.Repeat("😀", 20000)
	got := Cut(emoji)
	want := strings.Repeat("😀", 16356) + "… [cut: 3,644 more characters; full text in the site]"
	if got != want {
		t.Errorf("Cut(emoji) ends %q, want %q", tail(got), tail(want))
	}
}

func TestErrors(t *testing.T) {
	r := &report.Report{Tables: []*report.Table{{Name: "x", Columns: []report.Column{{Name: "a"}}, Rows: [][]any{{1, 2}}}}}
	err := Write(context.Background(), filepath.Join(t.TempDir(), "r.xlsx"), r, DefaultOptions)
	if err == nil || !strings.Contains(err.Error(), "table x: row 1 has 2 values") {
		t.Errorf("got %v, want a row-length error", err)
	}
}

// A table of 120,000 rows goes through the StreamWriter; its last row is
// where it should be.
func TestLargeTable(t *testing.T) {
	if testing.Short() {
		t.Skip("large table skipped in -short mode")
	}
	tb := &report.Table{Name: "big", Columns: []report.Column{
		{Name: "i", Kind: report.Int}, {Name: "x", Kind: report.Float}, {Name: "p", Kind: report.Fraction}, {Name: "s", Kind: report.Text},
	}}
	const n = 120000
	for i := 0; i < n; i++ {
		tb.Rows = append(tb.Rows, []any{int64(i), float64(i) / 8, 0.5, "row text that is long enough to matter"})
	}
	path := filepath.Join(t.TempDir(), "big.xlsx")
	if err := Write(context.Background(), path, &report.Report{Tables: []*report.Table{tb}}, DefaultOptions); err != nil {
		t.Fatal(err)
	}
	// Row n+2 holds i = n−1 = 119999 and x = 119999/8 = 14999.875. The
	// sheet XML is read directly: excelize would parse the whole sheet.
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var sheet, table string
	for _, zf := range zr.File {
		rc, _ := zf.Open()
		b, _ := io.ReadAll(rc)
		rc.Close()
		switch {
		case strings.HasPrefix(zf.Name, "xl/worksheets/sheet") && strings.Contains(string(b), `r="A120002"`):
			sheet = string(b)
		case strings.HasPrefix(zf.Name, "xl/tables/table"):
			table = string(b)
		}
	}
	for _, want := range []string{`<c r="A120002" s="`, `<v>119999</v>`, `<c r="B120002" s="`, `<v>14999.875</v>`} {
		if !strings.Contains(sheet, want) {
			t.Errorf("big sheet lacks %q", want)
		}
	}
	if strings.Contains(sheet, `r="A120003"`) {
		t.Error("big sheet has a row past the table")
	}
	if !strings.Contains(table, `ref="A2:D120002"`) || !strings.Contains(table, `<autoFilter ref="A2:D120002"`) {
		t.Errorf("table part = %.300s, want a filter over A2:D120002", table)
	}
}

func BenchmarkLargeTable(b *testing.B) {
	tb := &report.Table{Name: "big", Columns: []report.Column{
		{Name: "i", Kind: report.Int}, {Name: "x", Kind: report.Float}, {Name: "p", Kind: report.Fraction}, {Name: "s", Kind: report.Text},
	}}
	for i := 0; i < 100000; i++ {
		tb.Rows = append(tb.Rows, []any{int64(i), float64(i) / 8, 0.5, "row text that is long enough to matter"})
	}
	r := &report.Report{Tables: []*report.Table{tb}}
	path := filepath.Join(b.TempDir(), "big.xlsx")
	for b.Loop() {
		if err := Write(context.Background(), path, r, DefaultOptions); err != nil {
			b.Fatal(err)
		}
	}
}

// The workbook opens on the Findings sheet (first), the only selected tab.
func TestFindingsIsActive(t *testing.T) {
	path, f := writeSmall(t)
	if got := f.GetActiveSheetIndex(); got != 0 {
		t.Errorf("active sheet index %d, want 0", got)
	}
	if got := f.GetSheetName(0); got != SheetFindings {
		t.Errorf("sheet 0 is %q, want %q", got, SheetFindings)
	}
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	selected := 0
	for _, zf := range zr.File {
		if !strings.HasPrefix(zf.Name, "xl/worksheets/sheet") {
			continue
		}
		rc, _ := zf.Open()
		b, _ := io.ReadAll(rc)
		rc.Close()
		if strings.Contains(string(b), `tabSelected="1"`) || strings.Contains(string(b), `tabSelected="true"`) {
			selected++
			if zf.Name != "xl/worksheets/sheet1.xml" {
				t.Errorf("%s is a selected tab; want only the About sheet (sheet1.xml)", zf.Name)
			}
		}
	}
	if selected != 1 {
		t.Errorf("%d selected tabs, want 1", selected)
	}
}

// Row 1 of a table sheet: headers for people, distinct within the sheet:
// the model ids beside their display names are "Model id", and two columns
// whose headers would be the same say their CSV names; a column with a
// Header of its own shows it.
func TestSheetHeadersDistinct(t *testing.T) {
	r := reporttest.Small()
	r.Tables = append(r.Tables, &report.Table{Name: "models", Title: "Table 3", Section: report.SectionDataset,
		Columns: []report.Column{{Name: "model"}, {Name: "display_name"}, {Name: "n_gradings", Kind: report.Int}, {Name: "gradings_(n)", Kind: report.Int},
			{Name: "bleu", Kind: report.Float, Header: "Corpus BLEU"}},
		Rows: [][]any{{"alpha", "Alpha", int64(1), int64(2), 12.5}}})
	path := filepath.Join(t.TempDir(), "report.xlsx")
	if err := Write(context.Background(), path, r, DefaultOptions); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// A column's own Header wins over the one its name gives ("Sentence BLEU").
	for i, want := range []string{"Model id", "Display name", "Gradings (n) (n_gradings)", "Gradings (n) (gradings_(n))", "Corpus BLEU"} {
		c, _ := excelize.CoordinatesToCellName(i+1, 1)
		checkCell(t, f, "models", c, want)
	}
	checkCell(t, f, "models", "A3", "alpha") // the id, as written
}

// A one-series bar chart over models colours each bar with its model's
// colour (the colours of format.ModelsOf, the site's): the chart part holds
// one c:dPt per bar, in category order, and stays well-formed XML.
func TestBarColoursPerModel(t *testing.T) {
	r := reporttest.Small()
	r.Tables = append(r.Tables, &report.Table{Name: "models", Section: report.SectionDataset,
		Columns: []report.Column{{Name: "model"}, {Name: "display_name"}},
		Rows:    [][]any{{"gamma & co", "Gamma"}, {"alpha", "Alpha"}, {reporttest.XSSModel, ""}}})
	path := filepath.Join(t.TempDir(), "report.xlsx")
	if err := Write(context.Background(), path, r, DefaultOptions); err != nil {
		t.Fatal(err)
	}
	var fig *report.Figure
	for _, f := range r.Figures {
		if f.Kind == report.Bar && len(f.Series) == 1 {
			fig = f
			break
		}
	}
	if fig == nil {
		t.Fatal("the test report has no one-series bar chart")
	}
	models := format.ModelsOf(r)
	var want []string
	for _, c := range fig.Categories {
		want = append(want, strings.TrimPrefix(models.Color[c], "#"))
	}
	// the palette in models-table order: gamma first, then alpha, then the third
	if models.Color["gamma & co"] != format.Palette[0] || models.Color["alpha"] != format.Palette[1] {
		t.Fatalf("model colours %v", models.Color)
	}
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	found := false
	for _, zf := range zr.File {
		if !strings.HasPrefix(zf.Name, "xl/charts/chart") {
			continue
		}
		rc, _ := zf.Open()
		b, _ := io.ReadAll(rc)
		rc.Close()
		if err := xml.Unmarshal(b, new(struct{})); err != nil {
			t.Errorf("%s is not well-formed: %v", zf.Name, err)
		}
		if !strings.Contains(string(b), "<a:t>"+fig.Title+"</a:t>") {
			continue
		}
		found = true
		re := regexp.MustCompile(`<dPt><idx val="(\d+)"></idx>.*?<a:srgbClr val="([0-9A-F]{6})"></a:srgbClr>.*?</dPt>`)
		var got []string
		for i, m := range re.FindAllStringSubmatch(string(b), -1) {
			if m[1] != strconv.Itoa(i) {
				t.Errorf("point %d has idx %s", i, m[1])
			}
			got = append(got, m[2])
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s: bar colours %q, want the models' %q", zf.Name, got, want)
		}
		// no legend: its one swatch would be the series' colour
		if strings.Contains(string(b), "<legend>") {
			t.Errorf("%s: a chart of bars coloured per model has a legend", zf.Name)
		}
	}
	if !found {
		t.Errorf("no chart part titled %q", fig.Title)
	}
	// A chart whose bars are not models keeps its legend.
	legends := 0
	for _, zf := range zr.File {
		if strings.HasPrefix(zf.Name, "xl/charts/chart") {
			rc, _ := zf.Open()
			b, _ := io.ReadAll(rc)
			rc.Close()
			if strings.Contains(string(b), "<legend>") {
				legends++
			}
		}
	}
	if legends == 0 {
		t.Error("no chart has a legend: the other charts lost theirs")
	}
}
