/* SPDX-License-Identifier: MIT */
/*
 * The kept reports of a live directory (live_dir.h), bounded at a cost that
 * does not grow with what the directory holds: every process whose report
 * had nowhere to go keeps one at exit, and neither its time nor the system
 * calls a test suite may count (`strace -e stat` in coreutils's tests)
 * may depend on the files other processes left.
 *
 * The index, DIR/.index: one page, mapped shared by the user's processes for
 * a moment, written with atomics only (no lock: a process stopped or killed
 * anywhere holds no other up):
 *
 *   magic      LIVE_INDEX_MAGIC (anything else: begun again, all places free)
 *   next       places taken so far; place next % LIVE_KEPT_MAX is the oldest
 *   sweep_ns   when a process of the user last swept (live_sweep_due())
 *   place[]    a kept file: its pid, its kind (.report or .counters) and its
 *              KiB; 0 free
 *
 * A kept file takes its place before it is named (live_keep_file()); the
 * file of the place it takes is removed, then the oldest others while all
 * hold more than LIVE_KEPT_BYTES.  A kept file the index does not name is a
 * stray (an older runtime's, or kept while the index could not be mapped):
 * a sweep adopts the strays, the oldest first by ctime, the only files
 * stat'ed.  Before, every exit stat'ed every kept file to find the oldest:
 *
 *   before: an exit at the bound    openat, getdents64 x2, 65 fstatat, unlinkat
 *   after:  any exit                openat, lseek, mmap, close, munmap, unlinkat
 *
 * System calls and snprintf only (live_dir.h).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "live_dir.h"
#include "sys.h"

#define INDEX_NAME		".index"
#define INDEX_BYTES		4096	/* one page; never shrunk (a mapping past the end faults) */

/* A place: the kept file's pid and kind (which file), and its KiB. */
#define PLACE_PID		0x7fffffffULL
#define PLACE_COUNTERS		(1ULL << 31)
#define PLACE_FILE		0xffffffffULL
#define PLACE_KIB_SHIFT		32
#define PLACE_KIB_MAX		0xffffffffULL

struct live_index {
	char magic[16];
	_Atomic uint64_t next;
	_Atomic uint64_t sweep_ns;
	_Atomic uint64_t place[LIVE_KEPT_MAX];
};
_Static_assert(sizeof(LIVE_INDEX_MAGIC) == sizeof(((struct live_index *)0)->magic), "the magic fills its field");
_Static_assert(sizeof(struct live_index) <= INDEX_BYTES, "the index fits its page");

/* The index of DIRFD, made if missing: mapped, or NULL. */
static struct live_index *index_map(int dirfd)
{
	int fd = openat(dirfd, INDEX_NAME, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, 0600);
	struct live_index *x = MAP_FAILED;
	off_t size;

