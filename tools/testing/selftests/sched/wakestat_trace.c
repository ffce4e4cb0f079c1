// SPDX-License-Identifier: GPL-2.0
/*
 * wakestat's tracer: load and attach wakestat.bpf.c through its bpftool
 * skeleton, read the per-CPU counts, and report them as text or JSON.
 */
#define _GNU_SOURCE
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include <unistd.h>
#include "sched_topology.h"
#include "wakestat_trace.h"
#ifndef WAKESTAT_MISSING
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "wakestat.skel.h"
#endif

#define NR_U64(s)	(sizeof(s) / sizeof(__u64))

/* ws_counts is summed as an array of __u64; ws_rec mirrors sched_wake_stat. */
static_assert(sizeof(struct ws_counts) % sizeof(__u64) == 0);
static_assert(sizeof(struct ws_rec) == 80);

static const char * const branch_names[WS_BR_KNOWN] = {
	[WS_BR_UNKNOWN]		= "unknown",
	[WS_BR_CURRENT]		= "current",
	[WS_BR_EAS]		= "eas",
	[WS_BR_SLOW]		= "slow",
	[WS_BR_NO_LLC]		= "no-llc",
	[WS_BR_TARGET]		= "target",
	[WS_BR_PREV]		= "prev",
	[WS_BR_KTHREAD]		= "kthread",
	[WS_BR_RECENT]		= "recent",
	[WS_BR_ASYM]		= "asym",
	[WS_BR_IDLE_SMT]	= "idle-smt",
	[WS_BR_IDLE_CORE]	= "idle-core",
	[WS_BR_IDLE_CPU]	= "idle-cpu",
	[WS_BR_PREV_AFF]	= "prev-aff",
	[WS_BR_RECENT_AFF]	= "recent-aff",
	[WS_BR_NONE]		= "none",
	[WS_BR_SYNC_SIBLING]	= "sync-sibling",
	[WS_BR_RESERVED]	= "reserved",
};

static const char * const rel_names[WS_REL_NR] = {
	[WS_REL_SAME_CPU]	= "same-cpu",
	[WS_REL_SMT]		= "smt-sibling",
	[WS_REL_LLC]		= "same-llc",
	[WS_REL_OTHER_LLC]	= "other-llc",
	[WS_REL_OTHER_NODE]	= "other-node",
};

const char *ws_branch_name(unsigned int b)
{
	static char buf[24];

	if (b < WS_BR_KNOWN)
		return branch_names[b];
	snprintf(buf, sizeof(buf), "branch-%u", b);
	return buf;
}

const char *ws_rel_name(unsigned int r)
{
	return r < WS_REL_NR ? rel_names[r] : "?";
}

static const char * const ctx_names[WS_CTX_NR] = {
	[WS_CTX_TASK]		= "task",
	[WS_CTX_SOFTIRQ]	= "softirq",
	[WS_CTX_HARDIRQ]	= "hardirq",
	[WS_CTX_KTHREAD]	= "kthread",
};

const char *ws_ctx_name(unsigned int x)
{
	return x < WS_CTX_NR ? ctx_names[x] : "?";
}

#ifndef WAKESTAT_MISSING
#define HINT_LOAD \
	"needs root or CAP_BPF and CAP_PERFMON, CONFIG_BPF_SYSCALL; libbpf says why above"
#define HINT_EVENTS \
	"needs CONFIG_FTRACE and tracefs, mounted at /sys/kernel/tracing"

/* Set while attaching to the tracepoint a kernel may lack (then: fallback). */
static bool libbpf_quiet;

/* libbpf's warnings, not its debug chatter (or verifier logs on success). */
static int print_libbpf(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	if (level != LIBBPF_WARN || libbpf_quiet)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

static int fail(struct ws_trace *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->why, sizeof(t->why), fmt, ap);
	va_end(ap);
	ws_trace_close(t);
	return -1;
}

/*
 * The offset of @field in sched_migrate_task's record, from its tracefs
 * format ("field:pid_t pid;\toffset:12;..."), or -1.
 */
