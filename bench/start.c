/* SPDX-License-Identifier: MIT */
/*
 * bench/start.c: the shortest life a program has (bench/start-exit): one
 * allocation, kept to the end, as a small command's options or path would
 * be, and exit.
 */
#include <stdlib.h>
#include <string.h>

static char *volatile keep;

int main(int argc, char **argv)
{
	keep = strdup(argc > 1 ? argv[1] : "start");
	return keep == NULL;
}
