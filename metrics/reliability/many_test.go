package reliability

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/study"
)

// manyGraderStudy has nQ questions, six models and G human graders who
// all grade every response: five rubric attributes on 1…5 and a
// four-item checklist.
func manyGraderStudy(nQ, G int, seed uint64) *study.Study {
	r := rand.New(rand.NewPCG(seed, 7))
	attrs := []string{"A1", "A2", "A3", "A4", "A5"}
	s := &study.Study{MainRound: "main", Attributes: attrs, ScaleMin: 1, ScaleMax: 5}
	models := []string{"m1", "m2", "m3", "m4", "m5", "m6"}
	for e := 0; e < G; e++ {
		s.Evaluators = append(s.Evaluators, study.Evaluator{ID: fmt.Sprintf("e%05d", e), Kind: study.Human})
	}
	for q := 0; q < nQ; q++ {
		id := fmt.Sprintf("q%03d", q)
		s.Questions = append(s.Questions, study.Question{ID: id, Checklist: []string{"i1", "i2", "i3", "i4"}})
		for mi, m := range models {
			lat := 4.2 - 0.3*float64(mi) + r.NormFloat64()*0.5
			for e := 0; e < G; e++ {
				gr := study.Grading{Evaluator: fmt.Sprintf("e%05d", e), Kind: study.Human, Round: "main", QuestionID: id, Model: m}
				for range attrs {
					gr.Rubric = append(gr.Rubric, math.Max(1, math.Min(5, math.Round(lat+r.NormFloat64()*0.7))))
				}
				for range 4 {
					switch u := r.Float64(); {
					case u < 0.4:
						gr.Verdicts = append(gr.Verdicts, study.Hit)
					case u < 0.6:
						gr.Verdicts = append(gr.Verdicts, study.Partial)
					default:
						gr.Verdicts = append(gr.Verdicts, study.Miss)
					}
				}
				s.Gradings = append(s.Gradings, gr)
			}
		}
	}
	return s
}

// BenchmarkManyGraders is the study shape: 18 responses (three
// questions × six models), every response graded by every grader, with
// the default 2,000 replicates. κ averages over grader pairs, so its time
// grows as graders², whatever is done with the replicates.
func BenchmarkManyGraders(b *testing.B) {
	for _, G := range []int{150, 300, 600} {
		s := manyGraderStudy(3, G, 1)
		b.Run(fmt.Sprintf("graders=%d", G), func(b *testing.B) {
			for b.Loop() {
				analyze(b, s, DefaultOptions())
			}
		})
	}
}

// TestKappaChunks checks that the κ replicates of a study whose grader
// pairs go chunk by chunk equal those of one chunk bit for bit.
func TestKappaChunks(t *testing.T) {
	s := manyGraderStudy(4, 9, 3)
	opt := DefaultOptions()
	opt.Bootstrap = 64
	whole := analyze(t, s, opt)
	defer func(v int) { maxKappaChunk = v }(maxKappaChunk)
	for _, chunk := range []int{1, 12 * 32 * 5, 12 * 32 * 7} {
		maxKappaChunk = chunk
		got := analyze(t, s, opt)
		if len(got.Rows) != len(whole.Rows) {
			t.Fatalf("chunk %d: %d rows, want %d", chunk, len(got.Rows), len(whole.Rows))
		}
		n := 0
		for i, r := range got.Rows {
			w := whole.Rows[i]
			if !strings.HasPrefix(r.Statistic, Kappa) {
				continue
			}
			n++
			if !sameFloat(r.Value, w.Value) || !sameFloat(r.Lo, w.Lo) || !sameFloat(r.Hi, w.Hi) {
				t.Errorf("chunk %d: %s %s %s: %v [%v, %v], want %v [%v, %v]", chunk, r.Instrument, r.Population, r.Statistic, r.Value, r.Lo, r.Hi, w.Value, w.Lo, w.Hi)
			}
		}
		if n == 0 {
			t.Fatalf("no κ rows")
		}
	}
}

func sameFloat(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }

