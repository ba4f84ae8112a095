package outsafe_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/euroexec/euroexec/outsafe"
)

// A folder holding a user's file is not replaced without force.
func ExampleCheckFolder() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "important")
	os.Mkdir(out, 0o755)
	os.WriteFile(filepath.Join(out, "thesis.docx"), []byte("…"), 0o644)

	err := outsafe.CheckFolder(out, outsafe.ReportMarker, false)
	fmt.Println(err != nil)
	fmt.Println(outsafe.CheckFolder(out, outsafe.ReportMarker, true))
	// Output:
	// true
	// <nil>
}
