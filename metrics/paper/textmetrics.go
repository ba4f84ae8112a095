package paper

import (
	"fmt"
	"math"
	"runtime"
	"sync/atomic"

	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/metrics/textsim"
	"github.com/euroexec/euroexec/study"
)

// Text is the automatic text metrics against the expert-written
// references: corpus_metrics, text_metrics and Table 7 (table7,
// table7_correlations). A nil slice is a table left out (the notes say
// why).
type Text struct {
	// Language is the language code the metrics used; SentenceTokenizer
	// and CorpusTokenizer sacrebleu's tokenizers of sentence and corpus
	// BLEU; UnicodeRouge is true when ROUGE ran on Unicode words without
	// the stemmer (texts not in English); Stemmer is Options.Stemmer (the
	// headline ROUGE-Lsum of Table 7).
	Language, SentenceTokenizer, CorpusTokenizer string
	UnicodeRouge, Stemmer                        bool
	// Corpus are corpus_metrics' rows: per set ("all", then each value of
	// the questions' set tag) the models in the order of the primary
	// metric.
	Corpus []CorpusRow
	// Responses are text_metrics' rows, one per model response on a
	// question with a reference (the human label left out).
	Responses []TextRow
	// Models are Table 7's rows in model order.
	Models []Table7Row
	// Correlations are table7_correlations' rows: per metric
	// (rougeLsum_f1, bleu, chrf) the levels item, pooled and model.
	Correlations []Table7Correlation
}

// CorpusRow is one model's corpus figures on one set. Scores are 0–100;
// Lo and Hi bound 95 % paired cluster-bootstrap percentile intervals over
// the set's questions (NaN without replicates).
type CorpusRow struct {
	Set, Model string
	// N counts the responses (segments).
	N                                  int64
	BLEU, BLEULo, BLEUHi               float64
	ChrF, ChrFLo, ChrFHi               float64
	ChrFPP, ChrFPPLo, ChrFPPHi         float64
	MeanSentenceBLEU, MeanSentenceChrF float64
	// The signatures are sacrebleu's of corpus BLEU, chrF and chrF++.
	BLEUSignature, ChrFSignature, ChrFPPSignature string
}

// TextRow is one response's automatic metrics.
type TextRow struct {
	QuestionID, Model string
	// BLEU and ChrF are sentence BLEU and chrF (0–100).
	BLEU, ChrF float64
	// Rouge are the ROUGE F1 scores with the stemmer, NoStem without.
	Rouge, NoStem RougeF1
	// HumanRubric is the mean over the response's human gradings (main
	// round) of the rubric mean; NaN without one.
	HumanRubric float64
}

// RougeF1 are the F1 scores of ROUGE-1, ROUGE-2, ROUGE-L and ROUGE-Lsum.
type RougeF1 struct{ R1, R2, L, Lsum float64 }

// Table7Row is one model's row of Table 7.
type Table7Row struct {
	Model string
	// Questions counts the questions with a scored response.
	Questions int64
	// Rubric is the mean human rubric over the scored responses' gradings
	// (RubricExact as a fraction when exact); RougeLsum the mean headline
	// ROUGE-Lsum F1; MeanSentenceBLEU the mean sentence BLEU; CorpusBLEU
	// and CorpusChrF those of corpus_metrics on set all (NaN when absent).
	Rubric                      float64
	RubricExact                 study.Rat
	RougeLsum, MeanSentenceBLEU float64
	CorpusBLEU, CorpusChrF      float64
}

// Table7Correlation is one metric's correlation with the human rubric at
// one level.
type Table7Correlation struct {
	// Metric is rougeLsum_f1, bleu or chrf; Level item, pooled or model.
	Metric, Level string
	// PearsonR and KendallTau (means over questions at item level) with
	// the questions or points behind them.
	PearsonR   float64
	PearsonN   int64
	KendallTau float64
	KendallN   int64
	// Undefined counts the questions whose r or τ is undefined (item
	// level; 0 otherwise).
	Undefined int64
}

// textScore is one response's automatic metrics.
type textScore struct {
	q, m      int
	bleu      float64 // sentence BLEU
	chrf      float64 // sentence chrF
	stem, raw textsim.Rouge
	humanRub  float64 // mean over its human gradings (main round) of the rubric mean
	seg       segStats
}

// textScorers are the scorers of one worker of textTables.
type textScorers struct {
	rs, rr *textsim.RougeScorer // with and without the stemmer
	bs     *textsim.BLEUScorer
	cs     *textsim.CHRFScorer // word order 2: chrF and chrF++ statistics
}

// textSetup is how the text metrics treat the study's language.
type textSetup struct {
	lang     textsim.Language
	rouge    textsim.RougeOptions // Stemmer set per scorer
	sentBLEU textsim.BLEUOptions
	corpBLEU textsim.BLEUOptions
}

