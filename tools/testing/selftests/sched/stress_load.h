/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loads for the stress tests: processes that keep every CPU waking tasks
 * up until they are told to stop, counting what they did.
 *
 *  - ping-pong pairs (pipe, TCP_RR and UDP_RR in turn, one byte each way:
 *    synchronous wakeups, SIS_SYNC_CORE's case), one pair per two CPUs;
 *  - a hackbench group: senders each writing 100-byte messages to every
 *    receiver over AF_UNIX stream socket pairs (many short sleeps,
 *    SIS_CACHE's case);
 *  - a TCP stream over loopback, 64 KiB writes (a wakeup per buffer).
 *
 * Each load process counts its operations in shared memory.  sl_stop()
 * sends SIGTERM, which interrupts the blocking call the process is in;
 * the process then exits 0.  A load that does not exit in time is stuck:
 * sl_stop() kills it and reports it.
 */
#ifndef __STRESS_LOAD_H
#define __STRESS_LOAD_H

#include <stdbool.h>
#include <sys/types.h>

#define SL_MAX_PROCS	128
#define SL_COMM		"sl-load"	/* every load process's name */

struct sl_proc {
	pid_t pid;
	char what[24];		/* e.g. "pipe pair 0 A" */
};

struct sl_loads {
	int nr;
	struct sl_proc proc[SL_MAX_PROCS];
	unsigned long long *ops;	/* shared: nr counters */
};

/*
 * Start the loads sized for @nr_cpus CPUs.  0, or -errno with whatever
 * was started stopped again.
 */
int sl_start(struct sl_loads *l, int nr_cpus);

/* Operations done so far, by all loads; and the fewest by one load. */
unsigned long long sl_ops(const struct sl_loads *l, unsigned long long *least);

/*
 * Stop every load and reap it.  Returns how many did not finish: killed
 * after @grace_s seconds, or exited with a failure (each is printed).
 */
int sl_stop(struct sl_loads *l, int grace_s);

/* Monotonic seconds. */
double sl_now(void);

/* Write @s to the file @path (a cgroup or sysfs knob): 0 or -errno. */
int sl_write_str(const char *path, const char *s);

/* Does the first line of @path (e.g. cgroup.controllers) hold @word? */
bool sl_file_has_word(const char *path, const char *word);

/* What each stress test takes: -d SECONDS, -n GOAL (its count to reach). */
struct sl_args {
	int secs;			/* run at least this long */
	unsigned long long goal;	/* and until the count reaches this */
};

/*
 * Parse -d/-n/-h for a test that @does; @count names what -n counts.
 * Exits on -h (0) and on bad usage (KSFT_FAIL).
 */
void sl_parse(int argc, char **argv, struct sl_args *a, const char *does,
	      const char *count);

/* Is the run over: @secs elapsed since @t0 and @n at the goal? */
bool sl_done(const struct sl_args *a, double t0, unsigned long long n);

/*
 * Turn on each of SIS_SYNC_CORE and SIS_CACHE the kernel has (after
 * sched_features_save()); their names, or "none (kernel without the
 * series)", in @buf.  0 or -errno.
 */
int sl_series_on(char *buf, size_t len);

struct ws_counts;
/*
 * The series' branches (sync-sibling, reserved) chose no CPU outside the
 * wakee's mask and no inactive CPU.  Prints the counts of every branch
 * that did (the stock branches may: core.c's fallback mends those) and
 * returns false if a series' branch did.
 */
bool sl_ws_series_clean(const struct ws_counts *c, const char *name);

/*
 * The stock branches' choices outside the mask and of inactive CPUs, in
 * chunks of SL_CHUNK_S seconds: make test-full compares them, chunk by
 * chunk, with the kernel of the tracepoint patch alone (stockcmp).  A CPU
 * going offline draws a burst of such choices into one chunk; a rank test
 * over the chunks is not moved by one burst, a test over the summed counts
 * is.
 */
#define SL_CHUNK_S	5.0

struct ws_trace;
struct sl_chunks {
	struct ws_trace *ws;	/* NULL: no wakestat, no chunks */
	const char *name;
	struct ws_counts *last;
	double t_last;
	unsigned int n;
};

/* Start chunking @ws's counts, @start those read at the start. */
int sl_chunks_begin(struct sl_chunks *c, struct ws_trace *ws, const char *name,
		    const struct ws_counts *start);
/*
 * Print a chunk line if SL_CHUNK_S seconds have passed since the last one
 * (the remainder at the end, shorter, is not a chunk):
 * "NAME chunk J: D decided; BRANCH N/O/I; ..." with each stock branch
 * that chose a CPU: N choices, O outside the mask, I inactive.
 */
void sl_chunks_tick(struct sl_chunks *c);
void sl_chunks_end(struct sl_chunks *c);

#endif /* __STRESS_LOAD_H */