static int migrate_field_offset(const char *field)
{
	static const char * const paths[] = {
		"/sys/kernel/tracing/events/sched/sched_migrate_task/format",
		"/sys/kernel/debug/tracing/events/sched/sched_migrate_task/format",
		NULL,
	};
	char line[256], want[64], *p;
	int off = -1;
	size_t i;
	FILE *f = NULL;

	for (i = 0; paths[i] && !f; i++)
		f = fopen(paths[i], "r");
	if (!f)
		return -1;
	snprintf(want, sizeof(want), " %s;", field);
	while (off < 0 && fgets(line, sizeof(line), f)) {
		p = strstr(line, want);
		if (p && strstr(line, "field:"))
			p = strstr(p, "offset:");
		else
			p = NULL;
		if (p)
			off = atoi(p + strlen("offset:"));
	}
	fclose(f);
	return off;
}

static int first_cpu(const cpu_set_t *set)
{
	int cpu;

	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, set))
			return cpu;
	return -1;
}

static int set_topology(struct ws_trace *t)
{
	struct sched_topo *topo = calloc(1, sizeof(*topo));
	struct ws_cpu_topo *ct;
	const char *why;
	int cpu;

	if (!topo)
		return fail(t, "out of memory");
	if (sched_topo_read(topo, &why)) {
		fail(t, "cannot read the CPU topology: %s", why);
		free(topo);
		return -1;
	}
	t->topo_source = topo->source;
	ct = t->skel->bss->topo;
	for (cpu = 0; cpu < WS_MAX_CPUS; cpu++) {
		/* Offline CPUs: a core, LLC and node of their own. */
		ct[cpu].core = cpu;
		ct[cpu].llc = cpu;
		ct[cpu].node = -1 - cpu;
		if (cpu > topo->max_cpu || !CPU_ISSET(cpu, &topo->online))
			continue;
		ct[cpu].core = first_cpu(&topo->smt[cpu]);
		ct[cpu].llc = first_cpu(&topo->llc[cpu]);
		ct[cpu].node = topo->node[cpu];
	}
	free(topo);
	return 0;
}

int ws_trace_open(struct ws_trace *t, const struct ws_filter *f)
{
	struct wakestat_bpf *s;
	int pid_off, dest_off;

	memset(t, 0, sizeof(*t));
	libbpf_set_print(print_libbpf);
	t->nr_cpus = libbpf_num_possible_cpus();
	if (t->nr_cpus <= 0)
		return fail(t, "cannot count the possible CPUs");

	s = wakestat_bpf__open();
	t->skel = s;
	if (!s)
		return fail(t, "cannot open the BPF object: %s", strerror(errno));
	if (set_topology(t))
		return -1;
	s->bss->targ_tgid = f->tgid;
	memcpy(s->bss->targ_comm, f->comm, WS_COMM_LEN);
	s->bss->targ_cgroup = f->cgroup;
	pid_off = migrate_field_offset("pid");
	dest_off = migrate_field_offset("dest_cpu");
	s->bss->mig_pid_off = pid_off > 0 ? pid_off : 0;
	s->bss->mig_dest_off = dest_off > 0 ? dest_off : 0;

	if (wakestat_bpf__load(s))
		return fail(t, "cannot load the BPF programs: %s (%s)",
			    strerror(errno), HINT_LOAD);

	libbpf_quiet = true;
	s->links.on_cache = bpf_program__attach(s->progs.on_cache);
	t->no_cache = !s->links.on_cache;
	s->links.on_select = bpf_program__attach(s->progs.on_select);
	libbpf_quiet = false;
	if (!s->links.on_select) {
		if (errno != ENOENT)
			return fail(t, "cannot attach to sched_select_task_rq_fair_tp: %s",
				    strerror(errno));
		/* A kernel without the series' tracepoint. */
		t->fallback = true;
		s->bss->fallback = true;
		s->links.on_waking = bpf_program__attach(s->progs.on_waking);
		if (!s->links.on_waking)
			return fail(t, "%s, and sched_waking: %s (%s)",
				    "no sched_select_task_rq_fair_tp",
				    strerror(errno), HINT_EVENTS);
	}
	s->links.on_wakeup = bpf_program__attach(s->progs.on_wakeup);
	s->links.on_switch = bpf_program__attach(s->progs.on_switch);
	if (!s->links.on_wakeup || !s->links.on_switch)
		return fail(t, "cannot attach to sched_wakeup and sched_switch: %s (%s)",
			    strerror(errno), HINT_EVENTS);
	/* Without it, a wakee moved before it ran counts as disagreeing. */
	if (pid_off > 0 && dest_off > 0) {
		libbpf_quiet = true;
		s->links.on_migrate = bpf_program__attach(s->progs.on_migrate);
		libbpf_quiet = false;
	}
	t->no_migrate = !s->links.on_migrate;
	return 0;
}

