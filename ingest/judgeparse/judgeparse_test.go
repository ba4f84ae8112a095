package judgeparse

import (
	"errors"
	"fmt"
	"reflect"
	"testing"
)

var attrs = []string{"Domain", "Reasoning"}

func TestParse(t *testing.T) {
	nested := Spec{Rubric: map[string]string{"Domain": "/scores/Domain", "reasoning": "/scores/Reasoning"}, Checklist: "/checklist/{index}", Rank: "/rank"}
	want := Verdict{"domain": "4", "reasoning": "3.5", "c1": "hit", "c2": "no", "rank": "2"}
	obj := `{"scores":{"Domain":4,"Reasoning":3.5},"checklist":["hit",false],"rank":2}`
	for _, c := range []struct {
		name string
		spec Spec
		text string
		want Verdict
		err  error
	}{
		{"json", nested, obj, want, nil},
		{"fenced", nested, "Here is my grading:\n```json\n" + obj + "\n```\nThanks.", want, nil},
		{"fence without tag", nested, "```\n" + obj + "\n```", want, nil},
		{"prose then json", nested, "The answer is good {mostly}. Verdict: " + obj + " done", want, nil},
		{"brace in a string", nested, `note {"scores":{"Domain":4,"Reasoning":"3.5"},"checklist":["hit","no"],"rank":"2","why":"a } b"}`, want, nil},
		{"flat default pointers", Spec{}, `{"Domain":5,"Reasoning":1,"C1":"partial","rank":1}`, Verdict{"domain": "5", "reasoning": "1", "c1": "partial", "rank": "1"}, nil},
		{"a key twice", nested, `{"scores":{"Domain":4,"Reasoning":3.5,"Domain":2},"checklist":["hit",false],"rank":2}`, nil, ErrNoVerdict},
		{"a key twice, fenced", nested, "Grading:\n```json\n{\"rank\":1,\"rank\":2}\n```", nil, ErrNoVerdict},
		{"broken json", nested, `{"scores":{"Domain":4,"Reasoning":`, nil, ErrNoVerdict},
		{"no field", nested, `{"score":4}`, nil, ErrNoVerdict},
		{"plain text", nested, "I would give it a four.", nil, ErrNoVerdict},
		{"regex", Spec{Regex: `(?s)Domain:\s*(?P<Domain>\d).*Reasoning:\s*(?P<Reasoning>\d).*C1:\s*(?P<C1>\w+)`}, "Domain: 4\nReasoning: 3\nC1: hit", Verdict{"domain": "4", "reasoning": "3", "c1": "hit"}, nil},
		{"regex no match", Spec{Regex: `Domain:\s*(?P<Domain>\d)`}, "no scores", nil, ErrNoVerdict},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := New(c.spec, attrs)
			if err != nil {
				t.Fatal(err)
			}
			got, err := p.Parse(c.text, 2)
			if c.err != nil {
				if !errors.Is(err, c.err) {
					t.Fatalf("err = %v, want %v", err, c.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got %v, %v; want %v", got, err, c.want)
			}
		})
	}
}

func TestNewErrors(t *testing.T) {
	for _, s := range []Spec{
		{Rubric: map[string]string{"Style": "/s"}},
		{Rubric: map[string]string{"Domain": "scores/Domain"}},
		{Rank: "rank"},
		{Regex: "(?P<Domain>"},
		{Regex: `(?P<score>\d)`},
	} {
		if _, err := New(s, attrs); err == nil {
			t.Errorf("%+v: no error", s)
		}
	}
}

func TestLookupEscapes(t *testing.T) {
	doc, err := FindJSON(`{"a/b":{"m~n":[1,"x"]}}`)
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := Lookup(doc, "/a~1b/m~0n/1"); !ok || v != "x" {
		t.Errorf("got %q, %v", v, ok)
	}
}

// A judge answered in prose with its verdict in a fenced block; the scores
// are nested.
func ExampleParser_Parse() {
	p, _ := New(Spec{Rubric: map[string]string{"Domain": "/scores/Domain", "Reasoning": "/scores/Reasoning"}}, []string{"Domain", "Reasoning"})
	v, err := p.Parse("Solid answer.\n```json\n{\"scores\": {\"Domain\": 4, \"Reasoning\": 3}}\n```", 0)
	fmt.Println(v["domain"], v["reasoning"], err)
	// Output: 4 3 <nil>
}

// A verdict object with a key twice has no verdict, and the error names
// the key and where it is.
func TestFindJSONDuplicateKey(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{`{"rank":1,"rank":2}`, `no verdict: key "rank" twice in one JSON object (at /rank)`},
		{"Scores: {\"scores\": {\"Domain\": 4, \"Domain\": 5}} end", `no verdict: key "Domain" twice in one JSON object (at /scores/Domain)`},
	} {
		_, err := FindJSON(c.text)
		if err == nil || err.Error() != c.want {
			t.Errorf("FindJSON(%q): err %v, want %q", c.text, err, c.want)
		}
	}
}

// FuzzParse: any judge output parses to a verdict or fails with
// ErrNoVerdict, never panics; a verdict has at least one field.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"scores":{"Domain":4,"Reasoning":3.5},"checklist":["hit",false],"rank":2}`,
		"Here:\n```json\n{\"Domain\":5}\n```",
		`prose {"Domain":"4","Domain":"5"} end`,
		`{"a": "} {", "Domain": 1}`,
		"```\n{\n```",
	} {
		f.Add(s)
	}
	nested := Spec{Rubric: map[string]string{"Domain": "/scores/Domain"}, Checklist: "/checklist/{index}", Rank: "/rank"}
	f.Fuzz(func(t *testing.T, text string) {
		for _, spec := range []Spec{{}, nested} {
			p, err := New(spec, attrs)
			if err != nil {
				t.Fatal(err)
			}
			v, err := p.Parse(text, 2)
			if err != nil {
				if !errors.Is(err, ErrNoVerdict) {
					t.Errorf("Parse(%q): error %v does not wrap ErrNoVerdict", text, err)
				}
				continue
			}
			if len(v) == 0 {
				t.Errorf("Parse(%q): empty verdict without an error", text)
			}
		}
	})
}
