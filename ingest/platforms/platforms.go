// Package platforms reads the exports of annotation platforms into grading
// items, one value of one grader on one response each, so that the ingest
// package checks and loads them like the rows of a long-form grading sheet.
//
// Formats (each shape follows the platform's own exporter; the fixtures in
// ingest/testdata/platforms name the source file they follow):
//
//   - Label Studio JSON export: an array of tasks {id, data: {…},
//     annotations: [{id, completed_by, result: [{from_name, to_name, type,
//     value}], was_cancelled, …}]} (label-studio-converter,
//     converter.py annotation_result_from_task). completed_by is a user id
//     or an object with an email; cancelled (was_cancelled, skipped)
//     annotations are skipped and counted.
//   - Label Studio CSV and JSON-MIN exports: one record per annotation with
//     the task's data fields, a column per from_name, annotator and
//     annotation_id (label-studio-converter, exports/csv2.py): a single
//     choice or text as is, anything else as the JSON list of the result
//     values without their type ([{"rating": 4}]).
//   - Argilla v2 flat records (Dataset.records.to_list(flatten=True) as a
//     JSON array or JSON Lines, to_pandas() written as CSV): fields and
//     metadata as keys, and per question <q>.responses (the values),
//     <q>.responses.users (user ids) and <q>.responses.status (argilla
//     records/_io/_generic.py); only submitted responses are counted. In a
//     CSV written by pandas the lists are Python literals (['a', 'b']).
//     The nested records of records.to_json and Dataset.to_disk ({id,
//     fields, metadata, responses: {q: [{value, user_id, status}]}}) are
//     read the same way; a response without a status counts as submitted.
//
// Result types: Label Studio rating, number, choices (one choice), textarea
// (comments), ranker (the order of a List's item ids, 1 = first) and
// pairwise (left = the first-shown answer, model_a); Argilla numbers, texts,
// one-label selections and rankings (a list of item ids, best first, or of
// {value, rank} objects). Which instrument field a question feeds is the
// caller's Mapper (study.toml [import]).
package platforms

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/euroexec/euroexec/ingest/config"
)

// Format is the shape of one export.
type Format string

// The formats read.
const (
	// None is a file of no platform's shape.
	None Format = ""
	// LabelStudio is Label Studio's JSON export: tasks with annotations.
	LabelStudio Format = "Label Studio JSON export"
	// LabelStudioFlat is Label Studio's CSV/TSV or JSON-MIN export: one
	// record per annotation.
	LabelStudioFlat Format = "Label Studio CSV/JSON-MIN export"
	// Argilla is an Argilla v2 flat record export.
	Argilla Format = "Argilla flat export"
)

// Instruments of an Item.
const (
	Rubric    = "rubric"
	Checklist = "checklist"
	Rank      = "rank"
	Pairwise  = "pairwise"
	Comment   = "comment"
)

// Mapper says which instrument field or id a platform name (a from_name,
// question, data field or column as written) stands for; false when none.
type Mapper func(name string) (config.ImportTarget, bool)

// Field is a value with the platform name it came from.
type Field struct {
	Name, Value string
}

// Item is one value of one grader on one response.
type Item struct {
	// Record is the 1-based position of the task, annotation or record in
	// the file (the caller turns it into a row or line).
	Record int
	// Field is the platform name holding the value (from_name, question,
	// column).
	Field string
	// Evaluator is the grader: the Label Studio annotator (email, else
	// user id), the Argilla user id, or a data field mapped to evaluator.
	Evaluator string
	// IDs are the identifying data fields by target: question_id, model,
	// label, model_a, model_b, label_a, label_b.
	IDs map[string]Field
	// Instrument is Rubric, Checklist, Rank, Pairwise or Comment.
	Instrument string
	// Key is the rubric attribute or the checklist item number.
	Key string
	// Value is the value as text (a pairwise verdict as a, b or tie).
	Value string
	// Ranked says the item comes from a ranking: IDs[model] is the
	// ranked response's id as the platform holds it, a model name or a
	// blinded label.
	Ranked bool
}

