/* SPDX-License-Identifier: MIT */
/* source.c: what an operand names, read into a snapshot (source.h). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "live.h"
#include "report_parse.h"
#include "source.h"
#include "timeline.h"

#define NAMES_MAX	256	/* the pids listed in a message */
#define ELF_MAGIC	"\177ELF"

int is_pid_argument(const char *what, long *pid)
{
	uint64_t v;

	if (parse_u64(what, &v) || v == 0 || v > 0x7fffffff)
		return 0;
	*pid = (long)v;
	return 1;
}

/* "FILE@WHICH": FILE, if it exists and the whole name does not. */
static char *split_at(const char *what, const char **which)
{
	const char *at = strrchr(what, '@');
	char *file;

	*which = NULL;
	if (!at || !access(what, F_OK))
		return xstrdup(what);
	file = strndup(what, at - what);
	if (!file || access(file, F_OK)) {
		free(file);
		return xstrdup(what);
	}
	*which = at + 1;
	return file;
}

/* P is the program NAME: its name as started, or the last part of it. */
static int named(const struct live_process *p, const char *name)
{
	const char *slash = strrchr(p->program, '/');

	return !strcmp(p->program, name) || (slash && !strcmp(slash + 1, name));
}

/* The pid of the process NAME (source.h): 0; 1 if no process is named so
 * (the caller says it); -1 with the error set (several run). */
static int process_named(const char *name, long *pid)
{
	struct live_process *v;
	size_t n = live_list(&v, 1), running = 0;
	char pids[NAMES_MAX] = "";
	const struct live_process *latest = NULL;

	for (size_t i = 0; i < n; i++) {
		if (!named(&v[i], name))
			continue;
		if (!v[i].ended) {
			size_t len = strlen(pids);

			snprintf(pids + len, sizeof(pids) - len, "%s%ld", running ? ", " : "", v[i].pid);
			*pid = v[i].pid;
			running++;
		} else if (!latest || v[i].when_ns > latest->when_ns) {
			latest = &v[i];
		}
	}
	if (!running && latest)
		*pid = latest->pid;
	if (running > 1)
		error_set("%zu processes named %s run (%s): name one by its pid", running, name, pids);
	live_list_free(v, n);
	return running > 1 ? -1 : running == 1 || latest ? 0 : 1;
}

/* FILE is a program (an ELF file), not a report or a timeline. */
static int is_program(const char *file)
{
	char magic[sizeof(ELF_MAGIC) - 1];
	int fd = open(file, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK), is;

	if (fd < 0)
		return 0;
	is = read(fd, magic, sizeof(magic)) == (ssize_t)sizeof(magic) && !memcmp(magic, ELF_MAGIC, sizeof(magic));
	close(fd);
	return is;
}

/* The program FILE (a path to it, or the name of one in the current
 * directory) as its name, the process of that name (process_named()). */
static int program_file(const char *file, long *pid)
{
	const char *name = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
	int rc = process_named(name, pid);

	if (rc == 1)
		error_set("%s is a program: no process of yours named %s runs or kept its report (alloctag "
			  "ps -a lists them)", file, name);
	return rc ? -1 : 0;
}

int source_resolve(struct source *src, const char *what)
{
	int rc;

	memset(src, 0, sizeof(*src));
	if (!*what) {
		error_set("an empty operand: name a PID, a program or a file");
		return -1;
	}
	if (is_pid_argument(what, &src->pid))
		return 0;
	src->file = split_at(what, &src->which);
	if (!src->which && is_program(src->file)) {
		rc = program_file(src->file, &src->pid);
	} else if (!access(src->file, F_OK) || strchr(what, '/')) {
		return 0;
	} else if ((rc = process_named(what, &src->pid)) == 1) {
		error_set("no file %s, and no process of yours named so (alloctag ps -a lists them)", what);
		rc = -1;
	}
	free(src->file);
	src->file = NULL;
	return rc;
}

void source_free(struct source *src)
{
	free(src->file);
	memset(src, 0, sizeof(*src));
}

/* The file SRC names, read: its report, or a timeline's sample. */
static int read_source_file(struct snapshot *s, const struct source *src)
{
	struct buf text = { 0 };
	int rc = -1;

	if (read_file(src->file, &text)) {
		if (!strcmp(src->file, PROC_ALLOCINFO) && access(src->file, F_OK))
			error_set("no %s: this kernel is not built with CONFIG_MEM_ALLOC_PROFILING", src->file);
		else if (!strcmp(src->file, PROC_ALLOCINFO) && access(src->file, R_OK))
			error_set("cannot read %s: only root can", src->file);
	} else if (is_timeline_text(text.data, text.len)) {
		rc = timeline_snapshot(s, text.data, text.len, src->file, src->which);
	} else if (src->which) {
		error_set("%s is not a timeline: @%s names a sample of a timeline", src->file, src->which);
	} else {
		rc = report_parse(s, text.data, text.len, src->file);
	}
	buf_free(&text);
	return rc;
}

int source_read(struct snapshot *s, const struct source *src)
{
	memset(s, 0, sizeof(*s));
	return src->pid ? live_snapshot_or_kept(s, src->pid) : read_source_file(s, src);
}

int snapshot_read(struct snapshot *s, const char *what)
{
	struct source src;
	int rc;

	memset(s, 0, sizeof(*s));
	if (source_resolve(&src, what))
		return -1;
	rc = source_read(s, &src);
	source_free(&src);
	return rc;
}

void source_output_name(char *out, size_t size, char *const *whats, size_t n, const char *ext)
{
	size_t len = 0, room = size - strlen(ext) - 1;

	out[0] = '\0';
	for (size_t k = 0; k < n && len < room; k++) {
		const char *base = strrchr(whats[k], '/') ? strrchr(whats[k], '/') + 1 : whats[k];
		const char *join = k ? "-vs-" : "";
		long pid;

		if (is_pid_argument(whats[k], &pid) || (!strchr(whats[k], '.') && !strchr(whats[k], '/')))
			len += snprintf(out + len, room - len, "%salloctag-%s", join, base);
		else
			len += snprintf(out + len, room - len, "%s%.*s", join, (int)strcspn(base, ".@"), base);
	}
	snprintf(out + (len < room ? len : room - 1), size - (len < room ? len : room - 1), "%s", ext);
}
