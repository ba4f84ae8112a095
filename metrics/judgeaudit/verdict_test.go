package judgeaudit

import (
	"context"
	"strings"
	"testing"
)

// mildJudges carry biases that a study of simQ questions detects but
// that stay below the materiality thresholds (leniency 0.12 < 0.25
// points, scale 1.12 inside [0.8, 1.25]), beside the judges of simJudges
// whose biases are material.
var mildJudges = []simJudge{
	{"mild-lenient", "delta", func(f, _ float64, _ bool, _ int) float64 { return f + 0.12 }},
	{"mild-stretched", "delta", func(f, _ float64, _ bool, _ int) float64 { return 3 + 1.12*(f-3) }},
	{"mild-both", "delta", func(f, _ float64, _ bool, _ int) float64 { return 3.12 + 1.12*(f-3) }},
}

// TestVerdictMatchesFlags holds the verdict of every simulated judge —
// fair, materially biased and mildly biased — to its flags
// (ContradictsFlags: every flagged bias named with its size, none named
// unflagged, never "agree with the humans"), and checks the rule's two
// outcomes: a material bias makes the judge not usable for the use it
// affects, a detectable immaterial one is named as below the thresholds
// and leaves it usable.
func TestVerdictMatchesFlags(t *testing.T) {
	opt := DefaultOptions()
	opt.Bootstrap = 400
	judges := append(append([]simJudge{}, simJudges...), mildJudges...)
	seen := map[string]int{}
	for seed := uint64(1); seed <= 20; seed++ {
		opt.Seed = seed
		res, err := Analyze(context.Background(), simStudyOf(seed, simQ, judges), opt)
		if err != nil {
			t.Fatal(err)
		}
		for _, j := range res.Judges {
			for _, p := range ContradictsFlags(j.Flagged, j.Verdict) {
				t.Errorf("seed %d, judge %s: %s", seed, j.Judge, p)
			}
			small := strings.Contains(j.Verdict, "detectable but below the materiality thresholds")
			switch j.Judge {
			case "lenient", "positional", "compressed":
				if !strings.Contains(j.Verdict, "not for absolute scores") && !strings.Contains(j.Verdict, "or absolute scores") {
					t.Errorf("seed %d, judge %s (material bias): %q", seed, j.Judge, j.Verdict)
				}
			case "mild-lenient", "mild-stretched", "mild-both":
				if len(j.Flagged) > 0 && !strings.HasPrefix(j.Verdict, "usable for ranking and absolute scores") {
					t.Errorf("seed %d, judge %s (immaterial bias): %q", seed, j.Judge, j.Verdict)
				}
				if small {
					seen[j.Judge]++
				}
			}
		}
	}
	for _, j := range mildJudges {
		t.Logf("%s: named as detectable but immaterial in %d of 20 seeds", j.id, seen[j.id])
		if seen[j.id] < 15 {
			t.Errorf("%s: named as detectable but immaterial in %d of 20 seeds, want ≥ 15 (the bias is detectable at %d questions)", j.id, seen[j.id], simQ)
		}
	}
}

// TestContradictsFlags checks the checker on verdicts that contradict
// their flags, so that the test above can fail.
func TestContradictsFlags(t *testing.T) {
	for _, c := range []struct {
		flagged []string
		verdict string
		want    int
	}{
		{[]string{Leniency, Scale}, "not usable for ranking: orders models unlike the humans (τ 0.30 < 0.50); absolute scores agree with the humans", 3},
		{nil, "usable for ranking, not for absolute scores: lenient by 0.40 points", 1},
		{[]string{Leniency, LeniencyStd}, "usable for ranking, not for absolute scores: lenient by 0.40 points", 0},
		{[]string{Scale}, "usable for ranking and absolute scores; detectable but below the materiality thresholds: stretches the scale (SD ratio 1.10), within 0.80–1.25", 0},
		{[]string{Rerun}, "usable for ranking and absolute scores", 1},
	} {
		if got := ContradictsFlags(c.flagged, c.verdict); len(got) != c.want {
			t.Errorf("%v %q: %d problems %v, want %d", c.flagged, c.verdict, len(got), got, c.want)
		}
	}
}
