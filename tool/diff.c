/* SPDX-License-Identifier: MIT */
/*
 * diff.c: `alloctag diff A B`: what changed, site by site, from A to B.
 *
 *   A: before.txt
 *   B: after.txt
 *     CHANGE  BLOCKS  WHAT   LIVE A    LIVE B  SITE
 *   +8.0 KiB      +2  grew  4.0 KiB  12.0 KiB  demo.c:42 func:count
 *   +4.0 KiB      +1   new      0 B   4.0 KiB  demo.c:82 func:main
 *   total: +12.0 KiB, +3 blocks (A: 4.0 KiB in 1 block, B: 16.0 KiB in 4 blocks)
 *
 * Numbers for people (exact with -B).  When A and B are readings of one
 * run of a process, B the later (the process read twice, two samples of a
 * timeline: snapshot_same_run()), the columns RATE and CALLS/S say what
 * each site allocated per second between them.
 * Sites are matched by file, line, module and function, and by column and
 * callee too when both sides know them (a report in the allocinfo format
 * does not); sites that then fall together are summed.  Largest change of
 * live bytes first; unchanged sites only with -a.  Exit status as diff(1):
 * 0 nothing changed, 1 something did, 2 trouble.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "site_table.h"
#include "source.h"
#include "views.h"

struct change {
	const struct site *a, *b;	/* NULL: not on that side */
	int64_t bytes, calls;		/* b - a */
};

static int has_columns(const struct snapshot *s)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->sites[i].column || s->sites[i].callee)
			return 1;
	return 0;
}

/* Forget what the other side cannot match (columns, callees), then sum
 * the sites that fell together. */
static void normalize(struct snapshot *s, int with_columns)
{
	size_t out = 0;

	if (!with_columns)
		for (size_t i = 0; i < s->n; i++) {
			s->sites[i].column = 0;
			free(s->sites[i].callee);
			s->sites[i].callee = NULL;
		}
	snapshot_sort(s, site_cmp_place);
	for (size_t i = 0; i < s->n; i++) {
		struct site *site = &s->sites[i], *last = out ? &s->sites[out - 1] : NULL;

		if (last && site_same_place(last, site)) {
			last->bytes += site->bytes;
			last->calls += site->calls;
			last->total_bytes += site->total_bytes;
			last->total_calls += site->total_calls;
			last->peak += site->peak;
			last->inaccurate |= site->inaccurate;
			site_clear(site);
		} else {
			s->sites[out++] = *site;
		}
	}
	s->n = out;
}

static int64_t abs64(int64_t v)
{
	return v < 0 ? -v : v;
}

static const struct site *place_of(const struct change *c)
{
	return c->a ? c->a : c->b;
}

static int cmp_change(const void *pa, const void *pb)
{
	const struct change *a = pa, *b = pb;

	if (abs64(a->bytes) != abs64(b->bytes))
		return abs64(a->bytes) > abs64(b->bytes) ? -1 : 1;
	if (abs64(a->calls) != abs64(b->calls))
		return abs64(a->calls) > abs64(b->calls) ? -1 : 1;
	if (a->bytes != b->bytes)
		return a->bytes > b->bytes ? -1 : 1;
	return site_cmp_place(place_of(a), place_of(b));
}

static const char *change_word(const struct change *c)
{
	if (!c->a)
		return "new";
	if (!c->b)
		return "gone";
	if (c->bytes > 0 || (c->bytes == 0 && c->calls > 0))
		return "grew";
	if (c->bytes < 0 || c->calls < 0)
		return "shrank";
	return "same";
}

/* Both sides sorted by place: walk them together. */
static size_t match(const struct snapshot *a, const struct snapshot *b, struct change *out)
{
	size_t i = 0, k = 0, n = 0;

	while (i < a->n || k < b->n) {
		int c = i == a->n ? 1 : k == b->n ? -1 : site_cmp_place(&a->sites[i], &b->sites[k]);
		struct change *ch = &out[n++];

		ch->a = c <= 0 ? &a->sites[i++] : NULL;
		ch->b = c >= 0 ? &b->sites[k++] : NULL;
		ch->bytes = (ch->b ? ch->b->bytes : 0) - (ch->a ? ch->a->bytes : 0);
		ch->calls = (ch->b ? ch->b->calls : 0) - (ch->a ? ch->a->calls : 0);
	}
	return n;
}

static void sums(const struct snapshot *s, int64_t *bytes, int64_t *calls)
{
	*bytes = *calls = 0;
	for (size_t i = 0; i < s->n; i++) {
		*bytes += s->sites[i].bytes;
		*calls += s->sites[i].calls;
	}
}

/* "total: +12.0 KiB, +3 blocks (A: ..., B: ...)[; 1.0 MiB/s, 100 calls/s over 2.00 s]" */
static void put_total(struct buf *out, const struct snapshot *a, const struct snapshot *b, unsigned how,
		      const struct site_row *rates, int64_t dt)
{
	int64_t ab, ac, bb, bc;
	char t[6][48];

	how |= NUMBER_UNIT;
	sums(a, &ab, &ac);
	sums(b, &bb, &bc);
	buf_printf(out, "total: %s, %s block%s (A: %s in %s block%s, B: %s in %s block%s)",
		   number_text(t[0], sizeof(t[0]), bb - ab, how | NUMBER_BYTES | NUMBER_SIGNED),
		   number_text(t[1], sizeof(t[1]), bc - ac, how | NUMBER_SIGNED), bc - ac == 1 || bc - ac == -1 ? "" : "s",
		   number_text(t[2], sizeof(t[2]), ab, how | NUMBER_BYTES), number_text(t[3], sizeof(t[3]), ac, how),
		   ac == 1 ? "" : "s", number_text(t[4], sizeof(t[4]), bb, how | NUMBER_BYTES),
		   number_text(t[5], sizeof(t[5]), bc, how), bc == 1 ? "" : "s");
	if (rates)
		buf_printf(out, "; %s, %s calls/s over %.2f s",
			   number_text(t[2], sizeof(t[2]), rates->v[COL_RATE], how | NUMBER_BYTES | NUMBER_PER_SECOND),
			   number_text(t[3], sizeof(t[3]), rates->v[COL_CALL_RATE], how), dt / 1e9);
	buf_puts(out, "\n");
}

