/* SPDX-License-Identifier: MIT */
/*
 * top.c: `alloctag top [-d SECONDS] [-s KEY] [-f TEXT] [-n COUNT] [-b]
 * [PID | /proc/allocinfo | FILE]`: the sites, refreshed every SECONDS
 * (default 1), as top(1) shows processes.
 *
 *   alloctag top - demo (pid 4242) - 12:00:01 - every 1s
 *   live 12.3 MiB in 3,456 blocks (+1.2 MiB); total 45.0 MiB in 99,999 calls
 *   523 sites, 40 shown; sorted by live bytes; h for keys
 *         LIVE   BLOCKS     GROWTH      TOTAL     CALLS       PEAK  SITE
 *      4.0 MiB     1000   +512 KiB   40.0 MiB     10000    4.0 MiB  demo.c:42 func:count
 *
 * GROWTH is the change of live bytes since the previous refresh.  A
 * report or /proc/allocinfo is read again at each refresh; a process's
 * live file is mapped once.  Keys: b c g t p s sort by live bytes, blocks,
 * growth, total, peak, site; r reverses; / filters (a substring of the
 * site line; Enter applies, Esc cancels); e toggles exact numbers; space
 * refreshes; + and - change the interval; arrows, PgUp, PgDn, Home
 * scroll; h shows the keys; q quits.  Without a terminal (or with -b) it
 * prints COUNT (default 1) refreshes, one after the other, and exits.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include "commands.h"
#include "live.h"
#include "snapshot.h"

#define DEFAULT_DELAY_NS	1000000000LL
#define MIN_DELAY_NS		100000000LL
#define MAX_DELAY_NS		3600000000000LL
#define HEADER_LINES		4
#define BATCH_WIDTH		200
#define FILTER_MAX		128
#define NUMBER_WIDTH		10

enum sort_key { SORT_BYTES, SORT_BLOCKS, SORT_GROWTH, SORT_TOTAL, SORT_PEAK, SORT_SITE };

static const struct {
	char key;
	const char *name;
} sort_keys[] = {
	[SORT_BYTES] = { 'b', "live bytes" }, [SORT_BLOCKS] = { 'c', "live blocks" },
	[SORT_GROWTH] = { 'g', "growth" }, [SORT_TOTAL] = { 't', "total bytes" },
	[SORT_PEAK] = { 'p', "peak bytes" }, [SORT_SITE] = { 's', "site" },
};

struct row {
	const struct site *site;
	int64_t growth;
	int has_growth;
};

struct top {
	const char *what;	/* the argument */
	long pid;		/* a live process, or 0 for a file */
	struct live live;
	struct snapshot now, before;	/* before: sorted by place, for the growth */
	int have_before, exited;
	char error[256];	/* the last refresh's trouble, kept on screen */
	struct row *rows;
	size_t nrows;
	enum sort_key sort;
	int reverse, exact, help, batch;
	char filter[FILTER_MAX];
	int editing;		/* the filter prompt is open */
	char edit[FILTER_MAX];
	size_t scroll;
	int64_t delay;
	unsigned refreshes;
	int rows_on_screen, cols;
};

/* ---- the terminal ------------------------------------------------------- */

static struct termios saved_termios;
static int terminal_raw;
static volatile sig_atomic_t quit_requested, resized, suspend_requested;

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
	write_all(STDOUT_FILENO, "\033[?1049h\033[?25l", 14);
}

static void terminal_leave(void)
{
	if (!terminal_raw)
		return;
	write_all(STDOUT_FILENO, "\033[?25h\033[?1049l", 14);
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
	if (t->pid)
		return live_read(&t->live, s);
	return snapshot_read(s, t->what);
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

/* A new reading: the growth is against the one before. */
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
	if (t->pid && (s.exited || live_exited(&t->live)))
		t->exited = 1;
}

/* ---- the rows ----------------------------------------------------------- */

static void tag_line(struct buf *b, const struct site *site)
{
	b->len = 0;
	site_tag_info(b, site, 1);
}

static int matches(const struct top *t, const struct site *site, struct buf *scratch)
{
	if (!t->filter[0])
		return 1;
	tag_line(scratch, site);
	return strcasestr(scratch->data, t->filter) != NULL;
}

static struct top *sorting;

