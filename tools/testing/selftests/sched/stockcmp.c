// SPDX-License-Identifier: GPL-2.0
/*
 * stockcmp: do the stock branches of select_task_rq_fair() choose a CPU
 * outside the wakee's mask, or an inactive CPU, as often on one kernel as
 * on another?  make test-full runs it on the output of the stress tests
 * on the series' kernel and on the kernel of its tracepoint patch alone.
 *
 * The input is the chunk lines of hotplug_test and affinity_churn_test
 * (stress_load.h): "NAME chunk J: D decided; BRANCH N/O/I; ...", any
 * number of "# " in front (kselftest's runner adds them).  For every test,
 * stock branch and kind of choice (outside the mask, inactive) that
 * either kernel shows at all, each chunk in which the branch chose a CPU
 * is one sample, its rate O / N or I / N.  The two kernels' samples are
 * compared with the two-sided Mann-Whitney test.  A branch used in so few
 * chunks that no p below ALPHA is possible (exact test, no ties: 2 and 1
 * chunks give at best 0.67, 5 and 5 give 0.0079) gets no verdict: it is
 * reported as a skip saying so, and left out of the family whose p-values
 * are Holm-adjusted.  The kernels differ on a branch when its adjusted p
 * is below ALPHA and its pooled rates (sums over the chunks) are more than
 * FACTOR apart, in either direction.
 *
 * Why chunks and ranks: these choices come in bursts (one CPU going
 * offline draws many wakeups at once), so the summed counts of two boots
 * of the same kernels were seen 4 to 9 binomial standard errors apart, in
 * both directions.  A rank test over chunks is moved by a burst no more
 * than by any other high chunk.
 *
 * Output: per test, "pass|fail stock:TEST:chunks" (fails with fewer than
 * MIN_CHUNKS chunks from either kernel: no verdict could be reached), and
 * per comparison "pass|fail|skip stock:TEST:BRANCH:KIND" with both
 * kernels' counts, rates, the ratio and the p-values (Mann-Whitney, and
 * Holm-adjusted).
 * Exit status: 0 the kernels match; 1 a branch differs or too few
 * chunks; 2 usage or input error.
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
#include "stats.h"

#define NAME_LEN	32
#define MAX_TESTS	8
#define MAX_BRANCHES	64	/* (test, branch) pairs */
#define MIN_CHUNKS	6	/* exact two-sided p can reach 0.0022 */

enum kind { OUTSIDE, INACTIVE, NR_KINDS };
static const char * const kind_names[NR_KINDS] = { "outside", "inactive" };

/* One kernel's chunks of one test and branch. */
struct side {
	int nr, cap;
	unsigned long long *n, *x[NR_KINDS];
};

struct branch {
	char test[NAME_LEN], name[NAME_LEN];
	struct side k[2];
};

struct test {
	char name[NAME_LEN];
	int chunks[2];
	unsigned long long decided[2];
};

static struct branch branches[MAX_BRANCHES];
static int nr_branches;
static struct test tests[MAX_TESTS];
static int nr_tests;
static const char *label[2] = { "series", "tracepoint-only" };

static void print_help(FILE *f)
{
	fprintf(f,
		"usage: stockcmp [-a ALPHA] [-f FACTOR] [-l LABEL_A,LABEL_B] [-h|--help] A B\n"
		"Compares, chunk by chunk, how often the stock branches chose a CPU\n"
		"outside the wakee's mask or an inactive CPU in the stress tests' output\n"
		"A (default label: series) and B (tracepoint-only).  A branch differs when\n"
		"the Holm-adjusted two-sided Mann-Whitney p is below ALPHA (default 0.01)\n"
		"and the pooled rates are more than FACTOR (default 2) apart.\n"
		"Exit status: 0 they match; 1 a branch differs, or fewer than %d chunks\n"
		"of a test from either; 2 usage or input error.\n", MIN_CHUNKS);
}

static void __printf(1, 2) die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "stockcmp: ");
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

static struct test *find_test(const char *name)
{
	int i;

	for (i = 0; i < nr_tests; i++)
		if (!strcmp(tests[i].name, name))
			return &tests[i];
	if (nr_tests == MAX_TESTS)
		die("more than %d tests", MAX_TESTS);
	snprintf(tests[nr_tests].name, NAME_LEN, "%s", name);
	return &tests[nr_tests++];
}

