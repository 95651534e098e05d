/* SPDX-License-Identifier: MIT */
/*
 * pprof.c: `alloctag pprof`: a snapshot as pprof's profile.proto
 * (github.com/google/pprof, proto/profile.proto), gzipped, as Go's
 * /debug/pprof/heap serves it, so that `go tool pprof`, Pyroscope and
 * Parca read it.
 *
 *   sample types  alloc_objects/count, alloc_space/bytes, inuse_objects/count,
 *                 inuse_space/bytes (the default), in Go's order; only the
 *                 inuse pair for a report without totals (allocinfo)
 *   samples       one per site, its one location the site; label "callee"
 *                 when the site knows the function it calls, "accurate"
 *                 "no" when the kernel said its counters missed some
 *   locations     id i+1 for site i: one line (function, line, column)
 *   functions     one per (name, file)
 *   mappings      1: the program; then one per shared object (module); all
 *                 say has_functions/filenames/line_numbers, so pprof does
 *                 not try to symbolize
 *
 * The gzip stream holds stored (uncompressed) deflate blocks and the CRC-32:
 * valid gzip (RFC 1951, 1952) with no compressor to carry.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "snapshot.h"
#include "source.h"
#include "views.h"

/* profile.proto's field numbers */
enum {
	PROFILE_SAMPLE_TYPE = 1, PROFILE_SAMPLE = 2, PROFILE_MAPPING = 3, PROFILE_LOCATION = 4,
	PROFILE_FUNCTION = 5, PROFILE_STRING_TABLE = 6, PROFILE_TIME_NANOS = 9,
	PROFILE_DURATION_NANOS = 10, PROFILE_PERIOD_TYPE = 11, PROFILE_PERIOD = 12,
	PROFILE_COMMENT = 13, PROFILE_DEFAULT_SAMPLE_TYPE = 14,
	VALUE_TYPE_TYPE = 1, VALUE_TYPE_UNIT = 2,
	SAMPLE_LOCATION_ID = 1, SAMPLE_VALUE = 2, SAMPLE_LABEL = 3,
	LABEL_KEY = 1, LABEL_STR = 2,
	MAPPING_ID = 1, MAPPING_FILENAME = 5, MAPPING_HAS_FUNCTIONS = 7, MAPPING_HAS_FILENAMES = 8,
	MAPPING_HAS_LINE_NUMBERS = 9,
	LOCATION_ID = 1, LOCATION_MAPPING_ID = 2, LOCATION_LINE = 4,
	LINE_FUNCTION_ID = 1, LINE_LINE = 2, LINE_COLUMN = 3,
	FUNCTION_ID = 1, FUNCTION_NAME = 2, FUNCTION_SYSTEM_NAME = 3, FUNCTION_FILENAME = 4,
};

enum { WIRE_VARINT = 0, WIRE_BYTES = 2 };

/* ---- protobuf encoding -------------------------------------------------- */

static void pb_varint(struct buf *b, uint64_t v)
{
	unsigned char c[10];
	size_t n = 0;

	do {
		c[n] = v & 0x7f;
		v >>= 7;
		if (v)
			c[n] |= 0x80;
		n++;
	} while (v);
	buf_add(b, c, n);
}

static void pb_int(struct buf *b, int field, int64_t v)
{
	if (!v)
		return;	/* proto3: a zero is not written */
	pb_varint(b, (uint64_t)field << 3 | WIRE_VARINT);
	pb_varint(b, (uint64_t)v);
}

static void pb_bytes(struct buf *b, int field, const void *p, size_t n)
{
	pb_varint(b, (uint64_t)field << 3 | WIRE_BYTES);
	pb_varint(b, n);
	buf_add(b, p, n);
}

static void pb_message(struct buf *b, int field, struct buf *m)
{
	pb_bytes(b, field, m->data, m->len);
	m->len = 0;
}

/* Repeated integers, packed (proto3's encoding of repeated scalars). */
static void pb_packed(struct buf *b, int field, const int64_t *v, size_t n)
{
	struct buf m = { 0 };

	for (size_t i = 0; i < n; i++)
		pb_varint(&m, (uint64_t)v[i]);
	pb_message(b, field, &m);
	buf_free(&m);
}