static int64_t sort_value(const struct row *r)
{
	switch (sorting->sort) {
	case SORT_BLOCKS: return r->site->calls;
	case SORT_GROWTH: return r->growth;
	case SORT_TOTAL: return r->site->total_bytes;
	case SORT_PEAK: return r->site->peak;
	default: return r->site->bytes;
	}
}

static int cmp_rows(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;
	int c;

	if (sorting->sort == SORT_SITE) {
		c = site_cmp_place(a->site, b->site);
	} else {
		int64_t x = sort_value(a), y = sort_value(b);

		c = x != y ? (x > y ? -1 : 1) : site_cmp_report(a->site, b->site);
	}
	return sorting->reverse ? -c : c;
}

static void make_rows(struct top *t)
{
	struct buf scratch = { 0 };

	free(t->rows);
	t->rows = xcalloc(t->now.n + 1, sizeof(*t->rows));
	t->nrows = 0;
	for (size_t i = 0; i < t->now.n; i++) {
		const struct site *site = &t->now.sites[i], *old;
		struct row *r;

		if (!matches(t, site, &scratch))
			continue;
		r = &t->rows[t->nrows++];
		r->site = site;
		if (t->have_before) {
			old = find_before(t, site);
			r->growth = site->bytes - (old ? old->bytes : 0);
			r->has_growth = 1;
		}
	}
	sorting = t;
	qsort(t->rows, t->nrows, sizeof(*t->rows), cmp_rows);
	buf_free(&scratch);
}

/* ---- drawing ------------------------------------------------------------ */

static const char *bytes_text(const struct top *t, char *out, size_t size, int64_t v, int known)
{
	if (!known)
		return "-";
	if (t->exact)
		snprintf(out, size, "%lld", (long long)v);
	else
		human_bytes(out, size, v);
	return out;
}

static const char *count_text(const struct top *t, char *out, size_t size, int64_t v, int known)
{
	if (!known)
		return "-";
	if (t->exact)
		snprintf(out, size, "%lld", (long long)v);
	else
		human_count(out, size, v);
	return out;
}

static const char *growth_text(const struct top *t, char *out, size_t size, const struct row *r)
{
	char v[24];

	if (!r->has_growth)
		return "";
	if (!r->growth)
		return "0";
	bytes_text(t, v, sizeof(v), r->growth < 0 ? -r->growth : r->growth, 1);
	snprintf(out, size, "%c%s", r->growth < 0 ? '-' : '+', v);
	return out;
}

/* One screen line: TEXT cut to the width, then "clear to the end of line". */
static void put_line(struct top *t, struct buf *out, const char *text)
{
	size_t n = strlen(text);

	if (n > (size_t)t->cols)
		n = t->cols;
	buf_add(out, text, n);
	buf_puts(out, t->batch ? "\n" : "\033[K\r\n");
}

static void put_header(struct top *t, struct buf *out)
{
	struct buf line = { 0 };
	int64_t bytes = 0, calls = 0, total = 0, total_calls = 0, growth = 0;
	char a[32], b[32], c[32], d[32], when[32];
	time_t now = time(NULL);

	strftime(when, sizeof(when), "%H:%M:%S", localtime(&now));
	for (size_t i = 0; i < t->now.n; i++) {
		bytes += t->now.sites[i].bytes;
		calls += t->now.sites[i].calls;
		total += t->now.sites[i].total_bytes;
		total_calls += t->now.sites[i].total_calls;
	}
	for (size_t i = 0; i < t->before.n && t->have_before; i++)
		growth -= t->before.sites[i].bytes;
	buf_printf(&line, "alloctag top - %s", t->now.program ? t->now.program : t->what);
	if (t->now.pid)
		buf_printf(&line, " (pid %ld)", t->now.pid);
	buf_printf(&line, " - %s - every %gs%s", when, t->delay / 1e9, t->exited ? " - exited" : "");
	put_line(t, out, line.data);

	line.len = 0;
	buf_printf(&line, "live %s in %s blocks", bytes_text(t, a, sizeof(a), bytes, 1),
		   count_text(t, b, sizeof(b), calls, 1));
	if (t->have_before)
		buf_printf(&line, " (%s%s)", bytes + growth < 0 ? "-" : "+",
			   bytes_text(t, c, sizeof(c), bytes + growth < 0 ? -(bytes + growth) : bytes + growth, 1));
	if (t->now.has_totals)
		buf_printf(&line, "; total %s in %s calls", bytes_text(t, d, sizeof(d), total, 1),
			   count_text(t, a, sizeof(a), total_calls, 1));
	put_line(t, out, line.data);

	line.len = 0;
	if (t->editing)
		buf_printf(&line, "filter: %s_", t->edit);
	else if (t->error[0])
		buf_printf(&line, "%s", t->error);
	else {
		buf_printf(&line, "%zu sites, %zu shown", t->now.n, t->nrows);
		if (t->filter[0])
			buf_printf(&line, " (filter \"%s\")", t->filter);
		buf_printf(&line, "; sorted by %s%s; h for keys", sort_keys[t->sort].name,
			   t->reverse ? ", reversed" : "");
	}
	put_line(t, out, line.data);
	buf_free(&line);
}