// TestKappaSparseCounts checks that κ from the sparse confusion counts
// (many grader pairs or a wide scale) equals κ from the dense ones.
func TestKappaSparseCounts(t *testing.T) {
	s := manyGraderStudy(4, 9, 5)
	opt := DefaultOptions()
	opt.Bootstrap = 40
	dense := analyze(t, s, opt)
	defer func(v int) { maxDenseCounts = v }(maxDenseCounts)
	maxDenseCounts = 0
	sparse := analyze(t, s, opt)
	n := 0
	for i, r := range sparse.Rows {
		w := dense.Rows[i]
		if !strings.HasPrefix(r.Statistic, Kappa) {
			continue
		}
		n++
		if !sameFloat(r.Value, w.Value) || !sameFloat(r.Lo, w.Lo) || !sameFloat(r.Hi, w.Hi) || r.Note != w.Note || r.Units != w.Units {
			t.Errorf("%s %s %s: sparse %v [%v, %v] %q, dense %v [%v, %v] %q", r.Instrument, r.Population, r.Statistic, r.Value, r.Lo, r.Hi, r.Note, w.Value, w.Lo, w.Hi, w.Note)
		}
	}
	if n == 0 {
		t.Fatal("no κ rows")
	}
}

// splitStudy has nQ questions and six models, each response graded by G
// human graders (G even) on one attribute: the first half score 1, the
// second half 2.
func splitStudy(nQ, G int) *study.Study {
	s := &study.Study{MainRound: "main", Attributes: []string{"A1"}, ScaleMin: 1, ScaleMax: 5}
	for e := 0; e < G; e++ {
		s.Evaluators = append(s.Evaluators, study.Evaluator{ID: fmt.Sprintf("e%05d", e), Kind: study.Human})
	}
	for q := 0; q < nQ; q++ {
		id := fmt.Sprintf("q%03d", q)
		s.Questions = append(s.Questions, study.Question{ID: id})
		for _, m := range []string{"m1", "m2", "m3", "m4", "m5", "m6"} {
			for e := 0; e < G; e++ {
				v := 1.0
				if e >= G/2 {
					v = 2
				}
				s.Gradings = append(s.Gradings, study.Grading{Evaluator: fmt.Sprintf("e%05d", e), Kind: study.Human,
					Round: "main", QuestionID: id, Model: m, Rubric: []float64{v}})
			}
		}
	}
	return s
}

// TestManyGradersHand checks α and κ of 18 responses × 1,000 graders
// against values worked out by hand. Every response (unit) has m = G
// values, G/2 of value 1 and G/2 of value 2, so its coincidences are
// o₁₂ = o₂₁ = (G/2)²/(G−1) and o₁₁ = o₂₂ = (G/2)(G/2−1)/(G−1); with R
// units, n = RG and n₁ = n₂ = RG/2, so D_o = 2R(G/2)²/(G−1)/(RG) =
// G/(2(G−1)) and D_e = 2(RG/2)²/(RG(RG−1)) = RG/(2(RG−1)), and
// α = 1 − D_o/D_e = 1 − (RG−1)/(R(G−1)) = −(R−1)/(R(G−1)) whatever the
// metric (two values: one distance). κ: two graders of one half agree on
// every unit but each is constant, so their κ is undefined and left out;
// a grader of each half disagree on every unit: O = [[0, R], [0, 0]],
// Σ w·O = R = Σ w·E (unweighted and quadratic alike), κ = 0.
func TestManyGradersHand(t *testing.T) {
	const nQ, G = 3, 1000
	R := float64(nQ * 6)
	opt := DefaultOptions()
	opt.Bootstrap = 0
	res := analyze(t, splitStudy(nQ, G), opt)
	wantAlpha := -(R - 1) / (R * (G - 1))
	check := func(r Row, want float64) {
		t.Helper()
		if math.Abs(r.Value-want) > 1e-12 {
			t.Errorf("%s %s %s = %.15g, want %.15g", r.Instrument, r.Population, r.Statistic, r.Value, want)
		}
	}
	seen := map[string]bool{}
	for _, r := range res.Rows {
		if r.Population != "humans" || !strings.HasPrefix(r.Instrument, "rubric:") {
			continue
		}
		switch r.Statistic {
		case AlphaNominal, AlphaOrdinal, AlphaInterval:
			check(r, wantAlpha)
		case Kappa, KappaQuadratic:
			check(r, 0)
			if want := fmt.Sprintf("mean over %d grader pairs", G/2*G/2); !strings.Contains(r.Note, want) {
				t.Errorf("%s %s note %q, want %q", r.Instrument, r.Statistic, r.Note, want)
			}
		default:
			continue
		}
		seen[r.Statistic] = true
	}
	if len(seen) != 5 {
		t.Errorf("statistics checked: %v, want the three α and both κ", seen)
	}
}
