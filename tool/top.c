/* SPDX-License-Identifier: MIT */
/*
 * top.c: `alloctag top`: the sites of a process, a report or
 * /proc/allocinfo, refreshed every SECONDS (default 1), as top(1) shows
 * processes.
 *
 *   alloctag top - demo (pid 4242) - 12:00:01 - every 1s
 *   live 12.3 MiB in 3456 blocks (+1.2 MiB); total 45.0 MiB in 99999 calls; 2.0 MiB/s, 1000 calls/s
 *   523 sites, 20 shown; sorted by live bytes; h for keys
 *      LIVE  BLOCKS    GROWTH       RATE  CALLS/S     TOTAL  CALLS     PEAK  SITE
 *   4.0 MiB    1000  +512 KiB  2.0 MiB/s     1000  40.0 MiB  10000  4.0 MiB  demo.c:42 func:count
 *
 * GROWTH is the change of live bytes since the refresh before, RATE and
 * CALLS/S what the site allocated per second between them.  The lines fit
 * the terminal: the columns of least use go first when it is narrow
 * (table.h), each as wide as its numbers can be, so that the choice stays
 * from one refresh to the next; the site takes the rest; a line too long
 * is cut where a field ends; the title and the header stay on screen, and
 * "N shown" is what the screen shows.  A report or
 * /proc/allocinfo is read again at each refresh; a process's live file is
 * mapped once, and a process that exits stays on screen with its final
 * counters.  Without a terminal (or with -b) it prints COUNT (default 1)
 * refreshes one after the other, as wide as $COLUMNS says (else whole).
 *
 * With no operand: the user's one process with live counters; with
 * several, a list to pick from (ps.c); with none, /proc/allocinfo.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include "live.h"
#include "source.h"
#include "site_table.h"
#include "views.h"

#define HEADER_LINES		4	/* title, totals, state, column header */
#define FILTER_MAX		128

enum filter_field { FILTER_LINE, FILTER_FILE, FILTER_FUNCTION, FILTER_MODULE };

struct top {
	const char *what;	/* the operand, for the title */
	struct source src;	/* src.pid: a live process, mapped once */
	struct live live;
	struct snapshot now, before;	/* before: sorted by place */
	int have_before, exited;
	char error[256];	/* the last refresh's trouble, kept on screen */
	struct site_row *rows;
	size_t nrows;
	struct table table;
	int widest[NCOLUMNS];	/* each column's width so far, numbers as widest_exact says */
	int widest_exact;
	enum site_column sort;
	int reverse, exact, help, batch;
	enum filter_field filter_field;
	char filter[FILTER_MAX];	/* as given, "func:main" */
	int editing;		/* the filter prompt is open */
	char edit[FILTER_MAX];
	size_t scroll, shown;
	int64_t delay;
	unsigned refreshes;
	int rows_on_screen, cols;	/* cols 0: any width (batch to a file) */
};

/* ---- names of the columns ------------------------------------------------ */

int top_sort_key(const char *s)
{
	return site_column_named(s);
}

const char *top_sort_keys_text(void)
{
	static char text[256];
	size_t n = 0;

	for (size_t i = 0; i < NCOLUMNS && n < sizeof(text); i++)
		n += snprintf(text + n, sizeof(text) - n, "%s%s (%c)", i ? ", " : "", site_columns[i].name,
			      site_columns[i].key);
	return text;
}

/* ---- the terminal ------------------------------------------------------- */

static struct termios saved_termios;
static int terminal_raw;
static volatile sig_atomic_t quit_requested, resized, suspend_requested;

/* N bytes at P on the screen (or the batch's output), now. */
static void put_out(const char *p, size_t n)
{
	fwrite(p, 1, n, stdout);
	stdout_flush();
}

static void on_quit(int sig) { (void)sig; quit_requested = 1; }
static void on_winch(int sig) { (void)sig; resized = 1; }
static void on_tstp(int sig) { (void)sig; suspend_requested = 1; }

static void terminal_enter(void)
{
	struct termios raw;

	if (tcgetattr(STDIN_FILENO, &saved_termios))
		return;
	raw = saved_termios;
	raw.c_lflag &= ~(ICANON | ECHO);
	raw.c_cc[VMIN] = 0;
	raw.c_cc[VTIME] = 0;
	tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw);
	terminal_raw = 1;
	/* the alternate screen, the cursor hidden */
	put_out("\033[?1049h\033[?25l", 14);
}

