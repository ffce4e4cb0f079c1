// SPDX-License-Identifier: GPL-2.0
/*
 * wakebench: wakeup-heavy loads for comparing placement policies.
 *
 * Loads, each run as N concurrent pairs of tasks (processes, or threads
 * with pipe-thread):
 *   pipe, pipe-thread  1-byte ping-pong over two pipes ("perf bench sched
 *                      pipe"); metric: microseconds per round trip
 *   tcp_rr, udp_rr     1-byte request/response over loopback (netperf
 *                      TCP_RR/UDP_RR); metric: microseconds per round trip
 *   tcp_stream,        one side sends --size bytes per write, the other
 *   udp_stream         reads (netperf *_STREAM); metric: MB/s received
 *   wakelat            a waker stamps the time and wakes its partner,
 *                      which records how late it runs, works --work-us
 *                      and answers; the waker then sleeps --sleep-us
 *                      (schbench style); metric: p99 wakeup latency (us),
 *                      p50 and p99.9 also reported
 *
 * Placements pin each pair from the scheduler's topology: stacked (one
 * CPU), cross-smt (SMT siblings), cross-core (two cores of one LLC),
 * cross-llc (two LLCs); unbound leaves the choice to the scheduler.  The
 * topology comes from /proc/schedstat's sched domains, else from sysfs
 * (kernels without CONFIG_SCHEDSTATS; see sched_topology.h); a placement
 * needing a level the source does not give (the LLC without sysfs cache
 * topology) exits 4 naming it.
 *
 * --sleepers adds a short sleeper pinned to every CPU wakebench may use:
 * it works WORK_US and sleeps SLEEP_US, over and over, so that each CPU is
 * idle most of the time yet vacated by a short sleeper that comes back
 * soon: the worst case of SIS_CACHE, every idle CPU of the LLC reserved
 * while the pairs wake.  Pinned, the sleepers never go through
 * select_task_rq(); their cycles in the window are reported.
 *
 * Evidence counters are taken around the measured window only (after the
 * warm-up, before the tasks are killed): perf software counters (task
 * clock, context switches, CPU migrations) of wakebench and every task of
 * the load (inherited), and the wakeup counters of /proc/schedstat (all
 * CPUs: ttwu_count, ttwu_local; per domain level ttwu_wake_remote and
 * ttwu_move_affine) where it is readable and kernel.sched_schedstats is on.
 *
 * Output: one human line and one JSON line (prefixed "wakebench-json: ")
 * with the command line, kernel, topology and its source, sched features
 * and tunables, the wakeup migrations of the load's tasks
 * (se.nr_migrations) and the window's counters ("counters":"window"):
 * "task_clock_ms", "ctx_switches", "cpu_migrations" (else "perf_error";
 * "counters_edge_ms": how long switching them on and off took, the most
 * they may overrun the window), "ttwu_count", "ttwu_local",
 * "domain_wake_remote_move_affine" (level 0 wake_remote;move_affine;level
 * 1 ...; else "schedstat_error").
 * Exit status: 0, 1 on error, 2 on a usage error, 4 (kselftest skip) when
 * the machine lacks the requested placement or the topology to place it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/perf_event.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "json.h"
#include "pingpong.h"
#include "sched_features.h"
#include "sched_topology.h"

#define MAX_PAIRS	256
#define MAX_LAT		1048576	/* latency samples kept per run */
#define MAX_SS_LEVELS	16	/* schedstat domain levels counted */
#define EXIT_USAGE	2
#define EXIT_SKIP	4

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

enum load {
	L_PIPE, L_PIPE_THREAD, L_TCP_RR, L_UDP_RR, L_TCP_STREAM, L_UDP_STREAM,
	L_WAKELAT, NR_LOADS,
};

static const char * const load_names[NR_LOADS] = {
	"pipe", "pipe-thread", "tcp_rr", "udp_rr", "tcp_stream", "udp_stream",
	"wakelat",
};

enum placement { P_UNBOUND, P_STACKED, P_SMT, P_CORE, P_LLC, NR_PLACEMENTS };

static const char * const placement_names[NR_PLACEMENTS] = {
	"unbound", "stacked", "cross-smt", "cross-core", "cross-llc",
};

/* What each placement needs to know, and says when the machine lacks it. */
static const struct {
	unsigned int need;
	const char *need_name, *lacks;
} placement_needs[NR_PLACEMENTS] = {
	[P_SMT]	 = { SCHED_TOPO_SMT, "the SMT siblings", "no SMT siblings" },
	[P_CORE] = { SCHED_TOPO_SMT | SCHED_TOPO_LLC,
		     "the SMT siblings and the LLC", "no LLC with two cores" },
	[P_LLC]	 = { SCHED_TOPO_SMT | SCHED_TOPO_LLC,
		     "the SMT siblings and the LLC", "one LLC only" },
};

static struct {
	enum load load;
	enum placement placement;
	const char *pairs_arg;
	int pairs;
	double duration, warmup;
	int size, sleep_us, work_us;
	int spin_ns;		/* rr loads: busy work of side A per round trip */
	unsigned long spin_loops;	/* spin_ns as iterations, calibrated */
	int cpu_a, cpu_b;	/* --cpus: side A's and side B's CPU, or -1 */
	int sl_sleep_us, sl_work_us;	/* --sleepers, or sl_sleep_us 0 */
	bool quiet;
} opt = {
	.load = L_PIPE, .placement = P_UNBOUND, .pairs_arg = "1",
	.duration = 5.0, .warmup = 1.0, .size = 0, .sleep_us = 1000,
	.work_us = 50,
	.cpu_a = -1, .cpu_b = -1,
};

struct side {
	pid_t tid;
	int cpu;		/* pinned CPU or -1 */
};

struct pair {
	struct side a, b;
	unsigned long ops;	/* round trips, or bytes received */
};

struct shared {
	int go;			/* pairs start together */
	int measuring;		/* wakelat records latencies */
	int nr_lat;
	unsigned long sleeper_cycles;	/* --sleepers: sleeps, all CPUs */
	struct pair pair[MAX_PAIRS];
	float lat[MAX_LAT];	/* wakeup latencies, us */
};

