// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of stats.c against reference values computed by R 4.2.2, and
 * command-line tests of abstat (installed next to this test).
 *
 * The comment above each reference value is the R command that printed
 * it (with options(digits = 17)); the data sets are the R assignments in
 * the comments above the arrays, to be run first.  Closed-form results
 * must agree to a relative 1e-9, the bootstrap to its Monte-Carlo error.
 *
 * Each test runs in a child process under alarm(), so that a hang or a
 * crash fails that test instead of stopping the suite.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../kselftest.h"
#include "stats.h"

/* relative tolerance of closed-form results, 1e-9 */
#define REL	(1 / 1e9)

/* per test, s: a unit test, one that runs abstat (each run killed after) */
#define TEST_TIMEOUT	10
#define ABSTAT_TEST_TIMEOUT	60
#define ABSTAT_TIMEOUT	10

/*
 * perf bench sched pipe, us/op, baseline and patched: the ranges a tester
 * reported (1.136-1.550, 1.20-1.45); the values between are illustrative.
 */
/* R: tx <- c(1.136, 1.550, 1.201, 1.302, 1.418) */
static const double tx[] = { 1.136, 1.550, 1.201, 1.302, 1.418 };
/* R: ty <- c(1.20, 1.45, 1.27, 1.33, 1.39) */
static const double ty[] = { 1.20, 1.45, 1.27, 1.33, 1.39 };

/* Clearly separated, no ties. */
/* R: sx <- c(1.1, 1.3, 1.2, 1.5, 1.4, 1.0) */
static const double sx[] = { 1.1, 1.3, 1.2, 1.5, 1.4, 1.0 };
/* R: sy <- c(2.1, 1.9, 2.3, 2.0, 2.2, 1.8, 2.4) */
static const double sy[] = { 2.1, 1.9, 2.3, 2.0, 2.2, 1.8, 2.4 };

/* Overlapping, no ties. */
/* R: ox <- c(3.1, 4.7, 2.2, 5.9, 3.8, 4.1) */
static const double ox[] = { 3.1, 4.7, 2.2, 5.9, 3.8, 4.1 };
/* R: oy <- c(4.4, 6.2, 3.5, 5.1, 6.8, 4.9, 5.5) */
static const double oy[] = { 4.4, 6.2, 3.5, 5.1, 6.8, 4.9, 5.5 };

/* Integers with ties within and across the samples. */
/* R: kx <- c(1, 2, 2, 3, 3, 3, 4, 5) */
static const double kx[] = { 1, 2, 2, 3, 3, 3, 4, 5 };
/* R: ky <- c(2, 3, 4, 4, 5, 5, 6, 7, 7) */
static const double ky[] = { 2, 3, 4, 4, 5, 5, 6, 7, 7 };

/* For the bootstrap: 20 runs an arm, some ties. */
/*
 * R: bx <- c(1.371, 1.199, 1.319, 1.318, 1.258, 1.396, 1.257, 1.235, 1.367,
 *            1.255, 1.340, 1.348, 1.192, 1.337, 1.318, 1.267, 1.388, 1.234,
 *            1.251, 1.375)
 */
static const double bx[] = {
	1.371, 1.199, 1.319, 1.318, 1.258, 1.396, 1.257, 1.235, 1.367, 1.255,
	1.340, 1.348, 1.192, 1.337, 1.318, 1.267, 1.388, 1.234, 1.251, 1.375,
};

/*
 * R: by <- c(1.413, 1.265, 1.319, 1.425, 1.307, 1.281, 1.408, 1.354, 1.268,
 *            1.370, 1.390, 1.282, 1.326, 1.403, 1.317, 1.292, 1.390, 1.359,
 *            1.280, 1.355)
 */
static const double by[] = {
	1.413, 1.265, 1.319, 1.425, 1.307, 1.281, 1.408, 1.354, 1.268, 1.370,
	1.390, 1.282, 1.326, 1.403, 1.317, 1.292, 1.390, 1.359, 1.280, 1.355,
};

/*
 * v[i - 1] = a + f(b i) + c i for i = 1..n, evaluated in the same order as
 * the R expression a + f(b * (1:n)) + c * (1:n), so that both get the same
 * doubles from the same libm.
 */
static void gen(double *v, int n, double a, double (*f)(double), double b,
		double c)
{
	int i;

	for (i = 1; i <= n; i++)
		v[i - 1] = a + f(b * i) + c * i;
}

/* got within tol of want, relative (rel) or absolute; print if not */
static bool near(const char *what, double got, double want, double tol,
		 bool rel)
{
	double err = fabs(got - want);

	if (got == want || err <= (rel ? tol * fabs(want) : tol))
		return true;
	ksft_print_msg("%s: expected %.17g, got %.17g\n", what, want, got);
	return false;
}

static bool same_int(const char *what, long got, long want)
{
	if (got == want)
		return true;
	ksft_print_msg("%s: expected %ld, got %ld\n", what, want, got);
	return false;
}

static bool check_mw(const char *what, const double *x, int nx,
		     const double *y, int ny, double w, double p, bool exact)
{
	struct stats_mw mw;
	bool ok;

	if (!same_int(what, stats_mann_whitney(x, nx, y, ny, &mw), 0))
		return false;
	ok = near(what, mw.w, w, REL, true);
	ok &= near(what, mw.p, p, REL, true);
	ok &= same_int(what, mw.exact, exact);
	return ok;
}

static bool test_median_quantile(void)
{
	static const double v[] = { 3, 1, 4, 1, 5, 9 };
	static const double tx_sorted[] = { 1.136, 1.201, 1.302, 1.418, 1.550 };
	static const double v_sorted[] = { 1, 1, 3, 4, 5, 9 };
	static const double q[] = { 0, 0.1, 0.25, 0.5, 0.9, 1 };
	/* R: quantile(tx, c(0, 0.1, 0.25, 0.5, 0.9, 1), type = 7) */
	static const double qt[] = { 1.136, 1.162, 1.201, 1.302, 1.4972, 1.55 };
	double c[ARRAY_SIZE(v)];
	bool ok = true;
	unsigned int i;

	/* R: median(tx) */
	ok &= near("median tx", stats_median(tx, 5), 1.302, REL, true);
	/* R: median(ty) */
	ok &= near("median ty", stats_median(ty, 5), 1.33, REL, true);
	memcpy(c, v, sizeof(v));
	/* R: median(c(3, 1, 4, 1, 5, 9)) */
	ok &= near("median even n", stats_median(c, 6), 3.5, REL, true);
	ok &= same_int("median leaves x alone", !memcmp(c, v, sizeof(v)), 1);

	for (i = 0; i < ARRAY_SIZE(q); i++)
		ok &= near("quantile tx", stats_quantile(tx_sorted, 5, q[i]),
			   qt[i], REL, true);
	/* R: quantile(c(3, 1, 4, 1, 5, 9), 0.33, type = 7) */
	ok &= near("quantile 0.33", stats_quantile(v_sorted, 6, 0.33),
		   2.3000000000000007, REL, true);
	/* R: quantile(c(3, 1, 4, 1, 5, 9), 0.975, type = 7) */
	ok &= near("quantile 0.975", stats_quantile(v_sorted, 6, 0.975), 8.5,
		   REL, true);
	return ok;
}

static bool test_mean_sd_cv(void)
{
	bool ok = true;

	/* R: mean(tx) */
	ok &= near("mean tx", stats_mean(tx, 5), 1.3214, REL, true);
	/* R: sd(tx) */
	ok &= near("sd tx", stats_sd(tx, 5), 0.16645960470937088, REL, true);
	/* R: sd(tx) / abs(mean(tx)) */
	ok &= near("cv tx", stats_cv(tx, 5), 0.12597215431313069, REL, true);
	/* R: sd(ty) / abs(mean(ty)) */
	ok &= near("cv ty", stats_cv(ty, 5), 0.073856625513489316, REL, true);
	return ok;
}

static bool test_mw_exact(void)
{
	bool ok = true;

	/* R: wilcox.test(tx, ty)[c("statistic", "p.value")] */
	ok &= check_mw("MW tx ty", tx, 5, ty, 5, 12, 1, true);
	/* R: wilcox.test(ty, tx)[c("statistic", "p.value")] */
	ok &= check_mw("MW ty tx", ty, 5, tx, 5, 13, 1, true);
	/* R: wilcox.test(sx, sy)[c("statistic", "p.value")] */
	ok &= check_mw("MW sx sy", sx, 6, sy, 7, 0, 0.0011655011655011655,
		       true);
	/* R: wilcox.test(sy, sx)[c("statistic", "p.value")] */
	ok &= check_mw("MW sy sx", sy, 7, sx, 6, 42, 0.0011655011655011655,
		       true);
	/* R: wilcox.test(ox, oy)[c("statistic", "p.value")] */
	ok &= check_mw("MW ox oy", ox, 6, oy, 7, 9, 0.10139860139860139, true);
	/* R: wilcox.test(oy, ox)[c("statistic", "p.value")] */
	ok &= check_mw("MW oy ox", oy, 7, ox, 6, 33, 0.10139860139860139,
		       true);
	return ok;
}

