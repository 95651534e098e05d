/* SPDX-License-Identifier: MIT */
/*
 * site_table.h: sites as a table for people (table.h), with the columns
 * the views share (top, snapshot's table, leaks): what each holds, its
 * header, its name for -s and its key in top, and which go first when the
 * terminal is narrow.  Numbers for people (KiB, MiB, k) or exact.
 */
#ifndef ALLOCTAG_TOOL_SITE_TABLE_H
#define ALLOCTAG_TOOL_SITE_TABLE_H

#include "snapshot.h"
#include "table.h"

enum site_column { COL_LIVE, COL_BLOCKS, COL_GROWTH, COL_RATE, COL_CALL_RATE, COL_TOTAL, COL_CALLS,
		   COL_PEAK, COL_SITE, NCOLUMNS };

#define COLUMN_BIT(c)		(1u << (c))
/* What a source without totals (allocinfo) never knows. */
#define COLUMNS_OF_TOTALS	(COLUMN_BIT(COL_RATE) | COLUMN_BIT(COL_CALL_RATE) | COLUMN_BIT(COL_TOTAL) | \
				 COLUMN_BIT(COL_CALLS) | COLUMN_BIT(COL_PEAK))
/* What one reading, without one before it, does not know. */
#define COLUMNS_OF_CHANGE	(COLUMN_BIT(COL_GROWTH) | COLUMN_BIT(COL_RATE) | COLUMN_BIT(COL_CALL_RATE))

struct site_column_info {
	const char *header, *name;
	char key;
	int priority;		/* the lowest is left out first */
	unsigned how;		/* number_text()'s */
	const char *what;
};
extern const struct site_column_info site_columns[NCOLUMNS];

/* A column by its name or key ("total", "t"); -1 if none. */
int site_column_named(const char *name);

struct site_row {
	const struct site *site;
	int64_t v[NCOLUMNS];	/* by column, but the site */
	unsigned known;		/* COLUMN_BIT(c): v[c] is known */
};

/* SITE's own numbers (HAS_TOTALS: total bytes and calls, peak known). */
void site_row_init(struct site_row *r, const struct site *site, int has_totals);
/* Growth, and with WITH_RATES the rates (never negative), against BEFORE
 * (the same place DT_NS earlier in the same run; NULL: it had allocated
 * nothing then). */
void site_row_change(struct site_row *r, const struct site *before, int64_t dt_ns, int with_rates);
void site_rows_sort(struct site_row *rows, size_t n, enum site_column by, int reverse);

/* The N rows as T (table_free() it), the columns of HIDE (bits) left out;
 * EXACT: numbers exactly.  Then table_fit() chooses the columns shown. */
void site_table_fill(struct table *t, const struct site_row *rows, size_t n, unsigned hide, int exact);
/* The table of the N rows (as site_table_fill() says), the columns that fit
 * WIDTH (0: any), line by line, into OUT. */
void site_table_write(struct buf *out, const struct site_row *rows, size_t n, unsigned hide, int exact,
		      int width);
/* "demo (pid 4242), exited" (", killed": it ended without its report), or
 * WHAT when S does not say its program. */
void snapshot_title(struct buf *out, const struct snapshot *s, const char *what);

/* "live 12.3 MiB in 3456 blocks (+1.2 MiB); total 45.0 MiB in 99999 calls;
 * 2.0 MiB/s, 1000 calls/s": what the N rows know, summed, into LINE. */
void site_rows_summary(struct buf *line, const struct site_row *rows, size_t n, int has_totals, int exact);

#endif
