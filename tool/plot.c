/* SPDX-License-Identifier: MIT */
/*
 * plot.c: `alloctag plot [-o FILE] [-n SITES] (TIMELINE | REPORT | PID)`:
 * one self-contained HTML page (inline SVG and CSS, no script, nothing
 * fetched): the live bytes of the SITES (default 8) sites that held the
 * most, and of all sites together, over time, the highest point of the
 * total marked; then a table of every site.  From a single report (or a
 * process now) the chart is a bar per site instead.
 *
 * The chart's geometry is fixed (CHART_*), so that a test can find its
 * lines in a screenshot: site k is drawn in palette[k], the total in
 * TOTAL_COLOR, 2 pixels wide, over a white plot area.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "commands.h"
#include "snapshot.h"
#include "timeline.h"

#define CHART_WIDTH	960
#define CHART_HEIGHT	420
#define PLOT_LEFT	90
#define PLOT_RIGHT	940
#define PLOT_TOP	30
#define PLOT_BOTTOM	380
#define DEFAULT_SITES	8
#define TOTAL_COLOR	"#333333"
#define BAR_HEIGHT	22
#define HEADROOM	1.08

/* Tableau 10: distinct, and readable on white. */
static const char *const palette[] = { "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
				       "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac" };

static void html_text(struct buf *b, const char *s)
{
	for (; s && *s; s++)
		switch (*s) {
		case '&': buf_puts(b, "&amp;"); break;
		case '<': buf_puts(b, "&lt;"); break;
		case '>': buf_puts(b, "&gt;"); break;
		case '"': buf_puts(b, "&quot;"); break;
		default: buf_add(b, s, 1);
		}
}

static void html_place(struct buf *b, const struct site *site)
{
	struct buf t = { 0 };

	buf_printf(&t, "%s:%u", site->file, site->line);
	if (site->column)
		buf_printf(&t, ":%u", site->column);
	html_text(b, t.data);
	buf_free(&t);
}

/* 1234567 as "1,234,567". */
static void grouped(struct buf *b, int64_t v)
{
	char digits[32];
	int n = snprintf(digits, sizeof(digits), "%lld", (long long)(v < 0 ? -v : v));

	if (v < 0)
		buf_puts(b, "-");
	for (int i = 0; i < n; i++) {
		buf_add(b, &digits[i], 1);
		if ((n - i - 1) % 3 == 0 && i != n - 1)
			buf_puts(b, ",");
	}
}

/* ---- scales ------------------------------------------------------------- */

/* A step of 1, 2 or 5 times a power of ten, giving about TICKS ticks up to MAX. */
static double nice_step(double max, int ticks)
{
	double raw = max / ticks, p = pow(10, floor(log10(raw)));

	return raw <= p ? p : raw <= 2 * p ? 2 * p : raw <= 5 * p ? 5 * p : 10 * p;
}

struct byte_axis {
	double unit;		/* 1, 1024, 1024^2 ... */
	const char *name;	/* "B", "KiB", ... */
	double step, max;	/* in units */
};

