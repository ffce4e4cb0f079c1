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

/* Async-signal-safe: used from the restore path. */
int sched_features_write_raw(const char *token)
{
	ssize_t n;
	int fd, ret = 0;

	fd = open(SCHED_FEATURES_PATH, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, token, strlen(token));
	if (n < 0)
		ret = -errno;
	else if ((size_t)n != strlen(token))
		ret = -EIO;
	close(fd);
	return ret;
}

int sched_feature_set(const char *name, bool on)
{
	char tok[SCHED_FEATURE_NAME_MAX + 4];

	if (snprintf(tok, sizeof(tok), "%s%s", on ? "" : "NO_", name) >=
	    (int)sizeof(tok))
		return -ENAMETOOLONG;
	return sched_features_write_raw(tok);
}

int sched_features_restore(void)
{
	char tok[SCHED_FEATURE_NAME_MAX + 4];
	int i, ret, first = 0;
	size_t off, len;

	if (!saved_valid)
		return 0;
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

int sched_features_save(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	static bool registered;
	struct sigaction sa = { .sa_handler = restore_on_signal };
	unsigned int i;
	int ret;

	ret = sched_features_read(&saved);
	if (ret)
		return ret;
	saved_valid = true;
	if (registered)
		return 0;
	registered = true;
	atexit(restore_at_exit);
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
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
