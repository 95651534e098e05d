/* SPDX-License-Identifier: MIT */
/* commands.h: the subcommands of alloctag, each in a file of its name. */
#ifndef ALLOCTAG_TOOL_COMMANDS_H
#define ALLOCTAG_TOOL_COMMANDS_H

int cmd_top(int argc, char **argv);
int cmd_snapshot(int argc, char **argv);
int cmd_ps(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_pprof(int argc, char **argv);

/* "alloctag: usage: alloctag COMMAND ..." for a command's wrong arguments. */
_Noreturn void usage_of(const char *command);

struct option;

/*
 * The next option of a command's arguments, as getopt_long() gives it, with
 * -h/--help (the command's usage on stdout, exit 0) and --version answered
 * here, and an unknown option or a missing value said in one line (exit 2).  Options
 * may follow operands, as in GNU tools, unless SHORTOPTS begins with '+'
 * (record: what follows its PID or "--" is not its own).  -1 at the end.
 */
int command_option(const char *command, int argc, char **argv, const char *shortopts,
		   const struct option *longopts);

#endif
