// SPDX-License-Identifier: GPL-2.0
/*
 * Scheduler features helpers for the sched selftests: see sched_features.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sched_features.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

static struct sched_features saved;
static bool saved_valid;

const char *sched_features_unusable(void)
{
	if (geteuid() != 0)
		return "not root";
	if (access(SCHED_FEATURES_PATH, F_OK) != 0)
		return SCHED_FEATURES_PATH " missing (needs CONFIG_SCHED_DEBUG and debugfs)";
	if (access(SCHED_FEATURES_PATH, R_OK | W_OK) != 0)
		return SCHED_FEATURES_PATH " not writable";
	return NULL;
}

const char *sched_feature_unusable(const char *name)
{
	static char why[128];
	const char *unusable = sched_features_unusable();

	if (unusable)
		return unusable;
	if (sched_feature_get(name) >= 0)
		return NULL;
	snprintf(why, sizeof(why), "no %s in %s (kernel without the series)",
		 name, SCHED_FEATURES_PATH);
	return why;
}

int sched_features_read(struct sched_features *f)
{
	char buf[4096], *tok, *save;
	ssize_t n, len = 0;
	int fd;

	fd = open(SCHED_FEATURES_PATH, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while ((n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += n;
	close(fd);
	if (n < 0)
		return -errno;
	buf[len] = '\0';

	f->nr = 0;
	for (tok = strtok_r(buf, "\n ", &save); tok;
	     tok = strtok_r(NULL, "\n ", &save)) {
		bool on = strncmp(tok, "NO_", 3) != 0;

		if (f->nr == SCHED_FEATURES_MAX)
			return -E2BIG;
		if (!on)
			tok += 3;
		if (!*tok || snprintf(f->name[f->nr], SCHED_FEATURE_NAME_MAX,
				      "%s", tok) >= SCHED_FEATURE_NAME_MAX)
			return -EINVAL;
		f->on[f->nr++] = on;
	}
	return f->nr ? 0 : -ENODATA;
}

int sched_feature_get(const char *name)
{
	struct sched_features f;
	int i, ret;

	ret = sched_features_read(&f);
	if (ret)
		return ret;
	for (i = 0; i < f.nr; i++)
		if (!strcmp(f.name[i], name))
			return f.on[i];
	return -ENOENT;
}

/* Async-signal-safe (no stdio): used from the restore path. */
int sched_path_write(const char *path, const char *value)
{
	ssize_t n;
	int fd, ret = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, value, strlen(value));
	if (n < 0)
		ret = -errno;
	else if ((size_t)n != strlen(value))
		ret = -EIO;
	close(fd);
	return ret;
}

int sched_features_write_raw(const char *token)
{
	return sched_path_write(SCHED_FEATURES_PATH, token);
}

int sched_feature_set(const char *name, bool on)
{
	char tok[SCHED_FEATURE_NAME_MAX + 4];

	if (snprintf(tok, sizeof(tok), "%s%s", on ? "" : "NO_", name) >=
	    (int)sizeof(tok))
		return -ENAMETOOLONG;
	return sched_features_write_raw(tok);
}

static void register_restore(void);

/*
 * Saved files: tunables next to the features file (e.g. migration_cost_ns)
 * and any other knob a test changes; written back by
 * sched_features_restore(), so at exit and on the same signals.
 */
#define SCHED_TUNABLES_MAX	16

static struct {
	char path[96];
	char value[128];
} tunables[SCHED_TUNABLES_MAX];
static int nr_tunables;

static int tunable_path(const char *name, char *path, size_t len)
{
	if (strchr(name, '/') ||
	    snprintf(path, len, "%s/%s", SCHED_DEBUGFS_DIR, name) >= (int)len)
		return -EINVAL;
	return 0;
}

int sched_tunable_get(const char *name, long long *val)
{
	char path[96], buf[32], *end;
	ssize_t n;
	int fd, ret;

	ret = tunable_path(name, path, sizeof(path));
	if (ret)
		return ret;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	ret = n < 0 ? -errno : 0;
	close(fd);
	if (ret)
		return ret;
	buf[n > 0 ? n : 0] = '\0';
	errno = 0;
	*val = strtoll(buf, &end, 10);
	if (errno || end == buf)
		return -EINVAL;
	return 0;
}

