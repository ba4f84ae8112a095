package site

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/findings"
	"github.com/euroexec/euroexec/report/internal/reporttest"
)

// foldJS measures the index page's leaderboard: the bottom of its head
// row, of its first row and of the whole table, in page pixels from the
// top, and the text of its first row.
const foldJS = `(() => {
  const s = document.querySelector('#leaderboard');
  if (!s) return {found: false};
  const rows = s.querySelectorAll('tbody tr');
  const bottom = e => e.getBoundingClientRect().bottom + window.scrollY;
  return {found: true, head: bottom(s.querySelector('thead tr')), first: rows.length ? bottom(rows[0]) : -1,
    table: bottom(s.querySelector('table')), rows: rows.length, firstText: rows.length ? rows[0].innerText : '',
    precededBy: [...document.querySelectorAll('main > section')].indexOf(s)};
})()`

type foldState struct {
	Found      bool    `json:"found"`
	Head       float64 `json:"head"`
	First      float64 `json:"first"`
	Table      float64 `json:"table"`
	Rows       int     `json:"rows"`
	FirstText  string  `json:"firstText"`
	PrecededBy int     `json:"precededBy"`
}

// summaryModels is the test report with n models on the summary.
func summaryModels(n int) *report.Report {
	r := reporttest.Small()
	s := r.Table("summary")
	s.Rows = nil
	for i := 0; i < n; i++ {
		v := 0.9 - float64(i)*0.06
		s.Rows = append(s.Rows, []any{"all", "humans", fmt.Sprintf("model-%02d-with-a-long-name", i), int64(400), v, v - 0.05, v + 0.05, 2.0, 3.0})
	}
	return r
}

// TestLeaderboardAboveFold opens the index page at 1280 × 720 (a laptop)
// and 390 × 720 (a phone's first screen): the leaderboard is the first
// section of the page, its head row and its first row lie within the
// first 720 px, and with up to 12 models so does the whole table on the
// laptop; the first row names the leader.
func TestLeaderboardAboveFold(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	b := startBrowser(t)
	for _, c := range []struct {
		name   string
		r      *report.Report
		leader string
	}{{"3 models", reporttest.Small(), "alpha"}, {"12 models", summaryModels(12), "model-00-with-a-long-name"}} {
		dir := filepath.Join(t.TempDir(), "site")
		if _, err := Write(context.Background(), dir, c.r, DefaultOptions); err != nil {
			t.Fatal(err)
		}
		for _, w := range []int64{1280, 390} {
			t.Run(fmt.Sprintf("%s at %d px", c.name, w), func(t *testing.T) {
				if _, err := chromedp.Call(b.ctx, emulation.SetDeviceMetricsOverride,
					emulation.SetDeviceMetricsOverrideParams{Width: w, Height: 720, DeviceScaleFactor: 1, Mobile: w < 600}); err != nil {
					t.Fatal(err)
				}
				b.open(t, filepath.Join(dir, "index.html"), "")
				st, err := chromedp.Run(b.ctx, chromedp.Evaluate[foldState](foldJS))
				if err != nil {
					t.Fatal(err)
				}
				if !st.Found {
					t.Fatal("no #leaderboard on the index page")
				}
				if st.PrecededBy != 0 {
					t.Errorf("the leaderboard is section %d of the page, want the first", st.PrecededBy)
				}
				if st.Head > 720 || st.First > 720 || st.First < 0 {
					t.Errorf("head row ends at %.0f px, first row at %.0f px: want both within 720", st.Head, st.First)
				}
				if w == 1280 && st.Rows <= 12 && st.Table > 720 {
					t.Errorf("the table of %d models ends at %.0f px, want within 720", st.Rows, st.Table)
				}
				if !strings.Contains(st.FirstText, c.leader) {
					t.Errorf("first row %q does not name %s", st.FirstText, c.leader)
				}
				t.Logf("head %.0f, first row %.0f, table %.0f px (%d rows)", st.Head, st.First, st.Table, st.Rows)
			})
		}
	}
}

// TestChangesSection writes a comparison's site and opens its index in
// Chromium: "what changed" is the first section, with one row per flagged
// change, and every delta dot plot draws (no console error).
func TestChangesSection(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	cm := &report.Table{Name: findings.CompareModelsTable, Section: report.SectionCompare, Columns: []report.Column{{Name: "model"}, {Name: "metric"}, {Name: "graders"},
		{Name: "old", Kind: report.Float}, {Name: "new", Kind: report.Float}, {Name: "delta", Kind: report.Float}, {Name: "delta_lo", Kind: report.Float},
		{Name: "delta_hi", Kind: report.Float}, {Name: "p_holm", Kind: report.Float}, {Name: "flagged"}},
		Rows: [][]any{
			{"alpha", "solve_rate", "humans", 0.6, 0.45, -0.15, -0.25, -0.05, 0.01, "yes"},
			{reporttest.XSSModel, "solve_rate", "humans", 0.4, 0.55, 0.15, 0.05, 0.25, 0.02, "yes"},
			{"alpha", "rubric", "judge:j", 3.2, 2.7, -0.5, -0.8, -0.2, 0.01, "yes"},
			{"gamma & co", "rubric", "humans", 3.0, 3.1, 0.1, -0.2, 0.4, 1.0, "no"},
		}}
	r := &report.Report{Title: "Comparison: v1 → v2", Tables: []*report.Table{cm},
		Settings: []report.KV{{Key: "old_label", Value: "v1"}, {Key: "new_label", Value: "v2"}}}
	r.Figures = findings.DeltaFigures(findings.WhatChanged(r))
	dir := filepath.Join(t.TempDir(), "site")
	if _, err := Write(context.Background(), dir, r, DefaultOptions); err != nil {
		t.Fatal(err)
	}
	b := startBrowser(t)
	st := b.open(t, filepath.Join(dir, "index.html"), "")
	errs, _, dialogs := b.take()
	for _, e := range append(errs, dialogs...) {
		t.Error(e)
	}
	if st.Charts != 2 || st.Drawn != 2 {
		t.Errorf("%d delta dot plots, %d drawn (undrawn %v), want 2 and 2", st.Charts, st.Drawn, st.Undrawn)
	}
	first, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`document.querySelector('main > section').id + ':' + document.querySelectorAll('#changes tbody tr').length`))
	if err != nil {
		t.Fatal(err)
	}
	if first != "changes:3" {
		t.Errorf("first section and its rows %q, want changes:3", first)
	}
	if !strings.Contains(st.Text, "v1 → v2: 3 of 4 changes significant") || !strings.Contains(st.Text, "-15.0 pp [-25.0, -5.0 pp]") {
		t.Errorf("page text lacks the caption or a change:\n%s", st.Text)
	}
}
