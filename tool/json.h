/* SPDX-License-Identifier: MIT */
/*
 * json.h: a small JSON reader (RFC 8259) for alloctag's json reports and
 * timeline lines, and the string writer they share.  A \u0080 to \u00ff
 * escape is read as that byte: the runtime's writer escapes so the bytes
 * of a name that are not UTF-8 (valid UTF-8 is written as it is).  Numbers are kept as
 * int64 when they are integers that fit (all alloctag writes), as double
 * otherwise.  Nesting deeper than JSON_MAX_DEPTH is refused, so hostile
 * input cannot exhaust the stack.
 */
#ifndef ALLOCTAG_TOOL_JSON_H
#define ALLOCTAG_TOOL_JSON_H

#include <stddef.h>
#include <stdint.h>
#include "util.h"

#define JSON_MAX_DEPTH	64

enum json_type { JSON_NULL, JSON_FALSE, JSON_TRUE, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

struct json {
	enum json_type type;
	int is_int;		/* JSON_NUMBER: num holds it exactly */
	int64_t num;
	double real;
	char *str;		/* JSON_STRING, NUL-terminated (an embedded NUL is refused) */
	size_t n;		/* JSON_ARRAY, JSON_OBJECT: items */
	struct json *items;
	char **keys;		/* JSON_OBJECT */
};

/* Parse all of TEXT; -1 with "NAME:LINE: why" set as the error. */
int json_parse(struct json *out, const char *text, size_t len, const char *name, unsigned line);
/* Parse the value TEXT begins with; *USED: its length and the space after it. */
int json_parse_prefix(struct json *out, const char *text, size_t len, const char *name,
		      unsigned line, size_t *used);
void json_free(struct json *j);
const struct json *json_get(const struct json *object, const char *key);
/* An integer member: 0 if present and an integer, -1 if absent or not. */
int json_int(const struct json *object, const char *key, int64_t *out);
/* A string member, or NULL (absent, null or not a string). */
const char *json_str(const struct json *object, const char *key);

/* S as a JSON string (NULL as null) into B: the runtime's writer
 * (out_json_string(), runtime/format.c), valid JSON from any bytes. */
void json_put_string(struct buf *b, const char *s);

#endif
