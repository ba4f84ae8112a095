package pairwise

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/euroexec/euroexec/internal/realdata"
	"github.com/euroexec/euroexec/study"
)

type pandaItem struct {
	idx                int
	prompt, sys1, sys2 string
	labels             map[string]int // grader → 1 (response1 better), 2, 0 (tie); absent = no verdict
}

var pandaGraders = []string{"annotator1", "annotator2", "annotator3", "gpt-3.5-turbo", "pandalm-7b"}

func readPandaLM(t *testing.T) []pandaItem {
	t.Helper()
	read := func(name string, v any) {
		b, err := realdata.Read(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatal(err)
		}
	}
	var raw []struct {
		Idx                                int
		CmpKey                             string `json:"cmp_key"`
		Instruction, Input                 string
		Annotator1, Annotator2, Annotator3 int
	}
	var gpt []struct {
		Idx       int
		GptResult string `json:"gpt_result"`
	}
	var panda []struct {
		Idx           int
		PandalmResult int `json:"pandalm_result"`
	}
	read(realdata.PandaLMTestSet, &raw)
	read(realdata.PandaLMGPT35, &gpt)
	read(realdata.PandaLMPandaLM, &panda)
	prompts := map[string]string{}
	var items []pandaItem
	for _, r := range raw {
		key := r.Instruction + "\x00" + r.Input
		if _, ok := prompts[key]; !ok {
			prompts[key] = fmt.Sprintf("p%03d", len(prompts))
		}
		s := strings.SplitN(r.CmpKey, "_", 2)
		items = append(items, pandaItem{idx: r.Idx, prompt: prompts[key], sys1: s[0], sys2: s[1],
			labels: map[string]int{"annotator1": r.Annotator1, "annotator2": r.Annotator2, "annotator3": r.Annotator3}})
	}
	byIdx := map[int]*pandaItem{}
	for i := range items {
		byIdx[items[i].idx] = &items[i]
	}
	for _, g := range gpt {
		switch g.GptResult {
		case "1":
			byIdx[g.Idx].labels["gpt-3.5-turbo"] = 1
		case "2":
			byIdx[g.Idx].labels["gpt-3.5-turbo"] = 2
		case "Tie":
			byIdx[g.Idx].labels["gpt-3.5-turbo"] = 0
		}
	}
	for _, p := range panda {
		byIdx[p.Idx].labels["pandalm-7b"] = p.PandalmResult
	}
	if len(items) != 999 || len(prompts) != 170 {
		t.Fatalf("%d comparisons, %d prompts; want 999, 170", len(items), len(prompts))
	}
	return items
}

