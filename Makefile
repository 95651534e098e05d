# alloctag: GCC plugin + runtime for per-call-site allocation tags.
#
#   make                 plugin and runtime for $(CC) (default gcc), in build/$(CC)/
#   make CC=gcc-11       the same for GCC 11
#   make demo            build examples/demo.c with the plugin, run it, show its report
#   make check           the testsuite, with GCC 12 and GCC 11
#   make check-compilers the testsuite with GCC 13, 14, 15 and 16, in Debian roots
#   make install         PREFIX=/usr/local DESTDIR= PLUGINDIR=$$($(CC) -print-file-name=plugin)
#                        (then gcc -fplugin=alloctag finds the plugin, alloctag-cc is in PATH)
#
# Missing compilers and plugin headers are installed with apt-get (Debian).

ifeq ($(origin CC),default)
CC := gcc
endif
# The plugin is C++ built against $(CC)'s plugin headers: by the g++ of the
# same GCC where it is installed (g++-14 for gcc-14), else by g++.
CC_CXX := $(patsubst ./%,%,$(dir $(CC))$(subst gcc,g++,$(notdir $(CC))))
ifeq ($(origin HOSTCXX),undefined)
HOSTCXX := $(if $(filter-out $(CC),$(CC_CXX)),$(or $(shell command -v $(CC_CXX)),g++),g++)
endif
VERSION := 0.1.0

B := build/$(notdir $(CC))
PLUGIN_DIR = $(shell $(CC) -print-file-name=plugin)

PLUGIN_SRCS := $(wildcard plugin/*.c)
PLUGIN_OBJS := $(patsubst plugin/%.c,$(B)/plugin/%.o,$(PLUGIN_SRCS))
PLUGIN := $(B)/alloctag.so

PLUGIN_CXXFLAGS := -fPIC -O2 -g -fno-rtti -fno-exceptions -Wall -Wextra -Wno-unused-parameter \
	-Wno-missing-field-initializers -DALLOCTAG_VERSION='"$(VERSION)"'

RUNTIME_SRCS := runtime/alloctag.c runtime/registry.c runtime/report.c
RUNTIME_OBJS := $(patsubst runtime/%.c,$(B)/runtime/%.o,$(RUNTIME_SRCS))
RUNTIME_CFLAGS := -std=gnu11 -O2 -g -fPIC -fvisibility=hidden -fno-semantic-interposition \
	-fno-tree-slp-vectorize -Wall -Wextra -Wno-unused-parameter -Iruntime
RUNTIME := $(B)/liballoctag.a $(B)/liballoctag.so $(B)/alloctag-cc

PREFIX ?= /usr/local
PLUGINDIR ?= $(PLUGIN_DIR)

.PHONY: all plugin runtime deps demo examples check install clean FORCE
.DELETE_ON_ERROR:

all: plugin runtime

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

$(B)/plugin $(B)/runtime:
	mkdir -p $@

runtime: deps
	@$(MAKE) --no-print-directory $(RUNTIME)

# The allocator itself: GCC must not treat its malloc as the built-in one.
$(B)/runtime/alloctag.o: RUNTIME_CFLAGS += -fno-builtin
$(B)/runtime/%.o: runtime/%.c $(wildcard runtime/*.h) $(B)/gcc-plugin-dir | $(B)/runtime
	$(CC) $(RUNTIME_CFLAGS) -c -o $@ $<

$(B)/liballoctag.a: $(RUNTIME_OBJS)
	rm -f $@ && ar rcs $@ $^

$(B)/liballoctag.so: $(RUNTIME_OBJS)
	$(CC) -shared -Wl,-soname,liballoctag.so -o $@ $^ -pthread

# alloctag-cc with the paths of this build (install writes its own): the
# plugin, headers, runtime, the plugin directory of the GCC the plugin is
# for, and where plugins built for other compilers are (build/*/, each with
# the plugin directory of its GCC in gcc-plugin-dir).
define make_alloctag_cc
	sed -e 's|@CC@|$(CC)|' -e 's|@PLUGIN@|$(1)|' -e 's|@INCLUDEDIR@|$(2)|' \
	    -e 's|@LIBDIR@|$(3)|' -e 's|@GCC_PLUGIN_DIR@|$(PLUGIN_DIR)|' -e 's|@BUILDS@|$(5)|' \
	    runtime/alloctag-cc.in > $(4) && chmod 755 $(4)
endef

$(B)/alloctag-cc: runtime/alloctag-cc.in $(PLUGIN) $(B)/gcc-plugin-dir | $(B)/runtime
	$(call make_alloctag_cc,$(abspath $(PLUGIN)),$(abspath runtime),$(abspath $(B)),$@,$(abspath build))

# examples/shared: a library built with alloctag-cc -shared, and a program using it.
examples: all
	mkdir -p $(B)/examples
	$(B)/alloctag-cc -O2 -Wall -fPIC -shared -o $(B)/examples/libnames.so examples/shared/names.c
	$(B)/alloctag-cc -O2 -Wall -o $(B)/examples/names examples/shared/main.c \
		-L$(B)/examples -lnames -Wl,-rpath,'$$ORIGIN'
	$(B)/alloctag-cc -O2 -Wall --alloctag-tags=examples/demo/tags.h \
		-o $(B)/examples/demo examples/demo/demo.c examples/demo/xalloc.c

demo: all
	@echo "== building examples/demo with $(B)/alloctag-cc (xmalloc tagged by examples/demo/tags.h)"
	$(B)/alloctag-cc -O2 -Wall --alloctag-tags=examples/demo/tags.h \
		-o $(B)/demo examples/demo/demo.c examples/demo/xalloc.c
	@echo "== running it: its report goes to stderr (ALLOCTAG_REPORT=stderr|off|FILE)"
	@cd examples/demo && $(abspath $(B))/demo

check:
	@testsuite/run $(CHECK_CCS)

install: all
	install -d $(DESTDIR)$(PLUGINDIR) $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib \
		$(DESTDIR)$(PREFIX)/bin
	install -m 644 $(PLUGIN) $(DESTDIR)$(PLUGINDIR)/alloctag.so
	install -m 644 runtime/alloctag.h runtime/alloctag-libc.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 $(B)/liballoctag.a $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(B)/liballoctag.so $(DESTDIR)$(PREFIX)/lib/
	$(call make_alloctag_cc,$(PLUGINDIR)/alloctag.so,$(PREFIX)/include,$(PREFIX)/lib,$(DESTDIR)$(PREFIX)/bin/alloctag-cc,)

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

# Linux 6.12 built with the alloc_hooks() macros and with the plugin, booted
# under QEMU, /proc/allocinfo compared (kernel/README.md; 15 to 25 minutes).
.PHONY: check-kernel
check-kernel:
	@CC=$(CC) bash kernel/check-kernel.sh

# Benchmarks: Lua, SQLite and bench/micro.c built plain, with alloctag-cc, with
# the hand-written macro, and run under the heap profilers a person would
# otherwise pick; tables in build/bench/results.md (bench/run; not a test,
# not run by CI; about 25 minutes).  Recorded results: bench/RESULTS.md.
.PHONY: bench
bench:
	@CC=$(CC) bench/run
