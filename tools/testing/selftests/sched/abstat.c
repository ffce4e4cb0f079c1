// SPDX-License-Identifier: GPL-2.0
/*
 * abstat: the verdict of an A/B run (scripts/ab.sh samples.csv).
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
 * the /proc/schedstat wakeup counters.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "stats.h"

#define MAX_GROUPS	256
#define MAX_SAMPLES	4096
#define MAX_COLS	16
#define NAME_MAX_LEN	64
#define MAX_LEVELS	8

struct group {
	char workload[NAME_MAX_LEN];
	char arm[NAME_MAX_LEN];
	int wl_rank, arm_rank;	/* table order */
	bool higher;		/* higher is better */
	int n;
	double v[MAX_SAMPLES];
	/* placement evidence, summed over samples */
	int nm;
	double migr[MAX_SAMPLES];
	int np;			/* perf stat: context switches, CPU migrations */
	double ctxsw[MAX_SAMPLES], cpumig[MAX_SAMPLES];
	double ttwu, local, remote[MAX_LEVELS], affine[MAX_LEVELS];
	int levels;
};

static struct group *groups;
static int nr_groups;

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

static int split(char *line, char **f, int max)
{
	int n = 0;

	line[strcspn(line, "\r\n")] = '\0';
	f[n++] = line;
	for (; *line && n < max; line++) {
		if (*line == ',') {
			*line = '\0';
			f[n++] = line + 1;
		}
	}
	return n;
}

static int load_csv(const char *path)
{
	char line[1024], head[1024], *h[MAX_COLS], *f[MAX_COLS], *d, *tok;
	int nh, n, c_round, c_warm, c_arm, c_wl, c_dir, c_val, c_mig, c_tc;
	int c_tl, c_dom, c_cs, c_cm, lvl, lineno = 1;
	struct group *g;
	FILE *fp = fopen(path, "r");

	if (!fp)
		return -errno;
	if (!fgets(head, sizeof(head), fp)) {
		fclose(fp);
		return -ENODATA;
	}
	nh = split(head, h, MAX_COLS);
	c_round = col(h, nh, "round");
	c_warm = col(h, nh, "warmup");
	c_arm = col(h, nh, "arm");
	c_wl = col(h, nh, "workload");
	c_dir = col(h, nh, "direction");
	c_val = col(h, nh, "value");
	c_mig = col(h, nh, "migrations");
	c_tc = col(h, nh, "ttwu_count");
	c_tl = col(h, nh, "ttwu_local");
	c_dom = col(h, nh, "domain_wake_remote_move_affine");
	c_cs = col(h, nh, "perf_ctx_switches");
	c_cm = col(h, nh, "perf_cpu_migrations");
	if (c_round < 0 || c_arm < 0 || c_wl < 0 || c_dir < 0 || c_val < 0) {
		fprintf(stderr, "abstat: %s: not an ab.sh samples.csv\n", path);
		fclose(fp);
		return -EINVAL;
	}
	while (fgets(line, sizeof(line), fp)) {
		lineno++;
		n = split(line, f, MAX_COLS);
		if (n != nh) {
			fprintf(stderr, "abstat: %s:%d: %d fields, want %d\n",
				path, lineno, n, nh);
			fclose(fp);
			return -EINVAL;
		}
		if (c_warm >= 0 && atoi(f[c_warm]))
			continue;
		g = group_of(f[c_wl], f[c_arm]);
		if (!g || g->n == MAX_SAMPLES) {
			fclose(fp);
			return -E2BIG;
		}
		g->higher = !strcmp(f[c_dir], "higher");
		g->v[g->n++] = atof(f[c_val]);
		if (c_mig >= 0 && *f[c_mig] && atof(f[c_mig]) >= 0)
			g->migr[g->nm++] = atof(f[c_mig]);
		if (c_cs >= 0 && c_cm >= 0 && *f[c_cs] && *f[c_cm]) {
			g->ctxsw[g->np] = atof(f[c_cs]);
			g->cpumig[g->np++] = atof(f[c_cm]);
		}
		if (c_tc >= 0 && c_tl >= 0) {
			g->ttwu += atof(f[c_tc]);
			g->local += atof(f[c_tl]);
		}
		if (c_dom < 0)
			continue;
		for (lvl = 0, d = f[c_dom]; (tok = strsep(&d, ";")); lvl++) {
			if (lvl / 2 >= MAX_LEVELS)
				break;
			if (lvl % 2)
				g->affine[lvl / 2] += atof(tok);
			else
				g->remote[lvl / 2] += atof(tok);
			if (lvl / 2 + 1 > g->levels)
				g->levels = lvl / 2 + 1;
		}
	}
	fclose(fp);
	return 0;
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
	fprintf(f, "%-20s %-24s %10s %10s %9s %8s  %s\n", "workload", "arm",
		"migrations", "ctx-sw", "cpu-migr", "local", "L<level> remote/affine");
	for (i = 0; i < nr_groups; i++) {
		g = &groups[i];
		fprintf(f, "%-20s %-24s", g->workload, g->arm);
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
		json_end(&j);
	}
	fprintf(f, "]\n");
}

static void print_help(FILE *f)
{
	fprintf(f,
		"usage: abstat [options] samples.csv...\n"
		"  -b, --base ARM       arm the others are compared with (default: first seen)\n"
		"  -a, --alpha A        significance level after Holm (default %.2f)\n"
		"  -B, --resamples N    bootstrap resamples (default %d)\n"
		"  -s, --seed S         bootstrap seed (default %llu)\n"
		"  -l, --label TEXT     printed above the table (e.g. emulated (TCG))\n"
		"  -j, --json FILE      also write the comparisons as JSON\n"
		"  -o, --order A,B,...  order of the arms in the tables\n",
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
	int c, i, nc = 0, ret;

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
	for (i = optind; i < argc; i++) {
		ret = load_csv(argv[i]);
		if (ret) {
			fprintf(stderr, "abstat: %s: %s\n", argv[i], strerror(-ret));
			return 1;
		}
	}
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
