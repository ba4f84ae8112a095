package ingest

import (
	"context"
	"encoding/csv"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/euroexec/euroexec/sample"
)

// The corpus of mistakes analysts make. Each case starts from a small
// synthetic study written by the sample package (8 questions, 3 models,
// 3 experts, 1 judge), which validates without a problem, makes one
// mistake in it, and checks that validate says exactly one thing about
// it: one group of problems naming the file, sheet, row, column and the
// fix, or (for what is read correctly or not read at all) one note.
//
// The generated human workbooks: expert_01.xlsx has one sheet "Grades"
// (evaluator, question_id, model, Domain … Actionability, C1 … C8, rank,
// comment in columns A … R; data rows 2 … 25, row 2 being question 101,
// model atlas-5); expert_02.xlsx an "Instructions" sheet and a sheet per
// domain with a "Loc." header; expert_03.xlsx the long form.

const (
	e1      = "grades/humans/main/expert_01.xlsx"
	e1csv   = "grades/humans/main/expert_01.csv"
	e2      = "grades/humans/main/expert_02.xlsx"
	e3      = "grades/humans/main/expert_03.xlsx"
	grSheet = "Grades"
)

// mstudy is one copy of the generated study.
type mstudy struct {
	t   *testing.T
	dir string
}

func newMistakeStudy(t *testing.T) mstudy {
	t.Helper()
	dir := t.TempDir()
	opt := sample.DefaultOptions()
	opt.Questions, opt.Models, opt.Evaluators, opt.Judges = 8, 3, 3, 1
	opt.ReferenceShare, opt.ResponseChars = 0, 100
	if _, err := sample.Write(dir, opt); err != nil {
		t.Fatal(err)
	}
	return mstudy{t, dir}
}

func (s mstudy) path(rel string) string { return filepath.Join(s.dir, filepath.FromSlash(rel)) }

// book opens a workbook of the study, lets fn change it and saves it.
func (s mstudy) book(rel string, fn func(f *excelize.File)) {
	s.t.Helper()
	f, err := excelize.OpenFile(s.path(rel))
	if err != nil {
		s.t.Fatal(err)
	}
	fn(f)
	if err := f.SaveAs(s.path(rel)); err != nil {
		s.t.Fatal(err)
	}
	f.Close()
}

// set sets cells of a sheet ("B2", value, …) and fails the test on error.
func (s mstudy) set(f *excelize.File, sheet string, cellValues ...any) {
	s.t.Helper()
	for i := 0; i+1 < len(cellValues); i += 2 {
		if err := f.SetCellValue(sheet, cellValues[i].(string), cellValues[i+1]); err != nil {
			s.t.Fatal(err)
		}
	}
}

// do fails the test on err.
func (s mstudy) do(err error) {
	s.t.Helper()
	if err != nil {
		s.t.Fatal(err)
	}
}

// rows returns the cells of expert_01's grading sheet.
func (s mstudy) rows() [][]string {
	s.t.Helper()
	f, err := excelize.OpenFile(s.path(e1))
	if err != nil {
		s.t.Fatal(err)
	}
	defer f.Close()
	rows, err := f.GetRows(grSheet)
	if err != nil {
		s.t.Fatal(err)
	}
	return rows
}

// toCSV replaces expert_01.xlsx by expert_01.csv holding the same rows
// (after edit, when not nil), separated by sep, with a byte order mark
// when bom.
func (s mstudy) toCSV(sep rune, bom bool, edit func(rows [][]string) [][]string) {
	s.t.Helper()
	rows := s.rows()
	if edit != nil {
		rows = edit(rows)
	}
	var b strings.Builder
	if bom {
		b.WriteString("\uFEFF")
	}
	w := csv.NewWriter(&b)
	w.Comma = sep
	s.do(w.WriteAll(rows))
	s.do(os.Remove(s.path(e1)))
	s.write(e1csv, b.String())
}

func (s mstudy) write(rel, content string) {
	s.t.Helper()
	s.do(os.MkdirAll(filepath.Dir(s.path(rel)), 0o755))
	s.do(os.WriteFile(s.path(rel), []byte(content), 0o644))
}

func (s mstudy) appendFile(rel, content string) {
	s.t.Helper()
	b, err := os.ReadFile(s.path(rel))
	s.do(err)
	s.write(rel, string(b)+content)
}

