# Shared libraries built with the plugin, linked and dlopen()ed: their sites
# carry their module name; dlclose() loses nothing, and blocks a closed
# library allocated are freed safely afterwards.  fork(): each process
# reports its own heap.
mkdir -p "$WORK/mod"
cat > "$WORK/mod/plug.c" <<'C'
#include <stdlib.h>
void *plug_alloc(int n) { return malloc(n); }
C
cat > "$WORK/mod/linked.c" <<'C'
#include <string.h>
char *linked_dup(const char *s) { return strdup(s); }
C
cat > "$WORK/mod/main.c" <<'C'
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
char *linked_dup(const char *s);
int main(void)
{
	void *(*plug_alloc)(int), *kept, *h;	/* not malloc's type: untagged */
	char *s = linked_dup("abc");
	for (int round = 0; round < 2; round++) {
		h = dlopen("./libplug.so", RTLD_NOW);
		if (!h) { fprintf(stderr, "%s\n", dlerror()); return 1; }
		plug_alloc = (void *(*)(int))dlsym(h, "plug_alloc");
		free(plug_alloc(100));
		kept = plug_alloc(50);
		dlclose(h);
		free(kept);	/* after its library is gone */
	}
	free(s);
	return 0;
}
C
if out=$(cd "$WORK/mod" && "$ATCC" -O2 -fPIC -shared -o libplug.so plug.c &&
	"$ATCC" -O2 -fPIC -shared -o liblinked.so linked.c &&
	"$ATCC" -O2 -o main main.c -L. -llinked -Wl,-rpath,'$ORIGIN' 2>&1); then
	(cd "$WORK/mod" && ALLOCTAG_FORMAT=full ALLOCTAG_REPORT=report ./main > out 2>&1)
	want='0 0 300 4 100 plug.c:2:34 [libplug.so] func:plug_alloc callee:malloc
0 0 4 1 4 linked.c:2:42 [liblinked.so] func:linked_dup callee:strdup'
	got=$(grep -v untagged "$WORK/mod/report" | tail -n +3 | tr -s ' ' | sed 's/^ //; s/ $//')
	[ "$got" = "$want" ] && pass modules/dlopen-dlclose || fail modules/dlopen-dlclose "$got" "$(cat "$WORK/mod/out")"
else
	fail modules/build "$out"
fi

cat > "$WORK/fork.c" <<'C'
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
void *kept; int main(void)
{
	void *before = kept = malloc(10);
	pid_t pid = fork();
	if (pid == 0) {
		kept = malloc(20);	/* the child's own, left live */
		return 0;
	}
	waitpid(pid, NULL, 0);
	free(before);
	return 0;
}
C
if out=$(cd "$WORK" && "$ATCC" -O2 -o fork fork.c 2>&1); then
	(cd "$WORK" && rm -rf forkrep && mkdir forkrep && ALLOCTAG_REPORT='forkrep/%p' ./fork)
	nfiles=$(ls "$WORK/forkrep" | wc -l)
	# parent: 10 allocated and freed, the child's line never charged here;
	# child: inherited the 10 (live in its copy) and its own 20.
	child=$(cd "$WORK/forkrep" && grep -l 'fork.c:9' *)
	parent=$(cd "$WORK/forkrep" && grep -L 'fork.c:9' *)
	if [ "$nfiles" = 2 ] &&
	   [ "$(grep fork.c "$WORK/forkrep/$parent" | tr -s ' ')" = " 0 0 fork.c:6 func:main " ] &&
	   [ "$(grep fork.c "$WORK/forkrep/$child" | tr -s ' ' | sort)" = "$(printf ' 10 1 fork.c:6 func:main \n 20 1 fork.c:9 func:main ')" ]; then
		pass modules/fork
	else
		fail modules/fork "$(head -n 20 "$WORK"/forkrep/*)"
	fi
else
	fail modules/fork-build "$out"
fi

# fork() with a live file: the parent goes on counting as soon as fork
# returns (its first untagged block: a site and a slot made) while the child
# takes its copy of the counters; the child's counters hold none of it.
cat > "$WORK/forklive.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
int main(void)
{
	char *before = malloc(100), *after = NULL;
	pid_t child;
	memset(before, 1, 100);
	fflush(stdout);
	child = fork();
	if (child == 0) {
		after = malloc(200);
		memset(after, 2, 200);
	}
	printf("%s\n", child ? "parent" : "child");
	fflush(stdout);
	while (getchar() != EOF)
		;
	if (child > 0)
		waitpid(child, NULL, 0);
	free(after);
	free(before);
	return 0;
}
C
forklive_check() {
	local want got
	cd "$WORK" && "$ATCC" -O2 -o forklive forklive.c || return 1
	want='0 0 200 1 200 forklive.c:14:25 func:main callee:malloc'
	for run in 1 2 3 4 5 6 7 8 9 10; do
		rm -rf fl && mkdir fl &&
			echo | ALLOCTAG_FORMAT=full ALLOCTAG_REPORT='fl/%p' ./forklive | cat > /dev/null || return 1
		got=$(cat fl/* | grep 'forklive.c:14' | tr -s ' ' | sed 's/^ //; s/ $//')
		[ "$got" = "$want" ] || { echo "run $run:"; cat fl/*; return 1; }
	done
}
check modules/fork-live forklive_check
