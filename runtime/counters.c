/* SPDX-License-Identifier: MIT */
/*
 * alloctag runtime: the memory the counters live in (counters.h).
 *
 * Extents of EXTENT_SIZE bytes, each a mapping of its own: anonymous memory
 * until live.c gives a live file, then shared mappings of that file at the
 * extent's offset.  Chunks are handed out in offset order, under the
 * registry lock; a page costs memory when it is first written, so a process
 * with a few sites uses a few pages.
 *
 * The file's pages are allocated (fallocate) before a chunk in them is
 * handed out: a full file system then makes the file stop growing
 * (COUNTERS_PARTIAL, new extents anonymous), never a SIGBUS in malloc.
 *
 * No descriptor of the file stays open (a program may close or reuse any
 * number): to grow, the file is opened again by its path (O_NOFOLLOW,
 * O_CLOEXEC), used only if it is still the same inode, and closed before
 * malloc returns; if it is not (removed, replaced), the file stops growing
 * as on a full file system.  errno is kept.
 *
 * Rebinding (a live file made at start, a child's own file after fork, or
 * no file): each extent's bytes are copied into the new backing and the new
 * mapping is moved over the old one, at the same address, so the pointers
 * the program's blocks hold to their slots stay valid.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "counters_mem.h"
#include "counters_read.h"
#include "sys.h"
#include "live_dir.h"

char *alloctag_extents[COUNTERS_MAX_EXTENTS];
static _Atomic uint32_t nextents;	/* published after alloctag_extents[i] */
static uint64_t next_free;		/* offset of the first byte no chunk has */
static char *at_fork;			/* the counters as they were at fork (a copy) */

/* The live file the counters grow into, by path and identity. */
static struct {
	int on;
	char path[LIVE_PATH_MAX + 32];
	dev_t dev;
	ino_t ino;
} backing;

void *alloctag_map(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

void alloctag_unmap(void *p, size_t size)
{
	munmap(p, size);
}

static struct counters_header *header(void)
{
	return (struct counters_header *)alloctag_extents[0];
}

/* Extent I, mapped from the live file, or anonymous. */
static char *map_extent(uint32_t i, int fd)
{
	void *p;

	if (fd < 0)
		return alloctag_map(EXTENT_SIZE);
	if (ftruncate(fd, (off_t)(i + 1) * EXTENT_SIZE) != 0)
		return NULL;
	p = mmap(NULL, EXTENT_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)i * EXTENT_SIZE);
	return p == MAP_FAILED ? NULL : p;
}

static void stamp_process(struct counters_header *h)
{
	const char *name = program_invocation_name;

	h->pid = getpid();
	h->start_ns = sys_clock_ns(CLOCK_REALTIME);
	if (name)
		strncpy(h->program, name, PROGRAM_MAX - 1);
}

static int start(void)
{
	struct counters_header *h;

	alloctag_extents[0] = alloctag_map(EXTENT_SIZE);
	if (!alloctag_extents[0])
		return -1;
	store_release(&nextents, 1);
	h = header();
	memcpy(h->magic, COUNTERS_MAGIC, sizeof(h->magic));
	h->version = COUNTERS_VERSION;
	h->header_size = sizeof(*h);
	h->chunk_size = CHUNK_SIZE;
	h->extent_size = EXTENT_SIZE;
	store_relaxed(&h->state, COUNTERS_RUNNING);
	stamp_process(h);
	next_free = CHUNK_SIZE;
	store_release(&h->used, next_free);
	return 0;
}

/* The counters, made if they are not yet.  Under the registry lock. */
struct counters_header *alloctag_counters_begin(void)
{
	return load_relaxed(&nextents) || start() == 0 ? header() : NULL;
}

struct counters_header *alloctag_counters(void)
{
	return load_acquire(&nextents) ? header() : NULL;
}

void *alloctag_counters_at(uint64_t offset)
{
	return alloctag_extents[offset / EXTENT_SIZE] + offset % EXTENT_SIZE;
}

/* The live file cannot hold more: later extents are the process's alone. */
static void stop_backing(void)
{
	atomic_fetch_or_explicit(&header()->state, COUNTERS_PARTIAL, memory_order_relaxed);
	backing.on = 0;
}

/* The live file, opened again if it is still the counters' file: a
 * descriptor to close, or -1 (and then the file grows no more). */
static int backing_open(void)
{
	struct stat st;
	int fd;

	if (!backing.on)
		return -1;
	fd = open(backing.path, O_RDWR | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_dev == backing.dev &&
	    st.st_ino == backing.ino)
		return fd;
	if (fd >= 0)
		close(fd);
	stop_backing();
	return -1;
}

/* Room for SIZE bytes at next_free, in one extent, mapped (from FD, the
 * live file, or anonymous) and backed. */
static int make_room_in(uint32_t size, int fd)
{
	uint32_t i = next_free / EXTENT_SIZE;

	if (next_free % EXTENT_SIZE + size > EXTENT_SIZE)
		next_free = (uint64_t)++i * EXTENT_SIZE;
	if (i >= COUNTERS_MAX_EXTENTS)
		return -1;
	if (i == nextents) {
		alloctag_extents[i] = map_extent(i, fd);
		if (!alloctag_extents[i] && fd >= 0) {
			stop_backing();
			fd = -1;
			alloctag_extents[i] = map_extent(i, -1);
		}
		if (!alloctag_extents[i])
			return -1;
		store_release(&nextents, i + 1);
	}
	if (fd >= 0 && fallocate(fd, 0, (off_t)next_free, size) != 0) {
		/* This extent's unbacked pages stay unused. */
		stop_backing();
		next_free = (uint64_t)(i + 1) * EXTENT_SIZE;
		return make_room_in(size, -1);
	}
	return 0;
}

