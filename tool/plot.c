/* SPDX-License-Identifier: MIT */
/*
 * plot.c: `alloctag plot [-o FILE] [-n SITES] WHAT...`: one self-contained
 * HTML page (inline SVG and CSS, no script, nothing fetched) that fits any
 * window's width.
 *
 * One timeline: a chart over time of the SITES (default 8) sites that held
 * the most and of all sites together, the highest point of the total
 * marked; what it draws is chosen on the page: live bytes or the bytes
 * allocated per second (a site that allocates and frees a gigabyte a
 * second holds little, but shows there), a linear or a log scale, lines or
 * stacked areas.  Each of the eight is a section of the page, shown when
 * the page's address names it (#rate-log-stacked: the links above the
 * chart, CSS's :target) and #live-linear-lines by default.  Then a table
 * of every site (its numbers for people, each exactly in its title: what a
 * pointer over it shows).  One report (or a process now): a bar per site.
 *
 * Several: compared on one page.  Timelines: the total of each over time
 * (live or rate, linear or log); otherwise a bar per run for each site.
 * Then a table of every site with each one's live and total bytes.
 *
 * The chart's geometry is fixed in its own coordinates (CHART_*, scaled to
 * the width by the browser), so that a test finds its lines in a
 * screenshot: site k is drawn in palette[k], the total in TOTAL_COLOR,
 * 2 pixels wide, over a white plot area.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "format.h"
#include "source.h"
#include "timeline.h"
#include "views.h"

#define CHART_WIDTH	960
#define CHART_HEIGHT	420
#define PLOT_LEFT	96
#define PLOT_RIGHT	940
#define PLOT_TOP	30
#define PLOT_BOTTOM	380
#define TOTAL_COLOR	"#333333"
#define OTHERS_COLOR	"#d0d0d0"
#define BAR_HEIGHT	22
#define BAR_LEFT	300
#define HEADROOM	1.08
#define LOG_TICKS_MAX	8

/* Tableau 10: distinct, and readable on white. */
static const char *const palette[] = { "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
				       "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac" };

#define COLOR(k)	palette[(k) % ARRAY_SIZE(palette)]
#define RUN_LABEL(k)	('A' + (int)(k))	/* runs compared: A, B, ... (at most 10) */

/* ---- HTML ---------------------------------------------------------------- */

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
	if (site->inaccurate)
		buf_puts(&t, " (" ALLOCINFO_INACCURATE ")");
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

