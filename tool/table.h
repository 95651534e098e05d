/* SPDX-License-Identifier: MIT */
/*
 * table.h: the tables of the views for people (top, snapshot's text,
 * leaks, diff): columns of numbers, right-aligned, each as wide as its
 * widest cell, then the site, left-aligned, which takes what is left of the
 * width.  When the width is too small, the columns of least priority are
 * left out (the site keeps half the width, TABLE_SITE_MIN at least), and a site too
 * long is shortened: its directories first, its file's name and line kept
 * ("src/.../file.c:12:5 func:f callee:g"), then its end ("... func:f ca...").
 *
 *        LIVE  BLOCKS  SITE
 *     4.0 MiB    1000  demo.c:42 func:count
 */
#ifndef ALLOCTAG_TOOL_TABLE_H
#define ALLOCTAG_TOOL_TABLE_H

#include <stddef.h>
#include "util.h"

#define TABLE_MAX_COLUMNS	12
#define TABLE_SITE_MIN		30	/* or half the width, if more */
#define TABLE_GAP		2	/* blanks between columns */

struct table {
	size_t ncolumns;			/* the last is the site's */
	const char *header[TABLE_MAX_COLUMNS];
	int priority[TABLE_MAX_COLUMNS];	/* the lowest is left out first */
	int width[TABLE_MAX_COLUMNS];		/* table_fit()'s */
	int shown[TABLE_MAX_COLUMNS];
	int hidden[TABLE_MAX_COLUMNS];		/* never shown: set before table_fit() */
	int min_width[TABLE_MAX_COLUMNS];	/* at least this wide: set before table_fit() */
	int site_width;				/* 0: as long as a site is */
	size_t nrows, cap;
	char **cells;				/* row r, column c: cells[r * ncolumns + c] */
};

/* NCOLUMNS columns (the site's last) of HEADERS and PRIORITIES. */
void table_init(struct table *t, size_t ncolumns, const char *const *headers, const int *priorities);
/* A new row; its cells are set with table_set (NULL: empty). */
size_t table_add_row(struct table *t);
void table_set(struct table *t, size_t row, size_t column, const char *text);
/* The columns shown in WIDTH (0: any width), column KEEP always among them. */
void table_fit(struct table *t, int width, size_t keep);
/* The header and row ROW, without a newline, into OUT. */
void table_put_header(const struct table *t, struct buf *out);
void table_put_row(const struct table *t, size_t row, struct buf *out);
void table_free(struct table *t);

/* The width of the standard output: $COLUMNS, else the terminal's, else 0 (any). */
int output_width(void);

/* TEXT, a site, in at most WIDTH bytes: its directories shortened first, then its end. */
void shorten_site(struct buf *out, const char *text, size_t width);

/* Of TEXT, a line of fields ("live 1 MiB in 3 blocks; total ..."), the most
 * that fits WIDTH: its length, ending where a field does (before ": ", "; ",
 * ", ", " - ", else a blank, else anywhere); *NEXT, where the rest begins. */
size_t fit_fields(const char *text, size_t width, size_t *next);
/* TEXT and a newline into OUT, on as many lines of WIDTH (0: any) as it needs,
 * broken where fields end (a line ends with the ":", ";" or "," it is broken at). */
void put_fields(struct buf *out, const char *text, int width);

#endif
