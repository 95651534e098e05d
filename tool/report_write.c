/* SPDX-License-Identifier: MIT */
/*
 * report_write.c: a snapshot as a report (report_write.h), in the same text
 * as the runtime's report.c writes at exit, so that a snapshot of a live
 * process and the report at its exit compare line by line.
 */
#include <string.h>
#include "json.h"
#include "report_write.h"

int report_format_parse(const char *name)
{
	static const char *const names[] = { "allocinfo", "full", "json" };

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(name, names[i]))
			return (int)i;
	return -1;
}

static void write_text(struct buf *b, const struct snapshot *s, int full)
{
	buf_puts(b, "allocinfo - version: 1.0\n");
	buf_puts(b, full ? "#     <size>  <calls>   <total size> <total calls>  <peak size> <tag info>\n"
			 : "#     <size>  <calls> <tag info>\n");
	for (size_t i = 0; i < s->n; i++) {
		const struct site *site = &s->sites[i];

		buf_printf(b, "%12lld %8llu ", (long long)site->bytes, (unsigned long long)site->calls);
		if (full)
			buf_printf(b, "%14llu %13llu %12lld ", (unsigned long long)site->total_bytes,
				   (unsigned long long)site->total_calls, (long long)site->peak);
		site_tag_info(b, site, full);
		buf_puts(b, " \n");	/* the kernel ends each line with a space */
	}
}

static void write_json(struct buf *b, const struct snapshot *s)
{
	buf_puts(b, "{\"version\": 1, \"program\": ");
	json_put_string(b, s->program);
	buf_printf(b, ", \"pid\": %ld, \"sites\": [", s->pid);
	for (size_t i = 0; i < s->n; i++) {
		const struct site *site = &s->sites[i];

		buf_puts(b, i ? ",\n  {\"file\": " : "\n  {\"file\": ");
		json_put_string(b, site->file);
		buf_printf(b, ", \"line\": %u", site->line);
		if (site->column)
			buf_printf(b, ", \"column\": %u", site->column);
		buf_puts(b, ", \"function\": ");
		json_put_string(b, site->function);
		if (site->callee) {
			buf_puts(b, ", \"callee\": ");
			json_put_string(b, site->callee);
		}
		buf_puts(b, ", \"module\": ");
		json_put_string(b, site->module);
		buf_printf(b, ", \"bytes\": %lld, \"calls\": %lld, \"total_bytes\": %lld, "
			   "\"total_calls\": %lld, \"peak_bytes\": %lld}",
			   (long long)site->bytes, (long long)site->calls, (long long)site->total_bytes,
			   (long long)site->total_calls, (long long)site->peak);
	}
	buf_puts(b, "\n]}\n");
}

void report_write(struct buf *b, const struct snapshot *s, enum report_format format)
{
	if (format == REPORT_JSON)
		write_json(b, s);
	else
		write_text(b, s, format == REPORT_FULL);
}