static void page_start(struct buf *b, const char *title)
{
	buf_puts(b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
		    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
	html_text(b, title);
	buf_puts(b, "</title>\n<style>\n"
		"body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;margin:24px;color:#222;background:#fff}\n"
		"h1{font-size:20px;margin:0 0 4px;overflow-wrap:anywhere}\n"
		"p.summary{margin:0 0 12px;color:#444}\n"
		"svg{display:block;background:#fff;width:100%;height:auto;max-height:75vh}\n"
		"svg text{font:12px system-ui,sans-serif;fill:#444}\n"
		".chart{display:none}.chart:target,.chart.default{display:block}.chart:target~.chart.default{display:none}\n"
		".menu{margin:0 0 6px;font-size:13px}.menu span{color:#666;margin-right:4px}\n"
		".menu a{display:inline-block;padding:1px 8px;margin:0 2px 4px 0;border:1px solid #9aa7bd;"
		"border-radius:3px;color:#234;text-decoration:none}\n"
		".menu a.on{background:#4e79a7;border-color:#4e79a7;color:#fff}\n"
		".legend{margin:8px 0 20px;padding:0;list-style:none}\n"
		".legend li{display:inline-block;margin-right:18px;font-family:monospace;overflow-wrap:anywhere}\n"
		".sw{display:inline-block;width:12px;height:12px;margin-right:6px;vertical-align:-1px}\n"
		".wide{overflow-x:auto}\n"
		"table{border-collapse:collapse;font-size:13px;width:100%}\n"
		"th{background:#dde3ee;text-align:right;padding:4px 8px;border-bottom:2px solid #9aa7bd;white-space:nowrap}\n"
		"th.l,td.l{text-align:left}\n"
		"td{padding:2px 8px;text-align:right;border-bottom:1px solid #eee;font-variant-numeric:tabular-nums}\n"
		"td.l{font-family:monospace;white-space:nowrap}\n"
		"tr:nth-child(even) td{background:#f6f7f9}\n"
		"</style></head><body>\n");
}

static void page_title(struct buf *b, const char *title)
{
	page_start(b, title);
	buf_puts(b, "<h1>");
	html_text(b, title);
	buf_puts(b, "</h1>\n");
}

/* ---- scales -------------------------------------------------------------- */

/* A step of 1, 2 or 5 times a power of ten, giving about TICKS ticks up to MAX. */
static double nice_step(double max, int ticks)
{
	double raw = max / ticks, p = pow(10, floor(log10(raw)));

	return raw <= p ? p : raw <= 2 * p ? 2 * p : raw <= 5 * p ? 5 * p : 10 * p;
}

/* A y axis of bytes (or bytes per second): linear from 0, or log. */
struct axis {
	int log;
	const char *suffix;	/* "" or "/s" */
	double unit;		/* linear: 1, 1024, 1024^2 ... */
	const char *name;	/* "B", "KiB", ... */
	double step, max;	/* linear: in units */
	int lo, hi, every;	/* log: from 2^lo to 2^hi, a tick every EVERY powers of two */
};

static const char *const unit_names[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };

static struct axis linear_axis(double max, const char *suffix)
{
	struct axis a = { 0, suffix, 1, unit_names[0], 1, 1, 0, 0, 1 };

	max = max > 0 ? max : 1;
	for (size_t i = 1; i < ARRAY_SIZE(unit_names) && max / a.unit >= 1024; i++) {
		a.unit *= 1024;
		a.name = unit_names[i];
	}
	a.step = nice_step(max / a.unit, 5);
	a.max = ceil(max * HEADROOM / a.unit / a.step) * a.step;	/* room for the peak's label */
	return a;
}

/* From the smallest value above 0 to the largest, whole powers of two. */
static struct axis log_axis(double min, double max, const char *suffix)
{
	static const int steps[] = { 1, 2, 4, 10 };
	struct axis a = { 1, suffix, 1, unit_names[0], 0, 0, 0, 1, 1 };

	min = min > 0 ? min : 1;
	max = max > min ? max : min * 2;
	a.lo = (int)floor(log2(min));
	a.hi = (int)ceil(log2(max * HEADROOM));
	for (size_t i = 0; i < ARRAY_SIZE(steps); i++) {
		a.every = steps[i];
		if ((a.hi - a.lo) / a.every <= LOG_TICKS_MAX)
			break;
	}
	a.lo = (int)floor((double)a.lo / a.every) * a.every;
	a.hi = (int)ceil((double)a.hi / a.every) * a.every;
	if (a.hi <= a.lo)
		a.hi = a.lo + a.every;
	return a;
}

static double y_of(const struct axis *a, double v)
{
	double f;

	if (a->log)
		f = v <= 0 ? 0 : (log2(v) - a->lo) / (a->hi - a->lo);
	else
		f = v / a->unit / a->max;
	f = f < 0 ? 0 : f > 1 ? 1 : f;
	return PLOT_BOTTOM - f * (PLOT_BOTTOM - PLOT_TOP);
}

/* "1.5 MiB", "64 KiB/s": V bytes in the unit that keeps it below 1024. */
static void axis_label(char *out, size_t size, double v, double step, const char *suffix)
{
	double unit = 1;
	size_t u = 0;
	int decimals;

	while (u + 1 < ARRAY_SIZE(unit_names) && v >= 1024 * unit) {
		unit *= 1024;
		u++;
	}
	step /= unit;
	decimals = step >= 1 || v == 0 ? 0 : (int)ceil(-log10(step) - 1e-9);
	snprintf(out, size, "%.*f %s%s", decimals, v / unit, unit_names[u], suffix);
}

static void put_grid_line(struct buf *b, double y, const char *label, int zero)
{
	buf_printf(b, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" "
		   "shape-rendering=\"crispEdges\" vector-effect=\"non-scaling-stroke\"/>\n", PLOT_LEFT, y, PLOT_RIGHT, y, zero ? "#888" : "#e4e4e4");
	buf_printf(b, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", PLOT_LEFT - 8, y + 4, label);
}

static void put_y_axis(struct buf *b, const struct axis *a)
{
	char label[48];

	if (a->log) {	/* the bottom line is the lowest tick: what is less, 0 too, is drawn there */
		for (int k = a->lo; k <= a->hi; k += a->every) {
			axis_label(label, sizeof(label), ldexp(1, k), ldexp(1, k), a->suffix);
			put_grid_line(b, y_of(a, ldexp(1, k)), label, k == a->lo);
		}
		return;
	}
	for (double v = 0; v <= a->max + a->step / 2; v += a->step) {
		axis_label(label, sizeof(label), v * a->unit, a->step * a->unit, a->suffix);
		put_grid_line(b, y_of(a, v * a->unit), label, v == 0);
	}
}

/* The time axis runs from the start of the recording (0) to SPAN seconds. */
static double x_of(double span, double t)
{
	if (span <= 0)
		return (PLOT_LEFT + PLOT_RIGHT) / 2.0;
	return PLOT_LEFT + t / span * (PLOT_RIGHT - PLOT_LEFT);
}

static void put_x_axis(struct buf *b, double span)
{
	double step = nice_step(span > 0 ? span : 1, 8);
	char label[32];

	for (double v = 0; span > 0 && v <= span + step / 1e6; v += step) {
		double x = x_of(span, v);
		int decimals = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);

		snprintf(label, sizeof(label), "%.*f", decimals, v);
		buf_printf(b, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#888\" "
			   "shape-rendering=\"crispEdges\"/>\n", x, PLOT_BOTTOM, x, PLOT_BOTTOM + 5);
		buf_printf(b, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s s</text>\n", x,
			   PLOT_BOTTOM + 20, label);
	}
}

/* ---- charts over time ---------------------------------------------------- */

/* What a chart over time draws: N samples at T (seconds), series V[k][i]
 * in COLORS, and the total (lines: dashed above them; stacked: what the
 * series leave is an area of its own, the others). */
struct chart {
	size_t n;
	const double *t;
	double span;
	size_t nseries;
	double **v;
	const char **colors;
	const double *total;	/* NULL: none */
	int rate, log, stacked;
	long peak;		/* the sample whose total to mark, or -1 */
};

static void min_max(const struct chart *c, const double *v, double *min, double *max)
{
	for (size_t i = 0; i < c->n; i++) {
		if (v[i] > *max)
			*max = v[i];
		if (v[i] > 0 && (*min <= 0 || v[i] < *min))
			*min = v[i];
	}
}

static struct axis chart_axis(const struct chart *c)
{
	double min = 0, max = 0;

	for (size_t k = 0; k < c->nseries; k++)
		min_max(c, c->v[k], &min, &max);
	if (c->total)
		min_max(c, c->total, &min, &max);
	return c->log ? log_axis(min, max, c->rate ? "/s" : "") : linear_axis(max, c->rate ? "/s" : "");
}

static void put_points(struct buf *b, const struct chart *c, const struct axis *a, const double *v, int backward)
{
	for (size_t k = 0; k < c->n; k++) {
		size_t i = backward ? c->n - 1 - k : k;

		buf_printf(b, "%.1f,%.1f ", x_of(c->span, c->t[i]), y_of(a, v ? v[i] : 0));
	}
}

static void put_lines(struct buf *b, const struct chart *c, const struct axis *a)
{
	if (c->total) {
		buf_printf(b, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" vector-effect=\"non-scaling-stroke\" stroke-dasharray=\"6 3\" "
			   "points=\"", TOTAL_COLOR);
		put_points(b, c, a, c->total, 0);
		buf_puts(b, "\"/>\n");
	}
	for (size_t k = c->nseries; k-- > 0;) {
		buf_printf(b, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" vector-effect=\"non-scaling-stroke\" points=\"", c->colors[k]);
		put_points(b, c, a, c->v[k], 0);
		buf_puts(b, "\"/>\n");
	}
}

/* Areas, each on the ones before it; the rest of the total on top. */
static void put_stacked(struct buf *b, const struct chart *c, const struct axis *a)
{
	double *below = xcalloc(c->n + 1, sizeof(*below)), *above = xcalloc(c->n + 1, sizeof(*above));

	for (size_t k = 0; k <= c->nseries; k++) {
		const double *v = k < c->nseries ? c->v[k] : c->total;

		if (!v)
			break;
		for (size_t i = 0; i < c->n; i++)
			above[i] = k < c->nseries ? below[i] + v[i] : (v[i] > below[i] ? v[i] : below[i]);
		buf_printf(b, "<polygon fill=\"%s\" stroke=\"none\" points=\"", k < c->nseries ? c->colors[k] : OTHERS_COLOR);
		put_points(b, c, a, above, 0);
		put_points(b, c, a, below, 1);
		buf_puts(b, "\"/>\n");
		memcpy(below, above, c->n * sizeof(*below));
	}
	if (c->total) {
		buf_printf(b, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" vector-effect=\"non-scaling-stroke\" points=\"", TOTAL_COLOR);
		put_points(b, c, a, c->total, 0);
		buf_puts(b, "\"/>\n");
	}
	free(below);
	free(above);
}

static void put_peak(struct buf *b, const struct chart *c, const struct axis *a)
{
	double x = x_of(c->span, c->t[c->peak]), y = y_of(a, c->total[c->peak]);
	char size[32];
	int right = x > (PLOT_LEFT + PLOT_RIGHT) / 2;

	human_bytes(size, sizeof(size), (int64_t)c->total[c->peak]);
	buf_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" "
		   "stroke-dasharray=\"2 3\"/>\n", x, y, x, PLOT_BOTTOM, TOTAL_COLOR);
	buf_printf(b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"#fff\" stroke=\"%s\" "
		   "stroke-width=\"2\" vector-effect=\"non-scaling-stroke\"/>\n", x, y, TOTAL_COLOR);
	buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" style=\"font-weight:600\">"
		   "peak %s at %.2f s</text>\n", right ? x - 9 : x + 9, y < PLOT_TOP + 14 ? y + 18 : y - 10,
		   right ? "end" : "start", size, c->t[c->peak]);
}

