/* SPDX-License-Identifier: MIT */
/* table.c: columns that fit the width (table.h). */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "table.h"

#define ELLIPSIS	"..."
#define PATH_KEPT	4	/* bytes kept at each end of a shortened path */
#define PATH_LONG	20	/* a path this long is shortened even if that is not enough */

void table_init(struct table *t, size_t ncolumns, const char *const *headers, const int *priorities)
{
	memset(t, 0, sizeof(*t));
	t->ncolumns = ncolumns < TABLE_MAX_COLUMNS ? ncolumns : TABLE_MAX_COLUMNS;
	for (size_t c = 0; c < t->ncolumns; c++) {
		t->header[c] = headers[c];
		t->priority[c] = priorities ? priorities[c] : 0;
		t->shown[c] = 1;
		t->hidden[c] = 0;
	}
}

size_t table_add_row(struct table *t)
{
	if (t->nrows == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 64;
		t->cells = xrealloc(t->cells, t->cap * t->ncolumns * sizeof(*t->cells));
	}
	memset(t->cells + t->nrows * t->ncolumns, 0, t->ncolumns * sizeof(*t->cells));
	return t->nrows++;
}

void table_set(struct table *t, size_t row, size_t column, const char *text)
{
	char **cell = &t->cells[row * t->ncolumns + column];

	free(*cell);
	*cell = xstrdup(text);
}

static int cell_width(const struct table *t, size_t row, size_t column)
{
	const char *cell = t->cells[row * t->ncolumns + column];

	return cell ? (int)strlen(cell) : 0;
}

/* The width the numbers' columns shown take, the gaps after them included. */
static int numbers_width(const struct table *t)
{
	int sum = 0;

	for (size_t c = 0; c + 1 < t->ncolumns; c++)
		if (t->shown[c])
			sum += t->width[c] + TABLE_GAP;
	return sum;
}

void table_fit(struct table *t, int width, size_t keep)
{
	for (size_t c = 0; c < t->ncolumns; c++) {
		t->width[c] = (int)strlen(t->header[c]);
		t->shown[c] = !t->hidden[c];
		for (size_t r = 0; r < t->nrows; r++)
			if (cell_width(t, r, c) > t->width[c])
				t->width[c] = cell_width(t, r, c);
	}
	t->site_width = 0;
	if (width <= 0)
		return;
	while (numbers_width(t) + (width / 2 > TABLE_SITE_MIN ? width / 2 : TABLE_SITE_MIN) > width) {
		size_t drop = t->ncolumns;

		for (size_t c = 0; c + 1 < t->ncolumns; c++)
			if (t->shown[c] && c != keep && (drop == t->ncolumns || t->priority[c] < t->priority[drop]))
				drop = c;
		if (drop == t->ncolumns)
			break;
		t->shown[drop] = 0;
	}
	t->site_width = width - numbers_width(t);
	if (t->site_width < 1)
		t->site_width = 1;
}

/* Row ROW's cells, or the headers with ROW (size_t)-1. */
static void put_cells(const struct table *t, size_t row, struct buf *out)
{
	size_t last = t->ncolumns - 1;

	for (size_t c = 0; c < last; c++) {
		const char *cell = row == (size_t)-1 ? t->header[c] : t->cells[row * t->ncolumns + c];

		if (t->shown[c])
			buf_printf(out, "%*s%*s", t->width[c], cell ? cell : "", TABLE_GAP, "");
	}
	const char *site = row == (size_t)-1 ? t->header[last] : t->cells[row * t->ncolumns + last];

	if (t->site_width)
		shorten_site(out, site ? site : "", t->site_width);
	else
		buf_puts(out, site ? site : "");
}

void table_put_header(const struct table *t, struct buf *out)
{
	put_cells(t, (size_t)-1, out);
}

void table_put_row(const struct table *t, size_t row, struct buf *out)
{
	put_cells(t, row, out);
}

void table_free(struct table *t)
{
	for (size_t i = 0; i < t->nrows * t->ncolumns; i++)
		free(t->cells[i]);
	free(t->cells);
	memset(t, 0, sizeof(*t));
}

/* The length of TEXT's path: up to the ":LINE" after it. */
static size_t path_length(const char *text)
{
	const char *colon = text;

	while ((colon = strchr(colon, ':')))
		if (colon[1] >= '0' && colon[1] <= '9')
			return colon - text;
		else
			colon++;
	return strlen(text);
}

void shorten_site(struct buf *out, const char *text, size_t width)
{
	size_t len = strlen(text), path = path_length(text), ellipsis = strlen(ELLIPSIS), cut, head;

	if (len <= width) {
		buf_puts(out, text);
		return;
	}
	/* The middle of the path goes first, as much of it as needs to and can
	 * (a short path that cannot give all of it stays whole); the file's own
	 * name is kept whole if it can be. */
	cut = len - width + ellipsis;
	if (path > 2 * PATH_KEPT + ellipsis && (cut + 2 * PATH_KEPT <= path || path >= PATH_LONG)) {
		size_t base = path - (memrchr(text, '/', path) ? (size_t)((const char *)memrchr(text, '/', path) - text) : 0);

		if (cut > path - 2 * PATH_KEPT)
			cut = path - 2 * PATH_KEPT;
		head = path - cut > base + PATH_KEPT ? path - cut - base : (path - cut) / 2;
		buf_add(out, text, head);
		buf_puts(out, ELLIPSIS);
		text += head + cut;
		len -= cut - ellipsis;
		width -= head + ellipsis;
		if (len <= width + head + ellipsis) {
			buf_puts(out, text);
			return;
		}
	}
	/* Then the end (a callee, a function's long name). */
	if (width > ellipsis) {
		buf_add(out, text, width - ellipsis);
		buf_puts(out, ELLIPSIS);
	} else {
		buf_add(out, text, width);
	}
}

int output_width(void)
{
	const char *env = getenv("COLUMNS");
	struct winsize ws;
	uint64_t n;

	if (env && !parse_u64(env, &n) && n > 0 && n < 100000)
		return (int)n;
	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col)
		return ws.ws_col;
	return 0;
}
