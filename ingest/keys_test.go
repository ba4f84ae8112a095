package ingest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// gateSeen must agree with a set keyed by the three values spelled out,
// across the 64-item word boundary, huge items and the largest numbers.
func TestGateSeenMatchesStringSet(t *testing.T) {
	qs := []int32{0, 1, 2, 65535, 65536, 1 << 24, math.MaxInt32}
	runs := []int32{0, 1, 2, 255, 65536, math.MaxInt32}
	items := []int64{1, 2, 32, 63, 64, 65, 128, 1 << 32, 1 << 40, math.MaxInt64}
	r := rand.New(rand.NewPCG(1, 2))
	var g gateSeen
	want := map[string]bool{}
	for i := 0; i < 20000; i++ {
		q, run, item := qs[r.IntN(len(qs))], runs[r.IntN(len(runs))], items[r.IntN(len(items))]
		k := fmt.Sprintf("%d/%d/%d", q, run, item)
		if got := g.add(q, run, item); got != want[k] {
			t.Fatalf("add(%d, %d, %d) after %d adds = %v, want %v", q, run, item, i, got, want[k])
		}
		want[k] = true
	}
	if len(want) != len(qs)*len(runs)*len(items) {
		t.Fatalf("the draws covered %d of %d keys", len(want), len(qs)*len(runs)*len(items))
	}
}

func TestRespKeyRoundTrip(t *testing.T) {
	for _, c := range [][2]int32{{0, 0}, {0, 1}, {1, 0}, {math.MaxInt32, 0}, {0, math.MaxInt32}, {math.MaxInt32, math.MaxInt32}, {65536, 7}} {
		k := newRespKey(c[0], c[1])
		if k.q() != c[0] || k.m() != c[1] {
			t.Errorf("newRespKey(%d, %d) reads back (%d, %d)", c[0], c[1], k.q(), k.m())
		}
	}
	if newRespKey(1, 0) == newRespKey(0, 1) || newRespKey(0, math.MaxInt32) == newRespKey(1, 0) {
		t.Error("distinct (question, model) give one key")
	}
}

