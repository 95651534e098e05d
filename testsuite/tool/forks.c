/*
 * fork for the live tests: the parent keeps 100 bytes, forks, and the
 * child keeps 200 more; both print their pid and wait for stdin to close.
 * The child's live file is its own: its counters hold its copy of the
 * parent's block and its own; the parent's do not hold the child's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
	char *volatile before = malloc(100), *volatile after = NULL;	/* kept by GCC 15 too */
	pid_t child;

	memset(before, 1, 100);
	fflush(stdout);
	child = fork();
	if (child == 0) {
		after = malloc(200);
		memset(after, 2, 200);
	}
	printf("%s %ld\n", child ? "parent" : "child", (long)getpid());
	fflush(stdout);
	while (getchar() != EOF)
		;
	if (child > 0)
		waitpid(child, NULL, 0);
	free(after);
	free(before);
	return 0;
}
