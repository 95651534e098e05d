/* SPDX-License-Identifier: MIT */
/*
 * ps.c: `alloctag ps`: the processes of the user's that have live
 * counters, and with -a also the ended ones whose report was kept, marked
 * (exited), or whose counters were, marked (killed): they ended without
 * their report (runtime/live_dir.h); one line each.  And the process
 * `alloctag top` shows when it is given none.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "live.h"
#include "source.h"
#include "views.h"

#define NAMES_MAX	512	/* the processes listed in a message */

static void put_header(void)
{
	printf("%8s %14s %8s %8s  %s\n", "PID", "LIVE BYTES", "BLOCKS", "SITES", "PROGRAM");
}

/* A line of P: numbers for people, or EXACT; the program by its name, as a
 * NAME operand gives it and as its report says it (not the path it was
 * started by, which only a running process's live file knows). */
static void put_process(const struct live_process *p, int exact)
{
	char size[32], blocks[32];
	const char *slash = strrchr(p->program, '/');

	number_text(size, sizeof(size), p->bytes, NUMBER_BYTES | (exact ? NUMBER_EXACT : 0));
	number_text(blocks, sizeof(blocks), p->blocks, exact ? NUMBER_EXACT : 0);
	printf("%8ld %14s %8s %8zu  %s%s\n", p->pid, size, blocks, p->nsites, slash ? slash + 1 : p->program,
	       !p->ended ? "" : p->unreported ? " (killed)" : " (exited)");
}

int ps_run(int all, int exact)
{
	struct live_process *v;
	size_t n = live_list(&v, all);

	put_header();
	for (size_t i = 0; i < n; i++)
		put_process(&v[i], exact);
	live_list_free(v, n);
	return 0;
}

/* One of the N processes of V, as the person at the terminal picks it: its index. */
static size_t pick(const struct live_process *v, size_t n)
{
	char line[64];
	uint64_t k;

	for (;;) {
		printf("    ");
		put_header();
		for (size_t i = 0; i < n; i++) {
			printf("%2zu) ", i + 1);
			put_process(&v[i], 0);
		}
		printf("which one (1 to %zu, or a pid; q quits)? ", n);
		fflush(stdout);
		if (!fgets(line, sizeof(line), stdin) || line[0] == 'q')
			exit(0);
		line[strcspn(line, "\n")] = '\0';
		if (!parse_u64(line, &k) && k >= 1 && k <= n)
			return k - 1;
		for (size_t i = 0; i < n; i++)
			if (!parse_u64(line, &k) && (long)k == v[i].pid)
				return i;
	}
}

const char *ps_choose(int interactive)
{
	static char chosen[32];
	struct live_process *v;
	size_t n = live_list(&v, 0), k = 0;
	char names[NAMES_MAX] = "";

	if (!n) {
		if (access(PROC_ALLOCINFO, F_OK))
			fail("no process of yours has live counters (alloctag ps), and this kernel has no %s",
			     PROC_ALLOCINFO);
		return PROC_ALLOCINFO;
	}
	if (n > 1 && !interactive) {
		for (size_t i = 0, len = 0; i < n && len < sizeof(names); i++, len = strlen(names))
			snprintf(names + len, sizeof(names) - len, "%s%ld (%s)", i ? ", " : "", v[i].pid,
				 v[i].program);
		fail("%zu processes of yours have live counters, %s: name one", n, names);
	}
	if (n > 1)
		k = pick(v, n);
	snprintf(chosen, sizeof(chosen), "%ld", v[k].pid);
	live_list_free(v, n);
	return chosen;
}
