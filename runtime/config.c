/* SPDX-License-Identifier: MIT */
/*
 * alloctag runtime: its settings, read once when the process starts and
 * copied: a program that rewrites its environment block later (setproctitle
 * in PostgreSQL, nginx, OpenSSH) or changes directory changes nothing.
 *
 *   ALLOCTAG_REPORT  where the report goes at exit (and on demand):
 *                    stderr, stdout, off, or a file (%p pid, %e program,
 *                    %% a percent sign; relative to the directory the
 *                    process started in).  Unset: only kept in the live
 *                    directory (report.c keeps it), on a terminal too: a
 *                    program's streams are its own, and a terminal may be
 *                    a test harness's (expect, DejaGnu, pexpect read what a
 *                    program prints on a pseudo-terminal).
 *   ALLOCTAG_FORMAT  allocinfo (default), full, json
 *   ALLOCTAG_TOP     only the N largest sites
 *   ALLOCTAG_SIGNAL  also report on this signal: USR1, USR2, HUP, ... or a
 *                    number; not one the C library or a crash uses
 *   ALLOCTAG_LIVE    off: no live file for `alloctag top` and its kin;
 *                    keep: the file stays after exit (alloctag record --
 *                    CMD sets it, to read the last counters of a short
 *                    program, and removes the file)
 *
 * In a set-user-ID or set-group-ID process (AT_SECURE), as glibc does with
 * its own variables: no variable that names a file or directory is obeyed
 * (an ALLOCTAG_REPORT that is not stderr, stdout or off; XDG_RUNTIME_DIR:
 * live_dir.c) and the runtime writes no file: no live file, no kept report;
 * a report goes only to the streams the process was given.
 *
 * A bad setting gets its default and one line: at once on stderr when
 * that is where the report goes, else as a note in the report (nothing of
 * alloctag's reaches a stream the report does not go to).
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>
#include "alloctag_internal.h"
#include "format.h"

struct alloctag_config alloctag_config;

#define COMPLAINT_MAX	512

/* The N bytes at TEXT kept as a note for the report (cut to fit). */
static void note(const char *text, size_t n)
{
	char *to;

	if (alloctag_config.nnotes == CONFIG_NOTES)
		return;
	to = alloctag_config.notes[alloctag_config.nnotes++];
	if (n >= CONFIG_NOTE_MAX)
		n = CONFIG_NOTE_MAX - 1;
	memcpy(to, text, n);
	to[n] = '\0';
}

/*
 * One line for the user, "alloctag: " and the strings given, up to a NULL:
 * on stderr at once when the report goes there, else a note the reports
 * carry.  Built on the stack: it may say that there is no memory left.
 */
void alloctag_complain(const char *first, ...)
{
	char line[COMPLAINT_MAX];
	struct out o;
	va_list ap;

	out_fixed(&o, line, sizeof(line) - 1);	/* a longer one is cut */
	out_str(&o, "alloctag: ");
	va_start(ap, first);
	for (const char *s = first; s; s = va_arg(ap, const char *))
		out_str(&o, s);
	va_end(ap);
	line[o.len++] = '\n';
	if (alloctag_config.destination == DEST_STDERR)
		alloctag_say(line, o.len);
	else
		note(line + strlen("alloctag: "), o.len - strlen("alloctag: ") - 1);
}

/* Where a report goes when ALLOCTAG_REPORT does not say. */
static enum report_destination default_destination(void)
{
	return alloctag_config.secure ? DEST_OFF : DEST_KEEP;
}

/* A report destination that names no file: stderr, stdout or off. */
static int a_stream(const char *s)
{
	return !strcmp(s, "stderr") || !strcmp(s, "stdout") || !strcmp(s, "off");
}

static void read_destination(const char *s)
{
	size_t cwd_len;

	if (s && *s && alloctag_config.secure && !a_stream(s)) {
		alloctag_config.destination = default_destination();
		alloctag_complain("ALLOCTAG_REPORT=", s, ": a set-user-ID or set-group-ID program "
				  "writes no file; ignored", NULL);
	} else if (!s || !*s) {
		alloctag_config.destination = default_destination();
	} else if (!strcmp(s, "off")) {
		alloctag_config.destination = DEST_OFF;
	} else if (!strcmp(s, "stderr")) {
		alloctag_config.destination = DEST_STDERR;
	} else if (!strcmp(s, "stdout")) {
		alloctag_config.destination = DEST_STDOUT;
	} else if (s[0] == '/') {
		alloctag_config.destination = DEST_FILE;
		strncpy(alloctag_config.path, s, sizeof(alloctag_config.path) - 1);
	} else if (getcwd(alloctag_config.path, sizeof(alloctag_config.path)) &&
		   (cwd_len = strlen(alloctag_config.path)) + 1 + strlen(s) < sizeof(alloctag_config.path)) {
		alloctag_config.destination = DEST_FILE;
		alloctag_config.path[cwd_len] = '/';
		strcpy(alloctag_config.path + cwd_len + 1, s);
	} else {
		alloctag_config.destination = DEST_KEEP;	/* not secure: files are written */
		alloctag_complain("ALLOCTAG_REPORT=", s, ": cannot tell where that is; "
				  "the report is kept in the live directory", NULL);
	}
}