// The PandaLM test set as a study: 3 annotators, 2 judges, 999 comparisons.
func TestPandaLM(t *testing.T) {
	items := readPandaLM(t)
	s := &study.Study{MainRound: "main"}
	for _, it := range items {
		for _, g := range pandaGraders {
			l, ok := it.labels[g]
			if !ok {
				continue
			}
			kind := study.Human
			if !strings.HasPrefix(g, "annotator") {
				kind = study.Judge
			}
			w := map[int]study.Preference{0: study.Tie, 1: study.PreferA, 2: study.PreferB}[l]
			s.Comparisons = append(s.Comparisons, study.Comparison{Evaluator: g, Kind: kind, Round: "main",
				QuestionID: it.prompt, ModelA: it.sys1, ModelB: it.sys2, Winner: w})
		}
	}
	opt := DefaultOptions()
	opt.Bootstrap = 200
	res, err := Analyze(t.Context(), s, opt)
	if err != nil {
		t.Fatal(err)
	}

	// Win rates and Bradley–Terry ratings per population.
	models := rowsOf(t, res, ModelsTable)
	pops := map[string][]string{"humans": {"annotator1", "annotator2", "annotator3"}, "gpt-3.5-turbo": {"gpt-3.5-turbo"}, "pandalm-7b": {"pandalm-7b"}}
	for pop, graders := range pops {
		names := []string{}
		idx := map[string]int{}
		for _, it := range items {
			for _, m := range []string{it.sys1, it.sys2} {
				if _, ok := idx[m]; !ok {
					idx[m] = len(names)
					names = append(names, m)
				}
			}
		}
		k := len(names)
		w := make([][]float64, k)
		for i := range w {
			w[i] = make([]float64, k)
		}
		wins, ties, n := map[string]int{}, map[string]int{}, map[string]int{}
		for _, it := range items {
			for _, g := range graders {
				l, ok := it.labels[g]
				if !ok {
					continue
				}
				a, b := idx[it.sys1], idx[it.sys2]
				n[it.sys1]++
				n[it.sys2]++
				switch l {
				case 1:
					wins[it.sys1]++
					w[a][b]++
				case 2:
					wins[it.sys2]++
					w[b][a]++
				case 0:
					ties[it.sys1]++
					ties[it.sys2]++
					w[a][b] += 0.5
					w[b][a] += 0.5
				}
			}
		}
		beta := mmSolve(w)
		for m, i := range idx {
			r := find(models, "graders", pop, "model", m)
			if r == nil {
				t.Fatalf("%s: no row for %s", pop, m)
			}
			if r["n"] != int64(n[m]) || r["wins"] != int64(wins[m]) || r["ties"] != int64(ties[m]) {
				t.Errorf("%s %s: n, wins, ties %v %v %v; want %d %d %d", pop, m, r["n"], r["wins"], r["ties"], n[m], wins[m], ties[m])
			}
			checkClose(t, pop+" "+m+" win rate", f(r["win_rate"]), (float64(wins[m])+float64(ties[m])/2)/float64(n[m]), 1e-15)
			checkClose(t, pop+" "+m+" rating", f(r["bt_rating"]), 1000+400*math.Log10(math.E)*beta[i], 1e-9)
			if !(f(r["bt_rating_lo"]) <= f(r["bt_rating"]) && f(r["bt_rating"]) <= f(r["bt_rating_hi"])) {
				t.Errorf("%s %s: rating %v outside its interval [%v, %v]", pop, m, r["bt_rating"], r["bt_rating_lo"], r["bt_rating_hi"])
			}
		}
	}

	// κ, macro F1, precision and recall against scikit-learn's definitions
	// on the raw labels in both orientations (response1/response2 order is
	// alphabetical here).
	ag := rowsOf(t, res, AgreementTable)
	labelsOf := func(ref, other string) (y1, y2 []int) {
		for _, it := range items {
			a, okA := it.labels[ref]
			b, okB := it.labels[other]
			if okA && okB {
				y1, y2 = append(y1, a), append(y2, b)
			}
		}
		return
	}
	checkPair := func(a, b string, yTrue, yPred []int) {
		t.Helper()
		r := find(ag, "grader_a", a, "grader_b", b)
		if r == nil {
			t.Errorf("no agreement row %s–%s", a, b)
			return
		}
		if r["n"] != int64(len(yTrue)) {
			t.Errorf("%s–%s: n %v, want %d", a, b, r["n"], len(yTrue))
		}
		// The symmetric definition: scikit-learn on the labels plus the
		// same labels with the pair's order swapped (1 ↔ 2).
		mirror := func(y []int) []int {
			out := append([]int(nil), y...)
			for _, v := range y {
				out = append(out, map[int]int{0: 0, 1: 2, 2: 1}[v])
			}
			return out
		}
		sTrue, sPred := mirror(yTrue), mirror(yPred)
		f1, p, rc := skMacro(sTrue, sPred)
		checkClose(t, a+"–"+b+" κ", f(r["kappa"]), skKappa(sTrue, sPred), 1e-12)
		checkClose(t, a+"–"+b+" macro F1", f(r["macro_f1"]), f1, 1e-12)
		checkClose(t, a+"–"+b+" precision", f(r["precision_macro"]), p, 1e-12)
		checkClose(t, a+"–"+b+" recall", f(r["recall_macro"]), rc, 1e-12)
		same := 0
		for i := range yTrue {
			if yTrue[i] == yPred[i] {
				same++
			}
		}
		checkClose(t, a+"–"+b+" agreement", f(r["agreement"]), float64(same)/float64(len(yTrue)), 1e-15)
		if !(f(r["kappa_lo"]) <= f(r["kappa"]) && f(r["kappa"]) <= f(r["kappa_hi"])) {
			t.Errorf("%s–%s: κ outside its interval: %v", a, b, r)
		}
	}
	// Rows: judges first, then humans; grader_b is the reference (y_true).
	order := []string{"gpt-3.5-turbo", "pandalm-7b", "annotator1", "annotator2", "annotator3"}
	for i, a := range order {
		for _, b := range order[i+1:] {
			yTrue, yPred := labelsOf(b, a)
			checkPair(a, b, yTrue, yPred)
		}
		// Against the strict majority of the other annotators.
		var yTrue, yPred []int
		for _, it := range items {
			v, ok := it.labels[a]
			if !ok {
				continue
			}
			cnt, tot := map[int]int{}, 0
			for _, h := range []string{"annotator1", "annotator2", "annotator3"} {
				if h != a {
					cnt[it.labels[h]]++
					tot++
				}
			}
			for l, c := range cnt {
				if 2*c > tot {
					yTrue, yPred = append(yTrue, l), append(yPred, v)
				}
			}
		}
		checkPair(a, MajorityName, yTrue, yPred)
	}
	// Upstream's published κ between the annotators (rounded to 2 places).
	for _, c := range []struct {
		a, b string
		k    float64
	}{{"annotator1", "annotator2", 0.85}, {"annotator1", "annotator3", 0.88}, {"annotator2", "annotator3", 0.86}} {
		if got := f(find(ag, "grader_a", c.a, "grader_b", c.b)["kappa"]); math.Abs(got-c.k) > 0.005 {
			t.Errorf("%s–%s κ %.4f; PandaLM's README says %.2f", c.a, c.b, got, c.k)
		}
	}
	// Position: response1 is shown first.
	pos := rowsOf(t, res, PositionTable)
	for pop, graders := range pops {
		first, nonTie := 0, 0
		for _, it := range items {
			for _, g := range graders {
				switch it.labels[g] {
				case 1:
					first++
					nonTie++
				case 2:
					nonTie++
				}
			}
		}
		r := find(pos, "graders", pop)
		if r["n"] != int64(nonTie) || r["first_wins"] != int64(first) {
			t.Errorf("%s position: %v, want n %d first %d", pop, r, nonTie, first)
		}
	}
	// Matrix: counts from the raw labels; the interval of b against a is
	// the mirror image of a against b.
	mx := rowsOf(t, res, MatrixTable)
	for _, r := range mx {
		if r["graders"] != "humans" {
			continue
		}
		a, b := r["model_a"].(string), r["model_b"].(string)
		var n, wa, tie int64
		for _, it := range items {
			for _, g := range pops["humans"] {
				l := it.labels[g]
				switch {
				case it.sys1 == a && it.sys2 == b:
				case it.sys1 == b && it.sys2 == a:
					if l != 0 {
						l = 3 - l
					}
				default:
					continue
				}
				n++
				switch l {
				case 1:
					wa++
				case 0:
					tie++
				}
			}
		}
		if r["n"] != n || r["wins_a"] != wa || r["ties"] != tie {
			t.Errorf("matrix %s vs %s: %v; want n %d wins_a %d ties %d", a, b, r, n, wa, tie)
		}
		back := find(mx, "graders", "humans", "model_a", b, "model_b", a)
		checkClose(t, "mirrored lo", f(r["win_rate_a_lo"]), 1-f(back["win_rate_a_hi"]), 1e-15)
		if !(f(r["win_rate_a_lo"]) <= f(r["win_rate_a"]) && f(r["win_rate_a"]) <= f(r["win_rate_a_hi"])) {
			t.Errorf("matrix %s vs %s: win rate outside its interval: %v", a, b, r)
		}
	}
	names := []string{}
	for _, r := range models {
		names = append(names, r["graders"].(string))
	}
	if !sort.StringsAreSorted([]string{"gpt-3.5-turbo", "pandalm-7b"}) || names[0] != "humans" {
		t.Errorf("populations in order %v, want humans first", names)
	}
}

