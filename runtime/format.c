/* SPDX-License-Identifier: MIT */
/*
 * Reports as text (format.h).  mmap, memcpy and the caller's flush and
 * nothing else: safe in a signal handler, and shared with the alloctag
 * command.
 */
#include <string.h>
#include <sys/mman.h>
#include "format.h"

#define OUT_FIRST	(1u << 16)

/* Streaming: S copied in, the buffer flushed each time it fills. */
static void out_stream(struct out *o, const char *s, size_t n)
{
	while (n && !o->failed) {
		size_t room = o->cap - o->len, k = n < room ? n : room;

		memcpy(o->buf + o->len, s, k);
		o->len += k;
		s += k;
		n -= k;
		if (o->len == o->cap && o->flush(o) != 0)
			o->failed = 1;
	}
}

static int no_room(struct out *o)
{
	(void)o;
	return -1;
}

void out_fixed(struct out *o, char *buf, size_t cap)
{
	*o = (struct out){ .buf = buf, .cap = cap, .flush = no_room };
}

void out_flush(struct out *o)
{
	if (o->flush && o->len && !o->failed && o->flush(o) != 0)
		o->failed = 1;
}

void out_put(struct out *o, const char *s, size_t n)
{
	if (o->failed)
		return;
	if (o->flush) {
		out_stream(o, s, n);
		return;
	}
	if (o->len + n > o->cap) {
		size_t cap = (o->cap ? o->cap * 2 : OUT_FIRST) + n;
		char *buf = mmap(NULL, cap, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (buf == MAP_FAILED) {
			o->failed = 1;
			return;
		}
		if (o->buf) {
			memcpy(buf, o->buf, o->len);
			munmap(o->buf, o->cap);
		}
		o->buf = buf;
		o->cap = cap;
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

void out_str(struct out *o, const char *s)
{
	out_put(o, s, strlen(s));
}

void out_release(struct out *o)
{
	if (o->buf && !o->flush)
		munmap(o->buf, o->cap);
	o->buf = NULL;
	o->len = o->cap = 0;
}

static void out_digits(struct out *o, uint64_t u, int negative, int width)
{
	char digits[24], *p = digits + sizeof(digits);
	int len;

	do
		*--p = '0' + u % 10;
	while (u /= 10);
	if (negative)
		*--p = '-';
	len = digits + sizeof(digits) - p;
	for (; width > len; width--)
		out_put(o, " ", 1);
	out_put(o, p, len);
}

void out_num(struct out *o, int64_t v, int width)
{
	out_digits(o, v < 0 ? -(uint64_t)v : (uint64_t)v, v < 0, width);
}

void out_unum(struct out *o, uint64_t v, int width)
{
	out_digits(o, v, 0, width);
}

/* The length of the valid UTF-8 sequence at S, or 0 if S does not begin one. */
static size_t utf8_length(const unsigned char *s)
{
	size_t n;
	uint32_t c;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, c = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, c = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, c = s[0] & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, past U+10FFFF */
	if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff))
		return 0;
	return n;
}

/*
 * A JSON string of S's bytes: valid UTF-8 as it is, control characters and
 * bytes that are not UTF-8 (a file name may hold any) as \u00XX, so that a
 * reader of alloctag's JSON takes \u0080 to \u00ff back to the raw byte.
 */
void out_json_string(struct out *o, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;

	if (!s) {
		out_str(o, "null");
		return;
	}
	out_put(o, "\"", 1);
	while (*p) {
		size_t n = utf8_length(p);

		if (*p == '"' || *p == '\\') {
			char esc[2] = { '\\', (char)*p };

			out_put(o, esc, 2);
		} else if (*p < 0x20 || *p == 0x7f || !n) {
			char esc[6] = { '\\', 'u', '0', '0', hex[*p >> 4], hex[*p & 15] };

			out_put(o, esc, 6);
			n = 1;
		} else {
			out_put(o, (const char *)p, n);
		}
		p += n ? n : 1;
	}
	out_put(o, "\"", 1);
}

static int before(const struct report_line *a, const struct report_line *b)
{
	int c;

	if (a->totals.live_bytes != b->totals.live_bytes)
		return a->totals.live_bytes > b->totals.live_bytes;
	if (a->totals.bytes != b->totals.bytes)
		return a->totals.bytes > b->totals.bytes;
	c = strcmp(a->where.file, b->where.file);
	if (c)
		return c < 0;
	if (a->where.line != b->where.line)
		return a->where.line < b->where.line;
	return a->where.column < b->where.column;
}

static void swap(struct report_line *a, struct report_line *b)
{
	struct report_line tmp = *a;

	*a = *b;
	*b = tmp;
}

/* Heap sort (qsort may allocate): a max-heap of what comes last. */
static void sift(struct report_line *v, size_t root, size_t n)
{
	size_t child;

	while ((child = 2 * root + 1) < n) {
		if (child + 1 < n && before(&v[child], &v[child + 1]))
			child++;
		if (!before(&v[root], &v[child]))
			return;
		swap(&v[root], &v[child]);
		root = child;
	}
}

void report_sort(struct report_line *v, size_t n)
{
	for (size_t i = n / 2; i-- > 0;)
		sift(v, i, n);
	for (size_t end = n; end-- > 1;) {
		swap(&v[0], &v[end]);
		sift(v, 0, end);
	}
}

/* "file:line [module] func:function", and in full ":column" and " callee:name". */
static void put_tag_info(struct out *o, const struct site_text *s, int full)
{
	out_str(o, s->file);
	out_put(o, ":", 1);
	out_unum(o, s->line, 0);
	if (full && s->column) {
		out_put(o, ":", 1);
		out_unum(o, s->column, 0);
	}
	if (s->module) {
		out_str(o, " [");
		out_str(o, s->module);
		out_put(o, "]", 1);
	}
	out_str(o, " func:");
	out_str(o, s->function);
	if (full && s->callee) {
		out_str(o, " callee:");
		out_str(o, s->callee);
	}
	if (s->inaccurate)
		out_str(o, " " ALLOCINFO_INACCURATE);
}

/* "... not alloctag's (libjemalloc.so.2): ...". */
static void put_frees_unseen(struct out *o, const struct report_meta *meta)
{
	out_str(o, FREES_UNSEEN_NOTE);
	if (meta->free_owner) {
		out_str(o, " (");
		out_str(o, meta->free_owner);
		out_put(o, ")", 1);
	}
	out_str(o, ": calls and bytes are counted, live bytes and blocks are not\n");
}

static void begin_text(struct out *o, const struct report_meta *meta, int full)
{
	out_str(o, ALLOCINFO_HEADER " " ALLOCINFO_VERSION "\n");
	if (full)
		out_str(o, "#     <size>  <calls>   <total size> <total calls>  <peak size> <tag info>\n");
	else
		out_str(o, "#     <size>  <calls> <tag info>\n");
	if (!meta->frees_seen)
		put_frees_unseen(o, meta);
	for (size_t i = 0; i < meta->nnotes; i++) {
		out_str(o, "# alloctag: ");
		out_str(o, meta->notes[i]);
		out_put(o, "\n", 1);
	}
}

static void put_text_site(struct out *o, const struct report_line *l, int full)
{
	const struct site_totals *t = &l->totals;

	out_num(o, t->live_bytes, 12);
	out_put(o, " ", 1);
	out_num(o, t->live_calls, 8);
	out_put(o, " ", 1);
	if (full) {
		out_unum(o, t->bytes, 14);
		out_put(o, " ", 1);
		out_unum(o, t->calls, 13);
		out_put(o, " ", 1);
		out_num(o, t->peak, 12);
		out_put(o, " ", 1);
	}
	put_tag_info(o, &l->where, full);
	out_str(o, " \n");	/* the kernel ends each line with a space */
}

static void put_json_number(struct out *o, const char *name, int64_t v)
{
	out_str(o, ", \"");
	out_str(o, name);
	out_str(o, "\": ");
	out_num(o, v, 0);
}

static void put_json_site(struct out *o, const struct report_line *l)
{
	out_str(o, "{\"file\": ");
	out_json_string(o, l->where.file);
	put_json_number(o, "line", l->where.line);
	put_json_number(o, "column", l->where.column);
	out_str(o, ", \"function\": ");
	out_json_string(o, l->where.function);
	out_str(o, ", \"callee\": ");
	out_json_string(o, l->where.callee);
	out_str(o, ", \"module\": ");
	out_json_string(o, l->where.module);
	put_json_number(o, "bytes", l->totals.live_bytes);
	put_json_number(o, "calls", l->totals.live_calls);
	put_json_number(o, "total_bytes", (int64_t)l->totals.bytes);
	put_json_number(o, "total_calls", (int64_t)l->totals.calls);
	put_json_number(o, "peak_bytes", l->totals.peak);
	if (l->where.inaccurate)
		out_str(o, ", \"accurate\": false");
	out_put(o, "}", 1);
}

static void begin_json(struct out *o, const struct report_meta *meta)
{
	out_str(o, "{\"version\": 1, \"program\": ");
	out_json_string(o, meta->program);
	put_json_number(o, "pid", meta->pid);
	out_str(o, meta->frees_seen ? ", \"frees_seen\": true" : ", \"frees_seen\": false");
	if (!meta->frees_seen && meta->free_owner) {
		out_str(o, ", \"free_owner\": ");
		out_json_string(o, meta->free_owner);
	}
	if (meta->nnotes) {
		out_str(o, ", \"notes\": [");
		for (size_t i = 0; i < meta->nnotes; i++) {
			if (i)
				out_str(o, ", ");
			out_json_string(o, meta->notes[i]);
		}
		out_put(o, "]", 1);
	}
	out_str(o, ", \"sites\": [");
}

void report_begin(struct out *o, enum report_format format, const struct report_meta *meta)
{
	if (format == FORMAT_JSON)
		begin_json(o, meta);
	else
		begin_text(o, meta, format == FORMAT_FULL);
}

void report_site(struct out *o, enum report_format format, const struct report_line *l, size_t index)
{
	if (format == FORMAT_JSON) {
		out_str(o, index ? ",\n  " : "\n  ");
		put_json_site(o, l);
	} else {
		put_text_site(o, l, format == FORMAT_FULL);
	}
}

void report_end(struct out *o, enum report_format format)
{
	if (format == FORMAT_JSON)
		out_str(o, "\n]}\n");
}

void report_format(struct out *o, enum report_format format, const struct report_line *v,
		   size_t n, const struct report_meta *meta)
{
	report_begin(o, format, meta);
	for (size_t i = 0; i < n; i++)
		report_site(o, format, &v[i], i);
	report_end(o, format);
}
