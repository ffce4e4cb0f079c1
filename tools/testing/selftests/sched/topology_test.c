// SPDX-License-Identifier: GPL-2.0
/*
 * The topology the scheduler built: SMT, LLC and NUMA spans from the sched
 * domains (/proc/schedstat) must be self-consistent, agree with the CPU
 * topology in sysfs (SMT siblings, LLC from the cache topology) and, when
 * the expected shape is given (as the wakeplace VM runner does for each
 * qemu preset), match it.
 *
 * Without schedstat (kernels without CONFIG_SCHEDSTATS), the checks run on
 * the topology read from sysfs, as wakebench then uses it, and the
 * comparisons with the sched domains are skipped; so are the checks of a
 * level sysfs does not give (e.g. the LLC without cache/ directories).
 *
 *   topology_test [--cpus N] [--smt N] [--llcs N] [--nodes N]
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kselftest.h"
#include "sched_topology.h"

/* topo: what sched_topo_read() gives (schedstat, else sysfs); sys: sysfs. */
static struct sched_topo topo, sys;
static bool have_sys;
static const char *why_sys;

/* Lines of the dump: bounded, a longer line ends in "...". */
#define LINE_MAX_CHARS	1024

static void dump(void)
{
	char buf[256];
	int cpu, lvl;

	for (cpu = 0; cpu <= topo.max_cpu; cpu++) {
		char line[LINE_MAX_CHARS];
		size_t used = 0;

		if (!CPU_ISSET(cpu, &topo.online))
			continue;
		line[0] = '\0';
		for (lvl = 0; lvl < topo.nr_levels[cpu]; lvl++) {
			used += snprintf(line + used, sizeof(line) - used, " %s:%s",
					 topo.dom[cpu][lvl].name,
					 sched_topo_cpulist(&topo.dom[cpu][lvl].span,
							    buf, sizeof(buf)));
			if (used >= sizeof(line)) {
				memcpy(line + sizeof(line) - 4, "...", 4);
				break;
			}
		}
		if (topo.known & SCHED_TOPO_DOMAINS) {
			ksft_print_msg("cpu%d node%d domains%s\n", cpu,
				       topo.node[cpu], line[0] ? line : " (none)");
			continue;
		}
		ksft_print_msg("cpu%d node%d smt:%s", cpu, topo.node[cpu],
			       topo.known & SCHED_TOPO_SMT ?
			       sched_topo_cpulist(&topo.smt[cpu], buf, sizeof(buf)) :
			       "unknown");
		printf(" llc:%s\n", topo.known & SCHED_TOPO_LLC ?
		       sched_topo_cpulist(&topo.llc[cpu], buf, sizeof(buf)) :
		       "unknown");
	}
}