static bool test_mw_exact_small(void)
{
	static const double one[] = { 1 }, two[] = { 2 };
	static const double a[] = { 1, 2 }, b[] = { 3, 4, 5 };
	static const double c[] = { 5, 6, 7 }, d[] = { 1, 2 };
	double x[49], y[49];
	bool ok = true;
	int i;

	/* R: wilcox.test(1, 2)[c("statistic", "p.value")] */
	ok &= check_mw("MW 1 v 1", one, 1, two, 1, 0, 1, true);
	/* R: wilcox.test(c(1, 2), c(3, 4, 5))[c("statistic", "p.value")] */
	ok &= check_mw("MW 2 v 3", a, 2, b, 3, 0, 0.2, true);
	/* R: wilcox.test(c(5, 6, 7), c(1, 2))[c("statistic", "p.value")] */
	ok &= check_mw("MW 3 v 2", c, 3, d, 2, 6, 0.2, true);

	/*
	 * The largest exact case, no ties (the smallest gap is 1.9e-4):
	 * R: ex <- 5 + cos(0.7 * (1:49)); ey <- 5.3 + sin(1.1 * (1:45))
	 * R: min(diff(sort(c(ex, ey))))
	 * R: wilcox.test(ex, ey)[c("statistic", "p.value")]
	 */
	gen(x, 49, 5, cos, 0.7, 0);
	gen(y, 45, 5.3, sin, 1.1, 0);
	ok &= check_mw("MW 49 v 45", x, 49, y, 45, 813, 0.028247616996513694,
		       true);

	/* far tail, p = 2 / choose(98, 49): the counts exceed 2^53 */
	for (i = 0; i < 49; i++) {
		x[i] = i + 1;
		y[i] = i + 50;
	}
	/*
	 * R: wilcox.test(1:49, 50:98)[c("statistic", "p.value")]
	 * R: choose(98, 49)
	 */
	ok &= check_mw("MW 49 v 49 apart", x, 49, y, 49, 0,
		       2 / 2.5477612258980968e28, true);
	return ok;
}

static bool test_mw_ties(void)
{
	static const double e[] = { 1, 2, 3 };
	bool ok = true;

	/* R: wilcox.test(kx, ky)[c("statistic", "p.value")] */
	ok &= check_mw("MW kx ky", kx, 8, ky, 9, 13.5, 0.031758957148063732,
		       false);
	/* R: wilcox.test(ky, kx)[c("statistic", "p.value")] */
	ok &= check_mw("MW ky kx", ky, 9, kx, 8, 58.5, 0.031758957148063732,
		       false);
	/* W = nx ny / 2, no continuity correction */
	/* R: wilcox.test(c(1, 2, 3), c(1, 2, 3))[c("statistic", "p.value")] */
	ok &= check_mw("MW identical", e, 3, e, 3, 4.5, 1, false);
	return ok;
}

static bool test_mw_large(void)
{
	double x[60], y[60];
	bool ok = true;

	/*
	 * No ties (the smallest gap is 3.7e-5):
	 * R: lx <- 10 + sin(1:60) + 0.01 * (1:60)
	 * R: ly <- 10.2 + cos(1.7 * (1:60)) + 0.01 * (1:60)
	 * R: min(diff(sort(c(lx, ly))))
	 * R: wilcox.test(lx, ly)[c("statistic", "p.value")]
	 */
	gen(x, 60, 10, sin, 1, 0.01);
	gen(y, 60, 10.2, cos, 1.7, 0.01);
	ok &= check_mw("MW 60 v 60", x, 60, y, 60, 1547, 0.18507786899885978,
		       false);

	/*
	 * nx = 50, no ties: no longer exact
	 * R: ex <- 5 + cos(0.7 * (1:50)); ey <- 5.3 + sin(1.1 * (1:30))
	 * R: min(diff(sort(c(ex, ey))))
	 * R: wilcox.test(ex, ey)[c("statistic", "p.value")]
	 */
	gen(x, 50, 5, cos, 0.7, 0);
	gen(y, 30, 5.3, sin, 1.1, 0);
	ok &= check_mw("MW 50 v 30", x, 50, y, 30, 516, 0.020311594176004387,
		       false);
	return ok;
}

static bool test_holm(void)
{
	static const double p1[] = { 0.01, 0.04, 0.03, 0.005, 0.2 };
	/* R: p.adjust(c(0.01, 0.04, 0.03, 0.005, 0.2), "holm") */
	static const double a1[] = { 0.04, 0.09, 0.09, 0.025, 0.2 };
	static const double p2[] = { 0.02, 0.5, 0.02, 0.3 };
	/* R: p.adjust(c(0.02, 0.5, 0.02, 0.3), "holm") */
	static const double a2[] = { 0.08, 0.6, 0.08, 0.6 };
	static const double p3[] = { 0.3, 0.9 };
	/* R: p.adjust(c(0.3, 0.9), "holm") */
	static const double a3[] = { 0.6, 0.9 };
	double adj[5];
	bool ok = true;
	int i;

	stats_holm(p1, 5, adj);
	for (i = 0; i < 5; i++)
		ok &= near("holm p1", adj[i], a1[i], REL, true);
	stats_holm(p2, 4, adj);
	for (i = 0; i < 4; i++)
		ok &= near("holm p2 (ties)", adj[i], a2[i], REL, true);
	stats_holm(p3, 2, adj);
	for (i = 0; i < 2; i++)
		ok &= near("holm p3", adj[i], a3[i], REL, true);
	/* R: p.adjust(0.3, "holm") */
	stats_holm(p3, 1, adj);
	ok &= near("holm n = 1", adj[0], 0.3, REL, true);
	return ok;
}

static bool test_boot_vs_r(void)
{
	double lo, hi;
	bool ok;

	ok = same_int("boot", stats_boot_ratio_ci(bx, 20, by, 20, 20000, 1,
						  0.95, &lo, &hi), 0);
	/*
	 * R's percentile bootstrap with 100000 resamples, itself within
	 * 2e-4 of the same with set.seed(2):
	 *
	 * R: m <- function(v) median(sample(v, replace = TRUE))
	 * R: set.seed(1)
	 * R: r <- replicate(1e5, m(by) / m(bx))
	 * R: quantile(r, c(0.025, 0.975), type = 7)
	 *
	 * Over seeds 1..200, the 20000-resample bounds of stats.c differ from
	 * these by an rms 3e-4 (lo) and 6.5e-4 (hi), at most 1.0e-3 and
	 * 2.5e-3.  An absolute 3e-3 is above that spread, and below the 4e-3
	 * and 5e-3 moves of hi and lo from a 90% level instead of 95%.
	 */
	ok &= near("boot lo", lo, 0.97990140310959428, 0.003, false);
	ok &= near("boot hi", hi, 1.0821371610845294, 0.003, false);
	/* R: median(by) / median(bx) */
	ok &= same_int("boot lo < ratio < hi",
		       lo < 1.0166919575113809 && 1.0166919575113809 < hi, 1);
	return ok;
}

static bool test_boot_determinism(void)
{
	static const double cx[] = { 2, 2, 2, 2 }, cy[] = { 3, 3, 3 };
	double lo, hi, lo2, hi2;
	bool ok = true;

	stats_boot_ratio_ci(bx, 20, by, 20, 2000, 7, 0.95, &lo, &hi);
	stats_boot_ratio_ci(bx, 20, by, 20, 2000, 7, 0.95, &lo2, &hi2);
	ok &= same_int("boot same seed, same bounds",
		       lo == lo2 && hi == hi2, 1);
	stats_boot_ratio_ci(bx, 20, by, 20, 2000, 8, 0.95, &lo2, &hi2);
	ok &= same_int("boot other seed, other bounds",
		       lo != lo2 || hi != hi2, 1);

	/* constant data: every resample gives exactly 3 / 2 */
	stats_boot_ratio_ci(cx, 4, cy, 3, 1000, 1, 0.95, &lo, &hi);
	ok &= near("boot constant lo", lo, 1.5, 0, false);
	ok &= near("boot constant hi", hi, 1.5, 0, false);
	return ok;
}

static bool test_runs_needed(void)
{
	bool ok = true;

	/*
	 * R: delta <- median(ty) - median(tx); sdp <- sqrt((4 * var(tx) +
	 *    4 * var(ty)) / 8); ceiling(2 * (qnorm(0.975) + qnorm(0.8))^2 *
	 *    sdp^2 / delta^2 * pi / 3)
	 */
	ok &= same_int("runs tx ty", stats_runs_needed(tx, 5, ty, 5), 392);
	/*
	 * R: delta <- median(by) - median(bx); sdp <- sqrt((19 * var(bx) +
	 *    19 * var(by)) / 38); ceiling(2 * (qnorm(0.975) + qnorm(0.8))^2 *
	 *    sdp^2 / delta^2 * pi / 3)
	 */
	ok &= same_int("runs bx by", stats_runs_needed(bx, 20, by, 20), 118);
	/* the other way round: the same |delta| */
	ok &= same_int("runs by bx", stats_runs_needed(by, 20, bx, 20), 118);
	return ok;
}

