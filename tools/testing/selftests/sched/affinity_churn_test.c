// SPDX-License-Identifier: GPL-2.0
/*
 * Affinity churn under load: with SIS_SYNC_CORE and SIS_CACHE on and loads
 * waking tasks on every CPU (stress_load.h), the loads' CPU masks change
 * all the time: sched_setaffinity() on a random load process to a random
 * set of CPUs, and, where cgroup v2 has the cpuset controller, a cpuset
 * holding half of the loads gets a random cpuset.cpus.  An SMT sibling or
 * a reserved CPU the wakee may not run on must never be chosen.
 *
 * With wakestat (the kernel's own record, taken before core.c's fallback
 * mends a disallowed choice): the series' branches chose nothing outside
 * the wakee's mask and nothing inactive, over every wakeup the machine
 * placed.  The stock branches' counts are printed, and every 5 s a chunk
 * of them (make test-full compares the chunks with the kernel of the
 * tracepoint patch alone: stockcmp).  The loads must end
 * when told, the features end as they started, no cpuset is left behind,
 * and the kernel log has no warning.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../kselftest.h"
#include "kmsg.h"
#include "sched_features.h"
#include "stress_load.h"
#include "wakestat_trace.h"

#define CG_ROOT		"/sys/fs/cgroup"
#define CG_DIR		CG_ROOT "/wakeplace-affinity-churn"

static long nr_cpus;

/* A random non-empty subset of the CPUs, as a mask and as a cpuset list. */
static void random_cpus(cpu_set_t *set, char *list, size_t len)
{
	size_t off = 0;
	int cpu;

	do {
		CPU_ZERO(set);
		for (cpu = 0; cpu < nr_cpus && cpu < CPU_SETSIZE; cpu++)
			if (random() & 1)
				CPU_SET(cpu, set);
	} while (!CPU_COUNT(set));
	list[0] = '\0';
	for (cpu = 0; cpu < nr_cpus && cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, set))
			off += snprintf(list + off, len > off ? len - off : 0, "%s%d",
					off ? "," : "", cpu);
}

/*
 * The cpuset half of the churn: a child cgroup with the cpuset controller
 * enabled by us (and disabled again by cpuset_end() if it was off).
 * Returns why it cannot run, or NULL.
 */
static bool enabled_cpuset;

static const char *cpuset_begin(const struct sl_loads *l)
{
	char pid[16];
	int i;

	if (!sl_file_has_word(CG_ROOT "/cgroup.controllers", "cpuset"))
		return "no cgroup v2 with the cpuset controller at " CG_ROOT;
	rmdir(CG_DIR);	/* left by a run that was killed */
	if (!sl_file_has_word(CG_ROOT "/cgroup.subtree_control", "cpuset")) {
		if (sl_write_str(CG_ROOT "/cgroup.subtree_control", "+cpuset"))
			return "cannot enable cpuset in " CG_ROOT "/cgroup.subtree_control";
		enabled_cpuset = true;
	}
	if (mkdir(CG_DIR, 0755))
		return "cannot create " CG_DIR;
	for (i = 0; i < l->nr; i += 2) {
		snprintf(pid, sizeof(pid), "%d", l->proc[i].pid);
		if (sl_write_str(CG_DIR "/cgroup.procs", pid))
			return "cannot move a load into " CG_DIR;
	}
	return NULL;
}

/* After the loads are gone: 0, or -errno if the cgroup stays. */
static int cpuset_end(void)
{
	int ret = 0;

	if (rmdir(CG_DIR) && errno != ENOENT)
		ret = -errno;
	if (enabled_cpuset && sl_write_str(CG_ROOT "/cgroup.subtree_control", "-cpuset"))
		ret = ret ? ret : -EIO;
	return ret;
}