static struct byte_axis byte_axis(int64_t max_bytes)
{
	static const char *const names[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	struct byte_axis a = { 1, names[0], 1, 1 };
	double max = max_bytes > 0 ? (double)max_bytes : 1;

	for (size_t i = 1; i < ARRAY_SIZE(names) && max / a.unit >= 1024; i++) {
		a.unit *= 1024;
		a.name = names[i];
	}
	a.step = nice_step(max / a.unit, 5);
	a.max = ceil(max * HEADROOM / a.unit / a.step) * a.step;	/* room for the peak's label */
	return a;
}

static double y_of(const struct byte_axis *a, int64_t bytes)
{
	return PLOT_BOTTOM - (double)bytes / a->unit / a->max * (PLOT_BOTTOM - PLOT_TOP);
}

static void label_number(char *out, size_t size, double v, double step)
{
	int decimals = step >= 1 || v == 0 ? 0 : (int)ceil(-log10(step) - 1e-9);

	snprintf(out, size, "%.*f", decimals, v);
}

/* ---- the page ----------------------------------------------------------- */

static void page_start(struct buf *b, const char *title)
{
	buf_puts(b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>");
	html_text(b, title);
	buf_puts(b, "</title>\n<style>\n"
		"body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;margin:24px;color:#222;background:#fff}\n"
		"h1{font-size:20px;margin:0 0 4px}\n"
		"p.summary{margin:0 0 12px;color:#444}\n"
		"svg{display:block;background:#fff}\n"
		"svg text{font:12px system-ui,sans-serif;fill:#444}\n"
		".legend{margin:8px 0 20px;padding:0;list-style:none}\n"
		".legend li{display:inline-block;margin-right:18px;font-family:monospace}\n"
		".sw{display:inline-block;width:12px;height:12px;margin-right:6px;vertical-align:-1px}\n"
		"table{border-collapse:collapse;font-size:13px}\n"
		"th{background:#dde3ee;text-align:right;padding:4px 8px;border-bottom:2px solid #9aa7bd;white-space:nowrap}\n"
		"th.l,td.l{text-align:left}\n"
		"td{padding:2px 8px;text-align:right;border-bottom:1px solid #eee;font-variant-numeric:tabular-nums}\n"
		"td.l{font-family:monospace}\n"
		"tr:nth-child(even) td{background:#f6f7f9}\n"
		"</style></head><body>\n");
}

static void put_svg_start(struct buf *b, const char *label)
{
	buf_printf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		   "viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"", CHART_WIDTH, CHART_HEIGHT,
		   CHART_WIDTH, CHART_HEIGHT);
	html_text(b, label);
	buf_puts(b, "\">\n");
}

static void put_y_axis(struct buf *b, const struct byte_axis *a)
{
	char label[32];

	for (double v = 0; v <= a->max + a->step / 2; v += a->step) {
		double y = PLOT_BOTTOM - v / a->max * (PLOT_BOTTOM - PLOT_TOP);

		label_number(label, sizeof(label), v, a->step);
		buf_printf(b, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" "
			   "shape-rendering=\"crispEdges\"/>\n", PLOT_LEFT, y, PLOT_RIGHT, y,
			   v == 0 ? "#888" : "#e4e4e4");
		buf_printf(b, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s %s</text>\n",
			   PLOT_LEFT - 8, y + 4, label, a->name);
	}
}

struct series {
	size_t site;		/* index in the timeline's sites */
	const char *color;
};

/* Which sites to draw: the N that held the most live bytes at some sample. */
static size_t top_sites(const struct timeline *tl, struct series *out, size_t n)
{
	size_t count = 0;

	for (size_t i = 0; i < tl->nsites; i++) {
		size_t k;

		if (tl->max_live[i] <= 0)
			continue;
		for (k = count; k > 0 && tl->max_live[out[k - 1].site] < tl->max_live[i]; k--)
			if (k < n)
				out[k] = out[k - 1];
		if (k < n) {
			out[k].site = i;
			if (count < n)
				count++;
		}
	}
	for (size_t k = 0; k < count; k++)
		out[k].color = palette[k % ARRAY_SIZE(palette)];
	return count;
}

/* The time axis runs from the start of the recording (t = 0) to the last sample. */
static double x_of(const struct timeline *tl, int64_t t)
{
	int64_t span = tl->samples[tl->nsamples - 1].t;

	if (span <= 0)
		return (PLOT_LEFT + PLOT_RIGHT) / 2.0;
	return PLOT_LEFT + (double)t / span * (PLOT_RIGHT - PLOT_LEFT);
}

static void put_x_axis(struct buf *b, const struct timeline *tl)
{
	double first = 0, span = tl->samples[tl->nsamples - 1].t / 1e9;
	double step = nice_step(span > 0 ? span : 1, 8);
	char label[32];

	for (double v = ceil(first / step) * step; span > 0 && v <= first + span + step / 1e6; v += step) {
		double x = x_of(tl, (int64_t)(v * 1e9));

		label_number(label, sizeof(label), v, step);
		buf_printf(b, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#888\" "
			   "shape-rendering=\"crispEdges\"/>\n", x, PLOT_BOTTOM, x, PLOT_BOTTOM + 5);
		buf_printf(b, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s s</text>\n", x,
			   PLOT_BOTTOM + 20, label);
	}
}

/* The total's line and the sites' lines, replaying the samples once. */
static void put_lines(struct buf *b, const struct timeline *tl, const struct byte_axis *a,
		      const struct series *series, size_t nseries)
{
	struct buf *points = xcalloc(nseries, sizeof(*points));
	struct buf total = { 0 };
	struct timeline_cursor c;

	timeline_cursor_init(&c, tl);
	for (size_t i = 0; i < tl->nsamples; i++) {
		double x = x_of(tl, tl->samples[i].t);

		timeline_cursor_seek(&c, tl, i);
		buf_printf(&total, "%.1f,%.1f ", x, y_of(a, tl->samples[i].total_bytes));
		for (size_t k = 0; k < nseries; k++)
			buf_printf(&points[k], "%.1f,%.1f ", x,
				   y_of(a, c.values[series[k].site * TIMELINE_VALUES]));
	}
	timeline_cursor_free(&c);
	buf_printf(b, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" stroke-dasharray=\"6 3\" "
		   "points=\"%s\"/>\n", TOTAL_COLOR, total.data ? total.data : "");
	for (size_t k = nseries; k-- > 0;) {
		buf_printf(b, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"%s\"/>\n",
			   series[k].color, points[k].data ? points[k].data : "");
		buf_free(&points[k]);
	}
	free(points);
	buf_free(&total);
}

static void put_peak(struct buf *b, const struct timeline *tl, const struct byte_axis *a)
{
	size_t p = timeline_peak_sample(tl);
	double x = x_of(tl, tl->samples[p].t), y = y_of(a, tl->samples[p].total_bytes);
	char size[32];
	int right = x > (PLOT_LEFT + PLOT_RIGHT) / 2;

	human_bytes(size, sizeof(size), tl->samples[p].total_bytes);
	buf_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" "
		   "stroke-dasharray=\"2 3\"/>\n", x, y, x, PLOT_BOTTOM, TOTAL_COLOR);
	buf_printf(b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"#fff\" stroke=\"%s\" "
		   "stroke-width=\"2\"/>\n", x, y, TOTAL_COLOR);
	buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" style=\"font-weight:600\">"
		   "peak %s at %.2f s</text>\n", right ? x - 9 : x + 9, y < PLOT_TOP + 14 ? y + 18 : y - 10,
		   right ? "end" : "start", size, tl->samples[p].t / 1e9);
}

