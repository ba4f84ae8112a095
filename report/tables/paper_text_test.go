package tables

import (
	"math"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/metrics/paper"
)

// TestPaperTextFromTyped: the four text tables hold their typed rows in
// column order (stemmed ROUGE before _nostem), text_metrics is paged, the
// docs name the tokenizers, language and headline stemming; nil rows leave
// a table out.
func TestPaperTextFromTyped(t *testing.T) {
	nan := math.NaN()
	x := paper.Text{Language: "de", SentenceTokenizer: "13a", CorpusTokenizer: "intl", UnicodeRouge: true, Stemmer: false,
		Corpus: []paper.CorpusRow{{Set: "all", Model: "M1", N: 3, BLEU: 40, BLEULo: 30, BLEUHi: 50, ChrF: 60, ChrFLo: nan, ChrFHi: nan,
			ChrFPP: 58, ChrFPPLo: 50, ChrFPPHi: 66, MeanSentenceBLEU: 35, MeanSentenceChrF: 55, BLEUSignature: "b", ChrFSignature: "c", ChrFPPSignature: "cpp"}},
		Responses: []paper.TextRow{{QuestionID: "q1", Model: "M1", BLEU: 100, ChrF: 90,
			Rouge: paper.RougeF1{R1: 1, R2: 0.5, L: 0.75, Lsum: 0.8}, NoStem: paper.RougeF1{R1: 0.9, R2: 0.4, L: 0.7, Lsum: 0.6}, HumanRubric: nan}},
		Models:       []paper.Table7Row{{Model: "M1", Questions: 1, Rubric: 3.5, RougeLsum: 0.6, MeanSentenceBLEU: 100, CorpusBLEU: 40, CorpusChrF: 60}},
		Correlations: []paper.Table7Correlation{{Metric: "bleu", Level: "item", PearsonR: 1, PearsonN: 1, KendallTau: nan, KendallN: 0, Undefined: 1}},
	}
	p := paperText(x)
	if len(p.Tables) != 4 {
		t.Fatalf("%d tables, want 4", len(p.Tables))
	}
	c, m, t7, tc := p.Tables[0], p.Tables[1], p.Tables[2], p.Tables[3]
	checkCell(t, c, c.Rows[0], "chrf_pp_lo", 50.0)
	checkCell(t, c, c.Rows[0], "chrf_lo", nan)
	checkCell(t, c, c.Rows[0], "chrf_pp_signature", "cpp")
	if c.Columns[3].Header != "Corpus BLEU" || !strings.Contains(c.Doc, "tokenizer intl for language de") {
		t.Errorf("corpus_metrics header %q, doc %q", c.Columns[3].Header, c.Doc)
	}
	if !m.Paged || !strings.Contains(m.Doc, "tokenizer 13a") || !strings.Contains(m.Doc, "Unicode words") {
		t.Errorf("text_metrics paged %v, doc %q", m.Paged, m.Doc)
	}
	checkCell(t, m, m.Rows[0], "rouge2_f1", 0.5)
	checkCell(t, m, m.Rows[0], "rougeLsum_f1_nostem", 0.6)
	checkCell(t, m, m.Rows[0], "human_rubric", nan)
	if !strings.Contains(t7.Doc, "(not stemmed)") {
		t.Errorf("table7 doc %q: want not stemmed", t7.Doc)
	}
	checkCell(t, t7, t7.Rows[0], "corpus_chrf", 60.0)
	checkCell(t, tc, tc.Rows[0], "n_undefined", int64(1))
	checkCell(t, tc, tc.Rows[0], "kendall_tau", nan)
	if p := paperText(paper.Text{Responses: x.Responses}); len(p.Tables) != 1 || p.Tables[0].Name != "text_metrics" {
		t.Errorf("only responses: tables %d", len(p.Tables))
	}
}