#define skip(name, fmt, ...) \
	ksft_test_result_code(KSFT_SKIP, name, fmt, ##__VA_ARGS__)

/*
 * The scheduler's spans at @level (SCHED_TOPO_SMT or _LLC) against sysfs's;
 * skipped where either is not there to compare.
 */
static void matches_sysfs(const char *name, unsigned int level)
{
	const cpu_set_t *a, *b;
	char sa[256], sb[256];
	const char *why;
	int cpu;

	if (!(topo.known & SCHED_TOPO_DOMAINS)) {
		skip(name, "no sched domains to compare (%s)", topo.not_schedstat);
		return;
	}
	if (!have_sys) {
		skip(name, "no sysfs topology: %s", why_sys);
		return;
	}
	why = sched_topo_unknown(&sys, level);
	if (why) {
		skip(name, "%s", why);
		return;
	}
	for (cpu = 0; cpu <= topo.max_cpu; cpu++) {
		if (!CPU_ISSET(cpu, &topo.online))
			continue;
		if (!CPU_ISSET(cpu, &sys.online)) {
			ksft_print_msg("cpu%d: online in schedstat, not in sysfs\n", cpu);
			ksft_test_result_fail("%s\n", name);
			return;
		}
		a = level == SCHED_TOPO_SMT ? &topo.smt[cpu] : &topo.llc[cpu];
		b = level == SCHED_TOPO_SMT ? &sys.smt[cpu] : &sys.llc[cpu];
		if (!CPU_EQUAL(a, b)) {
			ksft_print_msg("cpu%d: sched %s span %s, sysfs %s\n", cpu,
				       level == SCHED_TOPO_SMT ? "SMT" : "LLC",
				       sched_topo_cpulist(a, sa, sizeof(sa)),
				       sched_topo_cpulist(b, sb, sizeof(sb)));
			ksft_test_result_fail("%s\n", name);
			return;
		}
	}
	ksft_test_result_pass("%s\n", name);
}

/* Every CPU is in its own LLC span; spans are equal or disjoint. */
static bool llcs_partition(void)
{
	cpu_set_t both;
	int cpu, other;

	for (cpu = 0; cpu <= topo.max_cpu; cpu++) {
		if (!CPU_ISSET(cpu, &topo.online))
			continue;
		if (!CPU_ISSET(cpu, &topo.llc[cpu]) ||
		    !CPU_ISSET(cpu, &topo.smt[cpu])) {
			ksft_print_msg("cpu%d not in its own spans\n", cpu);
			return false;
		}
		for (other = 0; other < cpu; other++) {
			if (!CPU_ISSET(other, &topo.online) ||
			    CPU_EQUAL(&topo.llc[cpu], &topo.llc[other]))
				continue;
			CPU_AND(&both, &topo.llc[cpu], &topo.llc[other]);
			if (CPU_COUNT(&both)) {
				ksft_print_msg("LLC spans of cpu%d and cpu%d overlap\n",
					       cpu, other);
				return false;
			}
		}
	}
	return true;
}

static bool smt_inside_llc(void)
{
	cpu_set_t both;
	int cpu;

	for (cpu = 0; cpu <= topo.max_cpu; cpu++) {
		if (!CPU_ISSET(cpu, &topo.online))
			continue;
		CPU_AND(&both, &topo.smt[cpu], &topo.llc[cpu]);
		if (!CPU_EQUAL(&both, &topo.smt[cpu])) {
			ksft_print_msg("cpu%d: SMT span not inside LLC span\n", cpu);
			return false;
		}
	}
	return true;
}

static bool numa_domain_iff_nodes(void)
{
	bool numa = false;
	int cpu, lvl;

	for (cpu = 0; cpu <= topo.max_cpu; cpu++)
		for (lvl = 0; lvl < topo.nr_levels[cpu]; lvl++)
			numa |= topo.dom[cpu][lvl].numa;
	ksft_print_msg("%d node(s) with CPUs, NUMA sched domain %s\n",
		       topo.nr_nodes, numa ? "present" : "absent");
	return numa == (topo.nr_nodes > 1);
}

/* The check @name of @level, where the topology knows it. */
static void check(const char *name, unsigned int level, bool (*fn)(void))
{
	const char *why = sched_topo_unknown(&topo, level);

	if (why)
		skip(name, "%s", why);
	else
		ksft_test_result(fn(), "%s\n", name);
}

static void expect(const char *what, unsigned int level, int want, int got)
{
	char name[32];
	const char *why = sched_topo_unknown(&topo, level);

	snprintf(name, sizeof(name), "expected_%s", what);
	if (want < 0) {
		skip(name, "not given (use --%s)", what);
		return;
	}
	if (why) {
		skip(name, "%s", why);
		return;
	}
	ksft_print_msg("%s: expected %d, %s has %d\n", what, want, topo.source,
		       got);
	ksft_test_result(want == got, "%s\n", name);
}

static void print_help(FILE *f, const char *prog)
{
	fprintf(f,
		"usage: %s [--cpus N] [--smt N] [--llcs N] [--nodes N]\n"
		"Checks the scheduler's topology (sched domains from /proc/schedstat,\n"
		"else the CPU topology in sysfs) and that sysfs agrees; each option\n"
		"also checks that count (default: not checked).\n", prog);
}

static int count_arg(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);

	return *end || end == s || v < 0 || v > SCHED_TOPO_MAX_CPUS ? -2 : v;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cpus",  required_argument, NULL, 'c' },
		{ "smt",   required_argument, NULL, 's' },
		{ "llcs",  required_argument, NULL, 'l' },
		{ "nodes", required_argument, NULL, 'n' },
		{ "help",  no_argument,       NULL, 'h' },
		{ }
	};
	int want_cpus = -1, want_smt = -1, want_llcs = -1, want_nodes = -1;
	const char *why = NULL;
	int c, *want;

	while ((c = getopt_long(argc, argv, "c:s:l:n:h", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			want = &want_cpus;
			break;
		case 's':
			want = &want_smt;
			break;
		case 'l':
			want = &want_llcs;
			break;
		case 'n':
			want = &want_nodes;
			break;
		case 'h':
			print_help(stdout, argv[0]);
			return 0;
		default:
			print_help(stderr, argv[0]);
			return KSFT_FAIL;
		}
		*want = count_arg(optarg);
		if (*want < 0) {
			fprintf(stderr, "%s: bad count '%s' (0-%d)\n", argv[0],
				optarg, SCHED_TOPO_MAX_CPUS);
			return KSFT_FAIL;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "%s: unexpected argument '%s'\n", argv[0],
			argv[optind]);
		print_help(stderr, argv[0]);
		return KSFT_FAIL;
	}

	ksft_print_header();
	if (sched_topo_read(&topo, &why))
		ksft_exit_skip("%s\n", why);
	have_sys = !sched_topo_read_sysfs(&sys, &why_sys);
	ksft_set_plan(10);
	ksft_print_msg("topology: %s%s%s\n", topo.source,
		       topo.not_schedstat[0] ? "; not schedstat: " : "",
		       topo.not_schedstat);
	for (c = 1; c < SCHED_TOPO_DOMAINS; c <<= 1)
		if (sched_topo_unknown(&topo, c))
			ksft_print_msg("%s\n", sched_topo_unknown(&topo, c));
	dump();

	ksft_test_result(topo.nr_cpus > 0, "read_topology\n");
	matches_sysfs("smt_matches_sysfs", SCHED_TOPO_SMT);
	matches_sysfs("llc_matches_sysfs", SCHED_TOPO_LLC);
	check("llc_spans_partition", SCHED_TOPO_SMT | SCHED_TOPO_LLC,
	      llcs_partition);
	check("smt_inside_llc", SCHED_TOPO_SMT | SCHED_TOPO_LLC, smt_inside_llc);
	check("numa_domain_iff_nodes", SCHED_TOPO_DOMAINS | SCHED_TOPO_NODES,
	      numa_domain_iff_nodes);
	expect("cpus", 0, want_cpus, topo.nr_cpus);
	expect("smt", SCHED_TOPO_SMT, want_smt, sched_topo_smt_width(&topo));
	expect("llcs", SCHED_TOPO_LLC, want_llcs, sched_topo_nr_llcs(&topo));
	expect("nodes", SCHED_TOPO_NODES, want_nodes, topo.nr_nodes);
	ksft_finished();
}