static void put_legend(struct buf *b, const struct site *sites, const struct series *series,
		       size_t nseries, int with_total)
{
	buf_puts(b, "<ul class=\"legend\">\n");
	if (with_total)
		buf_printf(b, "<li><span class=\"sw\" style=\"background:%s\"></span>all sites</li>\n",
			   TOTAL_COLOR);
	for (size_t k = 0; k < nseries; k++) {
		const struct site *site = &sites[series[k].site];

		buf_printf(b, "<li><span class=\"sw\" style=\"background:%s\"></span>", series[k].color);
		html_place(b, site);
		buf_puts(b, " ");
		html_text(b, site->function);
		buf_puts(b, "</li>\n");
	}
	buf_puts(b, "</ul>\n");
}

static void put_timeline_chart(struct buf *b, const struct timeline *tl, size_t nsites_shown)
{
	struct series *series = xcalloc(nsites_shown ? nsites_shown : 1, sizeof(*series));
	size_t nseries = top_sites(tl, series, nsites_shown);
	size_t peak = timeline_peak_sample(tl);
	struct byte_axis a = byte_axis(tl->samples[peak].total_bytes);

	put_svg_start(b, "live bytes over time");
	put_y_axis(b, &a);
	put_x_axis(b, tl);
	put_lines(b, tl, &a, series, nseries);
	put_peak(b, tl, &a);
	buf_puts(b, "</svg>\n");
	put_legend(b, tl->sites, series, nseries, 1);
	free(series);
}

