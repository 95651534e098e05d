/* SPDX-License-Identifier: MIT */
/*
 * cli_table.c: what alloctag's commands take and do, the one place it is
 * written (cli.h): the option parser, --help, the manual pages alloctag(1),
 * alloctag-cc(1) and alloctag(7), and the bash completion are made from it.
 *
 * Text: sentences; paragraphs separated by a blank line; a paragraph whose
 * lines begin with two spaces is shown as it is (an example, a table).
 */
#include "cli.h"
#include "util.h"

#define STATUS_0_2	"0 on success, 2 on trouble (one line on stderr)."
#define LIVE_DIRECTORY \
	"The live directory: the first of $XDG_RUNTIME_DIR/alloctag, /dev/shm/alloctag-UID and " \
	"/tmp/alloctag-UID that is the user's alone (owner, mode 0700, not a symbolic link). " \
	"DIR/PID: the live counters of a running process (removed at exit); DIR/PID.report: the " \
	"report of a process that ended and kept it; DIR/PID.counters: the live counters of a " \
	"process that was killed, as last seen (it wrote no report). Of these two, the last 64 " \
	"are kept, in at most 16 MiB."

const char cli_summary[] =
	"read the per-call-site allocation counters of programs built with alloctag-cc";

const char cli_description[] =
	"A PID is a running process of yours built with alloctag-cc, or one that ended and kept "
	"its report, or was killed and left its counters as last seen (alloctag ps -a lists "
	"them all). A REPORT is what its runtime writes (allocinfo, "
	"full or json) or a copy of the kernel's /proc/allocinfo. A TIMELINE is what alloctag "
	"record writes, read at its last sample, or at the one named: TIMELINE@peak (the most "
	"live bytes), TIMELINE@2.5s (the last sample at or before 2.5 s). A PID is all digits: "
	"write ./123 for a file named so. A NAME, where no file has that name, is a program's, "
	"as is the program's own file (./server): its one running process, or, if none runs, the "
	"last one to end.";

