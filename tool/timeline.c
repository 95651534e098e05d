/* SPDX-License-Identifier: MIT */
/* timeline.c: reading, writing and thinning timeline files (timeline.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "json.h"
#include "timeline.h"

#define TIMELINE_MAX_ID		(1u << 22)	/* the runtime's own limit of sites */
#define COMPACT_TARGET(max)	((max) / 4 * 3)	/* thin until below this */

int is_timeline_text(const char *text, size_t len)
{
	static const char start[] = "{\"" TIMELINE_KEY "\"";

	return len >= sizeof(start) - 1 && !memcmp(text, start, sizeof(start) - 1);
}

/* ---- reading ------------------------------------------------------------ */

struct reader {
	struct timeline *tl;
	const char *name;
	unsigned line;
	size_t cap_sites, cap_samples;
	int64_t *state;		/* by site index: the values so far */
	int64_t total;
};

static int bad_line(struct reader *r, const char *why)
{
	error_set("%s:%u: %s", r->name, r->line, why);
	return -1;
}

static int read_header(struct reader *r, const struct json *j)
{
	struct timeline *tl = r->tl;
	int64_t version, pid = 0, stride = 1;

	if (j->type != JSON_OBJECT || !j->n || strcmp(j->keys[0], TIMELINE_KEY) ||
	    json_int(j, TIMELINE_KEY, &version))
		return bad_line(r, "not a timeline (no \"" TIMELINE_KEY "\" first)");
	if (version != TIMELINE_VERSION) {
		error_set("%s: a timeline of version %lld; this alloctag reads version %d", r->name,
			  (long long)version, TIMELINE_VERSION);
		return -1;
	}
	json_int(j, "pid", &pid);
	json_int(j, "start_ns", &tl->start_ns);
	json_int(j, "interval_ns", &tl->interval_ns);
	json_int(j, "max_bytes", &tl->max_bytes);
	json_int(j, "stride", &stride);
	tl->pid = pid;
	tl->stride = stride > 0 && stride < (1 << 30) ? stride : 1;
	tl->program = xstrdup(json_str(j, "program"));
	return 0;
}

static int read_site(struct reader *r, const struct json *j)
{
	struct timeline *tl = r->tl;
	int64_t id, line, column = 0;
	const char *file = json_str(j, "file"), *function = json_str(j, "function");
	struct site *site;

	if (json_int(j, "site", &id) || id < 1 || id > TIMELINE_MAX_ID)
		return bad_line(r, "a site line without a valid id");
	if (!file || !function || json_int(j, "line", &line) || line < 0 || line > 0xffffffffll ||
	    (json_get(j, "column") && (json_int(j, "column", &column) || column < 0 ||
				       column > 0xffffffffll)))
		return bad_line(r, "a site line without file, line and function");
	if ((size_t)id >= tl->nids) {
		size_t n = tl->nids ? tl->nids : 256;

		while (n <= (size_t)id)
			n *= 2;
		tl->index_of = xrealloc(tl->index_of, n * sizeof(*tl->index_of));
		memset(tl->index_of + tl->nids, 0, (n - tl->nids) * sizeof(*tl->index_of));
		tl->nids = n;
	}
	if (tl->index_of[id])
		return bad_line(r, "a site defined twice");
	if (tl->nsites == r->cap_sites) {
		r->cap_sites = r->cap_sites ? r->cap_sites * 2 : 64;
		tl->sites = xrealloc(tl->sites, r->cap_sites * sizeof(*tl->sites));
		tl->max_live = xrealloc(tl->max_live, r->cap_sites * sizeof(*tl->max_live));
		r->state = xrealloc(r->state, r->cap_sites * TIMELINE_VALUES * sizeof(*r->state));
	}
	site = &tl->sites[tl->nsites];
	memset(site, 0, sizeof(*site));
	site->id = id;
	site_set_place(site, j, file, function, line, column);
	tl->max_live[tl->nsites] = 0;
	memset(r->state + tl->nsites * TIMELINE_VALUES, 0, TIMELINE_VALUES * sizeof(*r->state));
	tl->index_of[id] = ++tl->nsites;
	return 0;
}

