// SPDX-License-Identifier: GPL-2.0
/*
 * Mixed scheduling classes under load: the loads of stress_load.h wake
 * tasks on every CPU while a quarter of their processes run SCHED_IDLE, a
 * quarter SCHED_FIFO and a quarter in a cgroup whose cpu.max throttles it
 * (CONFIG_CFS_BANDWIDTH); the rest stay SCHED_NORMAL.  Wakers and wakees
 * of different classes meet: an RT waker, an idle-policy wakee, a wakee
 * whose group is throttled when it wakes.
 *
 * SIS_SYNC_CORE and SIS_CACHE go on and off together in rounds, in pairs
 * (off-on, then on-off, ...).  With wakestat, each round's placements are
 * counted per class (one cgroup per fair class, a trace filtered on each):
 * the share placed on the waker's CPU, on an SMT sibling of it, and on the
 * wakee's previous CPU.  The paired differences (on - off) are printed with
 * a Hodges-Lehmann estimate, its confidence interval and the signed-rank
 * p-value.  Those are evidence, not gates: the gate is that every load of
 * every class ends when told having done work, the throttled group was
 * throttled, the series' branches chose no CPU outside the mask or
 * inactive, the features, policies and cgroups end as they started, and
 * the kernel log has no warning.
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
#include "stats.h"
#include "stress_load.h"
#include "wakestat_trace.h"

#define CG_ROOT		"/sys/fs/cgroup"
#define CG_DIR		CG_ROOT "/wakeplace-mixed-classes"
#define ROUND_S		5		/* seconds per round */
#define MAX_PAIRS	200
#define THROTTLE	"20000 100000"	/* cpu.max: 20 ms per 100 ms */

enum cls { CLS_NORMAL, CLS_IDLE, CLS_FIFO, CLS_THROTTLED, CLS_NR };

static const char * const cls_name[CLS_NR] = {
	"normal", "idle", "fifo", "throttled",
};

/* The fair classes have a cgroup each, and a trace filtered on it. */
static bool cls_traced(enum cls c)
{
	return c != CLS_FIFO;
}

/* Where a class's wakees land, as shares of its decided wakeups. */
enum metric { M_WAKER_CPU, M_WAKER_SMT, M_PREV_CPU, M_NR };

static const char * const metric_name[M_NR] = {
	"on the waker's CPU", "on an SMT sibling of the waker's CPU",
	"on the previous CPU",
};

static double metric(const struct ws_counts *d, enum metric m)
{
	__u64 v = m == M_WAKER_CPU ? d->rel_waker[WS_REL_SAME_CPU] :
		  m == M_WAKER_SMT ? d->rel_waker[WS_REL_SMT] :
		  d->rel_prev[WS_REL_SAME_CPU];

	return d->decided ? 100.0 * v / d->decided : 0;
}

/* A number after @key in a "key value" file such as cpu.stat, or -1. */
static long long file_key(const char *path, const char *key)
{
	char name[64];
	long long v, found = -1;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld", name, &v) == 2)
		if (!strcmp(name, key))
			found = v;
	fclose(f);
	return found;
}

static char cg_path[CLS_NR][128];
static bool enabled_cpu;	/* we wrote +cpu into the root's subtree_control */
static bool made_cg;

/*
 * The cgroups of the fair classes: CG_DIR with the cpu controller, a child
 * per class.  Returns why they cannot be made, or NULL.
 */
static const char *cgroups_begin(bool *throttle_ok)
{
	enum cls c;

	*throttle_ok = false;
	if (!sl_file_has_word(CG_ROOT "/cgroup.controllers", "cpu"))
		return "no cgroup v2 with the cpu controller at " CG_ROOT;
	for (c = 0; c < CLS_NR; c++)
		if (cls_traced(c))
			rmdir(cg_path[c]);	/* left by a run that was killed */
	rmdir(CG_DIR);
	if (!sl_file_has_word(CG_ROOT "/cgroup.subtree_control", "cpu")) {
		if (sl_write_str(CG_ROOT "/cgroup.subtree_control", "+cpu"))
			return "cannot enable cpu in " CG_ROOT "/cgroup.subtree_control";
		enabled_cpu = true;
	}
	if (mkdir(CG_DIR, 0755))
		return "cannot create " CG_DIR;
	made_cg = true;
	if (sl_write_str(CG_DIR "/cgroup.subtree_control", "+cpu"))
		return "cannot enable cpu in " CG_DIR;
	for (c = 0; c < CLS_NR; c++)
		if (cls_traced(c) && mkdir(cg_path[c], 0755))
			return "cannot create a class's cgroup";
	*throttle_ok = !sl_write_str(CG_DIR "/throttled/cpu.max", THROTTLE);
	return NULL;
}

