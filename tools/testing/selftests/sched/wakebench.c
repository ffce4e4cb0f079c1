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
 * cross-llc (two LLCs); unbound leaves the choice to the scheduler.
 *
 * Output: one human line and one JSON line (prefixed "wakebench-json: ")
 * with the command line, kernel, topology, sched features and tunables,
 * and the wakeup migrations of the load's tasks (se.nr_migrations).
 * Exit status: 0, 1 on error, 4 (kselftest skip) when the machine lacks
 * the requested placement.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
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

static struct {
	enum load load;
	enum placement placement;
	const char *pairs_arg;
	int pairs;
	double duration, warmup;
	int size, sleep_us, work_us;
	bool quiet;
} opt = {
	.load = L_PIPE, .placement = P_UNBOUND, .pairs_arg = "1",
	.duration = 5.0, .warmup = 1.0, .size = 0, .sleep_us = 1000,
	.work_us = 50,
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
	struct pair pair[MAX_PAIRS];
	float lat[MAX_LAT];	/* wakeup latencies, us */
};

static struct shared *sh;
static struct sched_topo topo;
static bool have_topo;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void spin_us(int us)
{
	double end = now() + us / 1e6;

	while (now() < end)
		;
}

static void pin_self(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		_exit(30);
}

static void start_side(struct side *s)
{
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
	start_side(&p->a);
	for (;;) {
		if (pp_xfer(fd[1], true) || pp_xfer(fd[0], false))
			_exit(31);
		count(p, 1);
	}
}

static void rr_b(struct pair *p, int fd[2])
{
	start_side(&p->b);
	for (;;)
		if (pp_xfer(fd[0], false) || pp_xfer(fd[1], true))
			_exit(32);
}

static void stream_tx(struct pair *p, int fd[2])
{
	char *buf = calloc(1, opt.size);

	start_side(&p->a);
	for (;;)
		if (!buf || (write(fd[1], buf, opt.size) < 0 && errno != EINTR &&
			     errno != ENOBUFS && errno != ECONNREFUSED))
			_exit(33);
}