static int read_entry(struct reader *r, const struct json *e, struct timeline_entry *out)
{
	const struct timeline *tl = r->tl;
	int64_t *state;

	if (e->type != JSON_ARRAY || e->n != 1 + TIMELINE_VALUES)
		return bad_line(r, "a sample entry is not [id, 5 numbers]");
	for (size_t k = 0; k < e->n; k++)
		if (e->items[k].type != JSON_NUMBER || !e->items[k].is_int)
			return bad_line(r, "a sample entry holds something else than integers");
	if (e->items[0].num < 1 || (uint64_t)e->items[0].num >= tl->nids || !tl->index_of[e->items[0].num])
		return bad_line(r, "a sample names a site not defined before it");
	out->site = tl->index_of[e->items[0].num] - 1;
	state = r->state + out->site * TIMELINE_VALUES;
	for (int k = 0; k < TIMELINE_VALUES; k++)
		out->v[k] = e->items[1 + k].num;
	r->total += out->v[0] - state[0];
	memcpy(state, out->v, sizeof(out->v));
	if (out->v[0] > tl->max_live[out->site])
		tl->max_live[out->site] = out->v[0];
	return 0;
}

static int read_sample(struct reader *r, const struct json *j)
{
	struct timeline *tl = r->tl;
	const struct json *entries = json_get(j, "s");
	struct timeline_sample *sample;
	int64_t t;

	if (json_int(j, "t", &t) || t < 0)
		return bad_line(r, "a sample without a time");
	if (tl->nsamples && t < tl->samples[tl->nsamples - 1].t)
		return bad_line(r, "a sample earlier than the one before it");
	if (!entries || entries->type != JSON_ARRAY)
		return bad_line(r, "a sample without its \"s\" array");
	if (tl->nsamples == r->cap_samples) {
		r->cap_samples = r->cap_samples ? r->cap_samples * 2 : 256;
		tl->samples = xrealloc(tl->samples, r->cap_samples * sizeof(*tl->samples));
	}
	sample = &tl->samples[tl->nsamples++];
	sample->t = t;
	sample->n = entries->n;
	sample->e = entries->n ? xmalloc(entries->n * sizeof(*sample->e)) : NULL;
	for (size_t i = 0; i < entries->n; i++)
		if (read_entry(r, &entries->items[i], &sample->e[i]))
			return -1;
	sample->total_bytes = r->total;
	return 0;
}

static int read_line(struct reader *r, const char *line, size_t len)
{
	struct json j;
	int rc;

	if (json_parse(&j, line, len, r->name, r->line))
		return -1;
	if (r->line == 1)
		rc = read_header(r, &j);
	else if (j.type != JSON_OBJECT || !j.n)
		rc = bad_line(r, "not a timeline line");
	else if (!strcmp(j.keys[0], "site"))
		rc = read_site(r, &j);
	else if (!strcmp(j.keys[0], "t"))
		rc = read_sample(r, &j);
	else if (!strcmp(j.keys[0], "end")) {
		const struct json *exited = json_get(&j, "exited");

		r->tl->ended = 1;
		json_int(&j, "end", &r->tl->end_ns);
		r->tl->exited = exited && exited->type == JSON_TRUE;
		rc = 0;
	} else
		rc = bad_line(r, "not a timeline line (site, t or end first)");
	json_free(&j);
	return rc;
}

int timeline_load(struct timeline *tl, const char *text, size_t len, const char *name)
{
	struct reader r = { tl, name, 0, 0, 0, NULL, 0 };
	const char *p = text, *end = text + len;

	memset(tl, 0, sizeof(*tl));
	if (!is_timeline_text(text, len)) {
		error_set("%s: not a timeline", name);
		return -1;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);

		r.line++;
		if (!nl) {
			bad_line(&r, "truncated (the last line has no end)");
			goto fail;
		}
		if (read_line(&r, p, nl - p))
			goto fail;
		p = nl + 1;
	}
	/* The sites' counters: their values at the last sample. */
	for (size_t i = 0; i < tl->nsites; i++) {
		int64_t *v = r.state + i * TIMELINE_VALUES;

		tl->sites[i].bytes = v[0];
		tl->sites[i].calls = v[1];
		tl->sites[i].total_bytes = v[2];
		tl->sites[i].total_calls = v[3];
		tl->sites[i].peak = v[4];
	}
	free(r.state);
	return 0;
