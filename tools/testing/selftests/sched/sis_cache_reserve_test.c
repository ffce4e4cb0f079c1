// SPDX-License-Identifier: GPL-2.0
/*
 * SIS_CACHE reservations: which sleeps reserve a CPU, for how long, and
 * what ends a reservation.  Each case lets a sleeper leave its home CPU H0
 * idle in a chosen way and then probes H0 with one wakeup whose idle scan
 * meets H0 first: the probe is a thread (PROBE_COMM) asleep on its busy
 * previous CPU P, allowed P, H0 and H1, woken by a sync write from P.  If
 * H0 is reserved the scan passes it over and the probe lands on H1.
 *
 * Counted per case, over --rounds probes: where the probe ran (H0, H1,
 * elsewhere) and, with wakestat (the kernel's record of the probe's
 * placements), how many reserved CPUs its scans passed over.  A case
 * passes when the share of probes that found H0 reserved is within its
 * expectation; "reserved" is the wakestat count where BPF runs here, else
 * the probe's landing on H1.  The control case (an ordinary short sleeper)
 * must find H0 reserved, or the other cases measured nothing and fail.
 *
 * migration_cost_ns is raised to --migration-cost (sleeps under emulation
 * last milliseconds) and restored, as is every feature touched.
 *
 *   -t NAME   run one case (and the control); -l lists the cases.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest.h"
#include "kmsg.h"
#include "pingpong.h"
#include "placement.h"
#include "sched_features.h"
#include "sched_topology.h"
#include "stats.h"
#include "wakestat_trace.h"

#define MIGRATION_COST	"migration_cost_ns"
#define PROBE_COMM	"scr-probe"
#define LOW_COST_NS	500000LL	/* migration_cost_ns's default */

static struct sched_topo topo;
static int h0 = -1, h1 = -1, p0 = -1;
static int rounds = 20, warm_sleeps = 24, sleep_us = 20000;
static long long high_cost = 50000000;
static struct ws_trace ws;
static bool ws_on;

/* The sleeper, a thread or a child process, and what it shares with us. */
struct shared {
	atomic_int seq;		/* sleeps begun */
	atomic_int woke;	/* sleeps ended */
	atomic_int sleep_us;	/* next sleep's length; 0: wait on @pipe */
	atomic_int cur_us;	/* the sleep begun last: its length, 0: on @pipe */
	atomic_int stop;
	int pipe[2];		/* sleeper waits here when sleep_us is 0 */
	int home;		/* the CPU the sleeper is pinned to */
	pid_t tid;
};

/*
 * A probe: a thread that sleeps on @prev (busy), may run on @allowed, and
 * is woken by main from @waker; main then parks on @park.
 */
struct probe {
	int prev, waker, park;
	cpu_set_t allowed;
	int wake[2];		/* main -> probe */
	int done[2];		/* probe -> main: where it ran */
	pid_t tid;
	pthread_t thread;
};

static struct probe pr;

/*
 * H0 and H1 on two cores of the highest CPU's LLC, P on a third core of
 * it, the scan from P meeting H0 first, and a fourth CPU to park on.
 */
static int find_layout(void)
{
	const cpu_set_t *llc = &topo.llc[topo.max_cpu];
	int a, b, c;

	for (a = topo.max_cpu; a >= 0; a--)
		for (b = topo.max_cpu; b >= 0; b--)
			for (c = topo.max_cpu; c >= 0; c--) {
				if (!CPU_ISSET(a, llc) || !CPU_ISSET(b, llc) ||
				    !CPU_ISSET(c, llc) || CPU_ISSET(b, &topo.smt[a]) ||
				    CPU_ISSET(c, &topo.smt[a]) ||
				    CPU_ISSET(c, &topo.smt[b]) ||
				    sched_topo_scan_first(&topo, c, a, b) != a)
					continue;
				h0 = a;
				h1 = b;
				p0 = c;
				return topo.nr_cpus > 3 ? 0 : -1;
			}
	return -1;
}

