package ingest

import (
	"fmt"
	"strings"
	"testing"

	unorm "golang.org/x/text/unicode/norm"

	"github.com/euroexec/euroexec/ingest/tabular"
)

// oldIDText is what state.cleanID did to an id cell before idText (the
// oracle of TestIDTextSameAsBefore and the "old" side of BenchmarkIDText):
// trimmed, NFC, then searched rune by rune for an invisible character.
func oldIDText(s string) (string, int) {
	v := strings.TrimSpace(s)
	if !unorm.NFC.IsNormalString(v) {
		v = unorm.NFC.String(v)
	}
	return v, strings.IndexFunc(v, tabular.Invisible)
}

// idCells are id cells of every kind: printable ASCII, spaces around,
// every ASCII byte, Latin-1 and combining characters (not NFC), invisible
// and control characters, invalid UTF-8.
func idCells() []string {
	cells := []string{"", " ", "q1", "  q1  ", "\tq1\n", "expert_01", "Human Expert", "~", " ~ ", "a b", "100001",
		"e\u0301", "é", "\u00ad", "a\u200bb", "x\u2028", "\u00a0q\u00a0", "q\x7f", "\x00", "\xff", "a\xc3", "\u3000id\u3000", "ﬁ"}
	for c := 0; c < 256; c++ {
		cells = append(cells, string(rune(c)), "id"+string([]byte{byte(c)})+"x", string(rune(c))+"q")
	}
	return cells
}

// TestIDTextSameAsBefore checks idText against the code it replaced, on
// every kind of id cell.
func TestIDTextSameAsBefore(t *testing.T) {
	for _, s := range idCells() {
		gv, gi := idText(s)
		wv, wi := oldIDText(s)
		if gv != wv || gi != wi {
			t.Errorf("idText(%q) = %q, %d; want %q, %d", s, gv, gi, wv, wi)
		}
	}
}

// BenchmarkIDText cleans the ids of 10,000 grading rows (question ids,
// evaluator and model names, a few not ASCII) the old way and the new,
// in one run.
//
//	go test -tags duckdb_arrow -run X -bench IDText ./ingest
func BenchmarkIDText(b *testing.B) {
	var ids []string
	for i := 0; i < 10000; i++ {
		ids = append(ids, fmt.Sprint(100000+i/6), fmt.Sprintf("expert_%02d", i%12), []string{"atlas-5", "borealis-2.5-pro", "cirrus-large-3", "dorado-4o", "ember-3.1", "Fjörd-1.5"}[i%6])
	}
	for _, f := range []struct {
		name string
		fn   func(string) (string, int)
	}{{"old", oldIDText}, {"new", idText}} {
		b.Run(f.name, func(b *testing.B) {
			n := 0
			for i := 0; i < b.N; i++ {
				for _, s := range ids {
					v, _ := f.fn(s)
					n += len(v)
				}
			}
			_ = n
		})
	}
}
