/* SPDX-License-Identifier: MIT */
/* table.c: columns that fit the width (table.h). */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "table.h"

#define ELLIPSIS	"..."
#define DIR_ELLIPSIS	".../"	/* for the directories a site's file is in */
#define NAME_KEPT	4	/* a file's name is shortened to no less */

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

/* Each column as wide as its header, its widest cell and its least width. */
static void measure(struct table *t)
{
	for (size_t c = 0; c < t->ncolumns; c++) {
		t->width[c] = (int)strlen(t->header[c]);
		if (t->min_width[c] > t->width[c])
			t->width[c] = t->min_width[c];
		for (size_t r = 0; r < t->nrows; r++)
			if (cell_width(t, r, c) > t->width[c])
				t->width[c] = cell_width(t, r, c);
	}
}

void table_fit(struct table *t, int width, size_t keep)
{
	measure(t);
	for (size_t c = 0; c < t->ncolumns; c++)
		t->shown[c] = !t->hidden[c];
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

/* The length of TEXT's place: its path and ":LINE[:COLUMN]". */
static size_t place_length(const char *text)
{
	size_t path = path_length(text);

	return path + strspn(text + path, ":0123456789");
}

/* TEXT cut to WIDTH bytes, "..." at its end if there is room. */
static void cut_end(struct buf *out, const char *text, size_t width)
{
	size_t ellipsis = strlen(ELLIPSIS);

	if (width > ellipsis) {
		buf_add(out, text, width - ellipsis);
		buf_puts(out, ELLIPSIS);
	} else {
		buf_add(out, text, width);
	}
}

/* The directories of the site TEXT (*LEN bytes), if too long for *WIDTH:
 * written as its first components that fit and DIR_ELLIPSIS ("src/.../",
 * ".../"); the rest of TEXT, *LEN and *WIDTH what is left of them. */
static const char *shorten_dir(struct buf *out, const char *text, size_t *len, size_t *width)
{
	const char *slash = memrchr(text, '/', path_length(text));
	size_t dir = slash ? (size_t)(slash - text) + 1 : 0, mark = strlen(DIR_ELLIPSIS), room;

	if (*len <= *width || dir <= mark)
		return text;
	room = dir > *len - *width + mark ? dir - (*len - *width) - mark : 0;
	while (room && text[room - 1] != '/')
		room--;
	buf_add(out, text, room);
	buf_puts(out, DIR_ELLIPSIS);
	*len -= dir;
	*width -= *width > room + mark ? room + mark : *width;
	return text + dir;
}

/* The site TEXT whose file's name and line do not fit WIDTH: the name
 * shortened in its middle, ":LINE[:COLUMN]" kept, "..." for what follows. */
static void shorten_name(struct buf *out, const char *text, size_t width)
{
	size_t name = path_length(text), place = place_length(text), ellipsis = strlen(ELLIPSIS);
	size_t after = text[place] ? ellipsis : 0, keep, head;

	if (width < place - name + after + ellipsis + NAME_KEPT) {
		cut_end(out, text, width);
		return;
	}
	keep = width - (place - name) - after - ellipsis;	/* of the name, at both ends */
	head = keep / 2;
	buf_add(out, text, head);
	buf_puts(out, ELLIPSIS);
	buf_add(out, text + name - (keep - head), place - name + keep - head);
	if (after)
		buf_puts(out, ELLIPSIS);
}

void shorten_site(struct buf *out, const char *text, size_t width)
{
	size_t len = strlen(text);

	text = shorten_dir(out, text, &len, &width);
	if (len <= width)
		buf_puts(out, text);
	else if (place_length(text) + strlen(ELLIPSIS) <= width)
		cut_end(out, text, width);	/* the callee, the function, the module */
	else if (place_length(text) <= width)
		buf_add(out, text, place_length(text));	/* no room for more, or for "..." */
	else
		shorten_name(out, text, width);
}

size_t fit_fields(const char *text, size_t width, size_t *next)
{
	static const char *const ends[] = { ": ", "; ", ", ", " - " };
	size_t len = strlen(text), best = 0, after = 0;

	if (len <= width) {
		*next = len;
		return len;
	}
	for (size_t i = 0; i < ARRAY_SIZE(ends); i++)
		for (const char *p = text; (p = strstr(p, ends[i])) && (size_t)(p - text) <= width; p++)
			if ((size_t)(p - text) > best) {
				best = (size_t)(p - text);
				after = best + strlen(ends[i]);
			}
	if (!best) {
		const char *blank = memrchr(text, ' ', width + 1);

		best = blank && blank > text ? (size_t)(blank - text) : width;
		after = blank && blank > text ? best + 1 : width;
	}
	*next = after;
	return best;
}

void put_fields(struct buf *out, const char *text, int width)
{
	size_t n, next;

	do {
		if (width > 0)
			n = fit_fields(text, (size_t)width, &next);
		else
			n = next = strlen(text);
		buf_add(out, text, n + (text[n] && strchr(":;,", text[n])));
		buf_puts(out, "\n");
		text += next;
	} while (*text);
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