static struct shared *sh;
static int nr_sleepers;		/* --sleepers started */
static struct sched_topo topo;
static bool have_topo;
static const char *topo_why;

/* A busy loop of n iterations that the compiler keeps. */
static void busy_loop(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		asm volatile("" ::: "memory");
}

/*
 * --spin-ns as iterations of busy_loop(): the fastest of five timed runs
 * of 2^20 iterations, on this machine and boot, so that side A adds the
 * same work to every round trip without reading a clock.
 */
static void calibrate_spin(void)
{
	const unsigned long n = 1UL << 20;
	double best = INFINITY, t;
	int i;

	for (i = 0; i < 5; i++) {
		t = pp_now();
		busy_loop(n);
		t = pp_now() - t;
		if (t < best)
			best = t;
	}
	opt.spin_loops = (unsigned long)(opt.spin_ns * (n / (best * 1e9)) + 0.5);
}

static void pin_self(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "wakebench: pinning to cpu%d: %s\n", cpu,
			strerror(errno));
		_exit(30);
	}
}

/* @name: PP_WAKER_COMM for side A, PP_WAKEE_COMM for B (wakestat -c). */
static void start_side(struct side *s, const char *name)
{
	prctl(PR_SET_NAME, name);
	s->tid = gettid();
	pin_self(s->cpu);
	while (!__atomic_load_n(&sh->go, __ATOMIC_ACQUIRE))
		usleep(1000);
}

static void count(struct pair *p, unsigned long n)
{
	__atomic_fetch_add(&p->ops, n, __ATOMIC_RELAXED);
}

/* Ping-pong, side A: send, wait for the answer, count a round trip. */
static void rr_a(struct pair *p, int fd[2])
{
	start_side(&p->a, PP_WAKER_COMM);
	for (;;) {
		busy_loop(opt.spin_loops);
		if (pp_xfer(fd[1], true) || pp_xfer(fd[0], false))
			_exit(31);
		count(p, 1);
	}
}

static void rr_b(struct pair *p, int fd[2])
{
	start_side(&p->b, PP_WAKEE_COMM);
	for (;;)
		if (pp_xfer(fd[0], false) || pp_xfer(fd[1], true))
			_exit(32);
}

/* --sleepers: work, sleep briefly, on @cpu only, until killed. */
static void sleeper_loop(int cpu)
{
	prctl(PR_SET_NAME, "wb-sleeper");
	pin_self(cpu);
	while (!__atomic_load_n(&sh->go, __ATOMIC_ACQUIRE))
		usleep(1000);
	for (;;) {
		pp_spin_us(opt.sl_work_us);
		pp_sleep_us(opt.sl_sleep_us);
		if (__atomic_load_n(&sh->measuring, __ATOMIC_RELAXED))
			__atomic_fetch_add(&sh->sleeper_cycles, 1, __ATOMIC_RELAXED);
	}
}

static void stream_tx(struct pair *p, int fd[2])
{
	char *buf = calloc(1, opt.size);

	start_side(&p->a, PP_WAKER_COMM);
	for (;;)
		if (!buf || (write(fd[1], buf, opt.size) < 0 && errno != EINTR &&
			     errno != ENOBUFS && errno != ECONNREFUSED))
			_exit(33);
}

static void stream_rx(struct pair *p, int fd[2])
{
	char *buf = malloc(opt.size);
	ssize_t n;

	start_side(&p->b, PP_WAKEE_COMM);
	for (;;) {
		n = buf ? read(fd[0], buf, opt.size) : -1;
		if (n < 0 && errno != EINTR)
			_exit(34);
		if (n > 0)
			count(p, n);
	}
}

/* Wakeup latency, waker: stamp, wake, wait for the answer, sleep. */
static void lat_a(struct pair *p, int fd[2])
{
	struct timespec ts = { 0, opt.sleep_us * 1000L };
	double t;
	char c;

	start_side(&p->a, PP_WAKER_COMM);
	for (;;) {
		t = pp_now();
		if (write(fd[1], &t, sizeof(t)) != sizeof(t) ||
		    read(fd[0], &c, 1) != 1)
			_exit(35);
		count(p, 1);
		nanosleep(&ts, NULL);
	}
}

static void lat_b(struct pair *p, int fd[2])
{
	double t, late;
	int i;

	start_side(&p->b, PP_WAKEE_COMM);
	for (;;) {
		if (read(fd[0], &t, sizeof(t)) != sizeof(t))
			_exit(36);
		late = (pp_now() - t) * 1e6;
		if (__atomic_load_n(&sh->measuring, __ATOMIC_RELAXED)) {
			i = __atomic_fetch_add(&sh->nr_lat, 1, __ATOMIC_RELAXED);
			if (i < MAX_LAT)
				sh->lat[i] = late;
		}
		pp_spin_us(opt.work_us);
		if (pp_xfer(fd[1], true))
			_exit(37);
	}
}

struct thread_arg {
	struct pair *p;
	int *fd;
};

static void *thread_b(void *arg)
{
	struct thread_arg *t = arg;

	rr_b(t->p, t->fd);
	return NULL;
}

/*
 * One pair, as one process (pipe-thread: A and a thread B) or two.  0, or
 * -errno with @what naming the call that failed.
 */
