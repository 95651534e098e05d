/* SPDX-License-Identifier: MIT */
/* site_table.c: sites as a table for people (site_table.h). */
#include <stdlib.h>
#include <string.h>
#include "site_table.h"

const struct site_column_info site_columns[NCOLUMNS] = {
	[COL_LIVE] = { "LIVE", "live", 'l', 9, NUMBER_BYTES, "live bytes" },
	[COL_BLOCKS] = { "BLOCKS", "blocks", 'b', 5, 0, "live blocks" },
	[COL_GROWTH] = { "GROWTH", "growth", 'g', 8, NUMBER_BYTES | NUMBER_SIGNED, "growth" },
	[COL_RATE] = { "RATE", "rate", 'a', 7, NUMBER_BYTES | NUMBER_PER_SECOND, "bytes allocated per second" },
	[COL_CALL_RATE] = { "CALLS/S", "calls/s", 'n', 2, NUMBER_PER_SECOND, "calls per second" },
	[COL_TOTAL] = { "TOTAL", "total", 't', 6, NUMBER_BYTES, "total bytes" },
	[COL_CALLS] = { "CALLS", "calls", 'c', 3, 0, "total calls" },
	[COL_PEAK] = { "PEAK", "peak", 'p', 4, NUMBER_BYTES, "peak bytes" },
	[COL_SITE] = { "SITE", "site", 's', 10, 0, "site" },
};

int site_column_named(const char *s)
{
	for (size_t i = 0; i < NCOLUMNS; i++)
		if ((s[0] == site_columns[i].key && !s[1]) || !strcmp(s, site_columns[i].name))
			return (int)i;
	return -1;
}

void site_row_init(struct site_row *r, const struct site *site, int has_totals)
{
	memset(r, 0, sizeof(*r));
	r->site = site;
	r->v[COL_LIVE] = site->bytes;
	r->v[COL_BLOCKS] = site->calls;
	r->v[COL_TOTAL] = site->total_bytes;
	r->v[COL_CALLS] = site->total_calls;
	r->v[COL_PEAK] = site->peak;
	r->known = COLUMN_BIT(COL_LIVE) | COLUMN_BIT(COL_BLOCKS);
	if (has_totals)
		r->known |= COLUMN_BIT(COL_TOTAL) | COLUMN_BIT(COL_CALLS) | COLUMN_BIT(COL_PEAK);
}

/* What grew from BEFORE to NOW in DT_NS, per second; never below 0: totals
 * only grow (a sum read while threads count may come out a little low). */
static int64_t per_second(int64_t now, int64_t before, int64_t dt_ns)
{
	return now > before ? (int64_t)((double)(now - before) * 1e9 / dt_ns) : 0;
}

void site_row_change(struct site_row *r, const struct site *before, int64_t dt_ns, int with_rates)
{
	const struct site *site = r->site;

	r->v[COL_GROWTH] = site->bytes - (before ? before->bytes : 0);
	r->known |= COLUMN_BIT(COL_GROWTH);
	if (!with_rates || dt_ns <= 0)
		return;
	r->v[COL_RATE] = per_second(site->total_bytes, before ? before->total_bytes : 0, dt_ns);
	r->v[COL_CALL_RATE] = per_second(site->total_calls, before ? before->total_calls : 0, dt_ns);
	r->known |= COLUMN_BIT(COL_RATE) | COLUMN_BIT(COL_CALL_RATE);
}

static enum site_column sort_by;
static int sort_reverse;

static int cmp_rows(const void *pa, const void *pb)
{
	const struct site_row *a = pa, *b = pb;
	int order;

	if (sort_by == COL_SITE)
		order = site_cmp_place(a->site, b->site);
	else if (a->v[sort_by] != b->v[sort_by])
		order = a->v[sort_by] > b->v[sort_by] ? -1 : 1;
	else
		order = site_cmp_report(a->site, b->site);
	return sort_reverse ? -order : order;
}