const struct cli_command cli_commands[] = {
	{ "top", "[PID | NAME | /proc/allocinfo | FILE]",
	  "a refreshing view of the sites, as top(1) shows processes (q quits, h lists the keys)",
	  "Per site: live bytes and blocks, their growth since the refresh before, the bytes and "
	  "calls allocated per second between the two (rate), total bytes and calls, peak bytes. "
	  "The columns fit the terminal (the least used go first when it is narrow), the site "
	  "takes the rest, a long one shortened: its directories first, its file's name and line "
	  "kept. A report or /proc/allocinfo is "
	  "read again at each refresh; a process that exits stays on screen with its final "
	  "counters.\n\n"
	  "With no operand: your one process with live counters; with several, a list to pick "
	  "from; with none, /proc/allocinfo.\n\n"
	  "Keys: l b g a n t c p s sort by live bytes (LIVE), live blocks (BLOCKS), growth "
	  "(GROWTH), bytes allocated per second (RATE), calls per second (CALLS/S), total bytes "
	  "(TOTAL), total calls (CALLS), peak bytes (PEAK), site (SITE); < and > by the column "
	  "left or right; r reverses; / filters (as -f; Enter applies, Esc cancels); e shows "
	  "exact numbers; space refreshes; + and - change the interval; arrows, PgUp, PgDn and "
	  "Home scroll; h shows the keys; q quits.",
	  STATUS_0_2, 0,
	  { { 'b', "batch", NULL, "No screen: print COUNT refreshes one after the other, then exit "
				  "(what top does when its output is not a terminal), as wide as "
				  "$COLUMNS says, else whole." },
	    { 'B', "bytes", NULL, "Bytes and counts exactly, not in KiB, MiB, k, M." },
	    { 'd', "delay", "SECONDS", "Refresh every SECONDS (default 1; 0.1 to 3600; 100ms, 2s)." },
	    { 'f', "filter", "TEXT", "Only the sites whose line holds TEXT; file:TEXT, func:TEXT, "
				     "module:TEXT: whose file, function or module holds it (case "
				     "ignored)." },
	    { 'n', "iterations", "COUNT", "Stop after COUNT refreshes." },
	    { 's', "sort", "COLUMN", "Sort by COLUMN: live (the default), blocks, growth, rate, "
				     "calls/s, total, calls, peak or site, or its key (l b g a n t c p "
				     "s).",
	      "live blocks growth rate calls/s total calls peak site" } } },
	{ "snapshot", "(PID | NAME | REPORT | TIMELINE)",
	  "the counters now: a table for people, or a report in the runtime's formats",
	  "On a terminal, a table: live bytes and blocks, total bytes and calls, peak bytes per "
	  "site, largest first, in KiB, MiB, k (exact with -B). Elsewhere (a pipe, a file, -o), "
	  "the report in the allocinfo format, written by the runtime's own code, so that a "
	  "snapshot of a process compares line by line with its report at exit; also converts a "
	  "report or a timeline's sample from one format to another.",
	  STATUS_0_2, 0,
	  { { 'B', "bytes", NULL, "In the table, bytes and counts exactly." },
	    { 'f', "format", "FORMAT", "table, allocinfo (the kernel's /proc/allocinfo, version "
				       "2.0), full (with total bytes, total calls, peak bytes, columns "
				       "and callees) or json.", "table allocinfo full json" },
	    { 'o', "output", "FILE", "Write to FILE (replaced whole) instead of the standard output." } } },
	{ "ps", "",
	  "the processes of yours that have live counters",
	  "Each process's pid, live bytes and blocks, sites and program.",
	  STATUS_0_2, 0,
	  { { 'a', "all", NULL, "Also the processes that ended and kept their report, marked "
				"(exited), and those that were killed (a signal, or _exit()), "
				"marked (killed): their counters as last seen." },
	    { 'B', "bytes", NULL, "Live bytes exactly, not in KiB, MiB, ..." } } },
	{ "leaks", "(PID | NAME | REPORT | TIMELINE)",
	  "what was live at exit, by site, largest first",
	  "The sites that held bytes or blocks when the process exited (its kept report, by its "
	  "PID or its NAME, or a report) or was last seen (it was killed), or that hold them now "
	  "(a process that runs), largest "
	  "first, with their total bytes and calls. The untagged line is what the C library and "
	  "code built without alloctag-cc held.",
	  STATUS_0_2, 0,
	  { { 'B', "bytes", NULL, "Bytes and counts exactly, not in KiB, MiB, k." } } },
	{ "diff", "A B",
	  "per-site change from A to B (reports, PIDs, names, timelines)",
	  "Per site, the change of live bytes and blocks from A to B, largest first, with grew, "
	  "shrank, new, gone, and the totals. When A and B are readings of one run of a process, B "
	  "the later (the same pid and start: a process read twice, two samples of one "
	  "timeline), RATE and CALLS/S: what each site allocated per second between them. Sites "
	  "match by file, line, module and function, and by column and callee when both sides "
	  "have them.",
	  "0 if A and B are the same, 1 if they differ, 2 on trouble (as diff(1)).", 0,
	  { { 'a', "all", NULL, "Also the sites that did not change (same)." },
	    { 'B', "bytes", NULL, "Bytes and counts exactly, not in KiB, MiB, k." } } },
	{ "record", "(PID | NAME | -- CMD [ARG]...)",
	  "sample the counters into a timeline file of bounded size",
	  "The counters every INTERVAL until the process exits (its last sample is then its final "
	  "counters, the same as its report at exit) or record is stopped (SIGINT, SIGTERM). With "
	  "-- CMD, record starts CMD, leaves SIGINT to it and exits with its status.",
	  "the status of CMD when given one, else 0; 2 on trouble.", 1,
	  { { 'i', "interval", "INTERVAL", "Sample every INTERVAL (default 100ms; 1ms at least)." },
	    { 'm', "max-size", "SIZE", "Keep the file under SIZE bytes (default 16M, 64k at least): "
				       "when it is full, every other sample goes, the highest kept." },
	    { 'o', "output", "FILE", "The timeline's file (default alloctag-PID.timeline)." } } },
	{ "plot", "(TIMELINE | REPORT | PID | NAME)...",
	  "one self-contained HTML page: charts over time and a table of all sites; several compared",
	  "One file, no script, nothing fetched, as wide as the window. From a timeline: a chart "
	  "over time of the sites that held the most and of all sites together, the highest point "
	  "of the total marked; the links above it choose live bytes or the bytes allocated per "
	  "second, a linear or a log scale, lines or stacked areas. Then a table of every site. "
	  "From a report or a process now: a bar per site.\n\n"
	  "Given several (up to 10): timelines compared over time (the total of each, live or per "
	  "second), anything else a bar per run for each site, then a table of every site with "
	  "its live and total bytes in each.",
	  STATUS_0_2, 0,
	  { { 'n', "sites", "COUNT", "Draw the COUNT sites that held (or allocated) the most "
				     "(default 8)." },
	    { 'o', "output", "FILE", "The page's file (default: the first operand's name with .html, "
				     "alloctag-PID.html for a process, A-vs-B.html for several; its "
				     "name is said on the standard output)." } } },
	{ "pprof", "(PID | NAME | REPORT | TIMELINE)",
	  "a gzipped profile.proto for go tool pprof and continuous profilers",
	  "Sample types alloc_objects, alloc_space, inuse_objects and inuse_space (the default; "
	  "only the inuse pair from an allocinfo report), one sample per site, the callee as a "
	  "label.",
	  STATUS_0_2, 0,
	  { { 'o', "output", "FILE", "The profile's file (default: the operand's name with .pb.gz, "
				     "alloctag-PID.pb.gz for a process; its name is said on the "
				     "standard output)." } } },
};
const size_t cli_ncommands = ARRAY_SIZE(cli_commands);