// asciiDropWarnShare is the share of letters and digits dropped by
// rouge-score's ASCII tokenizer above which English-mode ROUGE is warned
// about: at 1 % of the characters roughly one word in twenty is already cut.
const asciiDropWarnShare = 0.01

// maxDetectRefs bounds the references DetectLanguage reads (the first in
// question order): enough to tell the script and the function words.
const maxDetectRefs = 2000

// textLanguage resolves Options.Language, detecting it from the references
// when unset, and notes the choice on text_metrics.
func (a *run) textLanguage(refs [][]string) textSetup {
	p := a.p
	var lang textsim.Language
	if a.opt.Language != "" {
		l, err := textsim.ParseLanguage(a.opt.Language)
		if err == nil {
			lang = l
		} else {
			p.warn("text metrics: %v; detecting the language from the references instead", err)
		}
	}
	if lang.Code == "" {
		var texts []string
		for _, rs := range refs {
			for _, r := range rs {
				if len(texts) < maxDetectRefs {
					texts = append(texts, r)
				}
			}
		}
		lang = textsim.DetectLanguage(texts)
	}
	ts := textSetup{lang: lang, rouge: textsim.RougeOptions{Unicode: !lang.English()},
		sentBLEU: textsim.DefaultBLEUOptions, corpBLEU: textsim.DefaultCorpusBLEUOptions}
	ts.sentBLEU.Tokenize = lang.BLEUTokenizer()
	ts.corpBLEU.Tokenize = lang.BLEUTokenizer()
	rouge := "rouge-score's tokenizer ([a-z0-9] runs) and Porter stemmer"
	if ts.rouge.Unicode {
		rouge = "Unicode words (each Chinese or Japanese character a word), no stemmer"
	}
	p.note("text_metrics", "language %s (%s): BLEU tokenizer %s, ROUGE on %s; set [text] language in study.toml to change it", lang.Code, lang.Reason, ts.sentBLEU.Tokenize, rouge)
	return ts
}

// matches reports whether a question's tags pass the filter (always, when
// the filter is empty).
func (f TagFilter) matches(tags []study.Tag) bool {
	if f.Key == "" {
		return true
	}
	for _, t := range tags {
		if t.Key == f.Key && t.Value == f.Value {
			return true
		}
	}
	return false
}