void site_rows_sort(struct site_row *rows, size_t n, enum site_column by, int reverse)
{
	sort_by = by;
	sort_reverse = reverse;
	if (n)
		qsort(rows, n, sizeof(*rows), cmp_rows);
}

void site_table_fill(struct table *t, const struct site_row *rows, size_t n, unsigned hide, int exact)
{
	const char *headers[NCOLUMNS];
	int priorities[NCOLUMNS];
	struct buf site = { 0 };
	char text[48];

	for (size_t c = 0; c < NCOLUMNS; c++) {
		headers[c] = site_columns[c].header;
		priorities[c] = site_columns[c].priority;
	}
	table_init(t, NCOLUMNS, headers, priorities);
	for (size_t i = 0; i < n; i++) {
		size_t row = table_add_row(t);

		for (size_t c = 0; c < COL_SITE; c++)
			table_set(t, row, c, !(rows[i].known & COLUMN_BIT(c)) ? "-"
				  : number_text(text, sizeof(text), rows[i].v[c],
						site_columns[c].how | (exact ? NUMBER_EXACT : 0)));
		site.len = 0;
		site_tag_info(&site, rows[i].site, 1);
		table_set(t, row, COL_SITE, site.data);
	}
	for (size_t c = 0; c < COL_SITE; c++)
		t->hidden[c] = !!(hide & COLUMN_BIT(c));
	buf_free(&site);
}

void site_rows_summary(struct buf *line, const struct site_row *rows, size_t n, int has_totals, int exact)
{
	int64_t sum[NCOLUMNS] = { 0 };
	unsigned known = n ? ~0u : 0, how = (exact ? NUMBER_EXACT : 0) | NUMBER_UNIT;
	char a[48], b[48];

	for (size_t i = 0; i < n; i++) {
		for (size_t c = 0; c < COL_SITE; c++)
			sum[c] += rows[i].v[c];
		known &= rows[i].known;
	}
	buf_printf(line, "live %s in %s block%s", number_text(a, sizeof(a), sum[COL_LIVE], how | NUMBER_BYTES),
		   number_text(b, sizeof(b), sum[COL_BLOCKS], how), sum[COL_BLOCKS] == 1 ? "" : "s");
	if (known & COLUMN_BIT(COL_GROWTH))
		buf_printf(line, " (%s)", number_text(a, sizeof(a), sum[COL_GROWTH], how | NUMBER_BYTES | NUMBER_SIGNED));
	if (has_totals)
		buf_printf(line, "; total %s in %s call%s",
			   number_text(a, sizeof(a), sum[COL_TOTAL], how | NUMBER_BYTES),
			   number_text(b, sizeof(b), sum[COL_CALLS], how), sum[COL_CALLS] == 1 ? "" : "s");
	if (known & COLUMN_BIT(COL_RATE))
		buf_printf(line, "; %s, %s calls/s",
			   number_text(a, sizeof(a), sum[COL_RATE], how | NUMBER_BYTES | NUMBER_PER_SECOND),
			   number_text(b, sizeof(b), sum[COL_CALL_RATE], how));
}

void site_table_write(struct buf *out, const struct site_row *rows, size_t n, unsigned hide, int exact,
		      int width)
{
	struct table t;

	site_table_fill(&t, rows, n, hide, exact);
	table_fit(&t, width, COL_LIVE);
	table_put_header(&t, out);
	buf_puts(out, "\n");
	for (size_t i = 0; i < n; i++) {
		table_put_row(&t, i, out);
		buf_puts(out, "\n");
	}
	table_free(&t);
}

void snapshot_title(struct buf *out, const struct snapshot *s, const char *what)
{
	buf_puts(out, s->program ? s->program : what);
	if (s->pid)
		buf_printf(out, " (pid %ld)", s->pid);
	if (s->exited)
		buf_puts(out, s->unreported ? ", killed" : ", exited");
}
