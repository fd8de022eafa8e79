/* Three of callgrind's client requests, callable through ctypes (layerbench.cost.shim_build).
 * Outside valgrind each is a no-op of a few instructions. */
#include <valgrind/callgrind.h>

void layerbench_zero_stats(void) { CALLGRIND_ZERO_STATS; }

void layerbench_toggle_collect(void) { CALLGRIND_TOGGLE_COLLECT; }

void layerbench_dump_stats_at(const char *label) { CALLGRIND_DUMP_STATS_AT(label); }

void layerbench_start_instrumentation(void) { CALLGRIND_START_INSTRUMENTATION; }
