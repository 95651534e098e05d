/* SPDX-License-Identifier: MIT */
/*
 * bench/stdio.c: a C program whose time is the C library's stdio, in the
 * small calls a line-oriented tool makes: records written to a temporary
 * file with fputs, fwrite and fprintf, read back with fgets, sorted with
 * qsort.  What alloctag's auto argument costs there: each of those calls
 * gets an implied tag (the C library's functions that allocate inside: the
 * stream's buffer, the FILE, qsort's scratch), set and restored around it.
 *
 *   stdio [RECORDS]   (default 200000)
 *
 * Output: a checksum, the same for every build.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int by_length(const void *a, const void *b)
{
	return (int)(*(const size_t *)a > *(const size_t *)b) - (int)(*(const size_t *)a < *(const size_t *)b);
}

int main(int argc, char **argv)
{
	long records = argc > 1 ? atol(argv[1]) : 200000;
	FILE *f = tmpfile();
	char line[256];
	size_t *lengths, n = 0;
	unsigned long sum = 0;

	if (!f || records <= 0 || !(lengths = malloc(records * sizeof(*lengths))))
		return 1;
	for (long i = 0; i < records; i++) {
		fputs("key", f);
		fwrite(":", 1, 1, f);
		fprintf(f, "%ld\n", i * 7919 % records);
	}
	rewind(f);
	while (n < (size_t)records && fgets(line, sizeof(line), f))
		lengths[n++] = strlen(line);
	qsort(lengths, n, sizeof(*lengths), by_length);
	for (size_t i = 0; i < n; i += n / 16 + 1)
		sum = sum * 31 + lengths[i];
	printf("%zu %lu\n", n, sum);
	free(lengths);
	fclose(f);
	return 0;
}