static bool test_edge_cases(void)
{
	static const double one[] = { 1.25 }, zero_mean[] = { -1, 1 };
	static const double c2[] = { 2, 2, 2 }, c1[] = { 1, 1, 1 };
	struct stats_mw mw;
	double lo, hi;
	bool ok = true;

	ok &= near("median n = 1", stats_median(one, 1), 1.25, 0, false);
	ok &= near("quantile n = 1", stats_quantile(one, 1, 0.3), 1.25, 0,
		   false);
	ok &= near("mean n = 1", stats_mean(one, 1), 1.25, 0, false);
	ok &= near("sd n = 1", stats_sd(one, 1), 0, 0, false);
	ok &= near("cv mean 0", stats_cv(zero_mean, 2), 0, 0, false);

	/*
	 * All values equal: R's p-value is NaN (sigma = 0), stats.c's is 1.
	 * R: wilcox.test(c(2, 2, 2), c(2, 2))[c("statistic", "p.value")]
	 */
	ok &= check_mw("MW all equal", c2, 3, c2, 2, 3, 1, false);
	ok &= same_int("MW nx = 0", stats_mann_whitney(c2, 0, c2, 2, &mw),
		       -EINVAL);
	ok &= same_int("MW ny = 0", stats_mann_whitney(c2, 2, c2, 0, &mw),
		       -EINVAL);

	ok &= same_int("runs equal medians", stats_runs_needed(tx, 5, tx, 5),
		       -1);
	ok &= same_int("runs sd 0", stats_runs_needed(c1, 3, c2, 3), 2);
	ok &= same_int("runs 1 v 1", stats_runs_needed(one, 1, one, 1),
		       -EINVAL);

	ok &= same_int("boot 0 resamples",
		       stats_boot_ratio_ci(bx, 20, by, 20, 0, 1, 0.95, &lo,
					   &hi), -EINVAL);
	ok &= same_int("boot level 1",
		       stats_boot_ratio_ci(bx, 20, by, 20, 100, 1, 1, &lo,
					   &hi), -EINVAL);
	ok &= same_int("boot x with 0",
		       stats_boot_ratio_ci(zero_mean, 2, by, 20, 100, 1, 0.95,
					   &lo, &hi), -EINVAL);
	return ok;
}

/* Paired log-ratios: 12 rounds, no ties, no zeros. */
/*
 * R: pd1 <- c(0.012, -0.004, 0.021, 0.008, 0.015, -0.002, 0.030, 0.011,
 *             0.006, 0.019, -0.009, 0.014)
 */
static const double pd1[] = {
	0.012, -0.004, 0.021, 0.008, 0.015, -0.002, 0.030, 0.011, 0.006,
	0.019, -0.009, 0.014,
};

/* Ties and two zeros. */
/* R: pd3 <- c(0.01, 0.01, 0, -0.02, 0.03, 0.01, 0, 0.05, -0.01, 0.02) */
static const double pd3[] = {
	0.01, 0.01, 0, -0.02, 0.03, 0.01, 0, 0.05, -0.01, 0.02,
};

/*
 * R's Walsh averages, sorted, for the interval's order statistics:
 * R: wa <- function(d) { dd <- outer(d, d, "+")
 * R:                     sort(dd[!lower.tri(dd)] / 2) }
 */

static bool check_sr(const char *what, const double *d, int n, double level,
		     double v, double p, bool exact, double est, double lo,
		     double hi, double achieved)
{
	struct stats_sr s;
	bool ok;

	if (!same_int(what, stats_signed_rank(d, n, level, &s), 0))
		return false;
	ok = near(what, s.v, v, REL, true);
	ok &= near(what, s.p, p, REL, true);
	ok &= same_int(what, s.exact, exact);
	ok &= near(what, s.est, est, REL, true);
	ok &= near(what, s.lo, lo, REL, true);
	ok &= near(what, s.hi, hi, REL, true);
	ok &= near(what, s.level, achieved, REL, true);
	return ok;
}

static bool test_sr_exact(void)
{
	double neg[ARRAY_SIZE(pd1)];
	unsigned int i;
	bool ok;

	/*
	 * R: w <- wilcox.test(pd1, conf.int = TRUE)
	 * R: c(w$statistic, w$p.value, w$conf.int, w$estimate)
	 * R: 1 - 2 * psignrank(qsignrank(0.025, 12) - 1, 12)
	 */
	ok = check_sr("SR pd1", pd1, 12, 0.95, 70, 0.0122070312500000087,
		      true, 0.0104999999999999989, 0.0025000000000000005,
		      0.0175000000000000017, 0.95751953125);
	for (i = 0; i < ARRAY_SIZE(pd1); i++)
		neg[i] = -pd1[i];
	/* R: w <- wilcox.test(-pd1, conf.int = TRUE); as above */
	ok &= check_sr("SR -pd1", neg, 12, 0.95, 8, 0.0122070312500000087,
		       true, -0.0104999999999999989, -0.0175000000000000017,
		       -0.0025000000000000005, 0.95751953125);
	/*
	 * R: w <- wilcox.test(pd1, conf.int = TRUE, conf.level = 0.9)
	 * R: c(w$conf.int)
	 * R: 1 - 2 * psignrank(qsignrank(0.05, 12) - 1, 12)
	 */
	ok &= check_sr("SR pd1 90%", pd1, 12, 0.9, 70, 0.0122070312500000087,
		       true, 0.0104999999999999989, 0.0040000000000000001,
		       0.016, 0.90771484375);
	return ok;
}

static bool test_sr_small(void)
{
	double pt[ARRAY_SIZE(tx)];
	unsigned int i;
	bool ok;

	/*
	 * The tester's five runs as pairs: 95% is out of reach with 5, the
	 * widest interval achieves 1 - 2 / 2^5 (R keeps printing 0.95 there).
	 * R: pt <- log(ty / tx)
	 * R: w <- wilcox.test(pt, conf.int = TRUE)
	 * R: c(w$statistic, w$p.value, w$conf.int, w$estimate)
	 */
	for (i = 0; i < ARRAY_SIZE(tx); i++)
		pt[i] = log(ty[i] / tx[i]);
	ok = check_sr("SR tester", pt, 5, 0.95, 9, 0.8125, true,
		      0.017432277763829912, -0.066691374498672282,
		      0.055862357372653368, 0.9375);
	/* R: 2 / 2^12; 2 / choose(10, 5); 2 / choose(98, 49) */
	ok &= near("SR min p 12", stats_signed_rank_min_p(12), 0.00048828125,
		   REL, true);
	ok &= near("SR min p 1", stats_signed_rank_min_p(1), 1, REL, true);
	ok &= near("MW min p 5 5", stats_mann_whitney_min_p(5, 5),
		   0.0079365079365079361, REL, true);
	ok &= near("MW min p 49 49", stats_mann_whitney_min_p(49, 49),
		   7.8500291929632906 / 1e29, REL, true);
	return ok;
}

static bool test_sr_ties(void)
{
	double d[60];
	int i;

	/*
	 * Ties and zeros: the normal approximation, as R; the interval from
	 * the exact quantiles (R: a root search, not compared).
	 * R: w <- wilcox.test(pd3, conf.int = TRUE)
	 * R: c(w$statistic, w$p.value)
	 * R: median(wa(pd3)); q <- qsignrank(0.025, 10)
	 * R: c(wa(pd3)[q], wa(pd3)[55 - q + 1], 1 - 2 * psignrank(q - 1, 10))
	 */
	if (!check_sr("SR pd3", pd3, 10, 0.95, 28, 0.1774752705962329702,
		      false, 0.01, -0.0050000000000000001,
		      0.0250000000000000014, 0.951171875))
		return false;
	/*
	 * n >= 50: R's p is the normal approximation.
	 * R: pd4 <- 0.01 + 0.02 * sin(1:60)
	 * R: w <- wilcox.test(pd4, conf.int = TRUE)
	 * R: c(w$statistic, w$p.value)
	 * R: median(wa(pd4)); q <- qsignrank(0.025, 60)
	 * R: c(wa(pd4)[q], wa(pd4)[1830 - q + 1], 1 - 2 * psignrank(q - 1, 60))
	 */
	for (i = 0; i < 60; i++)
		d[i] = 0.01 + 0.02 * sin(i + 1);
	return check_sr("SR pd4", d, 60, 0.95, 1510, 1.2061513296175717 / 1e5,
			false, 0.010295427714850463, 0.0071173319251067024,
			0.0141980301040406792, 1 - 0.049281505984361339);
}

static bool test_sr_edge(void)
{
	static const double zeros[] = { 0, 0, 0 }, one[] = { 0.5 };
	static const double bad[] = { 0.1, NAN };
	struct stats_sr s;
	bool ok;

	/* all zero: no evidence, p 1, the interval [0, 0] */
	ok = same_int("SR zeros", stats_signed_rank(zeros, 3, 0.95, &s), 0);
	ok &= near("SR zeros p", s.p, 1, 0, false);
	ok &= near("SR zeros est", s.est, 0, 0, false);
	ok &= same_int("SR zeros nz", s.nz, 0);
	ok &= same_int("SR one", stats_signed_rank(one, 1, 0.95, &s), 0);
	ok &= near("SR one p", s.p, 1, 0, false);
	ok &= near("SR one level", s.level, 0, 0, false);
	ok &= same_int("SR n 0", stats_signed_rank(one, 0, 0.95, &s), -EINVAL);
	ok &= same_int("SR level 1", stats_signed_rank(one, 1, 1, &s), -EINVAL);
	ok &= same_int("SR NaN", stats_signed_rank(bad, 2, 0.95, &s), -EINVAL);
	/*
	 * R: ceiling((qnorm(0.975) + qnorm(0.8))^2 * var(pd1) /
	 * R:         median(pd1)^2 * pi / 3)
	 */
	ok &= same_int("pairs pd1", stats_pairs_needed(pd1, 12), 8);
	ok &= same_int("pairs zeros", stats_pairs_needed(zeros, 3), -1);
	ok &= same_int("pairs n 1", stats_pairs_needed(one, 1), -EINVAL);
	return ok;
}