func (s mstudy) move(from, to string) {
	s.t.Helper()
	s.do(os.MkdirAll(filepath.Dir(s.path(to)), 0o755))
	s.do(os.Rename(s.path(from), s.path(to)))
}

// titleRow inserts a title row (merged across the header when merge) and
// a blank row above the header of expert_01's grading sheet: the header
// moves to row 3, question 101/atlas-5 to row 4.
func (s mstudy) titleRow(f *excelize.File, merge bool) {
	s.t.Helper()
	s.do(f.InsertRows(grSheet, 1, 2))
	s.set(f, grSheet, "A1", "Grading of expert 1 — please do not edit")
	if merge {
		s.do(f.MergeCell(grSheet, "A1", "R1"))
	}
}

// want is what validate must say about a mistake: one group of problems
// at file, sheet, (first) row and column whose line holds every string of
// says; or, when note is set, no problem and a warning holding note and
// every string of says; or, when config is set, a study.toml error
// holding every string of says.
type want struct {
	file, sheet string
	row         int
	column      string
	says        []string
	note        bool
	config      bool
}

func TestMistakes(t *testing.T) {
	cases := []struct {
		name string
		edit func(s mstudy)
		want want
	}{
		{"grading workbook at the top of grades/", func(s mstudy) {
			s.move(e1, "grades/expert_01.xlsx")
		}, want{note: true, says: []string{"grades/expert_01.xlsx: not read", "move it there"}}},

		{"grading workbook at the top of the study folder", func(s mstudy) {
			s.move(e1, "expert_01.xlsx")
		}, want{note: true, says: []string{"expert_01.xlsx: not read", "grades/humans/"}}},

		{"title row above the header", func(s mstudy) {
			s.book(e1, func(f *excelize.File) { s.titleRow(f, false) })
		}, want{note: true, says: []string{`expert_01.xlsx, sheet "Grades": the header is row 3; row 1 above it skipped`}}},

		{"merged title row above the header", func(s mstudy) {
			s.book(e1, func(f *excelize.File) { s.titleRow(f, true) })
		}, want{note: true, says: []string{`expert_01.xlsx, sheet "Grades": the header is row 3; row 1 above it skipped`}}},

		{"question id merged down over its models", func(s mstudy) {
			s.book(e1, func(f *excelize.File) { s.do(f.MergeCell(grSheet, "B2", "B4")) })
		}, want{file: e1, sheet: grSheet, row: 3, column: "question_id", says: []string{"2 ", "the cell is empty", "merged"}}},

		{"per-domain sheets without an evaluator column", func(s mstudy) {
			s.book(e2, func(f *excelize.File) {
				for _, sh := range f.GetSheetList() {
					if sh != "Instructions" {
						s.do(f.RemoveCol(sh, "A"))
					}
				}
			})
		}, want{note: true, says: []string{"expert_02.xlsx", "named after its sheet", `evaluator_from = "file"`}}},

		{"model names in a column headed label", func(s mstudy) {
			s.book(e1, func(f *excelize.File) { s.set(f, grSheet, "C1", "label") })
		}, want{file: e1, sheet: grSheet, row: 2, column: "label", says: []string{"24 unknown labels", "model name", `head the column "model"`}}},

		{"labels in a column headed model", func(s mstudy) {
			s.toCSV(',', false, func(rows [][]string) [][]string {
				rows = blindRows(s, rows)
				rows[0][2] = "model" // the labels under "model"
				return rows
			})
		}, want{file: e1csv, row: 2, column: "model", says: []string{"24 unknown models", "blinded label", `head the column "label"`}}},

		{"scores typed as text", func(s mstudy) {
			s.book(e1, func(f *excelize.File) {
				s.do(f.SetCellStr(grSheet, "D2", "4"))
				s.do(f.SetCellStr(grSheet, "E2", " 3 "))
			})
		}, want{note: true, says: []string{"no problem"}}},

		{"an evaluator named like a totals word", func(s mstudy) {
			s.book(e1, func(f *excelize.File) {
				for r := 2; r <= 25; r++ {
					s.set(f, grSheet, "A"+strconv.Itoa(r), "Sum Li")
				}
			})
			s.appendFile("evaluators.csv", "Sum Li,Finance\n")
		}, want{note: true, says: []string{"no problem"}}},

		{"a totals row under the table", func(s mstudy) {
			s.book(e1, func(f *excelize.File) {
				s.set(f, grSheet, "A26", "Total", "D26", 70, "E26", 66)
			})
		}, want{file: e1, sheet: grSheet, row: 26, says: []string{"Total", "totals row", "delete"}}},

		{"a hidden sheet with old grades", func(s mstudy) {
			s.book(e1, func(f *excelize.File) {
				i, err := f.NewSheet("Old")
				s.do(err)
				s.do(f.CopySheet(0, i))
				s.do(f.SetSheetVisible("Old", false))
			})
		}, want{file: e1, sheet: "Old", row: 2, says: []string{"24 gradings given twice", "hidden", "[sheets] exclude"}}},

		{"a hidden sheet with old grades, before the grades", func(s mstudy) {
			s.book(e1, func(f *excelize.File) {
				i, err := f.NewSheet("Old")
				s.do(err)
				s.do(f.CopySheet(0, i))
				s.do(f.MoveSheet("Old", grSheet))
				s.do(f.SetSheetVisible("Old", false))
			})
		}, want{file: e1, sheet: grSheet, row: 2, says: []string{"24 gradings given twice", `sheet "Old" is hidden`, `[sheets] exclude = ["Old"]`}}},

		{"a duplicated sheet", func(s mstudy) {
			s.book(e1, func(f *excelize.File) {
				i, err := f.NewSheet("Grades (2)")
				s.do(err)
				s.do(f.CopySheet(0, i))
			})
		}, want{file: e1, sheet: "Grades (2)", row: 2, says: []string{"24 gradings given twice", `repeats sheet "Grades"`}}},

		{"a grading file copied under another name", func(s mstudy) {
			b, err := os.ReadFile(s.path(e1))
			s.do(err)
			s.write("grades/humans/main/expert_01 (copy).xlsx", string(b))
		}, want{file: e1, sheet: grSheet, row: 2, says: []string{"24 gradings given twice", "expert_01 (copy).xlsx", "remove the copy"}}},

		{"N/A in a score", func(s mstudy) {
			s.book(e1, func(f *excelize.File) { s.set(f, grSheet, "F5", "N/A") })
		}, want{file: e1, sheet: grSheet, row: 5, column: "Reasoning", says: []string{`found "N/A"`, "cannot be N/A"}}},

		{"half points with a decimal comma", func(s mstudy) {
			s.book(e1, func(f *excelize.File) { s.set(f, grSheet, "D3", "3,5", "D4", "2,5") })
		}, want{file: e1, sheet: grSheet, row: 3, column: "Domain", says: []string{"2 scores", `row 3 "3,5"`, "integer score from 1 to 5"}}},

		{"whole scores with a decimal comma", func(s mstudy) {
			s.book(e1, func(f *excelize.File) { s.set(f, grSheet, "D3", "3,0") })
		}, want{note: true, says: []string{"no problem"}}},

		{"trailing spaces in ids", func(s mstudy) {
			s.book(e1, func(f *excelize.File) { s.set(f, grSheet, "B2", "101 ", "C2", "atlas-5  ", "A2", " expert_01") })
		}, want{note: true, says: []string{"no problem"}}},

		{"unknown model", func(s mstudy) {
			s.book(e1, func(f *excelize.File) { s.set(f, grSheet, "C2", "atlas-6") })
		}, want{file: e1, sheet: grSheet, row: 2, column: "model", says: []string{`found "atlas-6"`, `did you mean "atlas-5"`}}},

		{"unknown label", func(s mstudy) {
			s.toCSV(',', false, func(rows [][]string) [][]string {
				rows = blindRows(s, rows)
				rows[3][2] = "Z"
				return rows
			})
		}, want{file: e1csv, row: 4, column: "label", says: []string{`found "Z"`, "the labels of question 101 are A, B, C"}}},

		{"a grading given twice", func(s mstudy) {
			s.book(e1, func(f *excelize.File) {
				s.do(f.DuplicateRow(grSheet, 7))
			})
		}, want{file: e1, sheet: grSheet, row: 8, says: []string{"one grading per evaluator", "row 7", "delete one"}}},

		{"a grading without its question id", func(s mstudy) {
			s.book(e1, func(f *excelize.File) { s.set(f, grSheet, "B9", "") })
		}, want{file: e1, sheet: grSheet, row: 9, column: "question_id", says: []string{"a question id (the cell is empty"}}},

		{"a question missing from the questions file", func(s mstudy) {
			s.book(e1, func(f *excelize.File) { s.set(f, grSheet, "B9", 999) })
		}, want{file: e1, sheet: grSheet, row: 9, column: "question_id", says: []string{`found "999"`, "a question id of the questions file"}}},

		{"an empty sheet", func(s mstudy) {
			s.book(e1, func(f *excelize.File) { _, err := f.NewSheet("Sheet2"); s.do(err) })
		}, want{note: true, says: []string{`expert_01.xlsx, sheet "Sheet2": skipped: the sheet is empty`}}},

		{"a Notes sheet with a date", func(s mstudy) {
			s.book(e1, func(f *excelize.File) {
				_, err := f.NewSheet("Notes")
				s.do(err)
				s.set(f, "Notes", "A1", "Graded on", "B1", "2024-12-15")
			})
		}, want{note: true, says: []string{`expert_01.xlsx, sheet "Notes": skipped: no column question_id`}}},

		{"a CSV with a byte order mark", func(s mstudy) {
			s.toCSV(',', true, nil)
		}, want{note: true, says: []string{"no problem"}}},

		{"a CSV separated by semicolons", func(s mstudy) {
			s.toCSV(';', false, nil)
		}, want{file: e1csv, row: 1, says: []string{"semicolons", "comma delimited"}}},

		{"a title row above a CSV header", func(s mstudy) {
			s.toCSV(',', false, func(rows [][]string) [][]string {
				return append([][]string{{"Grades of expert 1"}, {"", ""}}, rows...)
			})
		}, want{note: true, says: []string{`expert_01.csv: the header is row 3; row 1 above it skipped`}}},

		{"a score column on another scale", func(s mstudy) {
			s.book(e1, func(f *excelize.File) {
				for r := 2; r <= 25; r++ {
					v, err := f.GetCellValue(grSheet, "D"+strconv.Itoa(r))
					s.do(err)
					n := int(v[0]-'0') * 2
					s.set(f, grSheet, "D"+strconv.Itoa(r), n)
				}
			})
		}, want{file: e1, sheet: grSheet, row: 2, column: "Domain", says: []string{"scores that are not integers from 1 to 5", "[rubric] min, max and step"}}},

		{"tied ranks", func(s mstudy) {
			s.book(e1, func(f *excelize.File) { s.set(f, grSheet, "Q3", 1) })
		}, want{file: e1, sheet: grSheet, row: 2, column: "rank", says: []string{`found "1,1,3"`, "without ties"}}},

		{"a missing rank", func(s mstudy) {
			s.book(e1, func(f *excelize.File) { s.set(f, grSheet, "Q3", "") })
		}, want{file: e1, sheet: grSheet, row: 2, column: "rank", says: []string{"a rank for every response of question 101", "2 of 3"}}},

		{"a checklist header typed CI for C1", func(s mstudy) {
			s.book(e1, func(f *excelize.File) { s.set(f, grSheet, "I1", "CI") })
		}, want{file: e1, sheet: grSheet, row: 1, says: []string{"C1", `did you mean "CI"`}}},

		{"a long-form instrument misspelt", func(s mstudy) {
			s.book(e3, func(f *excelize.File) { s.set(f, grSheet, "D2", "rubrik") })
		}, want{file: e3, sheet: grSheet, row: 2, column: "instrument", says: []string{`found "rubrik"`, `did you mean "rubric"?`}}},

		{"a verdict typo", func(s mstudy) {
			s.book(e1, func(f *excelize.File) { s.set(f, grSheet, "I2", "Hti") })
		}, want{file: e1, sheet: grSheet, row: 2, column: "C1", says: []string{`found "Hti"`, "a verdict"}}},

		{"a rubric column left out", func(s mstudy) {
			s.book(e1, func(f *excelize.File) {
				s.titleRow(f, true)
				s.do(f.RemoveCol(grSheet, "G"))
			})
		}, want{file: e1, sheet: grSheet, row: 3, says: []string{`a column for the rubric attribute "Communication"`}}},

		{"a rubric header misspelt", func(s mstudy) {
			s.book(e1, func(f *excelize.File) { s.set(f, grSheet, "G1", "Comunication") })
		}, want{file: e1, sheet: grSheet, row: 1, says: []string{`a column for the rubric attribute "Communication"`, `did you mean "Comunication" for Communication?`}}},

		{"the question column headed Question", func(s mstudy) {
			s.book(e1, func(f *excelize.File) { s.set(f, grSheet, "B1", "Qestion ID") })
		}, want{file: e1, sheet: grSheet, row: 1, says: []string{"question_id", `did you mean "Qestion ID" for question_id`}}},

		{"evaluator_from column without an evaluator column", func(s mstudy) {
			s.write("study.toml", "[sheets]\nevaluator_from = \"column\"\n[columns]\n\"Loc.\" = \"Localization\"\n")
			s.book(e1, func(f *excelize.File) {
				s.titleRow(f, false)
				s.do(f.RemoveCol(grSheet, "A"))
			})
		}, want{file: e1, sheet: grSheet, row: 3, says: []string{"a header with the column evaluator"}}},

		{"header_row pointing at a blank row", func(s mstudy) {
			s.appendFile("study.toml", "[sheets.files]\n\""+e1+"\" = { header_row = 2 }\n")
			s.book(e1, func(f *excelize.File) { s.titleRow(f, false) })
		}, want{file: e1, sheet: grSheet, row: 2, says: []string{`found "header_row = 2"`, "that row is blank", `[sheets.files] "` + e1 + `" header_row`, "fix: set header_row to the row of the column names"}}},

		{"header_row set for the one workbook with a title", func(s mstudy) {
			s.appendFile("study.toml", "[sheets.files]\n\""+e1+"\" = { header_row = 3 }\n")
			s.book(e1, func(f *excelize.File) { s.titleRow(f, true) })
		}, want{note: true, says: []string{`expert_01.xlsx, sheet "Grades": the header is row 3; row 1 above it skipped`}}},

		{"per-domain sheets, evaluator_from set for the workbook", func(s mstudy) {
			s.appendFile("study.toml", "[sheets.files]\n\""+e2+"\" = { evaluator_from = \"file\" }\n")
			s.book(e2, func(f *excelize.File) {
				for _, sh := range f.GetSheetList() {
					if sh != "Instructions" {
						s.do(f.RemoveCol(sh, "A"))
					}
				}
			})
		}, want{note: true, says: []string{"no problem"}}},

		{"a [sheets.files] path misspelt", func(s mstudy) {
			s.appendFile("study.toml", "[sheets.files]\n\"grades/humans/main/expert_1.xlsx\" = { header_row = 3 }\n")
		}, want{note: true, says: []string{`[sheets.files] "grades/humans/main/expert_1.xlsx": no such file in the study`, `did you mean "` + e1 + `"`}}},

		{"a tab-separated file named .csv", func(s mstudy) {
			s.toCSV('\t', false, nil)
		}, want{file: e1csv, row: 1, says: []string{"separated by tabs", "rename it to .tsv"}}},

		{"a study.toml key typo", func(s mstudy) {
			s.appendFile("study.toml", "[rubric]\nmaxx = 5\n")
		}, want{config: true, says: []string{`unknown key "rubric.maxx"`, "did you mean rubric.max?"}}},

		{"an alias to a name that is not a column", func(s mstudy) {
			s.write("study.toml", "[columns]\n\"Loc.\" = \"Location\"\n")
		}, want{config: true, says: []string{`"Location"`, "Localization"}}},

		{"the workbook open in Excel", func(s mstudy) {
			s.write("grades/humans/main/~$expert_01.xlsx", "lock")
		}, want{note: true, says: []string{"~$expert_01.xlsx: not read: an Excel lock file"}}},

		{"an old .xls workbook", func(s mstudy) {
			s.write("grades/humans/main/expert_04.xls", "old")
		}, want{note: true, says: []string{"expert_04.xls: not read", "save it as an Excel Workbook (.xlsx)"}}},

		{"a duplicated question in the questions file", func(s mstudy) {
			b, err := os.ReadFile(s.path("questions.csv"))
			s.do(err)
			r := csv.NewReader(strings.NewReader(string(b)))
			rows, err := r.ReadAll()
			s.do(err)
			rows = append(rows, append([]string(nil), rows[1]...))
			var out strings.Builder
			s.do(csv.NewWriter(&out).WriteAll(rows))
			s.write("questions.csv", out.String())
		}, want{file: "questions.csv", row: 10, column: "question_id", says: []string{`found "101"`, "a question id used once (first at row 2)"}}},
	}
	if len(cases) < 30 {
		t.Fatalf("%d cases, want at least 30", len(cases))
	}
	// The study as generated: no problem, and the warnings every case has.
	base, err := Validate(context.Background(), newMistakeStudy(t).dir)
	if err != nil {
		t.Fatalf("the generated study: %v", err)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newMistakeStudy(t)
			c.edit(s)
			res, err := Validate(context.Background(), s.dir)
			checkMistake(t, res, err, c.want)
			if c.want.note && res != nil {
				// nothing else is said: the generated study's warnings, plus
				// the one note when one is wanted
				extra := len(res.Warnings) - len(base.Warnings)
				if want := 1; len(c.want.says) == 1 && c.want.says[0] == "no problem" {
					want = 0
					if extra != want || strings.Join(res.Warnings, "\n") != strings.Join(base.Warnings, "\n") {
						t.Errorf("warnings differ from the generated study's:\n%s\nwant\n%s", strings.Join(res.Warnings, "\n"), strings.Join(base.Warnings, "\n"))
					}
				} else if extra != want {
					t.Errorf("%d more warnings than the generated study's, want %d:\n%s", extra, want, strings.Join(res.Warnings, "\n"))
				}
			}
		})
	}
}

