package xlsx_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/xlsx"
	"github.com/xuri/excelize/v2"
)

func ExampleWrite() {
	r := &report.Report{
		Title: "Demo",
		Tables: []*report.Table{
			{Name: "summary", Columns: []report.Column{{Name: "model"}, {Name: "solve_rate", Kind: report.Fraction}},
				Rows: [][]any{{"alpha", 0.569}, {"=beta", nil}}},
			{Name: "a:name/that is far too long for a sheet", Columns: []report.Column{{Name: "n", Kind: report.Int}},
				Rows: [][]any{{int64(1)}}},
		},
	}
	dir, _ := os.MkdirTemp("", "xlsx")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "report.xlsx")
	if err := xlsx.Write(context.Background(), path, r, xlsx.DefaultOptions); err != nil {
		fmt.Println(err)
		return
	}
	f, _ := excelize.OpenFile(path)
	defer f.Close()
	fmt.Println(f.GetSheetList())
	v, _ := f.GetCellValue("Summary", "A4") // two header rows, then the rows
	fmt.Println(v)
	// Output:
	// [Findings About Summary a_name_that is far too long for Notes]
	// =beta
}