static void stream_rx(struct pair *p, int fd[2])
{
	char *buf = malloc(opt.size);
	ssize_t n;

	start_side(&p->b);
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

	start_side(&p->a);
	for (;;) {
		t = now();
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

	start_side(&p->b);
	for (;;) {
		if (read(fd[0], &t, sizeof(t)) != sizeof(t))
			_exit(36);
		late = (now() - t) * 1e6;
		if (__atomic_load_n(&sh->measuring, __ATOMIC_RELAXED)) {
			i = __atomic_fetch_add(&sh->nr_lat, 1, __ATOMIC_RELAXED);
			if (i < MAX_LAT)
				sh->lat[i] = late;
		}
		spin_us(opt.work_us);
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

/* One pair, as one process (pipe-thread: A and a thread B) or two. */
static int start_pair(struct pair *p, pid_t pids[2])
{
	enum pp_load pl = opt.load == L_TCP_RR || opt.load == L_TCP_STREAM ?
			  PP_TCP_RR : opt.load == L_UDP_RR ||
			  opt.load == L_UDP_STREAM ? PP_UDP_RR : PP_PIPE;
	int a[2], b[2], ret;

	ret = pp_connect(pl, a, b);
	if (ret)
		return ret;
	fflush(NULL);
	pids[0] = fork();
	if (pids[0] == 0) {
		pp_child_reset();
		/* The load functions loop until killed. */
		if (opt.load == L_PIPE_THREAD) {
			struct thread_arg t = { p, b };
			pthread_t th;

			if (pthread_create(&th, NULL, thread_b, &t))
				_exit(38);
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
	pids[1] = -1;
	if (pids[0] > 0 && opt.load != L_PIPE_THREAD) {
		pids[1] = fork();
		if (pids[1] == 0) {
			pp_child_reset();
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
	return pids[0] < 0 || (opt.load != L_PIPE_THREAD && pids[1] < 0) ?
	       -EAGAIN : 0;
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

static void print_help(FILE *f, const char *prog)
{
	int i;

	fprintf(f,
		"usage: %s [options]\n"
		"  -l, --load L        load (default %s):", prog,
		load_names[opt.load]);
	for (i = 0; i < NR_LOADS; i++)
		fprintf(f, " %s", load_names[i]);
	fprintf(f,
		"\n  -n, --pairs N       concurrent pairs: a number, or half, cpus, 2cpus\n"
		"                      for N/2, N, 2N with N online CPUs (default %s)\n"
		"  -p, --placement P   (default %s):", opt.pairs_arg,
		placement_names[opt.placement]);
	for (i = 0; i < NR_PLACEMENTS; i++)
		fprintf(f, " %s", placement_names[i]);
	fprintf(f,
		"\n  -d, --duration S    measured seconds (default %.1f)\n"
		"  -w, --warmup S      seconds run first, not measured (default %.1f)\n"
		"  -s, --size B        stream write size (default 65536 tcp, 1400 udp)\n"
		"      --sleep-us US   wakelat: waker's sleep between wakeups (default %d)\n"
		"      --work-us US    wakelat: wakee's work per wakeup (default %d)\n"
		"  -q, --quiet         only the JSON line\n"
		"  -h, --help\n",
		opt.duration, opt.warmup, opt.sleep_us, opt.work_us);
}

static int lookup(const char *s, const char * const *names, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(s, names[i]))
			return i;
	return -1;
}

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
	v = strtol(s, &end, 10);
	return *end || v < 1 || v > MAX_PAIRS ? -1 : (int)v;
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
		{ "quiet",	no_argument,       NULL, 'q' },
		{ "help",	no_argument,       NULL, 'h' },
		{ }
	};
	int c, v;

	while ((c = getopt_long(argc, argv, "l:n:p:d:w:s:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'l':
			v = lookup(optarg, load_names, NR_LOADS);
			if (v < 0)
				goto bad;
			opt.load = v;
			break;
		case 'n':
			opt.pairs_arg = optarg;
			break;
		case 'p':
			v = lookup(optarg, placement_names, NR_PLACEMENTS);
			if (v < 0)
				goto bad;
			opt.placement = v;
			break;
		case 'd':
			opt.duration = atof(optarg);
			break;
		case 'w':
			opt.warmup = atof(optarg);
			break;
		case 's':
			opt.size = atoi(optarg);
			break;
		case 'S':
			opt.sleep_us = atoi(optarg);
			break;
		case 'W':
			opt.work_us = atoi(optarg);
			break;
		case 'q':
			opt.quiet = true;
			break;
		case 'h':
			print_help(stdout, argv[0]);
			exit(0);
		default:
			goto bad;
		}
	}
	if (optind < argc || opt.duration <= 0 || opt.warmup < 0 ||
	    opt.size < 0 || opt.size > (1 << 20) || opt.sleep_us < 0 ||
	    opt.work_us < 0)
		goto bad;
	if (!opt.size)
		opt.size = opt.load == L_UDP_STREAM ? 1400 : 65536;
	return;
bad:
	fprintf(stderr, "wakebench: bad arguments (or value of -%c)\n", optopt ? optopt : '?');
	print_help(stderr, argv[0]);
	exit(1);
}

static void report(int argc, char **argv, double secs, unsigned long ops,
		   long migr)
{
	const char *metric, *dir;
	double value, p50 = 0, p99 = 0, p999 = 0;
	char cmd[1024];
	struct utsname u;
	struct json j;
	size_t len = 0;
	int i, nl = 0;

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
		       placement_names[opt.placement], secs, metric, value);
		if (opt.load == L_WAKELAT)
			printf(" (p50 %.1f, p99.9 %.1f us, n=%d)", p50, p999, nl);
		else
			printf(" (%lu %s)", ops,
			       metric[0] == 'm' ? "bytes" : "round trips");
		printf(", migrations %ld\n", migr);
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
	json_str(&j, "placement", placement_names[opt.placement]);
	json_num(&j, "duration_s", secs);
	json_str(&j, "metric", metric);
	json_str(&j, "direction", dir);
	json_num(&j, "value", value);
	json_int(&j, "ops", ops);
	json_int(&j, "migrations", migr);
	if (opt.load == L_WAKELAT) {
		json_int(&j, "lat_n", nl);
		json_num(&j, "lat_p50_us", p50);
		json_num(&j, "lat_p99_us", p99);
		json_num(&j, "lat_p999_us", p999);
	}
	json_str(&j, "kernel", u.release);
	json_str(&j, "cmdline", cmd);
	json_int(&j, "cpus", sysconf(_SC_NPROCESSORS_ONLN));
	if (have_topo) {
		json_int(&j, "smt_width", sched_topo_smt_width(&topo));
		json_int(&j, "llcs", sched_topo_nr_llcs(&topo));
	}
	json_features(&j);
	json_tunables(&j);
	json_end(&j);
	printf("\n");
}

static pid_t pids[2 * MAX_PAIRS];
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

static void on_signal(int sig)
{
	kill_all();
	signal(sig, SIG_DFL);
	raise(sig);
}

int main(int argc, char **argv)
{
	int ncpus = sysconf(_SC_NPROCESSORS_ONLN), i, ret;
	const char *why = NULL;
	unsigned long ops0, ops1;
	long m0, m1;
	double t0, t1;

	parse_args(argc, argv);
	opt.pairs = parse_pairs(opt.pairs_arg, ncpus);
	if (opt.pairs < 0 || opt.pairs > MAX_PAIRS) {
		fprintf(stderr, "wakebench: --pairs: 1-%d, half, cpus or 2cpus\n",
			MAX_PAIRS);
		return 1;
	}
	have_topo = !sched_topo_read(&topo, &why);
	if (!have_topo && opt.placement != P_UNBOUND) {
		fprintf(stderr, "wakebench: placement %s needs the topology: %s\n",
			placement_names[opt.placement], why);
		return EXIT_SKIP;
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
			fprintf(stderr, "wakebench: this machine has no %s placement\n",
				placement_names[opt.placement]);
			return EXIT_SKIP;
		}
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	atexit(kill_all);
	for (i = 0; i < opt.pairs; i++) {
		ret = start_pair(&sh->pair[i], &pids[nr_pids]);
		nr_pids += 2;
		if (ret) {
			fprintf(stderr, "wakebench: cannot start pair %d: %s\n", i,
				strerror(-ret));
			return 1;
		}
	}
	/* Let every task publish its tid and pin itself (10 s), then go. */
	t0 = now();
	for (i = 0; i < opt.pairs; i++)
		while (!__atomic_load_n(&sh->pair[i].a.tid, __ATOMIC_ACQUIRE) ||
		       !__atomic_load_n(&sh->pair[i].b.tid, __ATOMIC_ACQUIRE)) {
			if (now() - t0 > 10) {
				fprintf(stderr, "wakebench: pair %d did not start\n", i);
				return 1;
			}
			usleep(1000);
		}
	__atomic_store_n(&sh->go, 1, __ATOMIC_RELEASE);

	usleep(opt.warmup * 1e6);
	m0 = total_migrations();
	ops0 = total_ops();
	t0 = now();
	__atomic_store_n(&sh->measuring, 1, __ATOMIC_RELAXED);
	usleep(opt.duration * 1e6);
	__atomic_store_n(&sh->measuring, 0, __ATOMIC_RELAXED);
	ops1 = total_ops();
	t1 = now();
	m1 = total_migrations();
	for (i = 0; i < nr_pids; i++) {
		int st;

		if (pids[i] > 0 && waitpid(pids[i], &st, WNOHANG) == pids[i]) {
			fprintf(stderr, "wakebench: a load task died (status %d)\n", st);
			pids[i] = -1;
			return 1;
		}
	}
	kill_all();
	if (ops1 == ops0) {
		fprintf(stderr, "wakebench: no progress in %.1f s\n", t1 - t0);
		return 1;
	}
	report(argc, argv, t1 - t0, ops1 - ops0,
	       m0 < 0 || m1 < 0 ? -1 : m1 - m0);
	return 0;
}
