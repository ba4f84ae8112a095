package tables

import (
	"github.com/euroexec/euroexec/metrics/paper"
	"github.com/euroexec/euroexec/report"
)

// paperText presents the automatic text metrics: corpus_metrics,
// text_metrics (paged on the site), table7 and table7_correlations; a
// table the analysis left out (nil rows) is absent.
func paperText(x paper.Text) report.Part {
	var p report.Part
	if x.Corpus != nil {
		p.Tables = append(p.Tables, paperCorpus(x))
	}
	if x.Responses != nil {
		p.Tables = append(p.Tables, paperTextMetrics(x))
	}
	if x.Models != nil {
		p.Tables = append(p.Tables, paperTable7(x))
	}
	if x.Correlations != nil {
		p.Tables = append(p.Tables, paperTable7Correlations(x.Correlations))
	}
	return p
}

func paperCorpus(x paper.Text) *report.Table {
	t := &report.Table{Name: "corpus_metrics", Title: "Corpus BLEU, chrF and chrF++ per model", Section: report.SectionAutomatic,
		Doc: "Per set and model, over the model's responses on the questions with an expert-written reference: corpus BLEU (sacrebleu 2.6.0 corpus_bleu, tokenizer " + x.CorpusTokenizer + " for language " + x.Language + "), corpus chrF (chrF2) and chrF++ (word order 2) — statistics summed over the responses, then one score, as MT evaluation reports a system — with 95 % paired bootstrap intervals over questions (the same draws for every model; the summed statistics are resampled, not the texts), and the mean of the sentence BLEU and chrF for contrast. Models in the order of the report's primary metric. Scores 0–100.",
		Columns: []report.Column{
			paperCol("set", report.Text, "all = every question with a reference; otherwise a value of the questions' set tag"),
			paperCol("model", report.Text, "model"),
			paperCol("n", report.Int, "responses (segments) in the corpus"),
			{Name: "bleu", Kind: report.Float, Doc: "corpus BLEU, 0–100", Header: "Corpus BLEU"},
			{Name: "bleu_lo", Kind: report.Float, Doc: "corpus BLEU, lower end of the 95 % bootstrap interval", Header: "Corpus BLEU, lower end"},
			{Name: "bleu_hi", Kind: report.Float, Doc: "corpus BLEU, upper end of the 95 % bootstrap interval", Header: "Corpus BLEU, upper end"},
			{Name: "chrf", Kind: report.Float, Doc: "corpus chrF (chrF2), 0–100", Header: "Corpus chrF"},
			{Name: "chrf_lo", Kind: report.Float, Doc: "corpus chrF, lower end", Header: "Corpus chrF, lower end"},
			{Name: "chrf_hi", Kind: report.Float, Doc: "corpus chrF, upper end", Header: "Corpus chrF, upper end"},
			{Name: "chrf_pp", Kind: report.Float, Doc: "corpus chrF++ (word order 2), 0–100", Header: "Corpus chrF++"},
			{Name: "chrf_pp_lo", Kind: report.Float, Doc: "corpus chrF++, lower end", Header: "Corpus chrF++, lower end"},
			{Name: "chrf_pp_hi", Kind: report.Float, Doc: "corpus chrF++, upper end", Header: "Corpus chrF++, upper end"},
			paperCol("mean_sentence_bleu", report.Float, "mean of the responses' sentence BLEU (not a corpus figure)"),
			paperCol("mean_sentence_chrf", report.Float, "mean of the responses' sentence chrF"),
			paperCol("bleu_signature", report.Text, "sacrebleu's signature of the corpus BLEU"),
			paperCol("chrf_signature", report.Text, "sacrebleu's signature of the corpus chrF"),
			paperCol("chrf_pp_signature", report.Text, "sacrebleu's signature of the corpus chrF++"),
		}}
	for _, r := range x.Corpus {
		t.Rows = append(t.Rows, []any{r.Set, r.Model, r.N, r.BLEU, r.BLEULo, r.BLEUHi, r.ChrF, r.ChrFLo, r.ChrFHi, r.ChrFPP, r.ChrFPPLo, r.ChrFPPHi,
			r.MeanSentenceBLEU, r.MeanSentenceChrF, r.BLEUSignature, r.ChrFSignature, r.ChrFPPSignature})
	}
	return t
}