static bool test_null_p_cdf(void)
{
	static const double t[] = { 0.01, 0.05, 0.1, 0.5, 1 };
	/*
	 * R: sr <- function(n) { v <- 0:(n * (n + 1) / 2)
	 * R:   p <- pmin(1, 2 * pmin(psignrank(v, n),
	 * R:                         psignrank(v - 1, n, lower.tail = FALSE)))
	 * R:   d <- dsignrank(v, n)
	 * R:   sapply(c(0.01, 0.05, 0.1, 0.5, 1), function(t) sum(d[p <= t])) }
	 * R: sr(12); sr(5)
	 */
	static const double sr12[] = {
		0.0092773437500000087, 0.0424804687500000347,
		0.0922851562500000694, 0.4697265625000003331, 1,
	};
	static const double sr5[] = { 0, 0, 0.0625, 0.4375, 1 };
	/*
	 * R: mw <- function(m, n) { w <- 0:(m * n)
	 * R:   p <- pmin(1, 2 * pmin(pwilcox(w, m, n),
	 * R:                         pwilcox(w - 1, m, n, lower.tail = FALSE)))
	 * R:   d <- dwilcox(w, m, n)
	 * R:   sapply(c(0.01, 0.05, 0.1, 0.5, 1), function(t) sum(d[p <= t])) }
	 * R: mw(12, 12)
	 */
	static const double mw12[] = {
		0.0082931606016812629, 0.0449019952990877755,
		0.0887337860685552121, 0.4775752582321434181, 1,
	};
	double c[ARRAY_SIZE(t)];
	unsigned int i;
	bool ok = true;

	ok &= same_int("null SR 12", stats_null_p_cdf(12, 0, t, 5, c), 0);
	for (i = 0; i < ARRAY_SIZE(t); i++)
		ok &= near("null SR 12", c[i], sr12[i], REL, true);
	ok &= same_int("null SR 5", stats_null_p_cdf(5, 0, t, 5, c), 0);
	for (i = 0; i < ARRAY_SIZE(t); i++)
		ok &= near("null SR 5", c[i], sr5[i], 1 / 1e12, false);
	ok &= same_int("null MW 12 12", stats_null_p_cdf(12, 12, t, 5, c), 0);
	for (i = 0; i < ARRAY_SIZE(t); i++)
		ok &= near("null MW 12 12", c[i], mw12[i], REL, true);
	ok &= same_int("null n 0", stats_null_p_cdf(0, 0, t, 5, c), -EINVAL);
	ok &= same_int("null n 201", stats_null_p_cdf(201, 0, t, 5, c), -EINVAL);
	return ok;
}

static bool test_permute(void)
{
	unsigned long long s1 = 7, s2 = 7;
	int a[20], b[20], seen[20] = { 0 }, i;
	bool ok = true;

	stats_permute(a, 20, &s1);
	stats_permute(b, 20, &s2);
	for (i = 0; i < 20; i++) {
		ok &= same_int("permute: same seed, same order", a[i], b[i]);
		if (a[i] >= 0 && a[i] < 20)
			seen[a[i]]++;
	}
	for (i = 0; i < 20; i++)
		ok &= same_int("permute: each index once", seen[i], 1);
	/* the state moved on: the next permutation differs */
	stats_permute(b, 20, &s2);
	for (i = 0; i < 20 && a[i] == b[i]; i++)
		;
	ok &= same_int("permute: state advanced", i < 20, 1);
	return ok;
}

static bool is_nan(const char *what, double got)
{
	if (isnan(got))
		return true;
	ksft_print_msg("%s: expected NaN, got %.17g\n", what, got);
	return false;
}

static bool test_quantile_bad_q(void)
{
	static const double v[] = { 1, 2, 3 };
	bool ok = true;

	ok &= is_nan("quantile q NaN", stats_quantile(v, 3, NAN));
	ok &= is_nan("quantile q -0.1", stats_quantile(v, 3, -0.1));
	ok &= is_nan("quantile q 1.1", stats_quantile(v, 3, 1.1));
	ok &= is_nan("quantile q -inf", stats_quantile(v, 3, -INFINITY));
	/* the bounds themselves are fine */
	ok &= near("quantile q 0", stats_quantile(v, 3, 0), 1, 0, false);
	ok &= near("quantile q 1", stats_quantile(v, 3, 1), 3, 0, false);
	return ok;
}

/* A value that is not finite: -EINVAL, W and p NaN. */
static bool check_mw_non_finite(const char *what, const double *x, int nx,
				const double *y, int ny)
{
	struct stats_mw mw = { .w = 0, .p = 0, .exact = true };
	bool ok;

	ok = same_int(what, stats_mann_whitney(x, nx, y, ny, &mw), -EINVAL);
	ok &= is_nan(what, mw.w);
	ok &= is_nan(what, mw.p);
	ok &= same_int(what, mw.exact, false);
	return ok;
}

/* NaN never equals itself: the tie loop must still end. */
static bool test_mw_nan(void)
{
	static const double x[] = { 1, NAN, 3 }, y[] = { 2, 4 };
	bool ok = true;

	ok &= check_mw_non_finite("MW NaN in x", x, 3, y, 2);
	ok &= check_mw_non_finite("MW NaN in y", y, 2, x, 3);
	return ok;
}

static bool test_mw_inf(void)
{
	static const double x[] = { 1, INFINITY, 3 }, y[] = { 2, -INFINITY };
	static const double f[] = { 2, 4 };
	bool ok = true;

	ok &= check_mw_non_finite("MW inf in x", x, 3, f, 2);
	ok &= check_mw_non_finite("MW -inf in y", f, 2, y, 2);
	return ok;
}

/* abstat next to stats_test, or why it is not there */
static char abstat[PATH_MAX + 16], abstat_missing[PATH_MAX + 64];

struct run {
	int status;		/* exit status, -1 if killed by a signal */
	char out[16384];	/* stdout */
	char err[4096];		/* stderr */
};

static void find_abstat(void)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	if (n < 0) {
		snprintf(abstat_missing, sizeof(abstat_missing),
			 "readlink /proc/self/exe: %s", strerror(errno));
		return;
	}
	self[n] = '\0';
	slash = strrchr(self, '/');
	if (slash)
		*slash = '\0';
	snprintf(abstat, sizeof(abstat), "%s/abstat", self);
	if (access(abstat, X_OK)) {
		snprintf(abstat_missing, sizeof(abstat_missing),
			 "no abstat next to stats_test (%s: %s)", abstat,
			 strerror(errno));
		abstat[0] = '\0';
	}
}

/* A new temporary file in $TMPDIR or /tmp, its name in path: fd or -1. */
static int tmp_file(char *path, size_t size)
{
	const char *dir = getenv("TMPDIR");
	int fd;

	snprintf(path, size, "%s/stats_test.XXXXXX",
		 dir && *dir ? dir : "/tmp");
	fd = mkstemp(path);
	if (fd < 0)
		ksft_print_msg("mkstemp %s: %s\n", path, strerror(errno));
	return fd;
}

static bool write_all(int fd, const char *s)
{
	size_t len = strlen(s);
	ssize_t n;

	while (len) {
		n = write(fd, s, len);
		if (n <= 0) {
			ksft_perror("write");
			return false;
		}
		s += n;
		len -= n;
	}
	return true;
}

/* What fd holds, from its start, into buf, NUL-terminated. */
static void slurp(int fd, char *buf, size_t size)
{
	size_t len = 0;
	ssize_t n = 1;

	lseek(fd, 0, SEEK_SET);
	while (len < size - 1 && n > 0) {
		n = read(fd, buf + len, size - 1 - len);
		if (n > 0)
			len += n;
	}
	buf[len] = '\0';
}

/*
 * Runs abstat with the NULL-terminated args, its stdout and stderr into r,
 * killed after ABSTAT_TIMEOUT s.  False if it could not be run.
 */
static bool run_abstat(struct run *r, const char *const *args)
{
	char out_path[PATH_MAX], err_path[PATH_MAX];
	const char *argv[16] = { abstat };
	int out, err, i, status = 0, ms;
	bool ok = false;
	pid_t pid, w;

	for (i = 0; args[i] && i < 14; i++)
		argv[i + 1] = args[i];
	out = tmp_file(out_path, sizeof(out_path));
	err = tmp_file(err_path, sizeof(err_path));
	if (out < 0 || err < 0)
		goto close;
	unlink(out_path);
	unlink(err_path);
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		ksft_perror("fork");
		goto close;
	}
	if (!pid) {
		dup2(out, STDOUT_FILENO);
		dup2(err, STDERR_FILENO);
		execv(abstat, (char *const *)argv);
		fprintf(stderr, "exec %s: %s\n", abstat, strerror(errno));
		_exit(127);
	}
	for (ms = 0; !(w = waitpid(pid, &status, WNOHANG)); ms += 10) {
		if (ms >= ABSTAT_TIMEOUT * 1000) {
			ksft_print_msg("abstat still running after %d s: killed\n",
				       ABSTAT_TIMEOUT);
			kill(pid, SIGKILL);
			w = waitpid(pid, &status, 0);
			break;
		}
		usleep(10000);
	}
	if (w < 0) {
		ksft_perror("waitpid");
		goto close;
	}
	r->status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	slurp(out, r->out, sizeof(r->out));
	slurp(err, r->err, sizeof(r->err));
	ok = true;