/* After the loads are gone: 0, or -errno if a cgroup stays. */
static int cgroups_end(void)
{
	int ret = 0;
	enum cls c;

	for (c = 0; made_cg && c < CLS_NR; c++)
		if (cls_traced(c) && rmdir(cg_path[c]) && errno != ENOENT)
			ret = -errno;
	if (made_cg && rmdir(CG_DIR) && errno != ENOENT)
		ret = ret ? ret : -errno;
	if (enabled_cpu && sl_write_str(CG_ROOT "/cgroup.subtree_control", "-cpu"))
		ret = ret ? ret : -EIO;
	return ret;
}

/* Give load process @i its class.  0 or -errno. */
static int apply_class(const struct sl_loads *l, int i, enum cls c, bool cg_ok)
{
	struct sched_param sp = { .sched_priority = c == CLS_FIFO ? 1 : 0 };
	char pid[16], procs[160];
	int ret = 0;

	if (cls_traced(c) && cg_ok) {
		snprintf(pid, sizeof(pid), "%d", l->proc[i].pid);
		snprintf(procs, sizeof(procs), "%s/cgroup.procs", cg_path[c]);
		ret = sl_write_str(procs, pid);
	}
	if (!ret && c == CLS_IDLE && sched_setscheduler(l->proc[i].pid, SCHED_IDLE, &sp))
		ret = -errno;
	if (!ret && c == CLS_FIFO && sched_setscheduler(l->proc[i].pid, SCHED_FIFO, &sp))
		ret = -errno;
	return ret;
}

struct cls_trace {
	struct ws_trace t;
	bool on;
	struct ws_counts last;
	double m[2][MAX_PAIRS][M_NR];	/* [feature on][pair][metric] */
	unsigned long long n[2];	/* decided wakeups, feature off and on */
};

static void report_class(const struct cls_trace *ct, const char *name, int pairs)
{
	double d[MAX_PAIRS], off[MAX_PAIRS], on[MAX_PAIRS];
	struct stats_sr sr;
	int m, i;

	ksft_print_msg("%s: %llu wakeups placed with the features off, %llu on\n",
		       name, ct->n[0], ct->n[1]);
	for (m = 0; m < M_NR; m++) {
		for (i = 0; i < pairs; i++) {
			off[i] = ct->m[0][i][m];
			on[i] = ct->m[1][i][m];
			d[i] = on[i] - off[i];
		}
		if (pairs < 2 || stats_signed_rank(d, pairs, 0.95, &sr)) {
			ksft_print_msg("  %s: off %.2f%%, on %.2f%% (too few pairs for a CI)\n",
				       metric_name[m], stats_median(off, pairs),
				       stats_median(on, pairs));
			continue;
		}
		ksft_print_msg("  %s: off %.2f%%, on %.2f%% (medians)\n", metric_name[m],
			       stats_median(off, pairs), stats_median(on, pairs));
		ksft_print_msg("    on - off %+.2f points, %.0f%% CI [%+.2f, %+.2f], p %.3g\n",
			       sr.est, 100 * sr.level, sr.lo, sr.hi, sr.p);
	}
}

