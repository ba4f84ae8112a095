package config

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestColumnKey(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"question_id", "question_id"},
		{"Question ID", "question_id"},
		{"  question-id ", "question_id"},
		{"QUESTION  _ ID", "question_id"},
		{"Question #", "question_id"},
		{"Question No.", "question_id"},
		{"Model (blinded)", "label"},
		{"Model", "model"},
		{"Domain expertise (1-5)", "domain_expertise"},
		{"Domain (1–5)", "domain"},
		{"Rank (1 = best)", "rank"},
		{"Rank [1 = best]", "rank"},
		{"Localisation", "localization"},
		{"Item #", "item"},
		{"Run No.", "run"},
		{"Checklist item 3", "c3"},
		{"Item 3", "c3"},
		{"C3", "c3"},
		{"checklist_3", "c3"},
		{"Checklist-12", "c12"},
		{"C03", "c3"},
		{"C0", "c0"},
		{"(1-5)", "(1_5)"},
		{"gate_score", "gate_score"},
	} {
		if got := ColumnKey(c.in); got != c.want {
			t.Errorf("ColumnKey(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestColumnAliases(t *testing.T) {
	c, err := Parse("study.toml", []byte(`[columns]
"re:^Crit(?:erion)? (\\d+)$" = "C$1"
"Dom." = "Domain"
`))
	if err != nil {
		t.Fatal(err)
	}
	al := c.ColumnAliases()
	for _, x := range []struct {
		name, want string
		ok         bool
	}{
		{"Criterion 4", "c4", true},
		{"crit 12", "c12", true},
		{"Criteria 4", "", false},
		{"dom.", "domain", true},
		{"Dom", "", false},
	} {
		got, ok := "", false
		for _, a := range al {
			if got, ok = a.Match(x.name); ok {
				break
			}
		}
		if got != x.want || ok != x.ok {
			t.Errorf("alias of %q = %q, %v; want %q, %v", x.name, got, ok, x.want, x.ok)
		}
	}
}

func TestColumnAliasTargets(t *testing.T) {
	_, err := Parse("study.toml", []byte(`[columns]
"Question" = "questionid"
"re:^Crit (\\d+)$" = "Crit$1"
"re:^(bad$" = "C1"
"Ok" = "Question ID"
"Att" = "Localisation"
`))
	var se *SettingsError
	if !errors.As(err, &se) {
		t.Fatalf("err = %v, want *SettingsError", err)
	}
	if len(se.Settings) != 3 {
		t.Fatalf("got %d problems, want 3: %v", len(se.Settings), err)
	}
	msg := err.Error()
	for _, want := range []string{`columns."Question" = "questionid": expected a canonical column name: question_id,`, `columns."re:^Crit (\\d+)$"`, "Actionability, C1, C2", `columns."re:^(bad$" = "C1": expected a regular expression`} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%s", want, msg)
		}
	}
}

func TestSheetsSettings(t *testing.T) {
	c, err := Parse("study.toml", []byte("[sheets]\nheader_row = 3\nevaluator_from = \"sheet\"\n"))
	if err != nil || c.Sheets.HeaderRow != 3 || c.Sheets.EvaluatorFrom != "sheet" {
		t.Fatalf("got %+v, %v", c.Sheets, err)
	}
	_, err = Parse("study.toml", []byte("[sheets]\nheader_row = -1\nevaluator_from = \"expert\"\n"))
	for _, want := range []string{`sheets.header_row = -1: expected a row number`, `sheets.evaluator_from = "expert": expected "column", "file" or "sheet"`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v lacks %q", err, want)
		}
	}
}