close:
	if (out >= 0)
		close(out);
	if (err >= 0)
		close(err);
	return ok;
}

/* Prints buf line by line as TAP diagnostics. */
static void dump(const char *name, const char *buf)
{
	const char *nl;

	if (!*buf)
		ksft_print_msg("%s: (empty)\n", name);
	for (; *buf; buf = *nl ? nl + 1 : nl) {
		nl = strchrnul(buf, '\n');
		ksft_print_msg("%s: %.*s\n", name, (int)(nl - buf), buf);
	}
}

static bool has(const char *what, const char *buf, const char *want)
{
	if (strstr(buf, want))
		return true;
	ksft_print_msg("%s: no \"%s\"\n", what, want);
	return false;
}

static bool lacks(const char *what, const char *buf, const char *unwanted)
{
	if (!strstr(buf, unwanted))
		return true;
	ksft_print_msg("%s: unexpected \"%s\"\n", what, unwanted);
	return false;
}

static bool same_str(const char *what, const char *got, const char *want)
{
	if (!strcmp(got, want))
		return true;
	ksft_print_msg("%s: got:\n", what);
	dump("  got", got);
	dump("  want", want);
	return false;
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	return remove(path);
}

/* Removes the tree at dir: 0, or -1. */
static int nftw_rm(const char *dir)
{
	return nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/*
 * Runs abstat -b base -o base,X on a temporary file holding csv, its name
 * into path[PATH_MAX], and with -j into json[0..json_size - 1] if json.
 * False if it could not be run.
 */
static bool abstat_on(const char *csv, char *path, struct run *r, char *json,
		      size_t json_size)
{
	static const char * const fixed[] = { "-b", "base", "-o", "base,X",
					      "-s", "1", "-B", "1000" };
	const char *args[ARRAY_SIZE(fixed) + 4];
	char json_path[PATH_MAX];
	int fd, jfd = -1;
	size_t n;
	bool ok;

	for (n = 0; n < ARRAY_SIZE(fixed); n++)
		args[n] = fixed[n];
	fd = tmp_file(path, PATH_MAX);
	if (fd < 0)
		return false;
	if (json) {
		jfd = tmp_file(json_path, sizeof(json_path));
		args[n++] = "-j";
		args[n++] = json_path;
	}
	args[n++] = path;
	args[n] = NULL;
	ok = (!json || jfd >= 0) && write_all(fd, csv) && run_abstat(r, args);
	if (ok && json)
		slurp(jfd, json, json_size);
	close(fd);
	unlink(path);
	if (jfd >= 0) {
		close(jfd);
		unlink(json_path);
	}
	return ok;
}

/*
 * abstat on csv, whose line `line` is bad: exit status 1, an error on
 * stderr that names the file and line ("abstat: FILE:LINE: "), and no
 * table on stdout.
 */
static bool abstat_rejects(const char *what, const char *csv, int line)
{
	char path[PATH_MAX], want[PATH_MAX + 32], msg[128];
	static struct run r;
	bool ok;

	if (!abstat_on(csv, path, &r, NULL, 0))
		return false;
	snprintf(want, sizeof(want), "abstat: %s:%d: ", path, line);
	snprintf(msg, sizeof(msg), "%s: exit status", what);
	ok = same_int(msg, r.status, 1);
	snprintf(msg, sizeof(msg), "%s: stderr", what);
	ok &= has(msg, r.err, want);
	if (r.out[0]) {
		ksft_print_msg("%s: printed a table\n", what);
		ok = false;
	}
	if (!ok) {
		dump("stdout", r.out);
		dump("stderr", r.err);
	}
	return ok;
}

/*
 * abstat on csv (with -j if json): exit status 0, nothing on stderr, and
 * the table's heading on stdout.
 */
static bool abstat_accepts(const char *what, const char *csv, struct run *r,
			   char *json, size_t json_size)
{
	char path[PATH_MAX], msg[128];
	bool ok;

	if (!abstat_on(csv, path, r, json, json_size))
		return false;
	snprintf(msg, sizeof(msg), "%s: exit status", what);
	ok = same_int(msg, r->status, 0);
	if (r->err[0]) {
		ksft_print_msg("%s: wrote to stderr\n", what);
		ok = false;
	}
	snprintf(msg, sizeof(msg), "%s: stdout", what);
	ok &= has(msg, r->out, "workload             arm");
	return ok;
}

/* ab.sh's samples.csv header; bench.sh puts a boot column in front */
#define HDR	"round,warmup,order,arm,workload,direction,value,seconds," \
		"migrations,ttwu_count,ttwu_local," \
		"domain_wake_remote_move_affine,perf_task_clock_ms," \
		"perf_ctx_switches,perf_cpu_migrations"
/*
 * A row of workload pipe: migrations 5, ttwu 100 (40 local), two domain
 * levels, perf stat 200 context switches and 7 CPU migrations; x is
 * appended (extra fields).
 */
#define ROWX(round, warm, arm, value, x)				\
	round "," warm ",1," arm ",pipe,lower," value ",2000,5,100,40,"	\
	"10;5;3;1,1500,200,7" x "\n"
#define ROW(round, warm, arm, value)	ROWX(round, warm, arm, value, "")
/* lines 1-5: base 10 9.5, X 20 19 (line 6 follows) */
#define GOOD	HDR "\n"						\
		ROW("1", "0", "base", "10") ROW("1", "0", "X", "20")	\
		ROW("2", "0", "base", "9.5") ROW("2", "0", "X", "19")
#define BOOT1(row)	"1," row
/* the same with a boot column */
#define BGOOD	"boot," HDR "\n"					\
		BOOT1(ROW("1", "0", "base", "10"))			\
		BOOT1(ROW("1", "0", "X", "20"))				\
		BOOT1(ROW("2", "0", "base", "9.5"))			\
		BOOT1(ROW("2", "0", "X", "19"))
#define LAST	ROW("3", "0", "X", "21")
/* round 3 of base to the domain field, and without perf_cpu_migrations */
#define HEAD3	"3,0,1,base,pipe,lower,10.5,2000,5,100,40,"
#define SHORT3	HEAD3 "10;5;3;1,1500,200\n"

static bool test_abstat_nan(void)
{
	bool ok;

	/* in an arm compared with the base, it reaches Mann-Whitney */
	ok = abstat_rejects("nan value of X", GOOD ROW("3", "0", "base", "10.5")
			    ROW("3", "0", "X", "nan"), 7);
	ok &= abstat_rejects("nan value of base",
			     GOOD ROW("3", "0", "base", "nan") LAST, 6);
	return ok;
}

static bool test_abstat_inf(void)
{
	bool ok;

	ok = abstat_rejects("inf value",
			    GOOD ROW("3", "0", "base", "inf") LAST, 6);
	ok &= abstat_rejects("-inf value",
			     GOOD ROW("3", "0", "base", "-inf") LAST, 6);
	return ok;
}

static bool test_abstat_not_a_number(void)
{
	bool ok;

	ok = abstat_rejects("value fast",
			    GOOD ROW("3", "0", "base", "fast") LAST, 6);
	ok &= abstat_rejects("value 10x",
			     GOOD ROW("3", "0", "base", "10x") LAST, 6);
	ok &= abstat_rejects("empty value",
			     GOOD ROW("3", "0", "base", "") LAST, 6);
	ok &= abstat_rejects("warm-up yes",
			     GOOD ROW("3", "yes", "base", "10") LAST, 6);
	ok &= abstat_rejects("perf_cpu_migrations nan",
			     GOOD ROWX("3", "0", "base", "10", "nan") LAST, 6);
	return ok;
}

static bool test_abstat_extra_field(void)
{
	bool ok;

	ok = abstat_rejects("extra field",
			    GOOD ROWX("3", "0", "base", "10.5", ",99") LAST, 6);
	/* 16 header columns: the 17th field was glued into the 16th */
	ok &= abstat_rejects("extra field, boot column",
			     BGOOD BOOT1(ROWX("3", "0", "base", "10.5", ",99"))
			     BOOT1(LAST), 6);
	return ok;
}

static bool test_abstat_missing_field(void)
{
	bool ok;

	ok = abstat_rejects("missing field", GOOD SHORT3 LAST, 6);
	ok &= abstat_rejects("missing field, boot column",
			     BGOOD BOOT1(SHORT3) BOOT1(LAST), 6);
	return ok;
}

static bool test_abstat_long_line(void)
{
	static char csv[8192], domain[5001];
	int i;

	/* a domain field of 5000 characters, 1;1;...;1 */
	for (i = 0; i < 5000; i++)
		domain[i] = i % 2 ? ';' : '1';
	domain[4999] = '1';
	snprintf(csv, sizeof(csv), "%s%s%s,1500,200,7\n%s", GOOD, HEAD3, domain,
		 LAST);
	return abstat_rejects("line of 5000 characters", csv, 6);
}

static bool test_abstat_wide_header(void)
{
	static char csv[16384];
	char *p = csv, *end = csv + sizeof(csv);
	int i, r;

	/* 15 + 100 columns, in the header and every row */
	p += snprintf(p, end - p, "%s", HDR);
	for (i = 0; i < 100; i++)
		p += snprintf(p, end - p, ",extra%d", i);
	for (r = 0; r < 6; r++) {
		p += snprintf(p, end - p, "\n%d,0,1,%s,pipe,lower,%d,", r / 2 + 1,
			      r % 2 ? "X" : "base", r % 2 ? 20 + r : 10 + r);
		p += snprintf(p, end - p, "2000,5,100,40,10;5;3;1,1500,200,7");
		for (i = 0; i < 100; i++)
			p += snprintf(p, end - p, ",0");
	}
	snprintf(p, end - p, "\n");
	return abstat_rejects("header of 115 columns", csv, 1);
}

static bool test_abstat_valid(void)
{
	static struct run r;
	bool ok;

	/* warm-up values 1000 and 1 must not count: medians 10 and 20 */
	ok = abstat_accepts("valid", GOOD ROW("3", "0", "base", "10.5") LAST
			    ROW("0", "1", "base", "1000")
			    ROW("0", "1", "X", "1"), &r, NULL, 0);
	ok &= has("valid: stdout", r.out, "(base)");
	ok &= has("valid: stdout", r.out, " +100.00% ");
	ok &= lacks("valid: stdout", r.out, "between-boot");
	ok &= lacks("valid: stdout", r.out, "counters taken");
	ok &= lacks("valid: stdout", r.out, "counters:");
	if (!ok) {
		dump("stdout", r.out);
		dump("stderr", r.err);
	}
	return ok;
}

/* The line print_evidence() prints for workload pipe and the given arm. */
static void evidence_line(char *buf, size_t size, const char *arm)
{
	snprintf(buf, size, "%-20s %-24s %-7s %10.0f %10.0f %9.0f %7.1f%% ",
		 "pipe", arm, "window", 5.0, 200.0, 7.0, 40.0);
}

static bool test_abstat_counters(void)
{
	static struct run r;
	char want[128];
	bool ok;

	/* 17 columns: boot, ab.sh's 15, counters; a single boot */
	ok = abstat_accepts("counters window", "boot," HDR ",counters\n"
			    BOOT1(ROWX("1", "0", "base", "10", ",window"))
			    BOOT1(ROWX("1", "0", "X", "20", ",window"))
			    BOOT1(ROWX("2", "0", "base", "11", ",window"))
			    BOOT1(ROWX("2", "0", "X", "21", ",window")),
			    &r, NULL, 0);
	ok &= has("counters window: stdout", r.out,
		  "counters taken around the measured window");
	evidence_line(want, sizeof(want), "base");
	ok &= has("counters window: stdout", r.out, want);
	evidence_line(want, sizeof(want), "X");
	ok &= has("counters window: stdout", r.out, want);
	ok &= lacks("counters window: stdout", r.out, "between-boot");
	if (!ok) {
		dump("stdout", r.out);
		dump("stderr", r.err);
	}
	if (!ok)
		return false;

	ok = abstat_accepts("counters command", HDR ",counters\n"
			    ROWX("1", "0", "base", "10", ",command")
			    ROWX("1", "0", "X", "20", ",command")
			    ROWX("0", "1", "X", "20", ",window"),
			    &r, NULL, 0);
	ok &= has("counters command: stdout", r.out,
		  "counters taken around the whole command");

	ok &= abstat_accepts("counters mixed", HDR ",counters\n"
			     ROWX("1", "0", "base", "10", ",window")
			     ROWX("1", "0", "X", "20", ",command"),
			     &r, NULL, 0);
	ok &= has("counters mixed: stdout", r.out, "counters taken around (per row)");
	ok &= abstat_rejects("counters other", HDR ",counters\n"
			     ROWX("1", "0", "base", "10", ",window")
			     ROWX("1", "0", "X", "20", ",always"), 3);
	if (!ok) {
		dump("stdout", r.out);
		dump("stderr", r.err);
	}
	return ok;
}

static bool test_abstat_boot_spread(void)
{
	static const char line[] = "\n%-20s %-24s boots: %s  spread %s%%\n";
	static struct run r;
	static char json[16384];
	char want[128];
	bool ok;

	/*
	 * Medians of boot 1 and 2: base 10 and 12.5 (spread 25%), X 20 and
	 * 22 (10%); with its warm-up row, boot 1's base median would be 10.5.
	 */
	ok = abstat_accepts("boot spread", "boot," HDR "\n"
			    BOOT1(ROW("0", "1", "base", "1000"))
			    BOOT1(ROW("1", "0", "base", "9"))
			    BOOT1(ROW("1", "0", "X", "19"))
			    BOOT1(ROW("2", "0", "base", "10"))
			    BOOT1(ROW("2", "0", "X", "20"))
			    BOOT1(ROW("3", "0", "base", "11"))
			    BOOT1(ROW("3", "0", "X", "21"))
			    "2," ROW("4", "0", "X", "20")
			    "2," ROW("4", "0", "base", "12")
			    "2," ROW("5", "0", "X", "22")
			    "2," ROW("5", "0", "base", "12.5")
			    "2," ROW("6", "0", "X", "24")
			    "2," ROW("6", "0", "base", "13"),
			    &r, json, sizeof(json));
	ok &= has("boot spread: stdout", r.out,
		  "\nbetween-boot spread (median of each boot; spread = max/min - 1)\n");
	snprintf(want, sizeof(want), line, "pipe", "base", "10 12.5", "25.00");
	ok &= has("boot spread: stdout", r.out, want);
	snprintf(want, sizeof(want), line, "pipe", "X", "20 22", "10.00");
	ok &= has("boot spread: stdout", r.out, want);
	ok &= has("boot spread: json", json,
		  "\"boot_medians\":{\"1\":20,\"2\":22}");
	ok &= has("boot spread: json", json, "\"boot_spread_pct\":10,");
	ok &= has("boot spread: json", json,
		  "\"boot_medians_base\":{\"1\":10,\"2\":12.5}");
	ok &= has("boot spread: json", json, "\"boot_spread_pct_base\":25");
	if (!ok) {
		dump("stdout", r.out);
		dump("stderr", r.err);
		dump("json", json);
	}
	return ok;
}

/*
 * A samples.csv of n rounds of pipe: base drifts by 5% a round (1.05^r),
 * X is base times ratio(r); boot column "boot-label" when boots is set,
 * one boot per round then, labelled boots[r % 2]-(r / 2 + 1): the arms on
 * different boots.
 */
static void drift_csv(char *buf, size_t size, int n, double (*ratio)(int),
		      const char *const *boots)
{
	size_t len;
	int r;

	len = snprintf(buf, size, "%s%s\n", boots ? "boot," : "", HDR);
	for (r = 1; r <= n && len < size; r++) {
		double b = 10 * pow(1.05, r);

		if (boots)
			len += snprintf(buf + len, size - len, "%s-%d,", boots[0], r);
		len += snprintf(buf + len, size - len, ROWX("%d", "0", "base", "%.6f", ""),
				r, b);
		if (boots)
			len += snprintf(buf + len, size - len, "%s-%d,", boots[1], r);
		len += snprintf(buf + len, size - len, ROWX("%d", "0", "X", "%.6f", ""),
				r, b * ratio(r));
	}
}

static double up2(int r)
{
	return 1.02 + 0.001 * (r % 3);
}

static double flat(int r)
{
	return 1 + (r % 2 ? 0.001 : -0.001) * (r % 5);
}

/* The row of arm X in the paired table starts with this. */
static bool x_row(const char *what, const char *out, const char *unit,
		  int pairs)
{
	char want[128];

	snprintf(want, sizeof(want), "%-20s %-24s %4d ", "pipe", "X", pairs);
	if (!has(what, out, want))
		return false;
	snprintf(want, sizeof(want), " %-5s %5d ", unit, pairs);
	return has(what, out, want);
}

static bool test_abstat_paired(void)
{
	static char csv[16384];
	static struct run r;
	static char json[16384];
	bool ok;

	/*
	 * +2% in every one of 12 drifting rounds: the paired test sees it
	 * (p = 2 / 2^12), the unpaired one cannot (the drift is 5% a round).
	 */
	drift_csv(csv, sizeof(csv), 12, up2, NULL);
	ok = abstat_accepts("paired +2%", csv, &r, json, sizeof(json));
	ok &= x_row("paired +2%", r.out, "round", 12);
	ok &= has("paired +2%", r.out, " worse ");
	ok &= has("paired +2%", r.out, "0.000488");
	ok &= has("paired +2%: json", json, "\"verdict\":\"worse\"");
	ok &= has("paired +2%: json", json, "\"verdict_unpaired\":\"~\"");
	ok &= has("paired +2%: json", json, "\"unit\":\"round\",\"pairs\":12");
	ok &= has("paired +2%", r.out, "\nrounds: variance of log(value)");
	if (!ok) {
		dump("stdout", r.out);
		dump("json", json);
		return false;
	}
	/* within +-0.4% in every round: equivalent at the default 1% */
	drift_csv(csv, sizeof(csv), 12, flat, NULL);
	ok = abstat_accepts("paired flat", csv, &r, json, sizeof(json));
	ok &= has("paired flat: json", json, "\"verdict\":\"equivalent\"");
	if (!ok)
		dump("stdout", r.out);
	return ok;
}

static bool test_abstat_too_few(void)
{
	static const char *const kernels[] = { "baseline", "series" };
	static char csv[16384];
	static struct run r;
	bool ok;

	/* 3 pairs: 2 / 2^3 = 0.25 at best, "different" cannot fire */
	drift_csv(csv, sizeof(csv), 3, up2, NULL);
	ok = abstat_accepts("too-few", csv, &r, NULL, 0);
	ok &= has("too-few", r.out, " too-few ");
	ok &= has("too-few", r.out, "\ntoo-few: 1 comparison(s) cannot reach");
	ok &= has("too-few", r.out, "after Holm over 1: 0.25, NOT below alpha");
	if (!ok) {
		dump("stdout", r.out);
		return false;
	}
	/*
	 * Arms on different boots (kernels): the boot is the unit, paired by
	 * boot number; 12 boots a kernel, +2% each, reach "worse".
	 */
	drift_csv(csv, sizeof(csv), 12, up2, kernels);
	ok = abstat_accepts("boots", csv, &r, NULL, 0);
	ok &= x_row("boots", r.out, "boot", 12);
	ok &= has("boots", r.out, " worse ");
	ok &= has("boots", r.out, "boot medians for arms on other boots");
	if (!ok)
		dump("stdout", r.out);
	return ok;
}

static bool test_abstat_margin(void)
{
	static const char *const bad[][4] = {
		{ "-m", "x", "/dev/null" }, { "-m", "-1", "/dev/null" },
		{ "--margin", "100", "/dev/null" }, { "-m", "", "/dev/null" },
	};
	static struct run r;
	unsigned int i;
	char what[64];
	bool ok = true;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		snprintf(what, sizeof(what), "abstat %s '%s'", bad[i][0], bad[i][1]);
		if (!run_abstat(&r, bad[i]))
			return false;
		ok &= same_int(what, r.status, 1);
		ok &= has(what, r.err, "--margin");
		ok &= lacks(what, r.out, "workload");
	}
	return ok;
}

