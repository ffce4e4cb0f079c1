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
 * Counts c(k; m, n), k = 0 .. m n, of the orderings of m x's and n y's
 * with W = k, no ties, from R's cwilcox() recursion on whether the largest
 * value is an x (greater than all j y's) or a y:
 *
 *	c(k; i, j) = c(k - j; i - 1, j) + c(k; i, j - 1)
 *
 * It only adds positive counts, so doubles stay accurate beyond 2^53.
 * NULL if out of memory.
 */
static double *mw_counts(int m, int n)
{
	int len = m * n + 1, i, j, k;
	double *c = calloc((size_t)(m + 1) * len, sizeof(*c));
	double *row, *prev;

	if (!c)
		return NULL;
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
	memmove(c, c + m * len, len * sizeof(*c));
	return c;
}

/*
 * Two-sided p-value of statistic value w from the null counts c[0..len-1]
 * of a distribution symmetric about (len - 1) / 2, as R: min(1, 2 P), P
 * the tail on w's side.
 */
static double exact_p(const double *c, int len, double w)
{
	double total = 0, lower = 0, upper = 0;
	int k;

	for (k = 0; k < len; k++) {
		total += c[k];
		if (k <= w)
			lower += c[k];
		if (k >= w)
			upper += c[k];
	}
	return fmin(1, 2 * (w <= (len - 1) / 2.0 ? lower : upper) / total);
}

/* Exact two-sided p-value of W = w for m x's and n y's without ties. */
static int mw_exact_p(int m, int n, double w, double *p)
{
	double *c = mw_counts(m, n);

	if (!c)
		return -ENOMEM;
	*p = exact_p(c, m * n + 1, w);
	free(c);
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

double stats_mann_whitney_min_p(int nx, int ny)
{
	double c = 1;
	int i;

	/* choose(nx + ny, nx) as a product of ratios: stays accurate */
	for (i = 1; i <= nx; i++)
		c = c * (ny + i) / i;
	return fmin(1, 2 / c);
}

double stats_signed_rank_min_p(int n)
{
	return fmin(1, 2 / pow(2, n));
}

/*
 * Null distribution of the signed-rank statistic V for n differences:
 * c[k], k = 0 .. n (n + 1) / 2, the number of the 2^n sign patterns with
 * V = k, built up rank by rank as R's csignrank():
 *
 *	c_j(k) = c_{j-1}(k) + c_{j-1}(k - j)
 *
 * Doubles hold the counts up to n = 1000 (2^1000 < DBL_MAX); only sums of
 * positive counts are formed.  NULL if out of memory.
 */
static double *signrank_counts(int n)
{
	int m = n * (n + 1) / 2, j, k;
	double *c = calloc((size_t)m + 1, sizeof(*c));

	if (!c)
		return NULL;
	c[0] = 1;
	for (j = 1; j <= n; j++)
		for (k = j * (j + 1) / 2; k >= j; k--)
			c[k] += c[k - j];
	return c;
}

/* Ranks of |d[i]| into r[] (midranks for ties); returns sum (t^3 - t). */
static double abs_ranks(const double *d, int n, double *r)
{
	struct mw_obs *o = malloc((size_t)n * sizeof(*o));
	double ties = 0;
	int i, j, k, t;

	if (!o)
		return NAN;
	for (i = 0; i < n; i++)
		o[i] = (struct mw_obs){ fabs(d[i]), d[i] > 0 };
	qsort(o, n, sizeof(*o), cmp_obs);
	/* r[] in sorted order is all the caller needs: ranks and signs */
	for (i = 0; i < n; i = j) {
		for (j = i; j < n && o[j].v == o[i].v; j++)
			;
		t = j - i;
		for (k = i; k < j; k++)
			r[k] = o[k].in_x ? (i + 1 + j) / 2.0 : -(i + 1 + j) / 2.0;
		ties += (double)t * t * t - t;
	}
	free(o);
	return ties;
}

/* The test's p-value and V from the nz non-zero differences nzd[]. */
static int signed_rank_p(const double *nzd, int nz, struct stats_sr *out)
{
	double *r = malloc(((size_t)nz + 1) * sizeof(*r)), *c, ties, z, sigma;
	double corr;
	int i, m = nz * (nz + 1) / 2;

	if (!r)
		return -ENOMEM;
	ties = abs_ranks(nzd, nz, r);
	if (isnan(ties)) {
		free(r);
		return -ENOMEM;
	}
	out->v = 0;
	for (i = 0; i < nz; i++)
		if (r[i] > 0)
			out->v += r[i];
	free(r);
	if (!nz) {
		/* every difference is 0: no evidence of any */
		out->p = 1;
		out->exact = false;
		return 0;
	}
	out->exact = nz < 50 && !ties && nz == out->n;
	if (out->exact) {
		c = signrank_counts(nz);
		if (!c)
			return -ENOMEM;
		out->p = exact_p(c, m + 1, out->v);
		free(c);
		return 0;
	}
	/* as R: tie-corrected variance, continuity correction of 0.5 */
	z = out->v - m / 2.0;
	sigma = sqrt(nz * (nz + 1.0) * (2 * nz + 1) / 24 - ties / 48);
	if (!(sigma > 0)) {
		out->p = 1;
		return 0;
	}
	corr = z > 0 ? 0.5 : z < 0 ? -0.5 : 0;
	out->p = erfc(fabs((z - corr) / sigma) / M_SQRT2);
	return 0;
}

/*
 * Rank qu (1-based) of the lower bound among the sorted Walsh averages and
 * the achieved alpha, as R: qu = qsignrank(alpha / 2, n), at least 1.
 */
static int signed_rank_ci_rank(int n, double alpha, int *qu, double *achieved)
{
	/* R's qnorm(1 - alpha / 2) is not in C: invert erfc by bisection */
	double *c, total = 0, cum = 0, lo = 0, hi = 40, zq, s;
	int m = n * (n + 1) / 2, k;

	if (n > 1000) {
		while (hi - lo > 1 / 1e12) {
			zq = (lo + hi) / 2;
			if (erfc(zq / M_SQRT2) > alpha)
				lo = zq;
			else
				hi = zq;
		}
		s = sqrt(n * (n + 1.0) * (2 * n + 1) / 24);
		k = (int)floor(m / 2.0 - lo * s);
		*qu = k < 1 ? 1 : k;
		*achieved = alpha;
		return 0;
	}
	c = signrank_counts(n);
	if (!c)
		return -ENOMEM;
	for (k = 0; k <= m; k++)
		total += c[k];
	for (k = 0; k <= m; k++) {
		cum += c[k];
		if (cum / total >= alpha / 2)
			break;
	}
	*qu = k ? k : 1;
	/* 2 P(V <= qu - 1) */
	for (k = 0, cum = 0; k < *qu; k++)
		cum += c[k];
	*achieved = fmin(1, 2 * cum / total);
	free(c);
	return 0;
}

int stats_signed_rank(const double *d, int n, double level,
		      struct stats_sr *out)
{
	size_t m = (size_t)n * (n + 1) / 2, k = 0;
	double *w, *nzd, achieved;
	int i, j, nz = 0, qu, ret;

	*out = (struct stats_sr){ .n = n, .v = NAN, .p = NAN, .est = NAN,
				  .lo = NAN, .hi = NAN, .level = NAN };
	if (n < 1 || !(level > 0 && level < 1))
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (!isfinite(d[i]))
			return -EINVAL;
	nzd = malloc((size_t)n * sizeof(*nzd));
	w = malloc(m * sizeof(*w));
	if (!nzd || !w) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++)
		if (d[i] != 0)
			nzd[nz++] = d[i];
	out->nz = nz;
	ret = signed_rank_p(nzd, nz, out);
	if (ret)
		goto out;

	for (i = 0; i < n; i++)
		for (j = i; j < n; j++)
			w[k++] = (d[i] + d[j]) / 2;
	qsort(w, m, sizeof(*w), cmp_double);
	out->est = m % 2 ? w[m / 2] : (w[m / 2 - 1] + w[m / 2]) / 2;
	ret = signed_rank_ci_rank(n, 1 - level, &qu, &achieved);
	if (ret)
		goto out;
	/* R: c(diffs[qu], diffs[ql + 1]), ql = m - qu, 1-based */
	out->lo = w[qu - 1];
	out->hi = w[m - qu];
	out->level = 1 - achieved;
out:
	free(nzd);
	free(w);
	return ret;
}

int stats_pairs_needed(const double *d, int n)
{
	/* R's qnorm(0.975) and qnorm(0.8), to 17 digits */
	const double z_a = 1.9599639845400536, z_b = 0.84162123357291441;
	double med, sd, k;

	if (n < 2)
		return -EINVAL;
	med = stats_median(d, n);
	if (isnan(med))
		return -ENOMEM;
	if (med == 0)
		return -1;
	sd = stats_sd(d, n);
	k = ceil((z_a + z_b) * (z_a + z_b) * sd * sd / (med * med) * M_PI / 3);
	if (k < 2)
		return 2;
	return k > INT_MAX ? INT_MAX : (int)k;
}

int stats_null_p_cdf(int nx, int ny, const double *t, int nt, double *cdf)
{
	double *c, total = 0, lower = 0, tail, p;
	int len, i, k;

	if (nx < 1 || nx > 200 || ny < 0 || ny > 200)
		return -EINVAL;
	c = ny ? mw_counts(nx, ny) : signrank_counts(nx);
	if (!c)
		return -ENOMEM;
	len = ny ? nx * ny + 1 : nx * (nx + 1) / 2 + 1;
	for (k = 0; k < len; k++)
		total += c[k];
	for (i = 0; i < nt; i++)
		cdf[i] = 0;
	/*
	 * P(p <= t): the probability of every statistic value whose p-value
	 * (as exact_p(), from the running lower tail) is at most t.
	 */
	for (k = 0; k < len; k++) {
		tail = k <= (len - 1) / 2.0 ? lower + c[k] : total - lower;
		p = fmin(1, 2 * tail / total);
		lower += c[k];
		for (i = 0; i < nt; i++)
			if (p <= t[i] * (1 + 1 / 1e12))
				cdf[i] += c[k] / total;
	}
	free(c);
	return 0;
}

void stats_permute(int *idx, int n, unsigned long long *state)
{
	int i, j, t;

	for (i = 0; i < n; i++)
		idx[i] = i;
	/* Fisher-Yates; the modulo bias, below n / 2^64, does not matter */
	for (i = n - 1; i > 0; i--) {
		j = (int)(splitmix64(state) % (unsigned long long)(i + 1));
		t = idx[i];
		idx[i] = idx[j];
		idx[j] = t;
	}
}
