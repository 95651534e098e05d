/* SPDX-License-Identifier: MIT */
/*
 * bench/gen-input.c: the inputs of bench/run's workloads, made on the spot
 * and the same on every run (their own xorshift generator, fixed seed).
 *
 *   gen-input xml RECORDS    an XML document of RECORDS <book> records on
 *                            stdout, about 250 bytes and 30 heap blocks of
 *                            libxml2's tree each (elements, attributes, text
 *                            and the blank text between them); 230000 records
 *                            make 57 MB and 6.8 million blocks
 *   gen-input lines LINES    LINES lines "user<N> <word> <amount>" on stdout,
 *                            for bench/hash.pl: users drawn from a
 *                            population as large as LINES / 4 (so the hash
 *                            keeps growing), words from 5000 seeds
 *                            (about 3400 distinct)
 *
 * Exit status 2 and a usage line on bad arguments.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint32_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 11);
}

static const char *const syllables[] = {
	"ka", "lo", "mi", "ne", "ru", "sa", "te", "vo", "zi", "qua", "bre", "dor",
	"fen", "gil", "har", "jun", "lis", "mor", "pel", "tor",
};
#define NSYLLABLES (sizeof(syllables) / sizeof(syllables[0]))

/* A made-up word of 2 to 4 syllables, drawn from SEED (the same seed, the same word). */
static void word(char *out, size_t size, uint32_t seed)
{
	unsigned n = 2 + seed % 3;

	out[0] = '\0';
	for (unsigned i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		strncat(out, syllables[(seed >> 16) % NSYLLABLES], size - strlen(out) - 1);
	}
}

/* A phrase of N random words: a title, a name. */
static void phrase(char *out, size_t size, unsigned n)
{
	char w[32];

	out[0] = '\0';
	for (unsigned i = 0; i < n; i++) {
		word(w, sizeof(w), next());
		if (i)
			strncat(out, " ", size - strlen(out) - 1);
		strncat(out, w, size - strlen(out) - 1);
	}
}

static void xml(unsigned long records)
{
	static const char *const langs[] = { "en", "fr", "de", "it", "es" };
	static const char *const currencies[] = { "EUR", "USD", "GBP" };
	char title[160], name[80], w[32];

	printf("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<catalog>\n");
	for (unsigned long i = 0; i < records; i++) {
		unsigned ntags = 1 + next() % 4;

		phrase(title, sizeof(title), 2 + next() % 5);
		phrase(name, sizeof(name), 2);
		printf(" <book id=\"b%lu\" lang=\"%s\">\n", i, langs[next() % 5]);
		printf("  <title>%s</title>\n", title);
		printf("  <author>%s</author>\n", name);
		printf("  <year>%u</year>\n", 1900 + next() % 125);
		printf("  <price currency=\"%s\">%u.%02u</price>\n",
		       currencies[next() % 3], 1 + next() % 200, next() % 100);
		printf("  <tags>");
		for (unsigned t = 0; t < ntags; t++) {
			word(w, sizeof(w), next() % 400);
			printf("<tag>%s</tag>", w);
		}
		printf("</tags>\n </book>\n");
	}
	printf("</catalog>\n");
}

static void lines(unsigned long n)
{
	unsigned long users = n / 4 ? n / 4 : 1;
	char w[32];

	for (unsigned long i = 0; i < n; i++) {
		word(w, sizeof(w), next() % 5000);
		printf("user%lu %s %u\n", (unsigned long)(next() % users), w, next() % 10000);
	}
}

int main(int argc, char **argv)
{
	char *end;
	unsigned long n = argc == 3 ? strtoul(argv[2], &end, 10) : 0;

	if (argc != 3 || !n || *end) {
		fprintf(stderr, "usage: gen-input xml RECORDS | gen-input lines LINES\n");
		return 2;
	}
	if (!strcmp(argv[1], "xml"))
		xml(n);
	else if (!strcmp(argv[1], "lines"))
		lines(n);
	else {
		fprintf(stderr, "usage: gen-input xml RECORDS | gen-input lines LINES\n");
		return 2;
	}
	return fflush(stdout) || ferror(stdout) ? 1 : 0;
}
