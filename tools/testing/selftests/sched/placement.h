/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The verdict of a placement test case.  A case asserts two kinds of
 * things: invariants, which hold on any kernel however slow (no wakee
 * placed outside its affinity or on an inactive CPU, a branch never taken
 * where its gate forbids it, nothing dropped), and thresholds, figures
 * tuned on the normal guest kernel (a share inside the A/A band, a
 * reservation caught within its window, the feature engaging at all).
 *
 * On a debug kernel (lockdep, and with it usually KASAN and UBSAN) every
 * lock and memory access is several times slower, and sleeps, windows and
 * shares move with it: there a missed threshold is printed and reported
 * as a skip that says so, not as a failure.  Invariants gate everywhere.
 */
#ifndef __SELFTESTS_SCHED_PLACEMENT_H
#define __SELFTESTS_SCHED_PLACEMENT_H

#include <stdbool.h>
#include <unistd.h>

#include "../kselftest.h"

/* A kernel with lockdep (PROVE_LOCKING or LOCK_STAT) has /proc/lockdep. */
static inline bool placement_debug_kernel(void)
{
	return access("/proc/lockdep", F_OK) == 0;
}

static inline void placement_result(const char *name, bool invariants, bool thresholds)
{
	if (invariants && !thresholds && placement_debug_kernel())
		ksft_test_result_skip("%s: %s\n", name,
				      "threshold missed on a debug kernel (lockdep): printed, not gated");
	else
		ksft_test_result(invariants && thresholds, "%s\n", name);
}

#endif /* __SELFTESTS_SCHED_PLACEMENT_H */
