package ingest

import (
	"math/rand/v2"
	"testing"

	"github.com/euroexec/euroexec/ingest/config"
	"github.com/euroexec/euroexec/ingest/tabular"
)

// The look-ups of blinding, rank groups and responses by their definition:
// maps of every question's keys (the oracle of the tests below and the
// "maps" side of their benchmarks).

// mapShownFor is state.shownFor's definition: shown and shownPos keyed by
// (question, model, evaluator); all is sid(""), hasAll whether "" had one.
func mapShownFor(shown map[blindKey]int32, shownPos map[blindKey]int64, all int32, hasAll bool, q, m, ev int32) (label int32, hasLabel bool, pos int64) {
	k := blindKey{q, m, ev}
	if label, hasLabel = shown[k]; !hasLabel && hasAll {
		label, hasLabel = shown[blindKey{q, m, all}]
	}
	if len(shownPos) > 0 {
		if pos = shownPos[k]; pos == 0 && hasAll {
			pos = shownPos[blindKey{q, m, all}]
		}
	}
	return label, hasLabel, pos
}

// blindRow is one row of a blinding file, numbered: ev is blank for
// every evaluator; pos 0 means no position.
type blindRow struct {
	q, m, ev, label int32
	pos             int64
}

// shownBoth records blinding rows in maps (the definition) and as
// readBlinding does (question.shown), a row that gives a model a second label
// being refused by both.
type shownBoth struct {
	st       *state
	shown    map[blindKey]int32
	shownPos map[blindKey]int64
}

func newShownBoth(questions int) *shownBoth {
	b := &shownBoth{st: &state{blankSid: -1}, shown: map[blindKey]int32{}, shownPos: map[blindKey]int64{}}
	for i := 0; i < questions; i++ {
		b.st.qs = append(b.st.qs, &question{num: int32(i)})
	}
	return b
}

// add records r, blank being the sid of "" (the evaluator of rows for
// every evaluator).
func (b *shownBoth) add(r blindRow, blank int32) {
	sk := blindKey{r.q, r.m, r.ev}
	if other, dup := b.shown[sk]; !dup || other == r.label {
		b.shown[sk] = r.label
		if r.pos > 0 {
			b.shownPos[sk] = r.pos
		}
	}
	qi := b.st.qs[r.q]
	if r.ev == blank {
		b.st.blankSid = blank
	}
	sh := qi.shownAt(r.m, r.ev)
	if sh != nil && sh.label != r.label {
		return
	}
	if sh == nil {
		qi.shown = append(qi.shown, shownAt{m: r.m, ev: r.ev, label: r.label})
		sh = &qi.shown[len(qi.shown)-1]
	}
	if r.pos > 0 {
		sh.pos = r.pos
	}
}

// drawBlindRows draws n blinding rows over questions × 4 models × evaluators
// 0..3, evaluator blank (for every evaluator) in about a third of them,
// labels 10..13 and positions 0..3.
func drawBlindRows(seed uint64, n, questions int, blank int32) []blindRow {
	rng := rand.New(rand.NewPCG(seed, 2))
	rows := make([]blindRow, n)
	for i := range rows {
		ev := rng.Int32N(4)
		if rng.IntN(3) == 0 {
			ev = blank
		}
		rows[i] = blindRow{q: rng.Int32N(int32(questions)), m: 20 + rng.Int32N(4), ev: ev, label: 10 + rng.Int32N(4), pos: rng.Int64N(4)}
	}
	return rows
}

// TestShownForSameAsMaps checks state.shownFor against the maps it
// replaced, for every (question, model, evaluator) and some never in
// blinding, with and without rows for every evaluator.
func TestShownForSameAsMaps(t *testing.T) {
	for _, tc := range []struct {
		name  string
		blank int32 // sid of ""; -1: no row is for every evaluator
		rows  int
	}{
		{"no blinding", -1, 0},
		{"per evaluator only", -1, 300},
		{"every evaluator too", 7, 300},
		{"dense", 7, 3000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const questions = 40
			b := newShownBoth(questions)
			blank := tc.blank
			if blank < 0 {
				blank = 99 // never drawn as the blank: no row is for every evaluator
			}
			for _, r := range drawBlindRows(5, tc.rows, questions, tc.blank) {
				if tc.blank < 0 && r.ev < 0 {
					r.ev = 3
				}
				b.add(r, blank)
			}
			// "" may have a sid (from a file's sheet) with no blinding row
			// for every evaluator: hasAll is then true in the map definition.
			all, hasAll := blank, true
			for q := int32(0); q < questions; q++ {
				for m := int32(19); m < 25; m++ {
					for ev := int32(-1); ev < 6; ev++ {
						gl, gh, gp := b.st.shownFor(b.st.qs[q], m, ev)
						wl, wh, wp := mapShownFor(b.shown, b.shownPos, all, hasAll, q, m, ev)
						if gl != wl || gh != wh || gp != wp {
							t.Fatalf("shownFor(q%d, m%d, ev%d) = %d, %v, %d; want %d, %v, %d", q, m, ev, gl, gh, gp, wl, wh, wp)
						}
					}
				}
			}
		})
	}
}