/* The probe thread: asleep on its previous CPU, reports where it ran. */
static void *probe_fn(void *arg)
{
	struct probe *q = arg;
	char c;
	int cpu;

	q->tid = gettid();
	prctl(PR_SET_NAME, PROBE_COMM);
	for (;;) {
		if (pp_pin(0, q->prev, -1, -1) ||
		    sched_setaffinity(0, sizeof(q->allowed), &q->allowed))
			return (void *)-1L;
		if (read(q->wake[0], &c, 1) != 1 || c == 'q')
			return NULL;
		cpu = sched_getcpu();
		if (write(q->done[1], &cpu, sizeof(cpu)) != sizeof(cpu))
			return (void *)-1L;
	}
}

static int probe_start(struct probe *q)
{
	if (pipe(q->wake) || pipe(q->done) ||
	    pthread_create(&q->thread, NULL, probe_fn, q))
		return -1;
	while (!q->tid)
		sched_yield();
	if (pp_pin(0, q->park, -1, -1))
		return -1;
	return pp_wait_asleep(q->tid);
}

static int probe_stop(struct probe *q)
{
	void *rc = NULL;
	int ret = write(q->wake[1], "q", 1) != 1;

	ret |= pthread_join(q->thread, &rc) || rc;
	close(q->wake[0]);
	close(q->wake[1]);
	close(q->done[0]);
	close(q->done[1]);
	return ret ? -1 : 0;
}

/*
 * Wake @q from its waker's CPU (main runs alone there): where it ran, and
 * wakestat's record of its placement in @d when wakestat runs.  Main then
 * parks, and the probe goes back to sleep on its previous CPU.
 */
static int probe_wake(struct probe *q, int *cpu, struct ws_counts *d)
{
	struct ws_counts a;

	memset(d, 0, sizeof(*d));
	if (ws_on && ws_trace_read(&ws, &a))
		return -1;
	if (pp_pin(0, q->waker, -1, -1) || pp_xfer(q->wake[1], true))
		return -1;
	if (read(q->done[0], cpu, sizeof(*cpu)) != sizeof(*cpu))
		return -1;
	if (ws_on) {
		if (ws_trace_read(&ws, d))
			return -1;
		ws_counts_sub(d, d, &a);
	}
	if (pp_pin(0, q->park, -1, -1))
		return -1;
	return pp_wait_asleep(q->tid);
}

/* One probe's outcome: where it ran, and whether H0 was reserved. */
enum probe_res { PR_H0, PR_H1, PR_OTHER, PR_NR };

struct result {
	int n[PR_NR];
	int reserved;		/* probes whose scan passed a CPU over */
	int recorded;		/* probes wakestat recorded a placement of */
};

/* The CPU main and the helpers park on: not P, H0 or H1. */
static int park_cpu(void)
{
	int cpu;

	for (cpu = topo.max_cpu; cpu >= 0; cpu--)
		if (CPU_ISSET(cpu, &topo.online) && cpu != p0 && cpu != h0 &&
		    cpu != h1)
			return cpu;
	return -1;
}

/*
 * Probe H0 with the main probe (asleep on P, allowed P, H0 and H1): count
 * where it ran and whether its scan passed a reserved CPU over.  H0 comes
 * first in the scan, so with H0 idle that means H0 was reserved.
 */
static int probe_once(struct result *r)
{
	struct ws_counts d;
	int cpu;

	if (probe_wake(&pr, &cpu, &d))
		return -1;
	r->n[cpu == h0 ? PR_H0 : cpu == h1 ? PR_H1 : PR_OTHER]++;
	if (ws_on) {
		r->recorded += d.decided > 0;
		r->reserved += d.passed_sum > 0;
	} else {
		r->recorded++;
		r->reserved += cpu == h1;
	}
	return 0;
}

/* The sleeper's loop, in a thread or a child process. */
static void sleeper_loop(struct shared *s)
{
	char c;

	s->tid = gettid();
	while (!s->stop) {
		int us = s->sleep_us;

		pp_spin_us(200);
		/* Say which sleep this is before saying that it began. */
		s->cur_us = us;
		atomic_fetch_add(&s->seq, 1);
		if (us)
			pp_sleep_us(us);
		else if (read(s->pipe[0], &c, 1) != 1)
			break;
		atomic_fetch_add(&s->woke, 1);
	}
}

static void *sleeper_thread(void *arg)
{
	struct shared *s = arg;

	if (pp_pin(0, s->home, -1, -1))
		return (void *)-1L;
	sleeper_loop(s);
	return NULL;
}

