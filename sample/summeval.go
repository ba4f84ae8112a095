package sample

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// SummEvalAttributes are the SummEval rubric attributes (Likert 1–5).
var SummEvalAttributes = []string{"coherence", "consistency", "fluency", "relevance"}

// summEvalSystems names the 12 abstractive systems (SummEval README).
var summEvalSystems = map[string]string{
	"M8": "Pointer-Generator", "M9": "Fast-abs-rl", "M10": "Bottom-Up", "M11": "Improve-abs",
	"M12": "Unified ext-abs", "M13": "ROUGESal", "M14": "Multi-task Ent+QG", "M15": "Closed-book decoder",
	"M17": "T5", "M20": "GPT-2 zero-shot", "M22": "BART", "M23": "PEGASUS",
}

const summEvalLicense = `MIT License

Copyright (c) 2021 Alexander R. Fabbri, Wojciech Kryściński, Bryan McCann, Caiming Xiong,
Richard Socher, Dragomir Radev (SummEval, https://github.com/Yale-LILY/SummEval)

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
`

// WriteSummEval writes the SummEval expert study into outDir from experts,
// SummEval's long table of ratings (doc_id, system, annotator_type,
// annotator, attribute, score; internal/realdata holds a copy):
// 100 questions (the articles; the prompt is the placeholder
// "Summarise article <id>", no article text), the 12 systems as models, the
// 3 experts (expert_1..3) as human graders with the rubric attributes
// coherence, consistency, fluency and relevance (1–5), one CSV per expert in
// grades/humans/main/, no checklist, ranks, responses or references (the
// summaries and article texts carry no license that allows copying them).
// Only the MIT-licensed expert annotations are used; crowd ratings are left
// out. This is how sample/testdata/summeval was made.
func WriteSummEval(experts io.Reader, outDir string) error {
	scores, err := readLongScores(experts, "human_scores_long.csv", func(rec map[string]string) (string, bool) {
		return rec["annotator"], rec["annotator_type"] == "expert"
	}, "annotator", "annotator_type")
	if err != nil {
		return err
	}
	return writeSummEvalStudy(outDir, scores, "grades/humans/main/")
}

// SummEvalJudgeStudy writes the same study as WriteSummEval into outDir plus
// one wide grading file per LLM judge, grades/judges/<judge>.csv, from
// judges, the long table of the judges' scores (doc_id, system, judge, …,
// attribute, score; the shared data set's judge_scores_long.csv: scores parsed from the judges' free text; an unparsable score, NA, is an
// empty cell). The judge answers carry no license: use it in tests only and
// never commit its output.
func SummEvalJudgeStudy(experts, judges io.Reader, outDir string) error {
	if err := WriteSummEval(experts, outDir); err != nil {
		return err
	}
	scores, err := readLongScores(judges, "judge_scores_long.csv", func(rec map[string]string) (string, bool) {
		return rec["judge"], true
	}, "judge")
	if err != nil {
		return err
	}
	evs, err := os.ReadFile(filepath.Join(outDir, "evaluators.csv"))
	if err != nil {
		return fmt.Errorf("data: summeval: %w", err)
	}
	for _, ev := range sortedKeys(scores.byEvaluator) {
		if err := writeSummEvalGrades(outDir, "grades/judges/"+ev+".csv", ev, scores); err != nil {
			return err
		}
		evs = append(evs, ev+",\n"...)
	}
	if err := os.WriteFile(filepath.Join(outDir, "evaluators.csv"), evs, 0o644); err != nil {
		return fmt.Errorf("data: summeval: %w", err)
	}
	return nil
}

