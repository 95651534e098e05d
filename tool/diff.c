/* SPDX-License-Identifier: MIT */
/*
 * diff.c: `alloctag diff A B`: what changed, site by site, from A to B.
 *
 *   alloctag diff - version: 1
 *   # A: before.txt
 *   # B: after.txt
 *   #  <size change> <calls change>     <size A>     <size B> <change> <tag info>
 *            +8192             +2         4096        12288 grew     demo.c:42 func:count
 *            +4096             +1            0         4096 new      demo.c:82 func:main
 *   # total: +12288 bytes, +3 blocks (A: 4096 bytes in 1 block, B: 16384 bytes in 4 blocks)
 *
 * Sites are matched by file, line, module and function, and by column and
 * callee too when both sides know them (a report in the allocinfo format
 * does not); sites that then fall together are summed.  Largest change of
 * live bytes first; unchanged sites only with -a.  Exit status as diff(1):
 * 0 nothing changed, 1 something did, 2 trouble.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "snapshot.h"

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

static void print_total(const struct snapshot *a, const struct snapshot *b)
{
	int64_t ab, ac, bb, bc;

	sums(a, &ab, &ac);
	sums(b, &bb, &bc);
	printf("# total: %+lld bytes, %+lld blocks (A: %lld bytes in %lld block%s, B: %lld bytes in "
	       "%lld block%s)\n", (long long)(bb - ab), (long long)(bc - ac), (long long)ab,
	       (long long)ac, ac == 1 ? "" : "s", (long long)bb, (long long)bc, bc == 1 ? "" : "s");
}

int cmd_diff(int argc, char **argv)
{
	struct snapshot a, b;
	struct change *changes;
	struct buf line = { 0 };
	int all = 0, c, columns, changed = 0;
	size_t n;

	static const struct option options[] = { { "all", no_argument, NULL, 'a' }, { 0 } };

	while ((c = command_option("diff", argc, argv, "a", options)) != -1)
		all = 1;
	if (optind != argc - 2)
		usage_of("diff");
	if (snapshot_read(&a, argv[optind]) || snapshot_read(&b, argv[optind + 1]))
		fail_error();
	columns = has_columns(&a) && has_columns(&b);
	normalize(&a, columns);
	normalize(&b, columns);
	changes = xcalloc(a.n + b.n, sizeof(*changes));
	n = match(&a, &b, changes);
	qsort(changes, n, sizeof(*changes), cmp_change);

	printf("alloctag diff - version: 1\n# A: %s\n# B: %s\n", argv[optind], argv[optind + 1]);
	printf("#  <size change> <calls change>     <size A>     <size B> <change> <tag info>\n");
	for (size_t i = 0; i < n; i++) {
		const struct change *ch = &changes[i];
		const char *word = change_word(ch);

		if (strcmp(word, "same"))
			changed = 1;
		else if (!all)
			continue;
		line.len = 0;
		site_tag_info(&line, place_of(ch), columns);
		printf("%+16lld %+14lld %12lld %12lld %-8s %s\n", (long long)ch->bytes,
		       (long long)ch->calls, (long long)(ch->a ? ch->a->bytes : 0),
		       (long long)(ch->b ? ch->b->bytes : 0), word, line.data);
	}
	print_total(&a, &b);
	buf_free(&line);
	free(changes);
	snapshot_clear(&a);
	snapshot_clear(&b);
	return changed;
}
