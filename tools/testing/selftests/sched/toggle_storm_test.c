// SPDX-License-Identifier: GPL-2.0
/*
 * Toggle storm: SIS_SYNC_CORE, SIS_CACHE and DELAY_DEQUEUE flipped at
 * random, as fast as debugfs takes the writes, while ping-pong, hackbench
 * and stream loads keep every CPU waking tasks (stress_load.h).  A flip
 * changes static keys and the paths wakeups and dequeues take while tasks
 * are in flight on them (a reservation made with SIS_CACHE on and ended
 * with it off, a delayed task woken after DELAY_DEQUEUE went off).
 *
 * Passes when every write is taken and reads back as written, every load
 * made progress and ends when told, the features end as they started, and
 * the kernel log has no warning.  Of the three, it flips those the kernel
 * has (on a kernel without the series: DELAY_DEQUEUE alone).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../kselftest.h"
#include "kmsg.h"
#include "sched_features.h"
#include "stress_load.h"

static const char * const storm[] = { "SIS_SYNC_CORE", "SIS_CACHE", "DELAY_DEQUEUE" };
#define NR_STORM	ARRAY_SIZE(storm)

int main(int argc, char **argv)
{
	struct sched_features start, now;
	unsigned long long writes = 0, bad_writes = 0, mismatches = 0, ops, least;
	int have[NR_STORM], nr_have = 0, state[NR_STORM], kmsg, stuck, ret;
	struct sl_args a;
	struct sl_loads l;
	char names[128] = "", diff[512];
	const char *why;
	unsigned int i;
	long nr_cpus;
	double t0;

	sl_parse(argc, argv, &a, "Flips SIS_SYNC_CORE, SIS_CACHE and DELAY_DEQUEUE",
		 "WRITES");
	ksft_print_header();
	why = sched_features_unusable();
	if (why)
		ksft_exit_skip("%s\n", why);
	nr_cpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (nr_cpus < 2)
		ksft_exit_skip("needs 2 CPUs, have %ld\n", nr_cpus);
	for (i = 0; i < NR_STORM; i++) {
		state[i] = sched_feature_get(storm[i]);
		if (state[i] < 0)
			continue;
		have[nr_have++] = i;
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
			 nr_have > 1 ? ", " : "", storm[i]);
	}
	if (!nr_have)
		ksft_exit_skip("none of SIS_SYNC_CORE, SIS_CACHE, DELAY_DEQUEUE here\n");
	if (sched_features_save() || sched_features_read(&start))
		ksft_exit_fail_msg("cannot save the sched features\n");

	ksft_set_plan(4);
	kmsg = kmsg_open_end();
	if (sl_start(&l, nr_cpus))
		ksft_exit_fail_msg("cannot start the loads\n");
	ksft_print_msg("%ld CPUs, %d load processes; flipping %s for %d s%s\n", nr_cpus, l.nr,
		       names, a.secs, a.goal ? " and until the write goal" : "");

	srandom(getpid());
	t0 = sl_now();
	while (!sl_done(&a, t0, writes)) {
		i = have[random() % nr_have];
		state[i] = !state[i];
		ret = sched_feature_set(storm[i], state[i]);
		writes++;
		if (ret) {
			if (!bad_writes)
				ksft_print_msg("writing %s%s: %s\n", state[i] ? "" : "NO_",
					       storm[i], strerror(-ret));
			bad_writes++;
			state[i] = sched_feature_get(storm[i]);
		}
		/* Every 64 writes, the three read back as last written. */
		if (!(writes % 64)) {
			unsigned int k;

			for (k = 0; k < (unsigned int)nr_have; k++)
				if (sched_feature_get(storm[have[k]]) != state[have[k]])
					mismatches++;
		}
	}
	ops = sl_ops(&l, &least);
	stuck = sl_stop(&l, 60);

	ksft_print_msg("%llu feature writes in %.0f s (%llu refused), %llu read-back mismatches\n",
		       writes, sl_now() - t0, bad_writes, mismatches);
	ksft_test_result(writes && !bad_writes && !mismatches, "toggle_writes\n");
	ksft_print_msg("loads: %llu operations, fewest by a process %llu; %d did not end well\n",
		       ops, least, stuck);
	ksft_test_result(!stuck && least > 0, "loads_finished\n");

	ret = sched_features_restore();
	if (ret || sched_features_read(&now)) {
		ksft_test_result_fail("features_restored: cannot restore or re-read\n");
	} else {
		int nr = sched_features_diff(&start, &now, diff, sizeof(diff));

		if (nr)
			ksft_print_msg("not as at start: %s\n", diff);
		ksft_test_result(!nr, "features_restored\n");
	}
	if (kmsg < 0)
		ksft_test_result_skip("kernel_log_clean: cannot read /dev/kmsg\n");
	else
		ksft_test_result(!kmsg_warnings(kmsg), "kernel_log_clean\n");
	ksft_finished();
}