int ws_trace_read(struct ws_trace *t, struct ws_counts *sum)
{
	size_t n = NR_U64(*sum), i;
	struct ws_counts *v;
	__u32 zero = 0;
	int cpu, err;

	v = calloc(t->nr_cpus, sizeof(*v));
	if (!v)
		return -ENOMEM;
	err = bpf_map__lookup_elem(t->skel->maps.counts, &zero, sizeof(zero),
				   v, t->nr_cpus * sizeof(*v), 0);
	if (err) {
		free(v);
		return err;
	}
	memset(sum, 0, sizeof(*sum));
	for (cpu = 0; cpu < t->nr_cpus; cpu++)
		for (i = 0; i < n; i++)
			((__u64 *)sum)[i] += ((__u64 *)&v[cpu])[i];
	free(v);
	return 0;
}

void ws_trace_close(struct ws_trace *t)
{
	wakestat_bpf__destroy(t->skel);
	t->skel = NULL;
}

int ws_cgroup_id(const char *path, __u64 *id, char *why, int len)
{
	struct {
		struct file_handle fh;
		__u64 id;
	} h = { .fh.handle_bytes = sizeof(__u64) };
	struct statfs sf;
	struct stat st;
	int mount_id, err;

	if (!name_to_handle_at(AT_FDCWD, path, &h.fh, &mount_id, 0)) {
		memcpy(id, h.fh.f_handle, sizeof(*id));
		return 0;
	}
	err = errno;
	/*
	 * No file handles (a kernel without CONFIG_FHANDLE): on 64-bit, a
	 * cgroup v2 directory's inode number is its kernfs node id, which
	 * is the cgroup id.
	 */
	if (sizeof(long) == 8 && !statfs(path, &sf) && sf.f_type == CGROUP2_SUPER_MAGIC &&
	    !stat(path, &st) && S_ISDIR(st.st_mode)) {
		*id = st.st_ino;
		return 0;
	}
	snprintf(why, len, "%s: %s (a cgroup v2 directory)", path, strerror(err));
	return -1;
}

#else /* WAKESTAT_MISSING: the tests build, and skip wakestat's checks */

int ws_trace_open(struct ws_trace *t, const struct ws_filter *f)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->why, sizeof(t->why), "wakestat %s", WAKESTAT_MISSING);
	return -1;
}

int ws_trace_read(struct ws_trace *t, struct ws_counts *sum)
{
	return -EOPNOTSUPP;
}

void ws_trace_close(struct ws_trace *t)
{
}

int ws_cgroup_id(const char *path, __u64 *id, char *why, int len)
{
	snprintf(why, len, "wakestat %s", WAKESTAT_MISSING);
	return -1;
}
#endif /* WAKESTAT_MISSING */

void ws_counts_sub(struct ws_counts *d, const struct ws_counts *a,
		   const struct ws_counts *b)
{
	size_t i;

	for (i = 0; i < NR_U64(*d); i++)
		((__u64 *)d)[i] = ((const __u64 *)a)[i] - ((const __u64 *)b)[i];
}

void ws_counts_add(struct ws_counts *d, const struct ws_counts *a)
{
	size_t i;

	for (i = 0; i < NR_U64(*d); i++)
		((__u64 *)d)[i] += ((const __u64 *)a)[i];
}

/* Latency bucket @s holds [lo(s), lo(s + 1)) ns. */
static double lat_lo(unsigned int s)
{
	unsigned int msb, sub;

	if (s < WS_LAT_SUB)
		return s;
	msb = s / WS_LAT_SUB + 2;
	sub = s % WS_LAT_SUB;
	return (double)(WS_LAT_SUB + sub) * (double)(1ULL << (msb - 3));
}

