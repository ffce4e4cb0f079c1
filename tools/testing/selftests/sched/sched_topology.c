// SPDX-License-Identifier: GPL-2.0
/*
 * Scheduler topology helpers for the sched selftests: see sched_topology.h.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sched_topology.h"

#define DOMAINS_DIR	"/sys/kernel/debug/sched/domains"
#define VERBOSE_FILE	"/sys/kernel/debug/sched/verbose"

/* Parse a "%*pb" bitmap ("000000ff" or "ff,00000000") into @set. */
static int parse_mask(const char *s, cpu_set_t *set)
{
	int len = strlen(s), bit = 0, i;

	CPU_ZERO(set);
	for (i = len - 1; i >= 0; i--) {
		int v;

		if (s[i] == ',')
			continue;
		if (!isxdigit((unsigned char)s[i]))
			return -EINVAL;
		v = isdigit((unsigned char)s[i]) ? s[i] - '0' :
			tolower((unsigned char)s[i]) - 'a' + 10;
		for (int b = 0; b < 4; b++, bit++)
			if (v & (1 << b)) {
				if (bit >= SCHED_TOPO_MAX_CPUS)
					return -E2BIG;
				CPU_SET(bit, set);
			}
	}
	return 0;
}

static int read_line(const char *path, char *buf, int len)
{
	FILE *f = fopen(path, "re");

	if (!f)
		return -errno;
	if (!fgets(buf, len, f)) {
		fclose(f);
		return -EIO;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int read_schedstat(struct sched_topo *t)
{
	char line[4096];
	int cpu = -1;
	FILE *f;

	f = fopen("/proc/schedstat", "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char mask[1024];
		int lvl;

		if (sscanf(line, "cpu%d ", &cpu) == 1) {
			if (cpu < 0 || cpu >= SCHED_TOPO_MAX_CPUS)
				goto e2big;
			CPU_SET(cpu, &t->online);
			t->nr_cpus++;
			if (cpu > t->max_cpu)
				t->max_cpu = cpu;
			continue;
		}
		if (sscanf(line, "domain%d %1023s", &lvl, mask) != 2 || cpu < 0)
			continue;
		if (lvl >= SCHED_TOPO_MAX_LEVELS)
			goto e2big;
		if (parse_mask(mask, &t->dom[cpu][lvl].span))
			goto e2big;
		if (lvl + 1 > t->nr_levels[cpu])
			t->nr_levels[cpu] = lvl + 1;
	}
	fclose(f);
	return t->nr_cpus ? 0 : -ENODATA;
e2big:
	fclose(f);
	return -E2BIG;
}

static int read_domain_flags(struct sched_topo *t)
{
	char path[256], buf[1024];
	int cpu, lvl, ret;

	for (cpu = 0; cpu <= t->max_cpu; cpu++) {
		if (!CPU_ISSET(cpu, &t->online))
			continue;
		for (lvl = 0; lvl < t->nr_levels[cpu]; lvl++) {
			struct sched_topo_domain *d = &t->dom[cpu][lvl];

			snprintf(path, sizeof(path), DOMAINS_DIR "/cpu%d/domain%d/name",
				 cpu, lvl);
			ret = read_line(path, d->name, sizeof(d->name));
			if (ret)
				return ret;
			snprintf(path, sizeof(path), DOMAINS_DIR "/cpu%d/domain%d/flags",
				 cpu, lvl);
			ret = read_line(path, buf, sizeof(buf));
			if (ret)
				return ret;
			d->share_cpucapacity = strstr(buf, "SD_SHARE_CPUCAPACITY");
			d->share_llc = strstr(buf, "SD_SHARE_LLC");
			d->numa = strstr(buf, "SD_NUMA");
		}
	}
	return 0;
}

/* The domains directory exists only with sched_verbose: enable it briefly. */
static int read_flags_verbose(struct sched_topo *t, const char **why)
{
	char old[8] = "";
	int ret;
	FILE *f;

	if (access(DOMAINS_DIR, F_OK) == 0)
		goto read;
	if (read_line(VERBOSE_FILE, old, sizeof(old))) {
		*why = "no " DOMAINS_DIR " and no " VERBOSE_FILE
		       " (CONFIG_SCHED_DEBUG, debugfs, root)";
		return -ENOENT;
	}
	f = fopen(VERBOSE_FILE, "we");
	if (!f || fputs("Y", f) == EOF || fclose(f) == EOF) {
		*why = "cannot enable " VERBOSE_FILE;
		return -EACCES;
	}
read:
	ret = read_domain_flags(t);
	if (ret)
		*why = "cannot read " DOMAINS_DIR;
	if (old[0] == 'N') {
		f = fopen(VERBOSE_FILE, "we");
		if (f) {
			fputs("N", f);
			fclose(f);
		}
	}
	return ret;
}

static void read_nodes(struct sched_topo *t)
{
	char path[128];
	int cpu, n, seen[SCHED_TOPO_MAX_CPUS] = { 0 };

	t->nr_nodes = 0;
	for (cpu = 0; cpu <= t->max_cpu; cpu++) {
		t->node[cpu] = 0;
		if (!CPU_ISSET(cpu, &t->online))
			continue;
		for (n = 0; n < SCHED_TOPO_MAX_CPUS; n++) {
			snprintf(path, sizeof(path),
				 "/sys/devices/system/cpu/cpu%d/node%d", cpu, n);
			if (access(path, F_OK) == 0) {
				t->node[cpu] = n;
				break;
			}
		}
		if (!seen[t->node[cpu]]++)
			t->nr_nodes++;
	}
}

int sched_topo_read(struct sched_topo *t, const char **why)
{
	int cpu, lvl, ret;

	memset(t, 0, sizeof(*t));
	ret = read_schedstat(t);
	if (ret) {
		*why = "cannot parse /proc/schedstat (CONFIG_SCHEDSTATS)";
		return ret;
	}
	ret = read_flags_verbose(t, why);
	if (ret)
		return ret;
	read_nodes(t);

	for (cpu = 0; cpu <= t->max_cpu; cpu++) {
		if (!CPU_ISSET(cpu, &t->online))
			continue;
		CPU_ZERO(&t->smt[cpu]);
		CPU_SET(cpu, &t->smt[cpu]);
		t->llc[cpu] = t->smt[cpu];
		for (lvl = 0; lvl < t->nr_levels[cpu]; lvl++) {
			struct sched_topo_domain *d = &t->dom[cpu][lvl];

			if (d->share_cpucapacity)
				t->smt[cpu] = d->span;
			if (d->share_llc)
				t->llc[cpu] = d->span;
		}
	}
	return 0;
}

int sched_topo_nr_llcs(const struct sched_topo *t)
{
	int cpu, other, nr = 0;

	for (cpu = 0; cpu <= t->max_cpu; cpu++) {
		bool first = CPU_ISSET(cpu, &t->online);

		for (other = 0; first && other < cpu; other++)
			if (CPU_ISSET(other, &t->online) &&
			    CPU_EQUAL(&t->llc[cpu], &t->llc[other]))
				first = false;
		nr += first;
	}
	return nr;
}

int sched_topo_smt_width(const struct sched_topo *t)
{
	int cpu, w = 1;

	for (cpu = 0; cpu <= t->max_cpu; cpu++)
		if (CPU_ISSET(cpu, &t->online) && CPU_COUNT(&t->smt[cpu]) > w)
			w = CPU_COUNT(&t->smt[cpu]);
	return w;
}

enum sched_topo_rel sched_topo_relation(const struct sched_topo *t,
					int from, int to)
{
	if (from == to)
		return SCHED_TOPO_SAME_CPU;
	if (from < 0 || to < 0 || from >= SCHED_TOPO_MAX_CPUS ||
	    to >= SCHED_TOPO_MAX_CPUS)
		return SCHED_TOPO_OTHER_LLC;
	if (CPU_ISSET(to, &t->smt[from]))
		return SCHED_TOPO_SMT_SIBLING;
	if (CPU_ISSET(to, &t->llc[from]))
		return SCHED_TOPO_SAME_LLC;
	return SCHED_TOPO_OTHER_LLC;
}

const char *sched_topo_rel_name(enum sched_topo_rel rel)
{
	static const char * const names[] = {
		[SCHED_TOPO_SAME_CPU]	 = "same_cpu",
		[SCHED_TOPO_SMT_SIBLING] = "smt_sibling",
		[SCHED_TOPO_SAME_LLC]	 = "other_core_same_llc",
		[SCHED_TOPO_OTHER_LLC]	 = "other_llc",
	};

	return rel < SCHED_TOPO_NR_RELS ? names[rel] : "?";
}

char *sched_topo_cpulist(const cpu_set_t *set, char *buf, int len)
{
	int cpu, start = -1, used = 0;

	buf[0] = '\0';
	for (cpu = 0; cpu <= SCHED_TOPO_MAX_CPUS; cpu++) {
		bool in = cpu < SCHED_TOPO_MAX_CPUS && CPU_ISSET(cpu, set);

		if (in && start < 0)
			start = cpu;
		if (in || start < 0)
			continue;
		if (used < len && start == cpu - 1)
			used += snprintf(buf + used, len - used, "%s%d",
					 used ? "," : "", start);
		else if (used < len)
			used += snprintf(buf + used, len - used, "%s%d-%d",
					 used ? "," : "", start, cpu - 1);
		start = -1;
	}
	return buf;
}