static void put_svg_start(struct buf *b, int height, const char *label)
{
	buf_printf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" role=\"img\" "
		   "aria-label=\"", CHART_WIDTH, height);
	html_text(b, label);
	buf_puts(b, "\">\n");
}

static void put_chart(struct buf *b, const struct chart *c)
{
	struct axis a = chart_axis(c);

	put_svg_start(b, CHART_HEIGHT, c->rate ? "bytes allocated per second over time" : "live bytes over time");
	put_y_axis(b, &a);
	put_x_axis(b, c->span);
	if (c->stacked)
		put_stacked(b, c, &a);
	else
		put_lines(b, c, &a);
	if (c->peak >= 0 && c->total)
		put_peak(b, c, &a);
	buf_puts(b, "</svg>\n");
}

/* ---- the eight views of a chart, chosen on the page ---------------------- */

static const char *const view_ids[2][2][2] = {
	{ { "live-linear-lines", "live-linear-stacked" }, { "live-log-lines", "live-log-stacked" } },
	{ { "rate-linear-lines", "rate-linear-stacked" }, { "rate-log-lines", "rate-log-stacked" } },
};

/* A link to the view that differs from (RATE, LOG, STACKED) as asked; ON: it is this one. */
static void put_view_link(struct buf *b, int rate, int log, int stacked, int on, const char *text)
{
	buf_printf(b, "<a href=\"#%s\"%s>%s</a>", view_ids[rate][log][stacked], on ? " class=\"on\"" : "", text);
}