// The length model on real data: PandaLM's responses give each answer a
// length; the length effect per population (annotators pooled, each judge)
// equals the independent numpy fit of testdata/gen_pandalm_length.py.
// Humans and both judges prefer longer answers here (about +0.34 to +0.45
// logit per doubling, p < 1e-4), with the systems' quality held fixed.
func TestPandaLMLengthModel(t *testing.T) {
	items := readPandaLM(t)
	b, err := realdata.Read(realdata.PandaLMTestSet)
	if err != nil {
		t.Fatal(err)
	}
	var raw []struct {
		Idx                  int
		Response1, Response2 any
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	text := map[int][2]any{}
	for _, r := range raw {
		text[r.Idx] = [2]any{r.Response1, r.Response2}
	}
	s := &study.Study{MainRound: "main"}
	chars := map[[2]string]int{}
	var keys [][2]string
	for _, it := range items {
		for i, sys := range []string{it.sys1, it.sys2} {
			k := [2]string{it.prompt, sys}
			if _, ok := chars[k]; !ok {
				keys = append(keys, k)
			}
			chars[k] = 0
			if str, ok := text[it.idx][i].(string); ok {
				chars[k] = utf8.RuneCountInString(str) // the last text seen, as the reference
			}
		}
		for _, g := range pandaGraders {
			l, ok := it.labels[g]
			if !ok {
				continue
			}
			kind := study.Human
			if !strings.HasPrefix(g, "annotator") {
				kind = study.Judge
			}
			w := map[int]study.Preference{0: study.Tie, 1: study.PreferA, 2: study.PreferB}[l]
			s.Comparisons = append(s.Comparisons, study.Comparison{Evaluator: g, Kind: kind, Round: "main",
				QuestionID: it.prompt, ModelA: it.sys1, ModelB: it.sys2, Winner: w})
		}
	}
	for _, k := range keys {
		s.Responses = append(s.Responses, study.Response{QuestionID: k[0], Model: k[1], Chars: chars[k]})
	}
	rb, err := os.ReadFile("testdata/pandalm_length.json")
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]struct {
		N, Questions         int
		Gamma, SE, Lo, Hi, P float64
	}
	if err := json.Unmarshal(rb, &want); err != nil {
		t.Fatal(err)
	}
	res := run(t, s, 0)
	for _, pop := range res.Populations {
		w, ok := want[pop.Name]
		if !ok {
			t.Fatalf("no reference for %s", pop.Name)
		}
		e := pop.Model.Effects[cLength]
		if pop.Model.N != int64(w.N) || pop.Model.Questions != w.Questions {
			t.Errorf("%s: %d judgments over %d questions; want %d over %d", pop.Name, pop.Model.N, pop.Model.Questions, w.N, w.Questions)
		}
		checkClose(t, pop.Name+" γ", e.Estimate.Value, w.Gamma, 1e-9)
		checkClose(t, pop.Name+" SE", e.SE, w.SE, 1e-9)
		checkClose(t, pop.Name+" lo", e.Estimate.Lo, w.Lo, 1e-9)
		checkClose(t, pop.Name+" hi", e.Estimate.Hi, w.Hi, 1e-9)
		checkClose(t, pop.Name+" p", e.PValue, w.P, 1e-7)
		for c := cHeaders; c < nCov; c++ {
			if pop.Model.Effects[c].Used {
				t.Errorf("%s: %s in the model without markdown counts", pop.Name, CovariateNames[c])
			}
		}
	}
}
