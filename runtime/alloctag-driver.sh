# alloctag-driver.sh: what alloctag-cc (and alloctag-c++) share about the
# compiler they run.  Not a program: the Makefile splices it into each driver
# where "@DRIVER_COMMON@" stands, so an installed driver is one file.
#
# The driver sets, before calling these: driver (its name, "alloctag-cc"),
# compiler_var (the variable naming its compiler, "ALLOCTAG_CC") and
# compiler_default (the compiler alloctag was built for, "gcc").
#
#   driver_step_aside ARGS...   run by an outer driver as its compiler (the
#                          driver in PATH under the compiler's name): run the
#                          next compiler of that name with ARGS unchanged
#   driver_compiler        $compiler: the command to run, from $compiler_var
#                          or the default, split at blanks as configure splits
#                          CC ("ccache gcc", "distcc gcc-12"; no quoting)
#   driver_distribute MODE ARGS...   with distcc as the command's first word,
#                          hand a compilation to distcc as "driver ARGS"
#   driver_under_ccache    refuse settings an outer ccache cannot see
#   driver_check_preprocessed FILE TAGS...   refuse preprocessed input
#                          without the tags headers TAGS (--alloctag-tags)
#   driver_check_build_host   refuse sources sent by distcc's pump mode
#   driver_plugin          $plugin: the one built for the GCC the command runs
#                          (reads gcc_plugin_dir and builds), or stop
#   driver_exec ARGS...    run the command with ARGS (never returns)
#   driver_run ARGS...     run it as a child, its status the function's

driver_fail() {
	echo "$driver: $*" >&2
	exit 2
}

# Field splitting with globbing off: "ccache gcc" is two words, "gcc*" is
# not expanded.  Any word that is a driver itself would run it again.
# Everything the driver runs has ALLOCTAG_DRIVER set ("PID:1:SETTING": its
# process, a count, its compiler setting): see driver_step_aside.
driver_compiler() {
	eval "compiler=\${$compiler_var-}"
	[ -n "$compiler" ] || compiler=$compiler_default
	set -f
	set -- $compiler
	set +f
	[ $# -gt 0 ] || driver_fail "$compiler_var is blank: name a compiler (gcc, \"ccache gcc\")"
	compiler=$*
	local word
	for word in "$@"; do
		case ${word##*/} in
		alloctag-cc* | alloctag-c++*)
			driver_fail "$compiler_var must name a compiler, not $driver (\"$compiler\"); to put a wrapper around $driver, write it first: CC=\"ccache $driver\"" ;;
		esac
	done
	command -v "$1" >/dev/null || driver_fail "$compiler_var: $1: command not found"
	export ALLOCTAG_DRIVER="$$:1:$compiler_var=$compiler"
}

# A driver first in PATH under its compiler's name (alloctag-cc as gcc, as
# ccache masquerades; a build that runs "gcc" or runs its CC in an
# environment of its own, without ALLOCTAG_CC) finds itself when it runs
# "gcc".  Started so (ALLOCTAG_DRIVER set by a driver this process runs
# under), the driver is the outer one's compiler: the outer driver added its
# options, and this one runs the next compiler of that name in PATH with the
# arguments unchanged, as ccache skips itself.  The Nth nesting runs the
# N+1th of the name (ALLOCTAG_DRIVER counts them: another wrapper may come
# between), so it ends.  A compiler named by its path that leads back here,
# or a name with nothing after it in PATH, stops in one line.  A setting
# left in the environment by a process this one does not run under is not
# a nesting: the driver compiles as if it were unset.
driver_step_aside() {
	local outer=${ALLOCTAG_DRIVER-} pid passed setting command word next
	[ -n "$outer" ] || return 0
	pid=${outer%%:*} outer=${outer#*:}
	passed=${outer%%:*} setting=${outer#*:}
	case $pid:$passed in *[!0-9:]* | :* | *:) return 0 ;; esac
	driver_runs_under "$pid" || return 0
	command=${setting#*=}
	word=$(driver_gcc_word "$command")
	[ -n "$word" ] || word=$compiler_default
	case $word in
	*/*) driver_fail "${setting%%=*}=\"$command\" runs $driver again: name a compiler, not a program that runs $driver" ;;
	esac
	next=$(driver_in_path "$word" $((passed + 1)))
	[ -n "$next" ] || driver_fail "${setting%%=*}=\"$command\" runs $driver again, and no other $word is in PATH: name the compiler by its path"
	export ALLOCTAG_DRIVER="$pid:$((passed + 1)):$setting"
	[ -n "${ALLOCTAG_CC_VERBOSE-}" ] && echo "$driver: $word is $driver again, passed on: $next $*" >&2
	exec "$next" "$@"
}

# driver_runs_under PID: this process is PID (a driver execs its compiler)
# or runs under it, by the parents /proc names; true where /proc is not.
driver_runs_under() {
	local pid=$$ line
	[ -r "/proc/$pid/stat" ] || return 0
	while :; do
		[ "$pid" = "$1" ] && return 0
		[ "$pid" -gt 1 ] || return 1
		read -r line 2>/dev/null <"/proc/$pid/stat" || return 1
		line=${line##*") "}	# after "PID (COMMAND) ": "STATE PPID ..."
		line=${line#* }
		pid=${line%% *}
	done
}

# driver_gcc_word COMMAND: the compiler of a compiler command, its last word
# that is not an option ("ccache gcc-14", "gcc -std=gnu99"); nothing if that
# is a wrapper (ccache, distcc, icecc), which runs the default compiler.
driver_gcc_word() {
	local word gcc=
	set -f
	for word in $1; do
		case $word in -*) ;; *) gcc=$word ;; esac
	done
	set +f
	case ${gcc##*/} in ccache | distcc | icecc) ;; *) echo "$gcc" ;; esac
}

