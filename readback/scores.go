package readback

import (
	"github.com/euroexec/euroexec/ingest/config"
	"github.com/euroexec/euroexec/metrics/scores"
)

// ScoreOptions is the Solve rule of a study's settings: study.toml [solve]
// thresholds and partial credit, and [rubric] direction. The scale's grid
// (step and averaged) comes with the study (scores.GridOf).
func ScoreOptions(c config.Config) scores.Options {
	return scores.Options{RubricThreshold: c.Solve.RubricThreshold, ChecklistThreshold: c.Solve.ChecklistThreshold,
		PartialCredit: c.Solve.PartialCredit, Lower: c.Rubric.Lower()}
}
