/* SPDX-License-Identifier: MIT */
/*
 * bench/wrappers.c: a C program that allocates through wrappers of another
 * unit (bench/wrappers-lib.c), as gnulib's programs do: a symbol table of
 * strdup'd names in chained nodes, growing arrays, and a text built and
 * thrown away line by line.  What alloctag's auto argument costs there:
 * each call to a wrapper gets a tag of its own.
 *
 *   wrappers [ROUNDS]   (default 40)
 *
 * Output: a checksum, the same for every build.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t s);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

#define BUCKETS 4096
#define NAMES 20000

struct sym { struct sym *next; char *name; long *uses; size_t nuses, cap; };

static unsigned hash(const char *s)
{
	unsigned h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h % BUCKETS;
}

static struct sym *intern(struct sym **table, const char *name)
{
	struct sym **b = &table[hash(name)], *s;

	for (s = *b; s; s = s->next)
		if (!strcmp(s->name, name))
			return s;
	s = xcalloc(1, sizeof(*s));
	s->name = xstrdup(name);
	s->next = *b;
	*b = s;
	return s;
}

static void use(struct sym *s, long where)
{
	if (s->nuses == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 4;
		s->uses = xrealloc(s->uses, s->cap * sizeof(*s->uses));
	}
	s->uses[s->nuses++] = where;
}

static unsigned long round_of(int r)
{
	struct sym **table = xcalloc(BUCKETS, sizeof(*table));
	unsigned long sum = 0;
	char name[32];

	for (long i = 0; i < 3 * NAMES; i++) {
		snprintf(name, sizeof(name), "sym_%ld", (i * 7919 + r) % NAMES);
		use(intern(table, name), i);
		if (i % 64 == 0) {
			char *line = xmalloc(128 + i % 512);
			memset(line, 'a' + i % 26, 128);
			sum += (unsigned char)line[i % 128];
			free(line);
		}
	}
	for (int b = 0; b < BUCKETS; b++)
		for (struct sym *s = table[b], *next; s; s = next) {
			next = s->next;
			sum += s->nuses + strlen(s->name);
			free(s->uses);
			free(s->name);
			free(s);
		}
	free(table);
	return sum;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 40;
	unsigned long sum = 0;

	for (int r = 0; r < rounds; r++)
		sum += round_of(r);
	printf("wrappers: %d rounds, checksum %lu\n", rounds, sum);
	return 0;
}