// Problem is a value of the export that is not what its platform writes.
type Problem struct {
	// Record is the 1-based position of the task or record, as in Item.
	Record int
	// Field is the platform name of the value at fault ("completed_by",
	// a from_name, "<question>.responses.users", …).
	Field string
	// Value is the value found, as text ("" when missing).
	Value string
	// Expected says what the platform writes there instead.
	Expected string
}

// Reader turns the records of one export into Items. Its counters are the
// notes the caller reports.
type Reader struct {
	// Format is the export's shape.
	Format Format
	// Map resolves platform names.
	Map Mapper
	// Items and Problems collect the output.
	Items    []Item
	Problems []Problem
	// Cancelled counts skipped Label Studio annotations (was_cancelled or
	// skipped); Empty those without a result.
	Cancelled, Empty int
	// NotSubmitted counts Argilla responses left out, by status.
	NotSubmitted map[string]int
	// Unstated counts Argilla responses of a nested export that say no
	// status (records.to_json writes none): they are counted as submitted.
	Unstated int
	// Unmapped are the platform questions that map to nothing, with their
	// result type ("rating", "choices", "pairwise", …; "" when unknown).
	Unmapped map[string]string
	// Unit is what the caller calls a record's position in problems
	// ("line", "row"; default "record").
	Unit string
	// seen holds, per id field (a task's id, an annotation's id or
	// annotation_id, an Argilla record's id), the record of each id read.
	seen map[string]map[string]int
}

// NewReader returns a reader of the format.
func NewReader(f Format, m Mapper) *Reader {
	return &Reader{Format: f, Map: m, NotSubmitted: map[string]int{}, Unmapped: map[string]string{}}
}

// DetectRecord tells the format of an export from its first record (a JSON
// object): a Label Studio task has data and annotations (or the older
// completions); a JSON-MIN record has annotator and annotation_id; an
// Argilla flat record has a key ending in ".responses".
func DetectRecord(rec map[string]any) Format {
	_, data := rec["data"].(map[string]any)
	_, anns := rec["annotations"].([]any)
	_, comps := rec["completions"].([]any)
	if data && (anns || comps) {
		return LabelStudio
	}
	_, fields := rec["fields"].(map[string]any)
	_, responses := rec["responses"].(map[string]any)
	if fields && responses {
		return Argilla // nested: records.to_json, Dataset.to_disk
	}
	keys := make([]string, 0, len(rec))
	for k := range rec {
		keys = append(keys, k)
	}
	return DetectHeader(keys)
}

// DetectHeader tells the format of a CSV/TSV export from its header.
func DetectHeader(cols []string) Format {
	annotator, annID := false, false
	for _, c := range cols {
		c = strings.TrimSpace(c)
		switch {
		case c == "annotator":
			annotator = true
		case c == "annotation_id":
			annID = true
		case strings.HasSuffix(c, ".responses") && len(c) > len(".responses"):
			return Argilla
		}
	}
	if annotator && annID {
		return LabelStudioFlat
	}
	return None
}

// Record reads one record of a JSON or JSON Lines export (n from 1).
func (r *Reader) Record(n int, rec map[string]any) {
	switch r.Format {
	case LabelStudio:
		r.task(n, rec)
	case LabelStudioFlat:
		r.flat(n, rec)
	case Argilla:
		r.argilla(n, rec)
	}
}

// Row reads one row of a CSV/TSV export: its cells by column name as
// written (n is the row number the caller reports).
func (r *Reader) Row(n int, cells map[string]string) {
	rec := make(map[string]any, len(cells))
	for k, v := range cells {
		rec[k] = v
	}
	switch r.Format {
	case LabelStudioFlat:
		for k, v := range cells {
			if t := strings.TrimSpace(v); strings.HasPrefix(t, "[") || strings.HasPrefix(t, "{") {
				if x, ok := decodeJSON(t); ok {
					rec[k] = x
				}
			}
		}
		r.flat(n, rec)
	case Argilla:
		for k, v := range cells {
			if strings.Contains(k, ".responses") && strings.TrimSpace(v) == "" {
				rec[k] = nil // pandas writes None as an empty cell
				continue
			}
			if strings.Contains(k, ".responses") {
				x, err := ParseList(v)
				if err != nil {
					r.problem(n, k, v, "a list of values, as pandas writes it (['…', '…'] or JSON): "+err.Error())
					delete(rec, k)
					continue
				}
				rec[k] = x
			}
		}
		r.argilla(n, rec)
	}
}

