package ingest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// platformBenchStudy writes a study of nq questions × 4 models × 3
// experts (5 rubric attributes, 3 checklist items, a rank) three times
// over: the grades as clean CSV sheets, as a Label Studio JSON export and
// as an Argilla flat JSON export. It returns the three study folders.
func platformBenchStudy(b *testing.B, nq int) (sheets, ls, ag string) {
	b.Helper()
	root := b.TempDir()
	sheets, ls, ag = filepath.Join(root, "sheets"), filepath.Join(root, "ls"), filepath.Join(root, "ag")
	models := []string{"m1", "m2", "m3", "m4"}
	experts := []string{"alice", "bruno", "chen"}
	var qs, cl strings.Builder
	qs.WriteString("question_id,domain,prompt\n")
	cl.WriteString("question_id,item,text\n")
	for q := 0; q < nq; q++ {
		fmt.Fprintf(&qs, "q%d,Finance,Question %d\n", q, q)
		for i := 1; i <= 3; i++ {
			fmt.Fprintf(&cl, "q%d,%d,point %d\n", q, i, i)
		}
	}
	score := func(e, q, m, a int) int { return 1 + (q*7+m*3+e*5+a*2)%5 }
	verdict := func(e, q, m, i int) string { return []string{"hit", "miss", "na"}[(e+2*q+3*m+5*i)%3] }
	rank := func(e, q, m int) int { return 1 + (m+q+e)%4 }
	var tasks, recs []map[string]any
	sheet := make([]strings.Builder, len(experts))
	for e := range experts {
		sheet[e].WriteString("evaluator,question_id,model," + strings.Join(messyAttrs, ",") + ",C1,C2,C3,rank\n")
	}
	for q := 0; q < nq; q++ {
		for m, name := range models {
			var anns []any
			rec := map[string]any{"id": fmt.Sprintf("r%d-%d", q, m), "status": "completed", "question_id": fmt.Sprintf("q%d", q), "model": name, "answer": "an answer"}
			for e, ev := range experts {
				fmt.Fprintf(&sheet[e], "%s,q%d,%s", ev, q, name)
				var res []any
				for a, attr := range messyAttrs {
					fmt.Fprintf(&sheet[e], ",%d", score(e, q, m, a))
					res = append(res, map[string]any{"from_name": attr, "to_name": "answer", "type": "rating", "value": map[string]any{"rating": score(e, q, m, a)}})
					appendResp(rec, attr, score(e, q, m, a), ev)
				}
				for i := 1; i <= 3; i++ {
					fmt.Fprintf(&sheet[e], ",%s", verdict(e, q, m, i))
					res = append(res, map[string]any{"from_name": fmt.Sprintf("c%d", i), "to_name": "answer", "type": "choices", "value": map[string]any{"choices": []string{verdict(e, q, m, i)}}})
					appendResp(rec, fmt.Sprintf("c%d", i), verdict(e, q, m, i), ev)
				}
				fmt.Fprintf(&sheet[e], ",%d\n", rank(e, q, m))
				res = append(res, map[string]any{"from_name": "rank", "to_name": "answer", "type": "number", "value": map[string]any{"number": rank(e, q, m)}})
				appendResp(rec, "rank", rank(e, q, m), ev)
				anns = append(anns, map[string]any{"id": len(tasks)*3 + e, "completed_by": map[string]any{"id": e, "email": ev}, "result": res, "was_cancelled": false, "lead_time": 12.5})
			}
			tasks = append(tasks, map[string]any{"id": len(tasks) + 1, "data": map[string]any{"question_id": fmt.Sprintf("q%d", q), "model": name, "answer": "an answer"}, "annotations": anns})
			recs = append(recs, rec)
		}
	}
	for _, dir := range []string{sheets, ls, ag} {
		writeTB(b, dir, "questions.csv", qs.String())
		writeTB(b, dir, "checklist.csv", cl.String())
		writeTB(b, dir, "models.csv", "model\nm1\nm2\nm3\nm4\n")
	}
	for e, ev := range experts {
		writeTB(b, sheets, "grades/humans/main/"+ev+".csv", sheet[e].String())
	}
	for _, x := range []struct {
		dir string
		v   any
	}{{ls, tasks}, {ag, recs}} {
		j, err := json.Marshal(x.v)
		if err != nil {
			b.Fatal(err)
		}
		writeTB(b, x.dir, "grades/humans/main/export.json", string(j))
	}
	return sheets, ls, ag
}

func appendResp(rec map[string]any, q string, v any, user string) {
	k := q + ".responses"
	l, _ := rec[k].([]any)
	rec[k] = append(l, v)
	u, _ := rec[k+".users"].([]any)
	rec[k+".users"] = append(u, user)
	s, _ := rec[k+".status"].([]any)
	rec[k+".status"] = append(s, "submitted")
}

// BenchmarkPlatformExports validates 2,000 questions × 4 models × 3
// experts (24,000 gradings) from a Label Studio and an Argilla JSON export
// and, in the same iterations, from the same grades as CSV sheets; it
// reports gradings/s and the ratio export time / sheets time.
//
//	go test -tags duckdb_arrow -run X -bench PlatformExports -benchtime 1x ./ingest
func BenchmarkPlatformExports(b *testing.B) {
	sheets, ls, ag := platformBenchStudy(b, 2000)
	for _, tc := range []struct{ name, dir string }{{"labelstudio", ls}, {"argilla", ag}} {
		b.Run(tc.name, func(b *testing.B) {
			var base, took time.Duration
			var gradings int64
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				rs, err := Validate(context.Background(), sheets)
				if err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				rp, err := Validate(context.Background(), tc.dir)
				if err != nil {
					b.Fatal(err)
				}
				base += t1.Sub(t0)
				took += time.Since(t1)
				if rp.Rows["gradings"] != rs.Rows["gradings"] {
					b.Fatalf("%d gradings from the export, %d from the sheets", rp.Rows["gradings"], rs.Rows["gradings"])
				}
				gradings = rp.Rows["gradings"]
			}
			b.ReportMetric(float64(gradings)*float64(b.N)/took.Seconds(), "gradings/s")
			b.ReportMetric(took.Seconds()/base.Seconds(), "x-sheets")
		})
	}
}

// writeTB writes a file of a study, making its folders.
func writeTB(tb testing.TB, dir, rel, content string) {
	tb.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		tb.Fatal(err)
	}
}
