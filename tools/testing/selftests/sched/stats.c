// SPDX-License-Identifier: GPL-2.0
/*
 * Statistics for the sched selftests: see stats.h.
 *
 * The test and the estimators follow R (wilcox.test(), p.adjust(),
 * quantile()); stats_test.c checks them against values computed by R.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

double pct(int part, int n)
{
	return n ? 100.0 * part / n : 0.0;
}

double aa_band(int ca, int na, int cb, int nb)
{
	double pa = pct(ca, na), pb = pct(cb, nb);
	double p = (pa + pb) / 200.0;
	double se = 100.0 * sqrt(p * (1 - p) * (1.0 / na + 1.0 / nb));
	double w = fabs(pa - pb);

	if (4 * se > w)
		w = 4 * se;
	return w < 5.0 ? 5.0 : w;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median of buf[0..n-1], which it sorts. */
static double median_sort(double *buf, int n)
{
	qsort(buf, n, sizeof(*buf), cmp_double);
	return n % 2 ? buf[n / 2] : (buf[n / 2 - 1] + buf[n / 2]) / 2;
}

double stats_median(const double *x, int n)
{
	double *buf = malloc((size_t)n * sizeof(*buf));
	double m;

	if (!buf)
		return NAN;
	memcpy(buf, x, (size_t)n * sizeof(*buf));
	m = median_sort(buf, n);
	free(buf);
	return m;
}

double stats_mean(const double *x, int n)
{
	double s = 0;
	int i;

	for (i = 0; i < n; i++)
		s += x[i];
	return s / n;
}

double stats_sd(const double *x, int n)
{
	double m, ss = 0;
	int i;

	if (n < 2)
		return 0;
	m = stats_mean(x, n);
	for (i = 0; i < n; i++)
		ss += (x[i] - m) * (x[i] - m);
	return sqrt(ss / (n - 1));
}

double stats_cv(const double *x, int n)
{
	double m = stats_mean(x, n);

	return m ? stats_sd(x, n) / fabs(m) : 0;
}

double stats_quantile(const double *sorted, int n, double q)
{
	double h;
	int j;

	/* also false for a NaN q, which (int)floor() could not convert */
	if (!(q >= 0 && q <= 1))
		return NAN;
	/* R's quantile(type = 7): interpolate at 0-based position (n - 1) q */
	h = (n - 1) * q;
	j = (int)floor(h);
	h -= j;
	if (j >= n - 1 || h == 0 || sorted[j + 1] == sorted[j])
		return sorted[j];
	return (1 - h) * sorted[j] + h * sorted[j + 1];
}

/*
 * Exact two-sided p-value of W = w for samples of m x's and n y's without
 * ties, as R's wilcox.test(): min(1, 2 P), P the tail on w's side of the
 * mean mn/2.  The number c(k; i, j) of orderings of i x's and j y's with
 * W = k follows R's cwilcox() recursion on whether the largest value is an
 * x (greater than all j y's) or a y:
 *
 *	c(k; i, j) = c(k - j; i - 1, j) + c(k; i, j - 1)
 *
 * It only adds positive counts, so doubles stay accurate beyond 2^53.
 */
static int mw_exact_p(int m, int n, double w, double *p)
{
	int len = m * n + 1, i, j, k;
	double *c = calloc((size_t)(m + 1) * len, sizeof(*c));
	double *row, *prev, total = 0, lower = 0, upper = 0;

	if (!c)
		return -ENOMEM;
	/* row i holds c(.; i, j), from j = 0 where W = 0 */
	for (i = 0; i <= m; i++)
		c[i * len] = 1;
	for (j = 1; j <= n; j++) {
		for (i = 1; i <= m; i++) {
			row = c + i * len;
			prev = row - len;
			for (k = i * j; k >= j; k--)
				row[k] += prev[k - j];
		}
	}
	row = c + m * len;
	for (k = 0; k < len; k++) {
		total += row[k];
		if (k <= w)
			lower += row[k];
		if (k >= w)
			upper += row[k];
	}
	free(c);
	*p = fmin(1, 2 * (w <= m * n / 2.0 ? lower : upper) / total);
	return 0;
}

struct mw_obs {
	double v;
	bool in_x;
};

static int cmp_obs(const void *a, const void *b)
{
	return cmp_double(&((const struct mw_obs *)a)->v,
			  &((const struct mw_obs *)b)->v);
}

int stats_mann_whitney(const double *x, int nx, const double *y, int ny,
		       struct stats_mw *out)
{
	int n = nx + ny, i, j, t, tx;
	double ranks = 0, ties = 0, z, sigma, corr;
	struct mw_obs *o;

	if (nx < 1 || ny < 1)
		return -EINVAL;
	/* NaN would not even tie with itself below: the loop would not end */
	for (i = 0; i < n; i++) {
		if (!isfinite(i < nx ? x[i] : y[i - nx])) {
			*out = (struct stats_mw){ NAN, NAN, false };
			return -EINVAL;
		}
	}
	o = malloc((size_t)n * sizeof(*o));
	if (!o)
		return -ENOMEM;
	for (i = 0; i < nx; i++)
		o[i] = (struct mw_obs){ x[i], true };
	for (i = 0; i < ny; i++)
		o[nx + i] = (struct mw_obs){ y[i], false };
	qsort(o, n, sizeof(*o), cmp_obs);

