# alloctag: GCC plugin + runtime for per-call-site allocation tags.
#
#   make                 plugin and runtime for $(CC) (default gcc), in build/$(CC)/
#   make CC=gcc-11       the same for GCC 11
#   make demo            build examples/demo.c with the plugin, run it, show its report
#   make check           the testsuite, with GCC 12 and GCC 11
#   make check-compilers the testsuite with GCC 13, 14, 15 and 16, in Debian roots
#   make check-deb       the Debian packages (debian/) built, lintian, installed, used
#   make tool            the alloctag command (top, snapshot, diff, record, plot, pprof)
#   make docs/plot.png   the README's picture, from a real run (docs/plot.sh)
#   make install         PREFIX=/usr/local DESTDIR= PLUGINDIR=$$($(CC) -print-file-name=plugin)
#                        DATADIR=$(PREFIX)/share/alloctag INCLUDEDIR=$(PREFIX)/include
#                        LIBDIR=$(PREFIX)/lib PKGCONFIGDIR=$(LIBDIR)/pkgconfig
#                        MANDIR=$(PREFIX)/share/man
#                        BASHCOMPDIR=$(PREFIX)/share/bash-completion/completions
#                        (then gcc -fplugin=alloctag finds
#                        the plugin, alloctag-cc and alloctag-c++ are in PATH,
#                        pkg-config --cflags --libs alloctag gives the flags)
#
# Missing compilers and plugin headers are installed with apt-get (Debian).

ifeq ($(origin CC),default)
CC := gcc
endif
VERSION := 0.1.0

B := build/$(notdir $(CC))
PLUGIN_DIR = $(shell $(CC) -print-file-name=plugin)

