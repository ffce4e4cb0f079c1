// SPDX-License-Identifier: GPL-2.0
/*
 * wakestat: where each wakeup landed, which branch of select_task_rq_fair()
 * chose it, how far the scan went, and how long the wakee waited to run.
 *
 * No BTF: the placement comes from the bare tracepoint
 * sched_select_task_rq_fair_tp (raw_tp, its record read as struct ws_rec),
 * wake->run latency from the sched_wakeup and sched_switch trace events
 * (their tracefs layouts).  Where the bare tracepoint is missing, user
 * space attaches sched_waking instead and sets fallback: placement is then
 * taken from the trace events, after core.c's fallback, and nothing is
 * known of branches, scans or invariants.
 * SIS_CACHE reservations come from the bare tracepoint sched_sis_cache_tp
 * (raw_tp: cpu, event, time left), where the kernel has it.
 */
#include <stdbool.h>
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "wakestat.h"

char LICENSE[] SEC("license") = "GPL";

/*
 * Set by user space: the filters and the topology before load, fallback
 * after attach.  Plain globals (.bss), read at run time.
 */
__s32 targ_tgid;			/* 0: any */
char targ_comm[WS_COMM_LEN];		/* "": any */
__u64 targ_cgroup;			/* 0: any */
struct ws_cpu_topo topo[WS_MAX_CPUS];
bool fallback;
/*
 * Offsets of pid and dest_cpu in sched_migrate_task's record, from its
 * tracefs format: its layout changed after 6.12 (comm became __data_loc).
 */
__u32 mig_pid_off;
__u32 mig_dest_off;

struct ws_task {
	__u64 wake_ts;		/* sched_wakeup, 0 once switched in */
	__s32 cpu;		/* the CPU chosen, -1: none */
	__s32 waker_cpu;	/* fallback: from sched_waking */
	__s32 prev_cpu;
	__u8 decided;		/* a placement since the last sched_wakeup */
	__u8 waking;		/* fallback: sched_waking seen */
	__u8 moved;		/* migrated off cpu after sched_wakeup */
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, WS_MAX_TASKS);
	__type(key, __s32);
	__type(value, struct ws_task);
} tasks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ws_counts);
} counts SEC(".maps");

/* The common header of a trace event record (tracefs "format"). */
struct ev_common {
	__u16 type;
	__u8 flags;
	__u8 preempt_count;
	__s32 pid;
};

struct ev_wakeup {		/* sched_waking, sched_wakeup */
	struct ev_common c;
	char comm[WS_COMM_LEN];
	__s32 pid;
	__s32 prio;
	__s32 target_cpu;
};

struct ev_switch {
	struct ev_common c;
	char prev_comm[WS_COMM_LEN];
	__s32 prev_pid;
	__s32 prev_prio;
	long prev_state;
	char next_comm[WS_COMM_LEN];
	__s32 next_pid;
	__s32 next_prio;
};

static __always_inline struct ws_counts *get_counts(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&counts, &zero);
}

static __always_inline bool comm_match(const char *comm)
{
	int i;

	if (!targ_comm[0])
		return true;
	for (i = 0; i < WS_COMM_LEN; i++) {
		if (comm[i] != targ_comm[i])
			return false;
		if (!comm[i])
			break;
	}
	return true;
}

static __always_inline unsigned int log2_u64(__u64 v)
{
	unsigned int r = 0, s;

	s = (v > 0xffffffffULL) << 5; v >>= s; r |= s;
	s = (v > 0xffff) << 4; v >>= s; r |= s;
	s = (v > 0xff) << 3; v >>= s; r |= s;
	s = (v > 0xf) << 2; v >>= s; r |= s;
	s = (v > 0x3) << 1; v >>= s; r |= s;
	r |= (v >> 1);
	return r;
}

/* slot 0: 0; slot k: [2^(k-1), 2^k) */
static __always_inline unsigned int log2_slot(__u64 v)
{
	unsigned int s = v ? log2_u64(v) + 1 : 0;

	return s < WS_LOG2_SLOTS ? s : WS_LOG2_SLOTS - 1;
}

/* Below 8: the value; else 8 linear sub-buckets per power of 2. */
static __always_inline unsigned int lat_slot(__u64 v)
{
	unsigned int msb, s;

	if (v < WS_LAT_SUB)
		return v;
	msb = log2_u64(v);
	s = (msb - 2) * WS_LAT_SUB + ((v >> (msb - 3)) & (WS_LAT_SUB - 1));
	return s < WS_LAT_SLOTS ? s : WS_LAT_SLOTS - 1;
}

