/* SPDX-License-Identifier: MIT */
/*
 * counters.h: the memory layout of a process's allocation counters, shared
 * by the runtime that writes them and the readers that sum them: the
 * runtime's own reports and the `alloctag` command, which maps the live file
 * of a running process (as jstat maps a JVM's hsperfdata) without stopping,
 * signalling or attaching to it.
 *
 * The layout is the same in the process's memory and in the live file: the
 * counters are made of extents of EXTENT_SIZE bytes, extent i holding file
 * offsets [i * EXTENT_SIZE, (i + 1) * EXTENT_SIZE).  In the file they are
 * contiguous; in the writer each extent is a mapping of its own (of the file,
 * or anonymous memory when there is no live file).  Every reference inside
 * the counters is such an offset, never a pointer.
 *
 *   offset 0            struct counters_header (one chunk)
 *   then, up to used    chunks, CHUNK_SIZE bytes or a whole number of them,
 *                       each beginning with a struct counters_chunk:
 *     CHUNK_SITES       struct counters_site records, by id (1, 2, ...)
 *     CHUNK_SLOTS       struct counters_slot records of one thread
 *     CHUNK_STRINGS     NUL-terminated strings the sites point to
 *   A chunk header of kind 0 was never written: the rest of its extent is
 *   empty (a chunk did not fit), the next chunk begins the next extent.
 *
 * Publication: a writer fills a record, then publishes it with a release
 * store (the chunk's count, the header's used and nsites); a reader loads
 * those with acquire and reads no further.
 *
 * A slot's own counters are written by its thread with plain stores, its
 * remote counters by any thread with atomic adds; a reader reads each
 * 64-bit counter whole.  The order of the writes and of the reads keeps a
 * report from showing a block's bytes without the block:
 *   allocation: calls, then bytes and live (release)
 *   free by the owner: live, then freed_calls (release)
 *   free by another thread: remote_bytes, then remote_calls (release)
 *   a reader: remote_calls, remote_bytes, freed_calls, live, calls
 *   (acquire), so that live bytes are never counted without their calls,
 *   and then clamps what a sum over threads gives to 0.
 *
 * Versioning: a reader refuses a magic or a version it does not know, and
 * reads no field past header_size.  Any change to these structures bumps
 * COUNTERS_VERSION (2: the writer's identity in the header, instead of a
 * lock held on the file).
 */
#ifndef ALLOCTAG_COUNTERS_H
#define ALLOCTAG_COUNTERS_H

#include <stdatomic.h>
#include <stdint.h>

#define COUNTERS_MAGIC		"ALLOCTAG"	/* 8 bytes, no NUL */
#define COUNTERS_VERSION	2
#define CHUNK_SIZE		4096u
#define EXTENT_SIZE		(1u << 20)	/* a multiple of any page size */
#define COUNTERS_MAX_EXTENTS	4096u		/* 4 GiB of counters */
#define PROGRAM_MAX		256
/*
 * A slot in the header's chunk, after the header, that no reader sums: the
 * runtime charges it when it cannot make a slot (out of memory).
 */
#define COUNTERS_LOST_SLOT	(CHUNK_SIZE - 64)

enum counters_state {
	COUNTERS_RUNNING = 1,	/* the process has not exited */
	COUNTERS_FREE_UNSEEN = 2,	/* free() in the process is not the runtime's */
	COUNTERS_PARTIAL = 4,		/* the live file's file system filled up: the
					   file has the counters up to then */
	COUNTERS_FORKED = 8,		/* a fork child's, which may exec without a word:
					   its end without an exit is no sign of a kill */
};

struct counters_header {
	char magic[8];			/* COUNTERS_MAGIC */
	uint32_t version;		/* COUNTERS_VERSION */
	uint32_t header_size;		/* sizeof(struct counters_header) */
	uint32_t chunk_size;		/* CHUNK_SIZE */
	uint32_t extent_size;		/* EXTENT_SIZE */
	int64_t pid;
	int64_t start_ns;		/* CLOCK_REALTIME when the process's counters began */
	_Atomic uint64_t used;		/* bytes from offset 0 holding published chunks */
	_Atomic uint32_t nsites;	/* sites 1..nsites are published */
	_Atomic uint32_t state;		/* enum counters_state bits */
	_Atomic uint64_t exit_ns;	/* CLOCK_REALTIME at exit, 0 while running */
	char program[PROGRAM_MAX];	/* the program's name (argv[0]), NUL-terminated */
	/* Who writes the live file (live_dir.h: when it is stale); 0: unknown */
	uint64_t pid_ns;		/* the inode of the writer's /proc/self/ns/pid */
	uint64_t proc_start;		/* /proc/PID/stat field 22: its start, in ticks after boot */
	uint64_t exec_code;		/* field 26: where its program's code is (another exec, */
	uint64_t exec_stack;		/* field 28: another code or stack) */
};

enum chunk_kind {
	CHUNK_SITES = 1,
	CHUNK_SLOTS = 2,
	CHUNK_STRINGS = 3,
};

/* The first 64 bytes of every chunk. */
struct counters_chunk {
	uint32_t kind;			/* enum chunk_kind */
	uint32_t size;			/* bytes, header included: CHUNK_SIZE or a multiple */
	_Atomic uint32_t count;		/* records published (sites, slots), bytes used (strings) */
	uint32_t thread;		/* CHUNK_SLOTS: the owning thread's number */
	uint32_t reserved[12];
};

/* A call site: what a report says of it.  64 bytes. */
struct counters_site {
	uint32_t id;			/* 1, 2, ...: the site's index in every thread's table */
	uint32_t line;
	uint32_t column;		/* 0: unknown */
	uint32_t reserved;
	uint64_t file;			/* offsets of strings; 0: none */
	uint64_t function;
	uint64_t callee;		/* the function called at the site; 0: unknown */
	uint64_t module;		/* shared object's name; 0: the main program */
	uint64_t module_offset;		/* the tag's address - the module's base */
	uint64_t reserved2;
};

/*
 * One thread's counters for one site.  64 bytes: one cache line.  What the
 * site holds through this slot: live - remote_bytes bytes in
 * calls - freed_calls - remote_calls blocks.
 */
struct counters_slot {
	uint32_t site;			/* the site's id */
	uint32_t thread;		/* the owning thread's number */
	/* written by the owning thread only */
	_Atomic uint64_t calls;		/* allocations charged */
	_Atomic uint64_t bytes;		/* bytes charged (asked for) */
	_Atomic uint64_t freed_calls;	/* of those, freed by the owning thread */
	_Atomic int64_t live;		/* bytes - bytes freed by the owning thread */
	_Atomic int64_t peak;		/* highest live - remote_bytes the owner saw */
	/* frees by other threads, atomic adds */
	_Atomic uint64_t remote_calls;
	_Atomic uint64_t remote_bytes;
};

#define SITES_PER_CHUNK	(CHUNK_SIZE / sizeof(struct counters_site) - 1)
#define SLOTS_PER_CHUNK	(CHUNK_SIZE / sizeof(struct counters_slot) - 1)

_Static_assert(sizeof(struct counters_chunk) == 64, "chunk header is one cache line");
_Static_assert(sizeof(struct counters_site) == 64, "site records are 64 bytes");
_Static_assert(sizeof(struct counters_slot) == 64, "slots are one cache line");
_Static_assert(sizeof(struct counters_header) <= COUNTERS_LOST_SLOT, "the header and the lost slot are one chunk");

#endif /* ALLOCTAG_COUNTERS_H */
