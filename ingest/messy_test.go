package ingest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
)

// The messy study of issue 15: 20 questions × 4 models × 3 experts, one
// workbook per expert with a sheet per domain, a merged title row above the
// header, headers as people write them, a Notes sheet with a date, N/A
// cells, decimal commas, stray spaces and a missing score. messyStudy
// writes it; cleanStudy writes the same grades in the clean format (one
// CSV per expert with canonical headers).

var (
	messyExperts = []string{"alice", "bruno", "chen"}
	messyModels  = []string{"m1", "m2", "m3", "m4"}
	messyAttrs   = []string{"Domain", "Localization", "Reasoning", "Communication", "Actionability"}
)

const messyItems = 3

func messyQ(qi int) (id, domain string) {
	d := "Finance"
	if qi >= 10 {
		d = "Legal"
	}
	return fmt.Sprintf("q%02d", qi+1), d
}

// Grades of expert e on question q and model m, by formula.
func messyScore(e, q, m, a int) int { return 1 + (q*7+m*3+e*5+a*2)%5 }
func messyRank(e, q, m int) int     { return 1 + (m+q+e)%4 }
func messyLabel(q, m int) string    { return string(rune('A' + (m+q)%4)) }

// messyVerdict is hit, miss or na (every seventh).
func messyVerdict(e, q, m, i int) string {
	switch (e + 2*q + 3*m + 5*i) % 7 {
	case 0:
		return "na"
	case 1, 2, 3:
		return "hit"
	}
	return "miss"
}

// withMissing leaves one rubric cell of bruno blank, which is a problem
// in either format.
var withMissing = false

func messyMissing(e, q, m, a int) bool { return withMissing && e == 1 && q == 4 && m == 2 && a == 3 }

// messyShared writes the files both versions share.
func messyShared(t *testing.T, dir string) {
	t.Helper()
	var qs, cl, bl, resp strings.Builder
	qs.WriteString("question_id,domain,prompt\n")
	cl.WriteString("question_id,item,text\n")
	bl.WriteString("question_id,label,model\n")
	for q := 0; q < 20; q++ {
		id, d := messyQ(q)
		fmt.Fprintf(&qs, "%s,%s,Question %d\n", id, d, q+1)
		for i := 1; i <= messyItems; i++ {
			fmt.Fprintf(&cl, "%s,%d,point %d\n", id, i, i)
		}
		for m, name := range messyModels {
			fmt.Fprintf(&bl, "%s,%s,%s\n", id, messyLabel(q, m), name)
			fmt.Fprintf(&resp, `{"question_id":%q,"model":%q,"text":"answer %d %d"}`+"\n", id, name, q, m)
		}
	}
	write(t, dir, "questions.csv", qs.String())
	write(t, dir, "checklist.csv", cl.String())
	write(t, dir, "blinding.csv", bl.String())
	write(t, dir, "models.csv", "model\nm1\nm2\nm3\nm4\n")
	write(t, dir, "responses/all.jsonl", resp.String())
}

