package ingest

import (
	"slices"
	"testing"

	"github.com/euroexec/euroexec/ingest/config"
)

// Every column a table defines is a canonical name that [columns] aliases
// may target (config.FixedColumns).
func TestFixedColumnsCoverTables(t *testing.T) {
	st := newState(t.TempDir(), config.Default())
	specs := []tableSpec{questionSpec, checklistSpec, modelsSpec, evalSpec, blindSpec, refSpec, gateSpec, criteriaSpec, criterionGradeSpec, requestMapSpec, responseSpec, st.gradingSpec()}
	for _, sp := range specs {
		for _, c := range append(append([]string(nil), sp.required...), sp.optional...) {
			if !slices.Contains(config.FixedColumns, c) {
				t.Errorf("column %q is missing from config.FixedColumns", c)
			}
		}
	}
	for c := range gradingFixed {
		if !slices.Contains(config.FixedColumns, c) {
			t.Errorf("grading column %q is missing from config.FixedColumns", c)
		}
	}
}
