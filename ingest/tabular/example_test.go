package tabular_test

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/euroexec/euroexec/ingest/tabular"
)

// Reading every table of a file, listing row problems and going on.
func ExampleOpen() {
	r, err := tabular.Open("testdata/csv/badutf8.csv", "study/questions.csv", tabular.DefaultOptions())
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close()
	for {
		sh := r.Sheet()
		fmt.Printf("header %q\n", sh.Header)
		for {
			row, loc, err := r.Next()
			if err == io.EOF {
				break
			}
			var te *tabular.Error
			if errors.As(err, &te) && te.Recoverable {
				fmt.Println("problem:", te)
				continue
			}
			if err != nil {
				fmt.Println(err)
				return
			}
			fmt.Printf("%s: %s=%q %s=%q\n", loc, sh.Header[0], row[0].Text, sh.Header[1], row[1].Text)
		}
		if !r.NextSheet() {
			break
		}
	}
	digest, _ := r.Digest()
	fmt.Println("sha256", digest[:16])
	// Output:
	// header ["id" "text"]
	// study/questions.csv, row 2, byte 8: id="1" text="ok"
	// problem: study/questions.csv, row 3, column "text", byte 18: invalid UTF-8: found "caf\xe9 au lait", expected text encoded as UTF-8 (save the file as CSV UTF-8)
	// study/questions.csv, row 4, byte 28: id="3" text="fine"
	// sha256 143914e6ba592738
}

func ExampleParseInt() {
	for _, s := range []string{"4", " 4 ", "4.0", "4.5", ""} {
		v, ok := tabular.ParseInt(s)
		fmt.Printf("%q → %d %v\n", s, v, ok)
	}
	// Output:
	// "4" → 4 true
	// " 4 " → 4 true
	// "4.0" → 4 true
	// "4.5" → 0 false
	// "" → 0 false
}

// A file over a limit is a located *Error whose Limit field names the
// limit, so that the caller can say which setting raises it.
func ExampleLimits() {
	dir, _ := os.MkdirTemp("", "limits")
	defer os.RemoveAll(dir)
	p := filepath.Join(dir, "responses.jsonl")
	os.WriteFile(p, []byte(`{"id":"1","text":"`+strings.Repeat("a", 2000)+`"}`+"\n"), 0o644)
	_, err := tabular.Open(p, "responses.jsonl", tabular.Options{Limits: tabular.Limits{CellBytes: 1024}})
	var te *tabular.Error
	if errors.As(err, &te) {
		fmt.Println(te.Limit, te.Loc)
	}
	// Output: cell_bytes responses.jsonl, line 1, column "text", byte 0
}
