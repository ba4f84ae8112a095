package ingest

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// FuzzGradingRow feeds arbitrary grading rows (wide and long form) through
// the whole validation: it must never panic, and a study it accepts must
// have parsed every cell (checked by the absence of an error only).
func FuzzGradingRow(f *testing.F) {
	f.Add(aliceHeader, "alice,q1,m1,4,4,3,5,4,hit,partial,1,good")
	f.Add(aliceHeader, "alice,q1,m1,4.0, 4 ,3,5,4,HIT,na,1,\"=SUM(A1)\"")
	f.Add(aliceHeader, "alice,q9,,x,,,,,maybe,,0,")
	f.Add("evaluator,question_id,model,instrument,key,value\n", "bob,q1,m1,rubric,Domain,4")
	f.Add("evaluator,question_id,label,instrument,key,value,round\n", "bob,q1,A,checklist,C3,yes,r2")
	f.Add("question_id,model,C1,C2,rank,run\n", "q2,m2,1,0,2,")
	base := copyStudy(f, nil)
	f.Fuzz(func(t *testing.T, header, row string) {
		dir := t.TempDir()
		if err := os.CopyFS(dir, os.DirFS(base)); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, "grades", "humans", "main", "alice.csv")
		if err := os.WriteFile(p, []byte(header+row+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		Validate(context.Background(), dir) // must not panic
	})
}
