/* SPDX-License-Identifier: MIT */
/*
 * snapshot_view.c: `alloctag snapshot`: what an operand names, now, as a
 * report in the runtime's formats (allocinfo, full, json: report_write.h),
 * or as a table for people; and `alloctag leaks`: what was live at exit,
 * by site, largest first.
 *
 *   threads (pid 4242), exited: live 12.0 KiB in 30 blocks; total 1.2 MiB in 8169 calls
 *       LIVE  BLOCKS     TOTAL  CALLS      PEAK  SITE
 *   8.0 KiB      20  78.2 KiB     80  78.2 KiB  threads.c:37:27 func:worker callee:malloc
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "report_write.h"
#include "site_table.h"
#include "source.h"
#include "views.h"

/* S's sites for a table, the largest first; with LIVE_ONLY those that hold something. */
static size_t table_rows(const struct snapshot *s, struct site_row **rows, int live_only)
{
	size_t n = 0;

	*rows = xcalloc(s->n + 1, sizeof(**rows));
	for (size_t i = 0; i < s->n; i++)
		if (!live_only || s->sites[i].bytes || s->sites[i].calls)
			site_row_init(&(*rows)[n++], &s->sites[i], s->has_totals);
	site_rows_sort(*rows, n, COL_LIVE, 0);
	return n;
}

/* The runtime's notes, "note: ..." a line. */
static void put_notes(struct buf *out, const struct snapshot *s)
{
	if (s->frees_unseen)
		buf_puts(out, "note: free() in this process is not alloctag's: live bytes and blocks are "
			      "not counted\n");
	for (size_t i = 0; i < s->nnotes; i++)
		buf_printf(out, "note: %s\n", s->notes[i]);
}

/* The table: "TITLE: SUMMARY" (on two lines if it must, to fit), the notes,
 * the columns. */
static void put_table(struct buf *out, const struct snapshot *s, const char *what, int exact)
{
	struct site_row *rows;
	size_t n = table_rows(s, &rows, 0);
	struct buf title = { 0 };

	snapshot_title(&title, s, what);
	buf_puts(&title, ": ");
	site_rows_summary(&title, rows, n, s->has_totals, exact);
	put_fields(out, title.data, output_width());
	buf_free(&title);
	put_notes(out, s);
	site_table_write(out, rows, n, COLUMNS_OF_CHANGE | (s->has_totals ? 0 : COLUMNS_OF_TOTALS), exact,
			 output_width());
	free(rows);
}

int snapshot_run(const char *what, int format, const char *output, int exact)
{
	struct snapshot s;
	struct buf b = { 0 };

	if (format == SNAPSHOT_DEFAULT)
		format = !strcmp(output, "-") && isatty(STDOUT_FILENO) ? SNAPSHOT_TABLE : FORMAT_ALLOCINFO;
	if (snapshot_read(&s, what))
		fail_error();
	if (format == SNAPSHOT_TABLE)
		put_table(&b, &s, what, exact);
	else if (format != FORMAT_ALLOCINFO && !s.has_totals)
		fail("%s has live bytes and calls only (allocinfo): it can be written as allocinfo, not %s",
		     what, format == FORMAT_FULL ? "full" : "json");
	else
		report_write(&b, &s, format);
	if (write_file(output, &b))
		fail_error();
	buf_free(&b);
	snapshot_clear(&s);
	return 0;
}

/* When S's counters were read, for a sentence: "now (it runs)", "at exit". */
static const char *leaks_when(const struct snapshot *s)
{
	if (!s->exited && s->source == SOURCE_LIVE)
		return "now (it runs)";
	if (s->unreported)
		return "when last seen";
	return s->exited ? "at exit" : "when the report was made";
}

/* "5 sites held 13.3 KiB in 17 blocks at exit": the N rows' sum, and when. */
static void put_leaks_summary(struct buf *out, const struct snapshot *s, const struct site_row *rows,
			      size_t n, int exact)
{
	int running = !s->exited && s->source == SOURCE_LIVE;
	int64_t bytes = 0, blocks = 0;
	char a[48], b[48];

	for (size_t i = 0; i < n; i++) {
		bytes += rows[i].v[COL_LIVE];
		blocks += rows[i].v[COL_BLOCKS];
	}
	if (!n) {
		buf_printf(out, "nothing %s live %s", running ? "is" : "was", leaks_when(s));
		return;
	}
	buf_printf(out, "%zu site%s %s %s in %s block%s %s", n, n == 1 ? "" : "s", running ? "hold" : "held",
		   number_text(a, sizeof(a), bytes, NUMBER_BYTES | NUMBER_UNIT | (exact ? NUMBER_EXACT : 0)),
		   number_text(b, sizeof(b), blocks, exact ? NUMBER_EXACT : 0), blocks == 1 ? "" : "s",
		   leaks_when(s));
}

int leaks_run(const char *what, int exact)
{
	struct snapshot s;
	struct site_row *rows;
	struct buf b = { 0 }, title = { 0 };
	size_t n;

	if (snapshot_read(&s, what))
		fail_error();
	if (s.frees_unseen)
		fail("%s: free() in it is not alloctag's (another allocator's): what is live is not known",
		     what);
	n = table_rows(&s, &rows, 1);
	snapshot_title(&title, &s, what);
	buf_puts(&title, ": ");
	put_leaks_summary(&title, &s, rows, n, exact);
	put_fields(&b, title.data, output_width());
	if (n) {
		put_notes(&b, &s);
		site_table_write(&b, rows, n, COLUMNS_OF_CHANGE | COLUMN_BIT(COL_PEAK) |
				 (s.has_totals ? 0 : COLUMNS_OF_TOTALS), exact, output_width());
	}
	if (write_file("-", &b))
		fail_error();
	free(rows);
	buf_free(&title);
	buf_free(&b);
	snapshot_clear(&s);
	return 0;
}
