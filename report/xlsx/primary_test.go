package xlsx

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/findings"
)

func TestByPrimary(t *testing.T) {
	tab := &report.Table{Name: "summary", Columns: []report.Column{{Name: "set"}, {Name: "graders"}, {Name: "model"}, {Name: "solve_rate"}, {Name: "rubric"}},
		Rows: [][]any{
			{"all", "humans", "a", 0.9, 2.0},
			{"all", "humans", "b", 0.8, 0.5},
			{"all", "humans", "c", 0.7, math.NaN()},
			{"all", "humans", "d", 0.6, 1.0},
			{"all", "judge:j", "a", 0.5, 3.0},
			{"all", "judge:j", "b", 0.4, 4.0},
		}}
	order := func(t2 *report.Table) string {
		var s []string
		for _, r := range t2.Rows {
			s = append(s, fmt.Sprint(r[1], ":", r[2]))
		}
		return strings.Join(s, " ")
	}
	tests := []struct {
		name string
		p    findings.Primary
		want string
	}{
		{"solve rate keeps the table", findings.Primary{Key: "solve_rate", Column: "solve_rate"}, "humans:a humans:b humans:c humans:d judge:j:a judge:j:b"},
		{"rubric, highest first", findings.Primary{Key: "rubric", Column: "rubric"}, "humans:a humans:d humans:b humans:c judge:j:b judge:j:a"},
		{"rubric, lowest first", findings.Primary{Key: "rubric", Column: "rubric", Lower: true}, "humans:b humans:d humans:a humans:c judge:j:a judge:j:b"},
		{"pairwise: no column", findings.Primary{Key: "pairwise"}, "humans:a humans:b humans:c humans:d judge:j:a judge:j:b"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Helper()
			if got := order(byPrimary(tab, tc.p)); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
	if got := order(tab); got != "humans:a humans:b humans:c humans:d judge:j:a judge:j:b" {
		t.Errorf("byPrimary changed its input: %s", got)
	}
}