static void terminal_leave(void)
{
	if (!terminal_raw)
		return;
	put_out("\033[?25h\033[?1049l", 14);
	tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_termios);
	terminal_raw = 0;
}

static void terminal_size(struct top *t)
{
	struct winsize ws;

	t->rows_on_screen = 24;
	t->cols = 80;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row && ws.ws_col) {
		t->rows_on_screen = ws.ws_row;
		t->cols = ws.ws_col;
	}
}

static void handle_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_quit;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_winch;
	sigaction(SIGWINCH, &sa, NULL);
	sa.sa_handler = on_tstp;
	sigaction(SIGTSTP, &sa, NULL);
}

/* ---- reading ------------------------------------------------------------ */

static int read_now(struct top *t, struct snapshot *s)
{
	int rc = t->src.pid && t->live.base ? live_read(&t->live, s) : snapshot_read(s, t->what);

	if (rc == 0 && !s->time_ns)	/* a file: the reading's time */
		s->time_ns = sys_clock_ns(CLOCK_REALTIME);
	return rc;
}

static const struct site *find_before(const struct top *t, const struct site *site)
{
	size_t lo = 0, hi = t->before.n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = site_cmp_place(&t->before.sites[mid], site);

		if (!c)
			return &t->before.sites[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* A copy that owns its strings (a live reading's belong to the reader). */
static void keep_before(struct top *t)
{
	snapshot_clear(&t->before);
	t->before = t->now;
	t->before.sites = xmalloc((t->now.n + 1) * sizeof(*t->now.sites));
	t->before.program = xstrdup(t->now.program);
	t->before.notes = NULL;
	t->before.nnotes = 0;
	t->before.borrowed = 0;
	for (size_t i = 0; i < t->now.n; i++) {
		struct site *to = &t->before.sites[i];

		*to = t->now.sites[i];
		to->file = xstrdup(to->file);
		to->function = xstrdup(to->function);
		to->module = xstrdup(to->module);
		to->callee = xstrdup(to->callee);
	}
	t->before.cap = t->now.n + 1;
	snapshot_sort(&t->before, site_cmp_place);
	t->have_before = 1;
}

/* A new reading: growth and rates are against the one before. */
static void refresh(struct top *t)
{
	struct snapshot s;

	if (t->exited)
		return;
	if (read_now(t, &s)) {
		snprintf(t->error, sizeof(t->error), "%s", error_get());
		return;
	}
	t->error[0] = '\0';
	if (t->now.sites || t->now.program)
		keep_before(t);
	snapshot_clear(&t->now);
	t->now = s;
	t->refreshes++;
	if (t->src.pid && t->live.base && (s.exited || live_exited(&t->live)))
		t->exited = 1;
}

/* ---- the rows ----------------------------------------------------------- */

static void set_filter(struct top *t, const char *spec)
{
	static const struct {
		const char *prefix;
		enum filter_field field;
	} fields[] = { { "file:", FILTER_FILE }, { "func:", FILTER_FUNCTION }, { "module:", FILTER_MODULE } };

	snprintf(t->filter, sizeof(t->filter), "%s", spec);
	t->filter_field = FILTER_LINE;
	for (size_t i = 0; i < ARRAY_SIZE(fields); i++)
		if (!strncmp(spec, fields[i].prefix, strlen(fields[i].prefix)))
			t->filter_field = fields[i].field;
}

static int matches(const struct top *t, const struct site *site, struct buf *scratch)
{
	const char *text = t->filter + (t->filter_field == FILTER_LINE ? 0 : strcspn(t->filter, ":") + 1);
	const char *field;

	if (!t->filter[0])
		return 1;
	switch (t->filter_field) {
	case FILTER_FILE: field = site->file; break;
	case FILTER_FUNCTION: field = site->function; break;
	case FILTER_MODULE: field = site->module; break;
	default:
		scratch->len = 0;
		site_tag_info(scratch, site, 1);
		field = scratch->data;
	}
	return field && strcasestr(field, text);
}

static void make_rows(struct top *t)
{
	struct buf scratch = { 0 };
	int64_t dt = t->now.time_ns - t->before.time_ns;

	free(t->rows);
	t->rows = xcalloc(t->now.n + 1, sizeof(*t->rows));
	t->nrows = 0;
	for (size_t i = 0; i < t->now.n; i++) {
		struct site_row *r;

		if (!matches(t, &t->now.sites[i], &scratch))
			continue;
		r = &t->rows[t->nrows++];
		site_row_init(r, &t->now.sites[i], t->now.has_totals);
		if (t->have_before)
			site_row_change(r, find_before(t, r->site), dt, t->now.has_totals && t->before.has_totals);
	}
	site_rows_sort(t->rows, t->nrows, t->sort, t->reverse);
	buf_free(&scratch);
}

/* ---- drawing ------------------------------------------------------------ */

/* One line: TEXT cut to the width where a field ends, "clear to the end of
 * the line" on a screen; lines are separated, so that the last does not
 * scroll the screen. */
static void put_line(struct top *t, struct buf *out, const char *text)
{
	size_t n = strlen(text), next;

	if (out->len)
		buf_puts(out, t->batch ? "\n" : "\r\n");
	if (t->cols)
		n = fit_fields(text, (size_t)t->cols, &next);
	buf_add(out, text, n);
	if (!t->batch)
		buf_puts(out, "\033[K");
}

static void put_totals(struct top *t, struct buf *out)
{
	struct buf line = { 0 };

	site_rows_summary(&line, t->rows, t->nrows, t->now.has_totals, t->exact);
	put_line(t, out, line.data);
	buf_free(&line);
}

/*
 * "NAME (pid N)" after LINE's start, NAME (a program or a file) shortened
 * in its directories or its middle so that the line still names it at the
 * terminal's width: cut where a field ends, it would lose it whole.
 */
static void put_title_name(const struct top *t, struct buf *line)
{
	const char *name = t->now.program ? t->now.program : t->what;
	char pid[32] = "";
	size_t used;

	if (t->now.pid)
		snprintf(pid, sizeof(pid), " (pid %ld)", t->now.pid);
	used = line->len + strlen(pid);
	if (t->cols && (size_t)t->cols > used)
		shorten_site(line, name, (size_t)t->cols - used);
	else
		buf_puts(line, name);
	buf_puts(line, pid);
}

static void put_header(struct top *t, struct buf *out, size_t shown)
{
	struct buf line = { 0 };
	char when[32];
	time_t now = time(NULL);

	strftime(when, sizeof(when), "%H:%M:%S", localtime(&now));
	buf_puts(&line, "alloctag top - ");
	put_title_name(t, &line);
	/* Ended without its runtime's exit: killed (its kept counters, or seen here). */
	buf_printf(&line, " - %s - every %gs%s", when, t->delay / 1e9,
		   !t->exited ? "" : t->now.exited && !t->now.unreported ? " - exited" : " - killed");
	put_line(t, out, line.data);
	put_totals(t, out);
	line.len = 0;
	if (t->editing) {
		buf_printf(&line, "filter (TEXT, file:TEXT, func:TEXT, module:TEXT): %s_", t->edit);
	} else if (t->error[0]) {
		buf_printf(&line, "%s", t->error);
	} else {
		buf_printf(&line, "%zu site%s, ", t->now.n, t->now.n == 1 ? "" : "s");
		if (t->filter[0])
			buf_printf(&line, "%zu match \"%s\", ", t->nrows, t->filter);
		buf_printf(&line, "%zu shown", shown);
		if (t->scroll && shown)
			buf_printf(&line, " (%zu to %zu)", t->scroll + 1, t->scroll + shown);
		buf_printf(&line, "; sorted by %s%s; h for keys", site_columns[t->sort].what,
			   t->reverse ? ", reversed" : "");
	}
	put_line(t, out, line.data);
	buf_free(&line);
}

static void put_rows(struct top *t, struct buf *out, size_t from, size_t n)
{
	struct buf line = { 0 };

	table_put_header(&t->table, &line);
	put_line(t, out, line.data);
	for (size_t i = from; i < from + n; i++) {
		line.len = 0;
		table_put_row(&t->table, i, &line);
		put_line(t, out, line.data);
	}
	buf_free(&line);
}

static void put_help(struct top *t, struct buf *out)
{
	static const char *const lines[] = {
		"  r             reverse the order; < > sort by the column left or right",
		"  /             filter: the sites whose line holds TEXT; file:TEXT, func:TEXT,",
		"                module:TEXT match that part only (Enter applies, Esc cancels)",
		"  e             exact numbers / short ones",
		"  space         refresh now",
		"  + -           refresh less / more often",
		"  arrows, PgUp, PgDn, Home   scroll",
		"  h ?           this help (any key goes back)",
		"  q             quit",
	};
	struct buf line = { 0 };

	put_line(t, out, "keys:");
	for (size_t c = 0; c < NCOLUMNS; c++) {
		line.len = 0;
		buf_printf(&line, "  %c             sort by %s (%s)", site_columns[c].key, site_columns[c].what,
			   site_columns[c].header);
		put_line(t, out, line.data);
	}
	for (size_t i = 0; i < ARRAY_SIZE(lines); i++)
		put_line(t, out, lines[i]);
	buf_free(&line);
}

/* The table of the rows, its columns chosen by the width of the screen and
 * the most each column has needed so far, a column of numbers for people
 * as wide as they can be: the choice does not change from one refresh to
 * the next (exact numbers: but when one grows wider than any before it). */
static void make_table(struct top *t)
{
	if (!t->widest[COL_LIVE] || t->widest_exact != t->exact) {
		for (size_t c = 0; c < COL_SITE; c++)
			t->widest[c] = number_text_width(site_columns[c].how | (t->exact ? NUMBER_EXACT : 0));
		t->widest_exact = t->exact;
	}
	table_free(&t->table);
	site_table_fill(&t->table, t->rows, t->nrows, t->now.has_totals ? 0 : COLUMNS_OF_TOTALS, t->exact);
	memcpy(t->table.min_width, t->widest, sizeof(t->widest));
	table_fit(&t->table, t->cols, t->sort);
	memcpy(t->widest, t->table.width, sizeof(t->widest));
}

static void draw(struct top *t)
{
	struct buf out = { 0 };
	size_t room = t->rows_on_screen > HEADER_LINES ? t->rows_on_screen - HEADER_LINES : 0;

	make_table(t);
	if (t->scroll >= t->nrows)
		t->scroll = t->nrows ? t->nrows - 1 : 0;
	t->shown = t->nrows - t->scroll;
	if (!t->batch && t->shown > room)
		t->shown = room;
	put_header(t, &out, t->help ? 0 : t->shown);
	if (t->help)
		put_help(t, &out);
	else
		put_rows(t, &out, t->scroll, t->shown);
	buf_puts(&out, t->batch ? "\n" : "\033[J");
	if (!t->batch)
		put_out("\033[H", 3);
	put_out(out.data, out.len);
	buf_free(&out);
}

/* ---- keys --------------------------------------------------------------- */

static void edit_key(struct top *t, int c)
{
	size_t n = strlen(t->edit);

	if (c == '\r' || c == '\n') {
		set_filter(t, t->edit);
		t->editing = 0;
		t->scroll = 0;
	} else if (c == 27) {
		t->editing = 0;
	} else if ((c == 127 || c == 8) && n) {
		t->edit[n - 1] = '\0';
	} else if (c >= 32 && c < 127 && n + 1 < sizeof(t->edit)) {
		t->edit[n] = c;
		t->edit[n + 1] = '\0';
	}
}

/* The sort column moved by STEP among the columns shown. */
static void move_sort(struct top *t, int step)
{
	int c = (int)t->sort;

	do
		c = (c + step + NCOLUMNS) % NCOLUMNS;
	while (!t->table.shown[c] && c != (int)t->sort);
	t->sort = c;
}

/* An escape sequence at K (N bytes) moving the view: the bytes it took. */
static size_t scroll_key(struct top *t, const char *k, size_t n)
{
	size_t page = t->rows_on_screen > HEADER_LINES ? t->rows_on_screen - HEADER_LINES : 1, used = 3;
	char code;

	if (n < 3 || k[1] != '[')
		return 1;
	code = k[2];
	if (code >= '0' && code <= '9' && n > 3 && k[3] == '~')
		used = 4;
	if (code == 'A' && t->scroll)
		t->scroll--;
	else if (code == 'B' && t->scroll + 1 < t->nrows)
		t->scroll++;
	else if (code == '5')
		t->scroll = t->scroll > page ? t->scroll - page : 0;
	else if (code == '6' && t->scroll + page < t->nrows)
		t->scroll += page;
	else if (code == 'H' || code == '1')
		t->scroll = 0;
	return used;
}

/* The keys read; *REFRESH set when a new reading is wanted now. */
static void handle_keys(struct top *t, const char *k, size_t n, int *refresh)
{
	for (size_t i = 0; i < n; i++) {
		char c = k[i];
		int sort;

		if (t->editing) {
			if (c == 27 && i + 1 < n && k[i + 1] == '[')	/* an arrow: not for the prompt */
				for (i += 2; i < n && !(k[i] >= 'A' && k[i] <= '~'); i++)
					;
			else
				edit_key(t, c);
			continue;
		}
		if (t->help) {
			t->help = 0;
			continue;
		}
		if (c == 27) {
			i += scroll_key(t, k + i, n - i) - 1;
			continue;
		}
		if ((sort = top_sort_key((char[]){ c, 0 })) >= 0) {
			t->sort = sort;
			t->scroll = 0;
			continue;
		}
		switch (c) {
		case 'q': quit_requested = 1; break;
		case 'r': t->reverse = !t->reverse; break;
		case '<': move_sort(t, -1); break;
		case '>': move_sort(t, 1); break;
		case 'e': t->exact = !t->exact; break;
		case 'h': case '?': t->help = 1; break;
		case ' ': *refresh = 1; break;
		case '+': t->delay = t->delay * 2 > TOP_MAX_DELAY_NS ? TOP_MAX_DELAY_NS : t->delay * 2; break;
		case '-': t->delay = t->delay / 2 < TOP_MIN_DELAY_NS ? TOP_MIN_DELAY_NS : t->delay / 2; break;
		case '/':
			t->editing = 1;
			snprintf(t->edit, sizeof(t->edit), "%s", t->filter);
			break;
		}
	}
}

/* ---- the loops ---------------------------------------------------------- */

static void run_batch(struct top *t, unsigned count)
{
	t->cols = output_width();
	for (unsigned i = 0; i < count && !quit_requested; i++) {
		if (i) {
			struct timespec ts = { t->delay / 1000000000, t->delay % 1000000000 };

			nanosleep(&ts, NULL);
			refresh(t);
			put_out("\n", 1);
		}
		make_rows(t);
		draw(t);
	}
}

static void suspend(struct top *t)
{
	suspend_requested = 0;
	terminal_leave();
	kill(getpid(), SIGSTOP);
	terminal_enter();	/* continued */
	terminal_size(t);
}

static void run_screen(struct top *t, unsigned count)
{
	int64_t next = sys_clock_ns(CLOCK_MONOTONIC) + t->delay;

	terminal_enter();
	terminal_size(t);
	make_rows(t);
	draw(t);
	while (!quit_requested && (!count || t->refreshes < count)) {
		struct pollfd pfd = { STDIN_FILENO, POLLIN, 0 };
		int64_t wait = next - sys_clock_ns(CLOCK_MONOTONIC);
		int refresh_now = 0;
		char keys[64];

		if (wait > 0 && poll(&pfd, 1, (int)(wait / 1000000) + 1) > 0) {
			ssize_t n = read(STDIN_FILENO, keys, sizeof(keys));

			if (n > 0)
				handle_keys(t, keys, n, &refresh_now);
			else if (n == 0)	/* the terminal is gone */
				quit_requested = 1;
		}
		if (suspend_requested)
			suspend(t);
		if (resized) {
			resized = 0;
			terminal_size(t);
		}
		if (refresh_now || sys_clock_ns(CLOCK_MONOTONIC) >= next) {
			refresh(t);
			next = sys_clock_ns(CLOCK_MONOTONIC) + t->delay;
		}
		if (!quit_requested) {
			make_rows(t);
			draw(t);
		}
	}
	terminal_leave();
}

/* What T shows: the operand's process (mapped once) or file. */
static void open_what(struct top *t, const char *what)
{
	char pid[32];

	if (source_resolve(&t->src, what))
		fail_error();
	if (t->src.pid && live_open(&t->live, t->src.pid) == 0) {
		snprintf(pid, sizeof(pid), "%ld", t->src.pid);
		t->what = xstrdup(pid);
	} else {
		t->what = xstrdup(what);	/* a file, or an ended process's kept report */
	}
	if (read_now(t, &t->now))
		fail_error();
	t->refreshes = 1;
	if (t->src.pid && t->live.base && (t->now.exited || live_exited(&t->live)))
		t->exited = 1;
	if (t->src.pid && !t->live.base)
		t->exited = 1;
}

int top_run(const struct top_options *o)
{
	static struct top t;
	int interactive = !o->batch && isatty(STDOUT_FILENO) && isatty(STDIN_FILENO);

	t.delay = o->delay_ns;
	t.sort = o->sort;
	t.exact = o->exact;
	set_filter(&t, o->filter ? o->filter : "");
	live_init(&t.live, 0);
	open_what(&t, o->what ? o->what : ps_choose(interactive));
	handle_signals();
	if (!interactive) {
		t.batch = 1;
		run_batch(&t, o->count ? o->count : 1);
	} else {
		run_screen(&t, o->count);
	}
	live_close(&t.live);
	source_free(&t.src);
	return 0;
}
