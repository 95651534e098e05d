/* SPDX-License-Identifier: MIT */
/* report_write.c: a snapshot through the runtime's report formatting (report_write.h). */
#include <stdlib.h>
#include <string.h>
#include "report_write.h"

int report_format_parse(const char *name)
{
	static const struct {
		const char *name;
		enum report_format format;
	} formats[] = { { "allocinfo", FORMAT_ALLOCINFO }, { "full", FORMAT_FULL }, { "json", FORMAT_JSON } };

	for (size_t i = 0; i < ARRAY_SIZE(formats); i++)
		if (!strcmp(name, formats[i].name))
			return formats[i].format;
	return -1;
}

void report_write(struct buf *b, const struct snapshot *s, enum report_format format)
{
	struct report_line *lines = xcalloc(s->n + 1, sizeof(*lines));
	struct report_meta meta = { .program = s->program, .pid = s->pid, .frees_seen = !s->frees_unseen,
				    .notes = (const char *const *)s->notes, .nnotes = s->nnotes };
	struct out o = { 0 };

	for (size_t i = 0; i < s->n; i++) {
		const struct site *site = &s->sites[i];
		struct report_line *l = &lines[i];

		l->totals.site = site->id;
		l->totals.live_bytes = site->bytes;
		l->totals.live_calls = site->calls;
		l->totals.bytes = (uint64_t)site->total_bytes;
		l->totals.calls = (uint64_t)site->total_calls;
		l->totals.peak = site->peak;
		l->where.file = site->file;
		l->where.function = site->function;
		l->where.callee = site->callee;
		l->where.module = site->module;
		l->where.line = site->line;
		l->where.column = site->column;
		l->where.inaccurate = site->inaccurate;
	}
	report_sort(lines, s->n);
	report_format(&o, format, lines, s->n, &meta);
	if (o.failed)
		fail("out of memory writing the report");
	buf_add(b, o.buf, o.len);
	out_release(&o);
	free(lines);
}
