// SPDX-License-Identifier: GPL-2.0
/*
 * pingpong.c, which the sis tests' loads run on, and its failure paths:
 *
 *  run_<load>: pp_run() of each load returns every round, with CPU numbers
 *    that exist.
 *  spinners_start_stop: one spinner per CPU asked; pp_spinners_stop()
 *    leaves no child.
 *  fork_fails_*: with the process limit (RLIMIT_NPROC) of an unprivileged
 *    uid set so that a fork fails partway - the second spinner, pp_run()'s
 *    first fork while a spinner runs, pp_run()'s second fork - the call
 *    returns an error promptly and leaves no child of its own behind.  Each
 *    runs in a worker process, so that a hang is seen (and ended).
 *
 *   pingpong_test [-h]
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <grp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest.h"
#include "pingpong.h"

#define WORKER_TIMEOUT_S	20

static void base_opts(struct pp_opts *o, enum pp_load load)
{
	memset(o, 0, sizeof(*o));
	o->load = load;
	o->rounds = 200;
	o->warmup = 10;
	o->wakee_hop_cpu = -1;
	o->waker_start_cpu = -1;
	o->wakee_start_cpu = -1;
	o->timeout_s = 10;
}

static void test_run(enum pp_load load)
{
	long ncpus = sysconf(_SC_NPROCESSORS_CONF);
	struct pp_result r;
	struct pp_opts o;
	int i, bad = 0, ret;

	base_opts(&o, load);
	ret = pp_run(&o, &r);
	if (ret) {
		ksft_print_msg("%s: pp_run: %s\n", pp_load_name(load),
			       strerror(-ret));
		ksft_test_result_fail("run_%s\n", pp_load_name(load));
		return;
	}
	for (i = 0; i < r.n; i++)
		bad += r.samples[i].waker_cpu < 0 ||
		       r.samples[i].waker_cpu >= ncpus ||
		       r.samples[i].wakee_cpu < 0 ||
		       r.samples[i].wakee_cpu >= ncpus;
	ksft_print_msg("%s: %d rounds in %.3f s, %d with a CPU out of range\n",
		       pp_load_name(load), r.n, r.seconds, bad);
	ksft_test_result(r.n == o.rounds && !bad, "run_%s\n", pp_load_name(load));
	free(r.samples);
}

/* Children of this process, running or not yet reaped: 0 or 1 (or -1). */
static int have_children(void)
{
	siginfo_t si = { 0 };

	if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT))
		return errno == ECHILD ? 0 : -1;
	return 1;	/* si_pid 0: children, none exited yet */
}

static void test_spinners(void)
{
	cpu_set_t one;
	int ret, left;

	CPU_ZERO(&one);
	CPU_SET(0, &one);
	ret = pp_spinners_start(&one);
	pp_spinners_stop();
	left = have_children();
	ksft_print_msg("spinners: started %d on CPU 0, children left after stop: %d\n",
		       ret, left);
	ksft_test_result(ret == 1 && left == 0, "spinners_start_stop\n");
}

/*
 * Tasks (threads) whose real uid is @uid, from /proc; with @kill, SIGKILL
 * each of their processes.
 */
static int tasks_of(uid_t uid, bool kill_them)
{
	char path[300], line[256];
	int nr = 0, threads, ruid;
	struct dirent *e;
	DIR *d;
	FILE *f;

	d = opendir("/proc");
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/status", e->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		ruid = -1;
		threads = 0;
		while (fgets(line, sizeof(line), f)) {
			if (!strncmp(line, "Uid:", 4))
				ruid = atoi(line + 4);
			else if (!strncmp(line, "Threads:", 8))
				threads = atoi(line + 8);
		}
		fclose(f);
		if (ruid != (int)uid)
			continue;
		nr += threads;
		if (kill_them)
			kill(atoi(e->d_name), SIGKILL);
	}
	closedir(d);
	return nr;
}

/* Root: an uid without tasks, for a process limit of our own. */
static int free_uid(void)
{
	int uid;

	for (uid = 65534; uid > 65500; uid--)
		if (tasks_of(uid, false) == 0)
			return uid;
	return -1;
}

enum scenario { SPINNERS, PP_RUN_FIRST, PP_RUN_SECOND };

static const char * const fork_tests[] = {
	[SPINNERS]	= "fork_fails_spinners",
	[PP_RUN_FIRST]	= "fork_fails_pp_run_first",
	[PP_RUN_SECOND]	= "fork_fails_pp_run_second",
};

/*
 * In the worker: drop to @uid (when root), allow @forks more tasks, run
 * the scenario.  Exit 0: error returned and nothing left behind.
 */
