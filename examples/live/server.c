/*
 * examples/live/server.c: a toy server to watch with `alloctag top`,
 * `record` and `plot` while it runs.  Requests come in for SECONDS (default
 * 6) at a steady rate; each gets an answer buffer, freed when the answer has
 * been sent, PENDING_MAX requests later.  A cache keeps a copy of one answer
 * in four, evicting the oldest beyond CACHE_MAX entries (it fills, then
 * stays level); a session table keeps an entry for one client in 64 and
 * forgets to free it (a slow leak); halfway, a statistics report builds a
 * large text, keeps it for REPORT_MS, and drops it (the peak).
 *
 *   server [SECONDS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CACHE_MAX	4000
#define PENDING_MAX	400
#define REQUESTS_PER_TICK 200
#define TICK_MS		10
#define SESSION_SIZE	2048
#define REPORT_SIZE	(6 << 20)
#define REPORT_MS	800

struct entry {
	char *key, *value;
};

static struct entry cache[CACHE_MAX];
static unsigned cache_next;
static char *pending[PENDING_MAX];
static unsigned pending_next;
static unsigned long rng = 12345;

static unsigned long next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void cache_put(const char *key, const char *value, size_t size)
{
	struct entry *e = &cache[cache_next++ % CACHE_MAX];

	free(e->key);
	free(e->value);
	e->key = strdup(key);
	e->value = malloc(size);
	memcpy(e->value, value, size);
}

static char *handle(unsigned long client, size_t size)
{
	char *buf = malloc(size);

	memset(buf, ' ', size);
	snprintf(buf, size, "answer for client %lu: %lu", client, next());
	return buf;
}

/* The answer is sent: its buffer goes PENDING_MAX requests later. */
static void send_answer(char *answer)
{
	char **slot = &pending[pending_next++ % PENDING_MAX];

	free(*slot);
	*slot = answer;
}

static void remember_session(unsigned long client)
{
	char *session = malloc(SESSION_SIZE);		/* never freed: the leak */

	snprintf(session, SESSION_SIZE, "session of %lu", client);
}

static char *statistics_report(void)
{
	char *text = malloc(REPORT_SIZE);

	memset(text, 'x', REPORT_SIZE);		/* touched: it is resident */
	return text;
}

static void sleep_ms(int ms)
{
	struct timespec ts = { 0, ms * 1000000L };

	nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
	int seconds = argc > 1 ? atoi(argv[1]) : 6;
	int ticks = seconds * 1000 / TICK_MS;
	char *report = NULL;

	for (int t = 0; t < ticks; t++) {
		for (int r = 0; r < REQUESTS_PER_TICK; r++) {
			unsigned long client = next() % 100000;
			size_t size = 256 + next() % 4096;
			char key[32], *answer = handle(client, size);

			snprintf(key, sizeof(key), "k%lu", client);
			if (next() % 4 == 0)
				cache_put(key, answer, size);
			if (next() % 64 == 0)
				remember_session(client);
			send_answer(answer);
		}
		if (t == ticks / 2)
			report = statistics_report();
		if (t == ticks / 2 + REPORT_MS / TICK_MS) {
			free(report);
			report = NULL;
		}
		sleep_ms(TICK_MS);
	}
	printf("served %d requests\n", ticks * REQUESTS_PER_TICK);
	return 0;
}
