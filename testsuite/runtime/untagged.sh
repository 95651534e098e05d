# Code built without the plugin (a library from elsewhere) allocates and
# frees in the same heap: its blocks go to the untagged line, and tagged and
# untagged blocks can be freed by either side.
mkdir -p "$WORK/untagged"
cat > "$WORK/untagged/plain.c" <<'C'
#include <stdlib.h>
#include <string.h>
void *plain_alloc(size_t n) { return malloc(n); }
char *plain_dup(const char *s) { return strdup(s); }
void plain_free(void *p) { free(p); }
C
cat > "$WORK/untagged/main.c" <<'C'
#include <stdlib.h>
void *plain_alloc(size_t n);
char *plain_dup(const char *s);
void plain_free(void *p);
int main(void)
{
	void *mine = malloc(40);
	void *theirs = plain_alloc(1000);
	plain_free(mine);	/* a tagged block freed by untagged code */
	free(theirs);		/* an untagged block freed by tagged code */
	theirs = plain_dup("0123456789");
	return theirs == 0;	/* left live: 11 bytes untagged */
}
C
untagged_check() {
	local out
	cd "$WORK/untagged" && "$TESTCC" -O2 -fPIC -shared -o libplain.so plain.c &&
		"$ATCC" -O2 -o main main.c -L. -lplain -Wl,-rpath,'$ORIGIN' || return 1
	ALLOCTAG_FORMAT=full ALLOCTAG_REPORT=report ./main || return 1
	out=$(tr -s ' ' < report | sed 's/^ //; s/ $//' | tail -n +3)
	# The untagged line also holds what the C library keeps for itself: at
	# least the 1000 + 11 of the library, and its 11 still live.
	echo "$out" | grep -qx '0 0 40 1 40 main.c:7:22 func:main callee:malloc' || { echo "$out"; return 1; }
	set -- $(echo "$out" | grep 'untagged:0')
	[ "$3" -ge 1011 ] && [ "$1" -ge 11 ] || { echo "$out"; return 1; }
}
check untagged/mixed untagged_check
