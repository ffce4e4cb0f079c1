// SPDX-License-Identifier: GPL-2.0
/*
 * CPU hotplug under load: CPUs other than 0 (which x86 cannot take
 * offline) go offline and online again at random, with SIS_SYNC_CORE and
 * SIS_CACHE on and loads waking tasks on every CPU (stress_load.h).  A
 * CPU going down must drop out of the sibling probe and of reservations:
 * a reservation of a dead CPU, or an SMT sibling taken offline, must never
 * be chosen.
 *
 * With wakestat (the kernel's own record of each decision, taken before
 * core.c's fallback): the series' branches chose no inactive CPU and no
 * CPU outside the mask, over every wakeup the machine placed.  The stock
 * branches' counts are printed, and every 5 s a chunk of them (make
 * test-full compares the chunks with the kernel of the tracepoint patch
 * alone: stockcmp).  Every offline and online write
 * must be taken, the loads must end when told, every CPU must be online
 * again at the end, and the kernel log must have no warning.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../kselftest.h"
#include "kmsg.h"
#include "sched_features.h"
#include "stress_load.h"
#include "wakestat_trace.h"

#define MAX_CPUS	256

static char online_path[MAX_CPUS][64];

static int cpu_online(int cpu)
{
	char buf[8] = "";
	FILE *f = fopen(online_path[cpu], "r");

	if (!f)
		return -errno;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	return buf[0] == '1';
}

int main(int argc, char **argv)
{
	unsigned long long cycles = 0, refused = 0, ops, least;
	int cpus[MAX_CPUS], nr = 0, cpu, kmsg, stuck, down = 0, ret;
	struct ws_counts ws0, ws1, d;
	struct ws_filter any = { 0 };
	struct ws_trace ws = { 0 };
	struct sl_chunks chunks;
	bool ws_on = false;
	char feats[128];
	struct sl_args a;
	struct sl_loads l;
	const char *why;
	long nr_cpus;
	double t0;

	sl_parse(argc, argv, &a, "Takes CPUs >= 1 offline and online again", "CYCLES");
	ksft_print_header();
	why = sched_features_unusable();
	if (why)
		ksft_exit_skip("%s\n", why);
	nr_cpus = sysconf(_SC_NPROCESSORS_CONF);
	for (cpu = 1; cpu < nr_cpus && cpu < MAX_CPUS; cpu++) {
		snprintf(online_path[cpu], sizeof(online_path[cpu]),
			 "/sys/devices/system/cpu/cpu%d/online", cpu);
		if (cpu_online(cpu) == 1 && !access(online_path[cpu], W_OK))
			cpus[nr++] = cpu;
	}
	if (!nr)
		ksft_exit_skip("no CPU here can go offline (needs CONFIG_HOTPLUG_CPU, 2 CPUs)\n");
	if (sched_features_save())
		ksft_exit_fail_msg("cannot save the sched features\n");
	for (cpu = 0; cpu < nr; cpu++)
		if (sched_path_save(online_path[cpus[cpu]]))
			ksft_exit_fail_msg("cannot save %s\n", online_path[cpus[cpu]]);
	if (sl_series_on(feats, sizeof(feats)))
		ksft_exit_fail_msg("cannot turn the series' features on\n");

	ksft_set_plan(5);
	kmsg = kmsg_open_end();
	if (ws_trace_open(&ws, &any) || ws.fallback || ws_trace_read(&ws, &ws0))
		ksft_print_msg("wakestat: its check skips: %s\n",
			       ws.fallback ? "no sched_select_task_rq_fair_tp" : ws.why);
	else
		ws_on = true;
	if (sl_start(&l, nr_cpus))
		ksft_exit_fail_msg("cannot start the loads\n");
	ksft_print_msg("%ld CPUs, %d may go offline; features on: %s; %d load processes, %d s\n",
		       nr_cpus, nr, feats, l.nr, a.secs);
	if (sl_chunks_begin(&chunks, ws_on ? &ws : NULL, "hotplug", &ws0))
		ksft_exit_fail_msg("out of memory\n");

	srandom(getpid());
	t0 = sl_now();
	while (!sl_done(&a, t0, cycles)) {
		cpu = cpus[random() % nr];
		ret = sched_path_write(online_path[cpu], "0");
		if (ret) {
			/* EBUSY: the kernel may refuse (e.g. the last CPU of a domain). */
			if (!refused++)
				ksft_print_msg("offlining cpu%d: %s\n", cpu, strerror(-ret));
			continue;
		}
		ret = sched_path_write(online_path[cpu], "1");
		if (ret) {
			ksft_print_msg("cpu%d does not come back online: %s\n", cpu,
				       strerror(-ret));
			down++;
			break;
		}
		cycles++;
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

	ksft_print_msg("%llu offline/online cycles in %.0f s, %llu offlinings refused\n",
		       cycles, sl_now() - t0, refused);
	ksft_test_result(cycles > 0 && !down, "hotplug_cycles\n");
	ksft_print_msg("loads: %llu operations, fewest by a process %llu; %d did not end well\n",
		       ops, least, stuck);
	ksft_test_result(!stuck && least > 0, "loads_finished\n");
	if (ws_on) {
		ws_counts_sub(&d, &ws1, &ws0);
		ksft_print_msg("wakestat: %llu wakeups checked; sync-sibling %llu, reserved %llu\n",
			       (unsigned long long)d.decided,
			       (unsigned long long)d.branch[WS_BR_SYNC_SIBLING],
			       (unsigned long long)d.branch[WS_BR_RESERVED]);
		ksft_test_result(d.decided > 0 && sl_ws_series_clean(&d, "hotplug"),
				 "series_branches_active_cpus_only\n");
	} else {
		ksft_test_result_skip("series_branches_active_cpus_only: no wakestat\n");
	}
	ret = sched_features_restore();
	for (down = 0, cpu = 0; cpu < nr; cpu++)
		down += cpu_online(cpus[cpu]) != 1;
	ksft_test_result(!ret && !down, "restored: features, %d CPU(s) left offline\n", down);
	if (kmsg < 0)
		ksft_test_result_skip("kernel_log_clean: cannot read /dev/kmsg\n");
	else
		ksft_test_result(!kmsg_warnings(kmsg), "kernel_log_clean\n");
	ksft_finished();
}
