/*
 * SQLite 3.40's allocation API, tagged by declaration (ALLOCTAG_TAGS), so
 * the report names the SQLite code that asked for memory instead of the one
 * malloc() in sqlite3MemMalloc() that everything goes through.
 *
 * Forced into every translation unit of the build (the amalgamation, the
 * shell, speedtest1, fuzzcheck, and the build-time tools lemon and
 * mkkeywordhash), so only basic C types are used: u64 is unsigned long long,
 * sqlite3 is struct sqlite3, va_list is __builtin_va_list.
 *
 * In the amalgamation SQLITE_PRIVATE is "static": sqlite3Malloc() and the
 * others are static functions of sqlite3.c, so they are declared static here.
 * In the other translation units such a declaration is unused and harmless
 * (the plugin keeps GCC from calling it "declared 'static' but never
 * defined").
 * The sqlite3_* functions are the public, extern API that the test programs
 * call.  With the default nesting policy the outermost call site is charged,
 * so sqlite3DbMallocZero() -> sqlite3DbMallocRaw() -> sqlite3Malloc() charges
 * the caller of sqlite3DbMallocZero().
 */
#ifndef ALLOCTAG_TAGS_SQLITE_H
#define ALLOCTAG_TAGS_SQLITE_H
#ifndef __ASSEMBLER__

struct sqlite3;
struct sqlite3_str;

/* Internal API (static in the amalgamation). */
static void *sqlite3Malloc(unsigned long long) __attribute__((alloc_tagged));
static void *sqlite3MallocZero(unsigned long long) __attribute__((alloc_tagged));
static void *sqlite3Realloc(void *, unsigned long long) __attribute__((alloc_tagged));
static void *sqlite3DbMallocZero(struct sqlite3 *, unsigned long long) __attribute__((alloc_tagged));
static void *sqlite3DbMallocRaw(struct sqlite3 *, unsigned long long) __attribute__((alloc_tagged));
static void *sqlite3DbMallocRawNN(struct sqlite3 *, unsigned long long) __attribute__((alloc_tagged));
static void *sqlite3DbRealloc(struct sqlite3 *, void *, unsigned long long) __attribute__((alloc_tagged));
static void *sqlite3DbReallocOrFree(struct sqlite3 *, void *, unsigned long long) __attribute__((alloc_tagged));
static char *sqlite3DbStrDup(struct sqlite3 *, const char *) __attribute__((alloc_tagged));
static char *sqlite3DbStrNDup(struct sqlite3 *, const char *, unsigned long long) __attribute__((alloc_tagged));
static char *sqlite3DbSpanDup(struct sqlite3 *, const char *, const char *) __attribute__((alloc_tagged));
static void *sqlite3PageMalloc(int) __attribute__((alloc_tagged));
static char *sqlite3MPrintf(struct sqlite3 *, const char *, ...) __attribute__((alloc_tagged));
static char *sqlite3VMPrintf(struct sqlite3 *, const char *, __builtin_va_list) __attribute__((alloc_tagged));

/* Public API (extern). */
void *sqlite3_malloc(int) __attribute__((alloc_tagged));
void *sqlite3_malloc64(unsigned long long) __attribute__((alloc_tagged));
void *sqlite3_realloc(void *, int) __attribute__((alloc_tagged));
void *sqlite3_realloc64(void *, unsigned long long) __attribute__((alloc_tagged));
char *sqlite3_mprintf(const char *, ...) __attribute__((alloc_tagged));
char *sqlite3_vmprintf(const char *, __builtin_va_list) __attribute__((alloc_tagged));
char *sqlite3_str_finish(struct sqlite3_str *) __attribute__((alloc_tagged));

/*
 * Calls through sqlite3_mem_methods (sqlite3GlobalConfig.m.xMalloc(n),
 * xRealloc(p, n)) are tagged too, by type: void *(int) and void *(void *,
 * int) are sqlite3_malloc's and sqlite3_realloc's, tagged above.  They
 * happen under the internal functions, whose callers the default nesting
 * charges.
 */

#endif
#endif
