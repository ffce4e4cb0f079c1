/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ABMERGE_H
#define ABMERGE_H

/*
 * Merges the runs' ab/samples.csv into out (see abmerge.c); 0, or -1 with
 * the reason on stderr and nothing written.
 */
int ab_merge(const char *out, char *const *runs, int nr);

#endif
