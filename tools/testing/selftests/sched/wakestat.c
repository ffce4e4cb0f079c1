// SPDX-License-Identifier: GPL-2.0
/*
 * wakestat: where each wakeup landed, which branch of select_task_rq_fair()
 * chose the CPU, how far the idle-CPU scan went, and how long the wakee
 * waited to run, from the kernel's own decisions (the bare tracepoint
 * sched_select_task_rq_fair_tp of the wakeup placement series).
 *
 * runqlat-style: "wakestat 1 10" reports every second, ten times; with no
 * interval it reports once, at Ctrl-C.  "wakestat [options] -- CMD ..."
 * traces while CMD runs.  Filters test the wakee, not the waker.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include "wakestat_trace.h"

/* Read after each nanosleep()/waitpid() call, which the compiler cannot see through. */
static sig_atomic_t stop_sig;

static void on_signal(int sig)
{
	stop_sig = sig;
}

static void print_help(FILE *f)
{
	fprintf(f,
		"usage: wakestat [options] [interval [count]]\n"
		"       wakestat [options] -- command [args...]\n"
		"Reports wakeup placement from inside the kernel: placement relative to the\n"
		"waker and to the wakee's previous CPU, the select_task_rq_fair() branch that\n"
		"chose the CPU, CPUs the idle scan examined and passed over, wakeup migrations,\n"
		"wake->run latency, and invariant counters (chosen CPU outside the allowed mask\n"
		"or inactive, by branch).  Without an interval it reports once at Ctrl-C, or\n"
		"when the command exits.\n"
		"  -p PID     wakees of process PID only\n"
		"  -c COMM    wakees whose command name is COMM only\n"
		"  -C DIR     wakees in the cgroup v2 directory DIR only\n"
		"  -j         JSON, one object per report\n"
		"  -o FILE    write the reports to FILE\n"
		"  -h, --help this help\n"
		"On a kernel without the series' tracepoint it falls back to the sched_waking\n"
		"and sched_wakeup trace events and says which columns are missing.\n"
		"Needs root (CAP_BPF, CAP_PERFMON) and tracefs events.\n"
		"Exit status: 0; 1 error (or the command failed); 2 usage error; 4 BPF or\n"
		"the trace events are not available here (the reason is printed).\n");
}

static void usage_error(const char *what, const char *arg)
{
	fprintf(stderr, "wakestat: %s '%s' (see wakestat -h)\n", what, arg);
	exit(2);
}

static long number(const char *s, const char *what, long min)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min)
		usage_error(what, s);
	return v;
}

