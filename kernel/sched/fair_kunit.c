// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for wakeup placement helpers of the fair class.  Included at
 * the end of fair.c (the helpers are static) when
 * CONFIG_SCHED_FAIR_KUNIT_TEST is set; run at boot.
 *
 * Helpers are exercised on synthetic CPU masks, independent of the machine
 * the test runs on.
 */
#include <kunit/test.h>

/* SIS_CACHE: the short-sleep average, reservations, the scan's passes and pick. */

static void short_sleep_avg_update(struct kunit *test)
{
	u64 avg = 0;
	int i;

	/* Short sleeps pull the average toward them, 1/8 at a time. */
	__update_short_sleep_avg(&avg, 80000, 500000);
	KUNIT_EXPECT_EQ(test, avg, 10000ULL);
	for (i = 0; i < 100; i++)
		__update_short_sleep_avg(&avg, 80000, 500000);
	KUNIT_EXPECT_GE(test, avg, 79000ULL);
	KUNIT_EXPECT_LE(test, avg, 80000ULL);

	/* A sleep of exactly the limit is long: it halves the average. */
	avg = 80000;
	__update_short_sleep_avg(&avg, 500000, 500000);
	KUNIT_EXPECT_EQ(test, avg, 40000ULL);

	/* Long sleeps decay it to nothing, so the task stops reserving. */
	for (i = 0; i < 64; i++)
		__update_short_sleep_avg(&avg, 10000000, 500000);
	KUNIT_EXPECT_EQ(test, avg, 0ULL);
}

static void short_sleep_avg_limit(struct kunit *test)
{
	u64 avg = 0;
	int i;

	/* With a lower limit (migration_cost_ns), the same sleep is long. */
	for (i = 0; i < 20; i++)
		__update_short_sleep_avg(&avg, 80000, 500000);
	KUNIT_EXPECT_GT(test, avg, 0ULL);
	__update_short_sleep_avg(&avg, 80000, 50000);
	KUNIT_EXPECT_LT(test, avg, 80000ULL / 2 + 1);
}

static void sis_reserve_window(struct kunit *test)
{
	/* From the sleep's start, for the average. */
	KUNIT_EXPECT_EQ(test, __sis_reserve_until(1000, 300, 500000), 1300ULL);
	/* Never beyond the current migration cost. */
	KUNIT_EXPECT_EQ(test, __sis_reserve_until(1000, 30000000, 500000),
			501000ULL);
	KUNIT_EXPECT_EQ(test, __sis_reserve_until(1000, 500000, 500000),
			501000ULL);
}

static void sis_reserved_predicate(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, __sis_cpu_reserved(1000, 1300, 500000));
	KUNIT_EXPECT_FALSE(test, __sis_cpu_reserved(1300, 1300, 500000));
	KUNIT_EXPECT_FALSE(test, __sis_cpu_reserved(2000, 1300, 500000));
	/* Never reserved. */
	KUNIT_EXPECT_FALSE(test, __sis_cpu_reserved(5, 0, 500000));
	/* Reaching further than the current migration cost: stale. */
	KUNIT_EXPECT_TRUE(test, __sis_cpu_reserved(1000, 501000, 500000));
	KUNIT_EXPECT_FALSE(test, __sis_cpu_reserved(1000, 501001, 500000));
	KUNIT_EXPECT_FALSE(test, __sis_cpu_reserved(1000, 50001000, 500000));
}

/* Work conservation: an idle CPU, reserved or not, beats no answer. */
static void sis_pick_fallback(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, __sis_pick(3, -1), 3);
	KUNIT_EXPECT_EQ(test, __sis_pick(3, 1), 3);
	KUNIT_EXPECT_EQ(test, __sis_pick(-1, 1), 1);
	KUNIT_EXPECT_EQ(test, __sis_pick(-1, -1), -1);
}

/* Passing over may take half of what the scan may visit, no more. */
static void sis_pass_limit(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, __sis_pass_limit(8), 4);
	KUNIT_EXPECT_EQ(test, __sis_pass_limit(3), 1);
	/* A budget of one CPU: that CPU is taken, reserved or not. */
	KUNIT_EXPECT_EQ(test, __sis_pass_limit(1), 0);
	KUNIT_EXPECT_EQ(test, __sis_pass_limit(0), 0);
}

/*
 * Every idle CPU of a 16-CPU LLC is reserved (the pathological case): the
 * scan, fed them in order, passes over the first budget / 2 and takes the
 * next; the first one passed over stays the fallback.
 */