func decodeJSON(s string) (any, bool) {
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var x any
	if d.Decode(&x) != nil || d.More() {
		return nil, false
	}
	return x, true
}

// once reports whether the id v of field (what, for the problem: "task",
// "annotation", "record") is new in the export; an id seen before is a
// problem naming the record that has it first. A missing or empty id is
// not checked.
func (r *Reader) once(n int, field, what string, v any) bool {
	id, ok := Text(v)
	if !ok || strings.TrimSpace(id) == "" {
		return true
	}
	if r.seen == nil {
		r.seen = map[string]map[string]int{}
	}
	ids := r.seen[field]
	if ids == nil {
		ids = map[string]int{}
		r.seen[field] = ids
	}
	if first, dup := ids[id]; dup {
		unit := r.Unit
		if unit == "" {
			unit = "record"
		}
		r.problem(n, field, id, fmt.Sprintf("each %s id once in the export (%s %d has it too: exported twice?)", what, unit, first))
		return false
	}
	ids[strings.Clone(id)] = n
	return true
}

func (r *Reader) problem(n int, field, value, expected string) {
	r.Problems = append(r.Problems, Problem{Record: n, Field: field, Value: value, Expected: expected})
}

// ids collects the identifying fields of a record (task data, Argilla
// fields and metadata, flat columns) through the mapper.
func (r *Reader) ids(rec map[string]any) map[string]Field {
	out := map[string]Field{}
	names := make([]string, 0, len(rec))
	for k := range rec {
		names = append(names, k)
	}
	sort.Strings(names) // the first of two fields mapped alike wins, whatever the map order
	for _, k := range names {
		t, ok := r.Map(k)
		if !ok || !isID(t.Kind) {
			continue
		}
		if _, dup := out[t.Kind]; dup {
			continue
		}
		s, ok := Text(rec[k])
		if !ok {
			continue
		}
		out[t.Kind] = Field{Name: k, Value: s}
	}
	return out
}

func isID(kind string) bool {
	switch kind {
	case config.TargetQuestionID, config.TargetModel, config.TargetLabel, config.TargetModelA,
		config.TargetModelB, config.TargetLabelA, config.TargetLabelB, config.TargetEvaluator:
		return true
	}
	return false
}

// Text renders a scalar JSON value as text: strings as is, numbers as
// written, true/false as "true"/"false", null as "". Arrays and objects
// are not scalars (false).
func Text(v any) (string, bool) {
	switch x := v.(type) {
	case nil:
		return "", true
	case string:
		return x, true
	case json.Number:
		return x.String(), true
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64), true
	case bool:
		return strconv.FormatBool(x), true
	}
	return "", false
}