const struct cli_variable cli_variables[] = {
	{ "COLUMNS", "The width of the tables of top -b, snapshot, leaks and diff when the output is "
		     "not a terminal (else a terminal's width, else any)." },
	{ "XDG_RUNTIME_DIR", "The first place of the live directory (FILES); a process's own, from "
			     "/proc/PID/environ, is looked in first, and a login session's, "
			     "/run/user/UID/alloctag, last." },
};
const size_t cli_nvariables = ARRAY_SIZE(cli_variables);

const struct cli_section cli_sections[] = {
	{ "EXIT STATUS",
	  "0 on success; 2, with one line on standard error, for bad input or usage. diff: 0 if "
	  "nothing changed, 1 if something did. record -- CMD: CMD's status." },
	{ "FILES", LIVE_DIRECTORY },
};
const size_t cli_nsections = ARRAY_SIZE(cli_sections);

/* ---- alloctag-cc(1) ------------------------------------------------------ */

const char cc_summary[] =
	"C and C++ compilers that tag every allocation with its call site";

const char cc_description[] =
	"Drop-in replacements for gcc and g++:\n\n"
	"  CC=alloctag-cc CXX=alloctag-c++ ./configure && make\n\n"
	"Compiling, they load the alloctag GCC plugin, which gives every call to malloc, strdup, "
	"getline and the other allocating functions of the C library (and the project's own "
	"allocators, when named) a static tag of its own. A call that leads to an allocation "
	"without calling an allocator (a new expression, v.push_back(x), a call to an "
	"allocation wrapper the compiler finds) is charged to its own line too. Linking, they "
	"add liballoctag, which counts per call site and reports at exit (alloctag(7)). Every "
	"other option is gcc's: --help and --version are the compiler's own, which build "
	"systems parse.";

const struct cli_option cc_options[] = {
	{ 0, "alloctag-functions", "LIST", "The project's own allocators, tagged by name: "
					   "NAME[:VARIANT] or a pattern (xmlStrdup*), separated by "
					   "commas or blanks; @FILE reads a file of them." },
	{ 0, "alloctag-tags", "FILE", "A header of the project's own allocators declared "
				      "__alloc_tagged, forced into every unit." },
	{ 0, "alloctag-wrappers", "FILE", "The allocation wrappers of the project across units: a "
					  "list each compilation reads and adds its own to. A first "
					  "build writes it; the next charges every wrapper's callers." },
	{ 0, "alloctag-innermost", NULL, "Charge the innermost tagged call (the kernel's rule) "
					 "instead of the outermost." },
	{ 0, "alloctag-static", NULL, "Link liballoctag.a instead of the shared library." },
	{ 0, "alloctag-help", NULL, "The drivers' own help, then exit (--help is the compiler's)." },
};
const size_t cc_noptions = ARRAY_SIZE(cc_options);

