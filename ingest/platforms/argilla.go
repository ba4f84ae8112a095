package platforms

import (
	"fmt"
	"sort"
	"strings"

	"github.com/euroexec/euroexec/ingest/config"
)

// argilla reads one Argilla v2 flat record: per question q, the lists
// q.responses, q.responses.users and q.responses.status (one entry per
// response; records/_io/_generic.py). Only submitted responses count.
func (r *Reader) argilla(n int, rec map[string]any) {
	if !r.once(n, "id", "record", rec["id"]) {
		return
	}
	if f, ok := rec["fields"].(map[string]any); ok {
		if rs, ok := rec["responses"].(map[string]any); ok {
			rec = r.flatten(n, rec, f, rs)
		}
	}
	ids := r.ids(rec)
	for _, k := range sortedKeys(rec) {
		q, ok := strings.CutSuffix(k, ".responses")
		if !ok || q == "" || rec[k] == nil {
			continue
		}
		vals, ok := rec[k].([]any)
		if !ok {
			r.problem(n, k, describe(rec[k]), "a list of response values")
			continue
		}
		users, ok1 := rec[k+".users"].([]any)
		status, ok2 := rec[k+".status"].([]any)
		if !ok1 || !ok2 || len(users) != len(vals) || len(status) != len(vals) {
			r.problem(n, k+".users", describe(rec[k+".users"]),
				fmt.Sprintf("%s.users and %s.status lists as long as %s (%d responses)", k, k, k, len(vals)))
			continue
		}
		t, mapped := r.Map(q)
		if !mapped {
			r.Unmapped[q] = ""
			continue
		}
		if t.Kind == config.TargetIgnore {
			continue
		}
		for i, v := range vals {
			st, _ := Text(status[i])
			if st != "submitted" {
				if st == "" {
					st = "no status"
				}
				r.NotSubmitted[st]++
				continue
			}
			ev, ok := Text(users[i])
			if f, m := ids[config.TargetEvaluator]; m {
				ev, ok = f.Value, true
			}
			if !ok || strings.TrimSpace(ev) == "" {
				r.problem(n, k+".users", describe(users[i]), fmt.Sprintf("the user of response %d (a user id)", i+1))
				continue
			}
			typ := "value"
			if t.Kind == config.TargetRank {
				if _, list := v.([]any); list {
					typ = "ranking"
				}
			}
			r.emit(n, ev, ids, q, typ, v)
		}
	}
}

func sortedKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// flatten turns a nested Argilla record (Record.to_dict: fields, metadata
// and responses {question: [{value, user_id, status}]}) into the flat one
// of to_list(flatten=True).
func (r *Reader) flatten(n int, rec, fields, responses map[string]any) map[string]any {
	out := map[string]any{"id": rec["id"]}
	for k, v := range fields {
		out[k] = v
	}
	if md, ok := rec["metadata"].(map[string]any); ok {
		for k, v := range md {
			out[k] = v
		}
	}
	for _, q := range sortedKeys(responses) {
		list, ok := responses[q].([]any)
		if !ok {
			r.problem(n, "responses."+q, describe(responses[q]), "a list of responses [{value, user_id, status}]")
			continue
		}
		vals, users, status := make([]any, 0, len(list)), make([]any, 0, len(list)), make([]any, 0, len(list))
		for _, x := range list {
			m, ok := x.(map[string]any)
			if !ok {
				r.problem(n, "responses."+q, describe(x), "a response {value, user_id, status}")
				continue
			}
			st, has := m["status"]
			if !has || st == nil {
				st = "submitted"
				r.Unstated++
			}
			vals, users, status = append(vals, m["value"]), append(users, m["user_id"]), append(status, st)
		}
		out[q+".responses"], out[q+".responses.users"], out[q+".responses.status"] = vals, users, status
	}
	return out
}