/* ---- the string table and the functions, hashed -------------------------- */

/* Open addressing over indexes + 1 (0: empty); grows at half full. */
struct index_table {
	uint32_t *slots;
	size_t cap;
};

static uint64_t hash_bytes(const char *s, size_t n, uint64_t h)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;	/* FNV-1a */
	return h;
}

struct strings {
	char **s;
	size_t n, cap;
	struct index_table index;
};

static void index_insert(struct index_table *t, uint64_t hash, uint32_t value)
{
	size_t i = hash & (t->cap - 1);

	while (t->slots[i])
		i = (i + 1) & (t->cap - 1);
	t->slots[i] = value + 1;
}

static void strings_grow(struct strings *t)
{
	free(t->index.slots);
	t->index.cap = t->index.cap ? t->index.cap * 2 : 256;
	t->index.slots = xcalloc(t->index.cap, sizeof(*t->index.slots));
	for (size_t k = 0; k < t->n; k++)
		index_insert(&t->index, hash_bytes(t->s[k], strlen(t->s[k]), 0xcbf29ce484222325ull), k);
}

static int64_t intern(struct strings *t, const char *s)
{
	uint64_t h;
	size_t i;

	if (!s)
		s = "";
	if (2 * (t->n + 1) > t->index.cap)
		strings_grow(t);
	h = hash_bytes(s, strlen(s), 0xcbf29ce484222325ull);
	for (i = h & (t->index.cap - 1); t->index.slots[i]; i = (i + 1) & (t->index.cap - 1))
		if (!strcmp(t->s[t->index.slots[i] - 1], s))
			return t->index.slots[i] - 1;
	if (t->n == t->cap)
		t->s = xrealloc(t->s, (t->cap = t->cap ? t->cap * 2 : 64) * sizeof(*t->s));
	t->s[t->n] = xstrdup(s);
	t->index.slots[i] = t->n + 1;
	return (int64_t)t->n++;
}

/* ---- the profile -------------------------------------------------------- */

struct profile {
	struct buf body;	/* everything but the string table */
	struct strings strings;
	struct buf m;		/* a message being built */
};

static void value_type(struct profile *p, int field, const char *type, const char *unit)
{
	struct buf vt = { 0 };

	pb_int(&vt, VALUE_TYPE_TYPE, intern(&p->strings, type));
	pb_int(&vt, VALUE_TYPE_UNIT, intern(&p->strings, unit));
	pb_message(&p->body, field, &vt);
	buf_free(&vt);
}

/* Mapping ids: 1 the program, then one per module in order of appearance. */
static uint64_t mapping_of(const char *module, const char ***modules, size_t *nmodules)
{
	if (!module)
		return 1;
	for (size_t i = 0; i < *nmodules; i++)
		if (!strcmp((*modules)[i], module))
			return i + 2;
	*modules = xrealloc(*modules, (*nmodules + 1) * sizeof(**modules));
	(*modules)[(*nmodules)++] = module;
	return *nmodules + 1;
}

static void put_mapping(struct profile *p, uint64_t id, const char *file)
{
	pb_int(&p->m, MAPPING_ID, id);
	pb_int(&p->m, MAPPING_FILENAME, intern(&p->strings, file));
	pb_int(&p->m, MAPPING_HAS_FUNCTIONS, 1);
	pb_int(&p->m, MAPPING_HAS_FILENAMES, 1);
	pb_int(&p->m, MAPPING_HAS_LINE_NUMBERS, 1);
	pb_message(&p->body, PROFILE_MAPPING, &p->m);
}

/* Function ids: one per (name, file), their string indexes hashed. */
struct functions {
	int64_t *key;		/* by function id - 1: name << 32 | file */
	size_t n;
	struct index_table index;
};

static uint64_t function_key_hash(int64_t key)
{
	return (uint64_t)key * 0x9e3779b97f4a7c15ull;
}

