// SPDX-License-Identifier: GPL-2.0
/*
 * One-line JSON objects: see json.h.
 */
#include "json.h"

static void put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		if ((unsigned char)*s >= 0x20)
			fputc(*s, f);
	}
	fputc('"', f);
}

void json_begin(struct json *j, FILE *f)
{
	j->f = f;
	j->n = 0;
	fputc('{', f);
}

void json_end(struct json *j)
{
	fputc('}', j->f);
}

void json_key(struct json *j, const char *key)
{
	if (j->n++)
		fputc(',', j->f);
	put_string(j->f, key);
	fputc(':', j->f);
}

void json_str(struct json *j, const char *key, const char *val)
{
	json_key(j, key);
	if (val)
		put_string(j->f, val);
	else
		fputs("null", j->f);
}

void json_num(struct json *j, const char *key, double val)
{
	json_key(j, key);
	fprintf(j->f, "%.9g", val);
}

void json_int(struct json *j, const char *key, long long val)
{
	json_key(j, key);
	fprintf(j->f, "%lld", val);
}

void json_bool(struct json *j, const char *key, int val)
{
	json_key(j, key);
	fputs(val ? "true" : "false", j->f);
}