static struct branch *find_branch(const char *test, const char *name)
{
	int i;

	for (i = 0; i < nr_branches; i++)
		if (!strcmp(branches[i].test, test) && !strcmp(branches[i].name, name))
			return &branches[i];
	if (nr_branches == MAX_BRANCHES)
		die("more than %d test and branch pairs", MAX_BRANCHES);
	snprintf(branches[nr_branches].test, NAME_LEN, "%s", test);
	snprintf(branches[nr_branches].name, NAME_LEN, "%s", name);
	return &branches[nr_branches++];
}

static void side_add(struct side *s, unsigned long long n, unsigned long long o,
		     unsigned long long i)
{
	int k;

	if (s->nr == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->n = realloc(s->n, s->cap * sizeof(*s->n));
		for (k = 0; k < NR_KINDS; k++)
			s->x[k] = realloc(s->x[k], s->cap * sizeof(*s->x[k]));
		if (!s->n || !s->x[OUTSIDE] || !s->x[INACTIVE])
			die("out of memory");
	}
	s->n[s->nr] = n;
	s->x[OUTSIDE][s->nr] = o;
	s->x[INACTIVE][s->nr] = i;
	s->nr++;
}

/* One chunk line (its "# " stripped) of kernel @k; @where names it in errors. */
static void parse_chunk(int k, char *s, const char *where)
{
	char name[NAME_LEN], br[NAME_LEN], *tok, *save;
	unsigned long long dec, n, o, i;
	unsigned int j;
	struct test *t;
	int pos = 0;

	if (sscanf(s, "%31s chunk %u: %llu decided%n", name, &j, &dec, &pos) != 3 || !pos)
		die("%s: not a chunk line", where);
	t = find_test(name);
	t->chunks[k]++;
	t->decided[k] += dec;
	for (tok = strtok_r(s + pos, ";\n", &save); tok; tok = strtok_r(NULL, ";\n", &save)) {
		if (sscanf(tok, " %31s %llu/%llu/%llu", br, &n, &o, &i) != 4 ||
		    !n || o > n || i > n)
			die("%s: bad branch counts", where);
		side_add(&find_branch(name, br)->k[k], n, o, i);
	}
}

static void read_file(int k, const char *path)
{
	char line[4096], where[512];
	FILE *f = fopen(path, "r");
	long nr = 0;
	char *s;

	if (!f)
		die("cannot open %s", path);
	while (fgets(line, sizeof(line), f)) {
		nr++;
		for (s = line; !strncmp(s, "# ", 2); s += 2)
			;
		if (!strstr(s, " chunk ") || !strstr(s, " decided"))
			continue;
		snprintf(where, sizeof(where), "%s:%ld", path, nr);
		parse_chunk(k, s, where);
	}
	fclose(f);
}

struct cmp {
	struct branch *b;
	enum kind kind;
	unsigned long long x[2], n[2];
	int nr[2];
	double p, holm, ratio;
	bool testable;	/* its chunks can give p < alpha */
};

static void rates(const struct side *s, enum kind which, double *r)
{
	int i;

	for (i = 0; i < s->nr; i++)
		r[i] = (double)s->x[which][i] / s->n[i];
}

static double pooled(unsigned long long x, unsigned long long n)
{
	return n ? (double)x / n : 0;
}