// TestGroupSeenSameAsMap checks rankGroup.seenAt against the map of
// (group, model) it replaced, over a stream of gradings with repeats.
func TestGroupSeenSameAsMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	groups := make([]rankGroup, 50)
	old := map[uint64]where{}
	for i := 0; i < 5000; i++ {
		gi, m := rng.Int32N(int32(len(groups))), rng.Int32N(12)
		w := where{rng.Int32N(3), 0, int32(i)}
		want, wantDup := old[uint64(uint32(gi))<<32|uint64(uint32(m))]
		got, gotDup := groups[gi].seenAt(m)
		if got != want || gotDup != wantDup {
			t.Fatalf("grading %d (group %d, model %d): seenAt = %v, %v; want %v, %v", i, gi, m, got, gotDup, want, wantDup)
		}
		if !wantDup {
			old[uint64(uint32(gi))<<32|uint64(uint32(m))] = w
			groups[gi].seen = append(groups[gi].seen, modelSeen{m, w})
		}
	}
}

// TestHasResponseSameAsMap checks question.hasResponse, fed by
// state.addResponse, against the response index it stands for.
func TestHasResponseSameAsMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	st := newState("", config.Config{})
	for i := 0; i < 30; i++ {
		st.qs = append(st.qs, &question{num: int32(i)})
	}
	for i := 0; i < 400; i++ {
		st.addResponse(newRespKey(rng.Int32N(30), rng.Int32N(10)), int64(i%3), tabular.Loc{File: "responses/r.jsonl", Row: i + 1})
	}
	for q := int32(0); q < 30; q++ {
		for m := int32(-1); m < 12; m++ {
			_, want := st.responses[newRespKey(q, m)]
			if got := st.qs[q].hasResponse(m); got != want {
				t.Errorf("hasResponse(q%d, m%d) = %v, want %v", q, m, got, want)
			}
		}
	}
}

// BenchmarkKeys times the look-ups of writing 240,000 gradings (40,000
// questions × 6 models, one evaluator, blinding for every evaluator)
// before (maps) and now (per question and rank group), in one run.
//
//	go test -tags duckdb_arrow -run X -bench 'Keys' ./ingest
func BenchmarkKeys(b *testing.B) {
	const questions, models = 40000, 6
	const blank, ev = 1, 2
	sb := newShownBoth(questions)
	groups := make([]rankGroup, questions)
	oldSeen := map[uint64]where{}
	oldResp := map[respKey]respInfo{}
	for q := int32(0); q < questions; q++ {
		for m := int32(10); m < 10+models; m++ {
			sb.add(blindRow{q: q, m: m, ev: blank, label: 100 + m, pos: int64(m - 9)}, blank)
			oldResp[newRespKey(q, m)] = respInfo{}
			sb.st.qs[q].respModels = append(sb.st.qs[q].respModels, m)
		}
	}
	order := rand.New(rand.NewPCG(1, 1)).Perm(questions)
	b.Run("maps", func(b *testing.B) {
		var n int64
		for i := 0; i < b.N; i++ {
			clear(oldSeen)
			for _, q := range order {
				for m := int32(10); m < 10+models; m++ {
					k := uint64(uint32(q))<<32 | uint64(uint32(m))
					if _, dup := oldSeen[k]; !dup {
						oldSeen[k] = where{}
					}
					if _, ok := oldResp[newRespKey(int32(q), m)]; ok {
						n++
					}
					_, _, pos := mapShownFor(sb.shown, sb.shownPos, blank, true, int32(q), m, ev)
					n += pos
				}
			}
		}
		_ = n
	})
	b.Run("new", func(b *testing.B) {
		var n int64
		for i := 0; i < b.N; i++ {
			for g := range groups {
				groups[g].seen = nil
			}
			for _, q := range order {
				qi, rg := sb.st.qs[q], &groups[q]
				for m := int32(10); m < 10+models; m++ {
					if _, dup := rg.seenAt(m); !dup {
						rg.seen = append(rg.seen, modelSeen{m, where{}})
					}
					if qi.hasResponse(m) {
						n++
					}
					_, _, pos := sb.st.shownFor(qi, m, ev)
					n += pos
				}
			}
		}
		_ = n
	})
}