/* From one report: a bar per site, largest first (S is sorted so). */
static void put_bar_chart(struct buf *b, const struct snapshot *s, size_t nsites_shown)
{
	size_t n = 0;
	struct byte_axis a;
	char size[32];

	while (n < s->n && n < nsites_shown && s->sites[n].bytes > 0)
		n++;
	a = byte_axis(n ? s->sites[0].bytes : 1);
	buf_printf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%zu\" role=\"img\" "
		   "aria-label=\"live bytes by site\">\n", CHART_WIDTH, 20 + n * (BAR_HEIGHT + 8));
	for (size_t i = 0; i < n; i++) {
		const struct site *site = &s->sites[i];
		double w = (double)site->bytes / a.unit / a.max * (PLOT_RIGHT - 300);
		size_t y = 10 + i * (BAR_HEIGHT + 8);

		buf_printf(b, "<rect x=\"300\" y=\"%zu\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>\n", y,
			   w < 1 ? 1 : w, BAR_HEIGHT, palette[i % ARRAY_SIZE(palette)]);
		buf_printf(b, "<text x=\"292\" y=\"%zu\" text-anchor=\"end\" style=\"font-family:monospace\">",
			   y + 15);
		html_place(b, site);
		buf_puts(b, " ");
		html_text(b, site->function);
		buf_printf(b, "</text>\n<text x=\"%.1f\" y=\"%zu\">%s</text>\n", 306 + w, y + 15,
			   human_bytes(size, sizeof(size), site->bytes));
	}
	buf_puts(b, "</svg>\n");
}

/* ---- the table ---------------------------------------------------------- */

static void put_number_cell(struct buf *b, int64_t v, int known)
{
	buf_puts(b, "<td>");
	if (known)
		grouped(b, v);
	else
		buf_puts(b, "&ndash;");
	buf_puts(b, "</td>");
}

/* Every site of S (sorted); MAX_LIVE by S's order, or NULL. */
static void put_table(struct buf *b, const struct snapshot *s, const int64_t *max_live)
{
	buf_puts(b, "<table>\n<tr><th class=\"l\">site</th><th class=\"l\">function</th>"
		    "<th class=\"l\">callee</th><th class=\"l\">module</th><th>live bytes</th>"
		    "<th>live blocks</th><th>total bytes</th><th>total calls</th><th>peak bytes</th>");
	if (max_live)
		buf_puts(b, "<th>most in a sample</th>");
	buf_puts(b, "</tr>\n");
	for (size_t i = 0; i < s->n; i++) {
		const struct site *site = &s->sites[i];

		buf_puts(b, "<tr><td class=\"l\">");
		html_place(b, site);
		buf_puts(b, "</td><td class=\"l\">");
		html_text(b, site->function);
		buf_puts(b, "</td><td class=\"l\">");
		html_text(b, site->callee);
		buf_puts(b, "</td><td class=\"l\">");
		html_text(b, site->module);
		buf_puts(b, "</td>");
		put_number_cell(b, site->bytes, 1);
		put_number_cell(b, site->calls, 1);
		put_number_cell(b, site->total_bytes, s->has_totals);
		put_number_cell(b, site->total_calls, s->has_totals);
		put_number_cell(b, site->peak, s->has_totals);
		if (max_live)
			put_number_cell(b, max_live[i], 1);
		buf_puts(b, "</tr>\n");
	}
	buf_puts(b, "</table>\n</body></html>\n");
}

static void put_title(struct buf *b, const char *program, long pid, const char *what)
{
	struct buf title = { 0 };

	buf_printf(&title, "%s", program ? program : what);
	if (pid)
		buf_printf(&title, " (pid %ld)", pid);
	page_start(b, title.data);
	buf_puts(b, "<h1>");
	html_text(b, title.data);
	buf_puts(b, "</h1>\n");
	buf_free(&title);
}

