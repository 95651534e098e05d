/* SPDX-License-Identifier: MIT */
/*
 * alloctag runtime: the process's allocator and the next one (next.h):
 * decided once, by looking up which object's free() the process calls.
 *
 * dlsym() may itself call malloc: when that malloc is the runtime's, the
 * decision is re-entered on the deciding thread, which proves the runtime
 * is the process's malloc (MODE_OWNER).  Until the next allocator is
 * looked up, glibc's own entry points (__libc_malloc, ...) stand in for it;
 * in a static link, where there is nothing to look up, they are it.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
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
/* Not exported by libc.so, but defined by libc.a's malloc.o: a static link's. */
extern size_t __malloc_usable_size(void *) __attribute__((weak));
extern int __malloc_trim(size_t) __attribute__((weak));
extern struct mallinfo2 __libc_mallinfo2(void) __attribute__((weak));

_Atomic int alloctag_mode;
struct next_allocator alloctag_next = {
	.malloc = __libc_malloc,
	.free = __libc_free,
	.calloc = __libc_calloc,
	.realloc = __libc_realloc,
	.memalign = __libc_memalign,
	.usable = __malloc_usable_size,
	.trim = __malloc_trim,
	.mallinfo2 = __libc_mallinfo2,
};

static char free_owner[128];		/* alloctag_free_owner()'s */
__thread int alloctag_probing TLS_IE;
static __thread int deciding TLS_IE;

const char *alloctag_free_owner(void)
{
	return load_acquire(&alloctag_mode) == MODE_FORWARD ? free_owner : NULL;
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

/*
 * The C library's first version of the malloc family on this architecture.
 * A replacement such as glibc's libc_malloc_debug.so defines free@VERSION,
 * not as the default version, which dlsym() skips but the program's calls
 * bind to: the lookups ask for this version first (a definition without
 * versions, as the runtime's and jemalloc's, matches it too).
 */
#if defined(__x86_64__)
#define MALLOC_VERSION	"GLIBC_2.2.5"
#elif defined(__aarch64__) || defined(__powerpc64__)
#define MALLOC_VERSION	"GLIBC_2.17"
#elif defined(__riscv)
#define MALLOC_VERSION	"GLIBC_2.27"
#elif defined(__s390x__)
#define MALLOC_VERSION	"GLIBC_2.2"
#elif defined(__i386__)
#define MALLOC_VERSION	"GLIBC_2.0"
#elif defined(__arm__)
#define MALLOC_VERSION	"GLIBC_2.4"
#else
#define MALLOC_VERSION	NULL
#endif

/* dl_iterate_phdr's walk for object_order(): the object holding an address. */
struct find_object {
	uintptr_t address;
	int index, found;
};

static int find_object(struct dl_phdr_info *info, size_t size, void *data)
{
	struct find_object *f = data;

	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t start = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_LOAD && f->address - start < ph->p_memsz) {
			f->found = f->index;
			return 1;
		}
	}
	f->index++;
	return 0;
}

/* The place of the object holding P in the global lookup order (its load order). */
static int object_order(const void *p)
{
	struct find_object f = { (uintptr_t)p, 0, INT_MAX };

	dl_iterate_phdr(find_object, &f);
	return f.found;
}

/*
 * NAME as the program's calls bind to it in HANDLE's lookup (RTLD_DEFAULT,
 * RTLD_NEXT): dlsym()'s answer (the default version, or a definition
 * without versions), or dlvsym()'s of MALLOC_VERSION when that comes first
 * in the lookup order: the calls of a program take either.  BASE: NAME is
 * as old as the C library's malloc (a lookup that fails makes the loader
 * allocate its error message, charged to the program).
 */
static void *lookup(void *handle, const char *name, int base)
{
	void *d = dlsym(handle, name);
	void *v = base && MALLOC_VERSION ? dlvsym(handle, name, MALLOC_VERSION) : NULL;

	if (!d || (v && v != d && object_order(v) < object_order(d)))
		return v;
	return d;
}

/* NAME in HANDLE's lookup, unless it is OURS: then the next definition after the runtime's. */
static void *resolve(void *handle, const char *name, int base, void *ours)
{
	void *f = lookup(handle, name, base);

	if ((!f || f == ours) && handle != RTLD_NEXT)
		f = lookup(RTLD_NEXT, name, base);
	return f == ours ? NULL : f;
}

