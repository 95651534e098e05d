#include "commands.h"
#include "util.h"
int cmd_record(int argc, char **argv) { (void)argc; (void)argv; fail("not yet"); }