static int start_pair(struct pair *p, pid_t pids[2], const char **what)
{
	enum pp_load pl = opt.load == L_TCP_RR || opt.load == L_TCP_STREAM ?
			  PP_TCP_RR : opt.load == L_UDP_RR ||
			  opt.load == L_UDP_STREAM ? PP_UDP_RR : PP_PIPE;
	int a[2], b[2], ret = 0;

	pids[0] = -1;
	pids[1] = -1;
	*what = "connect";
	ret = pp_connect(pl, a, b);
	if (ret)
		return ret;
	*what = "fork";
	pids[0] = pp_fork();
	if (pids[0] == 0) {
		/* The load functions loop until killed. */
		if (opt.load == L_PIPE_THREAD) {
			struct thread_arg t = { p, b };
			pthread_t th;

			ret = pthread_create(&th, NULL, thread_b, &t);
			if (ret) {
				fprintf(stderr, "wakebench: pthread_create: %s\n",
					strerror(ret));
				_exit(38);
			}
			rr_a(p, a);
		} else if (opt.load == L_TCP_STREAM || opt.load == L_UDP_STREAM) {
			stream_tx(p, a);
		} else if (opt.load == L_WAKELAT) {
			lat_a(p, a);
		} else {
			rr_a(p, a);
		}
		_exit(39);
	}
	if (pids[0] < 0)
		ret = -errno;
	if (pids[0] > 0 && opt.load != L_PIPE_THREAD) {
		pids[1] = pp_fork();
		if (pids[1] < 0)
			ret = -errno;
		if (pids[1] == 0) {
			if (opt.load == L_TCP_STREAM || opt.load == L_UDP_STREAM)
				stream_rx(p, b);
			else if (opt.load == L_WAKELAT)
				lat_b(p, b);
			else
				rr_b(p, b);
			_exit(39);
		}
	}
	pp_close(a, b);
	return ret;
}

/* Lowest CPU of the i-th SMT group (core) in LLC @llc, or -1. */
static int nth_core(const cpu_set_t *llc, int i, int thread)
{
	int cpu, k, seen = 0;

	for (cpu = 0; cpu <= topo.max_cpu; cpu++) {
		if (!CPU_ISSET(cpu, llc))
			continue;
		for (k = 0; k < cpu; k++)
			if (CPU_ISSET(k, &topo.smt[cpu]))
				break;
		if (k < cpu)
			continue;	/* not the core's first thread */
		if (seen++ < i)
			continue;
		for (k = cpu; k <= topo.max_cpu; k++)
			if (CPU_ISSET(k, &topo.smt[cpu]) && thread-- == 0)
				return k;
		return -1;
	}
	return -1;
}

static int nr_cores(const cpu_set_t *llc)
{
	int i = 0;

	while (nth_core(llc, i, 0) >= 0)
		i++;
	return i;
}

/* Distinct LLC spans, as indexes of their lowest CPU. */
static int llc_firsts(int *first)
{
	int cpu, k, n = 0;

	for (cpu = 0; cpu <= topo.max_cpu; cpu++) {
		if (!CPU_ISSET(cpu, &topo.online))
			continue;
		for (k = 0; k < n; k++)
			if (CPU_ISSET(cpu, &topo.llc[first[k]]))
				break;
		if (k == n)
			first[n++] = cpu;
	}
	return n;
}

/* Pin pair @i per the placement; pairs beyond the slots wrap around. */
static int place_pair(int i, struct pair *p)
{
	int first[SCHED_TOPO_MAX_CPUS], nl, n, cores, l, c;
	const cpu_set_t *llc;

	p->a.cpu = -1;
	p->b.cpu = -1;
	if (opt.cpu_a >= 0) {
		p->a.cpu = opt.cpu_a;
		p->b.cpu = opt.cpu_b;
		return 0;
	}
	if (opt.placement == P_UNBOUND)
		return 0;
	nl = llc_firsts(first);
	switch (opt.placement) {
	case P_STACKED:
		n = i % topo.nr_cpus;
		for (c = 0; c <= topo.max_cpu; c++)
			if (CPU_ISSET(c, &topo.online) && n-- == 0)
				break;
		p->a.cpu = c;
		p->b.cpu = c;
		return 0;
	case P_SMT:
		if (sched_topo_smt_width(&topo) < 2)
			return -ENODEV;
		l = i % nl;
		llc = &topo.llc[first[l]];
		c = (i / nl) % nr_cores(llc);
		p->a.cpu = nth_core(llc, c, 0);
		p->b.cpu = nth_core(llc, c, 1);
		return 0;
	case P_CORE:
		l = i % nl;
		llc = &topo.llc[first[l]];
		cores = nr_cores(llc);
		if (cores < 2)
			return -ENODEV;
		c = (i / nl) % (cores / 2);
		p->a.cpu = nth_core(llc, 2 * c, 0);
		p->b.cpu = nth_core(llc, 2 * c + 1, 0);
		return 0;
	case P_LLC:
		if (nl < 2)
			return -ENODEV;
		l = (2 * i) % nl;
		cores = nr_cores(&topo.llc[first[l]]);
		c = (i / (nl / 2 ? nl / 2 : 1)) % cores;
		p->a.cpu = nth_core(&topo.llc[first[l]], c, 0);
		p->b.cpu = nth_core(&topo.llc[first[(l + 1) % nl]], c, 0);
		return p->b.cpu < 0 ? -ENODEV : 0;
	default:
		return -EINVAL;
	}
}

static long migrations_of(pid_t tid)
{
	char path[64], line[256];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/sched", tid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "se.nr_migrations : %ld", &v) == 1)
			break;
	fclose(f);
	return v;
}

static long total_migrations(void)
{
	long sum = 0, m;
	int i;

	for (i = 0; i < opt.pairs; i++) {
		m = migrations_of(sh->pair[i].a.tid);
		if (m < 0)
			return -1;
		sum += m;
		m = migrations_of(sh->pair[i].b.tid);
		if (m < 0)
			return -1;
		sum += m;
	}
	return sum;
}

static unsigned long total_ops(void)
{
	unsigned long sum = 0;
	int i;

	for (i = 0; i < opt.pairs; i++)
		sum += __atomic_load_n(&sh->pair[i].ops, __ATOMIC_RELAXED);
	return sum;
}

static int cmp_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;

	return x < y ? -1 : x > y;
}

static double percentile(const float *v, int n, double q)
{
	double pos = q * (n - 1);
	int i = (int)pos;

	if (n <= 0)
		return 0;
	if (i + 1 >= n)
		return v[n - 1];
	return v[i] + (pos - i) * (v[i + 1] - v[i]);
}