const struct cli_variable cc_variables[] = {
	{ "ALLOCTAG_CC, ALLOCTAG_CXX", "The compiler command to run, split at blanks as configure "
				       "splits CC (\"ccache gcc\"; default: the GCC alloctag was "
				       "built for, and its g++)." },
	{ "ALLOCTAG_FUNCTIONS", "As --alloctag-functions." },
	{ "ALLOCTAG_TAGS", "As --alloctag-tags (FILE...)." },
	{ "ALLOCTAG_WRAPPERS", "As --alloctag-wrappers." },
	{ "ALLOCTAG_NESTING", "innermost: as --alloctag-innermost." },
	{ "ALLOCTAG_LINK", "static: as --alloctag-static." },
	{ "ALLOCTAG_CC_VERBOSE", "1: print the command run." },
};
const size_t cc_nvariables = ARRAY_SIZE(cc_variables);

/* ---- alloctag(7): the runtime -------------------------------------------- */

const char runtime_summary[] =
	"per-call-site allocation counters: the runtime of programs built with alloctag-cc";

const char runtime_description[] =
	"A program built with alloctag-cc (or run with LD_PRELOAD=liballoctag.so) counts, for "
	"each call site that allocates, its live bytes and blocks, total bytes and calls and peak "
	"live bytes, and reports them at exit in the kernel's /proc/allocinfo format. Its "
	"counters can also be read while it runs, by alloctag(1). These variables are read when "
	"the program starts.";

const struct cli_variable runtime_variables[] = {
	{ "ALLOCTAG_REPORT", "Where the report goes: stderr, stdout, off, or a file (%p the pid, "
			     "%e the program name, %% a %; a relative name is in the directory "
			     "the process started in). Unset: kept in the live directory, on a "
			     "terminal too." },
	{ "ALLOCTAG_FORMAT", "allocinfo (the default: live bytes and calls, largest first), full "
			     "(adds total bytes, total calls and peak bytes, and the column and "
			     "called function of each site) or json." },
	{ "ALLOCTAG_TOP", "Only the N largest sites." },
	{ "ALLOCTAG_SIGNAL", "Also report on this signal: USR1, USR2, HUP, ... or a number; not "
			     "one a crash or the C library uses." },
	{ "ALLOCTAG_LIVE", "off: no live file; keep: the live file stays after exit." },
	{ "XDG_RUNTIME_DIR", "The first place for the live directory: $XDG_RUNTIME_DIR/alloctag." },
};
const size_t runtime_nvariables = ARRAY_SIZE(runtime_variables);

const struct cli_section runtime_sections[] = {
	{ "WHERE REPORTS GO",
	  "Where ALLOCTAG_REPORT says. When it is unset (on a terminal too: a terminal may be "
	  "a test harness's), and when the report cannot go where it says (the stream closed "
	  "or another file, a file that cannot be written, a closed pipe), the report is kept "
	  "in the live directory as DIR/PID.report (json), with a note saying why: alloctag ps -a lists "
	  "them, and every alloctag command reads one by the process's PID. A process killed by a "
	  "signal (or ending in _exit()) writes no report: its live file, its counters as last "
	  "seen, is kept as DIR/PID.counters by the next alloctag command to find it, or by a "
	  "process of yours that starts the runtime a second or more after the last to settle "
	  "the directory, and read as its report. The last 64 of "
	  "these (at most 16 MiB) are kept, the oldest removed first. A set-user-ID program "
	  "writes no file." },
	{ "FILES", LIVE_DIRECTORY },
};
const size_t runtime_nsections = ARRAY_SIZE(runtime_sections);
