package ingest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzGradingRow feeds arbitrary grading rows (wide and long form) through
// the whole validation: it must never panic; it returns either a result
// and no error, or an error and no result; a rejected study is a
// *ProblemsError whose every problem says which file and what was expected
// (the base study is valid, so a problem can only come from the fuzzed
// file or from what it names); an accepted study lists the fuzzed file among
// the files read.
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
		res, err := Validate(context.Background(), dir)
		if (res == nil) == (err == nil) {
			t.Fatalf("Validate returned result %v and error %v; want exactly one", res != nil, err)
		}
		if err != nil {
			var pe *ProblemsError
			if !errors.As(err, &pe) {
				t.Fatalf("Validate: %v; want a *ProblemsError", err)
			}
			if len(pe.Problems) == 0 {
				t.Fatalf("ProblemsError with no problems: %v", err)
			}
			for _, p := range pe.Problems {
				if p.Loc.File == "" || p.Expected == "" {
					t.Errorf("problem %q does not say where and what was expected", p.String())
				}
			}
			return
		}
		read := false
		for _, f := range res.Files {
			read = read || f.Path == "grades/humans/main/alice.csv"
		}
		if !read {
			t.Errorf("accepted study did not read the fuzzed file; files: %v", res.Files)
		}
	})
}
