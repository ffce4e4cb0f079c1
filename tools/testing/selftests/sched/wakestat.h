/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wakestat: shared by the BPF program (wakestat.bpf.c) and user space.
 *
 * The kernel side is the bare tracepoint sched_select_task_rq_fair_tp of
 * the wakeup placement series.  wakestat reads it without BTF (raw_tp), so
 * the record and the branch numbers are mirrored here: both are
 * append-only in the kernel, and the record carries its size.
 */
#ifndef __WAKESTAT_H
#define __WAKESTAT_H

#define WS_MAX_CPUS		256	/* SCHED_TOPO_MAX_CPUS */
#define WS_COMM_LEN		16
#define WS_LOG2_SLOTS		32	/* slot 0: 0; slot k: [2^(k-1), 2^k) */
#define WS_EXACT_SLOTS		65	/* exact counts below 64: the longest scan */
#define WS_LAT_SUB		8	/* latency: 8 sub-buckets per power of 2 */
#define WS_LAT_SLOTS		512
#define WS_MAX_TASKS		16384	/* per-wakee state, LRU */

/* wake_flags, kernel/sched/sched.h */
#define WS_WF_TTWU		0x08
#define WS_WF_SYNC		0x10

/* enum sched_wake_branch, kernel/sched/sched.h */
enum ws_branch {
	WS_BR_UNKNOWN,
	WS_BR_CURRENT,
	WS_BR_EAS,
	WS_BR_SLOW,
	WS_BR_NO_LLC,
	WS_BR_TARGET,
	WS_BR_PREV,
	WS_BR_KTHREAD,
	WS_BR_RECENT,
	WS_BR_ASYM,
	WS_BR_IDLE_SMT,
	WS_BR_IDLE_CORE,
	WS_BR_IDLE_CPU,
	WS_BR_PREV_AFF,
	WS_BR_RECENT_AFF,
	WS_BR_NONE,
	WS_BR_SYNC_SIBLING,	/* SIS_SYNC_CORE */
	WS_BR_RESERVED,		/* SIS_CACHE */
	WS_BR_KNOWN,		/* branches this tool has names for */
	WS_BR_MAX = 32,		/* counted up to here, by number */
};

/*
 * enum sched_wake_ctx, kernel/sched/sched.h: what ran on the waker's CPU
 * when the wakeup was placed.
 */
enum ws_ctx {
	WS_CTX_TASK,		/* a task, in process context */
	WS_CTX_SOFTIRQ,		/* softirq on top of a task that is no kthread */
	WS_CTX_HARDIRQ,		/* a hard interrupt or NMI */
	WS_CTX_KTHREAD,		/* a kthread: ksoftirqd, a NAPI thread, a worker */
	WS_CTX_NR,
};

/*
 * enum sched_sis_cache_event, kernel/sched/sched.h: what the bare tracepoint
 * sched_sis_cache_tp (cpu, event, ns left in the window) reports of a
 * SIS_CACHE reservation.
 */
enum ws_cache_ev {
	WS_CE_RESERVE,		/* made: a short sleeper left its CPU idle */
	WS_CE_OWNER,		/* ended: the owner is enqueued again */
	WS_CE_PICKED,		/* ended: another task picked on the CPU */
	WS_CE_NEWIDLE,		/* newidle balance pulled tasks onto it */
	WS_CE_BALANCE,		/* periodic balance pulled tasks onto it */
	WS_CE_NR,
};

/* struct sched_wake_stat, kernel/sched/sched.h */
struct ws_rec {
	__u32 size;
	__s32 pid;
	__s32 tgid;
	__s32 waker_cpu;
	__u64 cgroup_id;
	char comm[WS_COMM_LEN];
	__s32 prev_cpu;
	__s32 target;
	__s32 cpu;
	__u32 wake_flags;
	__u32 nr_running;
	__u16 branch;
	__u8 allowed;
	__u8 active;
	__u32 nr_scanned;
	__u32 nr_passed;	/* SIS_CACHE: reserved idle CPUs passed over */
	__u8 waker_ctx;		/* enum ws_ctx */
};

/* Where a wakee was placed, relative to its waker's CPU or its prev. */
enum ws_rel {
	WS_REL_SAME_CPU,
	WS_REL_SMT,		/* an SMT sibling */
	WS_REL_LLC,		/* same LLC, another core */
	WS_REL_OTHER_LLC,	/* same node, another LLC */
	WS_REL_OTHER_NODE,
	WS_REL_NR,
};

/* The topology wakestat classifies with: ids of each CPU's core, LLC, node. */
struct ws_cpu_topo {
	__s16 core;
	__s16 llc;
	__s16 node;
	__s16 pad;
};

/*
 * Counts, in a BPF per-CPU array (plain increments: a CPU's programs do not
 * nest here), summed by user space.  "Decided"
 * wakeups are those select_task_rq_fair() placed (WF_TTWU): the others
 * (still queued, incl. delayed dequeue; one allowed CPU; migration
 * disabled; other classes) are counted in undecided_*.
 */
struct ws_counts {
	__u64 decided;
	__u64 branch[WS_BR_MAX];
	__u64 branch_sync[WS_BR_MAX];	/* of those, WF_SYNC wakeups */
	__u64 branch_alone[WS_BR_MAX];	/* of those, the waker was alone */
	__u64 outside[WS_BR_MAX];	/* chose a CPU outside the mask */
	__u64 inactive[WS_BR_MAX];	/* chose an inactive CPU */
	__u64 ctx[WS_CTX_NR];		/* by the waker's context */
	__u64 ctx_branch[WS_CTX_NR][WS_BR_MAX];
	__u64 rel_waker[WS_REL_NR];
	__u64 rel_prev[WS_REL_NR];
	__u64 migrations;		/* chosen != prev */
	__u64 scan[WS_LOG2_SLOTS];
	__u64 scan_sum;
	__u64 passed[WS_LOG2_SLOTS];
	__u64 passed_sum;
	__u64 undecided_fair;
	__u64 undecided_other;		/* RT/DL wakees (prio < 100) */
	__u64 agree;			/* next switch-in on the chosen CPU */
	__u64 disagree;			/* ran elsewhere, never moved off it */
	__u64 moved;			/* migrated off it after the wakeup enqueued it */
	__u64 lat[WS_LAT_SLOTS];	/* wakeup -> switch-in, ns */
	__u64 lat_n;
	__u64 dropped;			/* per-wakee state not stored */
	__u64 bad_size;			/* records of a size not understood */
	__u64 wakeups;			/* fallback mode: sched_wakeup events */
	__u64 cache[WS_CE_NR][2];	/* SIS_CACHE, all tasks: [event][in window] */
	__u64 cache_window[WS_LOG2_SLOTS];	/* windows of reservations made, us */
	__u64 scan_n[WS_EXACT_SLOTS];	/* by CPUs examined: 0 .. 63, 64 or more */
	__u64 passed_n[WS_EXACT_SLOTS];	/* by CPUs passed over, likewise */
};

#endif /* __WAKESTAT_H */