static bool test_abstat_kernel_aa(void)
{
	static char csv[16384];
	static struct run r;
	const char *a[4] = { "-A", "2" };
	char path[PATH_MAX];
	size_t len;
	int b, k, fd;
	bool ok;

	/* 4 boots of one kernel, 3 rounds each: 2 boots a kernel are too few */
	len = snprintf(csv, sizeof(csv), "boot,%s\n", HDR);
	for (b = 1; b <= 4; b++)
		for (k = 1; k <= 3; k++)
			len += snprintf(csv + len, sizeof(csv) - len, "series-%d,"
					ROWX("%d", "0", "base", "%d", ""), b,
					b * 10 + k, 10 * b + k);
	fd = tmp_file(path, sizeof(path));
	if (fd < 0 || !write_all(fd, csv))
		return false;
	a[2] = path;
	ok = run_abstat(&r, a);
	close(fd);
	unlink(path);
	if (!ok)
		return false;
	ok = same_int("kernel-aa: exit status", r.status, 0);
	ok &= has("kernel-aa", r.out,
		  "\nkernel A/A from the boots of one kernel: 100 random\nsplits into 2 x 2 boots");
	ok &= has("kernel-aa", r.out, "         0 of 100       100 ");
	if (!ok)
		dump("stdout", r.out);
	return ok;
}

