/* SPDX-License-Identifier: MIT */
/*
 * bench/macro/alloc_hooks.h: the Linux kernel's way of tagging allocation
 * call sites, written by hand for the C library's allocators, as the
 * benchmark's reference for what the plugin generates.
 *
 *	#define malloc(...) alloc_hooks(malloc_noprof(__VA_ARGS__))
 *
 * alloc_hooks() is the kernel's (include/linux/alloc_tag.h) without its
 * static key: a static tag per expansion, in section alloc_tags, made current
 * around the call by alloctag.h's alloc_tag_save() and alloc_tag_restore().
 * The functions are those of runtime/alloctag-libc.tags: the malloc family,
 * strdup and strndup call the runtime's _noprof variants (declared here, not
 * GCC's built-ins: the plugin keeps the built-ins, emitted under those
 * names), the others keep their name.
 *
 * A function-like macro must come after the C library's prototype (which it
 * would otherwise rewrite), and a header forced in with -include would pull
 * <features.h> in ahead of the program's own _GNU_SOURCE or _XOPEN_SOURCE:
 * so this file is included at the end of each C library header that
 * declares one of these functions, by the wrappers beside it (stdlib.h,
 * malloc.h, string.h, wchar.h, stdio.h, unistd.h: -I this folder).  Each
 * wrapper first drops the macros (alloc_hooks_undef.h), so that the C
 * library's header declares the real names, and marks itself in progress,
 * so that another wrapped header it includes (<malloc.h> includes
 * <stdio.h>) leaves the macros for the outer one to define.
 */
#include <alloctag.h>

#ifndef ALLOC_HOOKS_H
#define ALLOC_HOOKS_H

#define alloc_hooks(_do_alloc)							\
({										\
	static struct alloc_tag_counters _alloc_tag_cntr;			\
	static struct alloc_tag _alloc_tag					\
		__attribute__((__used__, __section__("alloc_tags"), __aligned__(8))) = { \
		.ct = { .lineno = __LINE__, .function = __func__,		\
			.filename = __FILE__ },					\
		.counters = &_alloc_tag_cntr };					\
	struct alloc_tag *_old = alloc_tag_save(&_alloc_tag);			\
	__typeof__(_do_alloc) _res = _do_alloc;					\
	alloc_tag_restore(&_alloc_tag, _old);					\
	_res;									\
})

/*
 * A call to the runtime's variant of F: declared where it is used (F is
 * declared there, since the program calls it) with F's type and attributes,
 * as the plugin declares it.
 */
#define alloc_hooks_noprof(f, ...)						\
({										\
	extern __typeof__(f) f##_noprof __attribute__((__copy__(f)));		\
	alloc_hooks(f##_noprof(__VA_ARGS__));					\
})

#endif /* ALLOC_HOOKS_H */

#if !defined(ALLOC_HOOKS_IN_STDLIB_H) && !defined(ALLOC_HOOKS_IN_MALLOC_H) && \
    !defined(ALLOC_HOOKS_IN_STRING_H) && !defined(ALLOC_HOOKS_IN_WCHAR_H) && \
    !defined(ALLOC_HOOKS_IN_STDIO_H) && !defined(ALLOC_HOOKS_IN_UNISTD_H)
/* The malloc family, strdup, strndup: the runtime's _noprof variants. */
#define malloc(...) alloc_hooks_noprof(malloc, __VA_ARGS__)
#define calloc(...) alloc_hooks_noprof(calloc, __VA_ARGS__)
#define realloc(...) alloc_hooks_noprof(realloc, __VA_ARGS__)
#define reallocarray(...) alloc_hooks_noprof(reallocarray, __VA_ARGS__)
#define aligned_alloc(...) alloc_hooks_noprof(aligned_alloc, __VA_ARGS__)
#define posix_memalign(...) alloc_hooks_noprof(posix_memalign, __VA_ARGS__)
#define memalign(...) alloc_hooks_noprof(memalign, __VA_ARGS__)
#define valloc(...) alloc_hooks_noprof(valloc, __VA_ARGS__)
#define pvalloc(...) alloc_hooks_noprof(pvalloc, __VA_ARGS__)
#define strdup(...) alloc_hooks_noprof(strdup, __VA_ARGS__)
#define strndup(...) alloc_hooks_noprof(strndup, __VA_ARGS__)
/* The others allocate through malloc: their own name, tagged. */
#define wcsdup(...) alloc_hooks(wcsdup(__VA_ARGS__))
#define asprintf(...) alloc_hooks(asprintf(__VA_ARGS__))
#define vasprintf(...) alloc_hooks(vasprintf(__VA_ARGS__))
#define getline(...) alloc_hooks(getline(__VA_ARGS__))
#define getdelim(...) alloc_hooks(getdelim(__VA_ARGS__))
#define realpath(...) alloc_hooks(realpath(__VA_ARGS__))
#define getcwd(...) alloc_hooks(getcwd(__VA_ARGS__))
#define get_current_dir_name(...) alloc_hooks(get_current_dir_name(__VA_ARGS__))
#define canonicalize_file_name(...) alloc_hooks(canonicalize_file_name(__VA_ARGS__))
#define tempnam(...) alloc_hooks(tempnam(__VA_ARGS__))
#define open_memstream(...) alloc_hooks(open_memstream(__VA_ARGS__))
#endif
