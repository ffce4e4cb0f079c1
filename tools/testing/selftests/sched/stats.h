/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Statistics for the sched selftests' verdicts.
 */
#ifndef __STATS_H
#define __STATS_H

/* 100 * part / n, 0 when n is 0. */
double pct(int part, int n);

/*
 * A/A band, in percentage points, for a proportion measured twice under
 * identical conditions (ca of na, cb of nb): the larger of the two
 * measurements' difference and four standard errors of a difference of
 * proportions, at least 5 points.  A change within it is not a change.
 */
double aa_band(int ca, int na, int cb, int nb);

#endif /* __STATS_H */