static int64_t sum_bytes(const struct snapshot *s, int64_t *calls)
{
	int64_t bytes = 0;

	*calls = 0;
	for (size_t i = 0; i < s->n; i++) {
		bytes += s->sites[i].bytes;
		*calls += s->sites[i].calls;
	}
	return bytes;
}

static void plot_timeline(struct buf *b, const struct timeline *tl, const char *what, size_t nshown)
{
	struct snapshot last;
	int64_t *max_live, calls, bytes;
	size_t peak = timeline_peak_sample(tl);
	char peak_size[32], end_size[32], interval[32];

	timeline_state(tl, tl->nsamples - 1, &last);
	snapshot_sort(&last, site_cmp_report);
	max_live = xcalloc(last.n + 1, sizeof(*max_live));
	for (size_t i = 0; i < last.n; i++)
		max_live[i] = tl->max_live[tl->index_of[last.sites[i].id] - 1];
	bytes = sum_bytes(&last, &calls);
	put_title(b, tl->program, tl->pid, what);
	snprintf(interval, sizeof(interval), "%g ms", tl->interval_ns * (double)tl->stride / 1e6);
	buf_printf(b, "<p class=\"summary\">%zu samples over %.2f s (one every %s); peak %s at %.2f s; "
		   "%s %s in %lld blocks; %zu sites.</p>\n", tl->nsamples,
		   (tl->samples[tl->nsamples - 1].t - tl->samples[0].t) / 1e9, interval,
		   human_bytes(peak_size, sizeof(peak_size), tl->samples[peak].total_bytes),
		   tl->samples[peak].t / 1e9, tl->exited ? "at exit" : "at the end",
		   human_bytes(end_size, sizeof(end_size), bytes), (long long)calls, last.n);
	put_timeline_chart(b, tl, nshown);
	put_table(b, &last, max_live);
	free(max_live);
	snapshot_clear(&last);
}

static void plot_snapshot(struct buf *b, struct snapshot *s, const char *what, size_t nshown)
{
	int64_t calls, bytes = sum_bytes(s, &calls);
	char size[32];

	snapshot_sort(s, site_cmp_report);
	put_title(b, s->program, s->pid, what);
	buf_printf(b, "<p class=\"summary\">%s in %lld blocks; %zu sites.</p>\n",
		   human_bytes(size, sizeof(size), bytes), (long long)calls, s->n);
	put_bar_chart(b, s, nshown);
	put_table(b, s, NULL);
}

int cmd_plot(int argc, char **argv)
{
	static const struct option options[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "sites", required_argument, NULL, 'n' },
		{ 0 } };
	const char *output = NULL, *what;
	uint64_t nshown = DEFAULT_SITES;
	struct buf page = { 0 }, text = { 0 };
	long pid;
	int c;

	while ((c = command_option("plot", argc, argv, "o:n:", options)) != -1) {
		if (c == 'o')
			output = optarg;
		else if (c == 'n' && (parse_u64(optarg, &nshown) || !nshown || nshown > 1000))
			fail("-n %s: not a number of sites from 1 to 1000", optarg);
	}
	if (optind != argc - 1 || !output)
		usage_of("plot");
	what = argv[optind];
	if (!is_pid_argument(what, &pid) && read_file(what, &text) == 0 && is_timeline_text(text.data, text.len)) {
		struct timeline tl;

		if (timeline_load(&tl, text.data, text.len, what))
			fail_error();
		if (!tl.nsamples)
			fail("%s: a timeline without samples", what);
		plot_timeline(&page, &tl, what, nshown);
		timeline_free(&tl);
	} else {
		struct snapshot s;

		if (snapshot_read(&s, what))
			fail_error();
		plot_snapshot(&page, &s, what, nshown);
		snapshot_clear(&s);
	}
	buf_free(&text);
	if (write_file(output, &page))
		fail_error();
	buf_free(&page);
	return 0;
}
