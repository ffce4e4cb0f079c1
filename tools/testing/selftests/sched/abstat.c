// SPDX-License-Identifier: GPL-2.0
/*
 * abstat: the verdict of an A/B run (ab.sh's samples.csv).
 *
 * For every workload, each arm is compared with the base arm: n, median
 * and CV per arm; per comparison the ratio of medians (as a change in
 * percent) with a percentile-bootstrap 95% confidence interval, the
 * two-sided Mann-Whitney U p-value, the Holm-adjusted p-value across all
 * comparisons of the table, a benchstat-style verdict ("~" when not
 * significant at --alpha after Holm, else "better" or "worse" by the
 * workload's direction), and the runs per arm needed to resolve the
 * observed effect.  Warm-up rounds are ignored.  A second table shows the
 * placement evidence per arm: wakeup migrations of the load's tasks and
 * the /proc/schedstat wakeup counters, and how they were taken (the
 * counters column, "window" or "command").  With several boots (bench.sh's
 * boot column), a third shows each boot's median per workload and arm and
 * their spread.
 *
 * Columns are found by name; unknown ones are ignored.  A malformed line
 * (number of fields other than the header's, a value that is not a finite
 * number, too long) is an error naming the file and line, and no table is
 * printed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kselftest.h"
#include "abmerge.h"
#include "json.h"
#include "stats.h"

#define MAX_GROUPS	256
#define MAX_SAMPLES	4096
#define MAX_COLS	64	/* of a CSV line */
#define LINE_LEN	4096	/* of a CSV line, with its newline and NUL */
#define NAME_MAX_LEN	64
#define MAX_LEVELS	8
#define MAX_BOOTS	64
#define SHORT_OPTS	"b:a:B:s:l:j:o:m:p:k:K:A:C:T:c:M:h"

struct group {
	char workload[NAME_MAX_LEN];
	char arm[NAME_MAX_LEN];
	int wl_rank, arm_rank;	/* table order */
	bool higher;		/* higher is better */
	int n;
	double v[MAX_SAMPLES];
	unsigned char boot[MAX_SAMPLES];	/* index into boots[] of v[i] */
	int round[MAX_SAMPLES];		/* round of v[i] (numbered across runs) */
	unsigned char pos[MAX_SAMPLES];	/* its position in the round, 0: unknown */
	/* placement evidence, summed over samples */
	int nm;
	double migr[MAX_SAMPLES];
	int np;			/* perf stat: context switches, CPU migrations */
	double ctxsw[MAX_SAMPLES], cpumig[MAX_SAMPLES];
	double ttwu, local, remote[MAX_LEVELS], affine[MAX_LEVELS];
	int levels;
	int ctr;		/* enum ctr: how its counters were taken */
};

static struct group *groups;
static int nr_groups;

/* labels of the boot column (bench.sh), in order of appearance */
static char boots[MAX_BOOTS][NAME_MAX_LEN];
static int nr_boots;

/* how the counters were taken (counters column), over all samples */
enum ctr {
	CTR_NONE,	/* no sample yet */
	CTR_UNKNOWN,	/* no counters column, or empty */
	CTR_WINDOW,	/* "window": around the measured window */
	CTR_COMMAND,	/* "command": around the whole command */
	CTR_MIXED,	/* not the same for all samples */
	CTR_BAD,	/* none of these */
};

static enum ctr counters;

static struct {
	const char *base, *label, *json, *order, *pairs, *clock;
	double alpha, margin, ci_target;
	bool ci_check;
	int resamples, blocks, blocks_of, kernel_aa;
	unsigned long long seed;
} opt = { .alpha = 0.05, .margin = 1, .resamples = 10000, .seed = 1, .blocks_of = 27 };

/*
 * Arms are listed in --order (the base first), then as they first appear:
 * per-round orders are random.
 */
static int arm_rank(const char *arm)
{
	const char *o = opt.order;
	size_t len = strlen(arm);
	int rank = 0;

	if (opt.base && !strcmp(arm, opt.base))
		return -1;
	while (o && *o) {
		if (!strncmp(o, arm, len) && (o[len] == ',' || !o[len]))
			return rank;
		o = strchr(o, ',');
		o = o ? o + 1 : NULL;
		rank++;
	}
	return 1000 + nr_groups;
}

static int cmp_group(const void *a, const void *b)
{
	const struct group *x = a, *y = b;

	if (x->wl_rank != y->wl_rank)
		return x->wl_rank - y->wl_rank;
	return x->arm_rank - y->arm_rank;
}

static struct group *group_of(const char *wl, const char *arm)
{
	struct group *g;
	int i;

	for (i = 0; i < nr_groups; i++)
		if (!strcmp(groups[i].workload, wl) && !strcmp(groups[i].arm, arm))
			return &groups[i];
	if (nr_groups == MAX_GROUPS)
		return NULL;
	g = &groups[nr_groups++];
	snprintf(g->workload, sizeof(g->workload), "%s", wl);
	snprintf(g->arm, sizeof(g->arm), "%s", arm);
	g->wl_rank = nr_groups;
	for (i = 0; i < nr_groups - 1; i++)
		if (!strcmp(groups[i].workload, wl)) {
			g->wl_rank = groups[i].wl_rank;
			break;
		}
	g->arm_rank = arm_rank(arm);
	return g;
}

static int col(char **names, int n, const char *want)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], want))
			return i;
	return -1;
}

/*
 * Splits line at its commas into f[0..max-1]; returns the number of fields,
 * more than max (the rest not stored) if there are more.
 */
static int split(char *line, char **f, int max)
{
	int n = 1;

	line[strcspn(line, "\r\n")] = '\0';
	f[0] = line;
	for (; *line; line++) {
		if (*line == ',') {
			*line = '\0';
			if (n < max)
				f[n] = line + 1;
			n++;
		}
	}
	return n;
}

/* The CSV file being read, for error messages. */
struct csv {
	const char *path;
	int line;
	FILE *fp;
	char *h[MAX_COLS], *f[MAX_COLS];	/* header, current row */
};

