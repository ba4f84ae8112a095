package config

import (
	"errors"
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
		{"[sheets]\nevaluatorfrom = \"file\"\n", `study.toml:2:1: unknown key "sheets.evaluatorfrom" (did you mean sheets.evaluator_from?); the keys in [sheets] are evaluator_from, exclude, header_row, include`},
		{"[rubrik]\nmax = 3\n", `unknown key "rubrik" (did you mean rubric?)`},
		{"[rubric]\nmaxx = 3\n", `unknown key "rubric.maxx" (did you mean rubric.max?); the keys in [rubric] are attributes, max, min`},
		{"[rubric]\nscale = 3\n", `unknown key "rubric.scale"; the keys in [rubric] are attributes, max, min`},
		{"[rubric]\nmax = \"five\"\n", `study.toml:2:7: rubric.max: found a TOML string; expected an integer`},
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