fail:
	free(r.state);
	timeline_free(tl);
	return -1;
}

void timeline_free(struct timeline *tl)
{
	for (size_t i = 0; i < tl->nsites; i++)
		site_clear(&tl->sites[i]);
	for (size_t i = 0; i < tl->nsamples; i++)
		free(tl->samples[i].e);
	free(tl->sites);
	free(tl->samples);
	free(tl->max_live);
	free(tl->index_of);
	free(tl->program);
	memset(tl, 0, sizeof(*tl));
}

size_t timeline_peak_sample(const struct timeline *tl)
{
	size_t best = 0;

	for (size_t i = 1; i < tl->nsamples; i++)
		if (tl->samples[i].total_bytes > tl->samples[best].total_bytes)
			best = i;
	return best;
}

void timeline_cursor_init(struct timeline_cursor *c, const struct timeline *tl)
{
	c->next = 0;
	c->values = xcalloc(tl->nsites * TIMELINE_VALUES + 1, sizeof(*c->values));
}

void timeline_cursor_seek(struct timeline_cursor *c, const struct timeline *tl, size_t sample)
{
	for (; c->next <= sample && c->next < tl->nsamples; c->next++) {
		const struct timeline_sample *s = &tl->samples[c->next];

		for (size_t i = 0; i < s->n; i++)
			memcpy(c->values + s->e[i].site * TIMELINE_VALUES, s->e[i].v, sizeof(s->e[i].v));
	}
}

void timeline_cursor_free(struct timeline_cursor *c)
{
	free(c->values);
	c->values = NULL;
}

void timeline_state(const struct timeline *tl, size_t sample, struct snapshot *s)
{
	struct timeline_cursor c;

	memset(s, 0, sizeof(*s));
	s->source = SOURCE_TIMELINE;
	s->has_totals = 1;
	s->program = xstrdup(tl->program);
	s->pid = tl->pid;
	if (!tl->nsamples)
		return;
	s->time_ns = tl->start_ns + tl->samples[sample].t;
	s->start_ns = tl->start_ns;
	s->exited = tl->exited && sample == tl->nsamples - 1;
	timeline_cursor_init(&c, tl);
	timeline_cursor_seek(&c, tl, sample);
	for (size_t i = 0; i < tl->nsites; i++) {
		const int64_t *v = c.values + i * TIMELINE_VALUES;
		const struct site *from = &tl->sites[i];
		struct site *site;

		if (!v[0] && !v[3])	/* not yet allocated from at that sample */
			continue;
		site = snapshot_add(s);
		*site = *from;
		site->file = xstrdup(from->file);
		site->function = xstrdup(from->function);
		site->module = xstrdup(from->module);
		site->callee = xstrdup(from->callee);
		site->bytes = v[0];
		site->calls = v[1];
		site->total_bytes = v[2];
		site->total_calls = v[3];
		site->peak = v[4];
	}
	timeline_cursor_free(&c);
}

int64_t timeline_length(const struct timeline *tl)
{
	int64_t last = tl->nsamples ? tl->samples[tl->nsamples - 1].t : 0;

	return tl->ended && tl->end_ns > last ? tl->end_ns : last;
}

/* The sample WHICH names; -1 with the error set if none. */
static long choose_sample(const struct timeline *tl, const char *which, const char *name)
{
	int64_t t;
	long last = 0;

	if (!which || !strcmp(which, "last"))
		return (long)tl->nsamples - 1;
	if (!strcmp(which, "peak"))
		return (long)timeline_peak_sample(tl);
	t = parse_duration(which);
	if (t < 0) {
		error_set("%s@%s: name a sample as @last, @peak or @SECONDS", name, which);
		return -1;
	}
	if (t > timeline_length(tl)) {
		error_set("%s@%s: past the end of the timeline, which is %.3f s long", name, which,
			  timeline_length(tl) / 1e9);
		return -1;
	}
	for (size_t i = 1; i < tl->nsamples && tl->samples[i].t <= t; i++)
		last = (long)i;
	return last;	/* before the first sample (@0): the first */
}