PLUGIN_SRCS := $(wildcard plugin/*.c)
PLUGIN_OBJS := $(patsubst plugin/%.c,$(B)/plugin/%.o,$(PLUGIN_SRCS))
PLUGIN := $(B)/alloctag.so

PLUGIN_CXXFLAGS := -fPIC -O2 -g -fno-rtti -fno-exceptions -Wall -Wextra -Wno-unused-parameter \
	-Wno-missing-field-initializers -DALLOCTAG_VERSION='"$(VERSION)"'

RUNTIME_SRCS := $(addprefix runtime/,malloc.c base.c heap.c segment.c large.c next.c registry.c \
	counters.c counters_read.c format.c live.c live_dir.c live_kept.c config.c report.c process.c sys.c)
RUNTIME_OBJS := $(patsubst runtime/%.c,$(B)/runtime/%.o,$(RUNTIME_SRCS))
RUNTIME_CFLAGS := -std=gnu11 -O2 -g -fPIC -fvisibility=hidden -fno-semantic-interposition \
	-fno-tree-slp-vectorize -Wall -Wextra -Wno-unused-parameter -Iruntime
RUNTIME := $(B)/liballoctag.a $(B)/liballoctag.so $(B)/alloctag-cc $(B)/alloctag-c++
# What programs built by this build's drivers may include: alloctag.h alone,
# as installed (runtime/ also holds the runtime's private headers, which
# would shadow a program's own heap.h or format.h).
INCLUDE := $(B)/include/alloctag.h
# alloctag-c++ runs the g++ of $(CC): gcc-11 -> g++-11.
ALLOCTAG_CXX := $(if $(findstring gcc,$(notdir $(CC))),$(subst gcc,g++,$(notdir $(CC))),g++)
# The plugin is C++ built against $(CC)'s plugin headers: by the g++ of the
# same GCC where it is installed (g++-14 for gcc-14), else by g++.
ifeq ($(origin HOSTCXX),undefined)
HOSTCXX := $(if $(shell command -v $(ALLOCTAG_CXX)),$(ALLOCTAG_CXX),g++)
endif

# The alloctag command (tool/): libc only.  It reads live files, sums
# counters and writes reports with the runtime's own code for them.
TOOL_SRCS := $(wildcard tool/*.c)
TOOL_SHARED := counters_read format live_dir live_kept sys
TOOL_OBJS := $(patsubst tool/%.c,$(B)/tool/%.o,$(TOOL_SRCS)) \
	$(patsubst %,$(B)/tool/runtime-%.o,$(TOOL_SHARED))
TOOL_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers \
	-Itool -Iruntime \
	-DALLOCTAG_VERSION='"$(VERSION)"'
TOOL := $(B)/alloctag
# Its manual pages and bash completion, written by the command itself from
# the table its --help prints (tool/cli_table.c): they cannot disagree.
MANUALS := $(addprefix $(B)/doc/,alloctag.1 alloctag-cc.1 alloctag.7 alloctag.bash)

PREFIX ?= /usr/local
PLUGINDIR ?= $(PLUGIN_DIR)
DATADIR ?= $(PREFIX)/share/alloctag
# The Debian package sets these (debian/rules): the runtime's libraries in a
# private directory, alloctag.pc in the multiarch pkgconfig directory.
INCLUDEDIR ?= $(PREFIX)/include
LIBDIR ?= $(PREFIX)/lib
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
# alloctag.pc names a directory under $(PREFIX) relative to its ${prefix}.
pc_dir = $(patsubst $(PREFIX)/%,$${prefix}/%,$(1))
# The compiler's own include directory is never given as -isystem: that moves
# it ahead of libstdc++'s, whose <cstdlib> then fails its #include_next.
SYSTEM_INCLUDEDIR := /usr/include
include_flag = $(if $(filter $(SYSTEM_INCLUDEDIR) $(SYSTEM_INCLUDEDIR)/,$(INCLUDEDIR)),,-isystem$${includedir})

.PHONY: all plugin runtime tool deps demo examples check install clean FORCE
.DELETE_ON_ERROR:

all: plugin runtime tool

deps:
	@sh plugin/ensure-deps.sh $(CC)

plugin: deps
	@$(MAKE) --no-print-directory $(PLUGIN)

# Undefined references are made weak so that a plugin built for another GCC
# still loads and plugin_init() can say so, instead of dlopen() failing on
# the first symbol that GCC version lacks.
$(B)/plugin/%.o: plugin/%.c $(wildcard plugin/*.h) $(B)/gcc-plugin-dir | $(B)/plugin
	$(HOSTCXX) $(PLUGIN_CXXFLAGS) -I$(PLUGIN_DIR)/include -x c++ -c -o $@.tmp $<
	nm --undefined-only --format=posix $@.tmp | cut -d' ' -f1 > $@.undef
	objcopy --weaken-symbols=$@.undef $@.tmp $@
	rm -f $@.tmp $@.undef

$(PLUGIN): $(PLUGIN_OBJS)
	$(HOSTCXX) -shared -o $@ $^

# The GCC a build is for, by its plugin directory: read by alloctag-cc to
# find the plugin of another ALLOCTAG_CC, and rewritten, so that everything
# is rebuilt, when $(CC) is another GCC than last time (gcc in a root of
# compilers/root, or after an upgrade to a new major version).
$(B)/gcc-plugin-dir: FORCE | $(B)/plugin
	@echo '$(PLUGIN_DIR)' | cmp -s - $@ || echo '$(PLUGIN_DIR)' > $@
FORCE:

$(B)/plugin $(B)/tool $(B)/doc:
	mkdir -p $@

# After the plugin: alloctag-cc is made with its path and hash, and two
# sub-makes must not build it at once (make -j).  After the tool as well:
# the drivers' help is made by it, and a second sub-make linking it while
# this one runs it fails ("Text file busy").
runtime: plugin tool
	@$(MAKE) --no-print-directory $(RUNTIME)

# The runtime, in DIR with FLAGS: its objects and its libraries.  Built twice:
# as installed, in $(B), and with ALLOCTAG_DEBUG's assertions, in $(B)/debug
# (make runtime-debug; make check runs the runtime tests with both).
define runtime_in
$(1)/runtime:
	mkdir -p $$@
# The allocator itself: GCC must not treat its malloc as the built-in one.
$(1)/runtime/malloc.o: RUNTIME_CFLAGS += -fno-builtin
$(1)/runtime/%.o: runtime/%.c $$(wildcard runtime/*.h) $(B)/gcc-plugin-dir | $(1)/runtime
	$$(CC) $$(RUNTIME_CFLAGS) $(2) -c -o $$@ $$<
$(1)/liballoctag.a: $$(patsubst runtime/%.c,$(1)/runtime/%.o,$$(RUNTIME_SRCS))
	rm -f $$@ && ar rcs $$@ $$^
$(1)/liballoctag.so: $$(patsubst runtime/%.c,$(1)/runtime/%.o,$$(RUNTIME_SRCS))
	$$(CC) -shared -Wl,-soname,liballoctag.so -o $$@ $$^ -pthread
endef
$(eval $(call runtime_in,$(B),))
$(eval $(call runtime_in,$(B)/debug,-DALLOCTAG_DEBUG -O1))

tool:
	@$(MAKE) --no-print-directory $(TOOL) $(MANUALS)

$(B)/tool/%.o: tool/%.c $(wildcard tool/*.h) $(wildcard runtime/*.h) $(B)/gcc-plugin-dir | $(B)/tool
	$(CC) $(TOOL_CFLAGS) -c -o $@ $<

$(B)/tool/runtime-%.o: runtime/%.c $(wildcard runtime/*.h) $(B)/gcc-plugin-dir | $(B)/tool
	$(CC) $(TOOL_CFLAGS) -c -o $@ $<

$(TOOL): $(TOOL_OBJS)
	$(CC) -o $@ $^ -lm

$(B)/doc/%: $(TOOL) | $(B)/doc
	$(TOOL) --manual=$* > $@

# alloctag-cc or alloctag-c++ (language $(1)) with the paths of this build
# (install writes its own): plugin $(2), headers $(3), libraries $(4), into
# $(5), and where plugins built for other compilers are, $(6) (build/*/,
# each with the plugin directory of its GCC in gcc-plugin-dir; none when
# installed); the plugin directory of the GCC the plugin is for;
# runtime/alloctag-driver.sh spliced in, and the C library's names
# (alloctag-libc.tags) written in.  The plugin's SHA-256 is written into it:
# ccache, when it runs alloctag-cc, hashes alloctag-cc (its size and time, or
# with compiler_check=content its content), not the plugin; the names it
# passes on the command line.
LIBC_FUNCTIONS = $(shell sed 's/\#.*//' runtime/alloctag-libc.tags | tr -s ' \t\n' ',,,' | sed 's/^,//; s/,$$//')
define make_alloctag_cc
	sed -e 's|@LANG@|$(1)|' -e 's|@CC@|$(CC)|' -e 's|@CXX@|$(ALLOCTAG_CXX)|' \
	    -e 's|@PLUGIN@|$(2)|' -e 's|@INCLUDEDIR@|$(3)|' -e 's|@LIBDIR@|$(4)|' \
	    -e 's|@GCC_PLUGIN_DIR@|$(PLUGIN_DIR)|' -e 's|@BUILDS@|$(6)|' \
	    -e 's|@LIBC_FUNCTIONS@|$(LIBC_FUNCTIONS)|' \
	    -e "s|@PLUGIN_ID@|$$(sha256sum < $(PLUGIN) | cut -d' ' -f1)|" \
	    -e '/^@DRIVER_COMMON@$$/{' -e 'r runtime/alloctag-driver.sh' -e 'd' -e '}' \
	    -e '/^@HELP@$$/{' -e 'r $(B)/doc/alloctag-cc.help' -e 'd' -e '}' \
	    runtime/alloctag-cc.in > $(5) && chmod 755 $(5)
endef
# The drivers' --alloctag-help: alloctag --manual=alloctag-cc.help, from the
# table alloctag-cc(1) is made of (tool/cli_table.c).
DRIVER_SOURCES := runtime/alloctag-cc.in runtime/alloctag-driver.sh runtime/alloctag-libc.tags \
	$(B)/doc/alloctag-cc.help

$(INCLUDE): runtime/alloctag.h
	mkdir -p $(@D) && cp $< $@

$(B)/alloctag-cc: $(DRIVER_SOURCES) $(PLUGIN) $(B)/gcc-plugin-dir $(INCLUDE) | $(B)/runtime
	$(call make_alloctag_cc,c,$(abspath $(PLUGIN)),$(abspath $(B)/include),$(abspath $(B)),$@,$(abspath build))

$(B)/alloctag-c++: $(DRIVER_SOURCES) $(PLUGIN) $(B)/gcc-plugin-dir $(INCLUDE) | $(B)/runtime
	$(call make_alloctag_cc,c++,$(abspath $(PLUGIN)),$(abspath $(B)/include),$(abspath $(B)),$@,$(abspath build))

.PHONY: runtime-debug
runtime-debug: all
	@$(MAKE) --no-print-directory $(B)/debug/liballoctag.a $(B)/debug/liballoctag.so \
		$(B)/debug/alloctag-cc $(B)/debug/alloctag-c++

$(B)/debug/alloctag-cc: $(DRIVER_SOURCES) $(PLUGIN) $(B)/gcc-plugin-dir $(INCLUDE) | $(B)/debug/runtime
	$(call make_alloctag_cc,c,$(abspath $(PLUGIN)),$(abspath $(B)/include),$(abspath $(B)/debug),$@,$(abspath build))

$(B)/debug/alloctag-c++: $(DRIVER_SOURCES) $(PLUGIN) $(B)/gcc-plugin-dir $(INCLUDE) | $(B)/debug/runtime
	$(call make_alloctag_cc,c++,$(abspath $(PLUGIN)),$(abspath $(B)/include),$(abspath $(B)/debug),$@,$(abspath build))

# examples/shared: a library built with alloctag-cc -shared, and a program using it.
examples: all
	mkdir -p $(B)/examples
	$(B)/alloctag-cc -O2 -Wall -fPIC -shared -o $(B)/examples/libnames.so examples/shared/names.c
	$(B)/alloctag-cc -O2 -Wall -o $(B)/examples/names examples/shared/main.c \
		-L$(B)/examples -lnames -Wl,-rpath,'$$ORIGIN'
	$(B)/alloctag-cc -O2 -Wall --alloctag-tags=examples/demo/tags.h \
		-o $(B)/examples/demo examples/demo/demo.c examples/demo/xalloc.c
	$(B)/alloctag-cc -O2 -Wall -o $(B)/examples/server examples/live/server.c

demo: all
	@echo "== building examples/demo with $(B)/alloctag-cc (xmalloc tagged by examples/demo/tags.h)"
	$(B)/alloctag-cc -O2 -Wall --alloctag-tags=examples/demo/tags.h \
		-o $(B)/demo examples/demo/demo.c examples/demo/xalloc.c
	@echo "== running it: ALLOCTAG_REPORT=stderr sends its report to stderr (or stdout, off, FILE)"
	@cd examples/demo && ALLOCTAG_REPORT=stderr $(abspath $(B))/demo

check:
	@testsuite/run $(CHECK_CCS)

install: all
	install -d $(DESTDIR)$(PLUGINDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(LIBDIR) \
		$(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(DATADIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(MANDIR)/man7 $(DESTDIR)$(BASHCOMPDIR)
	install -m 644 $(PLUGIN) $(DESTDIR)$(PLUGINDIR)/alloctag.so
	install -m 644 runtime/alloctag.h $(DESTDIR)$(INCLUDEDIR)/
	install -m 644 runtime/alloctag-libc.tags $(DESTDIR)$(DATADIR)/
	install -m 644 $(B)/liballoctag.a $(DESTDIR)$(LIBDIR)/
	install -m 755 $(B)/liballoctag.so $(DESTDIR)$(LIBDIR)/
	install -m 755 $(TOOL) $(DESTDIR)$(PREFIX)/bin/alloctag
	$(call make_alloctag_cc,c,$(PLUGINDIR)/alloctag.so,$(INCLUDEDIR),$(LIBDIR),$(DESTDIR)$(PREFIX)/bin/alloctag-cc,)
	$(call make_alloctag_cc,c++,$(PLUGINDIR)/alloctag.so,$(INCLUDEDIR),$(LIBDIR),$(DESTDIR)$(PREFIX)/bin/alloctag-c++,)
	install -m 644 $(B)/doc/alloctag.1 $(B)/doc/alloctag-cc.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 644 $(B)/doc/alloctag.7 $(DESTDIR)$(MANDIR)/man7/
	install -m 644 $(B)/doc/alloctag.bash $(DESTDIR)$(BASHCOMPDIR)/alloctag
	echo '.so man1/alloctag-cc.1' > $(DESTDIR)$(MANDIR)/man1/alloctag-c++.1
	install -d $(DESTDIR)$(PKGCONFIGDIR)
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@PLUGINDIR@|$(PLUGINDIR)|' -e 's|@VERSION@|$(VERSION)|' \
	    -e 's|@DATADIR@|$(DATADIR)|' -e 's|@INCLUDEDIR@|$(call pc_dir,$(INCLUDEDIR))|' \
	    -e 's|@LIBDIR@|$(call pc_dir,$(LIBDIR))|' -e 's|@INCLUDE_FLAG@|$(include_flag)|' \
	    runtime/alloctag.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/alloctag.pc

clean:
	rm -rf build testsuite/work

# The whole testsuite with GCC 13 and 14 (Debian 13, trixie) and GCC 15 and
# 16 (sid), each in a Debian root filesystem made once with mmdebstrap into
# .cache/roots/ (compilers/root); first, checks of the roots themselves.
.PHONY: check-compilers
check-compilers:
	@compilers/check

# SQLite, jansson and Lua from Debian's source packages (cached in .cache/),
# built with and without alloctag-cc, their tests compared, reports checked
# against Valgrind DHAT (testsuite/real/run).
.PHONY: check-real
check-real:
	@testsuite/real/run

# Builds at scale: jansson through ccache, distcc (a distccd on 127.0.0.1)
# and icecream (icecc-scheduler and iceccd on 127.0.0.1), compared object
# by object with a local build; CMake and Meson projects with alloctag.pc
# (testsuite/builds/run; as root, about 4 minutes).
.PHONY: check-builds
check-builds:
	@CC=$(CC) testsuite/builds/run

# Debian source packages built by their own debian/rules, plain and with
# alloctag-cc, tests, configure, config.h and warnings compared, one line
# each (testsuite/distro/run).  PKGS="gzip sed" any list, PKGS=ALL the whole
# of testsuite/distro/packages; default its CI set.
.PHONY: check-distro
check-distro:
	@CC=$(CC) testsuite/distro/run $(PKGS)

# Linux built with the alloc_hooks() macros and with the plugin, booted under
# QEMU, /proc/allocinfo compared: 6.12 x86_64, 7.2 x86_64 and 7.2 arm64 with
# GCC 12 (kernel/README.md; ALLOCTAG_KERNEL_TARGETS chooses).
# check-kernel-matrix: 6.12 with GCC 12 and 14, 7.2 x86_64 and arm64 with
# GCC 12 and 16.
KERNEL_MATRIX := 6.12/x86_64/$(CC) 6.12/x86_64/gcc-14 7.2/x86_64/$(CC) 7.2/x86_64/gcc-16 \
	7.2/arm64/$(CC) 7.2/arm64/gcc-16
# check-kernel-defconfig: 7.2 x86_64 and arm64 defconfig, at scale (hours on
# two cores; not in CI); KERNEL_DEFCONFIG=7.2/x86_64 runs one of them.
KERNEL_DEFCONFIG := 7.2/x86_64 7.2/arm64
.PHONY: check-kernel check-kernel-matrix check-kernel-defconfig check-kernel-patches
check-kernel:
	@CC=$(CC) bash kernel/check-kernel.sh
check-kernel-matrix:
	@CC=$(CC) ALLOCTAG_KERNEL_PAIRS="$(KERNEL_MATRIX)" bash kernel/check-kernel.sh
check-kernel-defconfig:
	@CC=$(CC) ALLOCTAG_KERNEL_BASE=defconfig ALLOCTAG_KERNEL_TARGETS="$(KERNEL_DEFCONFIG)" \
		bash kernel/check-kernel.sh
# kernel/convert.py --patches on Linux 7.2: git am, checkpatch --strict,
# tinyconfig builds after the first and the last patch (not in CI).
check-kernel-patches:
	@bash kernel/check-patches.sh 7.2

# The README's picture: examples/live/server.c run 10 s under alloctag
# record, alloctag plot of it, the page shot by headless Chromium
# (docs/plot.sh; chromium installed with apt-get where missing).  A real
# run each time: commit the new docs/plot.png.
.PHONY: docs/plot.png
docs/plot.png: examples
	@sh plugin/ensure-deps.sh $(CC) chromium
	@bash docs/plot.sh $(B) $@

# What the alloctag command shows a person, checked with tmux (top), headless
# Chromium (plot's page) and go tool pprof (its profiles); installs them with
# apt-get where missing (testsuite/tool/slow/run; about a minute).
.PHONY: check-live
check-live:
	@CC=$(CC) testsuite/tool/slow/run

# The Debian packages: debian/ built with dpkg-buildpackage in a copy of the
# tree, lintian, the packages installed, alloctag-cc, alloctag and
# pkg-config used outside the tree, the packages purged (testsuite/deb/run;
# as root, installs the build dependencies with apt-get; a few minutes).
.PHONY: check-deb
check-deb:
	@testsuite/deb/run

# Benchmarks: Lua, SQLite and bench/micro.c built plain, with alloctag-cc, with
# the hand-written macro, and run under the heap profilers a person would
# otherwise pick; tables in build/bench/results.md (bench/run; not a test,
# not run by CI; about 45 minutes).  Recorded results: bench/RESULTS.md.
.PHONY: bench
bench:
	@CC=$(CC) bench/run