# driver_in_path NAME N: the Nth command NAME in PATH, or nothing.
driver_in_path() {
	local dir n=0 IFS=:
	for dir in $PATH; do
		[ -f "${dir:-.}/$1" ] && [ -x "${dir:-.}/$1" ] || continue
		n=$((n + 1))
		[ $n = "$2" ] && { echo "${dir:-.}/$1"; return; }
	done
}

# distccd refuses -fplugin= (it would load any file the client names), so a
# compilation cannot travel as "gcc -fplugin=...".  It travels as
# "alloctag-cc ARGS" instead: distcc runs "alloctag-cc -E" here (with the
# tags headers forced in, if any), and the build host's own alloctag-cc
# (whitelisted there) compiles that output with its plugin, which declares
# the runtime and tags what the command line names.
# The words after "distcc" are the compiler of the preprocessing here; the
# build host compiles with the compiler its alloctag-cc was built for.
# Pump mode is turned off: it would send sources, not that output.
driver_distribute() {
	local mode=$1 self first rest
	shift
	[ "$mode" = compile ] || return 0
	first=${compiler%% *}
	[ "${first##*/}" = distcc ] || return 0
	rest=${compiler#"$first"}
	rest=${rest# }
	if [ -n "$rest" ]; then
		export "$compiler_var=$rest"
	else
		unset "$compiler_var"
	fi
	unset INCLUDE_SERVER_PORT ALLOCTAG_DRIVER	# distcc runs this driver again
	# distccd takes a compiler by name (no path): find this one first.
	self=$(readlink -f -- "$0") || driver_fail "cannot find where $0 is"
	PATH=${self%/*}:$PATH
	[ "${self##*/}" = "$driver" ] || driver_fail "$self is not named $driver: distcc would run another program on the build host"
	[ -n "${ALLOCTAG_CC_VERBOSE-}" ] && echo "$driver: $first $driver $*" >&2
	exec "$first" "$driver" "$@"
}

# Run by ccache (which sets UNCACHED_ERR_FD for its compiler), the driver's
# output may be reused on a later run: ccache's key holds the command line,
# the sources and the headers they include, and the driver (its size and
# time), but not the environment.  A setting taken from the environment
# could change without ccache noticing, so it must come on the command line.
driver_under_ccache() {
	[ -n "${UNCACHED_ERR_FD-}" ] || return 0
	local var option
	for var in "$@"; do
		eval "[ -n \"\${$var-}\" ]" || continue
		case $var in
		ALLOCTAG_TAGS) option="--alloctag-tags=FILE" ;;
		ALLOCTAG_FUNCTIONS) option="--alloctag-functions=NAME,..." ;;
		ALLOCTAG_NESTING) option="--alloctag-innermost" ;;
		ALLOCTAG_WRAPPERS) option="--alloctag-wrappers=FILE" ;;
		*) option="an option" ;;
		esac
		driver_fail "run by ccache, which does not see $var: give $option on the command line (CC=\"ccache $driver $option\"), or let $driver run ccache: $compiler_var=\"ccache $compiler_default\""
	done
}

