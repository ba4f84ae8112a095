package ingest

import (
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strings"

	"github.com/euroexec/euroexec/ingest/providers"
	"github.com/euroexec/euroexec/ingest/tabular"
)

var responseSpec = tableSpec{required: []string{"question_id", "model", "text"}, optional: []string{"cost_usd", "input_tokens", "output_tokens", "attempt"}}

// readResponses streams responses/*.jsonl into the database; the text never
// stays in memory beyond its batch.
func (st *state) readResponses() error {
	files := st.listFiles("responses", "jsonl")
	st.haveDumps = len(files) > 0
	st.prefetchFirstGrading() // parsed while the dumps are read
	tpl, err := providers.ParseIDTemplate(st.cfg.Responses.IDTemplate)
	if err != nil {
		st.ps.add(Problem{Loc: loc0("study.toml"), Value: st.cfg.Responses.IDTemplate, Expected: "responses.id_template: " + err.Error()})
	}
	st.idTemplate = tpl
	st.readRequestMap()
	for _, rel := range files {
		format, err := detectFormat(filepath.Join(st.dir, filepath.FromSlash(rel)), st.optFor(rel).Limits.LineBytes)
		if err != nil {
			st.ps.add(Problem{Loc: loc0(rel), Expected: err.Error()})
			continue
		}
		if format == providers.FormatPlain {
			st.readResponseFile(rel)
		} else {
			st.readProviderFile(rel, format)
		}
		if st.loadErr != nil {
			return st.loadErr
		}
	}
	// The same (question, model) twice is a problem unless the rows carry
	// distinct attempts; the highest attempt is the one analysed.
	keys := make([]respKey, 0, len(st.respMulti))
	for k := range st.respMulti {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		return st.qids[a.q()]+"\x00"+st.name(a.m()) < st.qids[b.q()]+"\x00"+st.name(b.m())
	})
	if len(keys) > 0 && st.sink != nil {
		st.sink.after = append(st.sink.after, `UPDATE responses SET latest = false
WHERE attempt < (SELECT max(r2.attempt) FROM responses r2
                 WHERE r2.question_id = responses.question_id AND r2.model = responses.model)`)
	}
	for _, k := range keys {
		ri := st.responses[k]
		at := append([]int64(nil), st.respMulti[k]...)
		sort.Slice(at, func(i, j int) bool { return at[i] < at[j] })
		for i := 1; i < len(at); i++ {
			if at[i] == at[i-1] {
				l := st.loc(ri.at)
				l.Column = "model"
				st.ps.add(Problem{Loc: l, Value: st.qids[k.q()] + " / " + st.name(k.m()),
					Expected: fmt.Sprintf("one response per question and model, or distinct attempt numbers (attempt %d appears twice)", at[i])})
				break
			}
		}
	}
	return nil
}

func (st *state) readResponseFile(rel string) {
	t := st.out.responses
	st.readTable(rel, responseSpec, nil, func(r row) {
		q, qi, ok := st.question(r, "question_id")
		if !ok {
			return
		}
		m, ok := st.id(r, "model", "a model name")
		if !ok || !st.checkModel(r, "model", m) {
			return
		}
		var attempt int64
		if v := r.get("attempt"); strings.TrimSpace(v) != "" {
			a, ok := tabular.ParseInt(v)
			if !ok || a < 0 {
				st.ps.add(Problem{Loc: r.at("attempt"), Value: v, Expected: "an attempt number 0, 1, 2, …"})
				return
			}
			attempt = a
		}
		cost := math.NaN()
		if v := r.get("cost_usd"); strings.TrimSpace(v) != "" {
			f, ok := tabular.ParseFloat(v)
			if !ok || f < 0 {
				st.ps.add(Problem{Loc: r.at("cost_usd"), Value: v, Expected: "a cost in USD (a number ≥ 0)"})
			}
			cost = f
		}
		tokens := func(c string) int64 {
			v := r.get(c)
			if strings.TrimSpace(v) == "" {
				return -1
			}
			n, ok := tabular.ParseInt(v)
			if !ok || n < 0 {
				st.ps.add(Problem{Loc: r.at(c), Value: v, Expected: "a token count (a whole number ≥ 0)"})
				return -1
			}
			return n
		}
		in, out := tokens("input_tokens"), tokens("output_tokens")
		st.addResponse(newRespKey(qi.num, st.sid(m)), attempt, r.loc)
		text := r.get("text")
		if !st.textFits(r.at("text"), text, "response") {
			return
		}
		t.str(0, q)
		t.str(1, m)
		t.i64(2, attempt)
		t.boolean(3, true) // corrected for superseded attempts after the load
		t.str(4, text)
		t.i64(5, chars(text))
		t.i64(6, words(text))
		t.f64(7, cost)
		optInt(t, 8, in)
		optInt(t, 9, out)
		t.str(10, rel)
		t.i64(11, int64(r.loc.Row))
		st.emit(t)
	})
}

func optInt(t *batcher, i int, v int64) {
	if v < 0 {
		t.null(i)
		return
	}
	t.i64(i, v)
}