/* Wait until the sleeper has begun sleep number @seq and is asleep. */
static int wait_sleep(struct shared *s, int seq)
{
	while (s->seq < seq)
		sched_yield();
	return pp_wait_asleep(s->tid);
}

/*
 * Wait until the sleeper, told to (sleep_us = 0), is asleep on its pipe.
 * Waiting for the next sleep by number could wait for ever: the sleeper
 * may have read sleep_us = 0 just before the count was taken.
 */
static int wait_piped(struct shared *s)
{
	while (s->cur_us != 0)
		sched_yield();
	return pp_wait_asleep(s->tid);
}

/* Let the sleeper learn its average: @n sleeps of its current length. */
static int warm(struct shared *s, int n)
{
	int seq = s->woke + n;

	while (s->woke < seq)
		usleep(1000);
	return 0;
}

static struct shared *shared_alloc(void)
{
	struct shared *s = mmap(NULL, sizeof(*s), PROT_READ | PROT_WRITE,
				MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (s == MAP_FAILED)
		return NULL;
	memset(s, 0, sizeof(*s));
	if (pipe(s->pipe)) {
		munmap(s, sizeof(*s));
		return NULL;
	}
	s->sleep_us = sleep_us;
	s->home = h0;
	s->cur_us = -1;
	return s;
}

struct ctx {
	struct shared *s;
	struct result *r;
	const char *skip;	/* set by a case that cannot run here */
};

/*
 * The cases.  Each sets up its sleeper (already started on H0 with short
 * sleeps of --sleep-us and warmed up), makes H0 idle its way and probes.
 */

/* An ordinary short sleeper: the probe must find H0 reserved. */
static int case_control(struct ctx *x)
{
	int i;

	for (i = 0; i < rounds; i++) {
		if (wait_sleep(x->s, x->s->seq + 1))
			return -1;
		pp_sleep_us(sleep_us / 10);
		if (probe_once(x->r))
			return -1;
	}
	return 0;
}

/* A SCHED_IDLE short sleeper: reserves nothing. */
static int case_idle_policy(struct ctx *x)
{
	struct sched_param sp = { 0 };

	if (sched_setscheduler(x->s->tid, SCHED_IDLE, &sp))
		return -1;
	return case_control(x);
}

/*
 * A short sleeper stopped by SIGSTOP (a special task state): reserves
 * nothing.  The sleeper is a child process here.
 */
static int case_stopped(struct ctx *x)
{
	pid_t pid = x->s->tid;
	int i, st;

	for (i = 0; i < rounds; i++) {
		if (wait_sleep(x->s, x->s->seq + 1) || kill(pid, SIGSTOP) ||
		    waitpid(pid, &st, WUNTRACED) != pid || !WIFSTOPPED(st))
			return -1;
		pp_sleep_us(sleep_us / 10);
		if (probe_once(x->r) || kill(pid, SIGCONT) ||
		    waitpid(pid, &st, WCONTINUED) != pid)
			return -1;
		warm(x->s, 4);
	}
	return 0;
}

/*
 * migration_cost_ns lowered to its default before the sleep: the average
 * learned under the high value must not reserve beyond the new one.
 */
static int case_cost_lowered(struct ctx *x)
{
	int i;

	for (i = 0; i < rounds; i++) {
		/* The first sleep to begin after the change. */
		if (sched_tunable_set(MIGRATION_COST, LOW_COST_NS) ||
		    wait_sleep(x->s, x->s->seq + 1))
			return -1;
		pp_sleep_us(sleep_us / 10);
		if (probe_once(x->r) || sched_tunable_set(MIGRATION_COST, high_cost))
			return -1;
		warm(x->s, 8);
	}
	return 0;
}

/*
 * migration_cost_ns lowered during the sleep: a reservation longer than
 * the new value is stale.
 */
static int case_cost_lowered_asleep(struct ctx *x)
{
	int i;

	for (i = 0; i < rounds; i++) {
		if (wait_sleep(x->s, x->s->seq + 1) ||
		    sched_tunable_set(MIGRATION_COST, LOW_COST_NS))
			return -1;
		pp_sleep_us(sleep_us / 10);
		if (probe_once(x->r) || sched_tunable_set(MIGRATION_COST, high_cost))
			return -1;
		warm(x->s, 8);
	}
	return 0;
}

/*
 * The owner woken early on H1 (its affinity moved while it slept): H0's
 * reservation ends with it.
 */
static int case_owner_elsewhere(struct ctx *x)
{
	struct shared *s = x->s;
	int i, w;

	for (i = 0; i < rounds; i++) {
		s->sleep_us = 0;
		if (wait_piped(s) || pp_pin(s->tid, h1, -1, -1))
			return -1;
		w = s->woke;
		if (pp_xfer(s->pipe[1], true))
			return -1;
		while (s->woke == w)
			sched_yield();
		/* It runs 200 us on H1, then sleeps there by pipe again. */
		if (pp_wait_asleep(s->tid))
			return -1;
		if (probe_once(x->r))
			return -1;
		s->sleep_us = sleep_us;
		if (pp_xfer(s->pipe[1], true) || pp_pin(s->tid, h0, -1, -1))
			return -1;
		warm(s, 4);
	}
	return 0;
}

/*
 * Another task ran on H0 after the owner left: the reservation ends.  The
 * filler moves to H0, runs there and leaves by migration, so that it
 * reserves nothing there itself, then sleeps on the park CPU.
 */
struct filler {
	int go[2], back[2];
};

static void *filler_fn(void *arg)
{
	struct filler *f = arg;
	int park = park_cpu();
	char c;

	for (;;) {
		if (pp_pin(0, park, -1, -1) || read(f->go[0], &c, 1) != 1)
			return (void *)-1L;
		if (c == 'q')
			return NULL;
		if (pp_pin(0, h0, -1, -1))
			return (void *)-1L;
		pp_spin_us(300);
		if (pp_pin(0, park, -1, -1) || write(f->back[1], "d", 1) != 1)
			return (void *)-1L;
	}
}

static int case_other_picked(struct ctx *x)
{
	struct filler f;
	int i, ret = 0;
	pthread_t t;
	void *rc;
	char c;

	if (pipe(f.go) || pipe(f.back) || pthread_create(&t, NULL, filler_fn, &f))
		return -1;
	for (i = 0; i < rounds && !ret; i++) {
		if (wait_sleep(x->s, x->s->seq + 1) || pp_pin(0, park_cpu(), -1, -1) ||
		    write(f.go[1], "g", 1) != 1 || read(f.back[0], &c, 1) != 1)
			ret = -1;
		if (!ret && probe_once(x->r))
			ret = -1;
	}
	if (write(f.go[1], "q", 1) != 1)
		ret = -1;
	pthread_join(t, &rc);
	close(f.go[0]);
	close(f.go[1]);
	close(f.back[0]);
	close(f.back[1]);
	return ret ?: rc ? -1 : 0;
}

/*
 * The idle-core hint (has_idle_cores of the LLC): a scan that passes an
 * idle core over only because it is reserved must not clear it, or, once
 * the reservation lapses, wakeups settle for the idle SMT sibling of a
 * busy core while a whole core is idle.  Three cores of the LLC, B, C and
 * D: C holds two short sleepers (C0, C1); every other core of the LLC has
 * a spinner on its first CPU, so that no CPU entering idle sets the hint
 * again behind the scan's back; the probe sleeps on B0 (busy) and may run
 * on B0, B1, C0 and C1; main wakes it from D1.  Sleeps are HINT_SLEEP_X
 * times --sleep-us, and migration_cost_ns HINT_SLEEP_X times
 * --migration-cost meanwhile: with the spinners, emulation is too slow for
 * shorter windows.  A round: both sleepers block,
 * reserving C; probe 1 comes inside the reservation (it takes B1, its scan
 * passing C over), probe 2 after it lapsed, C still idle: with the hint
 * kept it takes C, with the hint lost it takes B1 (select_idle_smt() of
 * its busy previous CPU).  Counted: rounds whose probe 1 passed C over
 * (the round measured something), and of those, probe 2 not on C.
 */
#define HINT_SLEEP_X	5

struct hint_layout {
	int b0, b1, c0, c1, d1;
	cpu_set_t spin;
};

static int hint_find(struct hint_layout *l)
{
	const cpu_set_t *llc = &topo.llc[topo.max_cpu];
	int core[SCHED_TOPO_MAX_CPUS], nr = 0, cpu, i;

	CPU_ZERO(&l->spin);
	for (cpu = topo.max_cpu; cpu >= 0; cpu--) {
		if (!CPU_ISSET(cpu, llc) || CPU_COUNT(&topo.smt[cpu]) < 2)
			continue;
		for (i = 0; i < nr; i++)
			if (CPU_ISSET(cpu, &topo.smt[core[i]]))
				break;
		if (i == nr)
			core[nr++] = cpu;	/* the core's highest CPU */
	}
	if (nr < 3)
		return -1;
	/* D: the highest core, C and B the next two; cpu and its sibling. */
	for (i = 0; i < nr; i++) {
		int hi = core[i], lo = -1;

		for (cpu = 0; cpu < hi; cpu++)
			if (CPU_ISSET(cpu, &topo.smt[hi]))
				lo = cpu;
		if (lo < 0)
			return -1;
		if (i == 1) {
			l->c0 = lo;
			l->c1 = hi;
			continue;
		}
		/* Every other core busy: only a scan sets or clears the hint. */
		CPU_SET(lo, &l->spin);
		if (i == 0) {
			l->d1 = hi;
		} else if (i == 2) {
			l->b0 = lo;
			l->b1 = hi;
		}
	}
	return 0;
}

static int hint_round(struct hint_layout *l, struct shared *sl[2],
		      struct probe *q, int *valid, int *lost)
{
	struct ws_counts d;
	int i, cpu;
	int seq[2];

