package textsim

// localIDs maps the ids of an intern table a scorer keeps across Reset
// calls (global ids, which only grow until the table is dropped) to the ids
// of its current references: local ids 0, 1, …, n−1 in the order first
// seen. A global id's local id is valid while its stamp equals the epoch,
// so that a Reset forgets every local id at once by starting a new epoch.
// BLEUScorer and RougeScorer each hold one.
type localIDs struct {
	loc   []int32  // global id -> local id, valid where stamp = epoch
	stamp []uint32 // global id -> epoch of its local id
	epoch uint32
	n     int // local ids given out in this epoch
}

// drop forgets every global id: the intern table starts afresh.
func (l *localIDs) drop() { l.loc, l.stamp, l.epoch = l.loc[:0], l.stamp[:0], 0 }

// next starts a new epoch, in which no global id has a local id yet.
func (l *localIDs) next() {
	l.epoch++
	if l.epoch == 0 { // wrapped: no stamp may look current
		clear(l.stamp)
		l.epoch = 1
	}
	l.n = 0
}

// grow makes room for the global ids below n.
func (l *localIDs) grow(n int) {
	for len(l.stamp) < n {
		l.stamp = append(l.stamp, 0)
		l.loc = append(l.loc, 0)
	}
}

// assign returns global id g's local id, giving it the next one when it
// has none in this epoch.
func (l *localIDs) assign(g int32) int32 {
	if l.stamp[g] != l.epoch {
		l.stamp[g] = l.epoch
		l.loc[g] = int32(l.n)
		l.n++
	}
	return l.loc[g]
}

// lookup returns global id g's local id and whether it has one in this
// epoch.
func (l *localIDs) lookup(g int32) (int32, bool) {
	if l.stamp[g] == l.epoch {
		return l.loc[g], true
	}
	return 0, false
}