# A preprocessed unit compiles into a tagged object whichever -E made it
# (the plugin declares the runtime), but the functions a tags header
# declares alloc_tagged are tagged only if that header is in it: forced in
# by the driver's -E, whose line markers name it ("# 1 "./tags.h" 1").
driver_check_preprocessed() {
	local file=$1 t
	shift
	[ "$file" = - ] && return 0		# standard input: cannot be read twice
	for t in "$@"; do
		grep -q -F -e "/${t##*/}\" 1" -e "\"${t##*/}\" 1" -- "$file" 2>/dev/null ||
			driver_fail "$file does not hold the tags header $t: the functions it declares would not be tagged; make it with \"$driver --alloctag-tags=$t -E\""
	done
}

# On a distcc build host the driver must be given preprocessed input: distcc's
# pump mode sends sources instead, and the settings of the client
# (ALLOCTAG_TAGS) do not travel with them.  distccd is the parent there.
driver_check_build_host() {
	local parent=
	[ -r "/proc/$PPID/comm" ] && read -r parent <"/proc/$PPID/comm"
	[ "$parent" = distccd ] &&
		driver_fail "distccd sent a source, not $driver's preprocessed output (distcc's pump mode?): the settings of the client would be lost; use plain distcc"
	return 0
}

# A GCC loads only a plugin built against its own headers, which its plugin
# directory names.  A compiler given in $compiler_var that is another GCC
# (the command's last word: "ccache gcc-14" runs gcc-14; g++-14 is GCC 14
# too) gets the plugin built for that one beside this build (make
# CC=gcc-14: build/gcc-14/, with gcc-plugin-dir) or installed in its plugin
# directory (make install CC=gcc-14); otherwise the driver stops, in one
# line, rather than run a GCC with another's plugin.
driver_plugin() {
	local gcc dir p
	eval "[ -n \"\${$compiler_var-}\" ]" || return 0
	gcc=$(driver_gcc_word "$compiler")
	[ -n "$gcc" ] || return 0	# a wrapper alone runs the default compiler
	command -v "$gcc" >/dev/null || driver_fail "$compiler_var: $gcc: command not found"
	# (A compiler that leads back to a driver refuses, in one line: say it.)
	dir=$(ALLOCTAG_CC_VERBOSE= "$gcc" -print-file-name=plugin 2>&1) ||
		case $dir in alloctag-c*" again"*) echo "$dir" >&2; exit 2 ;; esac
	[ "$dir" = "$gcc_plugin_dir" ] && return 0
	for p in ${builds:+$builds/*/alloctag.so} "$dir/alloctag.so"; do
		[ -f "$p" ] || continue
		[ "$p" = "$dir/alloctag.so" ] ||
			[ "$(cat "${p%/*}/gcc-plugin-dir" 2>/dev/null)" = "$dir" ] || continue
		plugin=$p
		return 0
	done
	"$gcc" -v 2>&1 | grep -q '^gcc version' ||
		driver_fail "$compiler_var=$compiler is not GCC: the alloctag plugin is a GCC plugin"
	driver_fail "no alloctag plugin is built for $compiler_var=$compiler (this $driver's is for $compiler_default); build one: make CC=$(echo "$gcc" | sed 's/g++/gcc/')"
}

driver_exec() {
	[ -n "${ALLOCTAG_CC_VERBOSE-}" ] && echo "$driver: $compiler $*" >&2
	set -f
	# shellcheck disable=SC2086 # the command's words
	exec $compiler "$@"
}

# driver_run ARGS...: the same, as a child: its exit status is the driver's
# (for what must be cleaned up after it).
driver_run() {
	[ -n "${ALLOCTAG_CC_VERBOSE-}" ] && echo "$driver: $compiler $*" >&2
	set -f
	# shellcheck disable=SC2086 # the command's words
	$compiler "$@"
}
