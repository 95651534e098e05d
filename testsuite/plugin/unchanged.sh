# Code that calls no tagged function compiles exactly as without the plugin:
# identical objects, with or without tagged functions declared in the unit.
# But for a call that returns twice (setjmp) in a unit whose runtime is
# liballoctag's (alloctag.h's, or runtime=): there the tag current at the
# call is made current again after it (alloctag_setjmp.c, runtime/setjmp.c).
# Without hooks, or with the kernel's, a setjmp compiles as without the
# plugin, and nothing is said.
cat > "$WORK/soup.c" <<'C'
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <alloctag.h>
#ifdef DECLARE_TAGGED
void *never_called(size_t n) __alloc_tagged;
#endif
struct node { struct node *next; char name[16]; double w; };
static struct node *push(struct node *head, const char *name, double w)
{
	struct node *n = malloc(sizeof(*n));
	if (!n) return head;
	snprintf(n->name, sizeof(n->name), "%s", name);
	n->w = sqrt(w) * M_PI;
	n->next = head;
	return n;
}
static int cmp(const void *a, const void *b) { return strcmp(a, b); }
int soup(int argc, char **argv)
{
	struct node *h = NULL;
	char buf[64], *words[8];
	int i, n = 0;
	va_list *unused = NULL;
	(void)unused;
#ifndef NO_SETJMP
	jmp_buf jb;
	if (setjmp(jb)) return -1;
#endif
	for (i = 0; i < argc && i < 8; i++) {
		h = push(h, argv[i], i);
		words[n++] = strdup(argv[i]);
	}
	qsort(words, n, sizeof(*words), cmp);
	for (i = 0; i < n; i++) {
		if (isupper((unsigned char)words[i][0])) errno = EINVAL;
		free(words[i]);
	}
	while (h) { struct node *next = h->next; free(h); h = next; }
	snprintf(buf, sizeof(buf), "%ld", (long)time(NULL));
	return (int)strlen(buf) + (int)getpid() % 2;
}
C
unchanged_check() {
	local f=$1 o
	shift
	# -g records the command line (with -fplugin) in DW_AT_producer unless told not to.
	for o in -O0 "-O2 -g -gno-record-gcc-switches" "-O3 -fPIC" "-Os -flto -ffat-lto-objects"; do
		"$TESTCC" $o "$@" -I"$TOP/runtime" -c -o "$WORK/without.o" "$f" &&
		pcc $o "$@" -c -o "$WORK/with.o" "$f" || return 1
		# LTO objects carry the command line too: compare their final code.
		objcopy -R '.gnu.lto_*' -R '.gnu.debuglto_*' "$WORK/without.o" &&
		objcopy -R '.gnu.lto_*' -R '.gnu.debuglto_*' "$WORK/with.o" &&
		cmp "$WORK/without.o" "$WORK/with.o" || { echo "differs at $o"; return 1; }
	done
}
check unchanged/system-headers unchanged_check "$WORK/soup.c"
check unchanged/tagged-declared unchanged_check "$WORK/soup.c" -DDECLARE_TAGGED -DNO_SETJMP

# jump.c: a setjmp in a unit that declares a tagged function (if the plugin
# is there), with no hooks, or with the kernel's (its current tag is no
# alloctag_current) and a tagged call in another function.
cat > "$WORK/jump.c" <<'C'
#include <setjmp.h>
#include <stddef.h>
#if defined(__has_attribute)
#if __has_attribute(__alloc_tagged__)
void *tagged(size_t n) __attribute__((__alloc_tagged__));
#define TAGGED
#endif
#endif
jmp_buf env;
int guarded(void (*fn)(void))
{
	if (setjmp(env))
		return 1;
	fn();
	return 0;
}
#ifdef KERNEL_HOOKS
struct codetag { unsigned int flags, lineno; const char *modname, *function, *filename; };
struct alloc_tag { struct codetag ct; };
struct task { struct alloc_tag *alloc_tag; };
extern struct task *current_task;
static inline struct alloc_tag *alloc_tag_save(struct alloc_tag *tag)
{
	struct alloc_tag *old = current_task->alloc_tag;

	current_task->alloc_tag = tag;
	return old;
}
static inline void alloc_tag_restore(struct alloc_tag *tag, struct alloc_tag *old)
{
	(void)tag;
	current_task->alloc_tag = old;
}
#ifdef TAGGED
void *tagged_noprof(size_t n);
void *use(void) { return tagged(8); }
#endif
#endif
C
# The function guarded of an assembly file.
guarded_of() {
	sed -n '/^guarded:/,/\.size[[:space:]]*guarded,/p' "$1"
}
# setjmp_check FLAGS...: guarded compiles as without the plugin, and the
# plugin says nothing.
setjmp_check() {
	local o out
	for o in -O0 -O2; do
		"$TESTCC" $o "$@" -S -o "$WORK/without.s" "$WORK/jump.c" || return 1
		out=$(pcc $o "$@" -S -o "$WORK/with.s" "$WORK/jump.c" 2>&1) && [ -z "$out" ] ||
			{ echo "$o: $out"; return 1; }
		grep -q '^guarded:' "$WORK/with.s" &&
		[ "$(guarded_of "$WORK/without.s")" = "$(guarded_of "$WORK/with.s")" ] ||
			{ echo "guarded differs at $o"; diff "$WORK/without.s" "$WORK/with.s"; return 1; }
	done
}
check unchanged/setjmp-without-hooks setjmp_check
check unchanged/setjmp-kernel-hooks setjmp_check -DKERNEL_HOOKS
for f in "$TOP"/testsuite/plugin/tagtest.c "$TOP"/runtime/*.c "$TOP"/examples/*/*.c; do
	[ -e "$f" ] || continue
	grep -q 'alloc_tagged\|alloctag-libc' "$f" && continue
	check "unchanged/${f#$TOP/}" unchanged_check "$f" -I"$TOP/testsuite/plugin"
done