double ws_lat_quantile(const struct ws_counts *c, double q)
{
	__u64 seen = 0, want;
	unsigned int s;

	if (!c->lat_n)
		return 0;
	want = (__u64)(q * c->lat_n + 0.999999);
	if (!want)
		want = 1;
	for (s = 0; s < WS_LAT_SLOTS; s++) {
		seen += c->lat[s];
		if (seen >= want)
			return lat_lo(s + 1);
	}
	return lat_lo(WS_LAT_SLOTS);
}

double ws_mean(__u64 sum, __u64 n)
{
	return n ? (double)sum / n : 0;
}

static double pct(__u64 a, __u64 n)
{
	return n ? 100.0 * a / n : 0;
}

/* See wakestat_trace.h. */
int ws_exact_max(const __u64 *v)
{
	int s;

	for (s = WS_EXACT_SLOTS - 1; s >= 0; s--)
		if (v[s])
			break;
	return s;
}

static void log2_text(FILE *f, const char *what, const __u64 *h)
{
	int s, last = -1;
	__u64 max = 0;

	for (s = 0; s < WS_LOG2_SLOTS; s++) {
		if (h[s])
			last = s;
		if (h[s] > max)
			max = h[s];
	}
	fprintf(f, "  %-18s %10s  distribution\n", what, "count");
	for (s = 0; s <= last; s++) {
		char range[48];
		int bar = max ? (int)(40 * h[s] / max) : 0;

		if (!s)
			snprintf(range, sizeof(range), "0");
		else if (s == 1)
			snprintf(range, sizeof(range), "1");
		else
			snprintf(range, sizeof(range), "%llu-%llu",
				 1ULL << (s - 1), (1ULL << s) - 1);
		fprintf(f, "  %-18s %10llu  |%-40.*s|\n", range,
			(unsigned long long)h[s], bar,
			"****************************************");
	}
}

/* sched_sis_cache_tp's events: JSON key, text. */
static const struct {
	const char *key, *what;
} cache_events[WS_CE_NR] = {
	[WS_CE_RESERVE]	= { "reserve", "made (window left)" },
	[WS_CE_OWNER]	= { "owner", "ended: owner enqueued again" },
	[WS_CE_PICKED]	= { "picked", "ended: another task picked there" },
	[WS_CE_NEWIDLE]	= { "newidle", "newidle balance pulled there" },
	[WS_CE_BALANCE]	= { "balance", "periodic balance pulled there" },
};

/*
 * How SIS_CACHE reservations began and ended (sched_sis_cache_tp), split by
 * whether their window was still open then.
 */
static void cache_text(FILE *f, const struct ws_trace *t,
		       const struct ws_counts *c)
{
	unsigned int e;

	if (t->no_cache) {
		fprintf(f, "SIS_CACHE reservations: not traced (no sched_sis_cache_tp)\n");
		return;
	}
	fprintf(f, "SIS_CACHE reservations, of all tasks: %llu made\n",
		(unsigned long long)(c->cache[WS_CE_RESERVE][0] +
				     c->cache[WS_CE_RESERVE][1]));
	fprintf(f, "  %-34s %10s %10s\n", "event", "in window", "after it");
	for (e = 0; e < WS_CE_NR; e++)
		fprintf(f, "  %-34s %10llu %10llu\n", cache_events[e].what,
			(unsigned long long)c->cache[e][1],
			(unsigned long long)c->cache[e][0]);
	if (c->cache[WS_CE_RESERVE][1])
		log2_text(f, "window left, us", c->cache_window);
}

static void lat_text(FILE *f, const struct ws_counts *c)
{
	__u64 pow2[WS_LOG2_SLOTS] = { 0 };
	unsigned int s;

	fprintf(f, "wake->run latency: n %llu, p50 %.1f us, p99 %.1f us, p99.9 %.1f us",
		(unsigned long long)c->lat_n, ws_lat_quantile(c, 0.5) / 1e3,
		ws_lat_quantile(c, 0.99) / 1e3,
		ws_lat_quantile(c, 0.999) / 1e3);
	fprintf(f, " (bucket upper bounds, 1/8 octave)\n");
	if (!c->lat_n)
		return;
	/* Shown by powers of 2 of microseconds. */
	for (s = 0; s < WS_LAT_SLOTS; s++) {
		double us = lat_lo(s) / 1e3;
		unsigned int p = 0;

		while (us >= 1 && p < WS_LOG2_SLOTS - 1) {
			us /= 2;
			p++;
		}
		pow2[p] += c->lat[s];
	}
	log2_text(f, "usecs", pow2);
}

