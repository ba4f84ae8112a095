package compare

import (
	"testing"

	"github.com/euroexec/euroexec/study"
)

// TestLowerIsBetterRubricImproves: in a lower-is-better study (MQM
// penalties) a fall of the rubric is the improvement the non-inferiority
// test measures; rates and the average rank keep their directions.
func TestLowerIsBetterRubricImproves(t *testing.T) {
	s := &study.Study{LowerIsBetter: true}
	c := &comparison{old: &runData{run: Run{Study: s}}}
	if c.higherIsBetter("rubric") || !c.higherIsBetter("solve_rate") || c.higherIsBetter("avg_rank") {
		t.Errorf("lower-is-better study: rubric %v, solve_rate %v, avg_rank %v; want false, true, false",
			c.higherIsBetter("rubric"), c.higherIsBetter("solve_rate"), c.higherIsBetter("avg_rank"))
	}
	c.old.run.Study = &study.Study{}
	if !c.higherIsBetter("rubric") {
		t.Error("higher-is-better study: the rubric should improve upwards")
	}
}
