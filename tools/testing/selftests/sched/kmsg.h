/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel log as a test verdict: open /dev/kmsg at its end before the
 * test, and count the warnings logged since afterwards.
 */
#ifndef __KMSG_H
#define __KMSG_H

/* A descriptor positioned at the end of the log, or -1. */
int kmsg_open_end(void);

/*
 * Print and count the reports (records with "WARNING:", "BUG:", "UBSAN:",
 * "INFO:", "Oops:" or "general protection fault") logged since
 * kmsg_open_end(); 0 when @fd < 0.
 */
int kmsg_warnings(int fd);

#endif /* __KMSG_H */