#define TAKE(field, handle, name, base, ours) do { \
		void *f_ = resolve((handle), (name), (base), (void *)(ours)); \
		if (f_) \
			alloctag_next.field = (__typeof__(alloctag_next.field))f_; \
	} while (0)

static void take_allocator(void *handle)
{
	TAKE(malloc, handle, "malloc", 1, alloctag_own_malloc);
	TAKE(free, handle, "free", 1, alloctag_own_free);
	TAKE(calloc, handle, "calloc", 1, alloctag_own_calloc);
	TAKE(realloc, handle, "realloc", 1, alloctag_own_realloc);
	TAKE(memalign, handle, "memalign", 1, alloctag_own_memalign);
	TAKE(usable, handle, "malloc_usable_size", 1, alloctag_own_usable_size);
	TAKE(trim, handle, "malloc_trim", 1, alloctag_own_trim);
	TAKE(mallinfo2, handle, "mallinfo2", 0, alloctag_own_mallinfo2);
}

/* The name of the object defining the process's free (the program's: its name). */
static void name_free_owner(void *process_free)
{
	Dl_info info;
	const char *name = program_invocation_short_name, *slash;

	if (dladdr(process_free, &info) && info.dli_fname && info.dli_fname[0]) {
		slash = strrchr(info.dli_fname, '/');
		name = slash ? slash + 1 : info.dli_fname;
	}
	snprintf(free_owner, sizeof(free_owner), "%s", name ? name : "?");
}

/*
 * Whether a call through F, the process's free as dlsym() says, reaches
 * the runtime's: a non-PIE executable that takes free's address has its
 * own PLT entry as free's address for everyone (the canonical PLT), which
 * routes as the program's own calls do.  free(NULL) does nothing in every
 * allocator; the runtime's notes that it was called.
 */
static int reaches_runtime(void (*f)(void *))
{
	alloctag_probing = 1;
	f(NULL);
	if (alloctag_probing == 2) {
		alloctag_probing = 0;
		return 1;
	}
	alloctag_probing = 0;
	return 0;
}

/*
 * Whether F is not a definition of free but an executable's PLT entry for
 * it: the symbol there is undefined (its value the PLT entry's address).
 */
static int plt_entry(void *f)
{
	const ElfW(Sym) *sym = NULL;
	Dl_info info;

	if (!dladdr1(f, &info, (void **)&sym, RTLD_DL_SYMENT) || !sym)
		return 0;
	return sym->st_shndx == SHN_UNDEF;
}

/*
 * glibc's malloc sets itself up on its first call (ptmalloc_init), and that
 * set-up is not safe against a second thread: it marks itself done before
 * the main arena's bins are made.  A program calls it first before it has
 * threads; when the runtime is the process's malloc, only the runtime calls
 * it, from any thread (a first large block, a malloc_trim): two first calls
 * at once walk bins not made yet (a crash in malloc_trim seen after fork
 * with three threads).  Its first call is made here, while every other
 * thread waits for the decision: mallinfo2, which allocates nothing, else
 * an allocation of one byte freed at once.
 */
static void first_call_of_next(void)
{
	int saved_errno = errno;

	if (alloctag_next.mallinfo2)
		(void)alloctag_next.mallinfo2();
	else if (alloctag_next.malloc && alloctag_next.free)
		alloctag_next.free(alloctag_next.malloc(1));
	errno = saved_errno;
}

typedef int (*install_hooks_fn)(void (*)(const volatile void *, size_t),
				void (*)(const volatile void *));

static enum alloc_mode decide(void)
{
	void *process_free = lookup(RTLD_DEFAULT, "free", 1);
	install_hooks_fn install;

	if (dl_iterate_phdr(replacing_tool, NULL)) {
		take_allocator(RTLD_NEXT);
		return MODE_TABLE;
	}
	if (!process_free || process_free == (void *)alloctag_own_free ||
	    (plt_entry(process_free) && reaches_runtime((void (*)(void *))process_free))) {
		take_allocator(RTLD_NEXT);
		first_call_of_next();
		return MODE_OWNER;
	}
	take_allocator(RTLD_DEFAULT);
	install = (install_hooks_fn)dlsym(RTLD_DEFAULT, "__sanitizer_install_malloc_and_free_hooks");
	if (install && install(alloctag_hooked_malloc, alloctag_hooked_free))
		return MODE_HOOKED;
	name_free_owner(process_free);
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
