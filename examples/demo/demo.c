/*
 * alloctag demo: count the words of a text and print the most frequent.
 * Built with alloctag-cc, it reports at exit, per allocation site, the bytes
 * still held: here, one site that forgets to free.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "xalloc.h"

struct word {
	char *text;
	unsigned count;
	struct word *next;
};

static struct word **table;
static size_t table_size = 64;

static const char text[] =
	"the quick brown fox jumps over the lazy dog and the dog sleeps "
	"while the fox runs over the hill and the quick dog follows the fox";

static unsigned hash(const char *s)
{
	unsigned h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

static struct word *count(const char *w)
{
	struct word **slot = &table[hash(w) % table_size], *e;

	for (e = *slot; e; e = e->next)
		if (!strcmp(e->text, w))
			break;
	if (!e) {
		e = xmalloc(sizeof(*e));
		e->text = strdup(w);
		e->count = 0;
		e->next = *slot;
		*slot = e;
	}
	e->count++;
	return e;
}

/* Split a copy of the text into words, growing the array as needed. */
static char **split(char *copy, size_t *n)
{
	char **words = NULL, *w;
	size_t cap = 0;

	*n = 0;
	for (w = strtok(copy, " "); w; w = strtok(NULL, " ")) {
		if (*n == cap) {
			cap = cap ? 2 * cap : 4;
			words = realloc(words, cap * sizeof(*words));
		}
		words[(*n)++] = w;
	}
	return words;
}

static int by_count(const void *a, const void *b)
{
	const struct word *x = *(struct word *const *)a, *y = *(struct word *const *)b;

	return (int)y->count - (int)x->count;
}

int main(void)
{
	char *title, *copy = strdup(text), **words;
	struct word **all, *e, *next;
	size_t n, i, distinct = 0;

	if (asprintf(&title, "%zu bytes of text", sizeof(text) - 1) < 0)
		return 1;
	table = calloc(table_size, sizeof(*table));
	words = split(copy, &n);
	for (i = 0; i < n; i++)
		distinct += count(words[i])->count == 1;

	all = xmalloc(distinct * sizeof(*all));
	for (i = 0, n = 0; i < table_size; i++)
		for (e = table[i]; e; e = e->next)
			all[n++] = e;
	qsort(all, n, sizeof(*all), by_count);
	printf("%s, %zu distinct words; most frequent:", title, distinct);
	for (i = 0; i < 5; i++)
		printf(" %s (%u)", all[i]->text, all[i]->count);
	printf("\n");
	fflush(stdout);

	for (i = 0; i < table_size; i++)
		for (e = table[i]; e; e = next) {
			next = e->next;
			free(e->text);
			free(e);
		}
	free(all);
	free(table);
	free(words);
	free(copy);
	return 0;	/* title is never freed: the report points at it */
}