static uint64_t function_of(struct profile *p, struct functions *f, const struct site *site)
{
	int64_t name = intern(&p->strings, site->function), file = intern(&p->strings, site->file);
	int64_t key = name << 32 | file;
	size_t i;

	if (2 * (f->n + 1) > f->index.cap) {
		free(f->index.slots);
		f->index.cap = f->index.cap ? f->index.cap * 2 : 256;
		f->index.slots = xcalloc(f->index.cap, sizeof(*f->index.slots));
		for (size_t k = 0; k < f->n; k++)
			index_insert(&f->index, function_key_hash(f->key[k]), k);
	}
	for (i = function_key_hash(key) & (f->index.cap - 1); f->index.slots[i];
	     i = (i + 1) & (f->index.cap - 1))
		if (f->key[f->index.slots[i] - 1] == key)
			return f->index.slots[i];
	f->key = xrealloc(f->key, (f->n + 1) * sizeof(*f->key));
	f->key[f->n++] = key;
	f->index.slots[i] = f->n;
	pb_int(&p->m, FUNCTION_ID, f->n);
	pb_int(&p->m, FUNCTION_NAME, name);
	pb_int(&p->m, FUNCTION_SYSTEM_NAME, name);
	pb_int(&p->m, FUNCTION_FILENAME, file);
	pb_message(&p->body, PROFILE_FUNCTION, &p->m);
	return f->n;
}

static void put_location(struct profile *p, uint64_t id, uint64_t mapping, uint64_t function,
			 const struct site *site)
{
	struct buf line = { 0 };

	pb_int(&line, LINE_FUNCTION_ID, function);
	pb_int(&line, LINE_LINE, site->line);
	pb_int(&line, LINE_COLUMN, site->column);
	pb_int(&p->m, LOCATION_ID, id);
	pb_int(&p->m, LOCATION_MAPPING_ID, mapping);
	pb_message(&p->m, LOCATION_LINE, &line);
	pb_message(&p->body, PROFILE_LOCATION, &p->m);
	buf_free(&line);
}

/* A label KEY=VALUE of the sample being built. */
static void put_label(struct profile *p, const char *key, const char *value)
{
	struct buf label = { 0 };

	pb_int(&label, LABEL_KEY, intern(&p->strings, key));
	pb_int(&label, LABEL_STR, intern(&p->strings, value));
	pb_message(&p->m, SAMPLE_LABEL, &label);
	buf_free(&label);
}

static void put_sample(struct profile *p, const struct snapshot *s, uint64_t location,
		       const struct site *site)
{
	int64_t values[4] = { site->total_calls, site->total_bytes, site->calls, site->bytes };
	const int64_t *v = s->has_totals ? values : values + 2;
	size_t n = s->has_totals ? 4 : 2;
	int64_t loc = (int64_t)location;

	pb_packed(&p->m, SAMPLE_LOCATION_ID, &loc, 1);
	pb_packed(&p->m, SAMPLE_VALUE, v, n);
	if (site->callee)
		put_label(p, "callee", site->callee);
	if (site->inaccurate)
		put_label(p, "accurate", "no");
	pb_message(&p->body, PROFILE_SAMPLE, &p->m);
}

static int site_is_empty(const struct site *site)
{
	return !site->bytes && !site->calls && !site->total_bytes && !site->total_calls;
}

