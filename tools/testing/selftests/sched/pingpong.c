// SPDX-License-Identifier: GPL-2.0
/*
 * Synchronous ping-pong loads for the sched selftests: see pingpong.h.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pingpong.h"

#define MAX_SPINNERS	256

struct pp_shared {
	int waker_cpu;		/* atomic: written by A, read by B */
	pid_t wakee;
	double seconds;
	struct pp_sample samples[];
};

static pid_t spinners[MAX_SPINNERS];
static int nr_spinners;

const char *pp_load_name(enum pp_load load)
{
	static const char * const names[] = {
		[PP_PIPE]   = "pipe",
		[PP_TCP_RR] = "tcp_rr",
		[PP_UDP_RR] = "udp_rr",
	};

	return load < PP_NR_LOADS ? names[load] : "?";
}

double pp_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void pp_spin_us(int us)
{
	double end = pp_now() + us / 1e6;

	while (pp_now() < end)
		;
}

void pp_sleep_us(int us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

int pp_pin(pid_t tid, int a, int b, int c)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(a, &set);
	if (b >= 0)
		CPU_SET(b, &set);
	if (c >= 0)
		CPU_SET(c, &set);
	return sched_setaffinity(tid, sizeof(set), &set);
}

/*
 * Children must not run the parent's atexit or signal handlers (they would
 * restore sched features mid-run), and must not outlive it.
 */
void pp_child_reset(void)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
}

/*
 * A parent that died before the child set PR_SET_PDEATHSIG sends it no
 * signal: such a child leaves at once instead of running on, orphaned.
 */
pid_t pp_fork(void)
{
	pid_t parent = getpid(), pid;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		pp_child_reset();
		if (getppid() != parent)
			_exit(1);
	}
	return pid;
}

int pp_xfer(int fd, bool out)
{
	char c = 'x';
	ssize_t n;

	do {
		n = out ? write(fd, &c, 1) : read(fd, &c, 1);
	} while (n < 0 && errno == EINTR);
	return n == 1 ? 0 : -1;
}

/* Start on @start (if >= 0), then run on @pin (if set) or where we could. */
static int place_self(int start, bool pin, const cpu_set_t *pinned)
{
	cpu_set_t own, one;

	if (sched_getaffinity(0, sizeof(own), &own))
		return -1;
	if (start >= 0) {
		CPU_ZERO(&one);
		CPU_SET(start, &one);
		if (sched_setaffinity(0, sizeof(one), &one))
			return -1;
	}
	return sched_setaffinity(0, sizeof(own), pin ? pinned : &own);
}

/* Only interrupts waitpid(): the EINTR is the timeout. */
static void on_alarm(int sig)
{
	(void)sig;
}

/* Wait until @pid is blocked: state S or D in /proc/<pid>/stat. */
int pp_wait_asleep(pid_t pid)
{
	char path[64], buf[256], *p;
	int fd, tries;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	for (tries = 0; tries < 1000000; tries++) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -1;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0)
			return -1;
		buf[n] = '\0';
		p = strrchr(buf, ')');
		if (p && (p[2] == 'S' || p[2] == 'D'))
			return 0;
		sched_yield();
	}
	return -1;
}

/* On a failed setup: close @a and @b (if open), return -errno. */
static int close_fail(int a, int b)
{
	int err = errno;

	if (a >= 0)
		close(a);
	if (b >= 0)
		close(b);
	return -err;
}

int pp_echo_connect(const char *peer)
{
	struct sockaddr_in addr = { .sin_family = AF_INET };
	const char *colon = strrchr(peer, ':');
	char host[INET_ADDRSTRLEN], *end;
	int fd, one = 1;
	long port;

	if (!colon || colon == peer || (size_t)(colon - peer) >= sizeof(host))
		return -EINVAL;
	memcpy(host, peer, colon - peer);
	host[colon - peer] = '\0';
	port = strtol(colon + 1, &end, 10);
	if (end == colon + 1 || *end || port < 1 || port > 65535 ||
	    inet_pton(AF_INET, host, &addr.sin_addr) != 1)
		return -EINVAL;
	addr.sin_port = htons(port);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof(addr)))
		return close_fail(fd, -1);
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return fd;
}

/* Two connected endpoints: a for A, b for B (each duplex). */
static int make_tcp(int a[2], int b[2])
{
	struct sockaddr_in addr = { .sin_family = AF_INET };
	socklen_t len = sizeof(addr);
	int l, c, s, one = 1;

	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	l = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	c = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (l < 0 || c < 0 ||
	    bind(l, (struct sockaddr *)&addr, sizeof(addr)) ||
	    listen(l, 1) ||
	    getsockname(l, (struct sockaddr *)&addr, &len) ||
	    connect(c, (struct sockaddr *)&addr, sizeof(addr)))
		return close_fail(l, c);
	s = accept4(l, NULL, NULL, SOCK_CLOEXEC);
	if (s < 0)
		return close_fail(l, c);
	close(l);
	setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	a[0] = c;
	a[1] = c;
	b[0] = s;
	b[1] = s;
	return 0;
}