static void put_rows(struct top *t, struct buf *out, size_t max_rows)
{
	struct buf line = { 0 }, tag = { 0 };
	int known = t->now.has_totals;

	buf_printf(&line, "%*s %*s %*s %*s %*s %*s  %s", NUMBER_WIDTH, "LIVE", 8, "BLOCKS",
		   NUMBER_WIDTH, "GROWTH", NUMBER_WIDTH, "TOTAL", 9, "CALLS", NUMBER_WIDTH, "PEAK", "SITE");
	put_line(t, out, line.data);
	if (t->scroll > t->nrows)
		t->scroll = t->nrows;
	for (size_t i = t->scroll; i < t->nrows && i - t->scroll < max_rows; i++) {
		const struct row *r = &t->rows[i];
		char a[32], b[32], c[32], d[32], e[32], f[32];

		tag_line(&tag, r->site);
		line.len = 0;
		buf_printf(&line, "%*s %*s %*s %*s %*s %*s  %s",
			   NUMBER_WIDTH, bytes_text(t, a, sizeof(a), r->site->bytes, 1),
			   8, count_text(t, b, sizeof(b), r->site->calls, 1),
			   NUMBER_WIDTH, growth_text(t, c, sizeof(c), r),
			   NUMBER_WIDTH, bytes_text(t, d, sizeof(d), r->site->total_bytes, known),
			   9, count_text(t, e, sizeof(e), r->site->total_calls, known),
			   NUMBER_WIDTH, bytes_text(t, f, sizeof(f), r->site->peak, known), tag.data);
		put_line(t, out, line.data);
	}
	buf_free(&line);
	buf_free(&tag);
}

static void put_help(struct top *t, struct buf *out)
{
	static const char *const lines[] = {
		"keys:",
		"  b c g t p s   sort by live bytes, live blocks, growth, total bytes, peak, site",
		"  r             reverse the order",
		"  /             filter: the sites whose line holds the text (Enter applies, Esc cancels)",
		"  e             exact numbers / short ones",
		"  space         refresh now",
		"  + -           refresh less / more often",
		"  arrows, PgUp, PgDn, Home   scroll",
		"  h ?           this help (any key goes back)",
		"  q             quit",
	};

	for (size_t i = 0; i < ARRAY_SIZE(lines); i++)
		put_line(t, out, lines[i]);
}

static void draw(struct top *t)
{
	struct buf out = { 0 };
	size_t room = t->rows_on_screen > HEADER_LINES ? t->rows_on_screen - HEADER_LINES : 1;

	if (!t->batch)
		buf_puts(&out, "\033[H");
	put_header(t, &out);
	if (t->help)
		put_help(t, &out);
	else
		put_rows(t, &out, t->batch ? (size_t)-1 : room);
	if (!t->batch)
		buf_puts(&out, "\033[J");
	write_all(STDOUT_FILENO, out.data, out.len);
	buf_free(&out);
}

/* ---- keys --------------------------------------------------------------- */