void ws_report_text(FILE *f, const struct ws_trace *t,
		    const struct ws_counts *c, const char *title)
{
	__u64 n = t->fallback ? c->wakeups : c->decided;
	unsigned int b, r;

	fprintf(f, "== %s ==\n", title);
	if (t->fallback)
		fprintf(f, "wakeups: %llu (sched_wakeup, %s; missing: %s)\n",
			(unsigned long long)n, "including wakeups without a decision",
			WS_FALLBACK_MISSING);
	else
		fprintf(f, "wakeups placed by %s: %llu; %s: %llu fair (%s), %llu other classes\n",
			"select_task_rq_fair()",
			(unsigned long long)n,
			"without a placement decision",
			(unsigned long long)c->undecided_fair,
			"still queued incl. delayed dequeue, one allowed CPU, migration disabled",
			(unsigned long long)c->undecided_other);
	fprintf(f, "  %-12s %12s %7s %12s %7s\n", "placement", "vs waker", "%",
		"vs prev", "%");
	for (r = 0; r < WS_REL_NR; r++)
		fprintf(f, "  %-12s %12llu %6.1f%% %12llu %6.1f%%\n",
			ws_rel_name(r), (unsigned long long)c->rel_waker[r],
			pct(c->rel_waker[r], n),
			(unsigned long long)c->rel_prev[r],
			pct(c->rel_prev[r], n));
	fprintf(f, "wakeup migrations (chosen != prev): %llu (%.1f%%)\n",
		(unsigned long long)c->migrations, pct(c->migrations, n));
	if (!t->fallback) {
		fprintf(f, "  %-13s %10s %7s %9s %9s %12s %9s\n", "branch",
			"count", "%", "sync", "alone", "outside-mask",
			"inactive");
		for (b = 0; b < WS_BR_MAX; b++) {
			if (!c->branch[b])
				continue;
			fprintf(f, "  %-13s %10llu %6.1f%% %9llu %9llu %12llu %9llu\n",
				ws_branch_name(b),
				(unsigned long long)c->branch[b],
				pct(c->branch[b], n),
				(unsigned long long)c->branch_sync[b],
				(unsigned long long)c->branch_alone[b],
				(unsigned long long)c->outside[b],
				(unsigned long long)c->inactive[b]);
		}
		fprintf(f, "  %-13s %10s %7s %14s\n", "waker context",
			"count", "%", "sync-sibling");
		for (r = 0; r < WS_CTX_NR; r++)
			fprintf(f, "  %-13s %10llu %6.1f%% %14llu\n",
				ws_ctx_name(r), (unsigned long long)c->ctx[r],
				pct(c->ctx[r], n),
				(unsigned long long)c->ctx_branch[r][WS_BR_SYNC_SIBLING]);
		fprintf(f, "scan length: mean %.2f CPUs examined per wakeup, longest %d%s\n",
			ws_mean(c->scan_sum, n), ws_exact_max(c->scan_n),
			ws_exact_max(c->scan_n) == WS_EXACT_SLOTS - 1 ? " or more" : "");
		log2_text(f, "CPUs examined", c->scan);
		fprintf(f, "passed over (reserved idle CPUs): mean %.2f, %llu in all, most %d%s\n",
			ws_mean(c->passed_sum, n),
			(unsigned long long)c->passed_sum, ws_exact_max(c->passed_n),
			ws_exact_max(c->passed_n) == WS_EXACT_SLOTS - 1 ? " or more" : "");
		if (c->passed_sum)
			log2_text(f, "CPUs passed over", c->passed);
		fprintf(f, "chosen CPU == CPU of next switch-in: %llu of %llu (%.2f%%); ",
			(unsigned long long)c->agree,
			(unsigned long long)(c->agree + c->disagree),
			pct(c->agree, c->agree + c->disagree));
		if (t->no_migrate)
			fprintf(f, "moves before running not told apart (%s)\n",
				"no usable sched_migrate_task");
		else
			fprintf(f, "%llu more moved off it before running\n",
				(unsigned long long)c->moved);
	}
	cache_text(f, t, c);
	lat_text(f, c);
	if (c->dropped || c->bad_size)
		fprintf(f, "DROPPED: %llu wakeups without state (LRU of %d), %s %llu (%zu)\n",
			(unsigned long long)c->dropped, WS_MAX_TASKS,
			"records of a size this wakestat does not know:",
			(unsigned long long)c->bad_size, sizeof(struct ws_rec));
	else
		fprintf(f, "dropped: 0\n");
}

