/* SPDX-License-Identifier: MIT */
/*
 * alloctag-libc.h: the C library's allocating functions, declared
 * alloc_tagged, so that every call to them in a program gets a tag of its own.
 * alloctag-cc forces it into every C translation unit (-include).
 *
 * It includes no C library header (a later #define _GNU_SOURCE in the
 * program must still work): the types are spelled with compiler built-ins
 * and glibc's struct names, the prototypes are glibc's.
 *
 * The malloc family and the functions GCC treats as built-ins are renamed to
 * the runtime's _noprof variants.  The others (getline, realpath, ...) keep
 * their name, _FORTIFY_SOURCE checks included: they allocate through malloc,
 * which charges the tag current around their call.
 *
 * A program that declares one of these differently, or defines its own,
 * opts out with -DALLOCTAG_NO_<NAME> (ALLOCTAG_NO_GETLINE, ...); all of
 * them with -DALLOCTAG_NO_LIBC.  free is not tagged: a freed block is
 * uncharged from the site that allocated it.
 */
#ifndef ALLOCTAG_LIBC_H
#define ALLOCTAG_LIBC_H

#if !defined(__ASSEMBLER__) && !defined(__cplusplus) && !defined(ALLOCTAG_NO_LIBC)

#include <alloctag.h>

#define ALLOCTAG_SIZE_T __SIZE_TYPE__
#define ALLOCTAG_SSIZE_T __PTRDIFF_TYPE__	/* ssize_t in glibc */
#define ALLOCTAG_WCHAR_T __WCHAR_TYPE__
struct _IO_FILE;				/* FILE in glibc */

#ifndef ALLOCTAG_NO_MALLOC
extern void *malloc(ALLOCTAG_SIZE_T) __alloc_tagged;
#endif
#ifndef ALLOCTAG_NO_CALLOC
extern void *calloc(ALLOCTAG_SIZE_T, ALLOCTAG_SIZE_T) __alloc_tagged;
#endif
#ifndef ALLOCTAG_NO_REALLOC
extern void *realloc(void *, ALLOCTAG_SIZE_T) __alloc_tagged;
#endif
#ifndef ALLOCTAG_NO_REALLOCARRAY
extern void *reallocarray(void *, ALLOCTAG_SIZE_T, ALLOCTAG_SIZE_T) __alloc_tagged;
#endif
#ifndef ALLOCTAG_NO_ALIGNED_ALLOC
extern void *aligned_alloc(ALLOCTAG_SIZE_T, ALLOCTAG_SIZE_T) __alloc_tagged;
#endif
#ifndef ALLOCTAG_NO_POSIX_MEMALIGN
extern int posix_memalign(void **, ALLOCTAG_SIZE_T, ALLOCTAG_SIZE_T) __alloc_tagged;
#endif
#ifndef ALLOCTAG_NO_MEMALIGN
extern void *memalign(ALLOCTAG_SIZE_T, ALLOCTAG_SIZE_T) __alloc_tagged;
#endif
#ifndef ALLOCTAG_NO_VALLOC
extern void *valloc(ALLOCTAG_SIZE_T) __alloc_tagged;
#endif
#ifndef ALLOCTAG_NO_PVALLOC
extern void *pvalloc(ALLOCTAG_SIZE_T) __alloc_tagged;
#endif
#ifndef ALLOCTAG_NO_STRDUP
extern char *strdup(const char *) __alloc_tagged;
#endif
#ifndef ALLOCTAG_NO_STRNDUP
extern char *strndup(const char *, ALLOCTAG_SIZE_T) __alloc_tagged;
#endif
#ifndef ALLOCTAG_NO_WCSDUP
extern ALLOCTAG_WCHAR_T *wcsdup(const ALLOCTAG_WCHAR_T *) __alloc_tagged_as("wcsdup");
#endif
#ifndef ALLOCTAG_NO_ASPRINTF
extern int asprintf(char **, const char *, ...) __alloc_tagged_as("asprintf");
#endif
#ifndef ALLOCTAG_NO_VASPRINTF
extern int vasprintf(char **, const char *, __builtin_va_list) __alloc_tagged_as("vasprintf");
#endif
#ifndef ALLOCTAG_NO_GETLINE
extern ALLOCTAG_SSIZE_T getline(char **, ALLOCTAG_SIZE_T *, struct _IO_FILE *)
	__alloc_tagged_as("getline");
#endif
#ifndef ALLOCTAG_NO_GETDELIM
extern ALLOCTAG_SSIZE_T getdelim(char **, ALLOCTAG_SIZE_T *, int, struct _IO_FILE *)
	__alloc_tagged_as("getdelim");
#endif
#ifndef ALLOCTAG_NO_REALPATH
extern char *realpath(const char *, char *) __alloc_tagged_as("realpath");
#endif
#ifndef ALLOCTAG_NO_GETCWD
extern char *getcwd(char *, ALLOCTAG_SIZE_T) __alloc_tagged_as("getcwd");
#endif
#ifndef ALLOCTAG_NO_GET_CURRENT_DIR_NAME
extern char *get_current_dir_name(void) __alloc_tagged_as("get_current_dir_name");
#endif
#ifndef ALLOCTAG_NO_CANONICALIZE_FILE_NAME
extern char *canonicalize_file_name(const char *) __alloc_tagged_as("canonicalize_file_name");
#endif
#ifndef ALLOCTAG_NO_TEMPNAM
extern char *tempnam(const char *, const char *) __alloc_tagged_as("tempnam");
#endif
#ifndef ALLOCTAG_NO_OPEN_MEMSTREAM
extern struct _IO_FILE *open_memstream(char **, ALLOCTAG_SIZE_T *) __alloc_tagged_as("open_memstream");
#endif

#endif
#endif /* ALLOCTAG_LIBC_H */
