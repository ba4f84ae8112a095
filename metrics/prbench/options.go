package prbench

import "context"

// Options tunes Analyze. Start from DefaultOptions and change what differs.
type Options struct {
	ctx context.Context // set by Analyze; the bootstraps stop when it is done

	// HardShare is the share of each domain's questions in the Hard subset,
	// in (0, 1] (default 0.25, study.toml criteria.hard_share). The count is
	// ⌈HardShare·n⌉, at least 1. A value outside (0, 1] is replaced by the
	// default with a warning.
	HardShare float64
	// HardCount, when > 0, is the number of questions per domain in the Hard
	// subset (at most the domain's scored questions), overriding HardShare
	// (default 0: use HardShare; study.toml criteria.hard_count). A negative
	// value is treated as 0 with a warning.
	HardCount int
	// ParityMargin is the margin of the judge "within expert range" rule: a
	// judge is within range when the lower end of the 95 % paired bootstrap
	// interval of (judge–expert − expert–expert agreement) is above
	// −ParityMargin (default 0.05, study.toml criteria.parity_margin). A
	// negative or non-finite value is replaced by the default with a warning.
	ParityMargin float64
	// Seed seeds every bootstrap (default 1, study.toml analysis.seed).
	Seed uint64
	// Bootstrap is the number of cluster-bootstrap replicates behind every
	// 95 % interval (default 2000, study.toml analysis.bootstrap; 0 leaves
	// the intervals empty and judge parity undefined; a negative value is
	// treated as 0).
	Bootstrap int
}

// DefaultOptions returns the PRBench defaults, the same as an empty
// study.toml.
func DefaultOptions() Options {
	return Options{HardShare: 0.25, ParityMargin: 0.05, Seed: 1, Bootstrap: 2000}
}

// level is the confidence level of every interval.
const level = 0.95

// cancelled reports whether Analyze's context is done (false outside Analyze).
func (o Options) cancelled() bool { return o.ctx != nil && o.ctx.Err() != nil }
