// Package suggest finds the value a user probably meant ("did you mean")
// among the accepted ones, by edit distance.
package suggest

import (
	"fmt"
	"sort"
	"strings"
)

// Distance is the Levenshtein distance of a and b, in runes.
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			c := 1
			if ra[i-1] == rb[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// Closest returns the option nearest to s, compared in lower case, when it
// is within 1 + len(s)/4 edits (ties: the first in sorted order).
func Closest(s string, options []string) (string, bool) {
	ls := strings.ToLower(s)
	best, bestD := "", 2+len([]rune(s))/4
	sorted := append([]string(nil), options...)
	sort.Strings(sorted)
	for _, o := range sorted {
		if d := Distance(ls, strings.ToLower(o)); d < bestD {
			best, bestD = o, d
		}
	}
	return best, best != ""
}

// MaxListed is how many accepted values Hint lists at most.
const MaxListed = 12

// Hint is the text added to a problem about an unknown value s: ` (did you
// mean "x"?)` when an option is close, and `; accepted: a, b, c` when there
// are at most MaxListed options. what names the options ("models").
func Hint(s string, options []string, what string) string {
	var b strings.Builder
	if c, ok := Closest(s, options); ok {
		fmt.Fprintf(&b, " (did you mean %q?)", c)
	}
	if n := len(options); n > 0 && n <= MaxListed {
		sorted := append([]string(nil), options...)
		sort.Strings(sorted)
		fmt.Fprintf(&b, "; the %s are %s", what, strings.Join(sorted, ", "))
	}
	return b.String()
}