static bool test_abstat_variance(void)
{
	/*
	 * Three arms, five rounds: the variance of log(value) between and
	 * within rounds, as the two-way ANOVA's variance components.
	 * R: v <- c(10.0, 10.4, 9.8, 11.2, 11.9, 11.0, 9.1, 9.6, 9.0,
	 * R:        10.5, 10.6, 10.9, 12.0, 12.9, 11.7)
	 * R: round <- factor(rep(1:5, each = 3))
	 * R: arm <- factor(rep(c("base", "X", "Y"), 5))
	 * R: a <- anova(lm(log(v) ~ round + arm))
	 * R: msr <- a["round", "Mean Sq"]; mse <- a["Residuals", "Mean Sq"]
	 * R: vb <- max(0, (msr - mse) / 3)
	 * R: sprintf("%8.2f%% %8.2f%% %7.1f%%", 100 * sqrt(vb),
	 * R:         100 * sqrt(mse), 100 * vb / (vb + mse))
	 */
	static const char want[] = "\npipe                      5    10.64%     2.44%    95.0% ";
	static const char *const v[] = {
		"10.0", "10.4", "9.8", "11.2", "11.9", "11.0", "9.1", "9.6",
		"9.0", "10.5", "10.6", "10.9", "12.0", "12.9", "11.7",
	};
	static const char *const arm[] = { "base", "X", "Y" };
	static char csv[4096];
	static struct run r;
	size_t len;
	int i;
	bool ok;

	len = snprintf(csv, sizeof(csv), "%s\n", HDR);
	for (i = 0; i < 15; i++)
		len += snprintf(csv + len, sizeof(csv) - len, "%d,0,%d,%s,pipe,%s%s%s\n",
				i / 3 + 1, i % 3 + 1, arm[i % 3], "lower,", v[i],
				",2000,5,100,40,10;5;3;1,1500,200,7");
	ok = abstat_accepts("variance", csv, &r, NULL, 0);
	ok &= has("variance", r.out, want);
	if (!ok)
		dump("stdout", r.out);
	return ok;
}

/* A run directory dir/name with ab/samples.csv and, if accel, run.txt. */
static bool make_run(const char *dir, const char *name, const char *csv,
		     const char *accel)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (mkdir(path, 0700))
		return false;
	snprintf(path, sizeof(path), "%s/%s/ab", dir, name);
	if (mkdir(path, 0700))
		return false;
	snprintf(path, sizeof(path), "%s/%s/ab/samples.csv", dir, name);
	f = fopen(path, "w");
	if (!f || fputs(csv, f) < 0 || fclose(f))
		return false;
	if (!accel)
		return true;
	snprintf(path, sizeof(path), "%s/%s/run.txt", dir, name);
	f = fopen(path, "w");
	return f && fprintf(f, "accelerator: %s\n", accel) > 0 && !fclose(f);
}

/* abstat -M dir/merged.csv dir/a dir/b: status and the merged file. */
static bool merge_runs(const char *dir, const char *a, const char *b,
		       struct run *r, char *merged, size_t size)
{
	char out[PATH_MAX], pa[PATH_MAX], pb[PATH_MAX];
	const char *args[5] = { "-M", out, pa, pb, NULL };
	int fd;

	snprintf(out, sizeof(out), "%s/merged.csv", dir);
	snprintf(pa, sizeof(pa), "%s/%s", dir, a);
	snprintf(pb, sizeof(pb), "%s/%s", dir, b);
	unlink(out);
	merged[0] = '\0';
	if (!run_abstat(r, args))
		return false;
	fd = open(out, O_RDONLY);
	if (fd >= 0) {
		slurp(fd, merged, size);
		close(fd);
	}
	return true;
}

#define MHDR	"round,warmup,order,arm,workload,direction,value\n"

/*
 * abstat -M: a boot column, rounds numbered on across the runs (warm-up
 * rounds, 0 and below, keep theirs plus the offset), arms prefixed with
 * the kernel's label when the runs come from several kernels; runs of
 * different clocks or headers refused, nothing written.
 */
static bool test_abstat_merge(void)
{
	static const char one[] = MHDR "0,1,1,base,pipe,lower,9\n"
		"1,0,1,base,pipe,lower,10\n2,0,2,base,pipe,lower,11\n";
	static const char two[] = MHDR "1,0,1,base,pipe,lower,12\n";
	static char merged[4096];
	static struct run r;
	char dir[PATH_MAX];
	const char *tmp = getenv("TMPDIR");
	bool ok = true;

	snprintf(dir, sizeof(dir), "%s/stats_test.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir) ||
	    !make_run(dir, "series-1", one, "tcg (no usable /dev/kvm)") ||
	    !make_run(dir, "series-2", two, "tcg (forced)") ||
	    !make_run(dir, "baseline-1", two, NULL) ||
	    !make_run(dir, "series.2-1", two, "icount (--icount)") ||
	    !make_run(dir, "other-1", "round,arm,workload,value\n1,base,pipe,3\n", NULL)) {
		ksft_perror("merge: setting up");
		return false;
	}
	if (!merge_runs(dir, "series-1", "series-2", &r, merged, sizeof(merged)))
		return false;
	ok &= same_int("one kernel: exit status", r.status, 0);
	ok &= same_str("one kernel: merged", merged, "boot," MHDR
		       "series-1,0,1,1,base,pipe,lower,9\n"
		       "series-1,1,0,1,base,pipe,lower,10\n"
		       "series-1,2,0,2,base,pipe,lower,11\n"
		       "series-2,3,0,1,base,pipe,lower,12\n");
	if (!merge_runs(dir, "baseline-1", "series-1", &r, merged, sizeof(merged)))
		return false;
	ok &= same_int("two kernels: exit status", r.status, 0);
	ok &= same_str("two kernels: merged", merged, "boot," MHDR
		       "baseline-1,1,0,1,baseline:base,pipe,lower,12\n"
		       "series-1,1,1,1,series:base,pipe,lower,9\n"
		       "series-1,2,0,1,series:base,pipe,lower,10\n"
		       "series-1,3,0,2,series:base,pipe,lower,11\n");
	if (!merge_runs(dir, "series-1", "series.2-1", &r, merged, sizeof(merged)))
		return false;
	ok &= same_int("icount with tcg: exit status", r.status, 1);
	ok &= has("icount with tcg: stderr", r.err, "one table holds one clock");
	ok &= same_str("icount with tcg: merged file", merged, "");
	if (!merge_runs(dir, "series-1", "other-1", &r, merged, sizeof(merged)))
		return false;
	ok &= same_int("other header: exit status", r.status, 1);
	ok &= has("other header: stderr", r.err, "header differs");
	ok &= same_str("other header: merged file", merged, "");
	if (!ok)
		dump("stderr", r.err);
	if (nftw_rm(dir))
		ksft_print_msg("merge: cannot remove %s\n", dir);
	return ok;
}

