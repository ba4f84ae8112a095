package xlsx

import (
	"archive/zip"
	"context"
	"encoding/xml"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/findings"
)

// xmlChart is what the tests read of a chart part.
type xmlChart struct {
	Title []string `xml:"chart>title>tx>rich>p>r>t"`
	Ser   []struct {
		Name  string `xml:"tx>strRef>f"`
		Val   string `xml:"val>numRef>f"`
		Plus  string `xml:"errBars>plus>numRef>f"`
		Minus string `xml:"errBars>minus>numRef>f"`
		Cap   struct {
			Val string `xml:"val,attr"`
		} `xml:"errBars>noEndCap"`
	} `xml:"chart>plotArea>lineChart>ser"`
	CatAx struct {
		TickLblPos struct {
			Val string `xml:"val,attr"`
		} `xml:"tickLblPos"`
		Line []struct {
			Val string `xml:"val,attr"`
		} `xml:"spPr>ln>solidFill>srgbClr"`
	} `xml:"chart>plotArea>catAx"`
	ValAx struct {
		Min struct {
			Val string `xml:"val,attr"`
		} `xml:"scaling>min"`
		Max struct {
			Val string `xml:"val,attr"`
		} `xml:"scaling>max"`
		Title []string `xml:"title>tx>rich>p>r>t"`
	} `xml:"chart>plotArea>valAx"`
	Legend []struct{} `xml:"chart>legend"`
}

// readCharts parses every chart part of the workbook at path.
func readCharts(t *testing.T, path string) []xmlChart {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var out []xmlChart
	for _, zf := range zr.File {
		if !strings.HasPrefix(zf.Name, "xl/charts/chart") {
			continue
		}
		rc, err := zf.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		var c xmlChart
		if err := xml.Unmarshal(b, &c); err != nil {
			t.Fatalf("%s: %v", zf.Name, err)
		}
		out = append(out, c)
	}
	return out
}

// rangeValues reads the cells of a one-column reference such as
// 'Chart data'!$E$3:$E$5 ("" for an empty cell).
func rangeValues(t *testing.T, f *excelize.File, ref string) []string {
	t.Helper()
	sheet, cells, ok := strings.Cut(ref, "!")
	if !ok {
		t.Fatalf("reference %q has no sheet", ref)
	}
	sheet = strings.ReplaceAll(strings.Trim(sheet, "'"), "''", "'")
	a, b, _ := strings.Cut(strings.ReplaceAll(cells, "$", ""), ":")
	if b == "" {
		b = a
	}
	c1, r1, err1 := excelize.CellNameToCoordinates(a)
	c2, r2, err2 := excelize.CellNameToCoordinates(b)
	if err1 != nil || err2 != nil || c1 != c2 {
		t.Fatalf("reference %q: not one column", ref)
	}
	var out []string
	for r := r1; r <= r2; r++ {
		cell, _ := excelize.CoordinatesToCellName(c1, r)
		v, err := f.GetCellValue(sheet, cell, excelize.Options{RawCellValue: true})
		if err != nil {
			t.Fatalf("%s!%s: %v", sheet, cell, err)
		}
		out = append(out, v)
	}
	return out
}

