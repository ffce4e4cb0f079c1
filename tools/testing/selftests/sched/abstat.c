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
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kselftest.h"
#include "json.h"
#include "stats.h"

#define MAX_GROUPS	256
#define MAX_SAMPLES	4096
#define MAX_COLS	64	/* of a CSV line */
#define LINE_LEN	4096	/* of a CSV line, with its newline and NUL */
#define NAME_MAX_LEN	64
#define MAX_LEVELS	8
#define MAX_BOOTS	64

struct group {
	char workload[NAME_MAX_LEN];
	char arm[NAME_MAX_LEN];
	int wl_rank, arm_rank;	/* table order */
	bool higher;		/* higher is better */
	int n;
	double v[MAX_SAMPLES];
	unsigned char boot[MAX_SAMPLES];	/* index into boots[] of v[i] */
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
	const char *base, *label, *json, *order;
	double alpha;
	int resamples;
	unsigned long long seed;
} opt = { .alpha = 0.05, .resamples = 10000, .seed = 1 };

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
	enum ctr ctr;
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

struct cmp {
	struct group *g, *base;
	double change, lo, hi;	/* percent */
	struct stats_mw mw;
	double p_holm;
	int runs;
};

static const char *verdict(const struct cmp *c)
{
	bool up = c->change > 0;

	if (c->p_holm >= opt.alpha)
		return "~";
	return up == c->g->higher ? "better" : "worse";
}

static void print_table(FILE *f, struct cmp *cmps, int nc)
{
	const struct group *g;
	int i, j;

	fprintf(f, "%-20s %-24s %4s %12s %7s %9s %21s %8s %8s %-7s %s\n",
		"workload", "arm", "n", "median", "CV", "vs base", "95% CI",
		"p", "p(Holm)", "verdict", "runs needed");
	for (i = 0; i < nr_groups; i++) {
		g = &groups[i];
		fprintf(f, "%-20s %-24s %4d %12.4g %6.2f%%", g->workload, g->arm,
			g->n, stats_median(g->v, g->n), 100 * stats_cv(g->v, g->n));
		for (j = 0; j < nc; j++)
			if (cmps[j].g == g)
				break;
		if (j == nc) {
			fprintf(f, "   (base)\n");
			continue;
		}
		fprintf(f, " %+8.2f%% [%+7.2f%%, %+7.2f%%] %8.3g %8.3g %-7s ",
			cmps[j].change, cmps[j].lo, cmps[j].hi, cmps[j].mw.p,
			cmps[j].p_holm, verdict(&cmps[j]));
		if (strcmp(verdict(&cmps[j]), "~"))
			fprintf(f, "-\n");
		else if (cmps[j].runs < 0)
			fprintf(f, "no effect\n");
		else
			fprintf(f, "%d\n", cmps[j].runs);
	}
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

static void print_json(FILE *f, struct cmp *cmps, int nc)
{
	struct json j;
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
		json_num(&j, "change_pct", c->change);
		json_num(&j, "ci_lo_pct", c->lo);
		json_num(&j, "ci_hi_pct", c->hi);
		json_num(&j, "p", c->mw.p);
		json_bool(&j, "p_exact", c->mw.exact);
		json_num(&j, "p_holm", c->p_holm);
		json_str(&j, "verdict", verdict(c));
		json_int(&j, "runs_needed", c->runs);
		if (nr_boots > 1) {
			json_spread(&j, g, "boot_medians", "boot_spread_pct");
			json_spread(&j, b, "boot_medians_base",
				    "boot_spread_pct_base");
		}
		json_end(&j);
	}
	fprintf(f, "]\n");
}

static void print_help(FILE *f)
{
	fprintf(f,
		"usage: abstat [options] samples.csv...\n"
		"Verdict of an A/B run from ab.sh's (or bench.sh's merged) samples.csv:\n"
		"per workload, each arm against the base arm; placement evidence; with\n"
		"a boot column of several boots, the between-boot spread.  Exits 1,\n"
		"printing no table, on a malformed line (error: abstat: FILE:LINE: ...).\n"
		"  -b, --base ARM       arm the others are compared with (default: first seen)\n"
		"  -a, --alpha A        significance level after Holm (default %.2f)\n"
		"  -B, --resamples N    bootstrap resamples (default %d)\n"
		"  -s, --seed S         bootstrap seed (default %llu)\n"
		"  -l, --label TEXT     printed above the table (e.g. emulated (TCG))\n"
		"  -j, --json FILE      also write the comparisons as JSON\n"
		"  -o, --order A,B,...  order of the arms in the tables\n"
		"  -h, --help           this help\n",
		opt.alpha, opt.resamples, opt.seed);
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
		{ "help",	no_argument,       NULL, 'h' },
		{ }
	};
	struct cmp *cmps;
	double *p, *adj;
	int c, i, nc = 0;

	while ((c = getopt_long(argc, argv, "b:a:B:s:l:j:o:h", opts, NULL)) != -1) {
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
		case 'h':
			print_help(stdout);
			return 0;
		default:
			print_help(stderr);
			return 1;
		}
	}
	if (optind == argc || opt.alpha <= 0 || opt.alpha >= 1 || opt.resamples < 100) {
		print_help(stderr);
		return 1;
	}
	groups = calloc(MAX_GROUPS, sizeof(*groups));
	cmps = calloc(MAX_GROUPS, sizeof(*cmps));
	p = calloc(MAX_GROUPS, sizeof(*p));
	adj = calloc(MAX_GROUPS, sizeof(*adj));
	if (!groups || !cmps || !p || !adj)
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
		k->change = 100 * (stats_median(g->v, g->n) /
				   stats_median(b->v, b->n) - 1);
		if (stats_boot_ratio_ci(b->v, b->n, g->v, g->n, opt.resamples,
					opt.seed, 0.95, &k->lo, &k->hi) ||
		    stats_mann_whitney(b->v, b->n, g->v, g->n, &k->mw)) {
			fprintf(stderr, "abstat: %s/%s: too few samples\n",
				g->workload, g->arm);
			return 1;
		}
		k->lo = 100 * (k->lo - 1);
		k->hi = 100 * (k->hi - 1);
		k->runs = stats_runs_needed(b->v, b->n, g->v, g->n);
		p[nc++] = k->mw.p;
	}
	stats_holm(p, nc, adj);
	for (i = 0; i < nc; i++)
		cmps[i].p_holm = adj[i];

	if (opt.label)
		printf("%s\n", opt.label);
	printf("%d comparison(s); Mann-Whitney U, Holm-adjusted, alpha %.2f;\n",
	       nc, opt.alpha);
	printf("ratio of medians, %d-resample bootstrap 95%% CI (seed %llu)\n\n",
	       opt.resamples, opt.seed);
	print_table(stdout, cmps, nc);
	print_evidence(stdout);
	print_spread(stdout);
	if (opt.json) {
		FILE *f = fopen(opt.json, "w");

		if (!f) {
			perror("abstat: --json");
			return 1;
		}
		print_json(f, cmps, nc);
		fclose(f);
	}
	return 0;
}
