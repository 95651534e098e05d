# Under fakeroot (the binary target of every dpkg-buildpackage: make install
# runs there, and runs what it built), whose LD_PRELOAD says the user is root
# and owns every file, a program's live directory and kept report are still
# its real user's: /dev/shm/alloctag-UID, not alloctag-0.  Before, a user's
# fakeroot made /dev/shm/alloctag-0 (or /tmp/alloctag-0) its own, and root's
# programs, refused there, lost their live files and reports.  Run as root:
# the program as nobody (setpriv), in a mount namespace with a /dev/shm and a
# /tmp of its own, then as root.
d=$WORK/fakeroot
mkdir -p "$d"
NOBODY=65534
if [ "$(id -u)" != 0 ] || ! command -v setpriv > /dev/null; then
	skip fakeroot/live-directory "not root, or no setpriv"
	return 0
fi
if ! out=$(unshare -m true 2>&1); then
	skip fakeroot/live-directory "no mount namespace of its own to run in: $out"
	return 0
fi
if ! ensure_deps fakeroot || ! command -v fakeroot > /dev/null; then
	skip fakeroot/live-directory "no fakeroot: $DEPS_OUT"
	return 0
fi
cat > "$d/prog.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
int main(void)
{
	char *volatile p = malloc(100);

	printf("euid %d\n", (int)geteuid());
	return !p;
}
C
check fakeroot/build sh -c "cd '$d' && '$ATCC' -O0 -o prog prog.c"

# The live directories made, each with its owner and its files' names (a
# pid as PID).  The program and its runtime copied to the new /dev/shm,
# where nobody reaches them (the work folder may be under a folder of
# root's alone, or under /tmp), before a new /tmp hides the old.
cat > "$d/run.sh" <<'S'
mount -t tmpfs tmpfs /dev/shm && mkdir -m 755 /dev/shm/run && cp "$1" "$2" /dev/shm/run/ &&
	mount -t tmpfs tmpfs /tmp && cd /dev/shm/run || exit 1
setpriv --reuid=65534 --regid=65534 --clear-groups env LD_LIBRARY_PATH=/dev/shm/run ALLOCTAG_LIVE=keep \
	fakeroot ./prog
LD_LIBRARY_PATH=/dev/shm/run ALLOCTAG_LIVE=keep ./prog
for dir in /dev/shm/alloctag-* /tmp/alloctag-*; do
	[ -d "$dir" ] && echo "$dir owner $(stat -c %u "$dir"): $(ls "$dir" | sed 's/^[0-9]*/PID/' | paste -sd' ')"
done
S
fakeroot_check() {
	local want out
	want="euid 0
euid 0
/dev/shm/alloctag-0 owner 0: PID PID.report
/dev/shm/alloctag-$NOBODY owner $NOBODY: PID PID.report"
	out=$(env -u XDG_RUNTIME_DIR unshare -m bash "$d/run.sh" "$d/prog" "$(dirname "$ATCC")/liballoctag.so" 2>&1)
	[ "$out" = "$want" ] || { printf 'expected:\n%s\ngot:\n%s\n' "$want" "$out"; return 1; }
}
check fakeroot/live-directory fakeroot_check
