// SPDX-License-Identifier: GPL-2.0
/*
 * Loads for the stress tests: see stress_load.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
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

#include "../kselftest.h"
#include "pingpong.h"
#include "sched_features.h"
#include "stress_load.h"
#include "wakestat_trace.h"

#define SL_HACK_GROUP	4		/* senders, and receivers */
#define SL_HACK_MSG	100
#define SL_STREAM_BUF	(64 * 1024)

double sl_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Every transfer is blocking; a load ends only on SIGTERM (its default
 * action) or on an error, which it reports by its exit code.  EOF, EPIPE
 * and ECONNRESET mean the peer has gone: after sl_stop()'s SIGTERM, which
 * reaches the processes one by one, that is the normal end (a hackbench
 * sender whose receivers went first died of SIGPIPE, counted as a failed
 * load).  A load that ends before sl_stop() fails whatever its code.
 */
static void xfer_all(int fd, char *buf, size_t len, bool out, int code)
{
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = out ? write(fd, buf + done, len - done) : read(fd, buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0 || (n < 0 && (errno == EPIPE || errno == ECONNRESET)))
			_exit(0);
		if (n < 0)
			_exit(code);
		done += n;
	}
}

static void count(unsigned long long *c)
{
	__atomic_add_fetch(c, 1, __ATOMIC_RELAXED);
}

/* Fork one load process running @fn(@arg); the parent records it. */
static int spawn(struct sl_loads *l, const char *what, void (*fn)(void *, unsigned long long *),
		 void *arg, const int *close_fds, int nr_close)
{
	struct sl_proc *p;
	pid_t pid;
	int i;

	if (l->nr == SL_MAX_PROCS)
		return -E2BIG;
	p = &l->proc[l->nr];
	pid = pp_fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		prctl(PR_SET_NAME, SL_COMM);
		signal(SIGPIPE, SIG_IGN);	/* EPIPE instead: see xfer_all() */
		for (i = 0; i < nr_close; i++)
			if (close_fds[i] >= 0)
				close(close_fds[i]);
		fn(arg, &l->ops[l->nr]);
		_exit(0);
	}
	p->pid = pid;
	snprintf(p->what, sizeof(p->what), "%s", what);
	l->nr++;
	return 0;
}

struct pp_side {
	int fd[2];	/* read, write */
	bool first;	/* sends first */
};

static void run_pp(void *arg, unsigned long long *ops)
{
	struct pp_side *s = arg;
	char c = 'x';

	for (;;) {
		if (s->first)
			xfer_all(s->fd[1], &c, 1, true, 11);
		xfer_all(s->fd[0], &c, 1, false, 12);
		if (!s->first)
			xfer_all(s->fd[1], &c, 1, true, 13);
		count(ops);
	}
}

static void run_sender(void *arg, unsigned long long *ops)
{
	int *fds = arg, i;
	char msg[SL_HACK_MSG];

	memset(msg, 'h', sizeof(msg));
	for (;;) {
		for (i = 0; i < SL_HACK_GROUP; i++)
			xfer_all(fds[i], msg, sizeof(msg), true, 21);
		count(ops);
	}
}

static void run_receiver(void *arg, unsigned long long *ops)
{
	int fd = *(int *)arg;
	char msg[SL_HACK_MSG];

	for (;;) {
		xfer_all(fd, msg, sizeof(msg), false, 22);
		count(ops);
	}
}

static char stream_buf[SL_STREAM_BUF];

static void run_stream(void *arg, unsigned long long *ops)
{
	struct pp_side *s = arg;

	for (;;) {
		xfer_all(s->first ? s->fd[1] : s->fd[0], stream_buf, sizeof(stream_buf),
			 s->first, 31);
		count(ops);
	}
}

/* A ping-pong pair (or, @stream, a one-way TCP stream): two processes. */
static int start_pair(struct sl_loads *l, enum pp_load load, bool stream, int idx)
{
	struct pp_side a = { .first = true }, b = { .first = false };
	int fa[2], fb[2], ret;
	char what[24];

	ret = pp_connect(load, fa, fb);
	if (ret)
		return ret;
	memcpy(a.fd, fa, sizeof(fa));
	memcpy(b.fd, fb, sizeof(fb));
	snprintf(what, sizeof(what), "%s %d A", stream ? "stream" : pp_load_name(load), idx);
	ret = spawn(l, what, stream ? run_stream : run_pp, &a, fb, 2);
	if (!ret) {
		what[strlen(what) - 1] = 'B';
		ret = spawn(l, what, stream ? run_stream : run_pp, &b, fa, 2);
	}
	pp_close(fa, fb);
	return ret;
}

