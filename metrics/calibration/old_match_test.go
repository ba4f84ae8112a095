package calibration

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/euroexec/euroexec/metrics/analysis"
	"github.com/euroexec/euroexec/metrics/stats"
)

// oldMatchStudy is a simulated study with response lengths: 6 models,
// humans on 70 % of the questions, a judge on every response but a few,
// checklist verdicts on some gradings; the responses come in a shuffled
// order, some without text, one model on half the questions only.
func oldMatchStudy(seed uint64) *analysis.Study {
	sp := simSpec{nQ: 300, labelled: 0.7, graders: 2, mu: []float64{2.5, 2.8, 3, 3.2, 3.5, 3.8}, sdQ: 0.5, sdH: 0.5,
		judge: func(m int, tq float64, r *rand.Rand) float64 { return tq + 0.2*float64(m) + 0.3*r.NormFloat64() }}
	s := sp.build(seed, 0)
	rng := stats.NewRand(seed, 1)
	var gs []analysis.Grading
	for _, g := range s.Gradings {
		if g.Model == "F" && g.QuestionID > "q0150" {
			continue
		}
		if g.Kind == analysis.Judge && rng.IntN(20) == 0 {
			continue
		}
		gs = append(gs, g)
	}
	s.Gradings = gs
	for _, q := range s.Questions {
		for m := range sp.mu {
			if rng.IntN(10) == 0 {
				continue
			}
			s.Responses = append(s.Responses, analysis.Response{QuestionID: q.ID, Model: string(rune('A' + m)),
				Chars: int(math.Round(math.Exp(6 + 0.2*float64(m) + 0.4*rng.NormFloat64())))})
		}
	}
	rng.Shuffle(len(s.Responses), func(i, j int) { s.Responses[i], s.Responses[j] = s.Responses[j], s.Responses[i] })
	return s
}

// TestMatchesOld checks calibrateOne and lengthControlled against their
// versions before the buffers were sized once (old_test.go): the same rows,
// warnings and notes, every number bit for bit (fmt prints the shortest
// representation that reads back to the same float64, so equal strings
// mean equal bits).
func TestMatchesOld(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		s := oldMatchStudy(seed)
		opt := DefaultOptions()
		opt.Bootstrap = 200
		opt.Seed = seed
		d := load(s, opt.Scores, nil)
		if len(d.judges) == 0 {
			t.Fatal("no judge")
		}
		rows := 0
		for j := range d.judges {
			feat := d.jChk[j]
			if d.hasRubric {
				feat = d.jRub[j]
			}
			for _, mt := range []metric{
				{name: MetricRubric, feat: d.jRub[j], raw: d.jRub[j], y: d.hRub, rawR: d.jRubR[j], yR: d.hRubR},
				{name: MetricSolveRate, feat: feat, raw: d.jSolve[j], y: d.hSolve, yR: d.hSolveR, clip: true},
			} {
				got, gw := calibrateOne(d, j, mt, opt)
				want, ww := calibrateOneOld(d, j, mt, opt)
				if fmt.Sprint(got, gw) != fmt.Sprint(want, ww) {
					t.Errorf("seed %d judge %d %s:\n got %v %q\nwant %v %q", seed, j, mt.name, got, gw, want, ww)
				}
				rows += len(got)
			}
		}
		var got, want Result
		if err := lengthControlled(context.Background(), s, d, opt, &got); err != nil {
			t.Fatal(err)
		}
		if err := lengthControlledOld(context.Background(), s, d, opt, &want); err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got.Length, got.Notes, got.Warnings) != fmt.Sprint(want.Length, want.Notes, want.Warnings) {
			t.Errorf("seed %d length:\n got %v %v %v\nwant %v %v %v", seed, got.Length, got.Notes, got.Warnings, want.Length, want.Notes, want.Warnings)
		}
		if len(got.Length.Rows) != 6 || rows < 12 {
			t.Fatalf("seed %d: %d length rows, %d calibration rows: the study does not exercise the code", seed, len(got.Length.Rows), rows)
		}
	}
}
