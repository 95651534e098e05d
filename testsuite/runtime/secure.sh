# A set-user-ID program (AT_SECURE) obeys no variable that names a file or
# a directory and writes no file: ALLOCTAG_REPORT=FILE and XDG_RUNTIME_DIR
# are ignored, no live file and no kept report are made; a report still
# goes to the stderr it was given (issue 25 case 14).  Run as root: a
# set-user-ID-root copy run by nobody (setpriv), against a file only root
# may write.
d=$WORK/secure
mkdir -p "$d"
NOBODY=65534
if [ "$(id -u)" != 0 ] || ! command -v setpriv > /dev/null; then
	skip secure/set-user-id "not root, or no setpriv"
	return 0
fi
chmod 755 "$d"
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
secure_build() {
	cd "$d" && "$ATCC" -O0 -o prog prog.c && cp prog prog.suid && chown root prog.suid &&
		chmod 4755 prog.suid
}
check secure/build secure_build

# As nobody, with files and a directory only root may write named.
as_nobody() {
	setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups env "$@"
}
fresh() {
	cd "$d" && rm -rf xdg shm-check && mkdir -m 700 xdg &&
		printf 'precious\n' > precious && chmod 644 precious
}

# The plain copy, as root: the same settings are obeyed (the test can fail).
control_check() {
	fresh || return 1
	ALLOCTAG_REPORT=$d/precious XDG_RUNTIME_DIR=$d/xdg ALLOCTAG_LIVE=keep ./prog > out || return 1
	grep -q 'prog.c:6 func:main' precious && [ -n "$(ls xdg/alloctag)" ] ||
		{ cat precious; ls -R xdg; return 1; }
}
check secure/control-obeys control_check

setuid_check() {
	local err
	fresh || return 1
	err=$(as_nobody ALLOCTAG_REPORT="$d/precious" XDG_RUNTIME_DIR="$d/xdg" ALLOCTAG_LIVE=keep \
		./prog.suid 2>&1 > out)
	[ "$(cat out)" = "euid 0" ] || { echo "not set-user-ID: $(cat out)"; return 1; }
	[ "$(cat precious)" = precious ] && [ -z "$err" ] && [ ! -e xdg/alloctag ] ||
		{ echo "stderr: $err"; echo "precious:"; cat precious; ls -R xdg; return 1; }
}
check secure/report-file-and-xdg-ignored setuid_check

# No kept report either (ALLOCTAG_REPORT unset), and
# no live file in root's own live directory.
quiet_check() {
	local pid
	fresh || return 1
	setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups env XDG_RUNTIME_DIR="$d/xdg" \
		./prog.suid > out 2> err &
	pid=$!		# setpriv and env exec: the program's pid
	wait "$pid"
	[ ! -s err ] && [ ! -e xdg/alloctag ] && [ ! -e "/dev/shm/alloctag-0/$pid.report" ] &&
		[ ! -e "/tmp/alloctag-0/$pid.report" ] && [ "$(cat out)" = "euid 0" ] ||
		{ cat out err; ls -l "/dev/shm/alloctag-0/$pid.report"; return 1; }
}
check secure/no-kept-report quiet_check

# The stderr it was given is still a destination.
stderr_check() {
	fresh || return 1
	as_nobody ALLOCTAG_REPORT=stderr ./prog.suid > out 2> err
	grep -q 'prog.c:6 func:main' err || { cat err; return 1; }
}
check secure/stderr-still-reported stderr_check
