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
			r.Unmapped[q] = true
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
