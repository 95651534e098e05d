/* SPDX-License-Identifier: MIT */
/*
 * alloctag runtime: the process's allocator and the next one (next.h):
 * decided once, by looking up which object's free() the process calls.
 *
 * dlsym() may itself call malloc: when that malloc is the runtime's, the
 * decision is re-entered on the deciding thread, which proves the runtime
 * is the process's malloc (MODE_OWNER).  Until the next allocator is
 * looked up, glibc's own entry points (__libc_malloc, ...) stand in for it.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include "next.h"

/* glibc's own entry points: weak, so that nothing here pulls libc.a's malloc in. */
extern void *__libc_malloc(size_t) __attribute__((weak));
extern void __libc_free(void *) __attribute__((weak));
extern void *__libc_calloc(size_t, size_t) __attribute__((weak));
extern void *__libc_realloc(void *, size_t) __attribute__((weak));
extern void *__libc_memalign(size_t, size_t) __attribute__((weak));

_Atomic int alloctag_mode;
struct next_allocator alloctag_next = {
	.malloc = __libc_malloc,
	.free = __libc_free,
	.calloc = __libc_calloc,
	.realloc = __libc_realloc,
	.memalign = __libc_memalign,
};

static char note[192];			/* alloctag_mode_note()'s */
static __thread int deciding TLS_IE;

const char *alloctag_mode_note(void)
{
	return load_acquire(&alloctag_mode) == MODE_FORWARD && note[0] ? note : NULL;
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

/* NAME in HANDLE's lookup, unless it is OURS: then the next definition after the runtime's. */
static void *resolve(void *handle, const char *name, void *ours)
{
	void *f = dlsym(handle, name);

	if ((!f || f == ours) && handle != RTLD_NEXT)
		f = dlsym(RTLD_NEXT, name);
	return f == ours ? NULL : f;
}

#define TAKE(field, handle, name, ours) do { \
		void *f_ = resolve((handle), (name), (void *)(ours)); \
		if (f_) \
			alloctag_next.field = (__typeof__(alloctag_next.field))f_; \
	} while (0)

static void take_allocator(void *handle)
{
	TAKE(malloc, handle, "malloc", alloctag_own_malloc);
	TAKE(free, handle, "free", alloctag_own_free);
	TAKE(calloc, handle, "calloc", alloctag_own_calloc);
	TAKE(realloc, handle, "realloc", alloctag_own_realloc);
	TAKE(memalign, handle, "memalign", alloctag_own_memalign);
	TAKE(usable, handle, "malloc_usable_size", alloctag_own_usable_size);
	TAKE(trim, handle, "malloc_trim", alloctag_own_trim);
	TAKE(mallinfo2, handle, "mallinfo2", alloctag_own_mallinfo2);
}

/* "free() is libjemalloc.so.2's": the object defining the process's free. */
static void write_note(void *process_free)
{
	Dl_info info;
	const char *name = "another object", *slash;

	if (dladdr(process_free, &info) && info.dli_fname && info.dli_fname[0]) {
		slash = strrchr(info.dli_fname, '/');
		name = slash ? slash + 1 : info.dli_fname;
	}
	snprintf(note, sizeof(note), "free() in this process is %s's, not alloctag's: "
		 "calls and bytes are counted, live bytes are not", name);
}

typedef int (*install_hooks_fn)(void (*)(const volatile void *, size_t),
				void (*)(const volatile void *));

static enum alloc_mode decide(void)
{
	void *process_free = dlsym(RTLD_DEFAULT, "free");
	install_hooks_fn install;

	if (dl_iterate_phdr(replacing_tool, NULL)) {
		take_allocator(RTLD_NEXT);
		return MODE_TABLE;
	}
	if (!process_free || process_free == (void *)alloctag_own_free) {
		take_allocator(RTLD_NEXT);
		return MODE_OWNER;
	}
	take_allocator(RTLD_DEFAULT);
	install = (install_hooks_fn)dlsym(RTLD_DEFAULT, "__sanitizer_install_malloc_and_free_hooks");
	if (install && install(alloctag_hooked_malloc, alloctag_hooked_free))
		return MODE_HOOKED;
	write_note(process_free);
	return MODE_FORWARD;
}

enum alloc_mode alloctag_mode_decide(void)
{
	static _Atomic int claimed;
	int m;

	if (deciding)
		return MODE_OWNER;	/* dlsym called malloc: it is the runtime's */
	if (atomic_exchange_explicit(&claimed, 1, memory_order_acq_rel)) {
		while (!(m = load_acquire(&alloctag_mode)))
			sched_yield();
		return (enum alloc_mode)m;
	}
	deciding = 1;
	m = decide();
	deciding = 0;
	store_release(&alloctag_mode, m);
	return (enum alloc_mode)m;
}
