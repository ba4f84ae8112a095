package format_test

import (
	"fmt"

	"github.com/euroexec/euroexec/report/format"
)

// Table 3's columns: the model ids beside the display names are "Model id".
func ExampleHeaders() {
	fmt.Printf("%q\n", format.Headers([]string{"model", "display_name", "n_gradings", "solve_rate"}))
	// Output: ["Model id" "Display name" "Gradings (n)" "Solve Rate"]
}