static void __printf(2, 3)
csv_err(const struct csv *c, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "abstat: %s:%d: ", c->path, c->line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* The next line into buf[LINE_LEN]: 1, 0 at the end, -1 if too long. */
static int csv_line(struct csv *c, char *buf)
{
	if (!fgets(buf, LINE_LEN, c->fp))
		return 0;
	c->line++;
	if (!strchr(buf, '\n') && !feof(c->fp)) {
		csv_err(c, "line longer than %d characters", LINE_LEN - 2);
		return -1;
	}
	return 1;
}

/* s as a finite number into *v: no more, no less, no NaN, no infinity. */
static bool finite_num(const char *s, double *v)
{
	char *end;

	*v = strtod(s, &end);
	return end != s && !*end && isfinite(*v);
}

/* Field col of the row as a finite number; NAN if empty and empty_ok. */
static int field_num(const struct csv *c, int col, bool empty_ok, double *v)
{
	if (empty_ok && !*c->f[col]) {
		*v = NAN;
		return 0;
	}
	if (finite_num(c->f[col], v))
		return 0;
	csv_err(c, "%s: '%s' is not a finite number", c->h[col], c->f[col]);
	return -1;
}

/* A counters field: how the row's counters were taken. */
static enum ctr ctr_of(const char *s)
{
	if (!*s)
		return CTR_UNKNOWN;
	if (!strcmp(s, "window"))
		return CTR_WINDOW;
	if (!strcmp(s, "command"))
		return CTR_COMMAND;
	return CTR_BAD;
}

static const char *ctr_name(int ctr)
{
	switch (ctr) {
	case CTR_WINDOW:
		return "window";
	case CTR_COMMAND:
		return "command";
	case CTR_MIXED:
		return "mixed";
	default:
		return "-";
	}
}

/* Index into boots[] of label, added if new; -1 if there are too many. */
static int boot_of(const char *label)
{
	int i;

	for (i = 0; i < nr_boots; i++)
		if (!strcmp(boots[i], label))
			return i;
	if (nr_boots == MAX_BOOTS)
		return -1;
	snprintf(boots[nr_boots], sizeof(boots[0]), "%s", label);
	return nr_boots++;
}

/*
 * Reads an ab.sh samples.csv: columns found by name, unknown ones ignored.
 * Any malformed line is an error that names the file and line.  Returns 0,
 * or -1 after an error message.
 */
static int load_csv(const char *path)
{
	static char line[LINE_LEN], head[LINE_LEN];
	int nh, n, c_round, c_warm, c_arm, c_wl, c_dir, c_val, c_mig, c_tc;
	int c_tl, c_dom, c_cs, c_cm, c_boot, c_ctr, lvl, ndom, b = 0, ret;
	int c_pos;
	enum ctr ctr;
	double rnd, pos = 0;
	double v, x, warm = 0, mig = NAN, tc = NAN, tl = NAN, cs = NAN, cm = NAN;
	double dom[2 * MAX_LEVELS];
	struct csv c = { .path = path };
	char *d, *tok;
	struct group *g;

	c.fp = fopen(path, "r");
	if (!c.fp) {
		fprintf(stderr, "abstat: %s: %s\n", path, strerror(errno));
		return -1;
	}
	ret = csv_line(&c, head);
	if (ret <= 0) {
		if (!ret)
			fprintf(stderr, "abstat: %s: empty file\n", path);
		goto err;
	}
	nh = split(head, c.h, MAX_COLS);
	if (nh > MAX_COLS) {
		csv_err(&c, "%d columns, at most %d", nh, MAX_COLS);
		goto err;
	}
	c_round = col(c.h, nh, "round");
	c_warm = col(c.h, nh, "warmup");
	c_arm = col(c.h, nh, "arm");
	c_wl = col(c.h, nh, "workload");
	c_dir = col(c.h, nh, "direction");
	c_val = col(c.h, nh, "value");
	c_mig = col(c.h, nh, "migrations");
	c_tc = col(c.h, nh, "ttwu_count");
	c_tl = col(c.h, nh, "ttwu_local");
	c_dom = col(c.h, nh, "domain_wake_remote_move_affine");
	c_cs = col(c.h, nh, "perf_ctx_switches");
	c_cm = col(c.h, nh, "perf_cpu_migrations");
	c_boot = col(c.h, nh, "boot");
	c_pos = col(c.h, nh, "order");
	c_ctr = col(c.h, nh, "counters");
	if (c_round < 0 || c_arm < 0 || c_wl < 0 || c_dir < 0 || c_val < 0) {
		csv_err(&c, "not an ab.sh samples.csv header");
		goto err;
	}
	while ((ret = csv_line(&c, line))) {
		if (ret < 0)
			goto err;
		n = split(line, c.f, MAX_COLS);
		if (n != nh) {
			csv_err(&c, "%d fields, want %d as in the header", n, nh);
			goto err;
		}
		/* everything is checked, warm-up rows too */
		if (field_num(&c, c_round, false, &rnd) ||
		    (c_pos >= 0 && field_num(&c, c_pos, false, &pos)))
			goto err;
		if (!(fabs(rnd) <= 1e9) || rnd != floor(rnd) || pos != floor(pos) ||
		    pos < 0 || pos > 255) {
			csv_err(&c, "round or order not an integer (order 0-255)");
			goto err;
		}
		if (field_num(&c, c_val, false, &v) ||
		    (c_warm >= 0 && field_num(&c, c_warm, false, &warm)) ||
		    (c_mig >= 0 && field_num(&c, c_mig, true, &mig)) ||
		    (c_tc >= 0 && field_num(&c, c_tc, true, &tc)) ||
		    (c_tl >= 0 && field_num(&c, c_tl, true, &tl)) ||
		    (c_cs >= 0 && field_num(&c, c_cs, true, &cs)) ||
		    (c_cm >= 0 && field_num(&c, c_cm, true, &cm)))
			goto err;
		if (strlen(c.f[c_wl]) >= NAME_MAX_LEN ||
		    strlen(c.f[c_arm]) >= NAME_MAX_LEN ||
		    (c_boot >= 0 && strlen(c.f[c_boot]) >= NAME_MAX_LEN)) {
			csv_err(&c, "workload, arm or boot longer than %d characters",
				NAME_MAX_LEN - 1);
			goto err;
		}
		ctr = c_ctr >= 0 ? ctr_of(c.f[c_ctr]) : CTR_UNKNOWN;
		if (ctr == CTR_BAD) {
			csv_err(&c, "counters: '%s' is neither window nor command",
				c.f[c_ctr]);
			goto err;
		}
		/* remote;affine per domain level; levels beyond MAX_LEVELS ignored */
		ndom = 0;
		d = c_dom >= 0 && *c.f[c_dom] ? c.f[c_dom] : NULL;
		while ((tok = strsep(&d, ";"))) {
			if (!finite_num(tok, &x)) {
				csv_err(&c, "%s: '%s' is not a finite number",
					c.h[c_dom], tok);
				goto err;
			}
			if (ndom < 2 * MAX_LEVELS)
				dom[ndom++] = x;
		}
		if (c_warm >= 0 && warm)
			continue;

		g = group_of(c.f[c_wl], c.f[c_arm]);
		if (!g) {
			csv_err(&c, "more than %d workload/arm pairs", MAX_GROUPS);
			goto err;
		}
		if (g->n == MAX_SAMPLES) {
			csv_err(&c, "more than %d samples of %s/%s", MAX_SAMPLES,
				g->workload, g->arm);
			goto err;
		}
		if (c_boot >= 0) {
			b = boot_of(c.f[c_boot]);
			if (b < 0) {
				csv_err(&c, "more than %d boots", MAX_BOOTS);
				goto err;
			}
		}
		if (counters == CTR_NONE)
			counters = ctr;
		else if (counters != ctr)
			counters = CTR_MIXED;
		if (g->ctr == CTR_NONE)
			g->ctr = ctr;
		else if (g->ctr != (int)ctr)
			g->ctr = CTR_MIXED;
		g->higher = !strcmp(c.f[c_dir], "higher");
		g->boot[g->n] = b;
		g->round[g->n] = (int)rnd;
		g->pos[g->n] = (unsigned char)pos;
		g->v[g->n++] = v;
		if (c_mig >= 0 && mig >= 0)
			g->migr[g->nm++] = mig;
		if (!isnan(cs) && !isnan(cm)) {
			g->ctxsw[g->np] = cs;
			g->cpumig[g->np++] = cm;
		}
		if (c_tc >= 0 && c_tl >= 0) {
			g->ttwu += isnan(tc) ? 0 : tc;
			g->local += isnan(tl) ? 0 : tl;
		}
		for (lvl = 0; lvl < ndom; lvl++) {
			if (lvl % 2)
				g->affine[lvl / 2] += dom[lvl];
			else
				g->remote[lvl / 2] += dom[lvl];
		}
		if ((ndom + 1) / 2 > g->levels)
			g->levels = (ndom + 1) / 2;
	}
	fclose(c.fp);
	return 0;
err:
	fclose(c.fp);
	return -1;
}

static struct group *base_of(const struct group *g)
{
	int i;

	for (i = 0; i < nr_groups; i++)
		if (!strcmp(groups[i].workload, g->workload) &&
		    (opt.base ? !strcmp(groups[i].arm, opt.base) : true))
			return &groups[i];
	return NULL;
}

/* What a comparison's pairs are. */
enum unit {
	UNIT_NONE,	/* no pairs: a value is not positive */
	UNIT_ROUND,	/* the same round of the same boot */
	UNIT_BOOT,	/* arms on different boots: boot medians, by slot */
};

struct cmp {
	struct group *g, *base;
	/* unpaired: every sample (UNIT_BOOT: every boot's median) */
	int nx, ny;			/* samples of base and of g */
	double change, lo, hi;		/* percent */
	struct stats_mw mw;
	double p_holm;
	int runs;
	/* paired: the log-ratios g / base of each unit */
	enum unit unit;
	int np;
	double *d;
	double *pg, *pb;		/* the values of each pair: g, base */
	struct stats_sr sr;
	double pchange, plo, phi;	/* percent, from exp() of sr */
	double pp_holm;
	int pairs_needed;
	double p_min;			/* smallest p attainable with np */
	bool attainable;		/* "different" can fire after Holm */
	bool nonpos;			/* a value is not positive: no log-ratio */
};

/* The slot of a boot label: its number after the last '-', else -1. */
static int boot_slot(int b)
{
	const char *s = strrchr(boots[b], '-');
	char *end;
	long v;

	s = s ? s + 1 : boots[b];
	v = strtol(s, &end, 10);
	return end != s && !*end && v >= 0 && v < INT_MAX ? (int)v : -1;
}

/* Medians of g's samples per boot into med[] (NAN where none). */
static void boot_medians(const struct group *g, double *med)
{
	static double buf[MAX_SAMPLES];
	int b, i, n;

	for (b = 0; b < nr_boots || b < 1; b++) {
		for (i = 0, n = 0; i < g->n; i++)
			if (g->boot[i] == b)
				buf[n++] = g->v[i];
		med[b] = n ? stats_median(buf, n) : NAN;
	}
}

/*
 * The pairs of c: with the same boots, each round in which both arms ran
 * (the arms of a round run back to back, in a random order); else the
 * boot is the unit: each boot's median, paired by slot (bench.sh boots
 * the kernels of slot N one after the other), unpaired over boots.
 * Fills c->unit, c->np, c->d, and the unpaired samples into x[], y[].
 */
static int make_pairs(struct cmp *c, double *x, double *y)
{
	const struct group *g = c->g, *b = c->base;
	double mg[MAX_BOOTS], mb[MAX_BOOTS];
	bool shared = true, used[MAX_BOOTS] = { false };
	int i, j, k, s;

	c->d = malloc((size_t)(g->n > 0 ? g->n : 1) * sizeof(*c->d));
	c->pg = malloc((size_t)(g->n > 0 ? g->n : 1) * sizeof(*c->pg));
	c->pb = malloc((size_t)(g->n > 0 ? g->n : 1) * sizeof(*c->pb));
	if (!c->d || !c->pg || !c->pb)
		return -ENOMEM;
	for (i = 0; i < b->n; i++)
		used[b->boot[i]] = true;
	for (i = 0; i < g->n; i++)
		shared &= used[g->boot[i]];
	c->np = 0;
	if (shared) {
		c->unit = UNIT_ROUND;
		memcpy(x, b->v, b->n * sizeof(*x));
		memcpy(y, g->v, g->n * sizeof(*y));
		c->nx = b->n;
		c->ny = g->n;
		for (i = 0; i < g->n; i++) {
			for (j = 0; j < b->n; j++)
				if (b->round[j] == g->round[i] &&
				    b->boot[j] == g->boot[i])
					break;
			if (j < b->n) {
				c->pg[c->np] = g->v[i];
				c->pb[c->np] = b->v[j];
				c->d[c->np++] = log(g->v[i] / b->v[j]);
			}
		}
	} else {
		c->unit = UNIT_BOOT;
		boot_medians(g, mg);
		boot_medians(b, mb);
		c->nx = 0;
		c->ny = 0;
		for (i = 0; i < nr_boots; i++) {
			if (!isnan(mb[i]))
				x[c->nx++] = mb[i];
			if (!isnan(mg[i]))
				y[c->ny++] = mg[i];
		}
		/* pair g's boot of slot s with base's boot of slot s */
		for (i = 0; i < nr_boots; i++) {
			s = boot_slot(i);
			if (isnan(mg[i]) || s < 0)
				continue;
			for (k = 0; k < nr_boots; k++)
				if (!isnan(mb[k]) && boot_slot(k) == s)
					break;
			if (k < nr_boots) {
				c->pg[c->np] = mg[i];
				c->pb[c->np] = mb[k];
				c->d[c->np++] = log(mg[i] / mb[k]);
			}
		}
	}
	for (i = 0; i < c->np; i++)
		if (!isfinite(c->d[i]))
			c->np = 0;
	if (!c->np)
		c->unit = c->unit == UNIT_ROUND ? UNIT_NONE : c->unit;
	return 0;
}

/* c's comparisons, paired and unpaired; -1 after an error message. */
static int compare(struct cmp *c)
{
	static double x[MAX_SAMPLES], y[MAX_SAMPLES];
	const struct group *g = c->g;
	int i;

	if (make_pairs(c, x, y)) {
		fprintf(stderr, "abstat: out of memory\n");
		return -1;
	}
	/* no pair has a log-ratio if a value is not positive */
	for (i = 0; i < c->nx; i++)
		c->nonpos |= !(x[i] > 0);
	for (i = 0; i < c->ny; i++)
		c->nonpos |= !(y[i] > 0);
	if (c->nonpos)
		c->np = 0;
	if (stats_boot_ratio_ci(x, c->nx, y, c->ny, opt.resamples, opt.seed,
				0.95, &c->lo, &c->hi) ||
	    stats_mann_whitney(x, c->nx, y, c->ny, &c->mw)) {
		fprintf(stderr, "abstat: %s/%s: too few samples\n",
			g->workload, g->arm);
		return -1;
	}
	c->change = 100 * (stats_median(y, c->ny) / stats_median(x, c->nx) - 1);
	c->lo = 100 * (c->lo - 1);
	c->hi = 100 * (c->hi - 1);
	c->runs = stats_runs_needed(x, c->nx, y, c->ny);
	if (!c->np) {
		c->unit = UNIT_NONE;
		return 0;
	}
	if (stats_signed_rank(c->d, c->np, 0.95, &c->sr)) {
		fprintf(stderr, "abstat: %s/%s: signed-rank test failed\n",
			g->workload, g->arm);
		return -1;
	}
	c->pchange = 100 * (exp(c->sr.est) - 1);
	c->plo = 100 * (exp(c->sr.lo) - 1);
	c->phi = 100 * (exp(c->sr.hi) - 1);
	c->pairs_needed = c->np > 1 ? stats_pairs_needed(c->d, c->np) : -EINVAL;
	return 0;
}

/* The verdict's p-value, CI and the smallest p it could have. */
static bool paired(const struct cmp *c)
{
	return c->unit != UNIT_NONE;
}

static double v_p_holm(const struct cmp *c)
{
	return paired(c) ? c->pp_holm : c->p_holm;
}

static double v_lo(const struct cmp *c)
{
	return paired(c) ? c->plo : c->lo;
}

static double v_hi(const struct cmp *c)
{
	return paired(c) ? c->phi : c->hi;
}

/*
 * "better"/"worse": Holm-adjusted p below alpha and the CI (95%, not
 * adjusted) excluding no change; "equivalent": the CI within +-margin;
 * "too-few": neither, and no p-value these pairs could give would pass
 * Holm; "~": neither.
 */
static const char *verdict_of(const struct cmp *c, double p_holm, double lo,
			      double hi, bool attainable)
{
	if (p_holm < opt.alpha && (lo > 0 || hi < 0))
		return (lo > 0) == c->g->higher ? "better" : "worse";
	if (lo >= -opt.margin && hi <= opt.margin)
		return "equivalent";
	return attainable ? "~" : "too-few";
}

static const char *verdict(const struct cmp *c)
{
	return verdict_of(c, v_p_holm(c), v_lo(c), v_hi(c), c->attainable);
}

static const char *verdict_unpaired(const struct cmp *c)
{
	double pmin = stats_mann_whitney_min_p(c->nx, c->ny);

	return verdict_of(c, c->p_holm, c->lo, c->hi, pmin < opt.alpha);
}

/* Half-width of the verdict's 95% CI in percent; INFINITY without one. */
static double ci_halfwidth(const struct cmp *c)
{
	double w = (v_hi(c) - v_lo(c)) / 2;

	return isfinite(w) && w >= 0 ? w : INFINITY;
}

/*
 * --ci-target: whether every comparison's CI half-width is at most the
 * target, and the widest; returns the number of comparisons wider.
 */
static int print_ci_target(FILE *f, const struct cmp *cmps, int nc)
{
	const struct cmp *w = NULL;
	int i, over = 0;

	for (i = 0; i < nc; i++) {
		double h = ci_halfwidth(&cmps[i]);

		if (!(h <= opt.ci_target))
			over++;
		if (!w || h > ci_halfwidth(w))
			w = &cmps[i];
	}
	fprintf(f, "CI target +-%g%%: ", opt.ci_target);
	if (!w) {
		fprintf(f, "no comparison\n");
		return 0;
	}
	if (over)
		fprintf(f, "not met: %d of %d comparison(s) wider", over, nc);
	else
		fprintf(f, "met by all %d comparison(s)", nc);
	if (isfinite(ci_halfwidth(w)))
		fprintf(f, " (widest +-%.3g%%: %s %s, %d %s)\n", ci_halfwidth(w),
			w->g->workload, w->g->arm, paired(w) ? w->np : w->ny,
			paired(w) ? "pairs" : "samples");
	else
		fprintf(f, " (%s %s: no CI yet)\n", w->g->workload, w->g->arm);
	return over;
}

/*
 * Holm over the verdicts' p-values (paired where there are pairs) and,
 * separately, over the unpaired ones; then whether "different" can fire:
 * Holm's adjusted p of a comparison is at least the number of comparisons
 * times the smallest p-value of all, and at least its own smallest.
 */
static int holm_all(struct cmp *c, int nc)
{
	double *p = calloc(nc, sizeof(*p)), *adj = calloc(nc, sizeof(*adj));
	double floor_p = 1;
	int i;

	if (!p || !adj) {
		free(p);
		free(adj);
		return -1;
	}
	for (i = 0; i < nc; i++)
		p[i] = c[i].mw.p;
	stats_holm(p, nc, adj);
	for (i = 0; i < nc; i++) {
		c[i].p_holm = adj[i];
		p[i] = paired(&c[i]) ? c[i].sr.p : c[i].mw.p;
		c[i].p_min = paired(&c[i]) ? stats_signed_rank_min_p(c[i].np) :
			stats_mann_whitney_min_p(c[i].nx, c[i].ny);
		floor_p = fmin(floor_p, c[i].p_min);
	}
	stats_holm(p, nc, adj);
	for (i = 0; i < nc; i++) {
		c[i].pp_holm = paired(&c[i]) ? adj[i] : c[i].p_holm;
		c[i].attainable = fmax(nc * floor_p, c[i].p_min) < opt.alpha;
	}
	free(p);
	free(adj);
	return 0;
}

static const char *unit_name(enum unit u)
{
	return u == UNIT_ROUND ? "round" : u == UNIT_BOOT ? "boot" : "-";
}

static void print_table(FILE *f, struct cmp *cmps, int nc)
{
	const struct group *g;
	const struct cmp *c;
	int i, j;

	fprintf(f, "%-20s %-24s %4s %12s %7s %-5s %5s %9s %21s %8s %8s %-10s %s\n",
		"workload", "arm", "n", "median", "CV", "pairs", "n", "vs base",
		"95% CI", "p", "p(Holm)", "verdict", "pairs needed");
	for (i = 0; i < nr_groups; i++) {
		g = &groups[i];
		fprintf(f, "%-20s %-24s %4d %12.4g %6.2f%%", g->workload, g->arm,
			g->n, stats_median(g->v, g->n), 100 * stats_cv(g->v, g->n));
		for (j = 0; j < nc; j++)
			if (cmps[j].g == g)
				break;
		if (j == nc) {
			fprintf(f, " (base)\n");
			continue;
		}
		c = &cmps[j];
		if (!paired(c)) {
			fprintf(f, " %-5s %5s %9s %21s %8s %8s %-10s %s\n", "none",
				"-", "-", "-", "-", "-", verdict(c),
				c->nonpos ? "(unpaired verdict: a value is not positive)" :
				"(unpaired verdict: no round or boot number in common)");
			continue;
		}
		fprintf(f, " %-5s %5d %+8.2f%% [%+7.2f%%, %+7.2f%%] %8.3g %8.3g %-10s ",
			unit_name(c->unit), c->np, c->pchange, c->plo, c->phi,
			c->sr.p, c->pp_holm, verdict(c));
		if (strcmp(verdict(c), "~") && strcmp(verdict(c), "too-few"))
			fprintf(f, "-\n");
		else if (c->pairs_needed < 0)
			fprintf(f, "no effect\n");
		else
			fprintf(f, "%d\n", c->pairs_needed);
	}
}

/* The unpaired comparisons: every sample, as if the rounds were not. */
static void print_unpaired(FILE *f, struct cmp *cmps, int nc)
{
	const struct cmp *c;
	int i;

	fprintf(f, "\nunpaired, beside them (Mann-Whitney U over %s, percentile bootstrap CI of\n",
		nr_boots > 1 ? "samples; boot medians for arms on other boots" : "samples");
	fprintf(f, "the ratio of medians, Holm over the table):\n");
	fprintf(f, "%-20s %-24s %5s %5s %9s %21s %8s %8s %-10s %s\n", "workload",
		"arm", "n", "n base", "vs base", "95% CI", "p", "p(Holm)",
		"verdict", "runs needed");
	for (i = 0; i < nc; i++) {
		c = &cmps[i];
		fprintf(f, "%-20s %-24s %5d %5d %+8.2f%% [%+7.2f%%, %+7.2f%%] %8.3g %8.3g %-10s ",
			c->g->workload, c->g->arm, c->ny, c->nx, c->change, c->lo,
			c->hi, c->mw.p, c->p_holm, verdict_unpaired(c));
		if (c->runs < 0)
			fprintf(f, "no effect\n");
		else
			fprintf(f, "%d\n", c->runs);
	}
}

/* p as %.3g into buf[16]; 2 / 2^n underflows to 0 beyond n = 1075. */
static const char *p_str(double p, char *buf)
{
	if (p > 0)
		snprintf(buf, 16, "%.3g", p);
	else
		snprintf(buf, 16, "< 1e-300");
	return buf;
}

/*
 * The smallest attainable p-values beside the table, and what "too-few"
 * means when it appears.
 */
static void print_attainable(FILE *f, const struct cmp *cmps, int nc)
{
	double floor_p = 1;
	int i, np_min = INT_MAX, too_few = 0, need;
	char a[16];

	for (i = 0; i < nc; i++) {
		floor_p = fmin(floor_p, cmps[i].p_min);
		if (paired(&cmps[i]) && cmps[i].np < np_min)
			np_min = cmps[i].np;
		too_few += !cmps[i].attainable;
	}
	fprintf(f, "\nsmallest attainable p: %s (", p_str(floor_p, a));
	if (np_min < INT_MAX)
		fprintf(f, "signed-rank with %d pairs: 2 / 2^%d", np_min, np_min);
	else
		fprintf(f, "Mann-Whitney");
	fprintf(f, "); after Holm over %d: %s, %s alpha %.2f\n", nc,
		p_str(fmin(1, nc * floor_p), a), nc * floor_p < opt.alpha ? "below" :
		"NOT below", opt.alpha);
	if (!too_few)
		return;
	for (need = 1; need < 64 && nc * stats_signed_rank_min_p(need) >= opt.alpha; need++)
		;
	fprintf(f, "too-few: %d comparison(s) cannot reach \"different\" with these\n"
		"pairs, whatever the data; %d or more pairs each (rounds, or boots per\n"
		"kernel) can\n",
		too_few, need);
}

static void print_evidence(FILE *f)
{
	const struct group *g;
	int i, l;

	fprintf(f, "\nplacement evidence per arm: medians per run of the load's\n");
	fprintf(f, "se.nr_migrations and of perf stat's context switches and CPU\n");
	fprintf(f, "migrations; schedstat wakeups that were local, and per domain\n");
	fprintf(f, "level remote wakeups/affine moves, in %% of all wakeups\n");
	if (counters == CTR_WINDOW)
		fprintf(f, "counters taken around the measured window\n");
	else if (counters == CTR_COMMAND)
		fprintf(f, "counters taken around the whole command\n");
	else if (counters == CTR_MIXED)
		fprintf(f, "counters taken around (per row): window = the measured window,\n"
			"command = the whole command\n");
	fprintf(f, "%-20s %-24s %-7s %10s %10s %9s %8s  %s\n", "workload", "arm",
		"around", "migrations", "ctx-sw", "cpu-migr", "local", "L<level> remote/affine");
	for (i = 0; i < nr_groups; i++) {
		g = &groups[i];
		fprintf(f, "%-20s %-24s %-7s", g->workload, g->arm,
			ctr_name(g->ctr));
		if (g->nm)
			fprintf(f, " %10.0f", stats_median(g->migr, g->nm));
		else
			fprintf(f, " %10s", "-");
		if (g->np)
			fprintf(f, " %10.0f %9.0f", stats_median(g->ctxsw, g->np),
				stats_median(g->cpumig, g->np));
		else
			fprintf(f, " %10s %9s", "-", "-");
		if (g->ttwu > 0)
			fprintf(f, " %7.1f%% ", 100 * g->local / g->ttwu);
		else
			fprintf(f, " %8s ", "-");
		for (l = 0; l < g->levels && g->ttwu > 0; l++)
			fprintf(f, " L%d %.1f%%/%.1f%%", l, 100 * g->remote[l] / g->ttwu,
				100 * g->affine[l] / g->ttwu);
		fprintf(f, "\n");
	}
}

/*
 * Per workload, over the rounds in which every arm ran (on one boot): the
 * variance of log(value) split into a between-round part (what the
 * rounds share, which pairing removes) and a within-round part (what is
 * left for a paired test), from the two-way layout round x arm; and the
 * median within-round residual (arm and round effects removed) by the
 * position the arm ran at in its round: an effect of position (the first
 * arm after a switch running slower, say) shows as a residual of one
 * sign.  The arms' order in a round is random, so such an effect adds
 * noise rather than bias.
 */
static void print_rounds(FILE *f)
{
	static double x[MAX_SAMPLES][8], res[8][MAX_SAMPLES];
	static unsigned char pos[MAX_SAMPLES][8];
	double mean, sb, sw, eff[8], buf[MAX_SAMPLES], vb, vw;
	const struct group *a[8];
	int i, j, k, r, na, nr, p, np, header = 0;

	for (i = 0; i < nr_groups; i = j) {
		for (j = i; j < nr_groups && groups[j].wl_rank == groups[i].wl_rank; j++)
			;
		na = j - i;
		if (na < 2 || na > 8)
			continue;
		for (k = 0; k < na; k++)
			a[k] = &groups[i + k];
		/* the rounds of the first arm that every arm has */
		nr = 0;
		for (r = 0; r < a[0]->n && nr < MAX_SAMPLES; r++) {
			for (k = 0; k < na; k++) {
				for (p = 0; p < a[k]->n; p++)
					if (a[k]->round[p] == a[0]->round[r] &&
					    a[k]->boot[p] == a[0]->boot[r])
						break;
				if (p == a[k]->n || !(a[k]->v[p] > 0))
					break;
				x[nr][k] = log(a[k]->v[p]);
				pos[nr][k] = a[k]->pos[p];
			}
			nr += k == na;
		}
		if (nr < 3)
			continue;
		/* two-way layout: round means, arm effects, residuals */
		for (k = 0; k < na; k++)
			eff[k] = 0;
		sb = 0;
		for (r = 0; r < nr; r++) {
			for (k = 0, mean = 0; k < na; k++)
				mean += x[r][k] / na;
			for (k = 0; k < na; k++) {
				res[k][r] = x[r][k] - mean;
				eff[k] += res[k][r] / nr;
			}
			buf[r] = mean;
		}
		sb = stats_sd(buf, nr);
		sw = 0;
		for (r = 0; r < nr; r++)
			for (k = 0; k < na; k++) {
				res[k][r] -= eff[k];
				sw += res[k][r] * res[k][r];
			}
		/* E[var(round means)] = between + within / arms */
		vw = sw / ((nr - 1) * (na - 1));
		vb = fmax(0, sb * sb - vw / na);
		if (!header++) {
			fprintf(f, "\nrounds: variance of log(value) between rounds (shared by\n"
				"the arms of a round: pairing removes it) and within (left\n"
				"to the paired test), as SDs in %%; median residual by\n"
				"position in the round (arm, round effects removed)\n");
			fprintf(f, "%-20s %6s %9s %9s %8s  %s\n", "workload", "rounds",
				"between", "within", "between%", "position: 1st 2nd ...");
		}
		fprintf(f, "%-20s %6d %8.2f%% %8.2f%% %7.1f%% ", groups[i].workload, nr,
			100 * sqrt(vb), 100 * sqrt(vw), vb + vw > 0 ? 100 * vb / (vb + vw) : 0);
		for (p = 1; p <= na; p++) {
			for (r = 0, np = 0; r < nr; r++)
				for (k = 0; k < na; k++)
					if (pos[r][k] == p)
						buf[np++] = res[k][r];
			if (np)
				fprintf(f, " %+.2f%%", 100 * stats_median(buf, np));
			else
				fprintf(f, " -");
		}
		fprintf(f, "\n");
	}
}

/*
 * For plots: "pair WORKLOAD ARM UNIT RATIO" per pair (UNIT: the round, or
 * the slot), then "ci WORKLOAD ARM ESTIMATE LO HI VERDICT" per comparison
 * (ratios arm/base, paired where there are pairs).
 */
static void print_pairs(FILE *f, const struct cmp *cmps, int nc)
{
	const struct cmp *c;
	const struct group *g;
	int i, j, k, n;

	for (i = 0; i < nc; i++) {
		c = &cmps[i];
		g = c->g;
		for (j = 0, n = 0; paired(c) && c->unit == UNIT_ROUND && j < g->n; j++) {
			for (k = 0; k < c->base->n; k++)
				if (c->base->round[k] == g->round[j] &&
				    c->base->boot[k] == g->boot[j])
					break;
			if (k < c->base->n)
				fprintf(f, "pair %s %s %d %.6g\n", g->workload, g->arm,
					g->round[j], exp(c->d[n++]));
		}
		for (j = 0; c->unit == UNIT_BOOT && j < c->np; j++)
			fprintf(f, "pair %s %s %d %.6g\n", g->workload, g->arm, j + 1,
				exp(c->d[j]));
		fprintf(f, "ci %s %s %.6g %.6g %.6g %s\n", g->workload, g->arm,
			1 + (paired(c) ? c->pchange : c->change) / 100,
			1 + v_lo(c) / 100, 1 + v_hi(c) / 100, verdict(c));
	}
}

/*
 * --blocks N, for calibration (A/A) and power runs: each comparison's
 * pairs, in order (rounds, or boot slots), cut into consecutive blocks of
 * N, each tested as a run of its own, paired (signed-rank on the block's
 * log-ratios) and unpaired (Mann-Whitney on the block's values of both
 * arms).  Per comparison, how many blocks had p < alpha, were "different"
 * (Holm over the table's comparisons within the block, and the CI
 * excluding no change), and would pass as one of --blocks-of comparisons
 * (p < alpha / m: the default matrix has 27); then the histogram of all
 * blocks' p-values against the exact null distribution for N pairs (N
 * and N samples an arm), which is discrete, not uniform.
 */
/* relative slack when binning p-values that equal a threshold */
#define EPS	(1 / 1e12)
static const double hist_t[] = { 0.01, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1 };
#define NR_BINS	ARRAY_SIZE(hist_t)

struct block_res {
	double p, p_holm, lo, hi;	/* paired */
	double up, up_holm;		/* unpaired */
};

static int print_blocks(FILE *f, struct cmp *cmps, int nc)
{
	int N = opt.blocks, nb = INT_MAX, b, i, j, k;
	int hp[NR_BINS] = { 0 }, hu[NR_BINS] = { 0 }, total = 0;
	double *p, *adj, nullp[NR_BINS], nullu[NR_BINS];
	struct block_res *r;
	struct stats_sr sr;
	struct stats_mw mw;

	for (i = 0; i < nc; i++) {
		if (!paired(&cmps[i])) {
			fprintf(stderr, "abstat: --blocks: %s/%s has no pairs\n",
				cmps[i].g->workload, cmps[i].g->arm);
			return -1;
		}
		nb = cmps[i].np / N < nb ? cmps[i].np / N : nb;
	}
	if (!nc || nb < 1) {
		fprintf(stderr, "abstat: --blocks %d: fewer pairs than that\n", N);
		return -1;
	}
	r = calloc((size_t)nc * nb, sizeof(*r));
	p = calloc(nc, sizeof(*p));
	adj = calloc(nc, sizeof(*adj));
	if (!r || !p || !adj ||
	    stats_null_p_cdf(N, 0, hist_t, NR_BINS, nullp) ||
	    stats_null_p_cdf(N, N, hist_t, NR_BINS, nullu)) {
		fprintf(stderr, "abstat: --blocks: out of memory (or N > 200)\n");
		return -1;
	}
	for (b = 0; b < nb; b++) {
		for (i = 0; i < nc; i++) {
			struct block_res *x = &r[i * nb + b];
			const struct cmp *c = &cmps[i];

			if (stats_signed_rank(c->d + b * N, N, 0.95, &sr) ||
			    stats_mann_whitney(c->pb + b * N, N, c->pg + b * N, N, &mw))
				return -1;
			x->p = sr.p;
			x->lo = sr.lo;
			x->hi = sr.hi;
			x->up = mw.p;
		}
		for (k = 0; k < 2; k++) {
			for (i = 0; i < nc; i++)
				p[i] = k ? r[i * nb + b].up : r[i * nb + b].p;
			stats_holm(p, nc, adj);
			for (i = 0; i < nc; i++)
				*(k ? &r[i * nb + b].up_holm : &r[i * nb + b].p_holm) = adj[i];
		}
	}
	fprintf(f, "\nblocks of %d pairs, each tested on its own (%d blocks a\n"
		"comparison; paired / unpaired): p < %.2f; different (Holm over\n"
		"the %d comparisons in the block, CI excluding 0); p < %.2f/%d,\n"
		"as one of %d comparisons\n",
		N, nb, opt.alpha, nc, opt.alpha, opt.blocks_of, opt.blocks_of);
	fprintf(f, "%-20s %-24s %6s %13s %13s %13s %9s\n", "workload", "arm", "blocks",
		"p<alpha", "different", "p<alpha/m", "median");
	for (i = 0; i < nc; i++) {
		int n1 = 0, n2 = 0, n3 = 0, u1 = 0, u2 = 0, u3 = 0;
		double est[MAX_SAMPLES];

		for (b = 0; b < nb; b++) {
			const struct block_res *x = &r[i * nb + b];

			n1 += x->p < opt.alpha;
			n2 += x->p_holm < opt.alpha && (x->lo > 0 || x->hi < 0);
			n3 += x->p < opt.alpha / opt.blocks_of;
			u1 += x->up < opt.alpha;
			u2 += x->up_holm < opt.alpha;
			u3 += x->up < opt.alpha / opt.blocks_of;
			est[b] = stats_median(cmps[i].d + b * N, N);
			for (j = 0; j < (int)NR_BINS; j++) {
				hp[j] += x->p <= hist_t[j] * (1 + EPS) &&
					 (!j || x->p > hist_t[j - 1] * (1 + EPS));
				hu[j] += x->up <= hist_t[j] * (1 + EPS) &&
					 (!j || x->up > hist_t[j - 1] * (1 + EPS));
			}
		}
		total += nb;
		fprintf(f, "%-20s %-24s %6d %6d / %-4d %6d / %-4d %6d / %-4d %+8.2f%%\n",
			cmps[i].g->workload, cmps[i].g->arm, nb, n1, u1, n2, u2, n3, u3,
			100 * (exp(stats_median(est, nb)) - 1));
	}
	fprintf(f, "p-values of all %d blocks against the exact null distribution (no ties):\n",
		total);
	fprintf(f, "%-13s %8s %10s %10s %10s\n", "p in", "paired", "null", "unpaired", "null");
	for (j = 0; j < (int)NR_BINS; j++) {
		double lo = j ? hist_t[j - 1] : 0;

		fprintf(f, "%s%.2f, %.2f] %8d %10.1f %10d %10.1f\n", j ? "(" : "[", lo,
			hist_t[j], hp[j], total * (nullp[j] - (j ? nullp[j - 1] : 0)), hu[j],
			total * (nullu[j] - (j ? nullu[j - 1] : 0)));
	}
	free(r);
	free(p);
	free(adj);
	return 0;
}

/*
 * --kernel-aa K: a kernel A/A from the boots of one kernel.  Per arm with
 * at least 2K boots, 100 times (seeded): pick 2K of its boots at random,
 * call K of them kernel A and K kernel B (boot numbers 1..K each), and get
 * the verdict two ways: with the boot as the unit (each boot's median,
 * paired by boot number: signed-rank, and its CI) and pooled (every round
 * of a kernel's boots as one sample: Mann-Whitney), as abstat compared
 * kernels before.  Identical kernels: every "different" is a false one.
 */
#define KAA_REPS	100

static int print_kernel_aa(FILE *f)
{
	static double x[MAX_SAMPLES], y[MAX_SAMPLES];
	unsigned long long state = opt.seed;
	double med[MAX_BOOTS], d[MAX_BOOTS];
	int K = opt.kernel_aa, i, r, s, n, nx, ny, idx[MAX_BOOTS], side[MAX_BOOTS];
	int boot_diff, boot_few, pooled_diff, nb;
	struct stats_sr sr;
	struct stats_mw mw;
	bool header = false;

	for (i = 0; i < nr_groups; i++) {
		const struct group *g = &groups[i];

		boot_medians(g, med);
		for (nb = 0, s = 0; s < nr_boots; s++)
			nb += !isnan(med[s]);
		if (nb < 2 * K || nb != nr_boots)
			continue;
		if (!header) {
			fprintf(f, "\nkernel A/A from the boots of one kernel: %d random\n"
				"splits into 2 x %d boots (seed %llu); \"different\": p < %.2f\n"
				"and the CI excluding 0\n",
				KAA_REPS, K, opt.seed, opt.alpha);
			fprintf(f, "%-20s %-24s %5s %16s %9s %16s\n", "workload", "arm",
				"boots", "boot as unit", "too-few", "pooled rounds");
			header = true;
		}
		boot_diff = 0;
		boot_few = 0;
		pooled_diff = 0;
		for (r = 0; r < KAA_REPS; r++) {
			stats_permute(idx, nb, &state);
			for (s = 0; s < K; s++)
				d[s] = log(med[idx[K + s]] / med[idx[s]]);
			if (stats_signed_rank(d, K, 0.95, &sr))
				return -1;
			boot_few += stats_signed_rank_min_p(K) >= opt.alpha;
			boot_diff += sr.p < opt.alpha && (sr.lo > 0 || sr.hi < 0);
			/* which kernel each boot is: 0 (A), 1 (B), -1 (not picked) */
			for (s = 0; s < nb; s++)
				side[idx[s]] = s < K ? 0 : s < 2 * K ? 1 : -1;
			for (n = 0, nx = 0, ny = 0; n < g->n; n++) {
				if (side[g->boot[n]] == 0)
					x[nx++] = g->v[n];
				else if (side[g->boot[n]] == 1)
					y[ny++] = g->v[n];
			}
			if (stats_mann_whitney(x, nx, y, ny, &mw))
				return -1;
			pooled_diff += mw.p < opt.alpha;
		}
		fprintf(f, "%-20s %-24s %5d %9d of %3d %9d %9d of %3d\n", g->workload,
			g->arm, nb, boot_diff, KAA_REPS, boot_few, pooled_diff, KAA_REPS);
	}
	if (!header)
		fprintf(f, "\nkernel A/A: no arm has %d boots or more\n", 2 * K);
	return 0;
}

/* Medians of a group's samples per boot, and their spread. */
struct spread {
	int n;				/* boots with samples */
	int boot[MAX_BOOTS];		/* index into boots[] */
	double median[MAX_BOOTS];
	double pct;			/* 100 (max / min - 1), NAN if min <= 0 */
};

static void boot_spread(const struct group *g, struct spread *s)
{
	static double buf[MAX_SAMPLES];
	double lo = INFINITY, hi = -INFINITY;
	int b, i, n;

	s->n = 0;
	for (b = 0; b < nr_boots; b++) {
		for (i = 0, n = 0; i < g->n; i++)
			if (g->boot[i] == b)
				buf[n++] = g->v[i];
		if (!n)
			continue;
		s->boot[s->n] = b;
		s->median[s->n] = stats_median(buf, n);
		lo = fmin(lo, s->median[s->n]);
		hi = fmax(hi, s->median[s->n]);
		s->n++;
	}
	s->pct = lo > 0 ? 100 * (hi / lo - 1) : NAN;
}

/*
 * With several boots (bench.sh's boot column), per workload and arm the
 * median of each boot's samples, in order of the boots' appearance, and
 * their spread.
 */
static void print_spread(FILE *f)
{
	struct spread s;
	int i, j;

	if (nr_boots < 2)
		return;
	fprintf(f, "\nbetween-boot spread (median of each boot; spread = max/min - 1)\n");
	for (i = 0; i < nr_groups; i++) {
		boot_spread(&groups[i], &s);
		fprintf(f, "%-20s %-24s boots:", groups[i].workload,
			groups[i].arm);
		for (j = 0; j < s.n; j++)
			fprintf(f, " %.4g", s.median[j]);
		if (isnan(s.pct))
			fprintf(f, "  spread -\n");
		else
			fprintf(f, "  spread %.2f%%\n", s.pct);
	}
}

/* g's boot medians as {"boot": median, ...} and their spread, or null. */
static void json_spread(struct json *j, const struct group *g,
			const char *medians, const char *spread)
{
	struct json o;
	struct spread s;
	int i;

	boot_spread(g, &s);
	json_key(j, medians);
	json_begin(&o, j->f);
	for (i = 0; i < s.n; i++)
		json_num(&o, boots[s.boot[i]], s.median[i]);
	json_end(&o);
	if (isnan(s.pct)) {
		json_key(j, spread);
		fputs("null", j->f);
	} else {
		json_num(j, spread, s.pct);
	}
}

static void print_json(FILE *f, const struct cmp *cmps, int nc)
{
	struct json j, o;
	int i;

	fprintf(f, "[");
	for (i = 0; i < nc; i++) {
		const struct cmp *c = &cmps[i];
		const struct group *g = c->g, *b = c->base;

		fprintf(f, i ? ",\n " : "");
		json_begin(&j, f);
		json_str(&j, "workload", g->workload);
		json_str(&j, "arm", g->arm);
		json_str(&j, "base", b->arm);
		json_int(&j, "n", g->n);
		json_int(&j, "n_base", b->n);
		json_num(&j, "median", stats_median(g->v, g->n));
		json_num(&j, "median_base", stats_median(b->v, b->n));
		json_num(&j, "cv", stats_cv(g->v, g->n));
		json_num(&j, "cv_base", stats_cv(b->v, b->n));
		json_num(&j, "alpha", opt.alpha);
		json_num(&j, "margin_pct", opt.margin);
		if (opt.clock)
			json_str(&j, "clock", opt.clock);
		if (opt.label)
			json_str(&j, "label", opt.label);
		json_num(&j, "ci_halfwidth_pct", ci_halfwidth(c));
		json_str(&j, "verdict", verdict(c));
		json_bool(&j, "different_attainable", c->attainable);
		json_num(&j, "p_min", c->p_min);
		json_key(&j, "paired");
		json_begin(&o, f);
		json_str(&o, "unit", unit_name(c->unit));
		json_int(&o, "pairs", c->np);
		if (paired(c)) {
			json_num(&o, "change_pct", c->pchange);
			json_num(&o, "ci_lo_pct", c->plo);
			json_num(&o, "ci_hi_pct", c->phi);
			json_num(&o, "ci_level", c->sr.level);
			json_num(&o, "p", c->sr.p);
			json_bool(&o, "p_exact", c->sr.exact);
			json_num(&o, "p_holm", c->pp_holm);
			json_int(&o, "pairs_needed", c->pairs_needed);
		}
		json_end(&o);
		json_key(&j, "unpaired");
		json_begin(&o, f);
		json_int(&o, "n", c->ny);
		json_int(&o, "n_base", c->nx);
		json_num(&o, "change_pct", c->change);
		json_num(&o, "ci_lo_pct", c->lo);
		json_num(&o, "ci_hi_pct", c->hi);
		json_num(&o, "p", c->mw.p);
		json_bool(&o, "p_exact", c->mw.exact);
		json_num(&o, "p_holm", c->p_holm);
		json_str(&o, "verdict_unpaired", verdict_unpaired(c));
		json_int(&o, "runs_needed", c->runs);
		json_end(&o);
		if (nr_boots > 1) {
			json_spread(&j, g, "boot_medians", "boot_spread_pct");
			json_spread(&j, b, "boot_medians_base",
				    "boot_spread_pct_base");
		}
		json_end(&j);
	}
	fprintf(f, "]\n");
}

/* print(f, cmps, nc) into path (nothing if path is NULL); -1 after an error. */
static int write_out(const char *path, const char *opt_name,
		     void (*print)(FILE *, const struct cmp *, int),
		     const struct cmp *cmps, int nc)
{
	FILE *f;

	if (!path)
		return 0;
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "abstat: %s %s: %s\n", opt_name, path, strerror(errno));
		return -1;
	}
	print(f, cmps, nc);
	return fclose(f) ? -1 : 0;
}

