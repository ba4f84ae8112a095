package platforms

import (
	"fmt"
	"strings"

	"github.com/euroexec/euroexec/ingest/config"
)

// resultTypes are the Label Studio result types read, by the key of their
// value object (label-studio-converter utils.py prettify_result drops the
// type in flat exports, so the key tells it there).
var resultTypes = map[string]string{
	"rating": "rating", "number": "number", "choices": "choices", "textarea": "text",
	"ranker": "ranker", "pairwise": "selected",
}

// task reads one task of a Label Studio JSON export.
func (r *Reader) task(n int, task map[string]any) {
	if !r.once(n, "id", "task", task["id"]) {
		return
	}
	data, ok := task["data"].(map[string]any)
	if !ok {
		r.problem(n, "data", describe(task["data"]), "a task with a data object (the fields of the graded response)")
		return
	}
	ids := r.ids(data)
	anns, ok := task["annotations"].([]any)
	if !ok {
		anns, _ = task["completions"].([]any)
	}
	for ai, a := range anns {
		am, ok := a.(map[string]any)
		if !ok {
			r.problem(n, fmt.Sprintf("annotations[%d]", ai), describe(a), "an annotation object")
			continue
		}
		if !r.once(n, "annotations.id", "annotation", am["id"]) {
			continue
		}
		if truthy(am["was_cancelled"]) || truthy(am["skipped"]) {
			r.Cancelled++
			continue
		}
		ev, ok := annotator(am["completed_by"])
		if f, mapped := ids[config.TargetEvaluator]; mapped {
			ev, ok = f.Value, true
		}
		if !ok || strings.TrimSpace(ev) == "" {
			r.problem(n, "completed_by", describe(am["completed_by"]), fmt.Sprintf("the annotator of annotation %d: a user id or {\"email\": …}", ai+1))
			continue
		}
		res, ok := am["result"].([]any)
		if !ok && am["result"] != nil {
			r.problem(n, "result", describe(am["result"]), fmt.Sprintf("the results of annotation %d: a list of {from_name, type, value}", ai+1))
			continue
		}
		if len(res) == 0 {
			r.Empty++
			continue
		}
		for _, x := range res {
			rm, ok := x.(map[string]any)
			if !ok {
				r.problem(n, "result", describe(x), "a result object {from_name, type, value}")
				continue
			}
			from, _ := rm["from_name"].(string)
			typ, _ := rm["type"].(string)
			val, ok := rm["value"].(map[string]any)
			if from == "" || !ok {
				r.problem(n, "result", describe(x), "a result with a from_name and a value object")
				continue
			}
			typ = strings.ToLower(typ)
			key, known := resultTypes[typ]
			if !known {
				if t, mapped := r.Map(from); mapped && t.Kind != config.TargetIgnore {
					r.problem(n, from, typ, "a rating, number, choices, textarea, ranker or pairwise result")
				} else if !mapped {
					r.Unmapped[from] = typ
				}
				continue
			}
			r.emit(n, ev, ids, from, typ, val[key])
		}
	}
}

// annotator is the grader of an annotation: completed_by's email, else its
// user id (label-studio-converter utils.py get_annotator).
func annotator(v any) (string, bool) {
	if m, ok := v.(map[string]any); ok {
		if e, ok := m["email"].(string); ok && strings.TrimSpace(e) != "" {
			return e, true
		}
		v = m["id"]
	}
	s, ok := Text(v)
	return s, ok && s != ""
}

func truthy(v any) bool {
	switch x := v.(type) {
	case bool:
		return x
	case string:
		return strings.EqualFold(strings.TrimSpace(x), "true")
	}
	return false
}

// flatMeta are the columns a Label Studio flat export adds to the data
// fields and questions (exports/csv2.py).
var flatMeta = map[string]bool{
	"annotator": true, "annotation_id": true, "created_at": true, "updated_at": true,
	"lead_time": true, "agreement": true, "history": true, "id": true,
}

// flat reads one record of a Label Studio CSV or JSON-MIN export: one
// annotation, its data fields and a column per from_name.
func (r *Reader) flat(n int, rec map[string]any) {
	if !r.once(n, "annotation_id", "annotation", rec["annotation_id"]) {
		return
	}
	ids := r.ids(rec)
	ev, ok := Text(rec["annotator"])
	if f, mapped := ids[config.TargetEvaluator]; mapped {
		ev, ok = f.Value, true
	}
	if !ok || strings.TrimSpace(ev) == "" {
		r.problem(n, "annotator", describe(rec["annotator"]), "the annotator (an email or user id)")
		return
	}
	names := sortedKeys(rec)
	answered := false
	for _, k := range names {
		if flatMeta[k] {
			continue
		}
		t, mapped := r.Map(k)
		v := rec[k]
		if !mapped {
			if resultList(v) {
				r.Unmapped[k] = resultType(v) // a question's results; other columns are data fields
			}
			continue
		}
		if isID(t.Kind) || t.Kind == config.TargetIgnore {
			continue
		}
		if l, ok := v.([]any); ok && len(l) > 0 {
			// a list of result values without their type: [{"rating": 4}]
			if m, ok := l[0].(map[string]any); ok {
				if len(l) != 1 {
					r.problem(n, k, describe(v), "one result per question and annotation")
					continue
				}
				typ, val := "", any(nil)
				for t, key := range resultTypes {
					if x, ok := m[key]; ok {
						typ, val = t, x
						break
					}
				}
				if typ == "" {
					r.problem(n, k, describe(v), "a rating, number, choices, text, ranker or pairwise (selected) value")
					continue
				}
				answered = true
				r.emit(n, ev, ids, k, typ, val)
				continue
			}
		}
		if s, ok := v.(string); ok && strings.TrimSpace(s) == "" {
			continue
		}
		answered = true
		typ := "choices"
		if t.Kind == config.TargetComment {
			typ = "textarea"
		}
		r.emit(n, ev, ids, k, typ, v)
	}
	if !answered {
		r.Empty++
	}
}

// resultType is the type of a flat export's result list ("" when none).
func resultType(v any) string {
	l, _ := v.([]any)
	if len(l) == 0 {
		return ""
	}
	m, _ := l[0].(map[string]any)
	for t, key := range resultTypes {
		if _, ok := m[key]; ok {
			return t
		}
	}
	return ""
}

// resultList reports whether a flat export's value is a list of result
// values ([{"rating": 4}]), which only questions hold.
func resultList(v any) bool {
	l, ok := v.([]any)
	if !ok || len(l) == 0 {
		return false
	}
	m, ok := l[0].(map[string]any)
	if !ok {
		return false
	}
	for _, key := range resultTypes {
		if _, ok := m[key]; ok {
			return true
		}
	}
	return false
}