func write(t *testing.T, dir, rel, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func cleanStudy(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	messyShared(t, dir)
	for e, name := range messyExperts {
		var b strings.Builder
		b.WriteString("question_id,label," + strings.Join(messyAttrs, ",") + ",C1,C2,C3,rank\n")
		for q := 0; q < 20; q++ {
			id, _ := messyQ(q)
			for m := range messyModels {
				fmt.Fprintf(&b, "%s,%s", id, messyLabel(q, m))
				for a := range messyAttrs {
					if messyMissing(e, q, m, a) {
						b.WriteString(",")
					} else {
						fmt.Fprintf(&b, ",%d", messyScore(e, q, m, a))
					}
				}
				for i := 1; i <= messyItems; i++ {
					b.WriteString("," + messyVerdict(e, q, m, i))
				}
				fmt.Fprintf(&b, ",%d\n", messyRank(e, q, m))
			}
		}
		write(t, dir, "grades/humans/main/"+name+".csv", b.String())
	}
	return dir
}

// messyHeader is the header as the experts wrote it.
var messyHeader = []string{"Question ID", "Model (blinded)", "Domain expertise (1-5)", "Localisation (1–5)",
	"reasoning", "Communication ", "Actionability (1 = poor, 5 = excellent)",
	"Checklist item 1", "Checklist item 2", "Checklist item 3", "Rank (1 = best)"}

// messyStudyToml is the whole study.toml the messy study needs.
const messyStudyToml = "[sheets]\nevaluator_from = \"file\"\n"

func messyStudy(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	messyShared(t, dir)
	write(t, dir, "study.toml", messyStudyToml)
	for e, name := range messyExperts {
		f := excelize.NewFile()
		set := func(sheet string, col, row int, v any) {
			t.Helper()
			c, _ := excelize.CoordinatesToCellName(col, row)
			if err := f.SetCellValue(sheet, c, v); err != nil {
				t.Fatal(err)
			}
		}
		for si, domain := range []string{"Finance", "Legal"} {
			if si == 0 {
				f.SetSheetName("Sheet1", domain)
			} else if _, err := f.NewSheet(domain); err != nil {
				t.Fatal(err)
			}
			set(domain, 1, 1, "Expert grading — "+domain+" — "+name)
			if err := f.MergeCell(domain, "A1", "K1"); err != nil {
				t.Fatal(err)
			}
			for i, h := range messyHeader {
				set(domain, i+1, 3, h)
			}
			row := 4
			for q := 10 * si; q < 10*si+10; q++ {
				id, _ := messyQ(q)
				for m := range messyModels {
					set(domain, 1, row, id)
					set(domain, 2, row, messyLabel(q, m))
					for a := range messyAttrs {
						s := messyScore(e, q, m, a)
						switch {
						case messyMissing(e, q, m, a):
							continue
						case (q+m+a)%11 == 0:
							set(domain, 3+a, row, fmt.Sprintf("%d,0", s)) // decimal comma, as text
						case (q+m+a)%13 == 0:
							set(domain, 3+a, row, fmt.Sprintf(" %d ", s)) // stray spaces
						default:
							set(domain, 3+a, row, s)
						}
					}
					for i := 1; i <= messyItems; i++ {
						v := map[string]string{"hit": "Yes", "miss": "No", "na": "N/A"}[messyVerdict(e, q, m, i)]
						if v == "N/A" && (q+i)%2 == 0 {
							v = "—"
						}
						set(domain, 7+i, row, v)
					}
					set(domain, 11, row, messyRank(e, q, m))
					row++
				}
			}
		}
		if _, err := f.NewSheet("Notes"); err != nil {
			t.Fatal(err)
		}
		set("Notes", 1, 1, "Graded on")
		set("Notes", 2, 1, time.Date(2024, 12, 15, 0, 0, 0, 0, time.UTC))
		set("Notes", 1, 2, "Two answers were hard to judge.")
		p := filepath.Join(dir, "grades", "humans", "main", name+".xlsx")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := f.SaveAs(p); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	return dir
}

// humanGrades returns every human grade in the database as sorted text
// lines (evaluator, question, model, label, rank, scores, verdicts).
func humanGrades(t *testing.T, db string) string {
	t.Helper()
	h := openDB(t, db)
	rows, err := h.Query(`
		SELECT g.evaluator || '|' || g.round || '|' || g.question_id || '|' || g.model || '|' || coalesce(g.label, '') || '|rank=' || coalesce(CAST(g.rank AS VARCHAR), '') ||
		       '|' || coalesce((SELECT string_agg(attribute || '=' || coalesce(CAST(score AS VARCHAR), 'NULL'), ',' ORDER BY attribute) FROM rubric_scores r WHERE r.grading_id = g.grading_id), '') ||
		       '|' || coalesce((SELECT string_agg(item || '=' || coalesce(verdict, 'NULL'), ',' ORDER BY item) FROM checklist_verdicts v WHERE v.grading_id = g.grading_id), '')
		FROM gradings g WHERE g.kind = 'human' ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return strings.Join(out, "\n")
}

// TestMessyStudy: the messy study is accepted as written, with a study.toml
// of at most 4 lines, and loads into the same grades as the clean study.
func TestMessyStudy(t *testing.T) {
	if n := strings.Count(messyStudyToml, "\n"); n > 4 {
		t.Fatalf("study.toml has %d lines, want at most 4", n)
	}
	clean, messy := cleanStudy(t), messyStudy(t)
	var got [2]string
	var results [2]*Result
	for i, dir := range []string{clean, messy} {
		db := filepath.Join(t.TempDir(), "s.duckdb")
		res, err := Ingest(context.Background(), dir, Options{DB: db})
		if err != nil {
			t.Fatalf("study %d: %v", i, err)
		}
		got[i], results[i] = humanGrades(t, db), res
	}
	if n := strings.Count(got[0], "\n") + 1; n != 3*20*4 {
		t.Fatalf("clean study: %d gradings, want 240", n)
	}
	// Hand-checked grading: chen (e=2) on q01 (q=0), m1 (m=0): label A,
	// rank 1+(0+0+2)%4 = 3, Domain 1+(0+0+10+0)%5 = 1, Localization 1+2 = 3, Reasoning
	// 1+4 = 5, Communication 1+6%5 = 2, Actionability 1+8%5 = 4; verdicts
	// (2+5i)%7 = 0, 5, 3: na, miss, hit.
	const chen = "chen|main|q01|m1|A|rank=3|Actionability=4.0,Communication=2.0,Domain=1.0,Localization=3.0,Reasoning=5.0|1=na,2=miss,3=hit"
	if !strings.Contains(got[0], chen) {
		t.Errorf("clean study lacks %q", chen)
	}
	if got[0] != got[1] {
		a, b := strings.Split(got[0], "\n"), strings.Split(got[1], "\n")
		for i := range min(len(a), len(b)) {
			if a[i] != b[i] {
				t.Fatalf("messy grades differ from clean ones at line %d:\nclean %s\nmessy %s", i, a[i], b[i])
			}
		}
		t.Fatalf("messy study: %d grades, clean %d", len(b), len(a))
	}
	for k, n := range results[0].Rows {
		if k != "ingest_files" && k != "study_settings" && results[1].Rows[k] != n {
			t.Errorf("table %s: messy %d rows, clean %d", k, results[1].Rows[k], n)
		}
	}
	warn := strings.Join(results[1].Warnings, "\n")
	for _, w := range []string{
		`grades/humans/main/alice.xlsx, sheet "Finance": the header is row 3; row 1 above it skipped`,
		`grades/humans/main/alice.xlsx, sheet "Notes": skipped: no column question_id`,
	} {
		if !strings.Contains(warn, w) {
			t.Errorf("warnings lack %q:\n%s", w, warn)
		}
	}
}

// TestMessyStudyMissingScore: a blank score in the messy workbooks is one
// problem that names the workbook, sheet, row and column as written.
func TestMessyStudyMissingScore(t *testing.T) {
	withMissing = true
	defer func() { withMissing = false }()
	_, err := Validate(context.Background(), messyStudy(t))
	if err == nil {
		t.Fatal("no problem for the missing score")
	}
	msg := err.Error()
	want := `grades/humans/main/bruno.xlsx, sheet "Finance", row 22, column "Communication ": a Communication score for every human grading (it is missing)`
	if !strings.Contains(msg, want) || !strings.Contains(msg, "1 problem") {
		t.Errorf("got %s\nwant one problem: %s", msg, want)
	}
}

// TestEvaluatorFrom: who graded the messy workbooks under each setting.
func TestEvaluatorFrom(t *testing.T) {
	for _, tc := range []struct {
		toml, want, problem string
	}{
		{"[sheets]\nevaluator_from = \"file\"\n", "alice,bruno,chen", ""},
		{"[sheets]\nevaluator_from = \"sheet\"\n", "", "one grading per evaluator, round, question and model (evaluator Finance graded it also"},
		{"[sheets]\nevaluator_from = \"column\"\n", "", `grades/humans/main/alice.xlsx, sheet "Finance", row 3: a header with the column evaluator ([sheets] evaluator_from = "column" in study.toml)`},
		// per-file settings ([sheets.files]) override [sheets]
		{"[sheets.files]\n\"grades/humans/main/alice.xlsx\" = { evaluator_from = \"file\" }\n\"grades/humans/main/bruno.xlsx\" = { evaluator_from = \"file\" }\n\"grades/humans/main/chen.xlsx\" = { evaluator_from = \"file\" }\n", "alice,bruno,chen", ""},
		{"[sheets]\nevaluator_from = \"file\"\n[sheets.files.\"grades/humans/main/alice.xlsx\"]\nevaluator_from = \"sheet\"\n", "Finance,Legal,bruno,chen", ""},
		// without a setting, each workbook's sheets are graders: bruno's Finance repeats alice's
		{"[sheets.files]\n\"grades/humans/main/alice.xlsx\" = { evaluator_from = \"file\" }\n", "", "one grading per evaluator, round, question and model (evaluator Finance graded it also at grades/humans/main/bruno.xlsx"},
		{"[sheets]\nevaluator_from = \"file\"\n[sheets.files]\n\"grades/humans/main/chen.xlsx\" = { evaluator_from = \"column\" }\n", "",
			`grades/humans/main/chen.xlsx, sheet "Finance", row 3: a header with the column evaluator ([sheets.files] "grades/humans/main/chen.xlsx" = "column" in study.toml)`},
	} {
		dir := messyStudy(t)
		write(t, dir, "study.toml", tc.toml)
		db := filepath.Join(t.TempDir(), "s.duckdb")
		_, err := Ingest(context.Background(), dir, Options{DB: db})
		if tc.problem != "" {
			if err == nil || !strings.Contains(err.Error(), tc.problem) {
				t.Errorf("%q: error %v, want %q", tc.toml, err, tc.problem)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%q: %v", tc.toml, err)
		}
		var got string
		if err := openDB(t, db).QueryRow(`SELECT string_agg(DISTINCT evaluator, ',' ORDER BY evaluator) FROM gradings`).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != tc.want {
			t.Errorf("%q: evaluators %s, want %s", tc.toml, got, tc.want)
		}
	}
}

// TestSheetsFilesUnknown: a [sheets.files] path that names no file of the
// study is a warning naming the nearest file.
func TestSheetsFilesUnknown(t *testing.T) {
	dir := messyStudy(t)
	write(t, dir, "study.toml", messyStudyToml+"[sheets.files]\n\"grades/humans/main/alcie.xlsx\" = { evaluator_from = \"sheet\" }\n\"nothing/like/it.csv\" = { header_row = 2 }\n")
	res, err := Validate(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	w := strings.Join(res.Warnings, "\n")
	for _, want := range []string{
		`study.toml: [sheets.files] "grades/humans/main/alcie.xlsx": no such file in the study, the setting is not used (did you mean "grades/humans/main/alice.xlsx"?)`,
		`study.toml: [sheets.files] "nothing/like/it.csv": no such file in the study, the setting is not used` + "\n",
	} {
		if !strings.Contains(w+"\n", want) {
			t.Errorf("warnings lack %q:\n%s", want, w)
		}
	}
}

// TestHeaderRowSetting: [sheets] header_row names the header row.
func TestHeaderRowSetting(t *testing.T) {
	dir := messyStudy(t)
	write(t, dir, "study.toml", messyStudyToml+"header_row = 3\n")
	if _, err := Validate(context.Background(), dir); err != nil {
		t.Fatalf("header_row = 3: %v", err)
	}
	// Row 1, the title, as the header: no sheet has the columns, each is
	// skipped with a note, and the study has no gradings.
	write(t, dir, "study.toml", messyStudyToml+"header_row = 1\n")
	res, err := Validate(context.Background(), dir)
	if err == nil || !strings.Contains(err.Error(), "the study has no gradings at all") {
		t.Errorf("header_row = 1: got %v", err)
	}
	if res != nil {
		w := strings.Join(res.Warnings, "\n")
		if want := `alice.xlsx, sheet "Finance": skipped: no column question_id (columns found: "Expert grading — Finance — alice")`; !strings.Contains(w, want) {
			t.Errorf("warnings lack %q:\n%s", want, w)
		}
	}
}

// TestBadValueReportedOnce: a score or verdict that is not valid is one
// problem, not also a "missing" one; N/A in a score says the cell takes no
// N/A; a dash in a checklist cell is na.
func TestBadValueReportedOnce(t *testing.T) {
	dir := copyStudy(t, map[string]string{"grades/humans/main/alice.csv": alice("alice,q1,m1,N/A,4,3,5,4,maybe,—,1,")})
	_, err := Validate(context.Background(), dir)
	var pe *ProblemsError
	if !errors.As(err, &pe) {
		t.Fatalf("err = %v, want *ProblemsError", err)
	}
	msg := err.Error()
	want := []string{
		`alice.csv, row 2, column "Domain": found "N/A"; an integer score from 1 to 5 (a rubric score cannot be N/A: an expert's grading needs every score, and a rank when the expert ranks)`,
		`alice.csv, row 2, column "C1": found "maybe"; a verdict`,
	}
	for _, w := range want {
		if !strings.Contains(msg, w) {
			t.Errorf("error lacks %q:\n%s", w, msg)
		}
	}
	if len(pe.Problems) != len(want) || strings.Contains(msg, "missing") || strings.Contains(msg, "blank") {
		t.Errorf("got %d problems, want %d (no echo as missing):\n%s", len(pe.Problems), len(want), msg)
	}
}

// TestDidYouMean: unknown models, labels and missing columns name the
// value probably meant and, when few, the accepted ones.
func TestDidYouMean(t *testing.T) {
	for _, c := range []struct {
		edits map[string]string
		want  string
	}{
		{map[string]string{"grades/humans/main/alice.csv": "evaluator,question_id,model,Domain,Localization,Reasoning,Communication,Actionability,C1,C2,rank,comment\nalice,q1,M-1,4,4,3,5,4,hit,na,1,\n"},
			`column "model": found "M-1"; a model listed in the models file (did you mean "m1"?); the models are m1, m2`},
		{map[string]string{"grades/humans/main/alice.csv": "evaluator,question_id,label,Domain,Localization,Reasoning,Communication,Actionability,C1,C2,rank,comment\nalice,q1,AA,4,4,3,5,4,hit,na,1,\n"},
			`found "AA"; a label of question q1 in the blinding file (did you mean "A"?); the labels of question q1 are A, B`},
		{map[string]string{"questions.csv": "qestion_id,domain,prompt\nq1,Finance,x\n"},
			`questions.csv, row 1: a header with the column(s) question_id; columns found: "qestion_id", "domain", "prompt" (did you mean "qestion_id" for question_id?)`},
	} {
		_, err := Validate(context.Background(), copyStudy(t, c.edits))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v\nwant %s", err, c.want)
		}
	}
}