static int worker(enum scenario s, int uid, int forks)
{
	struct rlimit rl;
	struct pp_result r;
	struct pp_opts o;
	cpu_set_t cpus;
	int ret = 0, base, left;

	if (uid >= 0 && (setgroups(0, NULL) || setresgid(uid, uid, uid) ||
			 setresuid(uid, uid, uid))) {
		ksft_print_msg("cannot become uid %d: %s\n", uid, strerror(errno));
		return 2;
	}
	base = tasks_of(getuid(), false);
	rl.rlim_cur = base + forks;
	rl.rlim_max = base + forks;
	if (base < 1 || setrlimit(RLIMIT_NPROC, &rl)) {
		ksft_print_msg("cannot limit uid %d to %d tasks: %s\n", getuid(),
			       base + forks, strerror(errno));
		return 2;
	}
	ksft_print_msg("uid %d: %d task(s), limit %ld\n", getuid(), base,
		       (long)rl.rlim_cur);
	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	base_opts(&o, PP_PIPE);
	switch (s) {
	case SPINNERS:
		CPU_SET(1, &cpus);
		ret = pp_spinners_start(&cpus);
		ksft_print_msg("pp_spinners_start(CPUs 0-1): %d (%s)\n", ret,
			       ret < 0 ? strerror(-ret) : "started");
		break;
	case PP_RUN_FIRST:
		ret = pp_spinners_start(&cpus);
		if (ret != 1) {
			ksft_print_msg("cannot start the spinner: %d\n", ret);
			return 2;
		}
		ret = pp_run(&o, &r);
		ksft_print_msg("pp_run with a spinner and no fork left: %s\n",
			       ret ? strerror(-ret) : "succeeded");
		/* The caller's spinner is the caller's to stop. */
		if (have_children() != 1) {
			ksft_print_msg("the caller's spinner is gone\n");
			return 1;
		}
		pp_spinners_stop();
		break;
	case PP_RUN_SECOND:
		ret = pp_run(&o, &r);
		ksft_print_msg("pp_run with one fork left: %s\n",
			       ret ? strerror(-ret) : "succeeded");
		break;
	}
	left = have_children();
	if (left)
		ksft_print_msg("children left behind: %s\n",
			       left > 0 ? "yes" : "cannot tell");
	return ret < 0 && !left ? 0 : 1;
}

/*
 * Root: once the worker is gone, so must be every task of its uid (an
 * orphan would be a leak).  Waits up to 2 s for killed ones to be reaped,
 * then kills what is left.  Returns whether something was left.
 */
static bool leftovers(const char *name, int uid)
{
	int i, nr = 0;

	if (uid < 0)
		return false;
	for (i = 0; i < 200; i++) {
		nr = tasks_of(uid, false);
		if (!nr)
			return false;
		usleep(10000);
	}
	ksft_print_msg("%s: %d task(s) of uid %d left after the worker: killed\n",
		       name, nr, uid);
	tasks_of(uid, true);
	for (i = 0; i < 200 && tasks_of(uid, false); i++)
		usleep(10000);
	return true;
}

/* One more task allowed: the second spinner, or pp_run()'s fork, fails. */
static void test_fork_fails(enum scenario s, int uid)
{
	const char *name = fork_tests[s];
	int st, waited;
	bool left;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		ksft_test_result_error("%s: fork: %s\n", name, strerror(errno));
		return;
	}
	if (pid == 0)
		_exit(worker(s, uid, 1));
	for (waited = 0; waited < WORKER_TIMEOUT_S * 100; waited++) {
		if (waitpid(pid, &st, WNOHANG) == pid)
			break;
		usleep(10000);
	}
	if (waited == WORKER_TIMEOUT_S * 100) {
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		ksft_print_msg("%s: hung: killed after %d s\n", name,
			       WORKER_TIMEOUT_S);
		leftovers(name, uid);
		ksft_test_result_fail("%s\n", name);
		return;
	}
	if (WIFEXITED(st) && WEXITSTATUS(st) == 2) {
		ksft_test_result_code(KSFT_SKIP, name,
				      "cannot set up the process limit");
		return;
	}
	ksft_print_msg("%s: done in %.2f s\n", name, waited / 100.0);
	left = leftovers(name, uid);
	ksft_test_result(WIFEXITED(st) && WEXITSTATUS(st) == 0 && !left,
			 "%s\n", name);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	int c, uid = -1;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		FILE *f = c == 'h' ? stdout : stderr;

		fprintf(f, "usage: %s [-h]\n"
			"Runs pingpong.c's loads and spinners, and makes their forks\n"
			"fail partway (RLIMIT_NPROC of an unprivileged uid): each\n"
			"call must return an error and leave no child behind.\n",
			argv[0]);
		return c == 'h' ? 0 : KSFT_FAIL;
	}
	if (optind < argc) {
		fprintf(stderr, "%s: no arguments expected (see -h)\n", argv[0]);
		return KSFT_FAIL;
	}

	ksft_print_header();
	ksft_set_plan(PP_NR_LOADS + 4);
	for (c = 0; c < PP_NR_LOADS; c++)
		test_run(c);
	test_spinners();

	if (geteuid() == 0) {
		uid = free_uid();
		if (uid < 0) {
			for (c = 0; c < 3; c++)
				ksft_test_result_code(KSFT_SKIP, fork_tests[c],
						      "no uid without tasks in 65501-65534");
			ksft_finished();
		}
	}
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		ksft_test_result_code(KSFT_SKIP, fork_tests[SPINNERS],
				      "needs 2 online CPUs");
	else
		test_fork_fails(SPINNERS, uid);
	test_fork_fails(PP_RUN_FIRST, uid);
	test_fork_fails(PP_RUN_SECOND, uid);
	ksft_finished();
}