static void sis_pass_bounded(struct kunit *test)
{
	struct sis_scan ss = { .first = -1, .left = __sis_pass_limit(16) };
	int cpu, passed = 0;

	for (cpu = 4; cpu < 20; cpu++) {
		if (!__sis_pass(&ss, cpu, true))
			break;
		passed++;
	}
	KUNIT_EXPECT_EQ(test, passed, 8);
	KUNIT_EXPECT_EQ(test, cpu, 12);
	KUNIT_EXPECT_EQ(test, ss.first, 4);
	KUNIT_EXPECT_EQ(test, ss.left, 0);

	/* Unreserved CPUs are never passed over and cost nothing. */
	ss = (struct sis_scan){ .first = -1, .left = 2 };
	KUNIT_EXPECT_FALSE(test, __sis_pass(&ss, 3, false));
	KUNIT_EXPECT_EQ(test, ss.left, 2);
	KUNIT_EXPECT_EQ(test, ss.first, -1);

	/* SIS_CACHE off: no share at all, nothing is passed over. */
	ss = (struct sis_scan){ .first = -1, .left = 0 };
	KUNIT_EXPECT_FALSE(test, __sis_pass(&ss, 3, true));
	KUNIT_EXPECT_EQ(test, ss.first, -1);
}

static struct kunit_case sched_fair_sis_cache_cases[] = {
	KUNIT_CASE(short_sleep_avg_update),
	KUNIT_CASE(short_sleep_avg_limit),
	KUNIT_CASE(sis_reserve_window),
	KUNIT_CASE(sis_reserved_predicate),
	KUNIT_CASE(sis_pick_fallback),
	KUNIT_CASE(sis_pass_limit),
	KUNIT_CASE(sis_pass_bounded),
	{}
};

static struct kunit_suite sched_fair_sis_cache_suite = {
	.name = "sched_fair_sis_cache",
	.test_cases = sched_fair_sis_cache_cases,
};

kunit_test_suite(sched_fair_sis_cache_suite);

#ifdef CONFIG_SCHED_SMT

#define SIS_TEST_CPUS	4

struct sis_masks {
	struct cpumask *smt, *allowed, *span, *idle;
};

static void set_cpus(struct cpumask *mask, unsigned long bits)
{
	int cpu;

	cpumask_clear(mask);
	for (cpu = 0; cpu < SIS_TEST_CPUS; cpu++) {
		if (bits & BIT(cpu))
			cpumask_set_cpu(cpu, mask);
	}
}

static int sis_test_init(struct kunit *test)
{
	struct sis_masks *m;

	if (nr_cpumask_bits < SIS_TEST_CPUS)
		kunit_skip(test, "needs %d CPU ids, have %u", SIS_TEST_CPUS,
			   nr_cpumask_bits);

	m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m);
	m->smt = kunit_kzalloc(test, cpumask_size(), GFP_KERNEL);
	m->allowed = kunit_kzalloc(test, cpumask_size(), GFP_KERNEL);
	m->span = kunit_kzalloc(test, cpumask_size(), GFP_KERNEL);
	m->idle = kunit_kzalloc(test, cpumask_size(), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m->smt);
	KUNIT_ASSERT_NOT_NULL(test, m->allowed);
	KUNIT_ASSERT_NOT_NULL(test, m->span);
	KUNIT_ASSERT_NOT_NULL(test, m->idle);

	/* 4 CPUs in one LLC, all allowed; each case sets SMT and idle. */
	set_cpus(m->allowed, GENMASK(SIS_TEST_CPUS - 1, 0));
	set_cpus(m->span, GENMASK(SIS_TEST_CPUS - 1, 0));
	test->priv = m;
	return 0;
}

/* The predicate of these cases: @cpu is in the test's idle mask. */
static bool in_mask(int cpu, void *mask)
{
	return cpumask_test_cpu(cpu, mask);
}

/* The sibling walk SIS_SYNC_CORE and select_idle_smt() share. */
static int pick(struct sis_masks *m, int waker)
{
	return __select_idle_smt(waker, m->smt, m->allowed, m->span, in_mask,
				 m->idle);
}

/* Siblings numbered next to each other: {0,1}, {2,3} (POWER, qemu). */
static void sync_sibling_contiguous(struct kunit *test)
{
	struct sis_masks *m = test->priv;

	set_cpus(m->smt, BIT(2) | BIT(3));
	set_cpus(m->idle, BIT(0) | BIT(1) | BIT(3));
	KUNIT_EXPECT_EQ(test, pick(m, 2), 3);

	/* Waker on the highest thread: the sibling below, not core 0. */
	set_cpus(m->idle, BIT(0) | BIT(1) | BIT(2));
	KUNIT_EXPECT_EQ(test, pick(m, 3), 2);
}