int main(int argc, char **argv)
{
	double alpha = 0.01, factor = 2, *ra, *rb, *p, *adj;
	struct cmp *c;
	int opt, i, k, kind, nr_cmp = 0, nr_test = 0, bad = 0;
	char *comma, *end;

	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};

	while ((opt = getopt_long(argc, argv, "a:f:l:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'a':
			alpha = strtod(optarg, &end);
			if (*end || !(alpha > 0 && alpha < 1))
				die("-a %s: want a number between 0 and 1", optarg);
			break;
		case 'f':
			factor = strtod(optarg, &end);
			if (*end || !(factor >= 1))
				die("-f %s: want a number of at least 1", optarg);
			break;
		case 'l':
			comma = strchr(optarg, ',');
			if (!comma || comma == optarg || !comma[1])
				die("-l %s: want LABEL_A,LABEL_B", optarg);
			*comma = '\0';
			label[0] = optarg;
			label[1] = comma + 1;
			break;
		case 'h':
			print_help(stdout);
			return 0;
		default:
			print_help(stderr);
			return 2;
		}
	}
	if (argc - optind != 2) {
		print_help(stderr);
		return 2;
	}
	read_file(0, argv[optind]);
	read_file(1, argv[optind + 1]);
	if (!nr_tests)
		die("no chunk lines in %s or %s", argv[optind], argv[optind + 1]);

	c = calloc(nr_branches * NR_KINDS, sizeof(*c));
	p = calloc(nr_branches * NR_KINDS, sizeof(*p));
	adj = calloc(nr_branches * NR_KINDS, sizeof(*adj));
	if (!c || !p || !adj)
		die("out of memory");
	for (i = 0; i < nr_branches; i++) {
		struct branch *b = &branches[i];

		for (kind = 0; kind < NR_KINDS; kind++) {
			struct cmp *x = &c[nr_cmp];
			struct stats_mw mw;

			*x = (struct cmp){ .b = b, .kind = kind, .p = 1 };
			for (k = 0; k < 2; k++) {
				int j;

				x->nr[k] = b->k[k].nr;
				for (j = 0; j < b->k[k].nr; j++) {
					x->x[k] += b->k[k].x[kind][j];
					x->n[k] += b->k[k].n[j];
				}
			}
			if (!x->x[0] && !x->x[1])
				continue;	/* neither kernel: nothing to compare */
			x->ratio = pooled(x->x[1], x->n[1]) ?
				   pooled(x->x[0], x->n[0]) / pooled(x->x[1], x->n[1]) : INFINITY;
			if (x->nr[0] && x->nr[1]) {
				ra = malloc(x->nr[0] * sizeof(*ra));
				rb = malloc(x->nr[1] * sizeof(*rb));
				if (!ra || !rb)
					die("out of memory");
				rates(&b->k[0], kind, ra);
				rates(&b->k[1], kind, rb);
				if (stats_mann_whitney(ra, x->nr[0], rb, x->nr[1], &mw))
					die("Mann-Whitney failed");
				x->p = mw.p;
				x->testable = stats_mann_whitney_min_p(x->nr[0], x->nr[1]) < alpha;
				free(ra);
				free(rb);
			}
			if (x->testable)
				p[nr_test++] = x->p;
			nr_cmp++;
		}
	}
	/* The family: the comparisons whose chunks could reach p < alpha at all. */
	stats_holm(p, nr_test, adj);

	for (i = 0; i < nr_tests; i++) {
		struct test *t = &tests[i];
		bool few = t->chunks[0] < MIN_CHUNKS || t->chunks[1] < MIN_CHUNKS;

		bad |= few;
		printf("%s stock:%s:chunks %s %d chunks (%llu wakeups), %s %d (%llu)%s\n",
		       few ? "fail" : "pass", t->name, label[0], t->chunks[0], t->decided[0],
		       label[1], t->chunks[1], t->decided[1],
		       few ? ": too few to compare, run longer" : "");
	}
	for (i = 0, k = 0; i < nr_cmp; i++) {
		struct cmp *x = &c[i];
		const char *st = "pass";
		char why[96];

		x->holm = x->testable ? adj[k++] : NAN;
		snprintf(why, sizeof(why), ", Holm %.2g", x->holm);
		if (!x->testable) {
			st = "skip";
			snprintf(why, sizeof(why),
				 ", Holm -: no verdict, %d and %d chunks cannot give p < %g",
				 x->nr[0], x->nr[1], alpha);
		} else if (x->holm < alpha && (x->ratio > factor || x->ratio < 1 / factor)) {
			st = "fail";
			snprintf(why, sizeof(why), ", Holm %.2g: differs, %s", x->holm,
				 x->ratio > 1 ? "higher" : "lower");
			bad = 1;
		}
		printf("%s stock:%s:%s:%s %s %llu of %llu (%.4f%%) in %d chunks, ",
		       st, x->b->test, x->b->name, kind_names[x->kind],
		       label[0], x->x[0], x->n[0], 100 * pooled(x->x[0], x->n[0]), x->nr[0]);
		printf("%s %llu of %llu (%.4f%%) in %d; ratio %.2f, p %.2g%s\n",
		       label[1], x->x[1], x->n[1], 100 * pooled(x->x[1], x->n[1]), x->nr[1],
		       x->ratio, x->p, why);
	}

	if (!nr_cmp)
		printf("pass stock:choices %s\n",
		       "neither kernel's stock branches chose a CPU outside the mask or an inactive one");
	return bad;
}