static __always_inline enum ws_rel relation(__s32 from, __s32 to)
{
	if (from == to)
		return WS_REL_SAME_CPU;
	/* Two checks the verifier sees, not one on (from | to). */
	if ((__u32)from >= WS_MAX_CPUS)
		return WS_REL_OTHER_NODE;
	barrier_var(to);
	if ((__u32)to >= WS_MAX_CPUS)
		return WS_REL_OTHER_NODE;
	if (topo[from].core == topo[to].core)
		return WS_REL_SMT;
	if (topo[from].llc == topo[to].llc)
		return WS_REL_LLC;
	if (topo[from].node == topo[to].node)
		return WS_REL_OTHER_LLC;
	return WS_REL_OTHER_NODE;
}

static __always_inline void count_placement(struct ws_counts *c, __s32 waker,
					    __s32 prev, __s32 cpu)
{
	enum ws_rel r;

	r = relation(waker, cpu);
	if (r < WS_REL_NR)
		c->rel_waker[r]++;
	r = relation(prev, cpu);
	if (r < WS_REL_NR)
		c->rel_prev[r]++;
	if (cpu != prev)
		c->migrations++;
}

SEC("raw_tp/sched_select_task_rq_fair_tp")
int on_select(__u64 *ctx)
{
	struct ws_task t = { .cpu = -1 }, *tp;
	struct ws_counts *c = get_counts();
	struct ws_rec r;
	unsigned int b;

	if (!c)
		return 0;
	if (bpf_probe_read_kernel(&r, sizeof(r), (void *)ctx[1]))
		return 0;
	if (r.size != sizeof(r)) {
		c->bad_size++;
		return 0;
	}
	/* Fork and exec balancing are not wakeups. */
	if (!(r.wake_flags & WS_WF_TTWU))
		return 0;
	if ((targ_tgid && r.tgid != targ_tgid) || !comm_match(r.comm) ||
	    (targ_cgroup && r.cgroup_id != targ_cgroup))
		return 0;

	b = r.branch < WS_BR_MAX ? r.branch : WS_BR_UNKNOWN;
	c->decided++;
	c->branch[b]++;
	if (r.wake_flags & WS_WF_SYNC)
		c->branch_sync[b]++;
	if (r.nr_running == 1)
		c->branch_alone[b]++;
	if (!r.allowed)
		c->outside[b]++;
	if (!r.active)
		c->inactive[b]++;
	if (r.waker_ctx < WS_CTX_NR) {
		c->ctx[r.waker_ctx]++;
		c->ctx_branch[r.waker_ctx][b]++;
	}
	count_placement(c, r.waker_cpu, r.prev_cpu, r.cpu);
	c->scan[log2_slot(r.nr_scanned)]++;
	c->scan_sum += r.nr_scanned;
	c->passed[log2_slot(r.nr_passed)]++;
	c->passed_sum += r.nr_passed;
	c->scan_n[r.nr_scanned < WS_EXACT_SLOTS - 1 ? r.nr_scanned : WS_EXACT_SLOTS - 1]++;
	c->passed_n[r.nr_passed < WS_EXACT_SLOTS - 1 ? r.nr_passed : WS_EXACT_SLOTS - 1]++;

	tp = bpf_map_lookup_elem(&tasks, &r.pid);
	if (!tp) {
		t.cpu = r.cpu;
		t.decided = 1;
		if (bpf_map_update_elem(&tasks, &r.pid, &t, BPF_ANY))
			c->dropped++;
		return 0;
	}
	tp->cpu = r.cpu;
	tp->decided = 1;
	tp->moved = 0;
	return 0;
}

/* Fallback only: the waker's CPU and prev, as the trace event saw them. */
SEC("tracepoint/sched/sched_waking")
int on_waking(struct ev_wakeup *e)
{
	struct ws_task t = { .cpu = -1 }, *tp;
	struct ws_counts *c = get_counts();
	__s32 pid = e->pid;

	if (!c || !fallback)
		return 0;
	if ((targ_tgid && pid != targ_tgid) || !comm_match(e->comm))
		return 0;
	tp = bpf_map_lookup_elem(&tasks, &pid);
	if (!tp) {
		if (bpf_map_update_elem(&tasks, &pid, &t, BPF_ANY)) {
			c->dropped++;
			return 0;
		}
		tp = bpf_map_lookup_elem(&tasks, &pid);
		if (!tp)
			return 0;
	}
	tp->waker_cpu = bpf_get_smp_processor_id();
	tp->prev_cpu = e->target_cpu;
	tp->waking = 1;
	return 0;
}