	if (fd < 0)
		return NULL;
	/* Grown by its last byte, not ftruncate(): never shrunk by a race. */
	size = lseek(fd, 0, SEEK_END);
	if (size >= INDEX_BYTES || (size >= 0 && pwrite(fd, "", 1, INDEX_BYTES - 1) == 1))
		x = mmap(NULL, INDEX_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (x == MAP_FAILED)
		return NULL;
	if (memcmp(x->magic, LIVE_INDEX_MAGIC, sizeof(x->magic))) {
		memset(x, 0, sizeof(*x));	/* new (all 0 already), or not ours */
		memcpy(x->magic, LIVE_INDEX_MAGIC, sizeof(x->magic));
	}
	return x;
}

static void index_unmap(struct live_index *x)
{
	munmap(x, INDEX_BYTES);
}

/* The place of the kept file NAME of BYTES, or 0 if NAME is not a kept file's. */
static uint64_t place_of(const char *name, uint64_t bytes)
{
	uint64_t kib = bytes / 1024 + (bytes % 1024 != 0);
	long pid;

	if (!live_kept_pid(name, &pid) || (uint64_t)pid > PLACE_PID)
		return 0;
	return (uint64_t)pid | (strcmp(strchr(name, '.'), LIVE_ENDED_SUFFIX) ? 0 : PLACE_COUNTERS) |
	       (kib < PLACE_KIB_MAX ? kib : PLACE_KIB_MAX) << PLACE_KIB_SHIFT;
}

static int same_file(uint64_t a, uint64_t b)
{
	return (a & PLACE_FILE) == (b & PLACE_FILE);
}

static uint64_t place_kib(uint64_t place)
{
	return place >> PLACE_KIB_SHIFT;
}

/* The file of PLACE removed from DIRFD. */
static void remove_file(int dirfd, uint64_t place)
{
	char name[32];

	snprintf(name, sizeof(name), "%llu%s", (unsigned long long)(place & PLACE_PID),
		 place & PLACE_COUNTERS ? LIVE_ENDED_SUFFIX : LIVE_REPORT_SUFFIX);
	unlinkat(dirfd, name, 0);
}

/* Every place of FILE but place BUT made free (its name is another's now). */
static void forget(struct live_index *x, uint64_t file, unsigned but)
{
	for (unsigned i = 0; i < LIVE_KEPT_MAX; i++) {
		uint64_t place = atomic_load_explicit(&x->place[i], memory_order_relaxed);

		if (i != but && place && same_file(place, file))
			atomic_compare_exchange_strong_explicit(&x->place[i], &place, 0, memory_order_relaxed,
								memory_order_relaxed);
	}
}

static int in_index(struct live_index *x, uint64_t file)
{
	for (unsigned i = 0; i < LIVE_KEPT_MAX; i++)
		if (same_file(atomic_load_explicit(&x->place[i], memory_order_relaxed), file))
			return 1;
	return 0;
}

/* The oldest places after MINE made free, their files removed, while all
 * hold more than LIVE_KEPT_BYTES (MINE stays, whatever its size). */
static void bound_bytes(int dirfd, struct live_index *x, unsigned mine)
{
	uint64_t kib = 0;

	for (unsigned i = 0; i < LIVE_KEPT_MAX; i++)
		kib += place_kib(atomic_load_explicit(&x->place[i], memory_order_relaxed));
	for (unsigned k = 1; k < LIVE_KEPT_MAX && kib > LIVE_KEPT_BYTES / 1024; k++) {
		uint64_t old = atomic_exchange_explicit(&x->place[(mine + k) % LIVE_KEPT_MAX], 0,
							memory_order_relaxed);

		if (old) {
			remove_file(dirfd, old);
			kib -= place_kib(old) < kib ? place_kib(old) : kib;
		}
	}
}

/* PLACE taken in X: the oldest place's file removed (unless it is the same
 * file), the same file's other places freed, the bytes bounded. */
static void take_place(int dirfd, struct live_index *x, uint64_t place)
{
	unsigned mine = (unsigned)(atomic_fetch_add_explicit(&x->next, 1, memory_order_relaxed) % LIVE_KEPT_MAX);
	uint64_t old = atomic_exchange_explicit(&x->place[mine], place, memory_order_relaxed);

	if (old && !same_file(old, place))
		remove_file(dirfd, old);
	forget(x, place, mine);
	bound_bytes(dirfd, x, mine);
}

void live_kept_take_place(int dirfd, const char *name, uint64_t bytes)
{
	uint64_t place = place_of(name, bytes);
	struct live_index *x = place ? index_map(dirfd) : NULL;

	if (x) {
		take_place(dirfd, x, place);
		index_unmap(x);
	}
}

/* NAME's places in DIRFD's index given back (it was never named). */
static void give_back(int dirfd, const char *name)
{
	uint64_t place = place_of(name, 0);
	struct live_index *x = place ? index_map(dirfd) : NULL;

	if (x) {
		forget(x, place, LIVE_KEPT_MAX);
		index_unmap(x);
	}
}

int live_keep_file(int dirfd, const char *name, int fd, uint64_t bytes)
{
	live_kept_take_place(dirfd, name, bytes);
	if (live_link(dirfd, name, fd) == 0)
		return 0;
	give_back(dirfd, name);
	return -1;
}

int live_sweep_due(int dirfd)
{
	struct live_index *x = index_map(dirfd);
	uint64_t now = (uint64_t)sys_clock_ns(CLOCK_REALTIME), last;
	int due;

	if (!x)
		return 1;	/* as without an index: at every start */
	last = atomic_load_explicit(&x->sweep_ns, memory_order_relaxed);
	due = (now < last || now - last >= LIVE_SWEEP_INTERVAL_NS) &&
	      atomic_compare_exchange_strong_explicit(&x->sweep_ns, &last, now, memory_order_relaxed,
						      memory_order_relaxed);
	index_unmap(x);
	return due;
}

/* ---- strays: kept files the index does not name --------------------------- */

/* The newest LIVE_KEPT_MAX strays, the oldest first (older ones removed:
 * they would be at once). */
struct strays {
	struct live_index *x;
	unsigned n;
	struct stray {
		char name[32];
		struct timespec when;	/* named (a link changes the ctime) */
		uint64_t bytes;
	} s[LIVE_KEPT_MAX];
};

static int older(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

/* NAME, of ST, among S's strays in its order, or removed if all are newer. */
static void note_stray(int dirfd, struct strays *s, const char *name, const struct stat *st)
{
	unsigned i;

	if (s->n == LIVE_KEPT_MAX) {
		if (!older(&s->s[0].when, &st->st_ctim)) {
			unlinkat(dirfd, name, 0);
			return;
		}
		unlinkat(dirfd, s->s[0].name, 0);
		memmove(&s->s[0], &s->s[1], --s->n * sizeof(s->s[0]));
	}
	for (i = s->n++; i > 0 && older(&st->st_ctim, &s->s[i - 1].when); i--)
		s->s[i] = s->s[i - 1];
	strcpy(s->s[i].name, name);
	s->s[i].when = st->st_ctim;
	s->s[i].bytes = (uint64_t)st->st_blocks * 512;
}

static int find_stray(int dirfd, const char *name, void *arg)
{
	struct strays *s = arg;
	uint64_t place = place_of(name, 0);
	struct stat st;

	if (place && strlen(name) < sizeof(s->s[0].name) && !in_index(s->x, place) &&
	    fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode))
		note_stray(dirfd, s, name, &st);
	return 0;
}

void live_kept_adopt(int dirfd)
{
	/* A descriptor of its own: its caller may be going through DIRFD. */
	int own = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct strays s = { .x = own >= 0 ? index_map(own) : NULL };

	if (s.x && live_dir_each(own, find_stray, &s) == 0)
		for (unsigned i = 0; i < s.n; i++)
			take_place(own, s.x, place_of(s.s[i].name, s.s[i].bytes));
	if (s.x)
		index_unmap(s.x);
	if (own >= 0)
		close(own);
}