int sched_tunable_set(const char *name, long long val)
{
	char path[96], buf[32];
	long long back;
	int ret;

	ret = tunable_path(name, path, sizeof(path));
	if (ret)
		return ret;
	snprintf(buf, sizeof(buf), "%lld", val);
	ret = sched_path_write(path, buf);
	if (!ret && (sched_tunable_get(name, &back) || back != val))
		ret = -EIO;
	return ret;
}

int sched_path_save(const char *path)
{
	char buf[sizeof(tunables[0].value)];
	ssize_t n;
	int fd, i;

	if (nr_tunables == SCHED_TUNABLES_MAX ||
	    strlen(path) >= sizeof(tunables[0].path))
		return -E2BIG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n < 0)
		return -errno;
	if ((size_t)n == sizeof(buf))
		return -E2BIG;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	i = nr_tunables++;
	snprintf(tunables[i].path, sizeof(tunables[i].path), "%s", path);
	snprintf(tunables[i].value, sizeof(tunables[i].value), "%s", buf);
	register_restore();
	return 0;
}

int sched_path_restore(const char *path)
{
	int i;

	for (i = nr_tunables - 1; i >= 0; i--)
		if (!strcmp(tunables[i].path, path))
			return sched_path_write(path, tunables[i].value);
	return -ENOENT;
}

int sched_tunable_save(const char *name)
{
	char path[96];
	int ret = tunable_path(name, path, sizeof(path));

	return ret ? ret : sched_path_save(path);
}

static int tunables_restore(void)
{
	int i, ret, first = 0;

	for (i = 0; i < nr_tunables; i++) {
		ret = sched_path_write(tunables[i].path, tunables[i].value);
		if (ret && !first)
			first = ret;
	}
	return first;
}

int sched_features_restore(void)
{
	char tok[SCHED_FEATURE_NAME_MAX + 4];
	int i, ret, first = 0;
	size_t off, len;

	first = tunables_restore();
	if (!saved_valid)
		return first;
	for (i = 0; i < saved.nr; i++) {
		/* No stdio here: this runs from signal handlers too. */
		off = saved.on[i] ? 0 : 3;
		len = strlen(saved.name[i]);
		memcpy(tok, "NO_", off);
		memcpy(tok + off, saved.name[i], len + 1);
		ret = sched_features_write_raw(tok);
		if (ret && !first)
			first = ret;
	}
	return first;
}

static void restore_at_exit(void)
{
	sched_features_restore();
}

static void restore_on_signal(int sig)
{
	sched_features_restore();
	saved_valid = false;
	signal(sig, SIG_DFL);
	raise(sig);
}

static void register_restore(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	static bool registered;
	struct sigaction sa = { .sa_handler = restore_on_signal };
	unsigned int i;

	if (registered)
		return;
	registered = true;
	atexit(restore_at_exit);
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
}

int sched_features_save(void)
{
	int ret;

	ret = sched_features_read(&saved);
	if (ret)
		return ret;
	saved_valid = true;
	register_restore();
	return 0;
}

int sched_features_diff(const struct sched_features *a,
			const struct sched_features *b, char *buf, size_t len)
{
	int i, j, nr = 0;
	size_t used = 0;

	buf[0] = '\0';
	for (i = 0; i < a->nr; i++) {
		bool found = false, differs = true;

		for (j = 0; j < b->nr; j++) {
			if (strcmp(a->name[i], b->name[j]))
				continue;
			found = true;
			differs = a->on[i] != b->on[j];
			break;
		}
		if (!found || differs) {
			used += snprintf(buf + used, used < len ? len - used : 0,
					 "%s%s", nr ? "," : "", a->name[i]);
			nr++;
		}
	}
	if (a->nr != b->nr)
		nr++;
	return nr;
}