/*
 * perf software counters of this process and, inherited, of every task it
 * forks afterwards: opened before the load starts as one group led by the
 * task clock, which alone is opened disabled; the group is enabled and
 * disabled around the window through its leader (an ioctl on an inherited
 * event reaches its children: one call per task for all three counters),
 * and read once the tasks have exited (their counts are then folded into
 * ours).
 */
static const struct {
	__u64 config;
	const char *name;
} perf_counters[] = {
	{ PERF_COUNT_SW_TASK_CLOCK,	  "task-clock" },
	{ PERF_COUNT_SW_CONTEXT_SWITCHES, "context-switches" },
	{ PERF_COUNT_SW_CPU_MIGRATIONS,	  "cpu-migrations" },
};

#define NR_PERF	ARRAY_SIZE(perf_counters)

static struct {
	int fd[NR_PERF];
	bool ok;
	char error[200];
	__u64 value[NR_PERF];
	/*
	 * How long the enable and disable calls took (each reaches every
	 * task of the load): the counters may run that much longer than the
	 * window.
	 */
	double edge_s;
} perf;

static void perf_close(void)
{
	unsigned int i;

	for (i = 0; i < NR_PERF; i++) {
		if (perf.fd[i] >= 0)
			close(perf.fd[i]);
		perf.fd[i] = -1;
	}
}

static void perf_fail(const char *what, int err)
{
	char paranoid[16] = "?";
	FILE *f;

	f = fopen("/proc/sys/kernel/perf_event_paranoid", "re");
	if (f) {
		if (fgets(paranoid, sizeof(paranoid), f))
			paranoid[strcspn(paranoid, "\n")] = '\0';
		fclose(f);
	}
	if (err == EACCES || err == EPERM)
		snprintf(perf.error, sizeof(perf.error),
			 "%s: %s (kernel.perf_event_paranoid=%s)", what,
			 strerror(err), paranoid);
	else
		snprintf(perf.error, sizeof(perf.error), "%s: %s", what,
			 strerror(err));
	perf_close();
	perf.ok = false;
}

static void perf_open(void)
{
	struct perf_event_attr a;
	unsigned int i;

	for (i = 0; i < NR_PERF; i++)
		perf.fd[i] = -1;
	for (i = 0; i < NR_PERF; i++) {
		memset(&a, 0, sizeof(a));
		a.type = PERF_TYPE_SOFTWARE;
		a.size = sizeof(a);
		a.config = perf_counters[i].config;
		a.disabled = i == 0;	/* the leader */
		a.inherit = 1;
		perf.fd[i] = syscall(SYS_perf_event_open, &a, 0, -1,
				     i ? perf.fd[0] : -1, PERF_FLAG_FD_CLOEXEC);
		if (perf.fd[i] < 0) {
			char what[64];

			snprintf(what, sizeof(what), "perf_event_open %s",
				 perf_counters[i].name);
			perf_fail(what, errno);
			return;
		}
	}
	perf.ok = true;
}

static void perf_switch(bool on)
{
	double t = pp_now();

	if (perf.ok && ioctl(perf.fd[0], on ? PERF_EVENT_IOC_ENABLE :
			     PERF_EVENT_IOC_DISABLE, 0))
		perf_fail(on ? "PERF_EVENT_IOC_ENABLE" : "PERF_EVENT_IOC_DISABLE",
			  errno);
	perf.edge_s += pp_now() - t;
}

/* After the load's tasks have been reaped. */
static void perf_read(void)
{
	unsigned int i;

	for (i = 0; perf.ok && i < NR_PERF; i++)
		if (read(perf.fd[i], &perf.value[i], sizeof(perf.value[i])) !=
		    sizeof(perf.value[i]))
			perf_fail("read perf counter", errno ? errno : EIO);
	perf_close();
}

/* /proc/schedstat wakeup counters, summed over CPUs (per domain level). */
struct schedstat {
	unsigned long long ttwu_count, ttwu_local;
	unsigned long long wake_remote[MAX_SS_LEVELS];
	unsigned long long move_affine[MAX_SS_LEVELS];
	int nr_levels;
};

static struct {
	bool ok;
	char error[200];
	struct schedstat start, end;
} ss;

static int schedstat_read(struct schedstat *s)
{
	char line[4096], *tok[64], *p;
	unsigned long long count, local;
	int lvl, n;
	FILE *f;

	memset(s, 0, sizeof(*s));
	f = fopen("/proc/schedstat", "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "cpu%*d %*u %*u %*u %*u %llu %llu",
			   &count, &local) == 2) {
			s->ttwu_count += count;
			s->ttwu_local += local;
			continue;
		}
		if (sscanf(line, "domain%d ", &lvl) != 1)
			continue;
		if (lvl < 0 || lvl >= MAX_SS_LEVELS)
			goto bad;
		/* ..., ttwu_wake_remote, ttwu_move_affine, ttwu_move_balance */
		n = 0;
		for (p = strtok(line, "\t\n "); p && n < 64; p = strtok(NULL, "\t\n "))
			tok[n++] = p;
		if (n < 4)
			goto bad;
		s->wake_remote[lvl] += strtoull(tok[n - 3], NULL, 10);
		s->move_affine[lvl] += strtoull(tok[n - 2], NULL, 10);
		if (lvl + 1 > s->nr_levels)
			s->nr_levels = lvl + 1;
	}
	fclose(f);
	return 0;
bad:
	fclose(f);
	return -EINVAL;
}

/* The window's start: is schedstat there and counting? */
static void schedstat_start(void)
{
	char buf[16] = "";
	int ret;
	FILE *f;

	f = fopen("/proc/sys/kernel/sched_schedstats", "re");
	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
	}
	if (buf[0] == '0') {
		snprintf(ss.error, sizeof(ss.error),
			 "kernel.sched_schedstats=0: counters not updated");
		return;
	}
	ret = schedstat_read(&ss.start);
	if (ret) {
		snprintf(ss.error, sizeof(ss.error), "/proc/schedstat: %s%s",
			 strerror(-ret), ret == -ENOENT ?
			 " (CONFIG_SCHEDSTATS)" : "");
		return;
	}
	ss.ok = true;
}