// keyStudy writes a judge-only study whose ids would collide under keys
// made by joining the ids (q1 + 11 and q11 + 1, a::b + c and a + b::c),
// with ids 3,000 bytes long that differ only in their last byte, gate
// items past 64 up to 2^31-1 and an attempt past 2^31; extra files are added or
// replace these.
func keyStudy(t *testing.T, extra map[string]string) string {
	t.Helper()
	long1, long2 := strings.Repeat("x", 3000)+"1", strings.Repeat("x", 3000)+"2"
	dir := t.TempDir()
	score := `"Domain":4,"Localization":4,"Reasoning":3,"Communication":5,"Actionability":4`
	files := map[string]string{
		"questions.csv": "question_id,domain,prompt\nq1,F,p\nq11,F,p\na::b,F,p\na,F,p\n" + long1 + ",F,p\n" + long2 + ",F,p\n",
		"models.csv":    "model\nm1\nm2\nb::c\nc\n",
		"blinding.csv": "question_id,label,model\nq1,A,m1\nq1,B,m2\nq11,A,m2\nq11,B,m1\na::b,A,c\na,A,b::c\n" +
			long1 + ",A,m1\n" + long2 + ",A,m2\n",
		"responses/r.jsonl": `{"question_id":"q1","model":"m1","text":"t","attempt":3000000000}` + "\n" +
			`{"question_id":"q1","model":"m1","text":"t","attempt":1}` + "\n" +
			`{"question_id":"q1","model":"m2","text":"t"}` + "\n" +
			`{"question_id":"q11","model":"m1","text":"t"}` + "\n" +
			`{"question_id":"q11","model":"m2","text":"t"}` + "\n" +
			`{"question_id":"a::b","model":"c","text":"t"}` + "\n" +
			`{"question_id":"a","model":"b::c","text":"t"}` + "\n" +
			`{"question_id":"` + long1 + `","model":"m1","text":"t"}` + "\n" +
			`{"question_id":"` + long2 + `","model":"m2","text":"t"}` + "\n",
		"grades/judges/j.jsonl": `{"evaluator":"j","question_id":"q1","label":"A",` + score + "}\n" +
			`{"evaluator":"j","question_id":"q11","label":"A",` + score + "}\n" +
			`{"evaluator":"j","question_id":"a::b","label":"A",` + score + "}\n" +
			`{"evaluator":"j","question_id":"a","label":"A",` + score + "}\n" +
			`{"evaluator":"j","question_id":"` + long1 + `","label":"A",` + score + "}\n" +
			`{"evaluator":"j","question_id":"` + long2 + `","label":"A",` + score + "}\n" +
			`{"evaluator":"j","question_id":"q1","model":"m2",` + score + "}\n",
		"gate.csv": "question_id,run,item,passed\nq1,1,11,1\nq11,1,1,1\nq1,11,1,0\nq1,1,1,1\nq1,1,64,1\nq1,1,65,0\nq11,1,65,0\nq1,1,2147483647,1\n" +
			long1 + ",1,1,1\n" + long2 + ",1,1,0\n",
	}
	for k, v := range extra {
		files[k] = v
	}
	for rel, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// Numbered keys keep apart what joined strings would merge: the study
// loads, every label resolves to its own question's model, and every gate
// row and attempt is kept.
func TestNumberedKeysKeepIDsApart(t *testing.T) {
	dir := keyStudy(t, nil)
	dbPath := filepath.Join(t.TempDir(), "s.duckdb")
	res, err := Ingest(context.Background(), dir, Options{DB: dbPath})
	if err != nil {
		t.Fatal(err)
	}
	if res.Rows["gate_runs"] != 10 || res.Rows["responses"] != 9 || res.Rows["gradings"] != 7 {
		t.Errorf("rows %v, want 10 gate runs, 9 responses, 7 gradings", res.Rows)
	}
	db := openDB(t, dbPath)
	rows, err := db.Query(`SELECT question_id, model, coalesce(label, '') FROM gradings ORDER BY grading_id`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for rows.Next() {
		var q, m, l string
		if err := rows.Scan(&q, &m, &l); err != nil {
			t.Fatal(err)
		}
		got = append(got, strings.Replace(q, strings.Repeat("x", 3000), "X", 1)+" "+m+" "+l)
	}
	rows.Close()
	want := []string{"q1 m1 A", "q11 m2 A", "a::b c A", "a b::c A", "X1 m1 A", "X2 m2 A", "q1 m2 B"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("gradings (question model label):\n got %q\nwant %q", got, want)
	}
	var latest int64
	if err := db.QueryRow(`SELECT attempt FROM responses WHERE question_id = 'q1' AND model = 'm1' AND latest`).Scan(&latest); err != nil || latest != 3000000000 {
		t.Errorf("latest attempt of q1/m1 = %d, %v; want 3000000000", latest, err)
	}
}

// A row given twice is still found whatever its key: a gate item past 64,
// the largest item (2^31-1; gate_runs.item is an INTEGER, one more is a
// problem), an attempt past 2^31, a label of a 3,000-byte id; and only
// those (the rows that joined strings would confuse are not reported).
func TestNumberedKeysFindDuplicates(t *testing.T) {
	long2 := strings.Repeat("x", 3000) + "2"
	dir := keyStudy(t, nil)
	appendTo := func(rel, s string) {
		f, err := os.OpenFile(filepath.Join(dir, rel), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		f.WriteString(s)
	}
	appendTo("gate.csv", "q11,1,65,1\nq1,1,2147483647,0\nq1,11,1,1\n"+long2+",1,1,1\nq1,2,2147483648,1\n")
	appendTo("responses/r.jsonl", `{"question_id":"q1","model":"m1","text":"u","attempt":3000000000}`+"\n")
	appendTo("blinding.csv", long2+",A,m1\n")
	_, err := Ingest(context.Background(), dir, Options{AllProblems: true})
	var pe *ProblemsError
	if !errors.As(err, &pe) {
		t.Fatalf("err = %v, want problems", err)
	}
	var got []string
	for p := range pe.All() {
		got = append(got, fmt.Sprintf("%s:%d %.20s %s", p.Loc.File, p.Loc.Row, p.Value, p.Expected))
	}
	sort.Strings(got)
	want := []string{
		"blinding.csv:10 A one model per label (label A of question " + long2 + " is already m2)",
		"gate.csv:12 65 one row per question, run and item",
		"gate.csv:13 2147483647 one row per question, run and item",
		"gate.csv:14 1 one row per question, run and item",
		"gate.csv:15 1 one row per question, run and item",
		"gate.csv:16 2147483648 an item number 1, 2, …",
		"responses/r.jsonl:1 q1 / m1 one response per question and model, or distinct attempt numbers (attempt 3000000000 appears twice)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Many questions: numbers past 16 and 17 bits key the gate and the
// response index as the first ones do.
func TestNumberedKeysManyQuestions(t *testing.T) {
	const n = 140000
	var qs, gate, resp strings.Builder
	qs.WriteString("question_id,domain,prompt\n")
	gate.WriteString("question_id,run,item,passed\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&qs, "q%d,F,p\n", i)
	}
	for _, i := range []int{0, 65535, 65536, 131071, 131072, n - 1} {
		fmt.Fprintf(&gate, "q%d,1,1,1\nq%d,1,2,1\n", i, i)
		fmt.Fprintf(&resp, `{"question_id":"q%d","model":"m1","text":"t"}`+"\n", i)
	}
	gate.WriteString("q131072,1,2,0\nq65536,1,1,0\n") // rows 14 and 15: given twice
	resp.WriteString(`{"question_id":"q131072","model":"m1","text":"t"}` + "\n")
	dir := keyStudy(t, map[string]string{
		"questions.csv":         qs.String(),
		"models.csv":            "model\nm1\n",
		"blinding.csv":          "question_id,label,model\nq0,A,m1\n",
		"responses/r.jsonl":     resp.String(),
		"grades/judges/j.jsonl": `{"evaluator":"j","question_id":"q131072","label":"A","Domain":4,"Localization":4,"Reasoning":3,"Communication":5,"Actionability":4}` + "\n",
		"gate.csv":              gate.String(),
	})
	_, err := Ingest(context.Background(), dir, Options{AllProblems: true})
	var pe *ProblemsError
	if !errors.As(err, &pe) {
		t.Fatalf("err = %v, want problems", err)
	}
	var got []string
	for p := range pe.All() {
		got = append(got, fmt.Sprintf("%s:%d %s %s", p.Loc.File, p.Loc.Row, p.Value, p.Expected))
	}
	sort.Strings(got)
	want := []string{
		"gate.csv:14 2 one row per question, run and item",
		"gate.csv:15 1 one row per question, run and item",
		"grades/judges/j.jsonl:1 A a label of question q131072 in the blinding file",
		"responses/r.jsonl:5 q131072 / m1 one response per question and model, or distinct attempt numbers (attempt 0 appears twice)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