static void edit_key(struct top *t, int c)
{
	size_t n = strlen(t->edit);

	if (c == '\r' || c == '\n') {
		snprintf(t->filter, sizeof(t->filter), "%s", t->edit);
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

/* The keys read; *REFRESH set when a new reading is wanted now. */
static void handle_keys(struct top *t, const char *k, size_t n, int *refresh)
{
	size_t page = t->rows_on_screen > HEADER_LINES ? t->rows_on_screen - HEADER_LINES : 1;

	for (size_t i = 0; i < n; i++) {
		char c = k[i];

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
		if (c == 27 && i + 2 < n && k[i + 1] == '[') {
			char code = k[i + 2];

			i += 2;
			if (code >= '0' && code <= '9' && i + 1 < n && k[i + 1] == '~')
				i++;
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
			continue;
		}
		for (size_t s = 0; s < ARRAY_SIZE(sort_keys); s++)
			if (c == sort_keys[s].key) {
				t->sort = s;
				t->scroll = 0;
			}
		switch (c) {
		case 'q': quit_requested = 1; break;
		case 'r': t->reverse = !t->reverse; break;
		case 'e': t->exact = !t->exact; break;
		case 'h': case '?': t->help = 1; break;
		case ' ': *refresh = 1; break;
		case '+': t->delay = t->delay * 2 > MAX_DELAY_NS ? MAX_DELAY_NS : t->delay * 2; break;
		case '-': t->delay = t->delay / 2 < MIN_DELAY_NS ? MIN_DELAY_NS : t->delay / 2; break;
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
	t->cols = BATCH_WIDTH;
	for (unsigned i = 0; i < count && !quit_requested; i++) {
		if (i) {
			struct timespec ts = { t->delay / 1000000000, t->delay % 1000000000 };

			nanosleep(&ts, NULL);
			refresh(t);
			write_all(STDOUT_FILENO, "\n", 1);
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
	int64_t next = now_ns(CLOCK_MONOTONIC) + t->delay;

	terminal_enter();
	terminal_size(t);
	make_rows(t);
	draw(t);
	while (!quit_requested && (!count || t->refreshes < count)) {
		struct pollfd pfd = { STDIN_FILENO, POLLIN, 0 };
		int64_t wait = next - now_ns(CLOCK_MONOTONIC);
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
		if (refresh_now || now_ns(CLOCK_MONOTONIC) >= next) {
			refresh(t);
			next = now_ns(CLOCK_MONOTONIC) + t->delay;
		}
		if (!quit_requested) {
			make_rows(t);
			draw(t);
		}
	}
	terminal_leave();
}

static int parse_sort(const char *s)
{
	for (size_t i = 0; i < ARRAY_SIZE(sort_keys); i++)
		if ((s[0] == sort_keys[i].key && !s[1]) || !strcmp(s, sort_keys[i].name))
			return (int)i;
	return -1;
}

int cmd_top(int argc, char **argv)
{
	static struct top t;
	uint64_t count = 0;
	int c, sort;

	static const struct option options[] = {
		{ "delay", required_argument, NULL, 'd' },
		{ "sort", required_argument, NULL, 's' },
		{ "filter", required_argument, NULL, 'f' },
		{ "iterations", required_argument, NULL, 'n' },
		{ "batch", no_argument, NULL, 'b' },
		{ 0 } };

	t.delay = DEFAULT_DELAY_NS;
	while ((c = command_option("top", argc, argv, "d:s:f:n:b", options)) != -1) {
		if (c == 'd' && ((t.delay = parse_duration(optarg)) < MIN_DELAY_NS || t.delay > MAX_DELAY_NS))
			fail("-d %s: not a delay from 0.1 s to an hour", optarg);
		else if (c == 's' && (sort = parse_sort(optarg)) < 0)
			fail("-s %s: sort by b (live bytes), c (live blocks), g (growth), t (total bytes), "
			     "p (peak bytes) or s (site)", optarg);
		else if (c == 's')
			t.sort = sort;
		else if (c == 'f')
			snprintf(t.filter, sizeof(t.filter), "%s", optarg);
		else if (c == 'n' && (parse_u64(optarg, &count) || !count || count > 1000000))
			fail("-n %s: not a count of refreshes", optarg);
		else if (c == 'b')
			t.batch = 1;
	}
	if (optind < argc - 1)
		usage_of("top");
	t.what = optind < argc ? argv[optind] : "/proc/allocinfo";
	if (is_pid_argument(t.what, &t.pid) && live_open(&t.live, t.pid))
		fail_error();
	if (read_now(&t, &t.now))
		fail_error();
	t.refreshes = 1;
	if (t.pid && (t.now.exited || live_exited(&t.live)))
		t.exited = 1;
	handle_signals();
	if (t.batch || !isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO)) {
		t.batch = 1;
		run_batch(&t, count ? count : 1);
	} else {
		run_screen(&t, count);
	}
	if (t.pid)
		live_close(&t.live);
	return 0;
}
