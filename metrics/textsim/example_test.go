package textsim_test

import (
	"fmt"

	"github.com/euroexec/euroexec/metrics/textsim"
)

func Example() {
	ref := "The board approved the budget.\nRevenue rose 5% in Q2."
	hyp := "The board approved a budget.\nQ2 revenue rose by 5%."

	r := textsim.ScoreRouge(hyp, ref, textsim.DefaultRougeOptions)
	fmt.Printf("ROUGE-1 F1 %.4f\n", r.Rouge1.F1)
	fmt.Printf("ROUGE-Lsum P %.4f R %.4f F1 %.4f\n", r.RougeLsum.Precision, r.RougeLsum.Recall, r.RougeLsum.F1)

	b := textsim.SentenceBLEU(hyp, []string{ref}, textsim.DefaultBLEUOptions)
	fmt.Printf("BLEU %.2f (counts %v, totals %v, BP %.3f)\n", b.Score, b.Counts, b.Totals, b.BP)
	fmt.Println(textsim.DefaultBLEUOptions.Signature(1))

	// Many hypotheses against the same reference: tokenise it once.
	scorer := textsim.NewRougeScorer([]string{ref}, textsim.DefaultRougeOptions)
	for _, h := range []string{"Revenue rose.", "The budget was rejected."} {
		fmt.Printf("%q ROUGE-L F1 %.4f\n", h, scorer.Score(h).RougeL.F1)
	}
	// Output:
	// ROUGE-1 F1 0.8000
	// ROUGE-Lsum P 0.7000 R 0.7000 F1 0.7000
	// BLEU 18.48 (counts [10 4 1 0], totals [13 12 11 10], BP 1.000)
	// nrefs:1|case:mixed|eff:yes|tok:13a|smooth:exp|version:2.6.0
	// "Revenue rose." ROUGE-L F1 0.3333
	// "The budget was rejected." ROUGE-L F1 0.2857
}