static void json_u64_array(struct json *j, const char *key, const __u64 *v,
			   int n)
{
	int i;

	json_key(j, key);
	fputc('[', j->f);
	for (i = 0; i < n; i++)
		fprintf(j->f, "%s%llu", i ? "," : "", (unsigned long long)v[i]);
	fputc(']', j->f);
}

void ws_report_json(struct json *j, const struct ws_trace *t,
		    const struct ws_counts *c)
{
	struct json o;
	unsigned int b, r;

	json_str(j, "source", t->fallback ? "sched_waking/sched_wakeup (fallback)" :
		 "sched_select_task_rq_fair_tp");
	if (t->fallback)
		json_str(j, "missing", WS_FALLBACK_MISSING);
	json_int(j, "decided", c->decided);
	json_int(j, "wakeups", t->fallback ? c->wakeups : c->decided);
	json_int(j, "undecided_fair", c->undecided_fair);
	json_int(j, "undecided_other", c->undecided_other);
	json_int(j, "migrations", c->migrations);
	json_key(j, "vs_waker");
	json_begin(&o, j->f);
	for (r = 0; r < WS_REL_NR; r++)
		json_int(&o, ws_rel_name(r), c->rel_waker[r]);
	json_end(&o);
	json_key(j, "vs_prev");
	json_begin(&o, j->f);
	for (r = 0; r < WS_REL_NR; r++)
		json_int(&o, ws_rel_name(r), c->rel_prev[r]);
	json_end(&o);
	json_key(j, "branches");
	json_begin(&o, j->f);
	for (b = 0; b < WS_BR_MAX; b++) {
		struct json e;

		if (!c->branch[b])
			continue;
		json_key(&o, ws_branch_name(b));
		json_begin(&e, j->f);
		json_int(&e, "count", c->branch[b]);
		json_int(&e, "sync", c->branch_sync[b]);
		json_int(&e, "alone", c->branch_alone[b]);
		json_int(&e, "outside_mask", c->outside[b]);
		json_int(&e, "inactive", c->inactive[b]);
		json_end(&e);
	}
	json_end(&o);
	json_num(j, "scan_mean", ws_mean(c->scan_sum, c->decided));
	json_u64_array(j, "scan_log2", c->scan, WS_LOG2_SLOTS);
	json_int(j, "passed_sum", c->passed_sum);
	json_int(j, "scan_max", ws_exact_max(c->scan_n));
	json_int(j, "passed_max", ws_exact_max(c->passed_n));
	json_u64_array(j, "passed_log2", c->passed, WS_LOG2_SLOTS);
	json_int(j, "agree", c->agree);
	json_int(j, "disagree", c->disagree);
	json_int(j, "moved", c->moved);
	json_int(j, "moves_tracked", !t->no_migrate);
	json_int(j, "lat_n", c->lat_n);
	json_num(j, "lat_p50_us", ws_lat_quantile(c, 0.5) / 1e3);
	json_num(j, "lat_p99_us", ws_lat_quantile(c, 0.99) / 1e3);
	json_num(j, "lat_p999_us", ws_lat_quantile(c, 0.999) / 1e3);
	json_u64_array(j, "lat_buckets", c->lat, WS_LAT_SLOTS);
	json_int(j, "dropped", c->dropped);
	json_int(j, "bad_size", c->bad_size);
	if (!t->no_cache) {
		/* Per event: [past the window, in the window]. */
		json_key(j, "sis_cache");
		json_begin(&o, j->f);
		for (b = 0; b < WS_CE_NR; b++)
			json_u64_array(&o, cache_events[b].key, c->cache[b], 2);
		json_end(&o);
	}
}
