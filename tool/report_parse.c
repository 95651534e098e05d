/* SPDX-License-Identifier: MIT */
/*
 * report_parse.c: the runtime's reports and the kernel's /proc/allocinfo,
 * read back into a snapshot.
 *
 *   allocinfo - version: 2.0
 *   #     <size>  <calls> <tag info>
 *          4096        1 demo.c:42 func:count
 *
 * Versions 1.x and 2.x are read: 2.0 (Linux's since its accurate:no) adds
 * " accurate:no" to a site whose counters missed allocations, which is kept
 * (site->inaccurate).  "full" has three more columns (total size, total
 * calls, peak size) and a header that names them; a tag info may carry a
 * column (file:line:column) and, after func:, key:value words (callee:NAME,
 * accurate:no) of which unknown ones are skipped.  Lines without the header (kernels
 * before it had one) are read by their count of numbers.  The json report
 * is {"version": 1, "program", "pid", "sites": [{...}]}.
 *
 * A file the runtime appended several reports to (one on each signal, then
 * at exit) is read at its last report, the latest.
 */
#include <stdlib.h>
#include <string.h>
#include "format.h"
#include "json.h"
#include "report_parse.h"

#define FULL_HEADER_MARK	"<total size>"
#define NOTE_MARK		"# alloctag: "
#define ALLOCINFO_NUMBERS	2
#define FULL_NUMBERS		5

struct text_parser {
	const char *name;
	unsigned line;
	unsigned header;	/* the line of the last report's header, or 0 */
	int numbers;		/* per line: 2, 5, or 0 until known */
};

static int line_error(const struct text_parser *tp, const char *why)
{
	error_set("%s:%u: %s", tp->name, tp->line, why);
	return -1;
}

/* "file:line" or "file:line:column" (file names may hold ':' and spaces). */
static int parse_location(struct site *site, char *loc)
{
	char *colon = strrchr(loc, ':'), *end;
	unsigned long a, b;

	if (!colon || colon == loc || !colon[1])
		return -1;
	a = strtoul(colon + 1, &end, 10);
	if (*end || colon[1] < '0' || colon[1] > '9' || a > 0xffffffffu)
		return -1;
	*colon = '\0';
	site->line = a;
	colon = strrchr(loc, ':');
	if (colon && colon != loc && colon[1] >= '0' && colon[1] <= '9') {
		b = strtoul(colon + 1, &end, 10);
		if (!*end && b <= 0xffffffffu) {
			*colon = '\0';
			site->column = site->line;
			site->line = b;
		}
	}
	site->file = xstrdup(loc);
	return 0;
}

/* "LOCATION [module] func:NAME [key:value ...]" */
static int parse_tag_info(struct site *site, char *info)
{
	char *func = strstr(info, " func:"), *word, *next, *open;

	while (func && strstr(func + 1, " func:"))	/* "func:" inside a file name */
		func = strstr(func + 1, " func:");
	if (!func)
		return -1;
	*func = '\0';
	word = func + strlen(" func:");
	next = strchr(word, ' ');
	if (next)
		*next++ = '\0';
	if (!*word)
		return -1;
	site->function = xstrdup(word);
	for (; next && *next; next = word) {
		word = strchr(next, ' ');
		if (word)
			*word++ = '\0';
		if (!strncmp(next, "callee:", 7) && next[7] && !site->callee)
			site->callee = xstrdup(next + 7);
		else if (!strcmp(next, ALLOCINFO_INACCURATE))
			site->inaccurate = 1;
	}
	size_t n = strlen(info);
	if (n > 2 && info[n - 1] == ']' && (open = strstr(info, " ["))) {
		while (strstr(open + 1, " ["))
			open = strstr(open + 1, " [");
		info[n - 1] = '\0';
		site->module = xstrdup(open + 2);
		*open = '\0';
	}
	return parse_location(site, info);
}

