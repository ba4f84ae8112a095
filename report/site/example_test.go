package site_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing/fstest"

	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/site"
)

func ExampleWrite() {
	r := &report.Report{
		Title: "Demo",
		Tables: []*report.Table{{
			Name: "summary", Title: "Summary", Section: report.SectionOverview,
			Columns: []report.Column{{Name: "model"}, {Name: "solve_rate", Kind: report.Fraction}},
			Rows:    [][]any{{"alpha", 0.569}},
		}},
		Figures: []*report.Figure{{
			ID: "fig_solve_rate", Section: report.SectionOverview, Title: "Solve Rate", Kind: report.Bar,
			Table: "summary", Percent: true, Categories: []string{"alpha"},
			Series: []report.Series{{Name: "humans", Values: []float64{0.569}}},
		}},
		Questions: []*report.QuestionPage{{ID: "q1", Prompt: "Why?"}},
	}
	dir, _ := os.MkdirTemp("", "site")
	defer os.RemoveAll(dir)
	// An empty Assets folder stands for a binary built without `make assets`.
	warnings, err := site.Write(context.Background(), dir, r, site.Options{Assets: fstest.MapFS{}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(warnings), "warning")
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			fmt.Println(filepath.ToSlash(rel))
		}
		return nil
	})
	// Output:
	// 1 warning
	// assets/site.css
	// assets/site.js
	// index.html
	// questions/index.html
	// questions/q1.html
	// tables/notes.csv
	// tables/summary.csv
}