	/* t values tied at ranks i + 1 .. j all get the midrank (i + 1 + j) / 2 */
	for (i = 0; i < n; i = j) {
		for (j = i, tx = 0; j < n && o[j].v == o[i].v; j++)
			tx += o[j].in_x;
		t = j - i;
		ranks += tx * (i + 1 + j) / 2.0;
		ties += (double)t * t * t - t;
	}
	free(o);

	out->w = ranks - nx * (nx + 1) / 2.0;
	out->exact = nx < 50 && ny < 50 && !ties;
	if (out->exact)
		return mw_exact_p(nx, ny, out->w, &out->p);

	/*
	 * Normal approximation as R's wilcox.test(): tie-corrected variance
	 * of W, continuity correction of 0.5 towards the mean nx ny / 2.
	 */
	z = out->w - nx * (double)ny / 2;
	sigma = sqrt(nx * (double)ny / 12 *
		     ((n + 1) - ties / ((double)n * (n - 1))));
	if (!(sigma > 0)) {
		/* all values equal: no evidence of any difference */
		out->p = 1;
		return 0;
	}
	corr = z > 0 ? 0.5 : z < 0 ? -0.5 : 0;
	z = (z - corr) / sigma;
	/* 2 min(Phi(z), 1 - Phi(z)) = 2 Phi(-|z|) */
	out->p = erfc(fabs(z) / M_SQRT2);
	return 0;
}

void stats_holm(const double *p, int n, double *adj)
{
	int i, j, r;

	/*
	 * As R's p.adjust(p, "holm"): the r-th smallest p-value (0-based) is
	 * multiplied by n - r, ties by the largest of their factors, then
	 * capped at 1 ...
	 */
	for (i = 0; i < n; i++) {
		for (j = 0, r = 0; j < n; j++)
			r += p[j] < p[i];
		adj[i] = fmin(1, (n - r) * p[i]);
	}
	/*
	 * ... and made monotone: adj[i] = max of adj[j] over p[j] <= p[i].
	 * Doing it in place is fine, as an updated adj[j] is a maximum over a
	 * subset of the same set.
	 */
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			if (p[j] <= p[i] && adj[j] > adj[i])
				adj[i] = adj[j];
}

/* splitmix64, Steele, Lea and Flood (2014), as in Vigna's reference code */
static unsigned long long splitmix64(unsigned long long *s)
{
	unsigned long long z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Median of n draws with replacement from v[0..n-1], buf as scratch. */
static double resample_median(const double *v, int n, double *buf,
			      unsigned long long *s)
{
	int i;

	/* the modulo bias, below n / 2^64, does not matter */
	for (i = 0; i < n; i++)
		buf[i] = v[splitmix64(s) % n];
	return median_sort(buf, n);
}

int stats_boot_ratio_ci(const double *x, int nx, const double *y, int ny,
			int resamples, unsigned long long seed, double level,
			double *lo, double *hi)
{
	unsigned long long s = seed;
	double *r, *buf, mx;
	int i;

	if (nx < 1 || ny < 1 || resamples < 1 || !(level > 0 && level < 1))
		return -EINVAL;
	/* a median of x of one sign, never 0, keeps every ratio finite */
	for (i = 0; i < nx; i++)
		if (!(x[i] * x[0] > 0))
			return -EINVAL;

	r = malloc((size_t)resamples * sizeof(*r));
	buf = malloc((size_t)(nx > ny ? nx : ny) * sizeof(*buf));
	if (!r || !buf) {
		free(r);
		free(buf);
		return -ENOMEM;
	}
	for (i = 0; i < resamples; i++) {
		mx = resample_median(x, nx, buf, &s);
		r[i] = resample_median(y, ny, buf, &s) / mx;
	}
	/* percentile method: the central `level` part of the ratios */
	qsort(r, resamples, sizeof(*r), cmp_double);
	*lo = stats_quantile(r, resamples, (1 - level) / 2);
	*hi = stats_quantile(r, resamples, (1 + level) / 2);
	free(buf);
	free(r);
	return 0;
}

int stats_runs_needed(const double *x, int nx, const double *y, int ny)
{
	/* R's qnorm(0.975) and qnorm(0.8), to 17 digits */
	const double z_a = 1.9599639845400536, z_b = 0.84162123357291441;
	double delta, sx, sy, var, n;

	if (nx < 1 || ny < 1 || nx + ny < 3)
		return -EINVAL;
	delta = stats_median(y, ny) - stats_median(x, nx);
	if (isnan(delta))
		return -ENOMEM;
	if (delta == 0)
		return -1;
	sx = stats_sd(x, nx);
	sy = stats_sd(y, ny);
	var = ((nx - 1) * sx * sx + (ny - 1) * sy * sy) / (nx + ny - 2);
	/*
	 * Per-arm n of the two-sample z test, 2 (z_a + z_b)^2 sd^2 / delta^2,
	 * divided by the Mann-Whitney test's asymptotic relative efficiency
	 * against it, 3 / pi (normal data; Lehmann, Nonparametrics, 1975).
	 */
	n = ceil(2 * (z_a + z_b) * (z_a + z_b) * var / (delta * delta) *
		 M_PI / 3);
	if (n < 2)
		return 2;
	return n > INT_MAX ? INT_MAX : (int)n;
}
