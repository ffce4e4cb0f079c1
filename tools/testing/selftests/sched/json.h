/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One-line JSON objects for the bench tools' machine-readable output.
 */
#ifndef __JSON_H
#define __JSON_H

#include <stdio.h>

struct json {
	FILE *f;
	int n;		/* members written so far */
};

void json_begin(struct json *j, FILE *f);
void json_end(struct json *j);		/* closes the object, no newline */
void json_str(struct json *j, const char *key, const char *val);
void json_num(struct json *j, const char *key, double val);
void json_int(struct json *j, const char *key, long long val);
void json_bool(struct json *j, const char *key, int val);
/* @key followed by raw JSON text that the caller writes to j->f. */
void json_key(struct json *j, const char *key);

#endif /* __JSON_H */