	/* Both sleepers block on their pipes: C idle and reserved. */
	for (i = 0; i < 2; i++)
		sl[i]->sleep_us = 0;
	for (i = 0; i < 2; i++)
		if (wait_piped(sl[i]))
			return -1;
	/*
	 * They blocked up to a sleep apart, and C0's reservation may lapse
	 * before C1's: wake both and let them block again, together.
	 */
	for (i = 0; i < 2; i++) {
		seq[i] = sl[i]->seq;
		if (pp_xfer(sl[i]->pipe[1], true))
			return -1;
	}
	for (i = 0; i < 2; i++)
		if (wait_sleep(sl[i], seq[i] + 1))
			return -1;
	if (probe_wake(q, &cpu, &d))
		return -1;
	if (ws_on ? d.passed_sum > 0 : cpu != l->c0 && cpu != l->c1) {
		(*valid)++;
		/* Past the reservation, inside the sleep. */
		pp_sleep_us(3 * HINT_SLEEP_X * sleep_us);
		if (probe_wake(q, &cpu, &d))
			return -1;
		*lost += cpu != l->c0 && cpu != l->c1;
	}
	for (i = 0; i < 2; i++) {
		sl[i]->sleep_us = HINT_SLEEP_X * sleep_us;
		if (pp_xfer(sl[i]->pipe[1], true))
			return -1;
	}
	for (i = 0; i < 2; i++)
		warm(sl[i], 3);
	return 0;
}

static int case_idle_core_hint(struct ctx *x)
{
	struct shared *sl[2] = { NULL, NULL };
	struct hint_layout l;
	struct probe q = { 0 };
	pthread_t t[2];
	int i, ret = 0, started = 0, valid = 0, lost = 0;
	void *rc;

	if (hint_find(&l)) {
		x->skip = "needs an LLC with 3 SMT cores";
		return 0;
	}
	q.prev = l.b0;
	q.waker = l.d1;
	q.park = l.d1;
	CPU_ZERO(&q.allowed);
	CPU_SET(l.b0, &q.allowed);
	CPU_SET(l.b1, &q.allowed);
	CPU_SET(l.c0, &q.allowed);
	CPU_SET(l.c1, &q.allowed);
	if (sched_tunable_set(MIGRATION_COST, HINT_SLEEP_X * high_cost) ||
	    pp_spinners_start(&l.spin) < 0)
		return -1;
	for (i = 0; i < 2 && !ret; i++) {
		sl[i] = shared_alloc();
		if (!sl[i]) {
			ret = -1;
		} else {
			sl[i]->home = i ? l.c1 : l.c0;
			sl[i]->sleep_us = HINT_SLEEP_X * sleep_us;
		}
		if (!ret && pthread_create(&t[i], NULL, sleeper_thread, sl[i]))
			ret = -1;
		started += !ret;
	}
	for (i = 0; i < started; i++) {
		while (!sl[i]->tid)
			sched_yield();
		warm(sl[i], warm_sleeps);
	}
	if (!ret && probe_start(&q))
		ret = -1;
	ksft_print_msg("idle_core_hint: B %d,%d, C %d,%d, waker on %d; %s %d CPU(s), B0 one\n",
		       l.b0, l.b1, l.c0, l.c1, l.d1, "spinners on",
		       CPU_COUNT(&l.spin));
	for (i = 0; i < rounds && !ret; i++)
		ret = hint_round(&l, sl, &q, &valid, &lost);
	if (q.tid && probe_stop(&q))
		ret = -1;
	for (i = 0; i < started; i++) {
		sl[i]->stop = 1;
		sl[i]->sleep_us = 1;
		if (write(sl[i]->pipe[1], "q", 1) != 1)
			ret = -1;
		pthread_join(t[i], &rc);
		close(sl[i]->pipe[0]);
		close(sl[i]->pipe[1]);
		munmap(sl[i], sizeof(*sl[i]));
	}
	pp_spinners_stop();
	if (sched_tunable_set(MIGRATION_COST, high_cost))
		ret = -1;
	/* Probe 1 passed C over: the round counts; probe 2 off C: hint lost. */
	x->r->recorded = valid;
	x->r->reserved = lost;
	x->r->n[PR_H0] = valid - lost;
	x->r->n[PR_H1] = lost;
	x->r->n[PR_OTHER] = rounds - valid;
	return ret;
}

struct scase {
	const char *name;
	int (*fn)(struct ctx *x);
	bool process;		/* the sleeper is a child process */
	bool reserved;		/* the probe should find H0 reserved */
	const char *what;
	bool own_actors;	/* no sleeper on H0: the case brings its own */
	/* What n[PR_H0], n[PR_H1], n[PR_OTHER] and reserved count. */
	const char *unit, *label[PR_NR], *counted;
};

#define PROBE_COUNTS	"probes", { "H0", "H1", "elsewhere" }, "H0 found reserved"

static const struct scase cases[] = {
	{ "control", case_control, false, true,
	  "an ordinary short sleeper reserves its CPU",
	  false, PROBE_COUNTS },
	{ "idle_policy", case_idle_policy, false, false,
	  "a SCHED_IDLE short sleeper reserves nothing",
	  false, PROBE_COUNTS },
	{ "stopped", case_stopped, true, false,
	  "a short sleeper stopped by SIGSTOP reserves nothing",
	  false, PROBE_COUNTS },
	{ "cost_lowered", case_cost_lowered, false, false,
	  "an average learned under a larger migration_cost_ns is capped by the current one",
	  false, PROBE_COUNTS },
	{ "cost_lowered_asleep", case_cost_lowered_asleep, false, false,
	  "a reservation longer than the current migration_cost_ns is stale",
	  false, PROBE_COUNTS },
	{ "owner_elsewhere", case_owner_elsewhere, false, false,
	  "the reservation ends when its owner is enqueued on another CPU",
	  false, PROBE_COUNTS },
	{ "other_picked", case_other_picked, false, false,
	  "the reservation ends when another task runs on the CPU",
	  false, PROBE_COUNTS },
	{ "idle_core_hint", case_idle_core_hint, false, false,
	  "an idle core passed over as reserved keeps the LLC's idle-core hint",
	  true, "rounds", { "probe 2 on C", "probe 2 on B1", "unmeasured" },
	  "idle core missed after the reservation" },
};

/*
 * Start the sleeper on H0, let it learn its average, run the case.  -1 on
 * an actor's failure; *@skip says why the case cannot run here.
 */
static int run_case(const struct scase *c, struct result *r, const char **skip)
{
	struct ctx x = { NULL, r, NULL };
	struct shared *s;
	pthread_t t;
	pid_t pid = 0;
	void *rc = NULL;
	int ret;

	memset(r, 0, sizeof(*r));
	if (c->own_actors) {
		ret = c->fn(&x);
		*skip = x.skip;
		return ret;
	}
	s = shared_alloc();
	x.s = s;
	if (!s)
		return -1;
	if (c->process) {
		pid = fork();
		if (pid < 0)
			return -1;
		if (!pid) {
			if (pp_pin(0, h0, -1, -1))
				_exit(1);
			sleeper_loop(s);
			_exit(0);
		}
	} else if (pthread_create(&t, NULL, sleeper_thread, s)) {
		return -1;
	}
	while (!s->tid)
		sched_yield();
	warm(s, warm_sleeps);
	ret = c->fn(&x);

	s->stop = 1;
	s->sleep_us = 1;
	if (write(s->pipe[1], "q", 1) != 1)
		ret = -1;
	if (pid) {
		kill(pid, SIGCONT);
		if (waitpid(pid, NULL, 0) != pid)
			ret = -1;
	} else {
		pthread_join(t, &rc);
		if (rc)
			ret = -1;
	}
	close(s->pipe[0]);
	close(s->pipe[1]);
	munmap(s, sizeof(*s));
	return ret;
}

/*
 * Expected: "reserved" in at least RESERVED_PCT of the probes, "not
 * reserved" in at most FREE_PCT.  The control's probes come 2 ms into a
 * 20-ms sleep whose reservation lasts about 20 ms, so a probe that misses
 * it is one that emulation delayed beyond the window.
 */
#define RESERVED_PCT	80.0
#define FREE_PCT	10.0

static bool judge(const struct scase *c, const struct result *r, bool control_ok)
{
	int n = r->n[PR_H0] + r->n[PR_H1] + r->n[PR_OTHER];
	double got = pct(r->reserved, r->recorded);
	bool ok;

	ksft_print_msg("%s: %s\n", c->name, c->what);
	ksft_print_msg("%s: %d %s: %s %d, %s %d, %s %d; ", c->name, n, c->unit,
		       c->label[PR_H0], r->n[PR_H0], c->label[PR_H1], r->n[PR_H1],
		       c->label[PR_OTHER], r->n[PR_OTHER]);
	printf("%s in %d of %d (%.0f%%, %s; want %s %.0f%%)\n", c->counted,
	       r->reserved, r->recorded, got,
	       ws_on ? "wakestat: scan passed a CPU over" : "landings",
	       c->reserved ? ">=" : "<=", c->reserved ? RESERVED_PCT : FREE_PCT);
	if (!r->recorded || r->recorded < n / 2) {
		ksft_print_msg("%s: only %d of %d %s measured anything\n", c->name,
			       r->recorded, n, c->unit);
		return false;
	}
	ok = c->reserved ? got >= RESERVED_PCT : got <= FREE_PCT;
	if (!c->reserved && !control_ok) {
		ksft_print_msg("%s: the control saw no reservation: nothing measured\n",
			       c->name);
		ok = false;
	}
	return ok;
}

static void list_cases(FILE *f)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		fprintf(f, "  %-20s %s\n", cases[i].name, cases[i].what);
}