// checkMistake checks that validate said exactly one thing, as w wants.
func checkMistake(t *testing.T, res *Result, err error, w want) {
	t.Helper()
	var pe *ProblemsError
	switch {
	case w.config:
		if err == nil || errors.As(err, &pe) {
			t.Fatalf("got %v, want a study.toml error", err)
		}
		for _, s := range w.says {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("study.toml error lacks %q:\n%v", s, err)
			}
		}
		t.Log(err)
	case w.note:
		if err != nil {
			t.Fatalf("got %v, want no problem", err)
		}
		if len(w.says) == 1 && w.says[0] == "no problem" {
			return
		}
		var hits []string
		for _, m := range res.Warnings {
			ok := true
			for _, s := range w.says {
				ok = ok && strings.Contains(m, s)
			}
			if ok {
				hits = append(hits, m)
			}
		}
		if len(hits) != 1 {
			t.Errorf("%d warnings hold %q, want 1:\n%s", len(hits), w.says, strings.Join(res.Warnings, "\n"))
		} else {
			t.Log("warning: " + hits[0])
		}
	default:
		if !errors.As(err, &pe) {
			t.Fatalf("got %v, want problems", err)
		}
		if len(pe.Groups) != 1 {
			t.Fatalf("%d groups of problems, want 1:\n%v", len(pe.Groups), err)
		}
		g := pe.Groups[0]
		line := g.String()
		t.Log(line)
		if g.Loc.File != w.file || g.Loc.Sheet != w.sheet || g.Examples[0].Loc.Row != w.row || g.Loc.Column != w.column {
			t.Errorf("group at %s, sheet %q, row %d, column %q; want %s, sheet %q, row %d, column %q\n%s",
				g.Loc.File, g.Loc.Sheet, g.Examples[0].Loc.Row, g.Loc.Column, w.file, w.sheet, w.row, w.column, line)
		}
		for _, s := range w.says {
			if !strings.Contains(line, s) {
				t.Errorf("the group's line lacks %q:\n%s", s, line)
			}
		}
	}
}

// blindRows replaces the model column of expert_01's rows by the blinded
// labels of blinding.csv, under the header "label".
func blindRows(s mstudy, rows [][]string) [][]string {
	s.t.Helper()
	b, err := os.ReadFile(s.path("blinding.csv"))
	s.do(err)
	bl, err := csv.NewReader(strings.NewReader(string(b))).ReadAll()
	s.do(err)
	label := map[[2]string]string{}
	for _, r := range bl[1:] {
		label[[2]string{r[0], r[2]}] = r[1]
	}
	rows[0][2] = "label"
	for _, r := range rows[1:] {
		l, ok := label[[2]string{r[1], r[2]}]
		if !ok {
			s.t.Fatalf("no label for %v", r[:3])
		}
		r[2] = l
	}
	return rows
}