/* The links above a view: what it shows, its scale, lines or areas (WITH_STACKED). */
static void put_menu(struct buf *b, int rate, int log, int stacked, int with_stacked)
{
	buf_puts(b, "<div class=\"menu\"><span>show</span>");
	put_view_link(b, 0, log, stacked, !rate, "live bytes");
	put_view_link(b, 1, log, stacked, rate, "bytes allocated per second");
	buf_puts(b, " <span>scale</span>");
	put_view_link(b, rate, 0, stacked, !log, "linear");
	put_view_link(b, rate, 1, stacked, log, "log");
	if (with_stacked) {
		buf_puts(b, " <span>as</span>");
		put_view_link(b, rate, log, 0, !stacked, "lines");
		put_view_link(b, rate, log, 1, stacked, "stacked areas");
	}
	buf_puts(b, "</div>\n");
}

/* A legend item: a colour, then HTML. */
static void put_legend_item(struct buf *b, const char *color, const char *html)
{
	buf_printf(b, "<li><span class=\"sw\" style=\"background:%s\"></span>%s</li>\n", color, html);
}

/* ---- one timeline ------------------------------------------------------- */

/* A timeline and what its charts need of it. */
struct run {
	const char *what;
	struct timeline tl;
	double *t;		/* seconds from the start, by sample */
	double *live, *rate;	/* all sites together, by sample */
};

/* Bytes per second between the samples of CUM (bytes allocated so far);
 * 0 at the first (what it holds may have been allocated long before). */
static void per_second(const double *t, const double *cum, double *out, size_t n)
{
	for (size_t i = 0; i < n; i++)
		out[i] = i && t[i] > t[i - 1] ? (cum[i] - cum[i - 1]) / (t[i] - t[i - 1]) : 0;
}

/* Replay TL once: for each of the K sites of SITES, its live bytes (value
 * 0) or total bytes (2) at each sample, into V[k]; ALL: the sum of every site's. */
static void site_values(const struct timeline *tl, const size_t *sites, size_t k, int value, double **v,
			double *all)
{
	struct timeline_cursor c;

	timeline_cursor_init(&c, tl);
	for (size_t i = 0; i < tl->nsamples; i++) {
		timeline_cursor_seek(&c, tl, i);
		for (size_t j = 0; j < k; j++)
			v[j][i] = (double)c.values[sites[j] * TIMELINE_VALUES + value];
		if (all) {
			all[i] = 0;
			for (size_t s = 0; s < tl->nsites; s++)
				all[i] += (double)c.values[s * TIMELINE_VALUES + value];
		}
	}
	timeline_cursor_free(&c);
}

static int run_load(struct run *r, const char *what, const struct buf *text)
{
	double *allocated;

	memset(r, 0, sizeof(*r));
	r->what = what;
	if (timeline_load(&r->tl, text->data, text->len, what))
		return -1;
	if (!r->tl.nsamples) {
		error_set("%s: a timeline without samples", what);
		timeline_free(&r->tl);
		return -1;
	}
	r->t = xcalloc(r->tl.nsamples, sizeof(*r->t));
	r->live = xcalloc(r->tl.nsamples, sizeof(*r->live));
	r->rate = xcalloc(r->tl.nsamples, sizeof(*r->rate));
	allocated = xcalloc(r->tl.nsamples, sizeof(*allocated));
	for (size_t i = 0; i < r->tl.nsamples; i++) {
		r->t[i] = r->tl.samples[i].t / 1e9;
		r->live[i] = (double)r->tl.samples[i].total_bytes;
	}
	site_values(&r->tl, NULL, 0, 2, NULL, allocated);
	per_second(r->t, allocated, r->rate, r->tl.nsamples);
	free(allocated);
	return 0;
}

