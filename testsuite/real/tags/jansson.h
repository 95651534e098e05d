/*
 * jansson 2.14's allocators, tagged by declaration (ALLOCTAG_TAGS): every
 * allocation of the library goes through jsonp_malloc() (memory.c), which
 * calls the malloc that json_set_alloc_funcs() installed through a function
 * pointer; tagged, the report names the jansson code that asked (value.c,
 * hashtable.c, strbuffer.c, load.c, dump.c, ...).  jsonp_strdup and
 * jsonp_strndup call jsonp_malloc: the outermost call site is charged.
 *
 * Forced into every translation unit (library, tests, examples): only basic
 * C types.  These are extern functions of the library.
 */
#ifndef ALLOCTAG_TAGS_JANSSON_H
#define ALLOCTAG_TAGS_JANSSON_H
#ifndef __ASSEMBLER__

void *jsonp_malloc(__SIZE_TYPE__) __attribute__((alloc_tagged));
char *jsonp_strdup(const char *) __attribute__((alloc_tagged));
char *jsonp_strndup(const char *, __SIZE_TYPE__) __attribute__((alloc_tagged));

#endif
#endif
