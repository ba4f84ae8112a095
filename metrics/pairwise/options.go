package pairwise

// Options control Analyze.
type Options struct {
	// Seed seeds the bootstrap (default 1).
	Seed uint64
	// Bootstrap is the number of cluster-bootstrap replicates over questions
	// (default 2000; 0 leaves the intervals empty).
	Bootstrap int
	// Level is the interval level (default 0.95), in (0, 1).
	Level float64
	// Round is the round analysed (default "" = the study's main round).
	Round string
	// Prior is the number of virtual ties added between every two models
	// when the maximum-likelihood Bradley–Terry ratings do not exist
	// (default 0.01; must be > 0).
	Prior float64
	// LengthMargin is the length difference in characters above which a
	// pair counts in the length-bias table (default 30).
	LengthMargin int
	// MinOverlap is the number of comparisons two graders (or a grader and
	// the majority of the other humans) must have judged in common for a
	// row of the agreement table (default 20; 1 keeps every pair).
	MinOverlap int
}

// DefaultOptions are the defaults documented on Options.
func DefaultOptions() Options {
	return Options{Seed: 1, Bootstrap: 2000, Level: 0.95, Prior: 0.01, LengthMargin: 30, MinOverlap: 20}
}
