// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of stats.c against reference values computed by R 4.2.2.
 *
 * The comment above each reference value is the R command that printed
 * it (with options(digits = 17)); the data sets are the R assignments in
 * the comments above the arrays, to be run first.  Closed-form results
 * must agree to a relative 1e-9, the bootstrap to its Monte-Carlo error.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "../kselftest.h"
#include "stats.h"

/* relative tolerance of closed-form results, 1e-9 */
#define REL	(1 / 1e9)

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

static const struct {
	bool (*fn)(void);
	const char *name;
} tests[] = {
	{ test_median_quantile, "median and quantile" },
	{ test_mean_sd_cv, "mean, sd and cv" },
	{ test_mw_exact, "Mann-Whitney exact, no ties" },
	{ test_mw_exact_small, "Mann-Whitney exact, small and largest n" },
	{ test_mw_ties, "Mann-Whitney normal approximation, ties" },
	{ test_mw_large, "Mann-Whitney normal approximation, large n" },
	{ test_holm, "Holm adjustment" },
	{ test_boot_vs_r, "bootstrap CI of the ratio of medians vs R" },
	{ test_boot_determinism, "bootstrap determinism and constant data" },
	{ test_runs_needed, "runs needed" },
	{ test_edge_cases, "edge cases" },
};

int main(void)
{
	unsigned int i;

	ksft_print_header();
	ksft_set_plan(ARRAY_SIZE(tests));
	for (i = 0; i < ARRAY_SIZE(tests); i++)
		ksft_test_result(tests[i].fn(), "%s\n", tests[i].name);
	ksft_finished();
}
