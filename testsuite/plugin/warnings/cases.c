/*
 * What GCC says about allocations, compiled with the compiler and with
 * alloctag-cc (warnings.sh): the diagnostics must be the same, line by line.
 * One case a function.  Where alloctag cannot give what GCC gives, a marker
 * says so and warnings.sh checks exactly that difference:
 *   "// lost at LEVELS": GCC's -Wuninitialized / -Wmaybe-uninitialized at
 *	those levels, where GCC warns only if nothing that may write memory
 *	comes between the allocation and the read: the tag's restore does;
 * "if gcc<N" or "if gcc>=N" after the levels: the difference is there
 * before GCC N only, or from GCC N on.  Clauses are separated by ";".
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void my_free(void *p);
void *my_alloc(size_t n) __attribute__((malloc, malloc(my_free, 1), alloc_size(1)));

int uninit_read(void) { int *p = malloc(8); int r = p ? p[0] : 0; free(p); return r; }	// lost at -O0 -Og
int uninit_later(int k) { int *p = malloc(8); if (!p) return 0; k += getpid(); int r = p[1] + k; free(p); return r; }
int uninit_calloc_ok(void) { int *p = calloc(2, sizeof(int)); int r = p ? p[1] : 0; free(p); return r; }
int calloc_bounds(void) { int *p = calloc(2, sizeof(int)); if (!p) return 0; int r = p[3]; free(p); return r; }
void null_deref(void) { char *p = malloc(8); p[0] = 1; free(p); }
void null_deref_strdup(const char *s) { char *p = strdup(s); p[0] = 'x'; free(p); }
int leak(int n) { char *p = malloc(n); if (!p) return 1; if (n > 3) return 2; free(p); return 0; }
int leak_strdup(const char *s) { char *p = strdup(s); if (!p) return 1; return p[0]; }
void double_free(void) { char *p = malloc(8); if (!p) return; free(p); free(p); }
int use_after_free(void) { char *p = malloc(8); if (!p) return 0; p[0] = 1; free(p); return p[0]; }
void realloc_then_free(void) { char *p = malloc(4); char *q = realloc(p, 8); free(p); free(q); }
void *realloc_unused(void *p) { realloc(p, 10); return p; }
void reallocarray_chain(void) { void *p = reallocarray(NULL, 2, 10); p = reallocarray(p, 3, 10); free(p); }
void reallocarray_of_stream(void) { FILE *f = fopen("x", "r"); free(reallocarray(f, 2, 10)); }
void mismatched_fopen(void) { FILE *f = fopen("x", "r"); free(f); }
void mismatched_user(void) { void *p = malloc(8); my_free(p); }
void mismatched_user2(void) { free(my_alloc(8)); }
void free_stack(void) { char b[8]; char *p = b; free(p); }
void free_offset(void) { char *p = malloc(8); if (p) free(p + 1); }
void *too_big(void) { return malloc((size_t)-1 / 2 + 10); }
void *too_big_calloc(void) { return calloc((size_t)-1 / 4, 8); }
void *too_big_realloc(void *p) { return realloc(p, (size_t)-1 / 2 + 10); }
void overflow_strcpy(void) { char *p = malloc(4); if (!p) return; strcpy(p, "hello world"); puts(p); free(p); }
void overflow_memcpy(const char *s) { char *p = malloc(4); if (!p) return; memcpy(p, s, 8); puts(p); free(p); }
void overflow_strdup(void) { char *p = strdup("abc"); if (!p) return; p[5] = 0; puts(p); free(p); }
void overflow_snprintf(int i) { char *p = malloc(4); if (!p) return; snprintf(p, 8, "%d", i); puts(p); free(p); }
void overflow_aligned(void) { char *p = aligned_alloc(16, 16); if (!p) return; memset(p, 0, 32); free(p); }
char *strdup_null(void) { return strdup(NULL); }
size_t object_size(void) { char *p = malloc(10); size_t n = __builtin_object_size(p, 0); free(p); return n; }
void getline_leak(FILE *f) { char *line = NULL; size_t n = 0; if (getline(&line, &n, f) > 0) puts(line); }
void asprintf_leak(int i) { char *s; if (asprintf(&s, "%d", i) > 0) puts(s); }
jmp_buf jump;
void setjmp_leak(void) { char *p; if (setjmp(jump)) return; p = malloc(8); if (p) longjmp(jump, 1); }
int setjmp_use_after_free(void) { char *p = malloc(8); if (!p) return 0; if (setjmp(jump)) return p[0]; free(p); longjmp(jump, 1); }
int setjmp_double_free(void) { char *p = malloc(8); if (!p) return 0; if (sigsetjmp(jump, 0)) { free(p); return 1; } free(p); siglongjmp(jump, 1); }
static void set_jump(void) { setjmp(jump); }
void setjmp_stale(void) { set_jump(); longjmp(jump, 1); }
int setjmp_uninit(void) { int *p = malloc(8); if (setjmp(jump)) return 0; int r = p ? p[0] : 0; free(p); return r; }