static void read_format(const char *s)
{
	if (!s || !*s || !strcmp(s, "allocinfo"))
		alloctag_config.format = FORMAT_ALLOCINFO;
	else if (!strcmp(s, "full"))
		alloctag_config.format = FORMAT_FULL;
	else if (!strcmp(s, "json"))
		alloctag_config.format = FORMAT_JSON;
	else
		alloctag_complain("ALLOCTAG_FORMAT=", s, " is not allocinfo, full or json; using allocinfo", NULL);
}

/* A decimal number of digits only, above 0 and below LIMIT, or 0. */
static unsigned long positive_number(const char *s, unsigned long limit)
{
	unsigned long n = 0;

	if (!*s)
		return 0;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || n > (limit - (*s - '0')) / 10)
			return 0;
		n = n * 10 + (*s - '0');
	}
	return n;
}

static void read_top(const char *s)
{
	if (!s || !*s)
		return;
	alloctag_config.top = positive_number(s, (unsigned long)-1 >> 1);
	if (!alloctag_config.top)
		alloctag_complain("ALLOCTAG_TOP=", s, " is not a positive number; showing every site", NULL);
}

/*
 * Signals a report may not take: the ones the kernel sends a faulting
 * program (a report there would loop on the fault), the ones that cannot
 * be caught, and the C library's own real-time signals.
 */
static int reserved_signal(int sig)
{
	return sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL ||
	       sig == SIGABRT || sig == SIGTRAP || sig == SIGSYS || sig == SIGKILL ||
	       sig == SIGSTOP || (sig >= 32 && sig < SIGRTMIN);
}

/* A signal's number from its name (USR1, SIGUSR1, ...) or number; 0 if none. */
static int signal_number(const char *s)
{
	const char *name = strncmp(s, "SIG", 3) ? s : s + 3;

	for (int sig = 1; sig < SIGRTMIN; sig++) {
		const char *abbrev = sigabbrev_np(sig);

		if (abbrev && !strcmp(name, abbrev))
			return sig;
	}
	return (int)positive_number(s, NSIG);
}

static void read_signal(const char *s)
{
	int sig;

	if (!s || !*s)
		return;
	sig = signal_number(s);
	if (!sig || sig > SIGRTMAX)
		alloctag_complain("ALLOCTAG_SIGNAL=", s, " is not a signal (USR1, USR2, HUP, ... or a number); none used", NULL);
	else if (reserved_signal(sig))
		alloctag_complain("ALLOCTAG_SIGNAL=", s, " is a signal a crash or the C library uses; none used", NULL);
	else
		alloctag_config.signal = sig;
}

static void read_live(const char *s)
{
	alloctag_config.live = LIVE_ON;
	if (!s || !*s || !strcmp(s, "on"))
		return;
	if (!strcmp(s, "off"))
		alloctag_config.live = LIVE_OFF;
	else if (!strcmp(s, "keep"))
		alloctag_config.live = LIVE_KEEP;
	else
		alloctag_complain("ALLOCTAG_LIVE=", s, " is not on, off or keep; on", NULL);
	if (alloctag_config.secure)
		alloctag_config.live = LIVE_OFF;
}

/* Whether Valgrind runs the program: it replaces malloc, ours included. */
static int valgrind_preloaded(void)
{
	const char *preload = getenv("LD_PRELOAD");

	return preload && strstr(preload, "/vgpreload_");
}

/* The destination first: it says where the others' complaints go. */
void alloctag_config_read(void)
{
	alloctag_config.secure = getauxval(AT_SECURE) != 0;
	alloctag_config.under_valgrind = valgrind_preloaded();
	read_destination(getenv("ALLOCTAG_REPORT"));
	read_format(getenv("ALLOCTAG_FORMAT"));
	read_top(getenv("ALLOCTAG_TOP"));
	read_signal(getenv("ALLOCTAG_SIGNAL"));
	read_live(getenv("ALLOCTAG_LIVE"));
}
