package providers

import (
	"errors"
	"strings"
	"testing"
)

func TestParseIDTemplateErrors(t *testing.T) {
	tests := []struct {
		tmpl    string
		mention string
	}{
		{"", "no {question_id}"},
		{"{model}", "no {question_id}"},
		{"q-{id}", "unknown placeholder {id}"},
		{"{question_id}{model}", "adjacent"},
		{"{model}{question_id}", "adjacent"},
		{"{question_id}::{question_id}", "more than once"},
		{"{question_id}/{model}/{model}", "more than once"},
		{"{question_id", "not closed"},
		{"q}{question_id}", "lone '}'"},
		{"{Question_ID}", "unknown placeholder"},
	}
	for _, tc := range tests {
		t.Run(tc.tmpl, func(t *testing.T) {
			_, err := ParseIDTemplate(tc.tmpl)
			if err == nil {
				t.Fatalf("ParseIDTemplate(%q) gave no error, want one mentioning %q", tc.tmpl, tc.mention)
			}
			if !errors.Is(err, ErrIDTemplate) || !strings.Contains(err.Error(), tc.mention) {
				t.Errorf("got %q, want an ErrIDTemplate mentioning %q", err, tc.mention)
			}
		})
	}
}

func TestIDTemplateMatch(t *testing.T) {
	tests := []struct {
		tmpl, id      string
		question, mod string
		ok            bool
	}{
		{DefaultIDTemplate, "q1::gpt-4o", "q1", "gpt-4o", true},
		{DefaultIDTemplate, "fin-017::claude-sonnet-4-5", "fin-017", "claude-sonnet-4-5", true},
		// The separator inside a value: the shortest question id wins.
		{DefaultIDTemplate, "q1::org::model", "q1", "org::model", true},
		{DefaultIDTemplate, "q1:::m", "q1", ":m", true},
		{DefaultIDTemplate, "q1", "", "", false},
		{DefaultIDTemplate, "::m", "", "", false},
		{DefaultIDTemplate, "q1::", "", "", false},
		{DefaultIDTemplate, "::", "", "", false},
		{DefaultIDTemplate, "", "", "", false},
		{"{model}/{question_id}", "gpt-4o/q7", "q7", "gpt-4o", true},
		{"{model}/{question_id}", "openai/gpt-4o/q7", "q7", "openai/gpt-4o", true},
		{"{model}/{question_id}", "q7", "", "", false},
		{"{model}/{question_id}", "m/", "", "", false},
		{"{model}/{question_id}", "/q", "", "", false},
		{"q-{question_id}", "q-101", "101", "", true},
		{"q-{question_id}", "q-", "", "", false},
		{"q-{question_id}", "x-101", "", "", false},
		{"{question_id}", "anything at all", "anything at all", "", true},
		{"req[{question_id}|{model}]", "req[a|b]", "a", "b", true},
		{"req[{question_id}|{model}]", "req[a|b", "", "", false},
		{"req[{question_id}|{model}]", "req[|b]", "", "", false},
		{"run1-{model}--{question_id}.json", "run1-m-x--q-3.json", "q-3", "m-x", true},
		// Prefix and suffix overlap: no room for a value.
		{"a{question_id}a", "aa", "", "", false},
		{"a{question_id}a", "aba", "b", "", true},
	}
	for _, tc := range tests {
		t.Run(tc.tmpl+" "+tc.id, func(t *testing.T) {
			tm, err := ParseIDTemplate(tc.tmpl)
			if err != nil {
				t.Fatal(err)
			}
			q, m, ok := tm.Match(tc.id)
			if q != tc.question || m != tc.mod || ok != tc.ok {
				t.Errorf("Match(%q) = %q, %q, %v; want %q, %q, %v", tc.id, q, m, ok, tc.question, tc.mod, tc.ok)
			}
		})
	}
}

func TestIDTemplateHasModel(t *testing.T) {
	for tmpl, want := range map[string]bool{DefaultIDTemplate: true, "{model}/{question_id}": true, "q-{question_id}": false} {
		tm, err := ParseIDTemplate(tmpl)
		if err != nil {
			t.Fatal(err)
		}
		if tm.HasModel() != want {
			t.Errorf("%q: HasModel = %v, want %v", tmpl, tm.HasModel(), want)
		}
		if tm.String() != tmpl {
			t.Errorf("String = %q, want %q", tm.String(), tmpl)
		}
	}
	var zero IDTemplate
	if _, _, ok := zero.Match("q1::m"); ok {
		t.Error("the zero IDTemplate matched an id")
	}
}