enum { DIFF_CHANGE, DIFF_BLOCKS, DIFF_WHAT, DIFF_A, DIFF_B, DIFF_RATE, DIFF_CALL_RATE, DIFF_SITE, DIFF_COLUMNS };

/* CH's rates between A and B, DT apart: site_table's own computation. */
static void change_rates(const struct change *ch, int64_t dt, struct site_row *r)
{
	site_row_init(r, ch->b, 1);
	site_row_change(r, ch->a, dt, 1);
}

/* One change as a row of T: numbers with HOW, the site with or without COLUMNS. */
static void put_change(struct table *t, const struct change *ch, unsigned how, int columns, int64_t dt,
		       struct site_row *sum)
{
	size_t row = table_add_row(t);
	struct buf site = { 0 };
	char text[48];

	table_set(t, row, DIFF_CHANGE, number_text(text, sizeof(text), ch->bytes, how | NUMBER_BYTES | NUMBER_SIGNED));
	table_set(t, row, DIFF_BLOCKS, number_text(text, sizeof(text), ch->calls, how | NUMBER_SIGNED));
	table_set(t, row, DIFF_WHAT, change_word(ch));
	table_set(t, row, DIFF_A, number_text(text, sizeof(text), ch->a ? ch->a->bytes : 0, how | NUMBER_BYTES));
	table_set(t, row, DIFF_B, number_text(text, sizeof(text), ch->b ? ch->b->bytes : 0, how | NUMBER_BYTES));
	if (dt > 0 && ch->b) {
		struct site_row r;

		change_rates(ch, dt, &r);
		table_set(t, row, DIFF_RATE, number_text(text, sizeof(text), r.v[COL_RATE],
							 how | NUMBER_BYTES | NUMBER_PER_SECOND));
		table_set(t, row, DIFF_CALL_RATE, number_text(text, sizeof(text), r.v[COL_CALL_RATE], how | NUMBER_PER_SECOND));
		sum->v[COL_RATE] += r.v[COL_RATE];
		sum->v[COL_CALL_RATE] += r.v[COL_CALL_RATE];
	}
	site_tag_info(&site, place_of(ch), columns);
	table_set(t, row, DIFF_SITE, site.data);
	buf_free(&site);
}

/* OPERAND read into S: "NAME (pid 4242)" into LABEL when a program's name
 * gave the pid (of several runs, the last), else OPERAND. */
static void read_side(struct snapshot *s, const char *operand, struct buf *label)
{
	struct source src;
	long pid;

	if (source_resolve(&src, operand) || source_read(s, &src))
		fail_error();
	buf_puts(label, operand);
	if (src.pid && !is_pid_argument(operand, &pid))
		buf_printf(label, " (pid %ld)", src.pid);
	source_free(&src);
}

int diff_run(const char *name_a, const char *name_b, int all, int exact)
{
	static const char *const headers[DIFF_COLUMNS] = { "CHANGE", "BLOCKS", "WHAT", "LIVE A", "LIVE B", "RATE",
							   "CALLS/S", "SITE" };
	static const int priorities[DIFF_COLUMNS] = { 9, 8, 7, 5, 6, 4, 3, 10 };
	struct snapshot a, b;
	struct change *changes;
	struct site_row sum = { 0 };
	struct table t;
	struct buf out = { 0 }, label_a = { 0 }, label_b = { 0 };
	unsigned how = exact ? NUMBER_EXACT : 0;
	int columns, changed = 0;
	int64_t dt;
	size_t n;

	read_side(&a, name_a, &label_a);
	read_side(&b, name_b, &label_b);
	dt = snapshot_same_run(&a, &b) && a.time_ns && b.time_ns && a.has_totals && b.has_totals
	     ? b.time_ns - a.time_ns : 0;
	columns = has_columns(&a) && has_columns(&b);
	normalize(&a, columns);
	normalize(&b, columns);
	changes = xcalloc(a.n + b.n + 1, sizeof(*changes));
	n = match(&a, &b, changes);
	qsort(changes, n, sizeof(*changes), cmp_change);

	table_init(&t, DIFF_COLUMNS, headers, priorities);
	for (size_t i = 0; i < n; i++) {
		int same = !strcmp(change_word(&changes[i]), "same");

		changed |= !same;
		if (!same || all)
			put_change(&t, &changes[i], how, columns, dt, &sum);
	}
	t.hidden[DIFF_RATE] = t.hidden[DIFF_CALL_RATE] = dt <= 0;
	table_fit(&t, output_width(), DIFF_CHANGE);
	buf_printf(&out, "A: %s\nB: %s\n", label_a.data, label_b.data);
	table_put_header(&t, &out);
	buf_puts(&out, "\n");
	for (size_t i = 0; i < t.nrows; i++) {
		table_put_row(&t, i, &out);
		buf_puts(&out, "\n");
	}
	put_total(&out, &a, &b, how, dt > 0 ? &sum : NULL, dt);
	if (write_file("-", &out))
		fail_error();
	buf_free(&out);
	buf_free(&label_a);
	buf_free(&label_b);
	table_free(&t);
	free(changes);
	snapshot_clear(&a);
	snapshot_clear(&b);
	return changed;
}