static int make_room(uint32_t size)
{
	int saved_errno = errno, was_backed = backing.on, fd = backing_open(), rc;

	/* The file is gone: the rest of its extent, mapped from it, stays unused. */
	if (was_backed && fd < 0 && next_free % EXTENT_SIZE)
		next_free = (next_free / EXTENT_SIZE + 1) * EXTENT_SIZE;
	rc = make_room_in(size, fd);
	if (fd >= 0)
		close(fd);
	errno = saved_errno;
	return rc;
}

/*
 * A new chunk of KIND and SIZE bytes (a multiple of CHUNK_SIZE), published
 * empty: its offset, or 0 when there is no memory left.  Under the registry
 * lock.
 */
uint64_t alloctag_counters_chunk(enum chunk_kind kind, uint32_t size, uint32_t thread)
{
	struct counters_chunk *c;
	uint64_t offset;

	debug_assert(size % CHUNK_SIZE == 0 && size <= EXTENT_SIZE);
	if (!alloctag_counters_begin() || make_room(size) != 0)
		return 0;
	offset = next_free;
	c = alloctag_counters_at(offset);
	c->kind = kind;
	c->size = size;
	c->thread = thread;
	next_free += size;
	store_release(&header()->used, next_free);
	return offset;
}

void alloctag_counters_view(struct counters_view *v)
{
	v->extents = (const char *const *)alloctag_extents;
	v->nextents = load_acquire(&nextents);
	v->limit = (uint64_t)v->nextents * EXTENT_SIZE;
}

/* The bytes of extent I in use. */
static size_t extent_in_use(uint32_t i)
{
	uint64_t begin = (uint64_t)i * EXTENT_SIZE;

	return next_free - begin < EXTENT_SIZE ? next_free - begin : EXTENT_SIZE;
}

/* Extent I's bytes in use (as they were at fork, in a child), moved to memory of FD (or anonymous) in place. */
static int rebind_extent(uint32_t i, int fd)
{
	char *copy = map_extent(i, fd);

	if (!copy)
		return -1;
	memcpy(copy, at_fork ? at_fork + (size_t)i * EXTENT_SIZE : alloctag_extents[i], extent_in_use(i));
	if (mremap(copy, EXTENT_SIZE, EXTENT_SIZE, MREMAP_MAYMOVE | MREMAP_FIXED,
		   alloctag_extents[i]) == MAP_FAILED) {
		munmap(copy, EXTENT_SIZE);
		return -1;
	}
	return 0;
}

/* The counters grow into FD's file, at PATH, from now on. */
static void back_with(int fd, const char *path)
{
	struct stat st;
	size_t n = strlen(path);

	backing.on = n < sizeof(backing.path) && fstat(fd, &st) == 0;
	if (!backing.on)
		return;
	memcpy(backing.path, path, n + 1);
	backing.dev = st.st_dev;
	backing.ino = st.st_ino;
}

/*
 * Move the counters to the live file FD at PATH (sized and allocated here;
 * FD is the caller's to close), or to anonymous memory (FD -1): 0, or -1
 * with the counters where they were.
 * While it runs, no other thread may be counting (at start, or in a child
 * after fork): their updates to the old copy would be lost.  An extent the
 * file cannot take becomes anonymous (the file is then partial), so that
 * after a fork none of the child's counters stays shared with its parent.
 */
int alloctag_counters_rebind(int fd, const char *path)
{
	int partial = 0;

	if (!alloctag_counters_begin())
		return -1;
	if (fd >= 0 && (ftruncate(fd, (off_t)nextents * EXTENT_SIZE) != 0 ||
			fallocate(fd, 0, 0, (off_t)next_free) != 0))
		return -1;
	if (rebind_extent(0, fd) != 0)
		return -1;
	for (uint32_t i = 1; i < nextents; i++) {
		if (!partial && rebind_extent(i, fd) == 0)
			continue;
		partial = fd >= 0;
		rebind_extent(i, -1);
	}
	backing.on = 0;
	if (fd >= 0 && !partial)
		back_with(fd, path);
	atomic_fetch_and_explicit(&header()->state, ~(uint32_t)COUNTERS_PARTIAL, memory_order_relaxed);
	if (partial)
		stop_backing();
	stamp_process(header());
	return 0;
}

/*
 * fork(): a live file's pages are shared with the child, and the parent
 * goes on counting in them while the child makes its own copy: so the
 * parent copies them first (under the registry lock), and the child starts
 * from that copy.  Without a live file the child's pages are its own already.
 */
void alloctag_counters_before_fork(void)
{
	uint32_t n = load_relaxed(&nextents);

	if (!backing.on || !n)
		return;
	at_fork = alloctag_map((size_t)n * EXTENT_SIZE);
	for (uint32_t i = 0; at_fork && i < n; i++)
		memcpy(at_fork + (size_t)i * EXTENT_SIZE, alloctag_extents[i], extent_in_use(i));
}

/* In the parent, and in the child once it has its own counters. */
void alloctag_counters_forked(void)
{
	if (at_fork)
		alloctag_unmap(at_fork, (size_t)load_relaxed(&nextents) * EXTENT_SIZE);
	at_fork = NULL;
}
