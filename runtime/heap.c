/* SPDX-License-Identifier: MIT */
/*
 * alloctag runtime: the allocator under it, when it is not glibc's (heap.h):
 * how it is found out, and chunks laid out inside its blocks.
 */
#define _GNU_SOURCE
#include <link.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include "heap.h"

int alloctag_foreign_heap;

/* Valgrind's client request RUNNING_ON_VALGRIND (valgrind.h): 0 natively. */
static unsigned long running_on_valgrind(void)
{
	unsigned long result = 0;
#if defined(__x86_64__)
	volatile unsigned long request[6] = { 0x1001 };

	__asm__ volatile("rolq $3, %%rdi; rolq $13, %%rdi\n\t"
			 "rolq $61, %%rdi; rolq $51, %%rdi\n\t"
			 "xchgq %%rbx, %%rbx"
			 : "=d"(result) : "a"(&request[0]), "0"(result) : "cc", "memory");
#endif
	return result;
}

/* A Valgrind tool that replaces malloc preloads vgpreload_TOOL (callgrind does not). */
static int replacing_tool(struct dl_phdr_info *info, size_t size, void *data)
{
	const char *name = strrchr(info->dlpi_name, '/');

	(void)size;
	(void)data;
	name = name ? name + 1 : info->dlpi_name;
	return !strncmp(name, "vgpreload_", 10) && strncmp(name, "vgpreload_core", 14);
}

#define GLIBC_MXFAST	(64 * SIZE_SZ / 4)	/* glibc's DEFAULT_MXFAST */

/* Whether GLIBC_TUNABLES names TUNABLE. */
static int tunable_set(const char *tunable)
{
	const char *t = getenv("GLIBC_TUNABLES");

	return t && strstr(t, tunable);
}

/* Once, before the first block: whether the heap is glibc's. */
void alloctag_heap_detect(void)
{
	static _Atomic int detected;

	if (atomic_exchange_explicit(&detected, 1, memory_order_relaxed))
		return;
	alloctag_foreign_heap = running_on_valgrind() && dl_iterate_phdr(replacing_tool, NULL);
	/*
	 * glibc's fastbins take the chunks of requests up to M_MXFAST (128)
	 * bytes; with the trailer, the same requests need M_MXFAST + TRAILER.
	 * Unless the program's GLIBC_TUNABLES chose a value of its own.
	 */
	if (!alloctag_foreign_heap && !tunable_set("glibc.malloc.mxfast"))
		mallopt(M_MXFAST, GLIBC_MXFAST + TRAILER);
}

/* glibc's request2size(): the chunk that holds REQUEST bytes. */
static size_t chunk_for(size_t request)
{
	size_t chunk = (request + SIZE_SZ + CHUNK_ALIGN - 1) & ~(size_t)(CHUNK_ALIGN - 1);

	return chunk < MIN_CHUNK ? MIN_CHUNK : chunk;
}

void *alloctag_foreign_alloc(size_t align, size_t request, int zero)
{
	size_t lead = align > 2 * SIZE_SZ ? align : 2 * SIZE_SZ, chunk, total;
	char *block, *p;

	if (request > PTRDIFF_MAX - lead - 2 * CHUNK_ALIGN)
		return NULL;
	chunk = chunk_for(request);
	total = lead + heap_usable(chunk);
	block = lead > 2 * SIZE_SZ ? __libc_memalign(align, total) : __libc_malloc(total);
	if (!block)
		return NULL;
	p = block + lead;
	((size_t *)p)[-2] = lead;
	((size_t *)p)[-1] = chunk | PREV_INUSE;
	if (zero)
		memset(p, 0, heap_usable(chunk));
	return p;
}

void alloctag_foreign_free(void *p)
{
	__libc_free((char *)p - ((size_t *)p)[-2]);
}

void *alloctag_foreign_resize(void *p, size_t request)
{
	size_t old = heap_usable(field_chunk(chunk_field(p)));
	void *moved = alloctag_foreign_alloc(CHUNK_ALIGN, request, 0);

	if (moved) {
		memcpy(moved, p, old < request ? old : request);
		alloctag_foreign_free(p);
	}
	return moved;
}
