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

// FuzzPlatformFile feeds arbitrary annotation-platform exports (Label
// Studio JSON, CSV, TSV or JSON-MIN, Argilla JSON, JSON Lines, CSV or
// nested JSON, chosen by kind; seeded with testdata/platforms) through
// the whole validation, with the guarantees of FuzzGradingRow: no panic,
// exactly one of result and error, every problem located.
func FuzzPlatformFile(f *testing.F) {
	f.Add(uint8(0), `[{"id":1,"data":{"question_id":"q1","model":"m1"},"annotations":[{"completed_by":{"email":"z"},"result":[{"from_name":"Domain","type":"rating","value":{"rating":4}}]}]}]`)
	f.Add(uint8(0), `[{"id":1,"data":{"question_id":"q1","model_a":"m1","model_b":"m2"},"annotations":[{"completed_by":3,"result":[{"from_name":"winner","type":"pairwise","value":{"selected":"left"}}]},{"was_cancelled":true}]}]`)
	f.Add(uint8(0), `[{"id":1,"data":{"question_id":"q1"},"annotations":[{"completed_by":3,"result":[{"from_name":"rank","type":"ranker","value":{"ranker":{"rank":["A","m2"]}}}]}]}]`)
	f.Add(uint8(1), "\"annotation_id\",\"annotator\",\"Domain\",\"c1\",\"model\",\"question_id\"\n1,\"z\",\"[{\"\"rating\"\":4}]\",\"yes\",\"m1\",\"q1\"\n")
	f.Add(uint8(2), `{"id":"r","question_id":"q1","model":"m1","Domain.responses":[4,2],"Domain.responses.users":["u","v"],"Domain.responses.status":["submitted","draft"]}`)
	f.Add(uint8(3), "id,question_id,model,rank.responses,rank.responses.users,rank.responses.status\nr,q1,,\"[['m1', 'm2']]\",['u'],['submitted']\n")
	// the fixtures of testdata/platforms, by their kind below
	for fixture, kind := range map[string]uint8{"labelstudio.json": 0, "labelstudio.csv": 1, "argilla.csv": 3, "argilla.json": 4,
		"labelstudio_min.json": 5, "labelstudio.tsv": 6, "argilla_nested.json": 7} {
		f.Add(kind, seedFile(f, filepath.Join("testdata", "platforms", fixture)))
	}
	f.Add(uint8(0), `[{"id":1,"id":2,"data":{"question_id":"q1","model":"m1"},"annotations":[]}]`)
	f.Add(uint8(0), `[{"id":1,"data":{"question_id":"q1","model":"m1"},"annotations":[{"id":5,"completed_by":3,"result":[]}]},{"id":1,"data":{},"annotations":[]}]`)
	f.Add(uint8(2), `{"id":"r","id":"s","question_id":"q1"}`)
	base := copyStudy(f, nil)
	names := []string{"ls.json", "ls.csv", "ag.jsonl", "ag.csv", "ag.json", "min.json", "ls.tsv", "nested.json"}
	f.Fuzz(func(t *testing.T, kind uint8, content string) {
		dir := t.TempDir()
		if err := os.CopyFS(dir, os.DirFS(base)); err != nil {
			t.Fatal(err)
		}
		rel := "grades/humans/main/" + names[int(kind)%len(names)]
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(rel)), []byte(content), 0o644); err != nil {
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
			for _, p := range pe.Problems {
				if p.Loc.File == "" || p.Expected == "" {
					t.Errorf("problem %q does not say where and what was expected", p.String())
				}
			}
		}
	})
}
