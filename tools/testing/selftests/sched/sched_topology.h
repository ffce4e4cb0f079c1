/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CPU topology as the scheduler sees it, from one of two sources:
 *
 *  schedstat: sched domain spans from /proc/schedstat (CONFIG_SCHEDSTATS),
 *    their names and flags from debugfs (/sys/kernel/debug/sched/domains,
 *    present with sched_verbose; turned on temporarily when absent).
 *  sysfs: where that fails (kernels without CONFIG_SCHEDSTATS, no debugfs,
 *    not root), the CPU topology the kernel exports: SMT siblings from
 *    cpuN/topology/thread_siblings_list, the LLC from the shared_cpu_list
 *    of cpuN/cache's highest-level data or unified cache.  No sched
 *    domains.  A level sysfs does not give (no cache/ directory, say) is
 *    reported unknown, never guessed: see sched_topo_unknown().
 *
 * NUMA nodes come from /sys/devices/system/node/nodeN/cpulist for both (one
 * node when the kernel has no node directory: CONFIG_NUMA off).
 */
#ifndef __SCHED_TOPOLOGY_H
#define __SCHED_TOPOLOGY_H

#include <sched.h>
#include <stdbool.h>

#define SCHED_TOPO_MAX_CPUS	256
#define SCHED_TOPO_MAX_LEVELS	8

/* What a source may know, for sched_topo_unknown() and sched_topo.known. */
#define SCHED_TOPO_SMT		0x1	/* SMT siblings */
#define SCHED_TOPO_LLC		0x2	/* last-level cache spans */
#define SCHED_TOPO_NODES	0x4	/* NUMA nodes */
#define SCHED_TOPO_DOMAINS	0x8	/* sched domains (schedstat only) */
#define SCHED_TOPO_NR_KNOWN	4

struct sched_topo_domain {
	char name[16];		/* "SMT", "MC", "PKG", "NUMA", ... */
	bool share_cpucapacity;	/* SD_SHARE_CPUCAPACITY: SMT siblings */
	bool share_llc;		/* SD_SHARE_LLC: one last-level cache */
	bool numa;		/* SD_NUMA */
	cpu_set_t span;
};

struct sched_topo {
	const char *source;	/* "schedstat" or "sysfs" */
	unsigned int known;	/* SCHED_TOPO_* the source gave */
	/* Why each unknown level is unknown, by bit number of SCHED_TOPO_*. */
	char unknown[SCHED_TOPO_NR_KNOWN][160];
	/* sysfs: why schedstat was not used; else empty. */
	char not_schedstat[160];
	char why[400];		/* sched_topo_read*() failures */
	int nr_cpus;		/* online CPUs */
	int max_cpu;		/* highest online CPU number */
	int nr_nodes;		/* NUMA nodes with CPUs */
	cpu_set_t online;
	int nr_levels[SCHED_TOPO_MAX_CPUS];
	struct sched_topo_domain dom[SCHED_TOPO_MAX_CPUS][SCHED_TOPO_MAX_LEVELS];
	cpu_set_t smt[SCHED_TOPO_MAX_CPUS];	/* SMT siblings, or {cpu} */
	cpu_set_t llc[SCHED_TOPO_MAX_CPUS];	/* widest LLC span, or smt[cpu] */
	int node[SCHED_TOPO_MAX_CPUS];
};

/*
 * Fill @t from schedstat, else from sysfs.  Returns 0, or -errno with a
 * reason in @why (in @t, or static), when neither gives the online CPUs.
 */
int sched_topo_read(struct sched_topo *t, const char **why);

/* One source only. */
int sched_topo_read_schedstat(struct sched_topo *t, const char **why);
int sched_topo_read_sysfs(struct sched_topo *t, const char **why);

/* NULL when @t knows every SCHED_TOPO_* level in @need, else why not. */
const char *sched_topo_unknown(const struct sched_topo *t, unsigned int need);

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

/*
 * The order of the kernel's idle-CPU scan (select_idle_cpu(): from
 * @from + 1 upwards, wrapping): the first CPU of @set it visits, -1 if none.
 * sched_topo_scan_first(): which of @a and @b it meets first.
 */
int sched_topo_scan_next(const struct sched_topo *t, int from,
			 const cpu_set_t *set);
int sched_topo_scan_first(const struct sched_topo *t, int from, int a, int b);

/*
 * Format @set as a cpulist ("0-3,6") into @buf; a list too long for @len
 * ends in "...".
 */
char *sched_topo_cpulist(const cpu_set_t *set, char *buf, int len);

/* Parse a cpulist ("0-3,6\n") into @set.  0 or -EINVAL, -E2BIG. */
int sched_topo_parse_cpulist(const char *s, cpu_set_t *set);

#endif /* __SCHED_TOPOLOGY_H */