static const char *describe(const struct ws_filter *f, const char *cgroup_dir)
{
	static char buf[512];
	int len = 0;

	if (f->tgid)
		len += snprintf(buf + len, sizeof(buf) - len, "pid %d ", f->tgid);
	if (f->comm[0])
		len += snprintf(buf + len, sizeof(buf) - len, "comm %s ", f->comm);
	if (f->cgroup)
		snprintf(buf + len, sizeof(buf) - len, "cgroup %s", cgroup_dir);
	if (len && !f->cgroup)
		buf[len - 1] = '\0';
	return len || f->cgroup ? buf : "all";
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void report(FILE *out, bool json, const struct ws_trace *t,
		   const struct ws_counts *c, const char *kind, int n,
		   double secs, const struct ws_filter *f)
{
	char title[160];

	if (json) {
		struct json j;

		json_begin(&j, out);
		json_str(&j, "report", kind);
		json_int(&j, "interval", n);
		json_num(&j, "seconds", secs);
		json_int(&j, "filter_pid", f->tgid);
		json_str(&j, "filter_comm", f->comm);
		json_int(&j, "filter_cgroup", f->cgroup);
		json_str(&j, "topology", t->topo_source);
		ws_report_json(&j, t, c);
		json_end(&j);
		fputc('\n', out);
	} else {
		snprintf(title, sizeof(title), "wakestat %s%.0d: %.2f s", kind,
			 n, secs);
		ws_report_text(out, t, c, title);
		fputc('\n', out);
	}
	fflush(out);
}

int main(int argc, char **argv)
{
	struct ws_counts start, prev, cur, d;
	struct ws_filter f = { 0 };
	const char *out_path = NULL;
	const char *cgroup_dir = NULL;
	long interval = 0, count = -1;
	double t0, tprev, tnow;
	struct sigaction sa = { .sa_handler = on_signal };
	struct ws_trace t;
	bool json = false;
	pid_t child = 0;
	FILE *out = stdout;
	char why[256];
	int opt, n = 0, st, ret = 0;
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ }
	};

	while ((opt = getopt_long(argc, argv, "+p:c:C:jo:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'p':
			f.tgid = number(optarg, "-p: want a PID, not", 1);
			break;
		case 'c':
			if (strlen(optarg) >= WS_COMM_LEN)
				usage_error("-c: at most 15 characters, not", optarg);
			memcpy(f.comm, optarg, strlen(optarg) + 1);
			break;
		case 'C':
			cgroup_dir = optarg;
			if (ws_cgroup_id(optarg, &f.cgroup, why, sizeof(why))) {
				fprintf(stderr, "wakestat: -C %s\n", why);
				return 2;
			}
			break;
		case 'j':
			json = true;
			break;
		case 'o':
			out_path = optarg;
			break;
		case 'h':
			print_help(stdout);
			return 0;
		default:
			fprintf(stderr, "wakestat: bad option (see wakestat -h)\n");
			return 2;
		}
	}
	if (optind < argc && !strcmp(argv[optind - 1], "--")) {
		/* wakestat [options] -- command */
	} else if (optind < argc) {
		interval = number(argv[optind++], "interval: want seconds >= 1, not", 1);
		if (optind < argc)
			count = number(argv[optind++], "count: want >= 1, not", 1);
		if (optind < argc)
			usage_error("unexpected argument", argv[optind]);
	}

	if (ws_trace_open(&t, &f)) {
		fprintf(stderr, "wakestat: skip: %s\n", t.why);
		return 4;
	}
	if (out_path) {
		out = fopen(out_path, "w");
		if (!out) {
			fprintf(stderr, "wakestat: %s: %s\n", out_path, strerror(errno));
			ws_trace_close(&t);
			return 1;
		}
	}
	if (!json && t.fallback)
		fprintf(out, "wakestat: no sched_select_task_rq_fair_tp: %s\n",
			"falling back to sched_waking/sched_wakeup");
	else if (!json)
		fprintf(out, "wakestat: tracing sched_select_task_rq_fair_tp\n");
	if (!json)
		fprintf(out, "wakestat: topology from %s; wakees: %s\n",
			t.topo_source, describe(&f, cgroup_dir));
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	if (ws_trace_read(&t, &start)) {
		fprintf(stderr, "wakestat: cannot read the counts: %s\n", strerror(errno));
		ws_trace_close(&t);
		return 1;
	}
	prev = start;
	t0 = now();
	tprev = t0;

	if (optind < argc) {
		child = fork();
		if (child < 0) {
			fprintf(stderr, "wakestat: fork: %s\n", strerror(errno));
			ws_trace_close(&t);
			return 1;
		}
		if (!child) {
			execvp(argv[optind], argv + optind);
			fprintf(stderr, "wakestat: %s: %s\n", argv[optind], strerror(errno));
			_exit(127);
		}
		while (waitpid(child, &st, 0) < 0) {
			if (errno != EINTR)
				break;
			if (stop_sig)
				kill(child, SIGTERM);
		}
		if (!WIFEXITED(st) || WEXITSTATUS(st)) {
			fprintf(stderr, "wakestat: %s %s %d\n", argv[optind],
				WIFEXITED(st) ? "exited with status" : "was killed by signal",
				WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
			ret = 1;
		}
	} else {
		while (!stop_sig && (count < 0 || n < count)) {
			struct timespec ts = { .tv_sec = interval ? interval : 3600 };

			if (nanosleep(&ts, NULL) && !stop_sig)
				continue;
			if (!interval || stop_sig)
				break;
			if (ws_trace_read(&t, &cur))
				break;
			tnow = now();
			ws_counts_sub(&d, &cur, &prev);
			report(out, json, &t, &d, "interval", ++n, tnow - tprev, &f);
			prev = cur;
			tprev = tnow;
		}
	}

	if (ws_trace_read(&t, &cur)) {
		fprintf(stderr, "wakestat: cannot read the counts: %s\n", strerror(errno));
		ret = 1;
	} else if (!interval || stop_sig) {
		ws_counts_sub(&d, &cur, &start);
		report(out, json, &t, &d, "total", 0, now() - t0, &f);
	}
	ws_trace_close(&t);
	if (out != stdout)
		fclose(out);
	return ret;
}
