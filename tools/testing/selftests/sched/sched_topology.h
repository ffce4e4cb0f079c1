/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CPU topology as the scheduler sees it: sched domain spans from
 * /proc/schedstat, their names and flags from debugfs
 * (/sys/kernel/debug/sched/domains, present with sched_verbose; turned on
 * temporarily when absent), NUMA nodes from sysfs.
 */
#ifndef __SCHED_TOPOLOGY_H
#define __SCHED_TOPOLOGY_H

#include <sched.h>
#include <stdbool.h>

#define SCHED_TOPO_MAX_CPUS	256
#define SCHED_TOPO_MAX_LEVELS	8

struct sched_topo_domain {
	char name[16];		/* "SMT", "MC", "PKG", "NUMA", ... */
	bool share_cpucapacity;	/* SD_SHARE_CPUCAPACITY: SMT siblings */
	bool share_llc;		/* SD_SHARE_LLC: one last-level cache */
	bool numa;		/* SD_NUMA */
	cpu_set_t span;
};

struct sched_topo {
	int nr_cpus;		/* online CPUs with a schedstat line */
	int max_cpu;		/* highest online CPU number */
	int nr_nodes;		/* NUMA nodes with CPUs */
	cpu_set_t online;
	int nr_levels[SCHED_TOPO_MAX_CPUS];
	struct sched_topo_domain dom[SCHED_TOPO_MAX_CPUS][SCHED_TOPO_MAX_LEVELS];
	cpu_set_t smt[SCHED_TOPO_MAX_CPUS];	/* SMT domain span, or {cpu} */
	cpu_set_t llc[SCHED_TOPO_MAX_CPUS];	/* widest SD_SHARE_LLC span, or {cpu} */
	int node[SCHED_TOPO_MAX_CPUS];
};

/* Fill @t.  Returns 0, or -errno with a reason in @why (static string). */
int sched_topo_read(struct sched_topo *t, const char **why);

/* Number of distinct LLC spans. */
int sched_topo_nr_llcs(const struct sched_topo *t);

/* Largest SMT span (1 without SMT). */
int sched_topo_smt_width(const struct sched_topo *t);

/* Where @to sits relative to @from: the classes placement tests count. */
enum sched_topo_rel {
	SCHED_TOPO_SAME_CPU,
	SCHED_TOPO_SMT_SIBLING,
	SCHED_TOPO_SAME_LLC,
	SCHED_TOPO_OTHER_LLC,
	SCHED_TOPO_NR_RELS,
};

enum sched_topo_rel sched_topo_relation(const struct sched_topo *t,
					int from, int to);
const char *sched_topo_rel_name(enum sched_topo_rel rel);

/* Format @set as a cpulist ("0-3,6") into @buf. */
char *sched_topo_cpulist(const cpu_set_t *set, char *buf, int len);

#endif /* __SCHED_TOPOLOGY_H */