int main(int argc, char **argv)
{
	unsigned long long cls_ops[CLS_NR] = { 0 }, cls_least[CLS_NR], ops, least;
	int applied[CLS_NR] = { 0 }, tried[CLS_NR] = { 0 }, refused[CLS_NR] = { 0 };
	static struct cls_trace ct[CLS_NR];
	struct ws_counts all0, all1, d;
	struct ws_filter f = { 0 };
	struct ws_trace all = { 0 };
	int kmsg, stuck, ret, left, i, pair, pairs, half;
	const char *why, *cg_why;
	long long throttled0 = -1, throttled1 = -1;
	bool ws_on = false, throttle_ok, on, classes_ok = true, series;
	char cpustat[160], cg_err[512];
	struct sl_args a;
	struct sl_loads l;
	long nr_cpus;
	enum cls c;
	double t0;

	sl_parse(argc, argv, &a,
		 "Runs the loads as SCHED_IDLE, SCHED_FIFO, throttled and normal tasks,\n"
		 "SIS_SYNC_CORE and SIS_CACHE off and on in pairs of 5 s rounds", "PAIRS");
	ksft_print_header();
	why = sched_features_unusable();
	if (why)
		ksft_exit_skip("%s\n", why);
	nr_cpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (nr_cpus < 2)
		ksft_exit_skip("needs 2 CPUs, have %ld\n", nr_cpus);
	if (geteuid())
		ksft_exit_skip("needs root (SCHED_FIFO, cgroups)\n");
	pairs = a.secs / (2 * ROUND_S);
	if ((unsigned long long)pairs < a.goal)
		pairs = a.goal;
	if (pairs < 1 || pairs > MAX_PAIRS)
		ksft_exit_fail_msg("rounds: %d pairs, 1 to %d allowed\n", pairs, MAX_PAIRS);
	for (c = 0; c < CLS_NR; c++)
		snprintf(cg_path[c], sizeof(cg_path[c]), "%s/%s", CG_DIR, cls_name[c]);
	if (sched_features_save())
		ksft_exit_fail_msg("cannot save the sched features\n");

	ksft_set_plan(6);
	kmsg = kmsg_open_end();
	cg_why = cgroups_begin(&throttle_ok);
	if (!cg_why)
		snprintf(cpustat, sizeof(cpustat), "%s/cpu.stat", cg_path[CLS_THROTTLED]);
	if (sl_start(&l, nr_cpus)) {
		cgroups_end();
		ksft_exit_fail_msg("cannot start the loads\n");
	}
	for (i = 0; i < l.nr; i++) {
		c = (enum cls)(i % CLS_NR);
		if (c == CLS_THROTTLED && !throttle_ok)
			c = CLS_NORMAL;
		tried[c]++;
		ret = apply_class(&l, i, c, !cg_why);
		if (ret && !refused[c])
			ksft_print_msg("%s: cannot give %s its class: %s\n", cls_name[c],
				       l.proc[i].what, strerror(-ret));
		applied[c] += !ret;
		refused[c] += !!ret;
	}
	ksft_print_msg("%ld CPUs, %d load processes: %d normal, %d idle, %d fifo, %d throttled\n",
		       nr_cpus, l.nr, applied[CLS_NORMAL], applied[CLS_IDLE], applied[CLS_FIFO],
		       applied[CLS_THROTTLED]);
	ksft_print_msg("cpu.max of the throttled group: %s; cgroups: %s\n",
		       throttle_ok ? THROTTLE : "none", cg_why ? cg_why : CG_DIR);
	if (!throttle_ok && !cg_why)
		ksft_print_msg("throttled: no cpu.max (CONFIG_CFS_BANDWIDTH off?)\n");

	/* The traces: all wakeups (invariants, RT wakees), and per class. */
	if (ws_trace_open(&all, &f) || all.fallback || ws_trace_read(&all, &all0)) {
		ksft_print_msg("wakestat: its checks skip: %s\n",
			       all.fallback ? "no sched_select_task_rq_fair_tp" : all.why);
	} else {
		ws_on = true;
		for (c = 0; c < CLS_NR && !cg_why; c++) {
			if (!cls_traced(c) || !applied[c])
				continue;
			memset(&f, 0, sizeof(f));
			ret = ws_cgroup_id(cg_path[c], &f.cgroup, cg_err, sizeof(cg_err));
			if (!ret && ws_trace_open(&ct[c].t, &f)) {
				snprintf(cg_err, sizeof(cg_err), "%s", ct[c].t.why);
				ret = -1;
			} else if (!ret) {
				ret = ws_trace_read(&ct[c].t, &ct[c].last);
				if (ret) {
					snprintf(cg_err, sizeof(cg_err), "reading its counts: %s",
						 strerror(-ret));
					ws_trace_close(&ct[c].t);
				}
				ct[c].on = !ret;
			}
			if (ret)
				ksft_print_msg("wakestat: %s not traced: %s\n",
					       cls_name[c], cg_err);
		}
	}
	throttled0 = cg_why ? -1 : file_key(cpustat, "nr_throttled");

	/* Rounds: pair k runs off then on for even k, on then off for odd k. */
	t0 = sl_now();
	for (pair = 0; pair < pairs; pair++) {
		for (half = 0; half < 2; half++) {
			on = (pair & 1) ? !half : half;
			if (sched_feature_get("SIS_SYNC_CORE") >= 0)
				sched_feature_set("SIS_SYNC_CORE", on);
			if (sched_feature_get("SIS_CACHE") >= 0)
				sched_feature_set("SIS_CACHE", on);
			sleep(ROUND_S);
			for (c = 0; c < CLS_NR; c++) {
				struct ws_counts now;

				if (!ct[c].on || ws_trace_read(&ct[c].t, &now))
					continue;
				ws_counts_sub(&d, &now, &ct[c].last);
				ct[c].last = now;
				ct[c].n[on] += d.decided;
				for (i = 0; i < M_NR; i++)
					ct[c].m[on][pair][i] = metric(&d, i);
			}
		}
	}
	throttled1 = cg_why ? -1 : file_key(cpustat, "nr_throttled");
	for (c = 0; c < CLS_NR; c++)
		cls_least[c] = ~0ULL;
	for (i = 0; i < l.nr; i++) {
		c = (enum cls)(i % CLS_NR);
		if (c == CLS_THROTTLED && !throttle_ok)
			c = CLS_NORMAL;
		cls_ops[c] += l.ops[i];
		if (l.ops[i] < cls_least[c])
			cls_least[c] = l.ops[i];
	}
	ops = sl_ops(&l, &least);
	stuck = sl_stop(&l, 60);

	series = sched_feature_get("SIS_SYNC_CORE") >= 0 || sched_feature_get("SIS_CACHE") >= 0;
	ksft_print_msg("%d pairs of %d s rounds in %.0f s; features: %s\n", pairs, ROUND_S,
		       sl_now() - t0, series ? "SIS_SYNC_CORE and SIS_CACHE together" :
		       "none (kernel without the series): on and off are the same kernel");
	for (c = 0; c < CLS_NR; c++) {
		if (!tried[c])
			continue;
		ksft_print_msg("loads, %s: %d processes, %llu operations, fewest %llu\n",
			       cls_name[c], tried[c], cls_ops[c], cls_least[c]);
		classes_ok &= !refused[c];
	}
	ksft_print_msg("loads: %llu operations, fewest by a process %llu; %d did not end well\n",
		       ops, least, stuck);
	ksft_test_result(classes_ok && applied[CLS_IDLE] && applied[CLS_FIFO],
			 "classes_applied\n");
	ksft_test_result(!stuck && least > 0, "loads_finished\n");
	if (throttle_ok) {
		ksft_print_msg("throttled: nr_throttled %lld -> %lld\n", throttled0, throttled1);
		ksft_test_result(throttled1 > throttled0 && throttled0 >= 0, "group_throttled\n");
	} else {
		ksft_test_result_skip("group_throttled: %s\n",
				      cg_why ? cg_why : "no cpu.max (CONFIG_CFS_BANDWIDTH off?)");
	}

	if (ws_on && !ws_trace_read(&all, &all1)) {
		ws_counts_sub(&d, &all1, &all0);
		ksft_print_msg("wakestat: %llu wakeups checked; sync-sibling %llu, reserved %llu\n",
			       (unsigned long long)d.decided,
			       (unsigned long long)d.branch[WS_BR_SYNC_SIBLING],
			       (unsigned long long)d.branch[WS_BR_RESERVED]);
		ksft_print_msg("wakestat: RT wakees (not placed by the fair class) %llu\n",
			       (unsigned long long)d.undecided_other);
		ksft_print_msg("where wakees land, per class: evidence, not gated;\n");
		ksft_print_msg("p-values not adjusted for the several comparisons\n");
		for (c = 0; c < CLS_NR; c++)
			if (ct[c].on)
				report_class(&ct[c], cls_name[c], pairs);
		ksft_test_result(d.decided > 0 && sl_ws_series_clean(&d, "mixed"),
				 "series_branches_inside_mask\n");
	} else {
		ksft_test_result_skip("series_branches_inside_mask: no wakestat\n");
	}
	for (c = 0; c < CLS_NR; c++)
		if (ct[c].on)
			ws_trace_close(&ct[c].t);
	if (ws_on)
		ws_trace_close(&all);

	left = cgroups_end();
	ret = sched_features_restore();
	if (left)
		ksft_print_msg("cannot remove %s: %s\n", CG_DIR, strerror(-left));
	ksft_test_result(!ret && !left, "restored: features, no cgroup left\n");
	if (kmsg < 0)
		ksft_test_result_skip("kernel_log_clean: cannot read /dev/kmsg\n");
	else
		ksft_test_result(!kmsg_warnings(kmsg), "kernel_log_clean\n");
	ksft_finished();
}
