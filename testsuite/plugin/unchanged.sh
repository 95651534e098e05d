# Code that calls no tagged function compiles exactly as without the plugin:
# identical objects, with or without tagged functions declared in the unit.
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
	jmp_buf jb;
	int i, n = 0;
	va_list *unused = NULL;
	(void)unused;
	if (setjmp(jb)) return -1;
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
check unchanged/tagged-declared unchanged_check "$WORK/soup.c" -DDECLARE_TAGGED
for f in "$TOP"/testsuite/plugin/tagtest.c "$TOP"/runtime/*.c "$TOP"/examples/*/*.c; do
	[ -e "$f" ] || continue
	grep -q 'alloc_tagged\|alloctag-libc' "$f" && continue
	check "unchanged/${f#$TOP/}" unchanged_check "$f" -I"$TOP/testsuite/plugin"
done