static void run_free(struct run *r)
{
	timeline_free(&r->tl);
	free(r->t);
	free(r->live);
	free(r->rate);
}

/* The N sites with the most of KEY (by site index), into OUT: how many. */
static size_t top_sites(const struct timeline *tl, const int64_t *key, size_t *out, size_t n)
{
	size_t count = 0;

	for (size_t i = 0; i < tl->nsites; i++) {
		size_t k;

		if (key[i] <= 0)
			continue;
		for (k = count; k > 0 && key[out[k - 1]] < key[i]; k--)
			if (k < n)
				out[k] = out[k - 1];
		if (k < n) {
			out[k] = i;
			if (count < n)
				count++;
		}
	}
	return count;
}

static void put_site_legend(struct buf *b, const struct timeline *tl, const size_t *sites, size_t k)
{
	struct buf item = { 0 };

	buf_puts(b, "<ul class=\"legend\">\n");
	put_legend_item(b, TOTAL_COLOR, "all sites");
	for (size_t j = 0; j < k; j++) {
		item.len = 0;
		html_place(&item, &tl->sites[sites[j]]);
		buf_puts(&item, " ");
		html_text(&item, tl->sites[sites[j]].function);
		put_legend_item(b, COLOR(j), item.data);
	}
	buf_puts(b, "</ul>\n");
	buf_free(&item);
}

/* The sections of a timeline's charts: the views of live bytes or of rates,
 * each with its own top sites. */
static void put_run_views(struct buf *b, const struct run *r, size_t nshown, int rate)
{
	const struct timeline *tl = &r->tl;
	int64_t *key = xcalloc(tl->nsites + 1, sizeof(*key));
	size_t *sites = xcalloc(nshown + 1, sizeof(*sites)), k;
	double **v = xcalloc(nshown + 1, sizeof(*v));
	const char **colors = xcalloc(nshown + 1, sizeof(*colors));

	for (size_t i = 0; i < tl->nsites; i++)	/* rates: who allocated the most in all */
		key[i] = rate ? tl->sites[i].total_bytes : tl->max_live[i];
	k = top_sites(tl, key, sites, nshown);
	for (size_t j = 0; j < k; j++) {
		v[j] = xcalloc(tl->nsamples, sizeof(**v));
		colors[j] = COLOR(j);
	}
	site_values(tl, sites, k, rate ? 2 : 0, v, NULL);
	for (size_t j = 0; rate && j < k; j++) {
		double *cum = v[j];

		v[j] = xcalloc(tl->nsamples, sizeof(**v));
		per_second(r->t, cum, v[j], tl->nsamples);
		free(cum);
	}
	for (int log = 0; log < 2; log++)
		for (int stacked = 0; stacked < 2; stacked++) {
			struct chart c = { tl->nsamples, r->t, r->t[tl->nsamples - 1], k, v, colors,
					   rate ? r->rate : r->live, rate, log, stacked,
					   rate ? -1 : (long)timeline_peak_sample(tl) };
			int first = !rate && !log && !stacked;

			if (first)	/* the default view, last: a :target before it hides it */
				continue;
			buf_printf(b, "<section class=\"chart\" id=\"%s\">\n", view_ids[rate][log][stacked]);
			put_menu(b, rate, log, stacked, 1);
			put_chart(b, &c);
			put_site_legend(b, tl, sites, k);
			buf_puts(b, "</section>\n");
		}
	if (!rate) {
		struct chart c = { tl->nsamples, r->t, r->t[tl->nsamples - 1], k, v, colors, r->live, 0, 0, 0,
				   (long)timeline_peak_sample(tl) };

		buf_printf(b, "<section class=\"chart default\" id=\"%s\">\n", view_ids[0][0][0]);
		put_menu(b, 0, 0, 0, 1);
		put_chart(b, &c);
		put_site_legend(b, tl, sites, k);
		buf_puts(b, "</section>\n");
	}
	for (size_t j = 0; j < k; j++)
		free(v[j]);
	free(v);
	free(colors);
	free(sites);
	free(key);
}

/* ---- tables ------------------------------------------------------------- */

/* V, bytes or a count as HOW says (number_text()'s), for people, exactly
 * in its title (what a pointer over it shows); a dash if not KNOWN. */
static void put_number_cell(struct buf *b, int64_t v, unsigned how, int known)
{
	char text[48];

	if (!known) {
		buf_puts(b, "<td>&ndash;</td>");
		return;
	}
	buf_puts(b, "<td title=\"");
	grouped(b, v);
	buf_printf(b, "%s\">%s</td>", how & NUMBER_BYTES ? " bytes" : "", number_text(text, sizeof(text), v, how));
}

static void put_place_cells(struct buf *b, const struct site *site)
{
	buf_puts(b, "<tr><td class=\"l\">");
	html_place(b, site);
	buf_puts(b, "</td><td class=\"l\">");
	html_text(b, site->function);
	buf_puts(b, "</td><td class=\"l\">");
	html_text(b, site->callee);
	buf_puts(b, "</td><td class=\"l\">");
	html_text(b, site->module);
	buf_puts(b, "</td>");
}

