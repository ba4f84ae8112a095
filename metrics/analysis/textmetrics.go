package analysis

import (
	"fmt"
	"math"
	"runtime"
	"sync/atomic"

	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/metrics/textsim"
	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/study"
)

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
				return // cancelled: Analyze returns the error after this stage
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
	corpus := a.corpusMetrics(scores, refs, ts)
	a.textMetricsTable(scores, ts)
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

func (a *run) textMetricsTable(scores [][]textScore, ts textSetup) {
	p := a.p
	rouge := "ROUGE F1 (rouge-score 0.1.2, best reference), with and without the Porter stemmer"
	if ts.rouge.Unicode {
		rouge = "ROUGE F1 (best reference) on Unicode words, each Chinese or Japanese character a word, with no stemmer since the texts are not English (language " + ts.lang.Code + "; rouge-score's tokenizer keeps only a–z and 0–9), so the stemmed and _nostem columns agree"
	}
	t := newTable("text_metrics", "Automatic text metrics per response", report.SectionAutomatic,
		"Sentence BLEU (sacrebleu 2.6.0 sentence_bleu, tokenizer "+ts.sentBLEU.Tokenize+", 0–100, all references), sentence chrF (sacrebleu sentence_chrf, 0–100, best reference) and "+rouge+", of every model response on a question with an expert-written reference; the human label is left out. The site shows every row, page by page; the per-model figures are in corpus_metrics.",
		col("question_id", report.Text, "question"),
		col("model", report.Text, "model"),
		col("bleu", report.Float, "sentence BLEU, 0–100"),
		col("chrf", report.Float, "sentence chrF (chrF2, character 6-grams), 0–100"),
		col("rouge1_f1", report.Float, "ROUGE-1 F1, stemmed"),
		col("rouge2_f1", report.Float, "ROUGE-2 F1, stemmed"),
		col("rougeL_f1", report.Float, "ROUGE-L F1, stemmed"),
		col("rougeLsum_f1", report.Float, "ROUGE-Lsum F1, stemmed"),
		col("rouge1_f1_nostem", report.Float, "ROUGE-1 F1, no stemmer"),
		col("rouge2_f1_nostem", report.Float, "ROUGE-2 F1, no stemmer"),
		col("rougeL_f1_nostem", report.Float, "ROUGE-L F1, no stemmer"),
		col("rougeLsum_f1_nostem", report.Float, "ROUGE-Lsum F1, no stemmer"),
		col("human_rubric", report.Float, "mean over the response's human gradings (main round) of the rubric mean"))
	for _, qs := range scores {
		for _, s := range qs {
			addRow(t, p.s.Questions[s.q].ID, p.s.Models[s.m].Name, s.bleu, s.chrf,
				s.stem.Rouge1.F1, s.stem.Rouge2.F1, s.stem.RougeL.F1, s.stem.RougeLsum.F1,
				s.raw.Rouge1.F1, s.raw.Rouge2.F1, s.raw.RougeL.F1, s.raw.RougeLsum.F1, s.humanRub)
		}
	}
	t.Paged = true // one row per response: every row on the site, page by page
	a.addTable(t)
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
	stem := "stemmed"
	if !a.opt.Stemmer {
		stem = "not stemmed"
	}
	t := newTable("table7", "Table 7: Human rubric, ROUGE-Lsum and BLEU per model", report.SectionAutomatic,
		"Per model, on the questions with an expert-written reference: mean human rubric (main-round gradings of the same responses), mean ROUGE-Lsum F1 ("+stem+"), mean sentence BLEU, and the corpus BLEU and chrF of corpus_metrics (set all).",
		col("model", report.Text, "model"),
		col("questions", report.Int, "questions with a scored response"),
		col("rubric", report.Float, "mean over the human gradings of these responses of the rubric mean"),
		col("rougeLsum_f1", report.Float, "mean ROUGE-Lsum F1"),
		col("mean_sentence_bleu", report.Float, "mean sentence BLEU (0–100)"),
		col("corpus_bleu", report.Float, "corpus BLEU (0–100), as in corpus_metrics"),
		col("corpus_chrf", report.Float, "corpus chrF (0–100), as in corpus_metrics"))
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
		addRow(t, p.s.Models[m].Name, int64(len(rs[m])), r, ro, bl, cf.bleu, cf.chrf)
		mr, mrouge, mbleu, mchrf = append(mr, r), append(mrouge, ro), append(mbleu, cf.bleu), append(mchrf, cf.chrf)
	}
	a.addTable(t)
	a.table7Correlations(scores, mr, map[string][]float64{"rougeLsum_f1": mrouge, "bleu": mbleu, "chrf": mchrf})
}

func (a *run) table7Correlations(scores [][]textScore, mr []float64, perModel map[string][]float64) {
	t := newTable("table7_correlations", "Table 7: Correlation of automatic metrics with the human rubric", report.SectionAutomatic,
		"Pearson r and Kendall τ-b between each metric and the mean human rubric: item level (per question across its responses, averaged over the questions where defined), pooled over all responses (sentence scores), and across models (mean ROUGE-Lsum; corpus BLEU and corpus chrF, the per-system figures MT evaluation uses, against the model's mean rubric).",
		col("metric", report.Text, "rougeLsum_f1 (headline stemming), bleu (sentence BLEU; corpus BLEU at model level) or chrf (sentence chrF; corpus chrF at model level)"),
		col("level", report.Text, "item (per question, averaged), pooled (all responses) or model (per model: mean ROUGE-Lsum, corpus BLEU, corpus chrF)"),
		col("pearson_r", report.Float, "Pearson r (mean over questions at item level)"),
		col("pearson_n", report.Int, "questions (item) or points (pooled, model) behind r"),
		col("kendall_tau", report.Float, "Kendall τ-b (mean over questions at item level)"),
		col("kendall_n", report.Int, "questions (item) or points behind τ"),
		col("n_undefined", report.Int, "questions whose r or τ is undefined (a constant side or fewer than 2 responses), left out"))
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
		addRow(t, metric, "item", meanOf(sr, int(nr)), nr, meanOf(st, int(nt)), nt, und)
		r, _ := stats.Pearson(px, py)
		tau := stats.KendallTau(px, py)
		addRow(t, metric, "pooled", r, int64(len(px)), tau, int64(len(px)), int64(0))
		mm := perModel[metric]
		r, _ = stats.Pearson(mm, mr)
		tau = stats.KendallTau(mm, mr)
		addRow(t, metric, "model", r, int64(len(mm)), tau, int64(len(mm)), int64(0))
	}
	a.addTable(t)
}
