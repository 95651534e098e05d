/* SPDX-License-Identifier: MIT */
/*
 * alloctag.h: the tag type and hooks of the alloctag runtime.
 *
 * With gcc -fplugin=alloctag.so, every direct call to a function declared
 *
 *	void *xmalloc(size_t n) __alloc_tagged;
 *
 * becomes a call to xmalloc_noprof() with a static struct alloc_tag of its
 * own (file, line, function) made current around it, as the Linux kernel's
 * alloc_hooks() macro does.  Without the plugin (plain gcc, clang) the
 * attribute expands to nothing and nothing here generates code.
 *
 * Only compiler-provided features are used: this header may be forced into
 * every translation unit (-include) ahead of the C library's headers.  It
 * declares nothing of the C library's.  alloctag-cc does not force it in:
 * the plugin makes the same tag type and hooks for a unit that does not
 * include it (-fplugin-arg-alloctag-runtime, plugin/alloctag_runtime.c,
 * which must keep this layout), and the driver defines the two macros below
 * on its command line, as they are defined here.
 */
#ifndef ALLOCTAG_H
#define ALLOCTAG_H
#ifndef __ASSEMBLER__	/* it may be forced into .S files too */

#ifdef __cplusplus
extern "C" {
#endif

#ifndef __alloc_tagged		/* alloctag-cc's -D gives them */
#if defined(__has_attribute)
#if __has_attribute(__alloc_tagged__)
#define __alloc_tagged __attribute__((__alloc_tagged__))
#define __alloc_tagged_as(variant) __attribute__((__alloc_tagged__(variant)))
#endif
#endif
#endif
#ifndef __alloc_tagged
#define __alloc_tagged
#define __alloc_tagged_as(variant)
#endif

/* The kernel's layout (include/linux/codetag.h, alloc_tag.h). */
struct codetag {
	unsigned int flags;
	unsigned int lineno;
	const char *modname;
	const char *function;
	const char *filename;
} __attribute__((__aligned__(8)));

/* One per call site, made by the plugin: the runtime's handle on the site. */
struct alloc_tag_counters {
	unsigned int id;	/* 0 until the site first allocates */
	unsigned int reserved;
};

/*
 * The kernel's struct alloc_tag starts the same.  The plugin fills the
 * fields it finds by name: the kernel's has neither callee nor column.
 * Two sites on one line (two calls in one macro) differ in one of them.
 */
struct alloc_tag {
	struct codetag ct;
	struct alloc_tag_counters *counters;
	const char *callee;	/* the function called, by name ("xmalloc"), or the
				   variable or member an indirect call goes through
				   ("xmlMalloc", "allocate"); NULL: none */
	unsigned int column;	/* of ct.lineno's place, as GCC's diagnostics print
				   it (tabs expanded): in a macro, of the macro's
				   name where it is used */
} __attribute__((__aligned__(8)));

/*
 * ct.flags of an implied tag: one the plugin's auto argument gave a call of
 * the user's code that leads to an allocation without calling an allocator
 * (v.push_back(x), a call to an allocation wrapper).  The user's code makes
 * its tags current with alloc_tag_claim, which takes over from it.
 */
#define ALLOC_TAG_IMPLIED 0x100u

/* The tag charged by allocations on this thread, NULL for none. */
extern __thread struct alloc_tag *alloctag_current
	__attribute__((__tls_model__("initial-exec")));

/*
 * The stores are volatile: GCC takes its built-in malloc to read no memory,
 * so around a call to it (an indirect call made direct after the plugin
 * ran) a plain store of the tag would be dead, and dropped.
 */
#define ALLOCTAG_SET_CURRENT(tag) (*(struct alloc_tag *volatile *)&alloctag_current = (tag))

/*
 * The tag read, made unknown to GCC (no instruction): else the read after a
 * restore is the value restored, one tagged call's test of it the test of
 * the call before, and jump threading copies the calls between the two onto
 * both ways through them.
 */
#define ALLOCTAG_OPAQUE(old) __asm__ __volatile__("" : "+r"(old))

/*
 * Nesting: by default the outermost tagged call wins, so an allocator wrapper
 * tagged by declaration alone charges its caller's site.  Compile with
 * -DALLOCTAG_INNERMOST for the kernel's rule: the innermost site wins.
 */
static __inline__ __attribute__((__always_inline__, __unused__))
struct alloc_tag *alloc_tag_save(struct alloc_tag *tag)
{
	struct alloc_tag *old = alloctag_current;

	ALLOCTAG_OPAQUE(old);

#ifdef ALLOCTAG_INNERMOST
	ALLOCTAG_SET_CURRENT(tag);
#else
	ALLOCTAG_SET_CURRENT(old ? old : tag);
#endif
	return old;
}

/*
 * alloc_tag_save for the user's code where the plugin implies tags: a call
 * written by the user takes over from an implied tag, so that an
 * allocation is charged to the innermost line of the user's that led to it
 * (a constructor that push_back calls); an explicitly tagged call's tag
 * still wins over every tag under it.
 */
static __inline__ __attribute__((__always_inline__, __unused__))
struct alloc_tag *alloc_tag_claim(struct alloc_tag *tag)
{
	struct alloc_tag *old = alloctag_current;

	ALLOCTAG_OPAQUE(old);

	if (old && (old->ct.flags & ALLOC_TAG_IMPLIED)) {
		ALLOCTAG_SET_CURRENT(tag);
		return old;
	}
	return alloc_tag_save(tag);
}

static __inline__ __attribute__((__always_inline__, __unused__))
void alloc_tag_restore(struct alloc_tag *tag, struct alloc_tag *old)
{
	(void)tag;
	ALLOCTAG_SET_CURRENT(old);
}

/* Write a report now, where and how ALLOCTAG_REPORT and ALLOCTAG_FORMAT say. */
void alloctag_report(void);

#ifdef __cplusplus
}
#endif

#endif /* !__ASSEMBLER__ */
#endif /* ALLOCTAG_H */
