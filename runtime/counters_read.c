/* SPDX-License-Identifier: MIT */
/*
 * Reading counters into per-site totals (counters_read.h).  Shared by the
 * runtime (its reports) and the alloctag command (another process's live
 * file): libc's string functions only.
 */
#include <string.h>
#include "counters_read.h"

#define load_acquire(p)	atomic_load_explicit((p), memory_order_acquire)
#define load_relaxed(p)	atomic_load_explicit((p), memory_order_relaxed)

static uint64_t view_limit(const struct counters_view *v)
{
	uint64_t mapped = (uint64_t)v->nextents * EXTENT_SIZE;

	return v->limit < mapped ? v->limit : mapped;
}

/* SIZE bytes at OFFSET, or NULL if the view does not hold them in one extent. */
static const void *view_at(const struct counters_view *v, uint64_t offset, uint64_t size)
{
	uint64_t in_extent = offset % EXTENT_SIZE;

	if (offset >= view_limit(v) || size > EXTENT_SIZE - in_extent ||
	    size > view_limit(v) - offset)
		return NULL;
	return v->extents[offset / EXTENT_SIZE] + in_extent;
}

static const struct counters_header *view_header(const struct counters_view *v)
{
	return view_at(v, 0, sizeof(struct counters_header));
}

const char *counters_check_header(const void *p, size_t size)
{
	const struct counters_header *h = p;

	if (size < sizeof(h->magic) + sizeof(h->version) || memcmp(h->magic, COUNTERS_MAGIC, 8))
		return "not alloctag counters";
	if (h->version != COUNTERS_VERSION)
		return "alloctag counters of another version";
	if (size < sizeof(*h) || h->header_size < sizeof(*h) || h->chunk_size != CHUNK_SIZE ||
	    h->extent_size != EXTENT_SIZE)
		return "truncated or corrupt alloctag counters";
	return NULL;
}

uint32_t counters_site_count(const struct counters_view *v)
{
	const struct counters_header *h = view_header(v);

	return h ? load_acquire(&h->nsites) : 0;
}

/* One slot added to its site's totals, its counters read in counters.h's order. */
static void add_slot(struct site_totals *t, const struct counters_slot *s)
{
	uint64_t remote_calls = load_acquire(&s->remote_calls);
	uint64_t remote_bytes = load_acquire(&s->remote_bytes);
	uint64_t freed_calls = load_acquire(&s->freed_calls);
	int64_t live = load_acquire(&s->live);
	uint64_t calls = load_acquire(&s->calls);

	t->live_calls += (int64_t)(calls - freed_calls - remote_calls);
	t->live_bytes += live - (int64_t)remote_bytes;
	t->calls += calls;
	t->bytes += load_relaxed(&s->bytes);
	t->peak += load_relaxed(&s->peak);
}

/* Sites FIRST..FIRST+N-1 of chunk C added to TOTALS and SITES (index 0: FIRST). */
static void add_chunk(const struct counters_chunk *c, uint32_t first, uint32_t n,
		      struct site_totals *totals, const struct counters_site **sites)
{
	uint32_t count = load_acquire(&c->count);

	if (c->kind == CHUNK_SITES) {
		const struct counters_site *s = (const void *)(c + 1);

		for (uint32_t i = 0; i < count && i < SITES_PER_CHUNK; i++)
			if (s[i].id - first < n)
				sites[s[i].id - first] = &s[i];
	} else if (c->kind == CHUNK_SLOTS) {
		const struct counters_slot *s = (const void *)(c + 1);

		for (uint32_t i = 0; i < count && i < SLOTS_PER_CHUNK; i++)
			if (s[i].site - first < n)
				add_slot(&totals[s[i].site - first], &s[i]);
	}
}

/* What a sum over threads, read while they run, can be. */
static void clamp(struct site_totals *t)
{
	if (t->live_calls <= 0) {
		t->live_calls = 0;
		t->live_bytes = 0;
	} else if (t->live_bytes < 0) {
		t->live_bytes = 0;
	}
	if (t->peak < t->live_bytes)
		t->peak = t->live_bytes;
}

void counters_sum(const struct counters_view *v, uint32_t nsites,
		  struct site_totals *totals, const struct counters_site **sites)
{
	counters_sum_range(v, 1, nsites, totals, sites);
}

void counters_sum_range(const struct counters_view *v, uint32_t first, uint32_t nsites,
			struct site_totals *totals, const struct counters_site **sites)
{
	const struct counters_header *h = view_header(v);
	uint64_t used = h ? load_acquire(&h->used) : 0, offset = CHUNK_SIZE;

	memset(totals, 0, nsites * sizeof(*totals));
	memset(sites, 0, nsites * sizeof(*sites));
	if (!first)		/* site ids begin at 1 */
		return;
	for (uint32_t i = 0; i < nsites; i++)
		totals[i].site = first + i;
	if (used > view_limit(v))
		used = view_limit(v);
	while (offset < used) {
		const struct counters_chunk *c = view_at(v, offset, CHUNK_SIZE);

		if (!c)
			break;
		if (c->kind == 0 || c->size == 0 || c->size % CHUNK_SIZE ||
		    !view_at(v, offset, c->size)) {
			/* never written (a chunk did not fit here), or corrupt */
			offset = (offset / EXTENT_SIZE + 1) * EXTENT_SIZE;
			continue;
		}
		add_chunk(c, first, nsites, totals, sites);
		offset += c->size;
	}
	for (uint32_t i = 0; i < nsites; i++)
		clamp(&totals[i]);
}

/* The string at OFFSET, if it lies whole in one extent of the view. */
static const char *view_string(const struct counters_view *v, uint64_t offset, const char *none)
{
	const char *s;
	uint64_t room;

	if (!offset)
		return none;
	s = view_at(v, offset, 1);
	if (!s)
		return "?";
	room = EXTENT_SIZE - offset % EXTENT_SIZE;
	if (room > view_limit(v) - offset)
		room = view_limit(v) - offset;
	return memchr(s, '\0', room) ? s : "?";
}

void counters_site_text(const struct counters_view *v, const struct counters_site *s,
			struct site_text *t)
{
	t->file = view_string(v, s->file, "?");
	t->function = view_string(v, s->function, "?");
	t->callee = view_string(v, s->callee, NULL);
	t->module = view_string(v, s->module, NULL);
	t->line = s->line;
	t->column = s->column;
	t->inaccurate = 0;
}
