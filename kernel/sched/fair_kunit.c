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

static int pick(struct sis_masks *m, int waker)
{
	return __select_idle_sync_sibling(waker, m->smt, m->allowed, m->span,
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