/* One hackbench group: SL_HACK_GROUP senders writing to every receiver. */
static int start_hackbench(struct sl_loads *l)
{
	int sp[SL_HACK_GROUP][2], wr[SL_HACK_GROUP], rd[SL_HACK_GROUP];
	int i, ret = 0, made;
	char what[24];

	for (made = 0; made < SL_HACK_GROUP; made++) {
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, sp[made])) {
			ret = -errno;
			goto out;
		}
		rd[made] = sp[made][0];
		wr[made] = sp[made][1];
	}
	for (i = 0; i < SL_HACK_GROUP && !ret; i++) {
		snprintf(what, sizeof(what), "hackbench receiver %d", i);
		ret = spawn(l, what, run_receiver, &rd[i], wr, SL_HACK_GROUP);
	}
	for (i = 0; i < SL_HACK_GROUP && !ret; i++) {
		snprintf(what, sizeof(what), "hackbench sender %d", i);
		ret = spawn(l, what, run_sender, wr, rd, SL_HACK_GROUP);
	}
out:
	for (i = 0; i < made; i++) {
		close(sp[i][0]);
		close(sp[i][1]);
	}
	return ret;
}

int sl_start(struct sl_loads *l, int nr_cpus)
{
	int pairs = nr_cpus / 2 > 1 ? nr_cpus / 2 : 1, i, ret = 0;

	memset(l, 0, sizeof(*l));
	l->ops = mmap(NULL, SL_MAX_PROCS * sizeof(*l->ops), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (l->ops == MAP_FAILED) {
		l->ops = NULL;
		return -errno;
	}
	for (i = 0; i < pairs && !ret; i++)
		ret = start_pair(l, (enum pp_load)(i % PP_NR_LOADS), false, i);
	if (!ret)
		ret = start_hackbench(l);
	if (!ret)
		ret = start_pair(l, PP_TCP_RR, true, 0);
	if (ret) {
		ksft_print_msg("cannot start the loads: %s\n", strerror(-ret));
		sl_stop(l, 10);
	}
	return ret;
}

unsigned long long sl_ops(const struct sl_loads *l, unsigned long long *least)
{
	unsigned long long sum = 0, v;
	int i;

	if (least)
		*least = ~0ULL;
	for (i = 0; i < l->nr; i++) {
		v = __atomic_load_n(&l->ops[i], __ATOMIC_RELAXED);
		sum += v;
		if (least && v < *least)
			*least = v;
	}
	if (least && !l->nr)
		*least = 0;
	return sum;
}

static bool finished(int status)
{
	return (WIFEXITED(status) && !WEXITSTATUS(status)) ||
	       (WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
}

int sl_stop(struct sl_loads *l, int grace_s)
{
	int i, status, left, bad = 0;
	double end;
	pid_t pid;

	/* Any load that ended before it was told to had failed. */
	for (i = 0; i < l->nr; i++) {
		pid = waitpid(l->proc[i].pid, &status, WNOHANG);
		if (pid == l->proc[i].pid) {
			ksft_print_msg("load %s (pid %d) ended early: %s %d\n", l->proc[i].what,
				       pid, WIFEXITED(status) ? "exit" : "signal",
				       WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
			l->proc[i].pid = 0;
			bad++;
		}
	}
	for (i = 0; i < l->nr; i++)
		if (l->proc[i].pid > 0)
			kill(l->proc[i].pid, SIGTERM);
	end = sl_now() + grace_s;
	do {
		left = 0;
		for (i = 0; i < l->nr; i++) {
			if (l->proc[i].pid <= 0)
				continue;
			pid = waitpid(l->proc[i].pid, &status, WNOHANG);
			if (pid != l->proc[i].pid) {
				left++;
				continue;
			}
			if (!finished(status)) {
				ksft_print_msg("load %s failed: %s %d\n", l->proc[i].what,
					       WIFEXITED(status) ? "exit" : "signal",
					       WIFEXITED(status) ? WEXITSTATUS(status) :
					       WTERMSIG(status));
				bad++;
			}
			l->proc[i].pid = 0;
		}
		if (left)
			usleep(20000);
	} while (left && sl_now() < end);
	for (i = 0; i < l->nr; i++) {
		if (l->proc[i].pid <= 0)
			continue;
		ksft_print_msg("load %s (pid %d) did not end %d s after SIGTERM: killed\n",
			       l->proc[i].what, l->proc[i].pid, grace_s);
		kill(l->proc[i].pid, SIGKILL);
		waitpid(l->proc[i].pid, &status, 0);
		l->proc[i].pid = 0;
		bad++;
	}
	if (l->ops)
		munmap(l->ops, SL_MAX_PROCS * sizeof(*l->ops));
	l->ops = NULL;
	return bad;
}

void sl_parse(int argc, char **argv, struct sl_args *a, const char *does,
	      const char *count)
{
	static const struct option opts[] = {
		{ "duration", required_argument, NULL, 'd' },
		{ "goal",     required_argument, NULL, 'n' },
		{ "help",     no_argument,       NULL, 'h' },
		{ }
	};
	int c;

	a->secs = 60;
	a->goal = 0;
	while ((c = getopt_long(argc, argv, "d:n:h", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			a->secs = atoi(optarg);
			break;
		case 'n':
			a->goal = strtoull(optarg, NULL, 0);
			break;
		case 'h':
		default:
			fprintf(c == 'h' ? stdout : stderr,
				"usage: %s [-d|--duration SECONDS] [-n|--goal %s]\n"
				"%s, under loads on every CPU,\n"
				"for SECONDS (default 60) and until %s reach(es) the -n count.\n",
				argv[0], count, does, count);
			exit(c == 'h' ? 0 : KSFT_FAIL);
		}
	}
	if (a->secs < 1 || optind < argc) {
		fprintf(stderr, "%s: bad arguments (-h for usage)\n", argv[0]);
		exit(KSFT_FAIL);
	}
}

bool sl_done(const struct sl_args *a, double t0, unsigned long long n)
{
	return sl_now() - t0 >= a->secs && n >= a->goal;
}

int sl_series_on(char *buf, size_t len)
{
	static const char * const names[] = { "SIS_SYNC_CORE", "SIS_CACHE" };
	size_t i, off = 0;
	int ret;

	buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		if (sched_feature_get(names[i]) < 0)
			continue;
		ret = sched_feature_set(names[i], true);
		if (ret)
			return ret;
		off += snprintf(buf + off, len > off ? len - off : 0, "%s%s",
				off ? ", " : "", names[i]);
	}
	if (!off)
		snprintf(buf, len, "none (kernel without the series)");
	return 0;
}

/* SIS_SYNC_CORE's and SIS_CACHE's branches */
static bool sl_series_branch(unsigned int b)
{
	return b == WS_BR_SYNC_SIBLING || b == WS_BR_RESERVED;
}

bool sl_ws_series_clean(const struct ws_counts *c, const char *name)
{
	bool ok = true;
	unsigned int b;

	for (b = 0; b < WS_BR_MAX; b++) {
		bool series = sl_series_branch(b);

		if (!c->outside[b] && !c->inactive[b])
			continue;
		ksft_print_msg("%s: branch %s: outside the mask %llu, inactive %llu, of %llu%s\n",
			       name, ws_branch_name(b), (unsigned long long)c->outside[b],
			       (unsigned long long)c->inactive[b], (unsigned long long)c->branch[b],
			       series ? " (the series' branch: a bug)" : " (stock branch)");
		if (series)
			ok = false;
	}
	if (c->dropped || c->bad_size) {
		ksft_print_msg("%s: wakestat dropped %llu, bad records %llu\n", name,
			       (unsigned long long)c->dropped, (unsigned long long)c->bad_size);
		ok = false;
	}
	return ok;
}

int sl_write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

bool sl_file_has_word(const char *path, const char *word)
{
	char buf[512] = "", *tok, *save;
	FILE *f = fopen(path, "r");
	bool found = false;

	if (!f)
		return false;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	for (tok = strtok_r(buf, "\n ", &save); tok && !found;
	     tok = strtok_r(NULL, "\n ", &save))
		found = !strcmp(tok, word);
	return found;
}

int sl_chunks_begin(struct sl_chunks *c, struct ws_trace *ws, const char *name,
		    const struct ws_counts *start)
{
	*c = (struct sl_chunks){ .name = name, .t_last = sl_now() };
	if (!ws)
		return 0;
	c->last = malloc(sizeof(*c->last));
	if (!c->last)
		return -ENOMEM;
	*c->last = *start;
	c->ws = ws;
	return 0;
}

void sl_chunks_tick(struct sl_chunks *c)
{
	char line[2048];
	struct ws_counts now, d;
	double t = sl_now();
	unsigned int b;
	int off;

	if (!c->ws || t - c->t_last < SL_CHUNK_S)
		return;
	if (ws_trace_read(c->ws, &now)) {
		ksft_print_msg("%s: wakestat unreadable: no more chunks\n", c->name);
		c->ws = NULL;
		return;
	}
	ws_counts_sub(&d, &now, c->last);
	*c->last = now;
	c->t_last = t;
	off = snprintf(line, sizeof(line), "%s chunk %u: %llu decided", c->name,
		       c->n++, (unsigned long long)d.decided);
	for (b = 0; b < WS_BR_MAX && off < (int)sizeof(line); b++) {
		if (sl_series_branch(b) || !d.branch[b])
			continue;
		off += snprintf(line + off, sizeof(line) - off, "; %s %llu/%llu/%llu",
				ws_branch_name(b), (unsigned long long)d.branch[b],
				(unsigned long long)d.outside[b],
				(unsigned long long)d.inactive[b]);
	}
	ksft_print_msg("%s\n", line);
}

void sl_chunks_end(struct sl_chunks *c)
{
	free(c->last);
	c->last = NULL;
	c->ws = NULL;
}