int timeline_snapshot(struct snapshot *s, const char *text, size_t len, const char *name,
		      const char *which)
{
	struct timeline tl;
	long sample;

	if (timeline_load(&tl, text, len, name))
		return -1;
	if (!tl.nsamples) {
		error_set("%s: a timeline without samples", name);
		timeline_free(&tl);
		return -1;
	}
	sample = choose_sample(&tl, which, name);
	if (sample >= 0)
		timeline_state(&tl, (size_t)sample, s);
	timeline_free(&tl);
	return sample >= 0 ? 0 : -1;
}

/* ---- writing ------------------------------------------------------------ */

static void put_header(struct buf *b, const struct timeline_writer *w)
{
	buf_printf(b, "{\"" TIMELINE_KEY "\": %d, \"program\": ", TIMELINE_VERSION);
	json_put_string(b, w->program);
	buf_printf(b, ", \"pid\": %ld, \"start_ns\": %lld, \"interval_ns\": %lld, \"stride\": %u, "
		   "\"max_bytes\": %lld}\n", w->pid, (long long)w->start_ns, (long long)w->interval_ns,
		   w->stride, (long long)w->max_bytes);
}

static void put_site(struct buf *b, const struct site *site)
{
	buf_printf(b, "{\"site\": %u, \"file\": ", site->id);
	json_put_string(b, site->file);
	buf_printf(b, ", \"line\": %u, \"column\": %u, \"function\": ", site->line, site->column);
	json_put_string(b, site->function);
	buf_puts(b, ", \"callee\": ");
	json_put_string(b, site->callee);
	buf_puts(b, ", \"module\": ");
	json_put_string(b, site->module);
	buf_puts(b, "}\n");
}

static void put_entry(struct buf *b, int first, uint32_t id, const int64_t *v)
{
	buf_printf(b, "%s[%u", first ? "" : ", ", id);
	for (int k = 0; k < TIMELINE_VALUES; k++)
		buf_printf(b, ", %lld", (long long)v[k]);
	buf_puts(b, "]");
}

static int write_out(struct timeline_writer *w, const struct buf *b)
{
	int error = sys_write_all(w->fd, b->data, b->len);

	if (error) {
		error_set("cannot write %s: %s", w->path, strerror(error));
		return -1;
	}
	w->size += b->len;
	return 0;
}

