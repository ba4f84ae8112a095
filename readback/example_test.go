package readback_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/euroexec/euroexec/ingest"
	"github.com/euroexec/euroexec/readback"
)

// Read a study back without its response texts, then load the texts of
// one question only: every response keeps its length (Chars, Words).
func ExampleDB_LoadTexts() {
	tmp, err := os.MkdirTemp("", "example-*")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(tmp)
	path := filepath.Join(tmp, "study.duckdb")
	ctx := context.Background()
	res, err := ingest.Ingest(ctx, filepath.Join("..", "ingest", "testdata", "base"), ingest.Options{DB: path})
	if err != nil {
		fmt.Println(err)
		return
	}
	db, err := readback.Open(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer db.Close()
	s, _, err := db.LoadWithoutTexts(ctx, res.Config)
	if err != nil {
		fmt.Println(err)
		return
	}
	n, err := db.LoadTexts(ctx, s, []string{"q2"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(n, "text loaded")
	for _, r := range s.Responses {
		fmt.Printf("%s %s chars=%d words=%d text=%q\n", r.QuestionID, r.Model, r.Chars, r.Words, r.Text)
	}
	// Output:
	// 1 text loaded
	// q1 m1 chars=36 words=5 text=""
	// q1 m2 chars=10 words=2 text=""
	// q2 m1 chars=27 words=6 text="GDPR is the EU privacy law."
}
