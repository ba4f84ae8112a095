package ranking

import (
	"reflect"
	"testing"
)

func TestCompactLetters(t *testing.T) {
	cases := []struct {
		name string
		n    int
		sig  [][2]int
		want []string
	}{
		// Worked example, treatments A B C D in rank order; A–C, A–D and B–D differ.
		// Start {ABCD}. A–C: {ABCD} → {BCD}, {ABD}. A–D: {ABD} → {BD}, {AB};
		// absorb {BD} ⊂ {BCD} → {BCD}, {AB}. B–D: {BCD} → {CD}, {BC}.
		// Columns {AB} a, {BC} b, {CD} c: A a, B ab, C bc, D c.
		{"piepho insert and absorb", 4, [][2]int{{0, 2}, {0, 3}, {1, 3}}, []string{"a", "ab", "bc", "c"}},
		// multcompView::multcompLetters(c("A-B"=FALSE, "A-C"=FALSE, "B-C"=TRUE)):
		// A "ab", B "a", C "b". {ABC} → B–C: {AC}, {AB}; sorted {AB} a, {AC} b.
		{"three treatments, B–C differ", 3, [][2]int{{1, 2}}, []string{"ab", "a", "b"}},
		{"nothing differs", 3, nil, []string{"a", "a", "a"}},
		{"everything differs", 3, [][2]int{{0, 1}, {0, 2}, {1, 2}}, []string{"a", "b", "c"}},
		// Five treatments; only the extremes 1–5 and 1–4 and 2–5 differ.
		// {12345} → 1–4: {2345}, {1235}; 1–5: {1235} → {235} ⊂ {2345} absorbed, {123};
		// 2–5: {2345} → {345}, {234}. Columns {123} a, {234} b, {345} c.
		{"five, overlapping groups", 5, [][2]int{{0, 3}, {0, 4}, {1, 4}}, []string{"a", "ab", "abc", "bc", "c"}},
		{"none", 0, nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sig := map[[2]int]bool{}
			for _, p := range c.sig {
				sig[p] = true
			}
			got := CompactLetters(c.n, func(i, j int) bool { return sig[[2]int{i, j}] })
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %q, want %q", got, c.want)
			}
			// property: a significant pair shares no letter, a non-significant pair shares one
			for i := 0; i < c.n; i++ {
				for j := i + 1; j < c.n; j++ {
					share := false
					for _, r := range got[i] {
						for _, s := range got[j] {
							share = share || r == s
						}
					}
					if share == sig[[2]int{i, j}] {
						t.Errorf("pair %d–%d: significant %v but share a letter %v", i, j, sig[[2]int{i, j}], share)
					}
				}
			}
		})
	}
}
