// SPDX-License-Identifier: GPL-2.0
/*
 * Scheduler topology helpers for the sched selftests: see sched_topology.h.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sched_topology.h"

#define DOMAINS_DIR	"/sys/kernel/debug/sched/domains"
#define VERBOSE_FILE	"/sys/kernel/debug/sched/verbose"
#define CPU_DIR		"/sys/devices/system/cpu"
#define NODE_DIR	"/sys/devices/system/node"

/* Record why level @bit (SCHED_TOPO_*) is unknown; the first reason stays. */
static void set_unknown(struct sched_topo *t, unsigned int bit,
			const char *fmt, ...)
{
	int i = __builtin_ctz(bit);
	va_list ap;

	if (!(t->known & bit))
		return;
	t->known &= ~bit;
	va_start(ap, fmt);
	vsnprintf(t->unknown[i], sizeof(t->unknown[i]), fmt, ap);
	va_end(ap);
}

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

/*
 * Version 17 (6.15+) puts the domain's name before its span:
 * "domain0 SMT 00000003 ...", version 16 "domain0 00000003 ...".
 */
static int read_schedstat(struct sched_topo *t)
{
	char line[4096];
	int cpu = -1, version = 0;
	FILE *f;

	f = fopen("/proc/schedstat", "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char mask[1024], name[16];
		int lvl;

		if (sscanf(line, "version %d", &version) == 1)
			continue;
		if (sscanf(line, "cpu%d ", &cpu) == 1) {
			if (cpu < 0 || cpu >= SCHED_TOPO_MAX_CPUS)
				goto e2big;
			CPU_SET(cpu, &t->online);
			t->nr_cpus++;
			if (cpu > t->max_cpu)
				t->max_cpu = cpu;
			continue;
		}
		if (version >= 17) {
			if (sscanf(line, "domain%d %15s %1023s", &lvl, name, mask) != 3)
				continue;
		} else if (sscanf(line, "domain%d %1023s", &lvl, mask) != 2) {
			continue;
		}
		if (cpu < 0)
			continue;
		if (lvl < 0 || lvl >= SCHED_TOPO_MAX_LEVELS)
			goto e2big;
		if (parse_mask(mask, &t->dom[cpu][lvl].span))
			goto e2big;
		if (version >= 17)
			snprintf(t->dom[cpu][lvl].name,
				 sizeof(t->dom[cpu][lvl].name), "%s", name);
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

int sched_topo_parse_cpulist(const char *s, cpu_set_t *set)
{
	const char *p = s;

	CPU_ZERO(set);
	while (*p && *p != '\n') {
		char *end;
		long a, b;

		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		a = strtol(p, &end, 10);
		b = a;
		if (*end == '-') {
			if (!isdigit((unsigned char)end[1]))
				return -EINVAL;
			b = strtol(end + 1, &end, 10);
		}
		if (b < a)
			return -EINVAL;
		if (b >= SCHED_TOPO_MAX_CPUS)
			return -E2BIG;
		for (; a <= b; a++)
			CPU_SET(a, set);
		if (*end == ',')
			end++;
		else if (*end && *end != '\n')
			return -EINVAL;
		p = end;
	}
	return 0;
}

static int first_cpu(const cpu_set_t *set)
{
	int cpu;

	for (cpu = 0; cpu < SCHED_TOPO_MAX_CPUS; cpu++)
		if (CPU_ISSET(cpu, set))
			return cpu;
	return -1;
}

/* A cpulist file: 0, or -errno (-ENOENT: no such file). */
static int read_cpulist(const char *path, cpu_set_t *set)
{
	char buf[4096];
	int ret = read_line(path, buf, sizeof(buf));

	return ret ? ret : sched_topo_parse_cpulist(buf, set);
}

/*
 * NUMA nodes: NODE_DIR/nodeN/cpulist.  Without NODE_DIR (CONFIG_NUMA off)
 * the kernel has one node.
 */
static void read_nodes(struct sched_topo *t)
{
	char path[300];
	cpu_set_t set, placed, seen;	/* seen: node numbers */
	struct dirent *e;
	int cpu, n;
	DIR *d;

	CPU_ZERO(&placed);
	CPU_ZERO(&seen);
	t->nr_nodes = 1;
	for (cpu = 0; cpu <= t->max_cpu; cpu++)
		t->node[cpu] = 0;
	d = opendir(NODE_DIR);
	if (!d)
		return;		/* one node */
	t->nr_nodes = 0;
	while ((e = readdir(d))) {
		if (sscanf(e->d_name, "node%d", &n) != 1 || n < 0 ||
		    n >= CPU_SETSIZE)
			continue;
		snprintf(path, sizeof(path), NODE_DIR "/%s/cpulist", e->d_name);
		if (read_cpulist(path, &set)) {
			set_unknown(t, SCHED_TOPO_NODES, "cannot read %s", path);
			continue;
		}
		CPU_AND(&set, &set, &t->online);
		for (cpu = 0; cpu <= t->max_cpu; cpu++) {
			if (!CPU_ISSET(cpu, &set))
				continue;
			t->node[cpu] = n;
			CPU_SET(cpu, &placed);
			if (!CPU_ISSET(n, &seen)) {
				CPU_SET(n, &seen);
				t->nr_nodes++;
			}
		}
	}
	closedir(d);
	if (!CPU_EQUAL(&placed, &t->online)) {
		CPU_XOR(&set, &placed, &t->online);
		set_unknown(t, SCHED_TOPO_NODES, "no " NODE_DIR "/node*/cpulist has cpu%d",
			    first_cpu(&set));
	}
}

static void topo_init(struct sched_topo *t, const char *source)
{
	memset(t, 0, sizeof(*t));
	t->source = source;
	t->known = SCHED_TOPO_SMT | SCHED_TOPO_LLC | SCHED_TOPO_NODES;
}

int sched_topo_read_schedstat(struct sched_topo *t, const char **why)
{
	int cpu, lvl, ret;

	topo_init(t, "schedstat");
	t->known |= SCHED_TOPO_DOMAINS;
	ret = read_schedstat(t);
	if (ret) {
		snprintf(t->why, sizeof(t->why),
			 "cannot parse /proc/schedstat (CONFIG_SCHEDSTATS): %s",
			 strerror(-ret));
		*why = t->why;
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

/*
 * The LLC of @cpu: the shared_cpu_list of its highest-level data or unified
 * cache.  0, or -errno with the LLC marked unknown.
 */
static int sysfs_llc(struct sched_topo *t, int cpu, cpu_set_t *llc)
{
	char path[300], buf[64];
	int idx, level, best = -1, best_idx = -1, ret;

	for (idx = 0; idx < 64; idx++) {
		snprintf(path, sizeof(path), CPU_DIR "/cpu%d/cache/index%d/level",
			 cpu, idx);
		if (read_line(path, buf, sizeof(buf)))
			break;
		level = atoi(buf);
		snprintf(path, sizeof(path), CPU_DIR "/cpu%d/cache/index%d/type",
			 cpu, idx);
		if (read_line(path, buf, sizeof(buf)))
			continue;
		if (strcmp(buf, "Data") && strcmp(buf, "Unified"))
			continue;
		if (level > best) {
			best = level;
			best_idx = idx;
		}
	}
	if (best_idx < 0 && !idx) {
		set_unknown(t, SCHED_TOPO_LLC, "no " CPU_DIR
			    "/cpu%d/cache/index0: the kernel exports no cache topology",
			    cpu);
		return -ENOENT;
	}
	if (best_idx < 0) {
		set_unknown(t, SCHED_TOPO_LLC,
			    "no data or unified cache among " CPU_DIR "/cpu%d/cache/index0-%d",
			    cpu, idx - 1);
		return -ENOENT;
	}
	snprintf(path, sizeof(path), CPU_DIR "/cpu%d/cache/index%d/shared_cpu_list",
		 cpu, best_idx);
	ret = read_cpulist(path, llc);
	if (ret) {
		set_unknown(t, SCHED_TOPO_LLC, "cannot read %s: %s", path,
			    strerror(-ret));
		return ret;
	}
	return 0;
}

int sched_topo_read_sysfs(struct sched_topo *t, const char **why)
{
	char path[300];
	cpu_set_t set;
	int cpu, ret;

	topo_init(t, "sysfs");
	ret = read_cpulist(CPU_DIR "/online", &t->online);
	if (ret || !CPU_COUNT(&t->online)) {
		snprintf(t->why, sizeof(t->why), "cannot read %s: %s",
			 CPU_DIR "/online", strerror(ret ? -ret : ENODATA));
		*why = t->why;
		return ret ? ret : -ENODATA;
	}
	t->nr_cpus = CPU_COUNT(&t->online);
	for (cpu = 0; cpu < SCHED_TOPO_MAX_CPUS; cpu++)
		if (CPU_ISSET(cpu, &t->online))
			t->max_cpu = cpu;
	read_nodes(t);

	for (cpu = 0; cpu <= t->max_cpu; cpu++) {
		if (!CPU_ISSET(cpu, &t->online))
			continue;
		CPU_ZERO(&t->smt[cpu]);
		CPU_SET(cpu, &t->smt[cpu]);
		snprintf(path, sizeof(path),
			 CPU_DIR "/cpu%d/topology/thread_siblings_list", cpu);
		ret = read_cpulist(path, &set);
		if (ret) {
			set_unknown(t, SCHED_TOPO_SMT, "cannot read %s: %s",
				    path, strerror(-ret));
		} else {
			CPU_AND(&t->smt[cpu], &set, &t->online);
			CPU_SET(cpu, &t->smt[cpu]);
		}
		t->llc[cpu] = t->smt[cpu];
		if (!sysfs_llc(t, cpu, &set)) {
			CPU_AND(&t->llc[cpu], &set, &t->online);
			CPU_SET(cpu, &t->llc[cpu]);
		}
	}
	/* A half-known level is unknown: fall back to the defaults for all. */
	for (cpu = 0; cpu <= t->max_cpu; cpu++) {
		if (!CPU_ISSET(cpu, &t->online))
			continue;
		if (!(t->known & SCHED_TOPO_SMT)) {
			CPU_ZERO(&t->smt[cpu]);
			CPU_SET(cpu, &t->smt[cpu]);
		}
		if (!(t->known & SCHED_TOPO_LLC))
			t->llc[cpu] = t->smt[cpu];
	}
	return 0;
}

int sched_topo_read(struct sched_topo *t, const char **why)
{
	char not_schedstat[sizeof(t->not_schedstat)];
	const char *why_ss = NULL, *why_fs = NULL;

	if (!sched_topo_read_schedstat(t, &why_ss))
		return 0;
	snprintf(not_schedstat, sizeof(not_schedstat), "%s", why_ss);
	if (sched_topo_read_sysfs(t, &why_fs)) {
		snprintf(t->why, sizeof(t->why), "%s; and %s", not_schedstat,
			 why_fs);
		*why = t->why;
		return -ENOENT;
	}
	memcpy(t->not_schedstat, not_schedstat, sizeof(not_schedstat));
	return 0;
}

const char *sched_topo_unknown(const struct sched_topo *t, unsigned int need)
{
	static const char * const what[SCHED_TOPO_NR_KNOWN] = {
		"SMT siblings", "LLC", "NUMA nodes", "sched domains",
	};
	static char buf[600];
	unsigned int missing = need & ~t->known;
	int i;

	if (!missing)
		return NULL;
	i = __builtin_ctz(missing);
	if (t->unknown[i][0])
		snprintf(buf, sizeof(buf), "%s unknown: %s (topology from %s)",
			 what[i], t->unknown[i], t->source);
	else
		snprintf(buf, sizeof(buf), "%s unknown (topology from %s%s%s)",
			 what[i], t->source, t->not_schedstat[0] ? ": " : "",
			 t->not_schedstat);
	return buf;
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

int sched_topo_scan_next(const struct sched_topo *t, int from,
			 const cpu_set_t *set)
{
	int i, cpu, nr = t->max_cpu + 1;

	for (i = 1; i <= nr; i++) {
		cpu = (from + i) % nr;
		if (CPU_ISSET(cpu, set))
			return cpu;
	}
	return -1;
}

int sched_topo_scan_first(const struct sched_topo *t, int from, int a, int b)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(a, &set);
	CPU_SET(b, &set);
	return sched_topo_scan_next(t, from, &set);
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
	int cpu, start = -1, used = 0, n;

	buf[0] = '\0';
	for (cpu = 0; cpu <= SCHED_TOPO_MAX_CPUS; cpu++) {
		bool in = cpu < SCHED_TOPO_MAX_CPUS && CPU_ISSET(cpu, set);

		if (in && start < 0)
			start = cpu;
		if (in || start < 0)
			continue;
		if (start == cpu - 1)
			n = snprintf(buf + used, len - used, "%s%d",
				     used ? "," : "", start);
		else
			n = snprintf(buf + used, len - used, "%s%d-%d",
				     used ? "," : "", start, cpu - 1);
		if (n >= len - used) {
			/* Truncated: say so. */
			if (len >= 4)
				memcpy(buf + len - 4, "...", 4);
			break;
		}
		used += n;
		start = -1;
	}
	return buf;
}
