package ingest

import (
	"errors"
	"strings"
	"testing"
)

// TestGradersPerResponse checks [limits] graders_per_response: alice and
// bob grade q1's two responses in the base study, carol makes three; the
// judge is not counted.
func TestGradersPerResponse(t *testing.T) {
	carol := "evaluator,question_id,model,Domain,Localization,Reasoning,Communication,Actionability,C1,C2\n" +
		"carol,q1,m1,4,4,4,4,4,hit,hit\n" +
		"carol,q1,m2,3,3,3,3,3,miss,miss\n"
	tests := []struct {
		name   string
		limit  string
		wantOK bool
	}{
		{"three graders, limit two", "2", false},
		{"three graders, limit three", "3", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyStudy(t, map[string]string{
				"grades/humans/main/carol.csv": carol,
				"study.toml":                   "[limits]\ngraders_per_response = " + tc.limit + "\n",
			})
			_, err := validateHostile(t, dir)
			if tc.wantOK {
				var pe *ProblemsError
				if errors.As(err, &pe) {
					for _, p := range pe.Problems {
						if strings.Contains(p.String(), "graders_per_response") {
							t.Errorf("unexpected problem: %s", p)
						}
					}
				} else if err != nil {
					t.Fatalf("validate: %v", err)
				}
				return
			}
			wantProblem(t, err, "grades/humans/main/carol.csv", "row 2", `"q1 / m1: 3 graders"`, "at most 2 human graders of one response in round main", "[limits] graders_per_response in study.toml")
			wantProblem(t, err, "grades/humans/main/carol.csv", "row 3", `"q1 / m2: 3 graders"`)
		})
	}
}
