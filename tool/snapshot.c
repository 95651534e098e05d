/* SPDX-License-Identifier: MIT */
/* snapshot.c: the sites of a snapshot and their order (snapshot.h). */
#include <stdlib.h>
#include <string.h>
#include "format.h"
#include "json.h"
#include "snapshot.h"

struct site *snapshot_add(struct snapshot *s)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 64;
		s->sites = xrealloc(s->sites, s->cap * sizeof(*s->sites));
	}
	memset(&s->sites[s->n], 0, sizeof(*s->sites));
	return &s->sites[s->n++];
}

void site_clear(struct site *site)
{
	free(site->file);
	free(site->function);
	free(site->module);
	free(site->callee);
	memset(site, 0, sizeof(*site));
}

void snapshot_add_note(struct snapshot *s, const char *note)
{
	s->notes = xrealloc(s->notes, (s->nnotes + 1) * sizeof(*s->notes));
	s->notes[s->nnotes++] = xstrdup(note);
}

static void clear_notes(struct snapshot *s)
{
	for (size_t i = 0; i < s->nnotes; i++)
		free(s->notes[i]);
	free(s->notes);
	s->notes = NULL;
	s->nnotes = 0;
}

void snapshot_clear_sites(struct snapshot *s)
{
	for (size_t i = 0; i < s->n && !s->borrowed; i++)
		site_clear(&s->sites[i]);
	s->n = 0;
	clear_notes(s);
}

void snapshot_clear(struct snapshot *s)
{
	for (size_t i = 0; i < s->n && !s->borrowed; i++)
		site_clear(&s->sites[i]);
	clear_notes(s);
	free(s->sites);
	free(s->program);
	memset(s, 0, sizeof(*s));
}

static int strcmp_null(const char *a, const char *b)
{
	if (!a || !b)
		return !a - !b;
	return strcmp(a, b);
}

int site_cmp_place(const struct site *a, const struct site *b)
{
	int c = strcmp_null(a->file, b->file);

	if (c)
		return c;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if (a->column != b->column)
		return a->column < b->column ? -1 : 1;
	if ((c = strcmp_null(a->module, b->module)))
		return c;
	if ((c = strcmp_null(a->function, b->function)))
		return c;
	return strcmp_null(a->callee, b->callee);
}

int site_same_place(const struct site *a, const struct site *b)
{
	return site_cmp_place(a, b) == 0;
}

int site_cmp_report(const struct site *a, const struct site *b)
{
	if (a->bytes != b->bytes)
		return a->bytes > b->bytes ? -1 : 1;
	if (a->total_bytes != b->total_bytes)
		return a->total_bytes > b->total_bytes ? -1 : 1;
	return site_cmp_place(a, b);
}

int snapshot_same_run(const struct snapshot *a, const struct snapshot *b)
{
	if (!a->pid || a->pid != b->pid)
		return 0;
	if (a->proc_start_ns || b->proc_start_ns)
		return a->proc_start_ns == b->proc_start_ns;
	return a->source == SOURCE_TIMELINE && b->source == SOURCE_TIMELINE && a->start_ns &&
	       a->start_ns == b->start_ns;
}

static int (*sort_cmp)(const struct site *, const struct site *);

static int sort_trampoline(const void *a, const void *b)
{
	return sort_cmp(a, b);
}

void snapshot_sort(struct snapshot *s, int (*cmp)(const struct site *, const struct site *))
{
	sort_cmp = cmp;
	if (s->n)
		qsort(s->sites, s->n, sizeof(*s->sites), sort_trampoline);
}

void site_tag_info(struct buf *b, const struct site *site, int with_column)
{
	buf_printf(b, "%s:%u", site->file, site->line);
	if (with_column && site->column)
		buf_printf(b, ":%u", site->column);
	if (site->module)
		buf_printf(b, " [%s]", site->module);
	buf_printf(b, " func:%s", site->function);
	if (with_column && site->callee)
		buf_printf(b, " callee:%s", site->callee);
	if (site->inaccurate)
		buf_puts(b, " " ALLOCINFO_INACCURATE);
}

void site_set_place(struct site *site, const struct json *j, const char *file,
		    const char *function, unsigned line, unsigned column)
{
	site->file = xstrdup(file);
	site->function = xstrdup(function);
	site->module = xstrdup(json_str(j, "module"));
	site->callee = xstrdup(json_str(j, "callee"));
	site->line = line;
	site->column = column;
}
