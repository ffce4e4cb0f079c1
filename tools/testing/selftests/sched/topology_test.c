// SPDX-License-Identifier: GPL-2.0
/*
 * The topology the scheduler built: SMT, LLC and NUMA spans from the sched
 * domains must be self-consistent, agree with the CPU topology in sysfs and,
 * when the expected shape is given (as the wakeplace VM runner does for each
 * qemu preset), match it.
 *
 *   topology_test [--cpus N] [--smt N] [--llcs N] [--nodes N]
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kselftest.h"
#include "sched_topology.h"

static struct sched_topo topo;

static int sysfs_siblings(int cpu, cpu_set_t *set)
{
	char path[128], buf[256], *p = buf;
	FILE *f;

	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	CPU_ZERO(set);
	while (*p && *p != '\n') {
		char *end;
		long a = strtol(p, &end, 10), b = a;

		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		for (; a <= b && a < SCHED_TOPO_MAX_CPUS; a++)
			CPU_SET(a, set);
		p = *end == ',' ? end + 1 : end;
		if (p == end && *p != '\n' && *p)
			return -1;
	}
	return 0;
}

static void dump(void)
{
	char buf[256];
	int cpu, lvl;

	for (cpu = 0; cpu <= topo.max_cpu; cpu++) {
		char line[1024];
		int used = 0;

		if (!CPU_ISSET(cpu, &topo.online))
			continue;
		for (lvl = 0; lvl < topo.nr_levels[cpu]; lvl++)
			used += snprintf(line + used, sizeof(line) - used, " %s:%s",
					 topo.dom[cpu][lvl].name,
					 sched_topo_cpulist(&topo.dom[cpu][lvl].span,
							    buf, sizeof(buf)));
		ksft_print_msg("cpu%d node%d domains%s\n", cpu, topo.node[cpu],
			       used ? line : " (none)");
	}
}

static bool smt_matches_sysfs(void)
{
	char a[256], b[256];
	cpu_set_t sys;
	int cpu;

	for (cpu = 0; cpu <= topo.max_cpu; cpu++) {
		if (!CPU_ISSET(cpu, &topo.online))
			continue;
		if (sysfs_siblings(cpu, &sys)) {
			ksft_print_msg("cpu%d: no thread_siblings_list\n", cpu);
			return false;
		}
		if (!CPU_EQUAL(&sys, &topo.smt[cpu])) {
			ksft_print_msg("cpu%d: sched SMT span %s, sysfs siblings %s\n",
				       cpu, sched_topo_cpulist(&topo.smt[cpu], a, sizeof(a)),
				       sched_topo_cpulist(&sys, b, sizeof(b)));
			return false;
		}
	}
	return true;
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

static void expect(const char *what, int want, int got)
{
	if (want < 0) {
		ksft_test_result_skip("expected_%s: not given (use --%s)\n", what, what);
		return;
	}
	ksft_print_msg("%s: expected %d, scheduler has %d\n", what, want, got);
	ksft_test_result(want == got, "expected_%s\n", what);
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
	int c;

	while ((c = getopt_long(argc, argv, "c:s:l:n:h", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			want_cpus = atoi(optarg);
			break;
		case 's':
			want_smt = atoi(optarg);
			break;
		case 'l':
			want_llcs = atoi(optarg);
			break;
		case 'n':
			want_nodes = atoi(optarg);
			break;
		default:
			fprintf(stderr,
				"usage: %s [--cpus N] [--smt N] [--llcs N] [--nodes N]\n"
				"Checks the scheduler's topology; each option also checks\n"
				"that count (default: not checked).\n", argv[0]);
			return c == 'h' ? 0 : KSFT_FAIL;
		}
	}

	ksft_print_header();
	if (sched_topo_read(&topo, &why))
		ksft_exit_skip("%s\n", why);
	ksft_set_plan(9);
	dump();

	ksft_test_result(topo.nr_cpus > 0, "read_domains\n");
	ksft_test_result(smt_matches_sysfs(), "smt_matches_sysfs\n");
	ksft_test_result(llcs_partition(), "llc_spans_partition\n");
	ksft_test_result(smt_inside_llc(), "smt_inside_llc\n");
	ksft_test_result(numa_domain_iff_nodes(), "numa_domain_iff_nodes\n");
	expect("cpus", want_cpus, topo.nr_cpus);
	expect("smt", want_smt, sched_topo_smt_width(&topo));
	expect("llcs", want_llcs, sched_topo_nr_llcs(&topo));
	expect("nodes", want_nodes, topo.nr_nodes);
	ksft_finished();
}