// textTables builds text_metrics (one row per response on questions with
// references) and Table 7 (table7, table7_correlations).
func (a *run) textTables() {
	p := a.p
	if !p.hasRefs {
		for _, n := range []string{"corpus_metrics", "text_metrics", "table7", "table7_correlations"} {
			a.leaveOut(n, "the study has no expert-written references")
		}
		return
	}
	refs := make([][]string, p.nQ())
	filtered := 0
	for _, r := range p.s.References {
		if q, ok := p.qIdx[r.QuestionID]; ok {
			if !a.opt.TextFilter.matches(p.s.Questions[q].Tags) {
				if len(refs[q]) == 0 {
					filtered++
				}
				continue
			}
			refs[q] = append(refs[q], r.Text)
		}
	}
	if a.opt.TextFilter.Key != "" {
		p.note("table7", "only questions tagged %s = %s (%d questions with references left out)", a.opt.TextFilter.Key, a.opt.TextFilter.Value, filtered)
	}
	type job struct {
		q  int
		ms []int
	}
	var jobs []job
	noText := 0
	for q := range refs {
		if len(refs[q]) == 0 {
			continue
		}
		j := job{q: q}
		for m := 0; m < p.nM(); m++ {
			if m == p.label {
				continue
			}
			if r := p.respOf(q, m); r != nil {
				if r.Text == "" {
					noText++
					continue
				}
				j.ms = append(j.ms, m)
			}
		}
		if len(j.ms) > 0 {
			jobs = append(jobs, j)
		}
	}
	if noText > 0 {
		p.note("text_metrics", "%d responses on questions with references have no text and were left out", noText)
	}
	if len(jobs) == 0 {
		for _, n := range []string{"corpus_metrics", "text_metrics", "table7", "table7_correlations"} {
			a.leaveOut(n, "no response with text on a question with a reference")
		}
		return
	}
	ts := a.textLanguage(refs)
	scores := make([][]textScore, len(jobs))
	var dropped, letters []int64
	if !ts.rouge.Unicode {
		dropped, letters = make([]int64, len(jobs)), make([]int64, len(jobs))
	}
	total := 0
	for _, j := range jobs {
		total += len(j.ms)
	}
	var done atomic.Int64
	// One set of scorers per worker, Reset for each question: they keep
	// their buffers and the stems of the words seen so far.
	free := make(chan *textScorers, runtime.GOMAXPROCS(0))
	parallelFor(len(jobs), func(i int) {
		j := jobs[i]
		var sc *textScorers
		select {
		case sc = <-free:
			sc.rs.Reset(refs[j.q])
			sc.rr.Reset(refs[j.q])
			sc.bs.Reset(refs[j.q])
			sc.cs.Reset(refs[j.q])
		default:
			stem, raw := ts.rouge, ts.rouge
			stem.Stemmer = true
			sc = &textScorers{
				rs: textsim.NewRougeScorer(refs[j.q], stem),
				rr: textsim.NewRougeScorer(refs[j.q], raw),
				bs: textsim.NewBLEUScorer(refs[j.q], ts.sentBLEU),
				cs: textsim.NewCHRFScorer(refs[j.q], textsim.CHRFOptions{WordOrder: 2}),
			}
		}
		defer func() {
			select {
			case free <- sc:
			default:
			}
		}()
		rs, rr, bs, cs := sc.rs, sc.rr, sc.bs, sc.cs
		if dropped != nil {
			for _, r := range refs[j.q] {
				d, l := textsim.ASCIIDropped(r)
				dropped[i] += int64(d)
				letters[i] += int64(l)
			}
		}
		for _, m := range j.ms {
			if a.ctx.Err() != nil {
				return // cancelled: AnalyzeResult returns the error after this stage
			}
			txt := p.respOf(j.q, m).Text
			bst := bs.Stats(txt)
			c0, c2 := cs.StatsPair(txt)
			scores[i] = append(scores[i], textScore{q: j.q, m: m,
				bleu: textsim.BLEUFromStats(bst, ts.sentBLEU).Score,
				chrf: textsim.CHRFFromStats(c0, textsim.CHRFOptions{}),
				stem: rs.Score(txt), raw: rr.Score(txt), seg: packSeg(bst, c0, c2)})
			if dropped != nil {
				d, l := textsim.ASCIIDropped(txt)
				dropped[i] += int64(d)
				letters[i] += int64(l)
			}
			if n := done.Add(1); a.opt.TextProgress != nil {
				a.opt.TextProgress(int(n), total)
			}
		}
	})
	if dropped != nil {
		var d, l int64
		for i := range dropped {
			d, l = d+dropped[i], l+letters[i]
		}
		if l > 0 && float64(d) > asciiDropWarnShare*float64(l) {
			msg := fmt.Sprintf("text metrics: rouge-score's ASCII tokenizer drops %.1f %% of the letters and digits of the references and responses (%d of %d are outside a–z and 0–9), yet ROUGE treats the texts as English (language %s: %s); set [text] language in study.toml to the texts' language for Unicode-word ROUGE without the English stemmer",
				100*float64(d)/float64(l), d, l, ts.lang.Code, ts.lang.Reason)
			p.warn("%s", msg)
			p.note("text_metrics", "%s", msg)
		}
	}
	a.humanRubricPerResponse(scores)
	a.res.Text.Language, a.res.Text.SentenceTokenizer, a.res.Text.CorpusTokenizer = ts.lang.Code, ts.sentBLEU.Tokenize, ts.corpBLEU.Tokenize
	a.res.Text.UnicodeRouge, a.res.Text.Stemmer = ts.rouge.Unicode, a.opt.Stemmer
	corpus := a.corpusMetrics(scores, refs, ts)
	a.textMetricsTable(scores)
	a.table7(scores, corpus)
}

// humanRubricPerResponse fills each score's mean human rubric (main round).
func (a *run) humanRubricPerResponse(scores [][]textScore) {
	p := a.p
	v := a.view(setAll, -1)
	// exact means over the graders, so that equal means tie in τ-b
	sum := map[[2]int]*study.RatSum{}
	for _, gi := range v.g {
		g := &p.grades[gi]
		if !math.IsNaN(g.rubMean) {
			k := [2]int{g.q, g.m}
			if sum[k] == nil {
				sum[k] = &study.RatSum{}
			}
			sum[k].Add(g.rub, g.rubMean)
		}
	}
	for i := range scores {
		for k := range scores[i] {
			scores[i][k].humanRub = math.NaN()
			if s := sum[[2]int{scores[i][k].q, scores[i][k].m}]; s != nil {
				scores[i][k].humanRub = s.Mean()
			}
		}
	}
}

func (a *run) textMetricsTable(scores [][]textScore) {
	p := a.p
	n := 0
	for _, qs := range scores {
		n += len(qs)
	}
	rows := make([]TextRow, 0, n)
	for _, qs := range scores {
		for _, s := range qs {
			rows = append(rows, TextRow{QuestionID: p.s.Questions[s.q].ID, Model: p.s.Models[s.m].Name, BLEU: s.bleu, ChrF: s.chrf,
				Rouge:       RougeF1{s.stem.Rouge1.F1, s.stem.Rouge2.F1, s.stem.RougeL.F1, s.stem.RougeLsum.F1},
				NoStem:      RougeF1{s.raw.Rouge1.F1, s.raw.Rouge2.F1, s.raw.RougeL.F1, s.raw.RougeLsum.F1},
				HumanRubric: s.humanRub})
		}
	}
	a.res.Text.Responses = rows
}

