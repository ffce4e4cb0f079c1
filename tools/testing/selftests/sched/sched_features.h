/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Read, flip and restore scheduler features through
 * /sys/kernel/debug/sched/features.
 *
 * sched_features_save() snapshots every flag once and arranges for the
 * snapshot to be written back at exit and on SIGINT, SIGTERM, SIGHUP and
 * SIGQUIT, so a test never leaves the machine with a feature flipped.
 */
#ifndef __SCHED_FEATURES_H
#define __SCHED_FEATURES_H

#include <stdbool.h>
#include <stddef.h>

#define SCHED_DEBUGFS_DIR	"/sys/kernel/debug/sched"
#define SCHED_FEATURES_PATH	SCHED_DEBUGFS_DIR "/features"
#define SCHED_FEATURES_MAX	64
#define SCHED_FEATURE_NAME_MAX	48

struct sched_features {
	int nr;
	char name[SCHED_FEATURES_MAX][SCHED_FEATURE_NAME_MAX];
	bool on[SCHED_FEATURES_MAX];
};

/* NULL when the features file can be used, else why it cannot. */
const char *sched_features_unusable(void);
/*
 * The same, and also NULL only if the running kernel has @name (a test of
 * that feature: why it must skip).
 */
const char *sched_feature_unusable(const char *name);

/* Parse the features file into @f.  Returns 0 or -errno. */
int sched_features_read(struct sched_features *f);

/* 1 when @name is on, 0 when off, -ENOENT when unknown, else -errno. */
int sched_feature_get(const char *name);

/* Write "NAME" or "NO_NAME".  Returns 0 or -errno from write(2). */
int sched_feature_set(const char *name, bool on);

/* Write a raw token, e.g. an unknown name.  Returns 0 or -errno. */
int sched_features_write_raw(const char *token);

/* Snapshot the current state and restore it at exit or on a signal. */
int sched_features_save(void);

/* Write the snapshot (and saved tunables) back.  Returns 0 or the first -errno. */
int sched_features_restore(void);

/*
 * Numeric tunables in SCHED_DEBUGFS_DIR, e.g. "migration_cost_ns".  Set
 * reads the value back.  Save records the current value, written back by
 * sched_features_restore(), at exit and on the signals above.  0 or -errno.
 */
int sched_tunable_get(const char *name, long long *val);
int sched_tunable_set(const char *name, long long val);
int sched_tunable_save(const char *name);

/*
 * Any file a test changes, e.g. a sysfs knob: save records its contents,
 * written back by sched_features_restore() (at exit and on the signals
 * above) or at once by restore.  Write writes @value.  0 or -errno.
 */
int sched_path_save(const char *path);
int sched_path_restore(const char *path);
int sched_path_write(const char *path, const char *value);

/* Names whose state differs between @a and @b, comma-separated, in @buf. */
int sched_features_diff(const struct sched_features *a,
			const struct sched_features *b, char *buf, size_t len);

#endif /* __SCHED_FEATURES_H */
