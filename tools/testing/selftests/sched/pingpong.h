/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Ping-pong loads whose wakeups are synchronous (WF_SYNC): a pipe pair as
 * "perf bench sched pipe", and 1-byte TCP_RR and UDP_RR over loopback as
 * netperf.  Side A (the waker) sends a byte, side B (the wakee) answers.
 * For every round, the CPU A ran on when it sent and the CPU B woke up on
 * are recorded, so tests can classify where each wakee was placed.
 */
#ifndef __PINGPONG_H
#define __PINGPONG_H

#include <sched.h>
#include <stdbool.h>
#include <sys/types.h>

enum pp_load {
	PP_PIPE,
	PP_TCP_RR,
	PP_UDP_RR,
	PP_NR_LOADS,
};

struct pp_opts {
	enum pp_load load;
	int rounds;		/* recorded round trips */
	int warmup;		/* round trips run first and not recorded */
	bool pin_waker;		/* run A on waker_cpus only */
	cpu_set_t waker_cpus;
	bool pin_wakee;		/* run B on wakee_cpus only */
	cpu_set_t wakee_cpus;
	/*
	 * >= 0: after each recorded wakeup, B moves itself to this CPU and
	 * back to its own affinity before answering, so that its previous
	 * CPU at the next wakeup is this one (busy, if a spinner runs there).
	 */
	int wakee_hop_cpu;
	/*
	 * >= 0: A (B) starts on this CPU, then takes its affinity above (or
	 * the inherited one), so that the first wakeup finds it there.
	 */
	int waker_start_cpu;
	int wakee_start_cpu;
	/*
	 * A sends only once B is asleep, so that every A->B wakeup goes
	 * through select_task_rq() instead of finding B still queued.
	 */
	bool wakee_sleeps_first;
	int timeout_s;		/* whole run; 0: 600 */
	/*
	 * Run first in each side's process (@wakee: in B), before it places
	 * itself; nonzero fails the run.  E.g. to give a side its own core
	 * scheduling cookie.
	 */
	int (*child_init)(bool wakee);
};

/* Command names of the two sides, for tracers (wakestat -c). */
#define PP_WAKER_COMM	"pp-waker"
#define PP_WAKEE_COMM	"pp-wakee"

struct pp_sample {
	short waker_cpu;	/* where A ran when it sent the byte */
	short wakee_cpu;	/* where B ran when it received it */
};

struct pp_result {
	int n;
	struct pp_sample *samples;	/* n entries, free() when done */
	double seconds;			/* wall time of the recorded rounds */
};

const char *pp_load_name(enum pp_load load);

/* Time and affinity helpers for loads and tests. */
double pp_now(void);			/* CLOCK_MONOTONIC, seconds */
void pp_spin_us(int us);		/* busy for @us */
void pp_sleep_us(int us);		/* nanosleep(), resumed after signals */
/*
 * Allow @tid (0: the caller) CPU @a, and @b and @c where >= 0; returns as
 * sched_setaffinity().
 */
int pp_pin(pid_t tid, int a, int b, int c);

/*
 * The two endpoints of @load: A reads a[0] and writes a[1], B likewise b
 * (for sockets both are the same duplex socket).  The TCP pair has
 * TCP_NODELAY set; both socket pairs also carry streams.  0 or -errno.
 * pp_close() closes them.
 */
int pp_connect(enum pp_load load, int a[2], int b[2]);
void pp_close(int a[2], int b[2]);

/*
 * A TCP connection (TCP_NODELAY) to an echo peer elsewhere, "ADDR:PORT"
 * with an IPv4 ADDR: for loads whose wakeups come from a NIC.  An fd or
 * -errno (-EINVAL: not ADDR:PORT).
 */
int pp_echo_connect(const char *peer);

/* Send (@out) or receive one byte on @fd, retrying on EINTR.  0 or -1. */
int pp_xfer(int fd, bool out);

/*
 * In a forked load process: die with the parent, and drop the parent's
 * signal handlers (they would restore sched features mid-run).
 */
void pp_child_reset(void);

/*
 * fork() for load processes: flushes stdio first; the child has run
 * pp_child_reset() and exits at once if its parent is already gone.
 */
pid_t pp_fork(void);

/*
 * Fork A and B, run the load, collect samples.  0 or -errno; on any
 * failure, whatever it started is killed and reaped (never the caller's
 * other children).
 */
int pp_run(const struct pp_opts *o, struct pp_result *r);

/*
 * Wait until task @pid (a thread id works too) is blocked: state S or D
 * in /proc/<pid>/stat.  0, or -1 when it does not happen.
 */
int pp_wait_asleep(pid_t pid);

/*
 * Spinners: busy loops pinned one per CPU of @cpus, for making CPUs busy.
 * Returns the number started, or -errno with none of this call's left
 * running.  pp_spinners_stop() kills and reaps them all; it also runs at
 * exit.
 */
int pp_spinners_start(const cpu_set_t *cpus);
void pp_spinners_stop(void);

#endif /* __PINGPONG_H */