/* Siblings nr_cores apart: {0,2}, {1,3} (most x86). */
static void sync_sibling_strided(struct kunit *test)
{
	struct sis_masks *m = test->priv;

	set_cpus(m->smt, BIT(1) | BIT(3));
	set_cpus(m->idle, BIT(0) | BIT(2) | BIT(3));
	KUNIT_EXPECT_EQ(test, pick(m, 1), 3);

	set_cpus(m->idle, BIT(0) | BIT(1) | BIT(2));
	KUNIT_EXPECT_EQ(test, pick(m, 3), 1);
}

/* SMT4: the lowest idle allowed sibling, wherever the waker sits. */
static void sync_sibling_smt4(struct kunit *test)
{
	struct sis_masks *m = test->priv;

	set_cpus(m->smt, BIT(0) | BIT(1) | BIT(2) | BIT(3));
	set_cpus(m->idle, BIT(1) | BIT(3));
	KUNIT_EXPECT_EQ(test, pick(m, 2), 1);
	KUNIT_EXPECT_EQ(test, pick(m, 0), 1);
	KUNIT_EXPECT_EQ(test, pick(m, 1), 3);
}

static void sync_sibling_affinity(struct kunit *test)
{
	struct sis_masks *m = test->priv;

	set_cpus(m->smt, BIT(0) | BIT(1) | BIT(2));
	set_cpus(m->idle, BIT(1) | BIT(2) | BIT(3));
	/* The wakee may not run on sibling 1: take sibling 2. */
	set_cpus(m->allowed, BIT(2) | BIT(3));
	KUNIT_EXPECT_EQ(test, pick(m, 0), 2);
	/* No allowed sibling at all: no answer, even with CPU 3 idle. */
	set_cpus(m->allowed, BIT(3));
	KUNIT_EXPECT_EQ(test, pick(m, 0), -1);
}

static void sync_sibling_none_idle(struct kunit *test)
{
	struct sis_masks *m = test->priv;

	set_cpus(m->smt, BIT(2) | BIT(3));
	set_cpus(m->idle, BIT(0) | BIT(1));
	KUNIT_EXPECT_EQ(test, pick(m, 2), -1);
}

/* The waker's own CPU is never the answer, even when it looks idle. */
static void sync_sibling_not_waker(struct kunit *test)
{
	struct sis_masks *m = test->priv;

	set_cpus(m->smt, BIT(2) | BIT(3));
	set_cpus(m->idle, BIT(2));
	KUNIT_EXPECT_EQ(test, pick(m, 2), -1);
}

/* No SMT: the sibling mask is the waker alone. */
static void sync_sibling_no_smt(struct kunit *test)
{
	struct sis_masks *m = test->priv;

	set_cpus(m->smt, BIT(3));
	set_cpus(m->idle, BIT(0) | BIT(1) | BIT(2));
	KUNIT_EXPECT_EQ(test, pick(m, 3), -1);
}

/* A sibling outside the LLC domain (isolcpus) is not a candidate. */
static void sync_sibling_outside_span(struct kunit *test)
{
	struct sis_masks *m = test->priv;

	set_cpus(m->smt, BIT(0) | BIT(2));
	set_cpus(m->idle, BIT(2));
	set_cpus(m->span, BIT(0) | BIT(1));
	KUNIT_EXPECT_EQ(test, pick(m, 0), -1);
}

static struct kunit_case sched_fair_sis_cases[] = {
	KUNIT_CASE(sync_sibling_contiguous),
	KUNIT_CASE(sync_sibling_strided),
	KUNIT_CASE(sync_sibling_smt4),
	KUNIT_CASE(sync_sibling_affinity),
	KUNIT_CASE(sync_sibling_none_idle),
	KUNIT_CASE(sync_sibling_not_waker),
	KUNIT_CASE(sync_sibling_no_smt),
	KUNIT_CASE(sync_sibling_outside_span),
	{}
};

static struct kunit_suite sched_fair_sis_suite = {
	.name = "sched_fair_sis",
	.init = sis_test_init,
	.test_cases = sched_fair_sis_cases,
};

kunit_test_suite(sched_fair_sis_suite);

#endif /* CONFIG_SCHED_SMT */
