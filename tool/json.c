/* SPDX-License-Identifier: MIT */
/* json.c: the JSON reader and string writer (json.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "format.h"
#include "json.h"

struct parser {
	const char *p, *end, *start;
	const char *name;
	unsigned line;
	int failed;
};

static int bad(struct parser *ps, const char *why)
{
	if (!ps->failed) {
		unsigned line = ps->line;

		for (const char *c = ps->start; c < ps->p && c < ps->end; c++)
			line += *c == '\n';
		error_set("%s:%u: not valid JSON: %s", ps->name, line, why);
	}
	ps->failed = 1;
	return -1;
}

static void skip_space(struct parser *ps)
{
	while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
		ps->p++;
}

static int literal(struct parser *ps, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n))
		return bad(ps, "unexpected character");
	ps->p += n;
	return 0;
}

static int hex4(struct parser *ps, unsigned *out)
{
	*out = 0;
	if (ps->end - ps->p < 4)
		return bad(ps, "truncated \\u escape");
	for (int i = 0; i < 4; i++) {
		char c = *ps->p++;

		*out <<= 4;
		if (c >= '0' && c <= '9')
			*out |= c - '0';
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			*out |= (c | 0x20) - 'a' + 10;
		else
			return bad(ps, "bad \\u escape");
	}
	return 0;
}

static void put_utf8(struct buf *b, unsigned cp)
{
	char u[4];
	size_t n;

	if (cp < 0x80) {
		u[0] = cp;
		n = 1;
	} else if (cp < 0x800) {
		u[0] = 0xc0 | cp >> 6;
		u[1] = 0x80 | (cp & 0x3f);
		n = 2;
	} else if (cp < 0x10000) {
		u[0] = 0xe0 | cp >> 12;
		u[1] = 0x80 | ((cp >> 6) & 0x3f);
		u[2] = 0x80 | (cp & 0x3f);
		n = 3;
	} else {
		u[0] = 0xf0 | cp >> 18;
		u[1] = 0x80 | ((cp >> 12) & 0x3f);
		u[2] = 0x80 | ((cp >> 6) & 0x3f);
		u[3] = 0x80 | (cp & 0x3f);
		n = 4;
	}
	buf_add(b, u, n);
}

static int escape(struct parser *ps, struct buf *b)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *e;
	unsigned cp, low;

	if (ps->p >= ps->end)
		return bad(ps, "truncated string");
	if (*ps->p != 'u') {
		if (!(e = memchr(from, *ps->p, sizeof(from) - 1)))
			return bad(ps, "bad escape");
		buf_add(b, &to[e - from], 1);
		ps->p++;
		return 0;
	}
	ps->p++;
	if (hex4(ps, &cp))
		return -1;
	if (cp >= 0xd800 && cp < 0xdc00) {
		if (ps->end - ps->p < 2 || ps->p[0] != '\\' || ps->p[1] != 'u')
			return bad(ps, "lone surrogate");
		ps->p += 2;
		if (hex4(ps, &low) || low < 0xdc00 || low > 0xdfff)
			return bad(ps, "bad surrogate pair");
		cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
	} else if (cp >= 0xdc00 && cp < 0xe000) {
		return bad(ps, "lone surrogate");
	}
	if (cp == 0)
		return bad(ps, "NUL in a string");
	if (cp >= 0x80 && cp <= 0xff) {	/* a byte the runtime's writer escaped (format.c) */
		char byte = (char)cp;

		buf_add(b, &byte, 1);
		return 0;
	}
	put_utf8(b, cp);
	return 0;
}

static int string(struct parser *ps, char **out)
{
	struct buf b = { 0 };

	ps->p++;	/* the opening quote */
	for (;;) {
		const char *run = ps->p;

		while (ps->p < ps->end && *ps->p != '"' && *ps->p != '\\' && (unsigned char)*ps->p >= 0x20)
			ps->p++;
		buf_add(&b, run, ps->p - run);
		if (ps->p >= ps->end) {
			buf_free(&b);
			return bad(ps, "truncated string");
		}
		if (*ps->p == '"')
			break;
		if (*ps->p != '\\') {
			buf_free(&b);
			return bad(ps, "control character in a string");
		}
		ps->p++;
		if (escape(ps, &b)) {
			buf_free(&b);
			return -1;
		}
	}
	ps->p++;
	*out = b.data ? b.data : xstrdup("");
	return 0;
}

static int number(struct parser *ps, struct json *j)
{
	const char *s = ps->p;
	char text[64];
	char *end;
	int integer = 1;

	if (ps->p < ps->end && *ps->p == '-')
		ps->p++;
	if (ps->p >= ps->end || *ps->p < '0' || *ps->p > '9')
		return bad(ps, "bad number");
	while (ps->p < ps->end && ((*ps->p >= '0' && *ps->p <= '9') || strchr(".eE+-", *ps->p))) {
		if (!(*ps->p >= '0' && *ps->p <= '9') && *ps->p != '-')
			integer = 0;
		ps->p++;
	}
	if ((size_t)(ps->p - s) >= sizeof(text))
		return bad(ps, "number too long");
	memcpy(text, s, ps->p - s);
	text[ps->p - s] = '\0';
	j->type = JSON_NUMBER;
	errno = 0;
	if (integer) {
		j->num = strtoll(text, &end, 10);
		j->real = (double)j->num;
		j->is_int = !errno;
	}
	if (!j->is_int) {
		errno = 0;
		j->real = strtod(text, &end);
		if (errno || isinf(j->real))
			return bad(ps, "number out of range");
	}
	if (*end)
		return bad(ps, "bad number");
	return 0;
}

