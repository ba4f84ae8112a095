package readback

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestLayers: readback reads the database into the study model and
// imports neither the report model nor the analyses (tables are built
// above it). It imports metrics/scores alone, the definition of the
// per-grading scores that it writes as the table grading_scores.
func TestLayers(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range af.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			for _, bad := range []string{"github.com/euroexec/euroexec/report", "github.com/euroexec/euroexec/metrics/"} {
				if strings.HasPrefix(p, bad) && p != "github.com/euroexec/euroexec/metrics/scores" {
					t.Errorf("%s imports %s; readback must not depend on the report model or the analyses", f, p)
				}
			}
		}
	}
}