static void print_help(FILE *f)
{
	fprintf(f,
		"usage: abstat [options] samples.csv...\n"
		"Verdict of an A/B run from ab.sh's (or bench.sh's merged) samples.csv:\n"
		"per workload, each arm against the base arm, paired by round (by boot for\n"
		"arms on other boots) with the unpaired comparison beside it; the variance\n"
		"between and within rounds; placement evidence; with a boot column of\n"
		"several boots, the between-boot spread.  Exits 1,\n"
		"printing no table, on a malformed line (error: abstat: FILE:LINE: ...).\n"
		"  -b, --base ARM       arm the others are compared with (default: first seen)\n"
		"  -a, --alpha A        significance level after Holm (default %.2f)\n"
		"  -B, --resamples N    bootstrap resamples (default %d)\n"
		"  -s, --seed S         bootstrap seed (default %llu)\n"
		"  -l, --label TEXT     printed above the table (e.g. emulated (TCG))\n"
		"  -j, --json FILE      also write the comparisons as JSON\n"
		"  -o, --order A,B,...  order of the arms in the tables\n"
		"  -m, --margin M       \"equivalent\" when the CI lies within +-M%% (default %g)\n"
		"  -p, --pairs FILE     also write the pairs and CIs (for plots)\n"
		"  -k, --blocks N       calibration, power: also test each block of N pairs\n"
		"                       on its own; p-value histogram against the exact null\n"
		"  -K, --blocks-of M    ... and count p < alpha / M (default %d: the default\n"
		"                       matrix's comparisons)\n"
		"  -A, --kernel-aa K    kernel A/A from one kernel's boots: 100 random\n"
		"                       splits into two kernels of K boots, verdicts with\n"
		"                       the boot as the unit and with rounds pooled\n"
		"  -C, --clock TEXT     what the values measure (e.g. wall-clock), into the JSON\n"
		"  -T, --ci-target X    say whether every comparison's 95%% CI half-width is\n"
		"                       at most X%% (the widest named)\n"
		"  -c, --ci-check X     only that line (1000 resamples); exit 0 if met, 3 if not\n"
		"  -M, --merge OUT     merge the runs named as arguments (LABEL-N directories\n"
		"                       with ab/samples.csv) into OUT, then stop\n"
		"  -h, --help           this help\n",
		opt.alpha, opt.resamples, opt.seed, opt.margin, opt.blocks_of);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "base",	required_argument, NULL, 'b' },
		{ "alpha",	required_argument, NULL, 'a' },
		{ "resamples",	required_argument, NULL, 'B' },
		{ "seed",	required_argument, NULL, 's' },
		{ "label",	required_argument, NULL, 'l' },
		{ "json",	required_argument, NULL, 'j' },
		{ "order",	required_argument, NULL, 'o' },
		{ "margin",	required_argument, NULL, 'm' },
		{ "pairs",	required_argument, NULL, 'p' },
		{ "blocks",	required_argument, NULL, 'k' },
		{ "blocks-of",	required_argument, NULL, 'K' },
		{ "kernel-aa",	required_argument, NULL, 'A' },
		{ "clock",	required_argument, NULL, 'C' },
		{ "ci-target",	required_argument, NULL, 'T' },
		{ "ci-check",	required_argument, NULL, 'c' },
		{ "merge",	required_argument, NULL, 'M' },
		{ "help",	no_argument,       NULL, 'h' },
		{ }
	};
	struct cmp *cmps;
	char *end;
	const char *merge = NULL;
	long v;
	int c, i, nc = 0;

	while ((c = getopt_long(argc, argv, SHORT_OPTS, opts, NULL)) != -1) {
		switch (c) {
		case 'b':
			opt.base = optarg;
			break;
		case 'a':
			opt.alpha = atof(optarg);
			break;
		case 'B':
			opt.resamples = atoi(optarg);
			break;
		case 's':
			opt.seed = strtoull(optarg, NULL, 0);
			break;
		case 'l':
			opt.label = optarg;
			break;
		case 'j':
			opt.json = optarg;
			break;
		case 'o':
			opt.order = optarg;
			break;
		case 'm':
			opt.margin = strtod(optarg, &end);
			if (end == optarg || *end || !(opt.margin >= 0 && opt.margin < 100)) {
				fprintf(stderr, "abstat: --margin '%s': %s\n",
					optarg, "want a percentage in [0, 100)");
				return 1;
			}
			break;
		case 'p':
			opt.pairs = optarg;
			break;
		case 'C':
			opt.clock = optarg;
			break;
		case 'M':
			merge = optarg;
			break;
		case 'c':
		case 'T':
			if (c == 'c') {
				opt.ci_check = true;
				opt.resamples = 1000;
			}
			opt.ci_target = strtod(optarg, &end);
			if (end == optarg || *end || !(opt.ci_target > 0 && opt.ci_target < 100)) {
				fprintf(stderr, "abstat: -%c '%s': %s\n", c,
					optarg, "want a percentage in (0, 100)");
				return 1;
			}
			break;
		case 'k':
		case 'K':
		case 'A':
			v = strtol(optarg, &end, 10);
			if (end == optarg || *end || v < 1 || v > 200) {
				fprintf(stderr, "abstat: -%c '%s': want 1-200\n",
					c, optarg);
				return 1;
			}
			*(c == 'k' ? &opt.blocks : c == 'K' ? &opt.blocks_of :
			  &opt.kernel_aa) = (int)v;
			break;
		case 'h':
			print_help(stdout);
			return 0;
		default:
			print_help(stderr);
			return 1;
		}
	}
	if (merge)
		return ab_merge(merge, argv + optind, argc - optind) ? 1 : 0;
	if (optind == argc || opt.alpha <= 0 || opt.alpha >= 1 || opt.resamples < 100) {
		print_help(stderr);
		return 1;
	}
	groups = calloc(MAX_GROUPS, sizeof(*groups));
	cmps = calloc(MAX_GROUPS, sizeof(*cmps));
	if (!groups || !cmps)
		return 1;
	for (i = optind; i < argc; i++)
		if (load_csv(argv[i]))
			return 1;
	if (!nr_groups) {
		fprintf(stderr, "abstat: no measured samples\n");
		return 1;
	}
	qsort(groups, nr_groups, sizeof(*groups), cmp_group);

	for (i = 0; i < nr_groups; i++) {
		struct group *g = &groups[i], *b = base_of(g);
		struct cmp *k = &cmps[nc];

		if (!b) {
			fprintf(stderr, "abstat: workload %s has no arm %s\n",
				g->workload, opt.base);
			return 1;
		}
		if (b == g)
			continue;
		k->g = g;
		k->base = b;
		if (compare(k))
			return 1;
		nc++;
	}
	if (holm_all(cmps, nc))
		return 1;
	if (opt.ci_check)
		return print_ci_target(stdout, cmps, nc) ? 3 : 0;

	if (opt.label)
		printf("%s\n", opt.label);
	printf("%d comparison(s) with the base arm, alpha %.2f after Holm.  Paired: per round\n"
	       "(arms on other boots: per boot, by slot) the log-ratio arm/base; Wilcoxon\n"
	       "signed-rank p; change = Hodges-Lehmann estimate, its exact 95%% CI (not\n"
	       "adjusted for the %d comparisons).  different (better/worse): Holm p < %.2f and\n"
	       "the CI excludes 0; equivalent: the CI within +-%g%%\n\n",
	       nc, opt.alpha, nc, opt.alpha, opt.margin);
	print_table(stdout, cmps, nc);
	if (nc) {
		print_attainable(stdout, cmps, nc);
		if (opt.ci_target)
			print_ci_target(stdout, cmps, nc);
		print_unpaired(stdout, cmps, nc);
		printf("(bootstrap: %d resamples, seed %llu)\n", opt.resamples,
		       opt.seed);
	}
	print_rounds(stdout);
	if (opt.blocks && print_blocks(stdout, cmps, nc))
		return 1;
	if (opt.kernel_aa && print_kernel_aa(stdout))
		return 1;
	print_evidence(stdout);
	print_spread(stdout);
	if (write_out(opt.json, "--json", print_json, cmps, nc) ||
	    write_out(opt.pairs, "--pairs", print_pairs, cmps, nc))
		return 1;
	return 0;
}