static void schedstat_end(void)
{
	int ret;

	if (!ss.ok)
		return;
	ret = schedstat_read(&ss.end);
	if (!ret && ss.end.nr_levels != ss.start.nr_levels)
		ret = -ESTALE;	/* the domains were rebuilt meanwhile */
	if (ret) {
		snprintf(ss.error, sizeof(ss.error), "/proc/schedstat at the end: %s",
			 strerror(-ret));
		ss.ok = false;
	}
}

static void json_counters(struct json *j)
{
	char buf[MAX_SS_LEVELS * 2 * 21];
	size_t len = 0;
	int i;

	json_str(j, "counters", "window");
	if (perf.ok) {
		json_num(j, "task_clock_ms", perf.value[0] / 1e6);
		json_int(j, "ctx_switches", perf.value[1]);
		json_int(j, "cpu_migrations", perf.value[2]);
		json_num(j, "counters_edge_ms", perf.edge_s * 1e3);
	} else {
		json_str(j, "perf_error", perf.error);
	}
	if (!ss.ok) {
		json_str(j, "schedstat_error", ss.error);
		return;
	}
	json_int(j, "ttwu_count", ss.end.ttwu_count - ss.start.ttwu_count);
	json_int(j, "ttwu_local", ss.end.ttwu_local - ss.start.ttwu_local);
	buf[0] = '\0';
	for (i = 0; i < ss.end.nr_levels && len < sizeof(buf); i++)
		len += snprintf(buf + len, sizeof(buf) - len, "%s%llu;%llu",
				i ? ";" : "",
				ss.end.wake_remote[i] - ss.start.wake_remote[i],
				ss.end.move_affine[i] - ss.start.move_affine[i]);
	json_str(j, "domain_wake_remote_move_affine", buf);
}

static void json_topology(struct json *j)
{
	char note[600] = "";
	const char *u;
	size_t len = 0;
	unsigned int bit;

	if (!have_topo) {
		json_str(j, "topology", NULL);
		json_str(j, "topology_note", topo_why);
		return;
	}
	json_str(j, "topology", topo.source);
	if (topo.known & SCHED_TOPO_SMT)
		json_int(j, "smt_width", sched_topo_smt_width(&topo));
	else
		json_str(j, "smt_width", NULL);
	if (topo.known & SCHED_TOPO_LLC)
		json_int(j, "llcs", sched_topo_nr_llcs(&topo));
	else
		json_str(j, "llcs", NULL);
	if (topo.not_schedstat[0])
		len += snprintf(note, sizeof(note), "not schedstat: %s",
				topo.not_schedstat);
	for (bit = SCHED_TOPO_SMT; bit <= SCHED_TOPO_NODES && len < sizeof(note);
	     bit <<= 1) {
		u = sched_topo_unknown(&topo, bit);
		if (u)
			len += snprintf(note + len, sizeof(note) - len, "%s%s",
					len ? "; " : "", u);
	}
	if (note[0])
		json_str(j, "topology_note", note);
}

static void json_features(struct json *j)
{
	struct sched_features sf;
	char buf[SCHED_FEATURES_MAX * (SCHED_FEATURE_NAME_MAX + 4)];
	size_t len = 0;
	int i;

	if (sched_features_read(&sf)) {
		json_str(j, "features", NULL);
		return;
	}
	buf[0] = '\0';
	for (i = 0; i < sf.nr && len < sizeof(buf); i++)
		len += snprintf(buf + len, sizeof(buf) - len, "%s%s%s",
				i ? " " : "", sf.on[i] ? "" : "NO_", sf.name[i]);
	json_str(j, "features", buf);
}

static void json_tunables(struct json *j)
{
	static const char * const names[] = {
		"migration_cost_ns", "base_slice_ns", "nr_migrate",
	};
	struct json t;
	long long v;
	unsigned int i;

	json_key(j, "tunables");
	json_begin(&t, j->f);
	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (!sched_tunable_get(names[i], &v))
			json_int(&t, names[i], v);
	json_end(&t);
}

static void print_list(FILE *f)
{
	int i;

	fprintf(f, "loads:");
	for (i = 0; i < NR_LOADS; i++)
		fprintf(f, " %s", load_names[i]);
	fprintf(f, "\nlevels: half cpus 2cpus 1-%d\nplacements:", MAX_PAIRS);
	for (i = 0; i < NR_PLACEMENTS; i++)
		fprintf(f, " %s", placement_names[i]);
	fprintf(f, "\n");
}

static void print_help(FILE *f, const char *prog)
{
	fprintf(f,
		"usage: %s [options]\n"
		"  -l, --load L        load (default %s; see --list)\n"
		"  -n, --pairs N       concurrent pairs: a number (1-%d), or half, cpus,\n"
		"                      2cpus for N/2, N, 2N with N online CPUs (default %s)\n"
		"  -p, --placement P   where each pair runs (default %s; see --list)\n"
		"  -d, --duration S    measured seconds (default %.1f)\n"
		"  -w, --warmup S      seconds run first, not measured (default %.1f)\n"
		"  -s, --size B        stream write size (default 65536 tcp, 1400 udp)\n"
		"      --sleep-us US   wakelat: waker's sleep between wakeups (default %d)\n"
		"      --work-us US    wakelat: wakee's work per wakeup (default %d)\n"
		"      --spin-ns NS    rr loads (pipe, pipe-thread, tcp_rr, udp_rr): side A\n"
		"                      busy-loops NS ns before each request (a known added\n"
		"                      cost per op, for power checks; default 0)\n"
		"      --cpus A,B      pin side A (the requester: pipe's writer, the client)\n"
		"                      to CPU A and side B to CPU B, every pair (instead of\n"
		"                      -p; A = B stacks them; placement cpus:A/B)\n"
		"      --sleepers SLEEP_US[,WORK_US]\n"
		"                      also run a short sleeper pinned to every allowed CPU:\n"
		"                      busy WORK_US (default 20), asleep SLEEP_US, in a loop\n"
		"                      (SIS_CACHE's worst case: every idle CPU reserved)\n"
		"  -q, --quiet         only the JSON line\n"
		"      --list          print the valid values, one line each:\n"
		"                      \"loads: L...\", \"levels: half cpus 2cpus 1-%d\",\n"
		"                      \"placements: P...\"\n"
		"  -h, --help\n"
		"Exit status: 0; 1 error; 2 usage error; 4 the machine lacks the placement\n"
		"or the topology to place it (the reason is printed).\n",
		prog, load_names[opt.load], MAX_PAIRS, opt.pairs_arg,
		placement_names[opt.placement], opt.duration, opt.warmup,
		opt.sleep_us, opt.work_us, MAX_PAIRS);
	print_list(f);
}

