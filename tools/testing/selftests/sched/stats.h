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

#endif /* __STATS_H */