// TestDeltaPlotErrorBars: the compare workbook's delta dot plots (on the
// Charts sheet and beside the summary on Findings) draw each flagged
// change at new − old with native error bars whose + and − distances
// reach the interval ends of compare_models (typed in here, asymmetric);
// a rate's change is in percentage points, said on the axis; the axis
// spans zero and every interval end; the category axis (at zero) is drawn
// dark with the model names below the plot; no legend. The Findings
// sheet's table of the changes writes a rate's change in percentage points
// and the interval once (it wrote "-10.0%" then "pp [-17.0, -4.0 pp]").
func TestDeltaPlotErrorBars(t *testing.T) {
	flagged := []deltaChange{
		{"m1", "solve_rate", "humans", 0.6, 0.5, -0.1, -0.17, -0.04},
		{"m2", "solve_rate", "humans", 0.4, 0.6, 0.2, 0.08, 0.27},
		{"m2", "rubric", "judge:j", 3.0, 3.5, 0.5, 0.21, 0.86},
	}
	rows := [][]any{{"m3", "solve_rate", "humans", 0.4, 0.41, 0.01, -0.1, 0.12, 1.0, "no"}}
	for _, c := range flagged {
		rows = append(rows, []any{c.model, c.metric, c.graders, c.old, c.new, c.delta, c.lo, c.hi, 0.001, "yes"})
	}
	cm := &report.Table{Name: findings.CompareModelsTable, Columns: []report.Column{{Name: "model"}, {Name: "metric"}, {Name: "graders"},
		{Name: "old", Kind: report.Float}, {Name: "new", Kind: report.Float}, {Name: "delta", Kind: report.Float}, {Name: "delta_lo", Kind: report.Float},
		{Name: "delta_hi", Kind: report.Float}, {Name: "p_holm", Kind: report.Float}, {Name: "flagged"}}, Rows: rows}
	r := &report.Report{Title: "Comparison: v1 → v2", Tables: []*report.Table{cm},
		Settings: []report.KV{{Key: "old_label", Value: "v1"}, {Key: "new_label", Value: "v2"}}}
	r.Figures = findings.DeltaFigures(findings.WhatChanged(r))
	if len(r.Figures) != 2 {
		t.Fatalf("%d delta figures, want 2 (solve_rate, rubric)", len(r.Figures))
	}
	p := filepath.Join(t.TempDir(), "compare.xlsx")
	if err := Write(context.Background(), p, r, DefaultOptions); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenFile(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tests := []struct {
		metric, unit string
		scale        float64
		copies       int // the Charts sheet, and Findings for the first
	}{
		{"solve_rate", "(percentage points)", 100, 2},
		{"rubric", "(points)", 1, 1},
	}
	// The Findings sheet's table of the flagged changes: a rate's change
	// in percentage points, signed; the interval after it, once.
	rowsF, err := f.GetRows(SheetFindings)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, row := range rowsF {
		if len(row) >= 8 && (row[7] == "better" || row[7] == "worse") {
			got = append(got, strings.Join(row[:8], " | "))
		}
	}
	wantRows := []string{
		"m1 | Solve Rate | human graders | 60.0% | 50.0% | -10.0 pp | [-17.0, -4.0 pp] | worse",
		"m2 | Solve Rate | human graders | 40.0% | 60.0% | +20.0 pp | [+8.0, +27.0 pp] | better",
		"m2 | mean rubric score | judge j | 3.00 | 3.50 | +0.50 | [+0.21, +0.86] points | better",
	}
	if strings.Join(got, "\n") != strings.Join(wantRows, "\n") {
		t.Errorf("what changed rows\n got %q\nwant %q", got, wantRows)
	}
	charts := readCharts(t, p)
	for _, tc := range tests {
		t.Run(tc.metric, func(t *testing.T) {
			label := findings.MetricLabel(tc.metric)
			seen := 0
			for _, c := range charts {
				title := strings.Join(c.Title, "")
				if !strings.HasPrefix(title, "What changed: "+label) {
					continue
				}
				seen++
				checkDeltaChart(t, f, c, tc.unit, tc.scale, tc.metric, flagged)
			}
			if seen != tc.copies {
				t.Errorf("%d delta charts of %s, want %d", seen, label, tc.copies)
			}
		})
	}
}

// deltaChange is a flagged row of compare_models.
type deltaChange struct {
	model, metric, graders  string
	old, new, delta, lo, hi float64
}

// checkDeltaChart checks one delta dot plot against the flagged changes
// of its metric.
func checkDeltaChart(t *testing.T, f *excelize.File, c xmlChart, unit string, scale float64, metric string, flagged []deltaChange) {
	t.Helper()
	num := func(s string) float64 {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("not a number: %q", s)
		}
		return v
	}
	const tol = 1e-9
	lo, hi := num(c.ValAx.Min.Val), num(c.ValAx.Max.Val)
	if !(lo <= 0 && hi >= 0) {
		t.Errorf("value axis [%v, %v] leaves out zero", lo, hi)
	}
	if y := strings.Join(c.ValAx.Title, ""); !strings.HasSuffix(y, unit) {
		t.Errorf("value axis title %q, want the unit %s", y, unit)
	}
	if c.CatAx.TickLblPos.Val != "low" || len(c.CatAx.Line) != 1 || c.CatAx.Line[0].Val != "222222" {
		t.Errorf("category axis: labels %q, line %+v; want labels low, the zero line 222222", c.CatAx.TickLblPos.Val, c.CatAx.Line)
	}
	if len(c.Legend) != 0 {
		t.Error("a legend: the categories name the models")
	}
	want := 0
	for _, ch := range flagged {
		if ch.metric == metric {
			want++
		}
	}
	if len(c.Ser) != want {
		t.Fatalf("%d series, want one per flagged change (%d)", len(c.Ser), want)
	}
	for i, s := range c.Ser {
		name := rangeValues(t, f, s.Name)[0]
		var ch *deltaChange
		for k := range flagged {
			if flagged[k].metric == metric && flagged[k].model == name {
				ch = &flagged[k]
			}
		}
		if ch == nil {
			t.Fatalf("series %d is %q: no flagged change of %s", i, name, metric)
		}
		if s.Plus == "" || s.Minus == "" || s.Cap.Val != "0" {
			t.Fatalf("series %s: error bars plus %q minus %q cap %q; want custom, capped", name, s.Plus, s.Minus, s.Cap.Val)
		}
		vals, plus, minus := rangeValues(t, f, s.Val), rangeValues(t, f, s.Plus), rangeValues(t, f, s.Minus)
		drawn := 0
		for k := range vals {
			if vals[k] == "" {
				if plus[k] != "" || minus[k] != "" {
					t.Errorf("series %s, point %d: an error bar without a value", name, k)
				}
				continue
			}
			drawn++
			v, pl, mi := num(vals[k]), num(plus[k]), num(minus[k])
			if math.Abs(v-ch.delta*scale) > tol || math.Abs(v+pl-ch.hi*scale) > tol || math.Abs(v-mi-ch.lo*scale) > tol {
				t.Errorf("series %s: %v +%v −%v, want %v to [%v, %v]", name, v, pl, mi, ch.delta*scale, ch.lo*scale, ch.hi*scale)
			}
			if v-mi < lo || v+pl > hi {
				t.Errorf("series %s: interval [%v, %v] outside the axis [%v, %v]", name, v-mi, v+pl, lo, hi)
			}
		}
		if drawn != 1 {
			t.Errorf("series %s draws %d points, want 1", name, drawn)
		}
	}
}
