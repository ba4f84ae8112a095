package pairwise

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/euroexec/euroexec/study"
)

type lmVectors struct {
	Responses []struct {
		Q, Model                    string
		Chars, Headers, Lists, Bold int
	}
	Judgments []struct {
		Q, A, B, Winner, Run string
	}
	N, Questions int
	Effects      []struct{ Estimate, SE, Lo, Hi, P float64 }
	Models       []struct {
		Model                               string
		SCRating                            float64 `json:"sc_rating"`
		SCRatingLo                          float64 `json:"sc_rating_lo"`
		SCRatingHi                          float64 `json:"sc_rating_hi"`
		LCWinRate, LCWinRateLo, LCWinRateHi float64 `json:"-"`
		LC                                  float64 `json:"lc_win_rate"`
		LCLo                                float64 `json:"lc_win_rate_lo"`
		LCHi                                float64 `json:"lc_win_rate_hi"`
	}
	Converged bool
}

// lmStudy is the study of testdata/lengthmodel.json (written by
// gen_lengthmodel.py: 4 models, 60 questions, 269 judgments of one judge).
func lmStudy(t *testing.T) (*study.Study, lmVectors) {
	t.Helper()
	b, err := os.ReadFile("testdata/lengthmodel.json")
	if err != nil {
		t.Fatal(err)
	}
	var v lmVectors
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	if !v.Converged {
		t.Fatal("the reference fit did not converge")
	}
	s := &study.Study{MainRound: "main"}
	for _, r := range v.Responses {
		s.Responses = append(s.Responses, study.Response{QuestionID: r.Q, Model: r.Model, Chars: r.Chars,
			Headers: int32(r.Headers), ListItems: int32(r.Lists), Bold: int32(r.Bold), HasStyle: true})
	}
	for _, j := range v.Judgments {
		w := map[string]study.Preference{"a": A, "b": B, "tie": T}[j.Winner]
		c := judg("j", J, j.Q, j.A, j.B, w)
		c.Run = j.Run
		s.Comparisons = append(s.Comparisons, c)
	}
	return s, v
}

// The length and style model against the independent scipy/numpy fit of
// gen_lengthmodel.py: effects, their sandwich standard errors, t intervals
// and p-values; style-controlled ratings and length-controlled win rates
// with their intervals.
func TestLengthModelReference(t *testing.T) {
	s, v := lmStudy(t)
	res := run(t, s, 0)
	pop := res.Populations[0]
	if !pop.HasModel || pop.Model.Failed || pop.Model.N != int64(v.N) || pop.Model.Questions != v.Questions {
		t.Fatalf("model %+v; want %d judgments over %d questions", pop.Model, v.N, v.Questions)
	}
	for c, want := range v.Effects {
		e := pop.Model.Effects[c]
		if !e.Used {
			t.Fatalf("%s not in the model", e.Name)
		}
		checkClose(t, e.Name+" γ", e.Estimate.Value, want.Estimate, 1e-9)
		checkClose(t, e.Name+" SE", e.SE, want.SE, 1e-9)
		checkClose(t, e.Name+" lo", e.Estimate.Lo, want.Lo, 1e-9)
		checkClose(t, e.Name+" hi", e.Estimate.Hi, want.Hi, 1e-9)
		checkClose(t, e.Name+" p", e.PValue, want.P, 1e-9)
	}
	for _, want := range v.Models {
		var got ModelRow
		for _, m := range pop.Models {
			if m.Model == want.Model {
				got = m
			}
		}
		checkClose(t, want.Model+" sc rating", got.SCRating.Value, want.SCRating, 1e-7)
		checkClose(t, want.Model+" sc rating lo", got.SCRating.Lo, want.SCRatingLo, 1e-7)
		checkClose(t, want.Model+" sc rating hi", got.SCRating.Hi, want.SCRatingHi, 1e-7)
		checkClose(t, want.Model+" lc win rate", got.LCWinRate.Value, want.LC, 1e-9)
		checkClose(t, want.Model+" lc lo", got.LCWinRate.Lo, want.LCLo, 1e-9)
		checkClose(t, want.Model+" lc hi", got.LCWinRate.Hi, want.LCHi, 1e-9)
	}
}
