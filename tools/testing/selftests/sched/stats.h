/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Statistics for the sched selftests' verdicts.
 */
#ifndef __STATS_H
#define __STATS_H

#include <stdbool.h>

/* 100 * part / n, 0 when n is 0. */
double pct(int part, int n);

/*
 * A/A band, in percentage points, for a proportion measured twice under
 * identical conditions (ca of na, cb of nb): the larger of the two
 * measurements' difference and four standard errors of a difference of
 * proportions, at least 5 points.  A change within it is not a change.
 */
double aa_band(int ca, int na, int cb, int nb);

/*
 * Median of x[0..n-1], n >= 1, the mean of the two middle values for an
 * even n.  x is not modified.  NAN if a scratch copy cannot be allocated.
 */
double stats_median(const double *x, int n);

/* Arithmetic mean of x[0..n-1], n >= 1. */
double stats_mean(const double *x, int n);

/* Sample standard deviation (divisor n - 1) of x[0..n-1], 0 for n < 2. */
double stats_sd(const double *x, int n);

/* Coefficient of variation sd / |mean|, 0 when the mean is 0. */
double stats_cv(const double *x, int n);

/*
 * Quantile q of sorted[0..n-1], n >= 1, sorted ascending: R's default
 * type 7, linear interpolation between order statistics.  NAN if q is NaN
 * or outside [0, 1].
 */
double stats_quantile(const double *sorted, int n, double q);

/* Result of a two-sided Mann-Whitney U (Wilcoxon rank-sum) test. */
struct stats_mw {
	double w;	/* R's W: rank sum of x minus nx * (nx + 1) / 2 */
	double p;	/* two-sided p-value */
	bool exact;	/* p from the exact null distribution */
};

/*
 * Two-sided Mann-Whitney U test of x against y, as R's wilcox.test(x, y)
 * with its defaults: exact p-value when nx < 50, ny < 50 and there are no
 * ties, else the normal approximation with tie and continuity correction.
 * Returns 0, -EINVAL if nx < 1 or ny < 1, or if a value is not finite
 * (NaN or infinite: then out->w and out->p are NaN), -ENOMEM if out of
 * memory.
 */
int stats_mann_whitney(const double *x, int nx, const double *y, int ny,
		       struct stats_mw *out);

/*
 * Holm's step-down adjustment of the n p-values p[] into adj[] (which must
 * not overlap p), as R's p.adjust(p, "holm").
 */
void stats_holm(const double *p, int n, double *adj);

/*
 * Percentile bootstrap confidence interval [*lo, *hi] at the given level
 * (e.g. 0.95) of median(y) / median(x), x and y resampled independently
 * with replacement `resamples` times from a PRNG seeded by seed, so the
 * result is reproducible.  Returns 0, -EINVAL on bad arguments, -ENOMEM
 * if out of memory.
 */
int stats_boot_ratio_ci(const double *x, int nx, const double *y, int ny,
			int resamples, unsigned long long seed, double level,
			double *lo, double *hi);

/*
 * Runs per arm needed for a two-sided test at alpha 0.05 with power 0.8 to
 * detect the observed difference of medians, given the pooled standard
 * deviation of x and y, for the Mann-Whitney test.  At least 2; -1 if the
 * medians are equal, -EINVAL if nx < 1, ny < 1 or nx + ny < 3.
 */
int stats_runs_needed(const double *x, int nx, const double *y, int ny);

/*
 * Smallest two-sided p-value the exact Mann-Whitney test can give with nx
 * and ny samples and no ties, 2 / choose(nx + ny, nx), at most 1.
 */
double stats_mann_whitney_min_p(int nx, int ny);

/* Result of a two-sided Wilcoxon signed-rank test with its estimate. */
struct stats_sr {
	int n;		/* differences given */
	int nz;		/* of them not 0: the test's n */
	double v;	/* R's V: rank sum of the positive differences */
	double p;	/* two-sided p-value */
	bool exact;	/* p from the exact null distribution */
	double est;	/* Hodges-Lehmann: median of the Walsh averages */
	double lo, hi;	/* confidence interval of the pseudo-median */
	double level;	/* its achieved confidence level */
};

/*
 * Two-sided Wilcoxon signed-rank test of d[0..n-1] against 0, as R's
 * wilcox.test(d, conf.int = TRUE, conf.level = level) (d: the paired
 * differences, x - y): zeros are dropped from the test; exact p-value when
 * fewer than 50 remain and there are neither ties nor zeros, else the
 * normal approximation with tie and continuity correction.  The estimate
 * is the median of the n (n + 1) / 2 Walsh averages (d[i] + d[j]) / 2,
 * i <= j, and the interval the order statistics of those at the exact null
 * distribution's quantiles (Bauer 1972), which is R's interval whenever R
 * computes it exactly; with ties or zeros R searches a root of the normal
 * approximation instead (here the interval stays distribution-free and
 * slightly conservative), and with n > 1000 the quantile is the normal
 * approximation's.  When `level` cannot be reached with n differences, the
 * interval is the widest one, [min d, max d], and out->level says what it
 * achieves.  Returns 0, -EINVAL if n < 1, level is not in (0, 1) or a value
 * is not finite, -ENOMEM if out of memory.
 */
int stats_signed_rank(const double *d, int n, double level,
		      struct stats_sr *out);

/*
 * Smallest two-sided p-value the exact signed-rank test can give with n
 * differences, none 0 and no ties: 2 / 2^n, at most 1.
 */
double stats_signed_rank_min_p(int n);

/*
 * Pairs needed for a two-sided signed-rank test at alpha 0.05 with power
 * 0.8 to detect the observed median of the differences d[0..n-1], given
 * their standard deviation: the paired z test's n, (z_a + z_b)^2 sd^2 /
 * median^2, over the signed-rank test's asymptotic relative efficiency 3 /
 * pi; at least 2.  -1 if the median is 0, -EINVAL if n < 2.
 */
int stats_pairs_needed(const double *d, int n);

/*
 * The exact null distribution of the two-sided p-value, without ties: of
 * the signed-rank test with nx pairs (ny = 0), or of the Mann-Whitney test
 * with nx and ny samples.  cdf[i] = P(p <= t[i]) for the nt thresholds t[]
 * (discrete: p takes few values for small n).  Returns 0, -EINVAL unless
 * 1 <= nx <= 200 and 0 <= ny <= 200, -ENOMEM if out of memory.
 */
int stats_null_p_cdf(int nx, int ny, const double *t, int nt, double *cdf);

/*
 * A random permutation of 0 .. n - 1 into idx[] (Fisher-Yates), from the
 * PRNG state *state (splitmix64, as the bootstrap), which it advances: the
 * same state gives the same permutation.
 */
void stats_permute(int *idx, int n, unsigned long long *state);

#endif /* __STATS_H */