/* Exits. */
static void usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "wakebench: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see wakebench --help, --list)\n");
	exit(EXIT_USAGE);
}

static int lookup(const char *s, const char * const *names, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(s, names[i]))
			return i;
	return -1;
}

/* Pairs for @s with @ncpus online CPUs, or -1. */
static int parse_pairs(const char *s, int ncpus)
{
	char *end;
	long v;

	if (!strcmp(s, "half"))
		return ncpus / 2 ? ncpus / 2 : 1;
	if (!strcmp(s, "cpus"))
		return ncpus;
	if (!strcmp(s, "2cpus"))
		return 2 * ncpus;
	errno = 0;
	v = strtol(s, &end, 10);
	return end == s || *end || errno || v < 1 || v > MAX_PAIRS ? -1 : (int)v;
}

static double parse_seconds(const char *name, const char *s, double min,
			    bool min_ok)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end || errno || !isfinite(v) || v < min ||
	    (!min_ok && v == min) || v > 86400)
		usage_error("--%s '%s': want seconds %s %g (and at most a day)",
			    name, s, min_ok ? ">=" : ">", min);
	return v;
}

static int parse_int(const char *name, const char *s, int min, int max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (end == s || *end || errno || v < min || v > max)
		usage_error("--%s '%s': want an integer in %d-%d", name, s, min,
			    max);
	return v;
}

/* --cpus A,B: two CPU numbers. */
static void parse_cpus(const char *s)
{
	int a, b, n = -1;

	if (sscanf(s, "%d,%d%n", &a, &b, &n) != 2 || s[n] || a < 0 || b < 0 ||
	    a >= SCHED_TOPO_MAX_CPUS || b >= SCHED_TOPO_MAX_CPUS)
		usage_error("--cpus '%s': want two CPU numbers A,B (0-%d)", s,
			    SCHED_TOPO_MAX_CPUS - 1);
	opt.cpu_a = a;
	opt.cpu_b = b;
}

/* --sleepers SLEEP_US[,WORK_US] */
static void parse_sleepers(const char *s)
{
	int sl, wk = 20, n = -1;

	if (sscanf(s, "%d%n,%d%n", &sl, &n, &wk, &n) < 1 || s[n] ||
	    sl < 1 || sl > 1000000 || wk < 0 || wk > 1000000)
		usage_error("--sleepers '%s': want SLEEP_US[,WORK_US] (1-1000000, 0-1000000)",
			    s);
	opt.sl_sleep_us = sl;
	opt.sl_work_us = wk;
}