static int value(struct parser *ps, struct json *j, int depth);

static int container(struct parser *ps, struct json *j, int depth)
{
	int object = *ps->p == '{';
	char close = object ? '}' : ']';
	size_t cap = 0;

	j->type = object ? JSON_OBJECT : JSON_ARRAY;
	if (depth >= JSON_MAX_DEPTH)
		return bad(ps, "nested too deeply");
	ps->p++;
	skip_space(ps);
	if (ps->p < ps->end && *ps->p == close) {
		ps->p++;
		return 0;
	}
	for (;;) {
		char *key = NULL;

		if (j->n == cap) {
			cap = cap ? cap * 2 : 8;
			j->items = xrealloc(j->items, cap * sizeof(*j->items));
			if (object)
				j->keys = xrealloc(j->keys, cap * sizeof(*j->keys));
		}
		skip_space(ps);
		if (object) {
			if (ps->p >= ps->end || *ps->p != '"')
				return bad(ps, "expected a member name");
			if (string(ps, &key))
				return -1;
			skip_space(ps);
			if (ps->p >= ps->end || *ps->p != ':') {
				free(key);
				return bad(ps, "expected ':'");
			}
			ps->p++;
			j->keys[j->n] = key;
		}
		memset(&j->items[j->n], 0, sizeof(*j->items));
		j->n++;
		if (value(ps, &j->items[j->n - 1], depth + 1))
			return -1;
		skip_space(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			continue;
		}
		if (ps->p < ps->end && *ps->p == close) {
			ps->p++;
			return 0;
		}
		return bad(ps, ps->p >= ps->end ? "truncated" : object ? "expected ',' or '}'"
							       : "expected ',' or ']'");
	}
}

static int value(struct parser *ps, struct json *j, int depth)
{
	skip_space(ps);
	if (ps->p >= ps->end)
		return bad(ps, "truncated");
	switch (*ps->p) {
	case '{':
	case '[':
		return container(ps, j, depth);
	case '"':
		j->type = JSON_STRING;
		return string(ps, &j->str);
	case 't':
		j->type = JSON_TRUE;
		return literal(ps, "true");
	case 'f':
		j->type = JSON_FALSE;
		return literal(ps, "false");
	case 'n':
		j->type = JSON_NULL;
		return literal(ps, "null");
	default:
		return number(ps, j);
	}
}

int json_parse_prefix(struct json *out, const char *text, size_t len, const char *name,
		      unsigned line, size_t *used)
{
	struct parser ps = { text, text + len, text, name, line, 0 };

	memset(out, 0, sizeof(*out));
	if (value(&ps, out, 0) == 0) {
		skip_space(&ps);
		*used = ps.p - text;
		return 0;
	}
	json_free(out);
	return -1;
}

int json_parse(struct json *out, const char *text, size_t len, const char *name, unsigned line)
{
	size_t used;

	if (json_parse_prefix(out, text, len, name, line, &used))
		return -1;
	if (used == len)
		return 0;
	for (const char *c = text; c < text + used; c++)
		line += *c == '\n';
	error_set("%s:%u: not valid JSON: text after the value", name, line);
	json_free(out);
	return -1;
}

void json_free(struct json *j)
{
	for (size_t i = 0; i < j->n; i++) {
		json_free(&j->items[i]);
		if (j->keys)
			free(j->keys[i]);
	}
	free(j->items);
	free(j->keys);
	free(j->str);
	memset(j, 0, sizeof(*j));
}

const struct json *json_get(const struct json *object, const char *key)
{
	if (object->type != JSON_OBJECT)
		return NULL;
	for (size_t i = 0; i < object->n; i++)
		if (!strcmp(object->keys[i], key))
			return &object->items[i];
	return NULL;
}

int json_int(const struct json *object, const char *key, int64_t *out)
{
	const struct json *j = json_get(object, key);

	if (!j || j->type != JSON_NUMBER || !j->is_int)
		return -1;
	*out = j->num;
	return 0;
}

const char *json_str(const struct json *object, const char *key)
{
	const struct json *j = json_get(object, key);

	return j && j->type == JSON_STRING ? j->str : NULL;
}

/* The runtime's writer (format.c), streamed into B. */
static int flush_to_buf(struct out *o)
{
	buf_add(o->sink, o->buf, o->len);
	o->len = 0;
	return 0;
}

void json_put_string(struct buf *b, const char *s)
{
	char chunk[256];
	struct out o = { .buf = chunk, .cap = sizeof(chunk), .flush = flush_to_buf, .sink = b };

	out_json_string(&o, s);
	out_flush(&o);
}