#define PLACE_HEADERS	"<tr><th class=\"l\">site</th><th class=\"l\">function</th>" \
			"<th class=\"l\">callee</th><th class=\"l\">module</th>"

/* Every site of S (sorted); MAX_LIVE by S's order, or NULL. */
static void put_table(struct buf *b, const struct snapshot *s, const int64_t *max_live)
{
	buf_puts(b, "<div class=\"wide\"><table>\n" PLACE_HEADERS "<th>live bytes</th><th>live blocks</th>"
		    "<th>total bytes</th><th>total calls</th><th>peak bytes</th>");
	if (max_live)
		buf_puts(b, "<th>most in a sample</th>");
	buf_puts(b, "</tr>\n");
	for (size_t i = 0; i < s->n; i++) {
		const struct site *site = &s->sites[i];

		put_place_cells(b, site);
		put_number_cell(b, site->bytes, NUMBER_BYTES, 1);
		put_number_cell(b, site->calls, 0, 1);
		put_number_cell(b, site->total_bytes, NUMBER_BYTES, s->has_totals);
		put_number_cell(b, site->total_calls, 0, s->has_totals);
		put_number_cell(b, site->peak, NUMBER_BYTES, s->has_totals);
		if (max_live)
			put_number_cell(b, max_live[i], NUMBER_BYTES, 1);
		buf_puts(b, "</tr>\n");
	}
	buf_puts(b, "</table></div>\n");
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

/* "demo (pid 4242)", or WHAT. */
static void source_title(struct buf *out, const char *program, long pid, const char *what)
{
	buf_puts(out, program ? program : what);
	if (pid)
		buf_printf(out, " (pid %ld)", pid);
}

static void plot_timeline(struct buf *b, struct run *r, size_t nshown)
{
	const struct timeline *tl = &r->tl;
	struct snapshot last;
	struct buf title = { 0 };
	int64_t *max_live, calls, bytes;
	size_t peak = timeline_peak_sample(tl);
	char peak_size[32], end_size[32], interval[32];

	timeline_state(tl, tl->nsamples - 1, &last);
	snapshot_sort(&last, site_cmp_report);
	max_live = xcalloc(last.n + 1, sizeof(*max_live));
	for (size_t i = 0; i < last.n; i++)
		max_live[i] = tl->max_live[tl->index_of[last.sites[i].id] - 1];
	bytes = sum_bytes(&last, &calls);
	source_title(&title, tl->program, tl->pid, r->what);
	page_title(b, title.data);
	snprintf(interval, sizeof(interval), "%g ms", tl->interval_ns * (double)tl->stride / 1e6);
	buf_printf(b, "<p class=\"summary\">%zu samples over %.2f s (one every %s); peak %s at %.2f s; "
		   "%s %s in %lld blocks; %zu sites.</p>\n<div class=\"charts\">\n", tl->nsamples,
		   (tl->samples[tl->nsamples - 1].t - tl->samples[0].t) / 1e9, interval,
		   human_bytes(peak_size, sizeof(peak_size), tl->samples[peak].total_bytes),
		   tl->samples[peak].t / 1e9, tl->exited ? "at exit" : "at the end",
		   human_bytes(end_size, sizeof(end_size), bytes), (long long)calls, last.n);
	put_run_views(b, r, nshown, 1);
	put_run_views(b, r, nshown, 0);
	buf_puts(b, "</div>\n");
	put_table(b, &last, max_live);
	buf_puts(b, "</body></html>\n");
	free(max_live);
	buf_free(&title);
	snapshot_clear(&last);
}

/* ---- one report --------------------------------------------------------- */

/* Bars: for each of the first N sites of S[0] (sorted), one per snapshot of S. */
static void put_bar_chart(struct buf *b, struct snapshot *const *s, size_t ns, size_t n)
{
	size_t bar = ns > 1 ? BAR_HEIGHT / 2 + 2 : BAR_HEIGHT, row = bar * ns + 8;
	int64_t max = 1;
	struct axis a;
	char size[32];

	for (size_t k = 0; k < ns; k++)
		for (size_t i = 0; i < n && i < s[k]->n; i++)
			max = s[k]->sites[i].bytes > max ? s[k]->sites[i].bytes : max;
	a = linear_axis((double)max, "");
	put_svg_start(b, (int)(20 + n * row), "live bytes by site");
	for (size_t i = 0; i < n; i++) {
		const struct site *site = &s[0]->sites[i];
		size_t y = 10 + i * row;

		buf_printf(b, "<text x=\"%d\" y=\"%zu\" text-anchor=\"end\" style=\"font-family:monospace\">",
			   BAR_LEFT - 8, y + bar * ns / 2 + 5);
		html_place(b, site);
		buf_puts(b, " ");
		html_text(b, site->function);
		buf_puts(b, "</text>\n");
		for (size_t k = 0; k < ns; k++) {
			const struct site *at = NULL;
			double w;

			for (size_t j = 0; j < s[k]->n && !at; j++)
				if (site_same_place(&s[k]->sites[j], site))
					at = &s[k]->sites[j];
			w = at ? (double)at->bytes / a.unit / a.max * (PLOT_RIGHT - BAR_LEFT) : 0;
			buf_printf(b, "<rect x=\"%d\" y=\"%zu\" width=\"%.1f\" height=\"%zu\" fill=\"%s\"/>\n", BAR_LEFT,
				   y + k * bar, w < 1 ? 1 : w, bar - 2, COLOR(ns > 1 ? k : i));
			buf_printf(b, "<text x=\"%.1f\" y=\"%zu\">%s</text>\n", BAR_LEFT + 6 + w, y + k * bar + bar / 2 + 4,
				   human_bytes(size, sizeof(size), at ? at->bytes : 0));
		}
	}
	buf_puts(b, "</svg>\n");
}

/* The sites of S to draw: the first, up to N, that hold something. */
static size_t bars_of(const struct snapshot *s, size_t n)
{
	size_t k = 0;

	while (k < s->n && k < n && s->sites[k].bytes > 0)
		k++;
	return k;
}

static void plot_snapshot(struct buf *b, struct snapshot *s, const char *what, size_t nshown)
{
	int64_t calls, bytes = sum_bytes(s, &calls);
	struct buf title = { 0 };
	char size[32];

	snapshot_sort(s, site_cmp_report);
	source_title(&title, s->program, s->pid, what);
	page_title(b, title.data);
	buf_printf(b, "<p class=\"summary\">%s in %lld blocks; %zu sites.</p>\n",
		   human_bytes(size, sizeof(size), bytes), (long long)calls, s->n);
	put_bar_chart(b, &s, 1, bars_of(s, nshown));
	put_table(b, s, NULL);
	buf_puts(b, "</body></html>\n");
	buf_free(&title);
}

/* ---- several, compared --------------------------------------------------- */

static void put_runs_legend(struct buf *b, const char *const *names, size_t n)
{
	struct buf item = { 0 };

	buf_puts(b, "<ul class=\"legend\">\n");
	for (size_t k = 0; k < n; k++) {
		item.len = 0;
		buf_printf(&item, "%c: ", RUN_LABEL(k));
		html_text(&item, names[k]);
		put_legend_item(b, COLOR(k), item.data);
	}
	buf_puts(b, "</ul>\n");
	buf_free(&item);
}

/* The totals of N timelines over time, in the four views of lines. */
static void put_runs_chart(struct buf *b, struct run *r, size_t n, const char *const *names)
{
	for (int rate = 1; rate >= 0; rate--)
		for (int log = 1; log >= 0; log--) {
			const char **colors = xcalloc(n, sizeof(*colors));
			double **v = xcalloc(n, sizeof(*v)), span = 0;
			for (size_t k = 0; k < n; k++) {
				colors[k] = COLOR(k);
				span = r[k].t[r[k].tl.nsamples - 1] > span ? r[k].t[r[k].tl.nsamples - 1] : span;
			}
			/* Each run its own line: drawn one by one, on one axis. */
			struct chart c = { 0, NULL, span, 0, v, colors, NULL, rate, log, 0, -1 };
			struct axis a;
			double min = 0, max = 0;

			for (size_t k = 0; k < n; k++) {
				c.n = r[k].tl.nsamples;
				min_max(&c, rate ? r[k].rate : r[k].live, &min, &max);
			}
			a = log ? log_axis(min, max, rate ? "/s" : "") : linear_axis(max, rate ? "/s" : "");
			buf_printf(b, "<section class=\"chart%s\" id=\"%s\">\n", !rate && !log ? " default" : "",
				   view_ids[rate][log][0]);
			put_menu(b, rate, log, 0, 0);
			put_svg_start(b, CHART_HEIGHT, rate ? "bytes allocated per second, by run" : "live bytes, by run");
			put_y_axis(b, &a);
			put_x_axis(b, span);
			for (size_t k = n; k-- > 0;) {
				c.n = r[k].tl.nsamples;
				c.t = r[k].t;
				buf_printf(b, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" vector-effect=\"non-scaling-stroke\" points=\"", colors[k]);
				put_points(b, &c, &a, rate ? r[k].rate : r[k].live, 0);
				buf_puts(b, "\"/>\n");
			}
			buf_puts(b, "</svg>\n");
			put_runs_legend(b, names, n);
			buf_puts(b, "</section>\n");
			free(colors);
			free(v);
		}
}

/* A site of one of the runs, for the table of all of them. */
struct placed {
	const struct site *site;
	size_t run;
};

static int cmp_placed(const void *pa, const void *pb)
{
	const struct placed *a = pa, *b = pb;
	int c = site_cmp_place(a->site, b->site);

	return c ? c : (a->run > b->run) - (a->run < b->run);
}

/* Every site of the N snapshots, a row each: its live and total bytes in each. */
static void put_compare_table(struct buf *b, struct snapshot *const *s, size_t n)
{
	size_t count = 0, total = 0;
	struct placed *all;

	for (size_t k = 0; k < n; k++)
		total += s[k]->n;
	all = xcalloc(total + 1, sizeof(*all));
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < s[k]->n; i++)
			all[count++] = (struct placed){ &s[k]->sites[i], k };
	qsort(all, count, sizeof(*all), cmp_placed);
	buf_puts(b, "<div class=\"wide\"><table>\n" PLACE_HEADERS);
	for (size_t k = 0; k < n; k++)
		buf_printf(b, "<th>live bytes, %c</th><th>total bytes, %c</th>", RUN_LABEL(k), RUN_LABEL(k));
	buf_puts(b, "</tr>\n");
	for (size_t i = 0; i < count;) {
		size_t j = i;

		put_place_cells(b, all[i].site);
		for (size_t k = 0; k < n; k++) {
			const struct site *at = j < count && all[j].run == k && site_same_place(all[j].site, all[i].site)
						? all[j++].site : NULL;

			put_number_cell(b, at ? at->bytes : 0, NUMBER_BYTES, 1);
			put_number_cell(b, at ? at->total_bytes : 0, NUMBER_BYTES, at && s[k]->has_totals);
		}
		buf_puts(b, "</tr>\n");
		while (j < count && site_same_place(all[j].site, all[i].site))
			j++;	/* a run with the place twice: the first counted */
		i = j;
	}
	buf_puts(b, "</table></div>\n");
	free(all);
}