static void print_help(FILE *f, const char *prog)
{
	fprintf(f,
		"usage: %s [options]\n"
		"  -t, --test NAME        run one case (and the control)\n"
		"  -l, --list             list the cases\n"
		"  -r, --rounds N         probes per case (default %d)\n"
		"  -s, --sleep-us US      the sleeper's sleep (default %d)\n"
		"  -m, --migration-cost NS  %s while the cases run (default %lld)\n"
		"cases:\n",
		prog, rounds, sleep_us, MIGRATION_COST, high_cost);
	list_cases(f);
}

static void cleanup(void)
{
	if (sched_features_restore())
		ksft_print_msg("warning: could not restore every sched feature and tunable\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "test",		required_argument, NULL, 't' },
		{ "list",		no_argument,       NULL, 'l' },
		{ "rounds",		required_argument, NULL, 'r' },
		{ "sleep-us",		required_argument, NULL, 's' },
		{ "migration-cost",	required_argument, NULL, 'm' },
		{ "help",		no_argument,       NULL, 'h' },
		{ }
	};
	struct ws_filter wf = { .comm = PROBE_COMM };
	const char *only = NULL, *why, *skip;
	bool run[ARRAY_SIZE(cases)], control_ok = false;
	unsigned int i, plan = 0;
	struct result r;
	int c, kmsg;

	while ((c = getopt_long(argc, argv, "t:lr:s:m:h", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			only = optarg;
			break;
		case 'l':
			list_cases(stdout);
			return 0;
		case 'r':
			rounds = atoi(optarg);
			break;
		case 's':
			sleep_us = atoi(optarg);
			break;
		case 'm':
			high_cost = atoll(optarg);
			break;
		case 'h':
			print_help(stdout, argv[0]);
			return 0;
		default:
			print_help(stderr, argv[0]);
			return KSFT_FAIL;
		}
	}
	if (rounds < 1 || sleep_us < 100 || high_cost <= sleep_us * 2000LL ||
	    optind < argc) {
		fprintf(stderr, "%s: bad option (%s)\n", argv[0],
			"the sleep must be shorter than half the migration cost");
		print_help(stderr, argv[0]);
		return KSFT_FAIL;
	}
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		run[i] = !only || !i || !strcmp(only, cases[i].name);
		plan += run[i];
	}
	if (only && plan < 2 && strcmp(only, cases[0].name)) {
		fprintf(stderr, "%s: no case '%s'; cases:\n", argv[0], only);
		list_cases(stderr);
		return KSFT_FAIL;
	}

	ksft_print_header();
	why = sched_feature_unusable("SIS_CACHE");
	if (why)
		ksft_exit_skip("%s\n", why);
	if (sched_topo_read(&topo, &why))
		ksft_exit_skip("%s\n", why);
	why = sched_topo_unknown(&topo, SCHED_TOPO_SMT | SCHED_TOPO_LLC);
	if (why)
		ksft_exit_skip("%s\n", why);
	if (find_layout())
		ksft_exit_skip("needs an LLC with 3 cores and a fourth CPU\n");
	if (sched_features_save() || sched_tunable_save(MIGRATION_COST))
		ksft_exit_fail_msg("cannot save sched features and tunables\n");
	atexit(cleanup);
	if (sched_feature_set("SIS_SYNC_CORE", false) < 0 &&
	    sched_feature_get("SIS_SYNC_CORE") >= 0)
		ksft_exit_fail_msg("cannot clear SIS_SYNC_CORE\n");
	if (sched_feature_set("SIS_CACHE", true) || sched_feature_get("SIS_CACHE") != 1 ||
	    sched_tunable_set(MIGRATION_COST, high_cost))
		ksft_exit_fail_msg("cannot set SIS_CACHE and %s\n", MIGRATION_COST);
	kmsg = kmsg_open_end();
	if (ws_trace_open(&ws, &wf)) {
		ksft_print_msg("wakestat unavailable (%s): counting landings on H1\n", ws.why);
	} else if (ws.fallback) {
		ksft_print_msg("%s: counting landings on H1\n",
			       "kernel without sched_select_task_rq_fair_tp");
		ws_trace_close(&ws);
	} else {
		ws_on = true;
	}
	ksft_set_plan(plan + 1);
	ksft_print_msg("H0 %d, H1 %d, probe's previous CPU P %d, park %d; ",
		       h0, h1, p0, park_cpu());
	printf("sleeps of %d us; %s %lld\n", sleep_us, MIGRATION_COST, high_cost);

	pr.prev = p0;
	pr.waker = p0;
	pr.park = park_cpu();
	CPU_ZERO(&pr.allowed);
	CPU_SET(p0, &pr.allowed);
	CPU_SET(h0, &pr.allowed);
	CPU_SET(h1, &pr.allowed);
	if (probe_start(&pr))
		ksft_exit_fail_msg("cannot start the probe thread\n");

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		bool ok;

		if (!run[i])
			continue;
		skip = NULL;
		if (run_case(&cases[i], &r, &skip)) {
			ksft_test_result_error("%s: an actor failed (%s)\n",
					       cases[i].name, strerror(errno));
			continue;
		}
		if (skip) {
			ksft_test_result_skip("%s: %s\n", cases[i].name, skip);
			continue;
		}
		ok = judge(&cases[i], &r, control_ok);
		if (!i)
			control_ok = ok;
		/* Every verdict here is a window caught or missed: a threshold. */
		placement_result(cases[i].name, true, ok);
	}
	if (probe_stop(&pr))
		ksft_print_msg("the probe thread failed\n");
	if (ws_on)
		ws_trace_close(&ws);
	if (kmsg < 0)
		ksft_test_result_skip("kernel_log_clean: cannot read /dev/kmsg\n");
	else
		ksft_test_result(!kmsg_warnings(kmsg), "kernel_log_clean\n");
	ksft_finished();
}