static void parse_args(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "load",	required_argument, NULL, 'l' },
		{ "pairs",	required_argument, NULL, 'n' },
		{ "placement",	required_argument, NULL, 'p' },
		{ "duration",	required_argument, NULL, 'd' },
		{ "warmup",	required_argument, NULL, 'w' },
		{ "size",	required_argument, NULL, 's' },
		{ "sleep-us",	required_argument, NULL, 'S' },
		{ "work-us",	required_argument, NULL, 'W' },
		{ "spin-ns",	required_argument, NULL, 'N' },
		{ "cpus",	required_argument, NULL, 'C' },
		{ "sleepers",	required_argument, NULL, 'R' },
		{ "quiet",	no_argument,       NULL, 'q' },
		{ "list",	no_argument,       NULL, 'L' },
		{ "help",	no_argument,       NULL, 'h' },
		{ }
	};
	int c, v;

	while ((c = getopt_long(argc, argv, "l:n:p:d:w:s:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'l':
			v = lookup(optarg, load_names, NR_LOADS);
			if (v < 0)
				usage_error("--load '%s': unknown load", optarg);
			opt.load = v;
			break;
		case 'n':
			if (parse_pairs(optarg, 1) < 0)
				usage_error("--pairs '%s': want 1-%d, half, cpus or 2cpus",
					    optarg, MAX_PAIRS);
			opt.pairs_arg = optarg;
			break;
		case 'p':
			v = lookup(optarg, placement_names, NR_PLACEMENTS);
			if (v < 0)
				usage_error("--placement '%s': unknown placement",
					    optarg);
			opt.placement = v;
			break;
		case 'd':
			opt.duration = parse_seconds("duration", optarg, 0, false);
			break;
		case 'w':
			opt.warmup = parse_seconds("warmup", optarg, 0, true);
			break;
		case 's':
			opt.size = parse_int("size", optarg, 0, 1 << 20);
			break;
		case 'S':
			opt.sleep_us = parse_int("sleep-us", optarg, 0, 10000000);
			break;
		case 'W':
			opt.work_us = parse_int("work-us", optarg, 0, 10000000);
			break;
		case 'N':
			opt.spin_ns = parse_int("spin-ns", optarg, 0, 10000000);
			break;
		case 'C':
			parse_cpus(optarg);
			break;
		case 'R':
			parse_sleepers(optarg);
			break;
		case 'q':
			opt.quiet = true;
			break;
		case 'L':
			print_list(stdout);
			exit(0);
		case 'h':
			print_help(stdout, argv[0]);
			exit(0);
		default:
			/* getopt_long() said what. */
			usage_error("bad option");
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (opt.spin_ns && opt.load != L_PIPE && opt.load != L_PIPE_THREAD &&
	    opt.load != L_TCP_RR && opt.load != L_UDP_RR)
		usage_error("--spin-ns is for the rr loads, not %s",
			    load_names[opt.load]);
	if (opt.cpu_a >= 0 && opt.placement != P_UNBOUND)
		usage_error("--cpus and --placement %s exclude each other",
			    placement_names[opt.placement]);
	if (!opt.size)
		opt.size = opt.load == L_UDP_STREAM ? 1400 : 65536;
}

static void report(int argc, char **argv, double secs, unsigned long ops,
		   long migr)
{
	const char *metric, *dir;
	double value, p50 = 0, p99 = 0, p999 = 0;
	char cmd[1024];
	struct utsname u;
	char where[48];
	struct json j;
	size_t len = 0;
	int i, nl = 0;

	if (opt.cpu_a >= 0)
		snprintf(where, sizeof(where), "cpus:%d/%d", opt.cpu_a, opt.cpu_b);
	else
		snprintf(where, sizeof(where), "%s", placement_names[opt.placement]);
	if (opt.load == L_WAKELAT) {
		nl = sh->nr_lat < MAX_LAT ? sh->nr_lat : MAX_LAT;
		qsort(sh->lat, nl, sizeof(float), cmp_float);
		p50 = percentile(sh->lat, nl, 0.50);
		p99 = percentile(sh->lat, nl, 0.99);
		p999 = percentile(sh->lat, nl, 0.999);
		metric = "p99_wakeup_us";
		dir = "lower";
		value = p99;
	} else if (opt.load == L_TCP_STREAM || opt.load == L_UDP_STREAM) {
		metric = "mb_per_s";
		dir = "higher";
		value = ops / secs / 1e6;
	} else {
		metric = "us_per_op";
		dir = "lower";
		value = ops ? secs * 1e6 * opt.pairs / ops : 0;
	}
	if (!opt.quiet) {
		printf("wakebench: %s pairs=%d %s %.2fs: %s %.3f",
		       load_names[opt.load], opt.pairs,
		       where, secs, metric, value);
		if (opt.load == L_WAKELAT)
			printf(" (p50 %.1f, p99.9 %.1f us, n=%d)", p50, p999, nl);
		else
			printf(" (%lu %s)", ops,
			       metric[0] == 'm' ? "bytes" : "round trips");
		printf(", migrations %ld", migr);
		if (nr_sleepers)
			printf(", %d sleepers (%d us asleep, %d us busy): %lu sleeps",
			       nr_sleepers, opt.sl_sleep_us, opt.sl_work_us,
			       sh->sleeper_cycles);
		if (perf.ok) {
			printf("; window: %llu ctx switches",
			       (unsigned long long)perf.value[1]);
			if (metric[0] != 'm')	/* per round trip, not byte */
				printf(" (%.2f/op)", ops ?
				       (double)perf.value[1] / ops : 0);
			printf(", task clock %.1f ms, %llu cpu migrations",
			       perf.value[0] / 1e6,
			       (unsigned long long)perf.value[2]);
		} else {
			printf("; no perf counters (%s)", perf.error);
		}
		if (ss.ok)
			printf(", ttwu %llu (local %llu)",
			       ss.end.ttwu_count - ss.start.ttwu_count,
			       ss.end.ttwu_local - ss.start.ttwu_local);
		else
			printf("; no schedstat counters (%s)", ss.error);
		printf("; topology: %s\n", have_topo ? topo.source : "none");
	}

	cmd[0] = '\0';
	for (i = 0; i < argc && len < sizeof(cmd); i++)
		len += snprintf(cmd + len, sizeof(cmd) - len, "%s%s",
				i ? " " : "", argv[i]);
	uname(&u);
	printf("wakebench-json: ");
	json_begin(&j, stdout);
	json_str(&j, "load", load_names[opt.load]);
	json_int(&j, "pairs", opt.pairs);
	json_str(&j, "placement", where);
	json_num(&j, "duration_s", secs);
	json_str(&j, "metric", metric);
	json_str(&j, "direction", dir);
	json_num(&j, "value", value);
	json_int(&j, "ops", ops);
	json_int(&j, "migrations", migr);
	if (nr_sleepers) {
		json_int(&j, "sleepers", nr_sleepers);
		json_int(&j, "sleeper_sleep_us", opt.sl_sleep_us);
		json_int(&j, "sleeper_work_us", opt.sl_work_us);
		json_int(&j, "sleeper_cycles", sh->sleeper_cycles);
	}
	if (opt.spin_ns) {
		json_int(&j, "spin_ns", opt.spin_ns);
		json_int(&j, "spin_loops", opt.spin_loops);
	}
	if (opt.load == L_WAKELAT) {
		json_int(&j, "lat_n", nl);
		json_num(&j, "lat_p50_us", p50);
		json_num(&j, "lat_p99_us", p99);
		json_num(&j, "lat_p999_us", p999);
	}
	json_str(&j, "kernel", u.release);
	json_str(&j, "cmdline", cmd);
	json_int(&j, "cpus", sysconf(_SC_NPROCESSORS_ONLN));
	json_topology(&j);
	json_counters(&j);
	json_features(&j);
	json_tunables(&j);
	json_end(&j);
	printf("\n");
}

static pid_t pids[2 * MAX_PAIRS + SCHED_TOPO_MAX_CPUS];
static int nr_pids;

static void kill_all(void)
{
	int i;

	for (i = 0; i < nr_pids; i++)
		if (pids[i] > 0)
			kill(pids[i], SIGKILL);
	for (i = 0; i < nr_pids; i++)
		if (pids[i] > 0)
			waitpid(pids[i], NULL, 0);
	nr_pids = 0;
}

/* --sleepers: one per CPU this process may use; 0 or -errno. */
static int start_sleepers(void)
{
	cpu_set_t allowed;
	int cpu;

	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		return -errno;
	for (cpu = 0; cpu < CPU_SETSIZE && nr_sleepers < SCHED_TOPO_MAX_CPUS; cpu++) {
		if (!CPU_ISSET(cpu, &allowed))
			continue;
		pids[nr_pids] = pp_fork();
		if (pids[nr_pids] < 0)
			return -errno;
		if (!pids[nr_pids]) {
			sleeper_loop(cpu);
			_exit(39);
		}
		nr_pids++;
		nr_sleepers++;
	}
	return 0;
}

static void on_signal(int sig)
{
	kill_all();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Sleep @secs, through signals that return (none here, but be sure). */
static void sleep_s(double secs)
{
	struct timespec ts = { (time_t)secs, (long)((secs - (time_t)secs) * 1e9) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* A load task that has exited: report it and return true. */
static bool load_task_died(const char *when)
{
	int i, st;

	for (i = 0; i < nr_pids; i++) {
		if (pids[i] <= 0 || waitpid(pids[i], &st, WNOHANG) != pids[i])
			continue;
		pids[i] = -1;
		if (WIFEXITED(st))
			fprintf(stderr, "wakebench: a load task exited %s (status %d)\n",
				when, WEXITSTATUS(st));
		else
			fprintf(stderr, "wakebench: a load task died %s (%s)\n",
				when, strsignal(WTERMSIG(st)));
		return true;
	}
	return false;
}

int main(int argc, char **argv)
{
	int ncpus = sysconf(_SC_NPROCESSORS_ONLN), i, ret;
	const char *what;
	unsigned long ops0, ops1;
	long m0, m1;
	double t0, t1;

	parse_args(argc, argv);
	opt.pairs = parse_pairs(opt.pairs_arg, ncpus);
	if (opt.pairs < 0 || opt.pairs > MAX_PAIRS)
		usage_error("--pairs %s: %d pairs with %d CPUs, more than %d",
			    opt.pairs_arg, opt.pairs, ncpus, MAX_PAIRS);
	have_topo = !sched_topo_read(&topo, &topo_why);
	if (opt.placement != P_UNBOUND && !have_topo) {
		fprintf(stderr, "wakebench: placement %s needs the topology: %s\n",
			placement_names[opt.placement], topo_why);
		return EXIT_SKIP;
	}
	if (opt.placement != P_UNBOUND) {
		const char *missing;

		missing = sched_topo_unknown(&topo, placement_needs[opt.placement].need);
		if (missing) {
			fprintf(stderr, "wakebench: placement %s needs %s; %s\n",
				placement_names[opt.placement],
				placement_needs[opt.placement].need_name, missing);
			return EXIT_SKIP;
		}
	}
	if (opt.cpu_a >= 0) {
		cpu_set_t allowed;

		if (sched_getaffinity(0, sizeof(allowed), &allowed) ||
		    !CPU_ISSET(opt.cpu_a, &allowed) || !CPU_ISSET(opt.cpu_b, &allowed)) {
			fprintf(stderr,
				"wakebench: --cpus %d,%d: not both online and allowed here\n",
				opt.cpu_a, opt.cpu_b);
			return EXIT_SKIP;
		}
	}
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		perror("wakebench: mmap");
		return 1;
	}
	for (i = 0; i < opt.pairs; i++) {
		ret = place_pair(i, &sh->pair[i]);
		if (ret == -ENODEV) {
			fprintf(stderr,
				"wakebench: placement %s: this machine has %s (topology from %s)\n",
				placement_names[opt.placement],
				placement_needs[opt.placement].lacks, topo.source);
			return EXIT_SKIP;
		}
	}
	if (opt.spin_ns)
		calibrate_spin();
	/* Before the first fork: the load's tasks inherit the counters. */
	perf_open();
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	atexit(kill_all);
	for (i = 0; i < opt.pairs; i++) {
		ret = start_pair(&sh->pair[i], &pids[nr_pids], &what);
		nr_pids += 2;
		if (ret) {
			fprintf(stderr, "wakebench: cannot start pair %d of %d: %s: %s\n",
				i, opt.pairs, what, strerror(-ret));
			return 1;
		}
	}
	if (opt.sl_sleep_us) {
		ret = start_sleepers();
		if (ret) {
			fprintf(stderr, "wakebench: cannot start the sleepers: %s\n",
				strerror(-ret));
			return 1;
		}
	}
	/* Let every task publish its tid and pin itself (10 s), then go. */
	t0 = pp_now();
	for (i = 0; i < opt.pairs; i++)
		while (!__atomic_load_n(&sh->pair[i].a.tid, __ATOMIC_ACQUIRE) ||
		       !__atomic_load_n(&sh->pair[i].b.tid, __ATOMIC_ACQUIRE)) {
			if (load_task_died("while starting")) {
				fprintf(stderr, "wakebench: pair %d did not start\n", i);
				return 1;
			}
			if (pp_now() - t0 > 10) {
				fprintf(stderr, "wakebench: pair %d did not start in 10 s\n", i);
				return 1;
			}
			usleep(1000);
		}
	__atomic_store_n(&sh->go, 1, __ATOMIC_RELEASE);

	sleep_s(opt.warmup);
	m0 = total_migrations();
	schedstat_start();
	perf_switch(true);
	ops0 = total_ops();
	t0 = pp_now();
	__atomic_store_n(&sh->measuring, 1, __ATOMIC_RELAXED);
	sleep_s(opt.duration);
	__atomic_store_n(&sh->measuring, 0, __ATOMIC_RELAXED);
	ops1 = total_ops();
	t1 = pp_now();
	perf_switch(false);
	schedstat_end();
	m1 = total_migrations();
	if (load_task_died("during the run"))
		return 1;
	/* Reaped: their counts are folded into the inherited counters. */
	kill_all();
	perf_read();
	if (ops1 == ops0) {
		fprintf(stderr, "wakebench: no progress in %.1f s\n", t1 - t0);
		return 1;
	}
	report(argc, argv, t1 - t0, ops1 - ops0,
	       m0 < 0 || m1 < 0 ? -1 : m1 - m0);
	return 0;
}