static int make_udp(int a[2], int b[2])
{
	struct sockaddr_in aa = { .sin_family = AF_INET }, ba;
	socklen_t len = sizeof(aa);
	int sa, sb;

	aa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ba = aa;
	sa = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	sb = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (sa < 0 || sb < 0 ||
	    bind(sa, (struct sockaddr *)&aa, sizeof(aa)) ||
	    bind(sb, (struct sockaddr *)&ba, sizeof(ba)) ||
	    getsockname(sa, (struct sockaddr *)&aa, &len))
		return close_fail(sa, sb);
	len = sizeof(ba);
	if (getsockname(sb, (struct sockaddr *)&ba, &len) ||
	    connect(sa, (struct sockaddr *)&ba, sizeof(ba)) ||
	    connect(sb, (struct sockaddr *)&aa, sizeof(aa)))
		return close_fail(sa, sb);
	a[0] = sa;
	a[1] = sa;
	b[0] = sb;
	b[1] = sb;
	return 0;
}

/* a[0]: A reads, a[1]: A writes; likewise b. */
static int make_pipes(int a[2], int b[2])
{
	int ab[2], ba[2];

	if (pipe2(ab, O_CLOEXEC))
		return -errno;
	if (pipe2(ba, O_CLOEXEC))
		return close_fail(ab[0], ab[1]);
	a[0] = ba[0];
	a[1] = ab[1];
	b[0] = ab[0];
	b[1] = ba[1];
	return 0;
}

int pp_connect(enum pp_load load, int a[2], int b[2])
{
	switch (load) {
	case PP_PIPE:
		return make_pipes(a, b);
	case PP_TCP_RR:
		return make_tcp(a, b);
	case PP_UDP_RR:
		return make_udp(a, b);
	default:
		return -EINVAL;
	}
}

void pp_close(int a[2], int b[2])
{
	int fds[4] = { a[0], a[1], b[0], b[1] };
	int i, j;

	for (i = 0; i < 4; i++) {
		for (j = 0; j < i; j++)
			if (fds[j] == fds[i])
				break;
		if (j == i && fds[i] >= 0)
			close(fds[i]);
	}
}

/* Side A; returns the exit code of its process. */
static int run_waker(const struct pp_opts *o, struct pp_shared *sh, int fd[2])
{
	int i, total = o->warmup + o->rounds;
	double t0 = 0;

	prctl(PR_SET_NAME, PP_WAKER_COMM);
	pp_child_reset();
	if (o->child_init && o->child_init(false))
		return 13;
	if (place_self(o->waker_start_cpu, o->pin_waker, &o->waker_cpus))
		return 10;
	for (i = 0; i < total; i++) {
		if (i == o->warmup)
			t0 = pp_now();
		if (o->wakee_sleeps_first && pp_wait_asleep(sh->wakee))
			return 12;
		__atomic_store_n(&sh->waker_cpu, sched_getcpu(), __ATOMIC_RELAXED);
		if (pp_xfer(fd[1], true) || pp_xfer(fd[0], false))
			return 11;
	}
	sh->seconds = pp_now() - t0;
	return 0;
}

/* Side B; returns the exit code of its process. */
static int run_wakee(const struct pp_opts *o, struct pp_shared *sh, int fd[2])
{
	int i, total = o->warmup + o->rounds;
	cpu_set_t own, hop;

	prctl(PR_SET_NAME, PP_WAKEE_COMM);
	pp_child_reset();
	if (o->child_init && o->child_init(true))
		return 25;
	if (place_self(o->wakee_start_cpu, o->pin_wakee, &o->wakee_cpus))
		return 20;
	if (sched_getaffinity(0, sizeof(own), &own))
		return 21;
	CPU_ZERO(&hop);
	if (o->wakee_hop_cpu >= 0)
		CPU_SET(o->wakee_hop_cpu, &hop);
	for (i = 0; i < total; i++) {
		if (pp_xfer(fd[0], false))
			return 22;
		if (i >= o->warmup) {
			sh->samples[i - o->warmup].waker_cpu =
				__atomic_load_n(&sh->waker_cpu, __ATOMIC_RELAXED);
			sh->samples[i - o->warmup].wakee_cpu = sched_getcpu();
		}
		if (o->wakee_hop_cpu >= 0 &&
		    (sched_setaffinity(0, sizeof(hop), &hop) ||
		     sched_setaffinity(0, sizeof(own), &own)))
			return 23;
		if (pp_xfer(fd[1], true))
			return 24;
	}
	return 0;
}

