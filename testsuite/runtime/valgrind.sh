# Under Valgrind: by default its tools replace every malloc, alloctag's
# included, and the report says so in one line with what to pass (in the
# report, where it goes: a program's stderr stays its own); with
# --soname-synonyms=somalloc=nouserintercepts alloctag keeps its malloc on
# Valgrind's heap, counts exactly as without Valgrind, and memcheck finds
# nothing wrong in it.
d=$WORK/valgrind
mkdir -p "$d"
cat > "$d/prog.c" <<'C'
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
static void *work(void *arg)
{
	for (int i = 0; i < 2000; i++) {
		char *p = malloc(i % 1500);
		p = realloc(p, 100 + i % 300);
		memset(p, 1, 100);
		free(p);
	}
	return arg;
}
int main(void)
{
	pthread_t t;
	char *keep = calloc(3, 100), *aligned = aligned_alloc(256, 1000);
	pthread_create(&t, 0, work, 0);
	work(0);
	pthread_join(t, 0);
	free(aligned);
	return keep[0];
}
C
valgrind_check() {
	local want got err
	cd "$d" && "$ATCC" -O1 -g -o prog prog.c -lpthread || return 1
	ALLOCTAG_FORMAT=full ALLOCTAG_REPORT=native ./prog || return 1
	note="# alloctag: Valgrind replaced alloctag's malloc, so no allocation was counted; run valgrind with --soname-synonyms=somalloc=nouserintercepts to keep alloctag's"
	err=$(ALLOCTAG_REPORT=stderr valgrind -q ./prog 2>&1)
	[ "$(echo "$err" | grep '^# alloctag:')" = "$note" ] || { echo "default: $err"; return 1; }
	# In a file: the note is there, and nothing on stderr (diffutils' tests
	# compare it with what they expect).
	err=$(rm -f replaced; ALLOCTAG_REPORT=replaced valgrind -q ./prog 2>&1)
	[ -z "$err" ] && [ "$(grep '^# alloctag:' replaced)" = "$note" ] ||
		{ echo "to a file: stderr: $err"; cat replaced; return 1; }
	ALLOCTAG_FORMAT=full ALLOCTAG_REPORT=kept valgrind -q --error-exitcode=99 \
		--soname-synonyms=somalloc=nouserintercepts ./prog 2> err || { cat err; return 1; }
	want=$(grep prog.c native)
	got=$(grep prog.c kept)
	[ -s err ] || [ "$got" != "$want" ] || return 0
	echo "native:"; echo "$want"; echo "under valgrind:"; echo "$got"; cat err
	return 1
}
if command -v valgrind >/dev/null; then
	check valgrind/report valgrind_check
else
	skip valgrind/report "no valgrind"
fi