/* Timelines compared over time, or anything else a bar per run. */
static void plot_compare(struct buf *b, char *const *whats, size_t n, size_t nshown)
{
	struct run *runs = xcalloc(n, sizeof(*runs));
	struct snapshot **snaps = xcalloc(n, sizeof(*snaps));
	struct buf title = { 0 };
	int all_timelines = 1;

	for (size_t k = 0; k < n; k++) {
		struct buf text = { 0 };
		struct source src;

		snaps[k] = xcalloc(1, sizeof(**snaps));
		if (source_resolve(&src, whats[k]))
			fail_error();
		if (!src.pid && !src.which && read_file(src.file, &text) == 0 &&
		    is_timeline_text(text.data, text.len)) {
			if (run_load(&runs[k], whats[k], &text))
				fail_error();
			timeline_state(&runs[k].tl, runs[k].tl.nsamples - 1, snaps[k]);
		} else {
			all_timelines = 0;
			if (snapshot_read(snaps[k], whats[k]))
				fail_error();
		}
		snapshot_sort(snaps[k], site_cmp_report);
		buf_free(&text);
		source_free(&src);
		buf_printf(&title, "%s%s", k ? " vs " : "", whats[k]);
	}
	page_title(b, title.data);
	buf_printf(b, "<p class=\"summary\">%zu runs compared: %s.</p>\n<div class=\"charts\">\n", n,
		   all_timelines ? "the total of each over time, then every site" : "live bytes by site");
	if (all_timelines)
		put_runs_chart(b, runs, n, (const char *const *)whats);
	else {
		put_bar_chart(b, snaps, n, bars_of(snaps[0], nshown));
		put_runs_legend(b, (const char *const *)whats, n);
	}
	buf_puts(b, "</div>\n");
	put_compare_table(b, snaps, n);
	buf_puts(b, "</body></html>\n");
	for (size_t k = 0; k < n; k++) {
		if (runs[k].t)
			run_free(&runs[k]);
		snapshot_clear(snaps[k]);
		free(snaps[k]);
	}
	free(runs);
	free(snaps);
	buf_free(&title);
}

/* ---- the command -------------------------------------------------------- */

int plot_run(char *const *whats, size_t n, const char *output, unsigned nshown)
{
	char name[SOURCE_NAME_MAX];
	struct buf page = { 0 };

	if (n > 1) {
		plot_compare(&page, whats, n, nshown);
	} else {
		struct buf text = { 0 };
		struct source src;
		struct run r;

		if (source_resolve(&src, whats[0]))
			fail_error();
		if (!src.pid && !src.which && read_file(src.file, &text) == 0 &&
		    is_timeline_text(text.data, text.len)) {
			if (run_load(&r, whats[0], &text))
				fail_error();
			plot_timeline(&page, &r, nshown);
			run_free(&r);
		} else {
			struct snapshot s;

			if (snapshot_read(&s, whats[0]))
				fail_error();
			plot_snapshot(&page, &s, whats[0], nshown);
			snapshot_clear(&s);
		}
		buf_free(&text);
		source_free(&src);
	}
	if (!output) {
		source_output_name(name, sizeof(name), whats, n, ".html");
		output = name;
	}
	if (write_file(output, &page))
		fail_error();
	if (output == name)
		printf("%s\n", name);
	buf_free(&page);
	return 0;
}
