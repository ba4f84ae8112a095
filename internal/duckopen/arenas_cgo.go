//go:build linux && cgo

package duckopen

/*
#include <malloc.h>
#include <sys/resource.h>

static int euroexec_arenas_capped;

// Runs when the program is loaded, before any thread exists: glibc fixes
// its arena limit when it makes its first extra arena, so a later mallopt
// would come too late.
__attribute__((constructor)) static void euroexec_cap_arenas(void) {
#ifdef M_ARENA_MAX
	struct rlimit rl;
	if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
		euroexec_arenas_capped = mallopt(M_ARENA_MAX, 2) == 1;
	}
#endif
}

static int euroexec_arenas(void) { return euroexec_arenas_capped; }
*/
import "C"

// MallocArenasCapped reports whether glibc's malloc arenas were capped at
// two when the program was loaded, which it does when the process has an
// address-space limit (RLIMIT_AS): glibc reserves 64 MiB of address space
// per arena and makes up to eight per CPU, one for each thread that finds
// the others busy, which alone can use up a limit such as
// `ulimit -v 2000000` on a machine of many cores.
func MallocArenasCapped() bool { return C.euroexec_arenas() != 0 }