/* The whole profile (uncompressed) into OUT. */
static void encode_profile(struct buf *out, const struct snapshot *s, int64_t duration_ns)
{
	struct profile p = { 0 };
	const char **modules = NULL;
	size_t nmodules = 0;
	struct functions functions = { 0 };
	char comment[512];

	intern(&p.strings, "");
	if (s->has_totals) {
		value_type(&p, PROFILE_SAMPLE_TYPE, "alloc_objects", "count");
		value_type(&p, PROFILE_SAMPLE_TYPE, "alloc_space", "bytes");
	}
	value_type(&p, PROFILE_SAMPLE_TYPE, "inuse_objects", "count");
	value_type(&p, PROFILE_SAMPLE_TYPE, "inuse_space", "bytes");
	for (size_t i = 0; i < s->n; i++) {
		const struct site *site = &s->sites[i];
		uint64_t mapping, function;

		if (site_is_empty(site))
			continue;
		mapping = mapping_of(site->module, &modules, &nmodules);
		function = function_of(&p, &functions, site);
		put_location(&p, i + 1, mapping, function, site);
		put_sample(&p, s, i + 1, site);
	}
	put_mapping(&p, 1, s->program ? s->program : "");
	for (size_t i = 0; i < nmodules; i++)
		put_mapping(&p, i + 2, modules[i]);
	pb_int(&p.body, PROFILE_TIME_NANOS, s->time_ns);
	pb_int(&p.body, PROFILE_DURATION_NANOS, duration_ns);
	value_type(&p, PROFILE_PERIOD_TYPE, "space", "bytes");
	pb_int(&p.body, PROFILE_PERIOD, 1);	/* every allocation counted: not sampled */
	if (s->pid)
		snprintf(comment, sizeof(comment), "alloctag: exact per-call-site counters of %s (pid %ld)",
			 s->program ? s->program : "a program", s->pid);
	else
		snprintf(comment, sizeof(comment), "alloctag: exact per-call-site counters of %s",
			 s->program ? s->program : "a report");
	pb_int(&p.body, PROFILE_COMMENT, intern(&p.strings, comment));
	pb_int(&p.body, PROFILE_DEFAULT_SAMPLE_TYPE, intern(&p.strings, "inuse_space"));

	/* string_table last: it is only complete now (field order is free in protobuf) */
	buf_add(out, p.body.data, p.body.len);
	for (size_t i = 0; i < p.strings.n; i++) {
		pb_bytes(out, PROFILE_STRING_TABLE, p.strings.s[i], strlen(p.strings.s[i]));
		free(p.strings.s[i]);
	}
	free(p.strings.s);
	free(p.strings.index.slots);
	free(modules);
	free(functions.key);
	free(functions.index.slots);
	buf_free(&p.body);
	buf_free(&p.m);
}

/* ---- gzip, stored ------------------------------------------------------- */

#define DEFLATE_STORED_MAX	65535

static uint32_t crc32(const unsigned char *p, size_t n)
{
	static uint32_t table[256];
	uint32_t crc = 0xffffffffu;

	if (!table[1])
		for (uint32_t i = 0; i < 256; i++) {
			uint32_t c = i;

			for (int k = 0; k < 8; k++)
				c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
			table[i] = c;
		}
	while (n--)
		crc = table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return crc ^ 0xffffffffu;
}

static void put_le32(struct buf *b, uint32_t v)
{
	unsigned char c[4] = { v, v >> 8, v >> 16, v >> 24 };

	buf_add(b, c, 4);
}

static void gzip_stored(struct buf *out, const struct buf *in)
{
	static const unsigned char header[10] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3 };
	size_t off = 0;

	buf_add(out, header, sizeof(header));
	do {
		size_t n = in->len - off > DEFLATE_STORED_MAX ? DEFLATE_STORED_MAX : in->len - off;
		unsigned char block[5] = { off + n == in->len, n & 0xff, n >> 8, ~n & 0xff, (~n >> 8) & 0xff };

		buf_add(out, block, sizeof(block));
		buf_add(out, in->data + off, n);
		off += n;
	} while (off < in->len);
	put_le32(out, crc32((const unsigned char *)in->data, in->len));
	put_le32(out, (uint32_t)in->len);
}

/* ---- the command -------------------------------------------------------- */

int pprof_run(const char *what, const char *output)
{
	struct buf raw = { 0 }, gz = { 0 };
	char name[SOURCE_NAME_MAX];
	struct snapshot s;

	if (snapshot_read(&s, what))
		fail_error();
	snapshot_sort(&s, site_cmp_report);
	encode_profile(&raw, &s, s.start_ns ? s.time_ns - s.start_ns : 0);
	gzip_stored(&gz, &raw);
	if (!output) {
		source_output_name(name, sizeof(name), (char *const *)&what, 1, ".pb.gz");
		output = name;
	}
	if (write_file(output, &gz))
		fail_error();
	if (output == name)
		printf("%s\n", name);
	buf_free(&raw);
	buf_free(&gz);
	snapshot_clear(&s);
	return 0;
}