// headline returns the Table 7 ROUGE-Lsum F1 (stemmed per Options.Stemmer).
func (a *run) headline(s *textScore) float64 {
	if a.opt.Stemmer {
		return s.stem.RougeLsum.F1
	}
	return s.raw.RougeLsum.F1
}

func (a *run) table7(scores [][]textScore, corpus map[int]corpusFig) {
	p := a.p
	nM := p.nM()
	rs := make([][]float64, nM)
	bs := make([][]float64, nM)
	inText := map[[2]int]bool{}
	for _, qs := range scores {
		for i := range qs {
			s := &qs[i]
			rs[s.m] = append(rs[s.m], a.headline(s))
			bs[s.m] = append(bs[s.m], s.bleu)
			inText[[2]int{s.q, s.m}] = true
		}
	}
	rub := make([]study.RatSum, nM)
	if v := a.view(setAll, -1); p.hasRubric {
		for _, gi := range v.g {
			g := &p.grades[gi]
			if inText[[2]int{g.q, g.m}] && !math.IsNaN(g.rubMean) {
				addRubric(&rub[g.m], g)
			}
		}
	}
	var mr, mrouge, mbleu, mchrf []float64
	for m := 0; m < nM; m++ {
		if len(rs[m]) == 0 {
			continue
		}
		r, ro, bl := rub[m].Mean(), stats.Mean(rs[m]), stats.Mean(bs[m])
		cf, ok := corpus[m]
		if !ok {
			cf = corpusFig{math.NaN(), math.NaN(), math.NaN()}
		}
		a.res.Text.Models = append(a.res.Text.Models, Table7Row{Model: p.s.Models[m].Name, Questions: int64(len(rs[m])), Rubric: r, RubricExact: rub[m].Rat(),
			RougeLsum: ro, MeanSentenceBLEU: bl, CorpusBLEU: cf.bleu, CorpusChrF: cf.chrf})
		mr, mrouge, mbleu, mchrf = append(mr, r), append(mrouge, ro), append(mbleu, cf.bleu), append(mchrf, cf.chrf)
	}
	if a.res.Text.Models == nil {
		a.res.Text.Models = []Table7Row{}
	}
	a.table7Correlations(scores, mr, map[string][]float64{"rougeLsum_f1": mrouge, "bleu": mbleu, "chrf": mchrf})
}

func (a *run) table7Correlations(scores [][]textScore, mr []float64, perModel map[string][]float64) {
	rows := []Table7Correlation{}
	for _, metric := range []string{"rougeLsum_f1", "bleu", "chrf"} {
		val := func(s *textScore) float64 {
			switch metric {
			case "bleu":
				return s.bleu
			case "chrf":
				return s.chrf
			}
			return a.headline(s)
		}
		var sr, st float64
		var nr, nt, und int64
		var px, py []float64
		for _, qs := range scores {
			var x, y []float64
			for i := range qs {
				if !math.IsNaN(qs[i].humanRub) && !math.IsNaN(val(&qs[i])) {
					x = append(x, val(&qs[i]))
					y = append(y, qs[i].humanRub)
				}
			}
			px, py = append(px, x...), append(py, y...)
			r, _ := stats.Pearson(x, y)
			tau := stats.KendallTau(x, y)
			if math.IsNaN(r) || math.IsNaN(tau) {
				und++
			}
			if !math.IsNaN(r) {
				sr += r
				nr++
			}
			if !math.IsNaN(tau) {
				st += tau
				nt++
			}
		}
		rows = append(rows, Table7Correlation{Metric: metric, Level: "item", PearsonR: meanOf(sr, int(nr)), PearsonN: nr, KendallTau: meanOf(st, int(nt)), KendallN: nt, Undefined: und})
		r, _ := stats.Pearson(px, py)
		tau := stats.KendallTau(px, py)
		rows = append(rows, Table7Correlation{Metric: metric, Level: "pooled", PearsonR: r, PearsonN: int64(len(px)), KendallTau: tau, KendallN: int64(len(px))})
		mm := perModel[metric]
		r, _ = stats.Pearson(mm, mr)
		tau = stats.KendallTau(mm, mr)
		rows = append(rows, Table7Correlation{Metric: metric, Level: "model", PearsonR: r, PearsonN: int64(len(mm)), KendallTau: tau, KendallN: int64(len(mm))})
	}
	a.res.Text.Correlations = rows
}