static int parse_number(const char **p, int64_t *out)
{
	const char *s = *p;
	char *end;

	while (*s == ' ')
		s++;
	if (!((*s >= '0' && *s <= '9') || (*s == '-' && s[1] >= '0' && s[1] <= '9')))
		return -1;
	*out = strtoll(s, &end, 10);
	if (*end != ' ')
		return -1;
	*p = end;
	return 0;
}

static int count_numbers(const char *line)
{
	int64_t ignored;
	int n = 0;

	while (n < FULL_NUMBERS && parse_number(&line, &ignored) == 0)
		n++;
	return n;
}

static int parse_text_line(struct snapshot *s, struct text_parser *tp, char *line)
{
	int64_t v[FULL_NUMBERS];
	const char *p = line;
	struct site *site;
	char *info;
	size_t n;

	if (!tp->numbers) {
		tp->numbers = count_numbers(line) >= FULL_NUMBERS ? FULL_NUMBERS : ALLOCINFO_NUMBERS;
		s->has_totals = tp->numbers == FULL_NUMBERS;
		s->source = s->has_totals ? SOURCE_FULL : SOURCE_ALLOCINFO;
	}
	for (int i = 0; i < tp->numbers; i++)
		if (parse_number(&p, &v[i]))
			return line_error(tp, tp->numbers == FULL_NUMBERS
					  ? "not a line of a full report (5 numbers, then the site)"
					  : "not an allocinfo line (size, calls, then the site)");
	while (*p == ' ')
		p++;
	info = (char *)p;
	n = strlen(info);
	while (n && (info[n - 1] == ' ' || info[n - 1] == '\r'))
		info[--n] = '\0';
	site = snapshot_add(s);
	site->bytes = v[0];
	site->calls = v[1];
	if (tp->numbers == FULL_NUMBERS) {
		site->total_bytes = v[2];
		site->total_calls = v[3];
		site->peak = v[4];
	}
	if (parse_tag_info(site, info)) {
		site_clear(site);
		s->n--;
		return line_error(tp, "no file:line and func:NAME in the tag info");
	}
	return 0;
}

static int parse_header(struct text_parser *tp, const char *line)
{
	const char *v = line + strlen(ALLOCINFO_HEADER);

	while (*v == ' ')
		v++;
	if ((v[0] != '1' && v[0] != '2') || v[1] != '.')
		return line_error(tp, "an allocinfo report of another version (this alloctag reads 1.x and 2.x)");
	return 0;
}

static int parse_text(struct snapshot *s, char *text, const char *name)
{
	struct text_parser tp = { name, 0, 0, 0 };
	char *line, *next;

	for (line = text; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		tp.line++;
		if (!strncmp(line, ALLOCINFO_HEADER, strlen(ALLOCINFO_HEADER)) && (tp.line == 1 || tp.header)) {
			if (parse_header(&tp, line))
				return -1;
			snapshot_clear_sites(s);	/* another report follows: the last one wins */
			tp.numbers = 0;
			tp.header = tp.line;
			continue;
		}
		if (!strncmp(line, FREES_UNSEEN_NOTE, strlen(FREES_UNSEEN_NOTE)))
			s->frees_unseen = 1;
		else if (!strncmp(line, NOTE_MARK, strlen(NOTE_MARK)))
			snapshot_add_note(s, line + strlen(NOTE_MARK));
		if (line[0] == '#') {
			if (!tp.numbers && tp.line == tp.header + 1) {
				tp.numbers = strstr(line, FULL_HEADER_MARK) ? FULL_NUMBERS : ALLOCINFO_NUMBERS;
				s->has_totals = tp.numbers == FULL_NUMBERS;
				s->source = s->has_totals ? SOURCE_FULL : SOURCE_ALLOCINFO;
			}
			continue;
		}
		if (!line[0] || (line[0] == '\r' && !line[1]))
			continue;
		if (!next && tp.line > 1)
			return line_error(&tp, "truncated (the last line has no end)");
		if (parse_text_line(s, &tp, line))
			return -1;
	}
	if (!tp.line) {
		error_set("%s: empty file, not a report", name);
		return -1;
	}
	if (!tp.numbers) {
		s->source = SOURCE_ALLOCINFO;
		s->has_totals = 0;
	}
	return 0;
}

