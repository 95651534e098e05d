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

#endif