int timeline_create(struct timeline_writer *w, const char *path, const char *program, long pid,
		    int64_t start_ns, int64_t interval_ns, int64_t max_bytes)
{
	struct buf b = { 0 };
	int rc;

	memset(w, 0, sizeof(*w));
	w->path = xstrdup(path);
	w->program = xstrdup(program);
	w->pid = pid;
	w->start_ns = start_ns;
	w->interval_ns = interval_ns;
	w->max_bytes = max_bytes;
	w->stride = 1;
	w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (w->fd < 0) {
		error_set("cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	put_header(&b, w);
	rc = write_out(w, &b);
	buf_free(&b);
	return rc;
}

static void writer_grow(struct timeline_writer *w, uint32_t id)
{
	size_t n = w->cap ? w->cap : 256;

	if (id < w->cap)
		return;
	while (n <= id)
		n *= 2;
	w->written = xrealloc(w->written, n * TIMELINE_VALUES * sizeof(*w->written));
	memset(w->written + w->cap * TIMELINE_VALUES, 0, (n - w->cap) * TIMELINE_VALUES * sizeof(*w->written));
	w->defined = xrealloc(w->defined, n);
	memset(w->defined + w->cap, 0, n - w->cap);
	w->cap = n;
}

/* Which samples thinning keeps: the last, and of each pair before it the one
 * with more live bytes (the first of equals). */
static unsigned char *thin_choice(const struct timeline *tl)
{
	unsigned char *keep = xcalloc(tl->nsamples, 1);
	size_t i;

	if (!tl->nsamples)
		return keep;
	keep[tl->nsamples - 1] = 1;
	for (i = tl->nsamples - 1; i >= 2; i -= 2) {
		const struct timeline_sample *a = &tl->samples[i - 2], *b = &tl->samples[i - 1];

		keep[b->total_bytes > a->total_bytes ? i - 1 : i - 2] = 1;
	}
	if (i == 1)
		keep[0] = 1;
	return keep;
}

/* TL with only the samples KEEP marks, as the text of a timeline file. */
static void put_thinned(struct buf *b, const struct timeline_writer *w, const struct timeline *tl,
			const unsigned char *keep)
{
	struct timeline_cursor c;
	int64_t *last = xcalloc(tl->nsites * TIMELINE_VALUES + 1, sizeof(*last));

	put_header(b, w);
	for (size_t i = 0; i < tl->nsites; i++)
		put_site(b, &tl->sites[i]);
	timeline_cursor_init(&c, tl);
	for (size_t i = 0; i < tl->nsamples; i++) {
		int first = 1;

		timeline_cursor_seek(&c, tl, i);
		if (!keep[i])
			continue;
		buf_printf(b, "{\"t\": %lld, \"s\": [", (long long)tl->samples[i].t);
		for (size_t k = 0; k < tl->nsites; k++) {
			int64_t *v = c.values + k * TIMELINE_VALUES, *l = last + k * TIMELINE_VALUES;

			if (memcmp(v, l, TIMELINE_VALUES * sizeof(*v))) {
				put_entry(b, first, tl->sites[k].id, v);
				memcpy(l, v, TIMELINE_VALUES * sizeof(*v));
				first = 0;
			}
		}
		buf_puts(b, "]}\n");
	}
	timeline_cursor_free(&c);
	free(last);
}

/* Halve the samples (and double the stride) until the file fits again. */
static int compact(struct timeline_writer *w)
{
	while (w->size > COMPACT_TARGET(w->max_bytes)) {
		struct buf text = { 0 }, out = { 0 };
		struct timeline tl;
		unsigned char *keep;
		int rc;

		if (read_file(w->path, &text) || timeline_load(&tl, text.data, text.len, w->path)) {
			buf_free(&text);
			return -1;
		}
		buf_free(&text);
		if (tl.nsamples <= 2) {	/* the sites' own lines are what is large */
			timeline_free(&tl);
			return 0;
		}
		keep = thin_choice(&tl);
		w->stride *= 2;
		put_thinned(&out, w, &tl, keep);
		free(keep);
		timeline_free(&tl);
		rc = write_file(w->path, &out);
		close(w->fd);
		w->fd = open(w->path, O_WRONLY | O_APPEND | O_CLOEXEC);
		w->size = out.len;
		buf_free(&out);
		if (rc || w->fd < 0) {
			if (!rc)
				error_set("cannot write %s: %s", w->path, strerror(errno));
			return -1;
		}
	}
	return 0;
}

int timeline_append(struct timeline_writer *w, const struct snapshot *s, int64_t t)
{
	struct buf b = { 0 };
	int first = 1, rc;

	for (size_t i = 0; i < s->n; i++) {
		const struct site *site = &s->sites[i];

		if (!site->id)
			continue;
		writer_grow(w, site->id);
		if (!w->defined[site->id]) {
			put_site(&b, site);
			w->defined[site->id] = 1;
		}
	}
	buf_printf(&b, "{\"t\": %lld, \"s\": [", (long long)t);
	for (size_t i = 0; i < s->n; i++) {
		const struct site *site = &s->sites[i];
		int64_t v[TIMELINE_VALUES] = { site->bytes, site->calls, site->total_bytes,
					       site->total_calls, site->peak };
		int64_t *last;

		if (!site->id)
			continue;
		last = w->written + (size_t)site->id * TIMELINE_VALUES;
		if (memcmp(v, last, sizeof(v))) {
			put_entry(&b, first, site->id, v);
			memcpy(last, v, sizeof(v));
			first = 0;
		}
	}
	buf_puts(&b, "]}\n");
	rc = write_out(w, &b);
	buf_free(&b);
	w->last_t = t;
	if (rc == 0 && w->size > w->max_bytes)
		rc = compact(w);
	return rc;
}

int timeline_finish(struct timeline_writer *w, int64_t t, int exited)
{
	struct buf b = { 0 };
	int rc;

	buf_printf(&b, "{\"end\": %lld, \"exited\": %s}\n", (long long)t, exited ? "true" : "false");
	rc = write_out(w, &b);
	buf_free(&b);
	if (close(w->fd) && !rc) {
		error_set("cannot write %s: %s", w->path, strerror(errno));
		rc = -1;
	}
	w->fd = -1;
	free(w->path);
	free(w->program);
	free(w->written);
	free(w->defined);
	return rc;
}