func TestUnknownKeyHints(t *testing.T) {
	for _, c := range []struct{ toml, want string }{
		{"[sheets]\nevaluatorfrom = \"file\"\n", `study.toml:2:1: unknown key "sheets.evaluatorfrom" (did you mean sheets.evaluator_from?); the keys in [sheets] are evaluator_from, exclude, files, header_row, include`},
		{"[sheets.files]\n\"a.xlsx\" = { evaluatorfrom = \"file\" }\n", `unknown key "sheets.files.evaluatorfrom" (did you mean sheets.files.evaluator_from?); the keys in [sheets.files] are evaluator_from, header_row`},
		{"[rubrik]\nmax = 3\n", `unknown key "rubrik" (did you mean rubric?)`},
		{"[rubric]\nmaxx = 3\n", `unknown key "rubric.maxx" (did you mean rubric.max?); the keys in [rubric] are attributes, averaged, direction, max, min, step`},
		{"[rubric]\nscale = 3\n", `unknown key "rubric.scale"; the keys in [rubric] are attributes, averaged, direction, max, min, step`},
		{"[rubric]\nmax = \"five\"\n", `study.toml:2:7: rubric.max: found a TOML string; expected a number`},
		{"[text]\nstemmer = 1\n", `text.stemmer: found a TOML integer; expected true or false`},
	} {
		_, err := Parse("study.toml", []byte(c.toml))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.toml, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "struct field") {
			t.Errorf("%q: Go names leak: %v", c.toml, err)
		}
	}
}

// TestSheetsFiles: [sheets.files] holds per-file evaluator_from and
// header_row settings, checked like [sheets]'s, listed in Pairs.
func TestSheetsFiles(t *testing.T) {
	c, err := Parse("study.toml", []byte("[sheets]\nevaluator_from = \"column\"\n[sheets.files]\n\"grades/humans/panel.xlsx\" = { evaluator_from = \"sheet\", header_row = 3 }\n\"grades/humans/b.csv\" = { header_row = 2 }\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ rel, want string }{
		{"grades/humans/panel.xlsx", "sheet"}, {"grades/humans/b.csv", "column"}, {"grades/humans/other.xlsx", "column"},
	} {
		if got := c.EvaluatorFromFor(tc.rel); got != tc.want {
			t.Errorf("EvaluatorFromFor(%q) = %q, want %q", tc.rel, got, tc.want)
		}
	}
	var got []string
	for _, p := range c.Pairs() {
		if strings.HasPrefix(p[0], "sheets.files.") {
			got = append(got, p[0]+" = "+p[1])
		}
	}
	want := []string{`sheets.files."grades/humans/b.csv".header_row = 2`, `sheets.files."grades/humans/panel.xlsx".evaluator_from = sheet`, `sheets.files."grades/humans/panel.xlsx".header_row = 3`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("pairs:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if n := len(Default().Pairs()); n != len(c.Pairs())-3 {
		t.Errorf("a study without [sheets.files] lists %d settings, want %d", n, len(c.Pairs())-3)
	}

	_, err = Parse("study.toml", []byte("[sheets.files]\n\"grades\\\\humans\\\\a.xlsx\" = { evaluator_from = \"grader\" }\n\"../x.csv\" = { header_row = -2 }\n"))
	for _, want := range []string{
		`sheets.files."grades\\humans\\a.xlsx" = "grades\\humans\\a.xlsx": expected a path with forward slashes`,
		`sheets.files."grades\\humans\\a.xlsx".evaluator_from = "grader": expected "column", "file" or "sheet"`,
		`sheets.files."../x.csv" = "../x.csv": expected a file path relative to the study folder, inside it`,
		`sheets.files."../x.csv".header_row = -2: expected a row number from 1 to 1048576, or 0 for [sheets] header_row`,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v lacks %q", err, want)
		}
	}
}

// One workbook of a study has a sheet per grader, the others are a
// grader's each.
func ExampleConfig_EvaluatorFromFor() {
	c, err := Parse("study.toml", []byte(`
[sheets]
evaluator_from = "file"
[sheets.files]
"grades/humans/panel.xlsx" = { evaluator_from = "sheet" }
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.EvaluatorFromFor("grades/humans/panel.xlsx"))
	fmt.Println(c.EvaluatorFromFor("grades/humans/alice.xlsx"))
	// Output:
	// sheet
	// file
}