/*
 * abstat --ci-check X: exit 0 and "met" when every comparison's CI
 * half-width is at most X, else 3 and "not met", naming the widest.
 */
static bool test_abstat_ci_check(void)
{
	/* X / base: 1.00 1.02 0.99 1.01 0.98 1.03 1.00 0.97: a CI of about
	 * +-2-3% (R, 90% as the zeros leave 6 pairs: -2.01% to +2.00%)
	 */
	static const char csv[] = HDR "\n"
		ROW("1", "0", "base", "10") ROW("1", "0", "X", "10")
		ROW("2", "0", "base", "10") ROW("2", "0", "X", "10.2")
		ROW("3", "0", "base", "10") ROW("3", "0", "X", "9.9")
		ROW("4", "0", "base", "10") ROW("4", "0", "X", "10.1")
		ROW("5", "0", "base", "10") ROW("5", "0", "X", "9.8")
		ROW("6", "0", "base", "10") ROW("6", "0", "X", "10.3")
		ROW("7", "0", "base", "10") ROW("7", "0", "X", "10")
		ROW("8", "0", "base", "10") ROW("8", "0", "X", "9.7");
	static struct run r;
	char path[PATH_MAX];
	const char *met[6] = { "-c", "5", "-b", "base", path, NULL };
	const char *unmet[6] = { "-c", "0.5", "-b", "base", path, NULL };
	bool ok = true;
	int fd = tmp_file(path, sizeof(path));

	if (fd < 0 || !write_all(fd, csv))
		return false;
	if (!run_abstat(&r, met))
		return false;
	ok &= same_int("target 5%: exit status", r.status, 0);
	ok &= has("target 5%", r.out, "CI target +-5%: met by all 1 comparison(s) (widest +-");
	if (!run_abstat(&r, unmet))
		return false;
	ok &= same_int("target 0.5%: exit status", r.status, 3);
	ok &= has("target 0.5%", r.out, "not met: 1 of 1 comparison(s) wider (widest +-");
	ok &= has("target 0.5%", r.out, "pipe X, 8 pairs");
	if (!ok) {
		dump("stdout", r.out);
		dump("stderr", r.err);
	}
	close(fd);
	unlink(path);
	return ok;
}

static bool test_abstat_help(void)
{
	static const char *const longopts[] = {
		"--base", "--alpha", "--resamples", "--seed", "--label",
		"--json", "--order", "--margin", "--pairs", "--blocks",
		"--blocks-of", "--kernel-aa", "--clock", "--ci-target", "--ci-check",
		"--merge", "--help",
	};
	static const char *const flags[][2] = { { "-h" }, { "--help" } };
	static struct run r;
	unsigned int i, j;
	char what[64];
	bool ok = true;

	for (i = 0; i < ARRAY_SIZE(flags); i++) {
		snprintf(what, sizeof(what), "abstat %s", flags[i][0]);
		if (!run_abstat(&r, flags[i]))
			return false;
		ok &= same_int(what, r.status, 0);
		ok &= has(what, r.out, "usage: abstat ");
		for (j = 0; j < ARRAY_SIZE(longopts); j++)
			ok &= has(what, r.out, longopts[j]);
		if (r.err[0]) {
			ksft_print_msg("%s: wrote to stderr\n", what);
			ok = false;
		}
	}
	if (!ok) {
		dump("stdout", r.out);
		dump("stderr", r.err);
	}
	return ok;
}

/* a test of stats.c; one that runs abstat, skipped if it is not there */
#define T(fn, name)		{ fn, name, false }
#define T_ABSTAT(fn, name)	{ fn, name, true }

static const struct {
	bool (*fn)(void);
	const char *name;
	bool abstat;
} tests[] = {
	T(test_median_quantile, "median and quantile"),
	T(test_mean_sd_cv, "mean, sd and cv"),
	T(test_mw_exact, "Mann-Whitney exact, no ties"),
	T(test_mw_exact_small, "Mann-Whitney exact, small and largest n"),
	T(test_mw_ties, "Mann-Whitney normal approximation, ties"),
	T(test_mw_large, "Mann-Whitney normal approximation, large n"),
	T(test_holm, "Holm adjustment"),
	T(test_boot_vs_r, "bootstrap CI of the ratio of medians vs R"),
	T(test_boot_determinism, "bootstrap determinism and constant data"),
	T(test_runs_needed, "runs needed"),
	T(test_sr_exact, "signed-rank exact, Hodges-Lehmann CI"),
	T(test_sr_small, "signed-rank with 5 pairs, smallest attainable p"),
	T(test_sr_ties, "signed-rank normal approximation, ties, zeros, large n"),
	T(test_sr_edge, "signed-rank edge cases, pairs needed"),
	T(test_null_p_cdf, "exact null distribution of the p-value"),
	T(test_permute, "seeded permutation"),
	T(test_edge_cases, "edge cases"),
	T(test_quantile_bad_q, "quantile with q NaN or outside [0, 1]"),
	T(test_mw_nan, "Mann-Whitney with NaN input terminates"),
	T(test_mw_inf, "Mann-Whitney with infinite input"),
	T_ABSTAT(test_abstat_nan, "abstat rejects a nan value"),
	T_ABSTAT(test_abstat_inf, "abstat rejects an inf value"),
	T_ABSTAT(test_abstat_not_a_number,
		 "abstat rejects a non-numeric field"),
	T_ABSTAT(test_abstat_extra_field,
		 "abstat rejects a row with an extra field"),
	T_ABSTAT(test_abstat_missing_field,
		 "abstat rejects a row missing a field"),
	T_ABSTAT(test_abstat_long_line, "abstat rejects an over-long line"),
	T_ABSTAT(test_abstat_wide_header,
		 "abstat rejects a header of 115 columns"),
	T_ABSTAT(test_abstat_valid, "abstat accepts a valid samples.csv"),
	T_ABSTAT(test_abstat_counters, "abstat counters column"),
	T_ABSTAT(test_abstat_boot_spread, "abstat between-boot spread"),
	T_ABSTAT(test_abstat_paired, "abstat paired verdict sees what drift hides"),
	T_ABSTAT(test_abstat_too_few, "abstat too-few, and boots as the unit"),
	T_ABSTAT(test_abstat_margin, "abstat rejects a bad --margin"),
	T_ABSTAT(test_abstat_kernel_aa, "abstat --kernel-aa, boots as the unit"),
	T_ABSTAT(test_abstat_variance, "abstat variance between and within rounds vs R"),
	T_ABSTAT(test_abstat_merge,
		 "abstat -M merges runs: boot column, rounds, kernel labels, one clock"),
	T_ABSTAT(test_abstat_ci_check, "abstat --ci-check met and not met"),
	T_ABSTAT(test_abstat_help, "abstat -h and --help"),
};

/*
 * Runs fn in a child under alarm(timeout): a hang or a crash fails the
 * test instead of stopping the suite.
 */
static bool run_test(bool (*fn)(void), unsigned int timeout)
{
	int status, sig;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		ksft_perror("fork");
		return false;
	}
	if (!pid) {
		bool ok;

		alarm(timeout);
		ok = fn();
		fflush(stdout);
		_exit(ok ? KSFT_PASS : KSFT_FAIL);
	}
	if (waitpid(pid, &status, 0) < 0) {
		ksft_perror("waitpid");
		return false;
	}
	if (WIFSIGNALED(status)) {
		sig = WTERMSIG(status);
		if (sig == SIGALRM)
			ksft_print_msg("timed out after %u s\n", timeout);
		else
			ksft_print_msg("killed by signal %d (%s)\n", sig,
				       strsignal(sig));
		return false;
	}
	return WIFEXITED(status) && WEXITSTATUS(status) == KSFT_PASS;
}

static void print_help(FILE *f)
{
	fprintf(f,
		"usage: stats_test [-h]\n"
		"Unit tests of stats.c against values computed by R, and tests\n"
		"of abstat's command line; abstat must be in stats_test's\n"
		"directory, else those are skipped.  Temporary files go to\n"
		"$TMPDIR (default /tmp).  Prints KTAP; exits 0 if all passed.\n"
		"  -h, --help  this help\n");
}

int main(int argc, char **argv)
{
	unsigned int i;

	if (argc > 1) {
		if (argc == 2 && (!strcmp(argv[1], "-h") ||
				  !strcmp(argv[1], "--help"))) {
			print_help(stdout);
			return 0;
		}
		print_help(stderr);
		return KSFT_FAIL;
	}
	find_abstat();
	ksft_print_header();
	ksft_set_plan(ARRAY_SIZE(tests));
	for (i = 0; i < ARRAY_SIZE(tests); i++) {
		if (tests[i].abstat && !abstat[0]) {
			ksft_test_result_skip("%s: %s\n", tests[i].name,
					      abstat_missing);
			continue;
		}
		ksft_test_result(run_test(tests[i].fn, tests[i].abstat ?
					  ABSTAT_TEST_TIMEOUT : TEST_TIMEOUT),
				 "%s\n", tests[i].name);
	}
	ksft_finished();
}