static const char *const json_numbers[] = { "bytes", "calls", "total_bytes", "total_calls", "peak_bytes" };

static int parse_json_site(struct snapshot *s, const struct json *j, size_t index, const char *name)
{
	int64_t v[ARRAY_SIZE(json_numbers)], line, column = 0;
	const char *file = json_str(j, "file"), *function = json_str(j, "function");
	struct site *site;

	if (j->type != JSON_OBJECT || !file || !function || json_int(j, "line", &line) ||
	    line < 0 || line > 0xffffffffll) {
		error_set("%s: site %zu has no file, line or function", name, index + 1);
		return -1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(json_numbers); i++)
		if (json_int(j, json_numbers[i], &v[i])) {
			error_set("%s: site %zu has no \"%s\" number", name, index + 1, json_numbers[i]);
			return -1;
		}
	if (json_get(j, "column") && (json_int(j, "column", &column) || column < 0 || column > 0xffffffffll)) {
		error_set("%s: site %zu has a bad \"column\"", name, index + 1);
		return -1;
	}
	site = snapshot_add(s);
	site_set_place(site, j, file, function, line, column);
	site->bytes = v[0];
	site->calls = v[1];
	site->total_bytes = v[2];
	site->total_calls = v[3];
	site->peak = v[4];
	site->inaccurate = json_get(j, "accurate") && json_get(j, "accurate")->type == JSON_FALSE;
	return 0;
}

/* The runtime's notes (strings; anything else is skipped). */
static void parse_json_notes(struct snapshot *s, const struct json *notes)
{
	for (size_t i = 0; notes && notes->type == JSON_ARRAY && i < notes->n; i++)
		if (notes->items[i].type == JSON_STRING)
			snapshot_add_note(s, notes->items[i].str);
}

/* One json report (the last of TEXT's, if the runtime appended several). */
static int parse_json(struct snapshot *s, const char *text, size_t len, const char *name)
{
	const struct json *sites;
	struct json j;
	int64_t version, pid;
	unsigned line = 1;
	size_t used;
	int rc = -1;

	for (;;) {
		if (json_parse_prefix(&j, text, len, name, line, &used))
			return -1;
		if (used == len)
			break;
		for (size_t i = 0; i < used; i++)
			line += text[i] == '\n';
		text += used;
		len -= used;
		json_free(&j);
	}
	if (json_int(&j, "version", &version)) {
		error_set("%s: not an alloctag json report (no \"version\")", name);
		goto out;
	}
	if (version != 1) {
		error_set("%s: a json report of version %lld (this alloctag reads version 1)", name,
			  (long long)version);
		goto out;
	}
	sites = json_get(&j, "sites");
	if (!sites || sites->type != JSON_ARRAY) {
		error_set("%s: not an alloctag json report (no \"sites\" array)", name);
		goto out;
	}
	s->source = SOURCE_JSON;
	s->has_totals = 1;
	s->frees_unseen = json_get(&j, "frees_seen") && json_get(&j, "frees_seen")->type == JSON_FALSE;
	s->program = xstrdup(json_str(&j, "program"));
	parse_json_notes(s, json_get(&j, "notes"));
	if (json_int(&j, "pid", &pid) == 0)
		s->pid = pid;
	for (size_t i = 0; i < sites->n; i++)
		if (parse_json_site(s, &sites->items[i], i, name))
			goto out;
	rc = 0;
out:
	json_free(&j);
	return rc;
}

int report_parse(struct snapshot *s, const char *text, size_t len, const char *name)
{
	const char *p = text;
	char *copy;
	int rc;

	if (memchr(text, '\0', len)) {
		error_set("%s: a binary file, not a report", name);
		return -1;
	}
	while (p < text + len && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r'))
		p++;
	if (p < text + len && *p == '{')
		return parse_json(s, text, len, name);
	copy = xmalloc(len + 1);
	memcpy(copy, text, len);
	copy[len] = '\0';
	rc = parse_text(s, copy, name);
	free(copy);
	return rc;
}