// longScores holds doc × system × attribute scores per evaluator.
type longScores struct {
	docs, systems []string
	byEvaluator   map[string]map[[3]string]string // (doc, system, attribute) → score as written
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// systemOrder sorts M8 < M9 < M10 … numerically.
func systemOrder(a, b string) int {
	na, ea := strconv.Atoi(strings.TrimPrefix(a, "M"))
	nb, eb := strconv.Atoi(strings.TrimPrefix(b, "M"))
	if ea == nil && eb == nil && na != nb {
		return na - nb
	}
	return strings.Compare(a, b)
}

// readLongScores reads a derived long CSV (doc_id, system, …, attribute,
// score), named path in errors; who picks the evaluator column of a row and
// whether to keep it.
func readLongScores(r io.Reader, path string, who func(map[string]string) (string, bool), extra ...string) (*longScores, error) {
	cr := csv.NewReader(r)
	header, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("data: summeval: %s: header: %w", path, err)
	}
	col := map[string]int{}
	for i, h := range header {
		col[h] = i
	}
	for _, need := range append([]string{"doc_id", "system", "attribute", "score"}, extra...) {
		if _, ok := col[need]; !ok {
			return nil, fmt.Errorf("data: summeval: %s: no column %q", path, need)
		}
	}
	ls := &longScores{byEvaluator: map[string]map[[3]string]string{}}
	docs, systems := map[string]bool{}, map[string]bool{}
	rec := map[string]string{}
	for line := 2; ; line++ {
		row, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("data: summeval: %s: %w", path, err)
		}
		for h, i := range col {
			rec[h] = row[i]
		}
		ev, keep := who(rec)
		if !keep {
			continue
		}
		if !slices.Contains(SummEvalAttributes, rec["attribute"]) {
			return nil, fmt.Errorf("data: summeval: %s row %d column attribute: %q is not one of %v", path, line, rec["attribute"], SummEvalAttributes)
		}
		score := rec["score"]
		if score == "NA" {
			score = ""
		} else if _, err := strconv.ParseFloat(score, 64); err != nil {
			return nil, fmt.Errorf("data: summeval: %s row %d column score: %q is not a number", path, line, score)
		}
		m := ls.byEvaluator[ev]
		if m == nil {
			m = map[[3]string]string{}
			ls.byEvaluator[ev] = m
		}
		m[[3]string{rec["doc_id"], rec["system"], rec["attribute"]}] = score
		docs[rec["doc_id"]] = true
		systems[rec["system"]] = true
	}
	ls.docs = sortedKeys(docs)
	ls.systems = sortedKeys(systems)
	slices.SortFunc(ls.systems, systemOrder)
	return ls, nil
}

// writeCSV writes rows (the first is the header) to dir/rel.
func writeCSV(dir, rel string, rows [][]string) error {
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("data: summeval: %w", err)
	}
	f, err := os.Create(p)
	if err != nil {
		return fmt.Errorf("data: summeval: %w", err)
	}
	cw := csv.NewWriter(f)
	if err := cw.WriteAll(rows); err != nil {
		f.Close()
		return fmt.Errorf("data: summeval: write %s: %w", rel, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("data: summeval: write %s: %w", rel, err)
	}
	return nil
}

func writeSummEvalStudy(outDir string, ls *longScores, gradesDir string) error {
	toml := "# SummEval expert annotations (MIT, Fabbri et al. 2021) as a euroexec study; see README.md.\n" +
		"title = \"SummEval experts (100 CNN/DM articles x 12 systems)\"\n\n" +
		"[rubric]\nattributes = [\"coherence\", \"consistency\", \"fluency\", \"relevance\"]\nmin = 1\nmax = 5\n"
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return fmt.Errorf("data: summeval: %w", err)
	}
	if err := os.WriteFile(filepath.Join(outDir, "study.toml"), []byte(toml), 0o644); err != nil {
		return fmt.Errorf("data: summeval: %w", err)
	}
	if err := os.WriteFile(filepath.Join(outDir, "LICENSE-SummEval"), []byte(summEvalLicense), 0o644); err != nil {
		return fmt.Errorf("data: summeval: %w", err)
	}
	q := [][]string{{"question_id", "domain", "prompt"}}
	for _, d := range ls.docs {
		q = append(q, []string{d, "news", "Summarise article " + d})
	}
	if err := writeCSV(outDir, "questions.csv", q); err != nil {
		return err
	}
	m := [][]string{{"model", "display_name"}}
	for _, s := range ls.systems {
		m = append(m, []string{s, summEvalSystems[s]})
	}
	if err := writeCSV(outDir, "models.csv", m); err != nil {
		return err
	}
	ev := [][]string{{"evaluator", "domain"}}
	for _, e := range sortedKeys(ls.byEvaluator) {
		ev = append(ev, []string{e, "news"})
	}
	if err := writeCSV(outDir, "evaluators.csv", ev); err != nil {
		return err
	}
	for _, e := range sortedKeys(ls.byEvaluator) {
		if err := writeSummEvalGrades(outDir, gradesDir+e+".csv", e, ls); err != nil {
			return err
		}
	}
	return nil
}

// writeSummEvalGrades writes evaluator ev's wide grading sheet: one row per
// (article, system) it scored, articles in byte order, systems M8…M23.
func writeSummEvalGrades(outDir, rel, ev string, ls *longScores) error {
	rows := [][]string{append([]string{"evaluator", "question_id", "model"}, SummEvalAttributes...)}
	sc := ls.byEvaluator[ev]
	for _, d := range ls.docs {
		for _, s := range ls.systems {
			row := []string{ev, d, s}
			seen := false
			for _, a := range SummEvalAttributes {
				v, ok := sc[[3]string{d, s, a}]
				seen = seen || ok
				row = append(row, v)
			}
			if seen {
				rows = append(rows, row)
			}
		}
	}
	return writeCSV(outDir, rel, rows)
}