SEC("tracepoint/sched/sched_wakeup")
int on_wakeup(struct ev_wakeup *e)
{
	struct ws_task t = { .cpu = -1 }, *tp;
	struct ws_counts *c = get_counts();
	__s32 pid = e->pid;

	if (!c)
		return 0;
	tp = bpf_map_lookup_elem(&tasks, &pid);
	if (!tp) {
		/*
		 * Never placed since wakestat started (or its state was
		 * evicted): a wakee of ours only if the filters that the
		 * event can check say so; a cgroup filter needs a decision.
		 */
		if (fallback || targ_cgroup ||
		    (targ_tgid && pid != targ_tgid) || !comm_match(e->comm))
			return 0;
		if (bpf_map_update_elem(&tasks, &pid, &t, BPF_ANY)) {
			c->dropped++;
			return 0;
		}
		tp = bpf_map_lookup_elem(&tasks, &pid);
		if (!tp)
			return 0;
	}
	if (fallback) {
		if (!tp->waking)
			return 0;
		tp->waking = 0;
		c->wakeups++;
		count_placement(c, tp->waker_cpu, tp->prev_cpu, e->target_cpu);
	} else if (!tp->decided) {
		if (e->prio < 100)
			c->undecided_other++;
		else
			c->undecided_fair++;
		tp->cpu = -1;
	}
	tp->decided = 0;
	tp->wake_ts = bpf_ktime_get_ns();
	return 0;
}

SEC("tracepoint/sched/sched_switch")
int on_switch(struct ev_switch *e)
{
	struct ws_counts *c = get_counts();
	__s32 pid = e->next_pid;
	struct ws_task *tp;
	__u64 d;

	if (!c)
		return 0;
	tp = bpf_map_lookup_elem(&tasks, &pid);
	if (!tp || !tp->wake_ts)
		return 0;
	d = bpf_ktime_get_ns() - tp->wake_ts;
	tp->wake_ts = 0;
	c->lat[lat_slot(d)]++;
	c->lat_n++;
	if (tp->cpu >= 0) {
		if (tp->cpu == (__s32)bpf_get_smp_processor_id())
			c->agree++;
		else if (tp->moved)
			c->moved++;
		else
			c->disagree++;
		tp->cpu = -1;
		tp->moved = 0;
	}
	return 0;
}

/*
 * A wakee enqueued on the chosen CPU (sched_wakeup seen) and moved off it
 * before it ran: load balancing or an affinity change, not a wrong record.
 * The wakeup's own move (prev -> chosen, or core.c's fallback) comes
 * before sched_wakeup and is not counted here.
 */
SEC("tracepoint/sched/sched_migrate_task")
int on_migrate(void *ctx)
{
	struct ws_task *tp;
	__s32 pid, dest;

	if (bpf_probe_read_kernel(&pid, sizeof(pid), (char *)ctx + mig_pid_off) ||
	    bpf_probe_read_kernel(&dest, sizeof(dest), (char *)ctx + mig_dest_off))
		return 0;
	tp = bpf_map_lookup_elem(&tasks, &pid);
	if (tp && tp->cpu >= 0 && tp->wake_ts && dest != tp->cpu)
		tp->moved = 1;
	return 0;
}

/*
 * SIS_CACHE reservations (sched_sis_cache_tp: cpu, event, ns left in the
 * window), of every task: the tracepoint names no task to filter on.
 */
SEC("raw_tp/sched_sis_cache_tp")
int on_cache(__u64 *ctx)
{
	struct ws_counts *c = get_counts();
	__u32 ev = ctx[1];
	__s64 left = ctx[2];

	if (!c || ev >= WS_CE_NR)
		return 0;
	c->cache[ev][left > 0]++;
	if (ev == WS_CE_RESERVE) {
		unsigned int s = log2_slot(left > 0 ? (__u64)left / 1000 : 0);

		/* The verifier must see the bound the compiler folded away. */
		barrier_var(s);
		if (s < WS_LOG2_SLOTS)
			c->cache_window[s]++;
	}
	return 0;
}
