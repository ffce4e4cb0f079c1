// SPDX-License-Identifier: GPL-2.0
/*
 * abmerge: the runs of a results directory as one samples.csv (abstat -M).
 *
 * A run is a directory LABEL-N (bench.sh: one boot of kernel LABEL) holding
 * ab/samples.csv and run.txt.  The merged file has a "boot" column in front
 * (the run's directory name), rounds numbered on across the runs in the
 * order given, and, when the runs come from several kernels (labels), each
 * arm prefixed "LABEL:".  The runs must share one header and one clock:
 * instruction-time runs (run.txt "accelerator: icount") are not merged
 * with wall-clock ones.  Nothing is written unless every run merges.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "abmerge.h"

#define LINE_LEN	4096
#define ONE_CLOCK	"one table holds one clock (instruction-time (icount) or wall-clock)"

/* The run's label: its directory's name without the "-N" suffix. */
static void run_label(const char *base, char *label, size_t size)
{
	const char *dash = strrchr(base, '-');
	size_t n = strlen(base);

	if (dash && dash[1] && strspn(dash + 1, "0123456789") == strlen(dash + 1))
		n = dash - base;
	snprintf(label, size, "%.*s", (int)n, base);
}

static const char *base_name(const char *path)
{
	const char *s = path + strlen(path);

	while (s > path && s[-1] == '/')
		s--;
	while (s > path && s[-1] != '/')
		s--;
	return s;
}

/* Whether the run's run.txt says it ran in instruction-time (icount). */
static bool run_icount(const char *run)
{
	char path[PATH_MAX], line[LINE_LEN];
	bool icount = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/run.txt", run);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "accelerator: icount", 19))
			icount = true;
	fclose(f);
	return icount;
}

/* Index of column name in the CSV header hdr, or -1. */
static int column(const char *hdr, const char *name)
{
	size_t len = strlen(name);
	int i = 0;

	for (;;) {
		if (!strncmp(hdr, name, len) && (hdr[len] == ',' || hdr[len] == '\n' ||
						 !hdr[len]))
			return i;
		hdr = strchr(hdr, ',');
		if (!hdr)
			return -1;
		hdr++;
		i++;
	}
}

/*
 * Copies line to out with the boot column in front, the round offset by
 * off, the arm prefixed with prefix (if any); the run's largest round into
 * *max.  -1 on a malformed line.
 */
static int merge_line(FILE *out, const char *boot, char *line, int rcol,
		      int acol, const char *prefix, long off, long *max)
{
	char *field, *next = line, *end;
	int i;
	long r;

	fprintf(out, "%s", boot);
	for (i = 0; next; i++) {
		field = next;
		next = strchr(field, ',');
		if (next)
			*next++ = '\0';
		fputc(',', out);
		if (i == rcol) {
			errno = 0;
			r = strtol(field, &end, 10);
			if (end == field || *end || errno)
				return -1;
			if (r > *max)
				*max = r;
			fprintf(out, "%ld", r + off);
		} else if (i == acol && prefix) {
			fprintf(out, "%s:%s", prefix, field);
		} else {
			fputs(field, out);
		}
	}
	fputc('\n', out);
	return i > rcol && i > acol ? 0 : -1;
}

int ab_merge(const char *out_path, char *const *runs, int nr)
{
	char path[PATH_MAX], tmp[PATH_MAX], line[LINE_LEN], hdr[LINE_LEN] = "";
	char label[NAME_MAX + 1], first_label[NAME_MAX + 1] = "";
	int i, rcol = -1, acol = -1, rows = 0, icount = -1;
	bool several = false;
	FILE *in, *out;
	long off = 0, lineno;

	if (nr < 1) {
		fprintf(stderr, "abstat: --merge: no run\n");
		return -1;
	}
	/* Labels (several kernels?) and clocks, before anything is written. */
	for (i = 0; i < nr; i++) {
		run_label(base_name(runs[i]), label, sizeof(label));
		if (i && strcmp(label, first_label))
			several = true;
		if (!i)
			snprintf(first_label, sizeof(first_label), "%s", label);
		if (icount >= 0 && icount != run_icount(runs[i])) {
			fprintf(stderr, "abstat: --merge: %s is %s, %s is not: %s\n",
				runs[i], icount ? "wall-clock" : "instruction-time (icount)",
				runs[0], ONE_CLOCK);
			return -1;
		}
		icount = run_icount(runs[i]);
	}
	snprintf(tmp, sizeof(tmp), "%s.new", out_path);
	out = fopen(tmp, "w");
	if (!out) {
		fprintf(stderr, "abstat: --merge: %s: %s\n", tmp, strerror(errno));
		return -1;
	}
	for (i = 0; i < nr; i++) {
		const char *boot = base_name(runs[i]);
		long max = 0;

		run_label(boot, label, sizeof(label));
		snprintf(path, sizeof(path), "%s/ab/samples.csv", runs[i]);
		in = fopen(path, "r");
		if (!in) {
			fprintf(stderr, "abstat: --merge: %s: %s\n", path, strerror(errno));
			goto fail;
		}
		for (lineno = 1; fgets(line, sizeof(line), in); lineno++) {
			size_t len = strlen(line);

			if (!len || line[len - 1] != '\n') {
				fprintf(stderr, "abstat: %s:%ld: line too long or not ended\n",
					path, lineno);
				goto fail_in;
			}
			if (lineno == 1) {
				if (!*hdr) {
					snprintf(hdr, sizeof(hdr), "%s", line);
					rcol = column(hdr, "round");
					acol = column(hdr, "arm");
					fprintf(out, "boot,%s", hdr);
				}
				if (strcmp(line, hdr)) {
					fprintf(stderr,
						"abstat: %s:1: header differs from %s/ab/samples.csv's\n",
						path, runs[0]);
					goto fail_in;
				}
				if (rcol < 0 || acol < 0) {
					fprintf(stderr, "abstat: %s:1: no round or arm column\n",
						path);
					goto fail_in;
				}
				continue;
			}
			line[len - 1] = '\0';
			if (merge_line(out, boot, line, rcol, acol,
				       several ? label : NULL, off, &max)) {
				fprintf(stderr, "abstat: %s:%ld: bad round or too few fields\n",
					path, lineno);
				goto fail_in;
			}
			rows++;
		}
		fclose(in);
		off += max;
	}
	if (!rows) {
		fprintf(stderr, "abstat: --merge: no samples in %s%s\n", runs[0],
			nr > 1 ? " and the other runs" : "");
		goto fail;
	}
	if (fclose(out) || rename(tmp, out_path)) {
		fprintf(stderr, "abstat: --merge: %s: %s\n", out_path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
fail_in:
	fclose(in);
fail:
	fclose(out);
	unlink(tmp);
	return -1;
}
