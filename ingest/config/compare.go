package config

import (
	"regexp"
	"strings"
)

// Compare holds the settings `euroexec compare` takes from the first run.
type Compare struct {
	// Margins are non-inferiority margins, each written as the command's
	// --margin: "2pp" (2 percentage points for every rate metric) or
	// "METRIC=V" (V in the metric's units, or in pp for a rate), e.g.
	// ["2pp", "rubric=0.1"]. --margin on the command line replaces them.
	// Default none.
	Margins []string `toml:"margins"`
}

// marginSyntax is the form of a margin; compare checks the metric names
// and the ranges when it parses them.
var marginSyntax = regexp.MustCompile(`^\s*([a-z_]+\s*=\s*)?[0-9]*\.?[0-9]+(e-?[0-9]+)?\s*(pp)?\s*$`)

// checkCompare validates [compare].
func (c Config) checkCompare(bad func(key string, value any, expected string)) {
	if len(c.Compare.Margins) > 20 {
		bad("compare.margins", len(c.Compare.Margins), "at most 20 margins")
		return
	}
	for _, m := range c.Compare.Margins {
		if !marginSyntax.MatchString(m) {
			bad("compare.margins", m, `a margin such as "2pp", "solve_rate=5pp" or "rubric=0.1"`)
		}
	}
}

// comparePairs lists compare.margins when set, so that studies without it
// keep their settings table.
func (c Config) comparePairs() [][2]string {
	if len(c.Compare.Margins) == 0 {
		return nil
	}
	return [][2]string{{"compare.margins", strings.Join(c.Compare.Margins, "; ")}}
}
