// SPDX-License-Identifier: GPL-2.0
/*
 * The scheduler features interface that wakeplace's tests rely on:
 * /sys/kernel/debug/sched/features lists every flag, a flag can be turned
 * off and on again, each write changes exactly that flag, and an unknown name
 * is refused with EINVAL and changes nothing.  The initial state is restored
 * at exit, on failure and on signals.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>

#include "../kselftest.h"
#include "sched_features.h"

#define FLIP_FEATURE	"WA_IDLE"

static struct sched_features initial;

/* Does the current state equal @want?  Prints what differs. */
static bool state_is(const struct sched_features *want)
{
	struct sched_features now;
	char diff[512];
	int nr;

	if (sched_features_read(&now)) {
		ksft_print_msg("cannot re-read %s\n", SCHED_FEATURES_PATH);
		return false;
	}
	nr = sched_features_diff(want, &now, diff, sizeof(diff));
	if (nr)
		ksft_print_msg("%d flag(s) not as expected: %s\n", nr, diff);
	return nr == 0;
}

static int flag_index(const struct sched_features *f, const char *name)
{
	int i;

	for (i = 0; i < f->nr; i++)
		if (!strcmp(f->name[i], name))
			return i;
	return -1;
}

int main(int argc, char **argv)
{
	const char *why;
	bool was_on;
	int idx, ret;

	if (argc > 1) {
		bool help = argc == 2 && (!strcmp(argv[1], "-h") ||
					  !strcmp(argv[1], "--help"));

		fprintf(help ? stdout : stderr,
			"usage: %s [-h|--help]\n"
			"Checks %s: listing, flipping %s off and back,\n"
			"refusing an unknown name; restores every flag at exit.\n",
			argv[0], SCHED_FEATURES_PATH, FLIP_FEATURE);
		return help ? 0 : KSFT_FAIL;
	}

	ksft_print_header();
	why = sched_features_unusable();
	if (why)
		ksft_exit_skip("%s\n", why);
	ret = sched_features_save();
	if (ret)
		ksft_exit_fail_msg("reading %s: %s\n", SCHED_FEATURES_PATH,
				   strerror(-ret));
	sched_features_read(&initial);
	idx = flag_index(&initial, FLIP_FEATURE);

	ksft_set_plan(5);

	ksft_print_msg("%d features, %s is %s\n", initial.nr, FLIP_FEATURE,
		       idx < 0 ? "absent" : initial.on[idx] ? "on" : "off");
	ksft_test_result(initial.nr > 0 && idx >= 0, "list_features\n");

	if (idx < 0) {
		ksft_test_result_skip("flip_off: no %s\n", FLIP_FEATURE);
		ksft_test_result_skip("flip_back: no %s\n", FLIP_FEATURE);
	} else {
		struct sched_features flipped = initial;

		was_on = initial.on[idx];
		flipped.on[idx] = !was_on;
		ret = sched_feature_set(FLIP_FEATURE, !was_on);
		if (ret)
			ksft_print_msg("write %s%s: %s\n", was_on ? "NO_" : "",
				       FLIP_FEATURE, strerror(-ret));
		ksft_test_result(!ret && state_is(&flipped),
				 "flip_off\n");
		ret = sched_feature_set(FLIP_FEATURE, was_on);
		ksft_test_result(!ret && state_is(&initial),
				 "flip_back\n");
	}

	ret = sched_features_write_raw("WAKEPLACE_NO_SUCH_FEATURE");
	ksft_print_msg("unknown name: write returned %s\n",
		       ret ? strerror(-ret) : "success");
	ksft_test_result(ret == -EINVAL && state_is(&initial),
			 "unknown_name_rejected\n");

	/* Restore explicitly here so that the result is checked and reported. */
	ret = sched_features_restore();
	ksft_test_result(!ret && state_is(&initial),
			 "initial_state_restored\n");
	ksft_finished();
}