int main(int argc, char **argv)
{
	unsigned long long changes = 0, cs_changes = 0, refused = 0, ops, least, checked = 0;
	struct ws_counts ws0, ws1, d;
	struct ws_filter any = { 0 };
	struct ws_trace ws = { 0 };
	struct sl_chunks chunks;
	const char *why, *cs_why;
	int kmsg, stuck, ret, left;
	bool ws_on = false;
	char feats[128], list[1024];
	struct sl_args a;
	struct sl_loads l;
	cpu_set_t set;
	double t0;

	sl_parse(argc, argv, &a, "Changes the loads' CPU masks and cpuset", "WAKEUPS");
	ksft_print_header();
	why = sched_features_unusable();
	if (why)
		ksft_exit_skip("%s\n", why);
	nr_cpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (nr_cpus < 2)
		ksft_exit_skip("needs 2 CPUs, have %ld\n", nr_cpus);
	if (sched_features_save())
		ksft_exit_fail_msg("cannot save the sched features\n");
	if (sl_series_on(feats, sizeof(feats)))
		ksft_exit_fail_msg("cannot turn the series' features on\n");

	if (ws_trace_open(&ws, &any) || ws.fallback || ws_trace_read(&ws, &ws0))
		ksft_print_msg("wakestat: its check skips: %s\n",
			       ws.fallback ? "no sched_select_task_rq_fair_tp" : ws.why);
	else
		ws_on = true;
	if (a.goal && !ws_on)
		ksft_exit_skip("-n counts wakeups, which needs wakestat\n");
	ksft_set_plan(4);
	kmsg = kmsg_open_end();
	if (sl_start(&l, nr_cpus))
		ksft_exit_fail_msg("cannot start the loads\n");
	cs_why = cpuset_begin(&l);
	ksft_print_msg("%ld CPUs, features on: %s; %d load processes, %d s; cpuset: %s\n",
		       nr_cpus, feats, l.nr, a.secs, cs_why ? cs_why : "half the loads in one");
	if (sl_chunks_begin(&chunks, ws_on ? &ws : NULL, "affinity", &ws0))
		ksft_exit_fail_msg("out of memory\n");

	srandom(getpid());
	t0 = sl_now();
	while (!sl_done(&a, t0, checked)) {
		random_cpus(&set, list, sizeof(list));
		if (!cs_why && !(random() % 4)) {
			ret = sl_write_str(CG_DIR "/cpuset.cpus", list);
			cs_changes += !ret;
		} else {
			ret = sched_setaffinity(l.proc[random() % l.nr].pid, sizeof(set), &set) ?
			      -errno : 0;
			changes += !ret;
		}
		/* EINVAL: a mask disjoint from the task's cpuset. */
		if (ret && ret != -EINVAL && !refused)
			ksft_print_msg("changing a mask: %s\n", strerror(-ret));
		refused += !!ret;
		if (ws_on && a.goal && !((changes + cs_changes) % 256) &&
		    !ws_trace_read(&ws, &ws1))
			checked = ws1.decided - ws0.decided;
		sl_chunks_tick(&chunks);
	}
	sl_chunks_end(&chunks);
	ops = sl_ops(&l, &least);
	stuck = sl_stop(&l, 60);
	if (ws_on && ws_trace_read(&ws, &ws1)) {
		ksft_print_msg("wakestat: cannot read its counts\n");
		ws_on = false;
	}
	ws_trace_close(&ws);

	ksft_print_msg("%llu affinity, %llu cpuset.cpus changes in %.0f s (%llu refused)\n",
		       changes, cs_changes, sl_now() - t0, refused);
	ksft_print_msg("loads: %llu operations, fewest by a process %llu; %d did not end well\n",
		       ops, least, stuck);
	ksft_test_result(changes && !stuck && least > 0, "loads_finished\n");
	if (ws_on) {
		ws_counts_sub(&d, &ws1, &ws0);
		ksft_print_msg("wakestat: %llu wakeups checked; sync-sibling %llu, reserved %llu\n",
			       (unsigned long long)d.decided,
			       (unsigned long long)d.branch[WS_BR_SYNC_SIBLING],
			       (unsigned long long)d.branch[WS_BR_RESERVED]);
		ksft_test_result(d.decided > 0 && sl_ws_series_clean(&d, "affinity"),
				 "series_branches_inside_mask\n");
	} else {
		ksft_test_result_skip("series_branches_inside_mask: no wakestat\n");
	}
	left = cpuset_end();
	ret = sched_features_restore();
	if (left)
		ksft_print_msg("cannot remove %s: %s\n", CG_DIR, strerror(-left));
	ksft_test_result(!ret && !left, "restored: features, no cpuset left\n");
	if (kmsg < 0)
		ksft_test_result_skip("kernel_log_clean: cannot read /dev/kmsg\n");
	else
		ksft_test_result(!kmsg_warnings(kmsg), "kernel_log_clean\n");
	ksft_finished();
}
