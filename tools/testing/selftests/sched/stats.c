// SPDX-License-Identifier: GPL-2.0
/*
 * Statistics for the sched selftests: see stats.h.
 */
#include <math.h>

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