func paperTextMetrics(x paper.Text) *report.Table {
	rouge := "ROUGE F1 (rouge-score 0.1.2, best reference), with and without the Porter stemmer"
	if x.UnicodeRouge {
		rouge = "ROUGE F1 (best reference) on Unicode words, each Chinese or Japanese character a word, with no stemmer since the texts are not English (language " + x.Language + "; rouge-score's tokenizer keeps only a–z and 0–9), so the stemmed and _nostem columns agree"
	}
	t := &report.Table{Name: "text_metrics", Title: "Automatic text metrics per response", Section: report.SectionAutomatic,
		Doc: "Sentence BLEU (sacrebleu 2.6.0 sentence_bleu, tokenizer " + x.SentenceTokenizer + ", 0–100, all references), sentence chrF (sacrebleu sentence_chrf, 0–100, best reference) and " + rouge + ", of every model response on a question with an expert-written reference; the human label is left out. The site shows every row, page by page; the per-model figures are in corpus_metrics.",
		Columns: []report.Column{
			paperCol("question_id", report.Text, "question"),
			paperCol("model", report.Text, "model"),
			paperCol("bleu", report.Float, "sentence BLEU, 0–100"),
			paperCol("chrf", report.Float, "sentence chrF (chrF2, character 6-grams), 0–100"),
			paperCol("rouge1_f1", report.Float, "ROUGE-1 F1, stemmed"),
			paperCol("rouge2_f1", report.Float, "ROUGE-2 F1, stemmed"),
			paperCol("rougeL_f1", report.Float, "ROUGE-L F1, stemmed"),
			paperCol("rougeLsum_f1", report.Float, "ROUGE-Lsum F1, stemmed"),
			paperCol("rouge1_f1_nostem", report.Float, "ROUGE-1 F1, no stemmer"),
			paperCol("rouge2_f1_nostem", report.Float, "ROUGE-2 F1, no stemmer"),
			paperCol("rougeL_f1_nostem", report.Float, "ROUGE-L F1, no stemmer"),
			paperCol("rougeLsum_f1_nostem", report.Float, "ROUGE-Lsum F1, no stemmer"),
			paperCol("human_rubric", report.Float, "mean over the response's human gradings (main round) of the rubric mean"),
		},
		Paged: true, // one row per response: every row on the site, page by page
	}
	t.Rows = make([][]any, 0, len(x.Responses))
	for _, r := range x.Responses {
		t.Rows = append(t.Rows, []any{r.QuestionID, r.Model, r.BLEU, r.ChrF,
			r.Rouge.R1, r.Rouge.R2, r.Rouge.L, r.Rouge.Lsum, r.NoStem.R1, r.NoStem.R2, r.NoStem.L, r.NoStem.Lsum, r.HumanRubric})
	}
	return t
}

func paperTable7(x paper.Text) *report.Table {
	stem := "stemmed"
	if !x.Stemmer {
		stem = "not stemmed"
	}
	t := &report.Table{Name: "table7", Title: "Table 7: Human rubric, ROUGE-Lsum and BLEU per model", Section: report.SectionAutomatic,
		Doc: "Per model, on the questions with an expert-written reference: mean human rubric (main-round gradings of the same responses), mean ROUGE-Lsum F1 (" + stem + "), mean sentence BLEU, and the corpus BLEU and chrF of corpus_metrics (set all).",
		Columns: []report.Column{
			paperCol("model", report.Text, "model"),
			paperCol("questions", report.Int, "questions with a scored response"),
			paperCol("rubric", report.Float, "mean over the human gradings of these responses of the rubric mean"),
			paperCol("rougeLsum_f1", report.Float, "mean ROUGE-Lsum F1"),
			paperCol("mean_sentence_bleu", report.Float, "mean sentence BLEU (0–100)"),
			paperCol("corpus_bleu", report.Float, "corpus BLEU (0–100), as in corpus_metrics"),
			paperCol("corpus_chrf", report.Float, "corpus chrF (0–100), as in corpus_metrics"),
		}}
	for _, r := range x.Models {
		t.Rows = append(t.Rows, []any{r.Model, r.Questions, r.Rubric, r.RougeLsum, r.MeanSentenceBLEU, r.CorpusBLEU, r.CorpusChrF})
	}
	return t
}

func paperTable7Correlations(rows []paper.Table7Correlation) *report.Table {
	t := &report.Table{Name: "table7_correlations", Title: "Table 7: Correlation of automatic metrics with the human rubric", Section: report.SectionAutomatic,
		Doc: "Pearson r and Kendall τ-b between each metric and the mean human rubric: item level (per question across its responses, averaged over the questions where defined), pooled over all responses (sentence scores), and across models (mean ROUGE-Lsum; corpus BLEU and corpus chrF, the per-system figures MT evaluation uses, against the model's mean rubric).",
		Columns: []report.Column{
			paperCol("metric", report.Text, "rougeLsum_f1 (headline stemming), bleu (sentence BLEU; corpus BLEU at model level) or chrf (sentence chrF; corpus chrF at model level)"),
			paperCol("level", report.Text, "item (per question, averaged), pooled (all responses) or model (per model: mean ROUGE-Lsum, corpus BLEU, corpus chrF)"),
			paperCol("pearson_r", report.Float, "Pearson r (mean over questions at item level)"),
			paperCol("pearson_n", report.Int, "questions (item) or points (pooled, model) behind r"),
			paperCol("kendall_tau", report.Float, "Kendall τ-b (mean over questions at item level)"),
			paperCol("kendall_n", report.Int, "questions (item) or points behind τ"),
			paperCol("n_undefined", report.Int, "questions whose r or τ is undefined (a constant side or fewer than 2 responses), left out"),
		}}
	for _, r := range rows {
		t.Rows = append(t.Rows, []any{r.Metric, r.Level, r.PearsonR, r.PearsonN, r.KendallTau, r.KendallN, r.Undefined})
	}
	return t
}