/* Kill and reap the load processes still running (> 0). */
static void kill_reap(pid_t *pa, pid_t *pb)
{
	pid_t *p[] = { pa, pb };
	int i;

	for (i = 0; i < 2; i++)
		if (*p[i] > 0)
			kill(*p[i], SIGKILL);
	for (i = 0; i < 2; i++) {
		while (*p[i] > 0 && waitpid(*p[i], NULL, 0) < 0 && errno == EINTR)
			;
		*p[i] = -1;
	}
}

int pp_run(const struct pp_opts *o, struct pp_result *r)
{
	int a[2] = { -1, -1 }, b[2] = { -1, -1 }, st, ret = 0;
	int timeout = o->timeout_s ? o->timeout_s : 600;
	size_t size = sizeof(struct pp_shared) +
		      o->rounds * sizeof(struct pp_sample);
	struct sigaction old_sa;
	struct pp_shared *sh;
	pid_t pa = -1, pb;

	memset(r, 0, sizeof(*r));
	sh = mmap(NULL, size, PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return -errno;
	ret = pp_connect(o->load, a, b);
	if (ret)
		goto out;

	/*
	 * Any failure from here kills and reaps what was started, and only
	 * that: the caller's other children (spinners) are not ours to wait
	 * for.
	 */
	pb = pp_fork();
	if (pb == 0)
		_exit(run_wakee(o, sh, b));
	if (pb < 0)
		ret = -errno;
	sh->wakee = pb;
	if (pb > 0) {
		pa = pp_fork();
		if (pa == 0)
			_exit(run_waker(o, sh, a));
		if (pa < 0)
			ret = -errno;
	}
	pp_close(a, b);
	if (ret) {
		kill_reap(&pa, &pb);
		goto out;
	}

	/*
	 * Reap both, blocking (a polling parent would itself be a wakeup
	 * source on the CPUs under test); SIGALRM bounds the wait.  A side
	 * that fails leaves the other waiting for ever: kill it.
	 */
	sigaction(SIGALRM, &(struct sigaction){ .sa_handler = on_alarm }, &old_sa);
	alarm(timeout);
	while (pa > 0 || pb > 0) {
		pid_t pid = waitpid(-1, &st, 0);

		if (pid < 0) {
			ret = errno == EINTR ? -ETIMEDOUT : -errno;
			kill_reap(&pa, &pb);
			break;
		}
		if (pid != pa && pid != pb)
			continue;	/* one of the caller's, exited */
		if (pid == pa)
			pa = -1;
		else
			pb = -1;
		if (!WIFEXITED(st) || WEXITSTATUS(st)) {
			ret = -EPROTO;
			kill_reap(&pa, &pb);
		}
	}
	alarm(0);
	sigaction(SIGALRM, &old_sa, NULL);
	if (ret)
		goto out;

	r->samples = malloc(o->rounds * sizeof(*r->samples));
	if (!r->samples) {
		ret = -ENOMEM;
		goto out;
	}
	memcpy(r->samples, sh->samples, o->rounds * sizeof(*r->samples));
	r->n = o->rounds;
	r->seconds = sh->seconds;
out:
	munmap(sh, size);
	return ret;
}

/* Kill and reap the spinners from index @first on. */
static void spinners_stop_from(int first)
{
	int i;

	for (i = first; i < nr_spinners; i++)
		kill(spinners[i], SIGKILL);
	for (i = first; i < nr_spinners; i++)
		while (waitpid(spinners[i], NULL, 0) < 0 && errno == EINTR)
			;
	nr_spinners = first;
}

void pp_spinners_stop(void)
{
	spinners_stop_from(0);
}

int pp_spinners_start(const cpu_set_t *cpus)
{
	static bool registered;
	int cpu, first = nr_spinners, ret;

	if (!registered) {
		atexit(pp_spinners_stop);
		registered = true;
	}
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		cpu_set_t one;
		pid_t pid;

		if (!CPU_ISSET(cpu, cpus))
			continue;
		if (nr_spinners == MAX_SPINNERS) {
			ret = -E2BIG;
			goto fail;
		}
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		pid = pp_fork();
		if (pid < 0) {
			ret = -errno;
			goto fail;
		}
		if (pid == 0) {
			if (sched_setaffinity(0, sizeof(one), &one))
				_exit(1);
			for (;;)
				;
		}
		spinners[nr_spinners++] = pid;
	}
	return nr_spinners - first;
fail:
	/* All or nothing: stop the ones this call started. */
	spinners_stop_from(first);
	return ret;
}
