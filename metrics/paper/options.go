package paper

// Bin is one difficulty bin of the difficulty gate: a question whose gate
// score is at most Max (and above the previous bin's Max) belongs to it.
type Bin struct {
	Name string
	Max  float64
}

// Options tunes AnalyzeResult. Start from DefaultOptions and change what differs;
// the zero value is not useful.
type Options struct {
	// RubricThreshold is the least mean rubric score of a solved grading
	// (default 3.0, study.toml solve.rubric_threshold). Compared exactly as
	// the fraction written in its shortest decimal form.
	RubricThreshold float64
	// ChecklistThreshold is the least checklist fulfilment rate of a solved
	// grading, a fraction in [0,1] (default 0.60).
	ChecklistThreshold float64
	// PartialCredit is the credit of a partial verdict, in [0,1] (default 0.5).
	PartialCredit float64
	// DifficultyBins are the difficulty bins in ascending order of Max
	// (default Hard 0.30, Medium 0.50, Easy 0.60). They give the order of the
	// difficulty categories in Table 2 and Figure 1.
	DifficultyBins []Bin
	// Seed seeds every random draw (default 1).
	Seed uint64
	// Bootstrap is the number of cluster-bootstrap replicates behind every
	// 95 % interval (default 2000; 0 leaves the intervals empty).
	Bootstrap int
	// Resamples is the number of subsets drawn per sample size of the
	// p-value curve, Figure 3 (default 500; 0 leaves the curve out).
	Resamples int
	// ExtremeEvaluators is the size of the most critical and the most lenient
	// evaluator groups of Figure 7 (default 10).
	ExtremeEvaluators int
	// Stemmer selects the Porter-stemmed ROUGE for the headline Table 7
	// (default true, as rouge-score's use_stemmer); the text_metrics table
	// always has both.
	Stemmer bool
	// Progress, when not nil, is called as each stage of the analysis
	// starts (done < total) and when the last one ends (done == total).
	Progress func(stage string, done, total int)
	// TextFilter restricts the text metrics and Table 7 to the questions
	// with one tag value (the paper's Table 7 uses 32 "balanced" questions);
	// default: no filter.
	TextFilter TagFilter
	// Language is the language of the texts, a BCP 47 tag (study.toml
	// [text] language); "" detects it from the references. English keeps
	// rouge-score's tokenizer and stemmer; other languages get Unicode-word
	// ROUGE and their BLEU tokenizer (textsim.Language).
	Language string
	// TextProgress, when not nil, is called after each response is scored
	// by ROUGE and BLEU, with the number done and the total; it is called
	// from several goroutines and must be safe for that.
	TextProgress func(done, total int)
	// QuestionPages bounds the question pages of the report (study.toml
	// [site] question_pages): a study with at most QuestionPages questions
	// gets a full page for every question; a larger one gets QuestionPages
	// full pages (see selectPages) and a summary line for every other
	// question, whose texts are then not kept in the report. 0 means
	// DefaultQuestionPages (2,000); a negative value means every question.
	QuestionPages int
	// Primary is the metric that matters first ([report] primary): with
	// "rubric" or "checklist" the headline figure shows that metric per
	// model instead of the Solve Rate. Default "": the Solve Rate.
	Primary string
}

// DefaultQuestionPages is the default of Options.QuestionPages.
const DefaultQuestionPages = 2000

// TagFilter selects the questions whose tag Key has the value Value; the
// zero TagFilter selects every question.
type TagFilter struct {
	Key, Value string
}

// DefaultOptions returns the EuroExec defaults, the same as an empty
// study.toml.
func DefaultOptions() Options {
	return Options{
		RubricThreshold:    3.0,
		ChecklistThreshold: 0.60,
		PartialCredit:      0.5,
		DifficultyBins: []Bin{
			{Name: "Hard", Max: 0.30},
			{Name: "Medium", Max: 0.50},
			{Name: "Easy", Max: 0.60},
		},
		Seed:              1,
		Bootstrap:         2000,
		Resamples:         500,
		ExtremeEvaluators: 10,
		Stemmer:           true,
	}
}
