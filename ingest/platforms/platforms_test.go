package platforms

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/ingest/config"
)

// testMap maps names as the defaults of the ingest package would for the
// names used here.
func testMap(name string) (config.ImportTarget, bool) {
	switch name {
	case "Domain", "domain":
		return config.ImportTarget{Kind: config.TargetRubric, Attribute: "Domain"}, true
	case "c1":
		return config.ImportTarget{Kind: config.TargetChecklist, Item: 1}, true
	case "rank":
		return config.ImportTarget{Kind: config.TargetRank}, true
	case "pw", "winner":
		return config.ImportTarget{Kind: config.TargetPairwise}, true
	case "notes":
		return config.ImportTarget{Kind: config.TargetComment}, true
	case "question_id", "model", "label", "model_a", "model_b":
		return config.ImportTarget{Kind: name}, true
	case "skip":
		return config.ImportTarget{Kind: config.TargetIgnore}, true
	}
	return config.ImportTarget{}, false
}

func decode(t *testing.T, s string) map[string]any {
	t.Helper()
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

// short renders items as "evaluator q/model|label instrument key=value".
func short(items []Item) []string {
	var out []string
	for _, it := range items {
		id := it.IDs["model"].Value
		if l := it.IDs["label"].Value; l != "" {
			id += "|" + l
		}
		if a := it.IDs["model_a"].Value; a != "" {
			id = a + "-" + it.IDs["model_b"].Value
		}
		out = append(out, fmt.Sprintf("%s %s/%s %s %s=%s", it.Evaluator, it.IDs["question_id"].Value, id, it.Instrument, it.Key, it.Value))
	}
	return out
}

func TestDetect(t *testing.T) {
	tests := []struct {
		rec  string
		want Format
	}{
		{`{"id": 1, "data": {}, "annotations": []}`, LabelStudio},
		{`{"id": 1, "data": {}, "completions": []}`, LabelStudio},
		{`{"id": 1, "annotator": "a", "annotation_id": 3}`, LabelStudioFlat},
		{`{"id": "r", "q.responses": [], "status": "pending"}`, Argilla},
		{`{"id": 1, "data": {}}`, None},
		{`{".responses": []}`, None},
		{`{"evaluator": "a", "question_id": "q1"}`, None},
	}
	for _, tc := range tests {
		if got := DetectRecord(decode(t, tc.rec)); got != tc.want {
			t.Errorf("DetectRecord(%s) = %q, want %q", tc.rec, got, tc.want)
		}
	}
}

func TestLabelStudioTask(t *testing.T) {
	r := NewReader(LabelStudio, testMap)
	r.Record(1, decode(t, `{"id": 5, "data": {"question_id": "q1", "model": "m1", "text": "…"}, "annotations": [
		{"completed_by": {"id": 1, "email": "a@x"}, "result": [
			{"from_name": "Domain", "type": "rating", "value": {"rating": 4}},
			{"from_name": "c1", "type": "choices", "value": {"choices": ["Yes"]}},
			{"from_name": "notes", "type": "textarea", "value": {"text": ["line 1", "line 2"]}},
			{"from_name": "style", "type": "rating", "value": {"rating": 2}},
			{"from_name": "skip", "type": "labels", "value": {"labels": ["x"]}}]},
		{"completed_by": 7, "result": [{"from_name": "Domain", "type": "number", "value": {"number": 3.5}}]},
		{"completed_by": 8, "was_cancelled": true, "result": [{"from_name": "Domain", "type": "rating", "value": {"rating": 1}}]},
		{"completed_by": 9, "result": []}]}`))
	want := []string{"a@x q1/m1 rubric Domain=4", "a@x q1/m1 checklist 1=Yes", "a@x q1/m1 comment =line 1\nline 2", "7 q1/m1 rubric Domain=3.5"}
	if got := short(r.Items); !reflect.DeepEqual(got, want) {
		t.Errorf("items %q, want %q", got, want)
	}
	if r.Cancelled != 1 || r.Empty != 1 || r.Unmapped["style"] != "rating" || len(r.Unmapped) != 1 || len(r.Problems) != 0 {
		t.Errorf("cancelled %d, empty %d, unmapped %v, problems %v; want 1, 1, [style], none", r.Cancelled, r.Empty, r.Unmapped, r.Problems)
	}
}

func TestRankingsAndPairwise(t *testing.T) {
	r := NewReader(LabelStudio, testMap)
	r.Record(1, decode(t, `{"data": {"question_id": "q1"}, "annotations": [{"completed_by": 2, "result": [
		{"from_name": "rank", "type": "ranker", "value": {"ranker": {"rank": ["B", "m1", "C"]}}}]}]}`))
	r.Record(2, decode(t, `{"data": {"question_id": "q1", "model_a": "m1", "model_b": "m2"}, "annotations": [{"completed_by": 2, "result": [
		{"from_name": "pw", "to_name": "pw", "type": "pairwise", "value": {"selected": "right"}}]}]}`))
	a := NewReader(Argilla, testMap)
	a.Record(3, decode(t, `{"question_id": "q2", "rank.responses": [["m2", "m1"], [{"value": "m1", "rank": 1}, {"value": "m2", "rank": 2}]],
		"rank.responses.users": ["u1", "u2"], "rank.responses.status": ["submitted", "submitted"]}`))
	want := []string{"2 q1/B rank =1", "2 q1/m1 rank =2", "2 q1/C rank =3", "2 q1/m1-m2 pairwise =b",
		"u1 q2/m2 rank =1", "u1 q2/m1 rank =2", "u2 q2/m1 rank =1", "u2 q2/m2 rank =2"}
	if got := short(append(r.Items, a.Items...)); !reflect.DeepEqual(got, want) {
		t.Errorf("items\n%q\nwant\n%q", got, want)
	}
	for _, it := range append(r.Items[:3], a.Items...) {
		if !it.Ranked {
			t.Errorf("item %+v from a ranking is not marked Ranked", it)
		}
	}
}

func TestArgillaStatus(t *testing.T) {
	r := NewReader(Argilla, testMap)
	r.Record(1, decode(t, `{"id": "r1", "status": "completed", "question_id": "q1", "model": "m1", "domain.responses": [4, 2, 5, 1],
		"domain.responses.users": ["u1", "u2", "u3", "u4"], "domain.responses.status": ["submitted", "draft", "discarded", "submitted"],
		"domain.suggestion": 3, "domain.suggestion.agent": "gpt", "c1.responses": null, "other.responses": ["x"],
		"other.responses.users": ["u1"], "other.responses.status": ["submitted"]}`))
	if got, want := short(r.Items), []string{"u1 q1/m1 rubric Domain=4", "u4 q1/m1 rubric Domain=1"}; !reflect.DeepEqual(got, want) {
		t.Errorf("items %q, want %q", got, want)
	}
	if !reflect.DeepEqual(r.NotSubmitted, map[string]int{"draft": 1, "discarded": 1}) || len(r.Unmapped) != 1 {
		t.Errorf("not submitted %v, unmapped %v", r.NotSubmitted, r.Unmapped)
	}
}

func TestFlatRows(t *testing.T) {
	r := NewReader(LabelStudioFlat, testMap)
	r.Row(2, map[string]string{"annotator": "a@x", "annotation_id": "1", "question_id": "q1", "label": "A", "model": "", "style": `[{"rating":2}]`,
		"Domain": `[{"rating":5}]`, "c1": "no", "notes": "", "rank": `[{"number":2}]`, "text": "[not json"})
	r.Row(3, map[string]string{"annotator": "", "annotation_id": "2", "question_id": "q1", "Domain": `[{"rating":5}]`})
	r.Row(4, map[string]string{"annotator": "b", "annotation_id": "3", "question_id": "q1", "Domain": `[{"rating":5},{"rating":4}]`, "c1": `[{"labels":["x"]}]`})
	if got, want := short(r.Items), []string{"a@x q1/|A rubric Domain=5", "a@x q1/|A checklist 1=no", "a@x q1/|A rank =2"}; !reflect.DeepEqual(got, want) {
		t.Errorf("items %q, want %q", got, want)
	}
	if len(r.Unmapped) != 1 || r.Unmapped["style"] != "rating" {
		t.Errorf("unmapped %v, want style (a result list; text is a data field)", r.Unmapped)
	}
	var probs []string
	for _, p := range r.Problems {
		probs = append(probs, fmt.Sprintf("%d %s %s: %s", p.Record, p.Field, p.Value, p.Expected))
	}
	want := []string{
		"3 annotator : the annotator (an email or user id)",
		`4 Domain [{"rating":5},{"rating":4}]: one result per question and annotation`,
		`4 c1 [{"labels":["x"]}]: a rating, number, choices, text, ranker or pairwise (selected) value`,
	}
	if !reflect.DeepEqual(probs, want) {
		t.Errorf("problems\n%q\nwant\n%q", probs, want)
	}
}

func TestParseList(t *testing.T) {
	tests := []struct {
		in   string
		want string // JSON of the result, or "error: …"
	}{
		{`[4, 3.5]`, `[4,3.5]`},
		{`['a', "b's", 'c\'d', 'e\\f', '\u00e9\n']`, `["a","b's","c'd","e\\f","é\n"]`},
		{`[None, True, False, nan]`, `[null,true,false,null]`},
		{`[['m1', 'm2'], [{'value': 'm1', 'rank': 1}]]`, `[["m1","m2"],[{"rank":1,"value":"m1"}]]`},
		{`["json", 1]`, `["json",1]`},
		{`[]`, `[]`},
		{`['a',`, `error: character 6: a value expected, found the end`},
		{`['a' 'b']`, `error: character 6: ',' or ']' expected`},
		{`['open`, `error: character 2: a text in quotes not closed`},
		{`[x1]`, `error: character 2: a text in quotes, a number, None, True or False expected, found "x1"`},
		{`4`, `error: not a list`},
		{`[1] 2`, `error: unexpected "2" at character 5`},
		{"[" + strings.Repeat("(", 100) + strings.Repeat(")", 100) + "]", `error: character 66: lists nested more than 64 deep`},
	}
	for _, tc := range tests {
		l, err := ParseList(tc.in)
		got := ""
		if err != nil {
			got = "error: " + err.Error()
		} else {
			b, _ := json.Marshal(l)
			got = string(b)
		}
		if got != tc.want {
			t.Errorf("ParseList(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// FuzzReader feeds arbitrary JSON records and CSV rows to every format:
// the reader must not panic, and every item must name its instrument and
// every problem what was expected.
func FuzzReader(f *testing.F) {
	f.Add(`{"data":{"question_id":"q"},"annotations":[{"completed_by":{"email":1},"result":[{"from_name":"rank","type":"ranker","value":{"ranker":{"rank":[1,null,{}]}}}]}]}`, "")
	f.Add(`{"q.responses":[1,[2],{"a":1}],"q.responses.users":[null,1,"u"],"q.responses.status":["submitted","submitted","submitted"],"question_id":"x"}`, "")
	f.Add(`{"annotator":"a","annotation_id":1,"Domain":[{"rating":[1]}],"pw":[{"selected":null}]}`, `[{"ranker":{"x":[]}}]`)
	f.Fuzz(func(t *testing.T, rec, cell string) {
		d := json.NewDecoder(strings.NewReader(rec))
		d.UseNumber()
		var m map[string]any
		if d.Decode(&m) != nil {
			m = map[string]any{}
		}
		for _, format := range []Format{LabelStudio, LabelStudioFlat, Argilla} {
			r := NewReader(format, testMap)
			r.Record(1, m)
			cells := map[string]string{"annotator": "a", "annotation_id": "1", "Domain": cell, "rank": cell, "pw": cell,
				"domain.responses": cell, "domain.responses.users": cell, "domain.responses.status": cell}
			r.Row(2, cells)
			for _, it := range r.Items {
				if it.Instrument == "" || it.Evaluator == "" {
					t.Errorf("%s: item %+v without instrument or evaluator", format, it)
				}
			}
			for _, p := range r.Problems {
				if p.Expected == "" || p.Record < 1 {
					t.Errorf("%s: problem %+v does not say where or what was expected", format, p)
				}
			}
		}
	})
}

// FuzzParseList: any cell parses or errs, never panics; a list parsed
// from JSON text is the same list.
func FuzzParseList(f *testing.F) {
	for _, s := range []string{`['a', 1]`, `[{'k': [None]}]`, `["x\u00e9"]`, `[(1, 2)]`, `['\x41\U0001F600']`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := ParseList(s)
		if err == nil && l == nil {
			t.Errorf("ParseList(%q): nil list without an error", s)
		}
	})
}

// A nested Argilla record (records.to_json) reads as its flat form;
// responses without a status count as submitted.
func TestArgillaNested(t *testing.T) {
	rec := decode(t, `{"id": "r1", "fields": {"prompt": "p", "question_id": "q1"}, "metadata": {"model": "m1"},
		"suggestions": {"domain": {"value": 2, "score": 0.5, "agent": "gpt"}}, "vectors": {}, "_server_id": "x",
		"responses": {"domain": [{"value": 4, "user_id": "u1"}, {"value": 1, "user_id": "u2", "status": "draft"}], "c1": [{"value": "yes", "user_id": "u1", "status": "submitted"}]}}`)
	if f := DetectRecord(rec); f != Argilla {
		t.Fatalf("DetectRecord = %q, want Argilla", f)
	}
	r := NewReader(Argilla, testMap)
	r.Record(1, rec)
	if got, want := short(r.Items), []string{"u1 q1/m1 checklist 1=yes", "u1 q1/m1 rubric Domain=4"}; !reflect.DeepEqual(got, want) {
		t.Errorf("items %q, want %q", got, want)
	}
	if r.Unstated != 1 || r.NotSubmitted["draft"] != 1 {
		t.Errorf("unstated %d, not submitted %v; want 1 and 1 draft", r.Unstated, r.NotSubmitted)
	}
}
