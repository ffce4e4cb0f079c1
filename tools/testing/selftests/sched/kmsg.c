// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel log checks for the sched selftests: see kmsg.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "../kselftest.h"
#include "kmsg.h"

int kmsg_open_end(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

/*
 * The first line of a report: WARN(), BUG() and KASAN ("BUG:"), lockdep
 * ("WARNING: possible ..."), UBSAN, hung tasks and RCU stalls ("INFO:"),
 * oopses.
 */
static bool is_report(const char *rec)
{
	static const char * const heads[] = {
		"WARNING:", "BUG:", "UBSAN:", "INFO:", "Oops:", "general protection fault",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(heads); i++)
		if (strstr(rec, heads[i]))
			return true;
	return false;
}

int kmsg_warnings(int fd)
{
	char rec[8192], *msg;
	int nr = 0;
	ssize_t n;

	if (fd < 0)
		return 0;
	while ((n = read(fd, rec, sizeof(rec) - 1)) != 0) {
		if (n < 0) {
			/* EPIPE: records were overwritten; read on. */
			if (errno == EPIPE)
				continue;
			break;
		}
		rec[n] = '\0';
		if (is_report(rec)) {
			msg = strchr(rec, ';');
			ksft_print_msg("kernel: %s", msg ? msg + 1 : rec);
			nr++;
		}
	}
	return nr;
}