// describe renders any JSON value compactly for a problem.
func describe(v any) string {
	if s, ok := Text(v); ok {
		return s
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return fmt.Sprint(v)
	}
	s := strings.TrimSpace(b.String())
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// emit adds the value v of platform name field, of result type typ, as
// the target the mapper gives.
func (r *Reader) emit(n int, ev string, ids map[string]Field, field, typ string, v any) {
	t, ok := r.Map(field)
	if !ok {
		r.Unmapped[field] = typ
		return
	}
	if t.Kind == config.TargetIgnore {
		return
	}
	if isID(t.Kind) {
		r.problem(n, field, describe(v), fmt.Sprintf("a question mapped to an instrument field ([import] maps %q to %s, a data field's target)", field, t.Kind))
		return
	}
	it := Item{Record: n, Field: field, Evaluator: ev, IDs: ids}
	switch t.Kind {
	case config.TargetRubric:
		it.Instrument, it.Key = Rubric, t.Attribute
	case config.TargetChecklist:
		it.Instrument, it.Key = Checklist, strconv.Itoa(t.Item)
	case config.TargetRank:
		it.Instrument = Rank
	case config.TargetPairwise:
		it.Instrument = Pairwise
	case config.TargetComment:
		it.Instrument = Comment
	default:
		return
	}
	switch typ {
	case "ranker", "ranking":
		if it.Instrument != Rank {
			r.problem(n, field, describe(v), fmt.Sprintf("a %s value; a ranking goes to the target rank", it.Instrument))
			return
		}
		r.ranking(it, typ, v)
		return
	case "pairwise":
		s, _ := Text(v)
		switch strings.ToLower(strings.TrimSpace(s)) {
		case "left":
			s = "a"
		case "right":
			s = "b"
		default:
			r.problem(n, field, describe(v), `a pairwise selection "left" or "right"`)
			return
		}
		if it.Instrument != Pairwise {
			r.problem(n, field, s, fmt.Sprintf("a %s value; a Pairwise result goes to the target pairwise", it.Instrument))
			return
		}
		it.Value = s
	case "textarea":
		it.Value = joinTexts(v)
	default: // rating, number, choices (one), a plain value
		if l, ok := v.([]any); ok {
			if len(l) != 1 && it.Instrument != Comment {
				r.problem(n, field, describe(v), fmt.Sprintf("one choice for a %s value (found %d)", it.Instrument, len(l)))
				return
			}
			it.Value = joinTexts(l)
			break
		}
		s, ok := Text(v)
		if !ok {
			r.problem(n, field, describe(v), fmt.Sprintf("a number or a text for a %s value", it.Instrument))
			return
		}
		it.Value = s
	}
	if strings.TrimSpace(it.Value) == "" {
		return // no answer
	}
	r.Items = append(r.Items, it)
}

// joinTexts joins a list of texts (a TextArea's lines, choices) with
// newlines; a scalar is its text.
func joinTexts(v any) string {
	l, ok := v.([]any)
	if !ok {
		s, _ := Text(v)
		return s
	}
	var parts []string
	for _, x := range l {
		if s, ok := Text(x); ok {
			parts = append(parts, s)
		} else {
			parts = append(parts, describe(x))
		}
	}
	return strings.Join(parts, "\n")
}

// ranking turns an ordered list of response ids into a rank per response:
// a Label Studio Ranker value {"<from_name>": [ids…]} (one list), or an
// Argilla ranking ([ids…] best first, or [{value, rank}…]).
func (r *Reader) ranking(it Item, typ string, v any) {
	var order []any
	switch x := v.(type) {
	case map[string]any:
		if l, ok := x[it.Field].([]any); ok {
			order = l
		} else if len(x) == 1 {
			for _, l := range x {
				order, _ = l.([]any)
			}
		}
		if order == nil {
			r.problem(it.Record, it.Field, describe(v), fmt.Sprintf("a Ranker result without buckets: {%q: [item ids, best first]}", it.Field))
			return
		}
	case []any:
		order = x
	default:
		r.problem(it.Record, it.Field, describe(v), "a ranking: a list of response ids, best first")
		return
	}
	seen := map[string]bool{}
	for i, x := range order {
		id, rank := "", strconv.Itoa(i+1)
		if m, ok := x.(map[string]any); ok { // Argilla {value, rank}
			id, _ = Text(m["value"])
			if s, ok := Text(m["rank"]); ok && s != "" {
				rank = s
			}
		} else if s, ok := Text(x); ok {
			id = s
		}
		id = strings.TrimSpace(id)
		if id == "" || seen[id] {
			r.problem(it.Record, it.Field, describe(v), "a ranking: a list of distinct response ids (model names or labels), best first")
			return
		}
		seen[id] = true
		ids := make(map[string]Field, len(it.IDs)+1)
		for k, f := range it.IDs {
			if k != config.TargetModel && k != config.TargetLabel {
				ids[k] = f
			}
		}
		ids[config.TargetModel] = Field{Name: it.Field, Value: id}
		one := it
		one.IDs, one.Value, one.Ranked = ids, rank, true
		r.Items = append(r.Items, one)
	}
}

// SuggestTarget names the [import] target a question of result type typ
// most likely stands for, for a hint: rank for a ranking, pairwise for a
// pairwise selection, comment for a text, checklist:C1 for choices, else
// the first rubric attribute.
func SuggestTarget(typ, firstAttribute string) string {
	switch typ {
	case "ranker", "ranking":
		return config.TargetRank
	case "pairwise":
		return config.TargetPairwise
	case "textarea":
		return config.TargetComment
	case "choices":
		return "checklist:C1"
	}
	return "rubric:" + firstAttribute
}
