# alloctag: GCC plugin + runtime for per-call-site allocation tags.
#
#   make                 plugin and runtime for $(CC) (default gcc), in build/$(CC)/
#   make CC=gcc-11       the same for GCC 11
#   make demo            build examples/demo.c with the plugin, run it, show its report
#   make check           the testsuite, with GCC 12 and GCC 11
#   make install         PREFIX=/usr/local DESTDIR= PLUGINDIR=$$($(CC) -print-file-name=plugin)
#
# Missing compilers and plugin headers are installed with apt-get (Debian).

ifeq ($(origin CC),default)
CC := gcc
endif
HOSTCXX ?= g++
VERSION := 0.1.0

B := build/$(notdir $(CC))
PLUGIN_DIR = $(shell $(CC) -print-file-name=plugin)

PLUGIN_SRCS := $(wildcard plugin/*.c)
PLUGIN_OBJS := $(patsubst plugin/%.c,$(B)/plugin/%.o,$(PLUGIN_SRCS))
PLUGIN := $(B)/alloctag.so

PLUGIN_CXXFLAGS := -fPIC -O2 -g -fno-rtti -fno-exceptions -Wall -Wextra -Wno-unused-parameter \
	-Wno-missing-field-initializers -DALLOCTAG_VERSION='"$(VERSION)"'

PREFIX ?= /usr/local
PLUGINDIR ?= $(PLUGIN_DIR)

.PHONY: all plugin deps demo check install clean
.DELETE_ON_ERROR:

all: plugin

deps:
	@sh plugin/ensure-deps.sh $(CC)

plugin: deps
	@$(MAKE) --no-print-directory $(PLUGIN)

# Undefined references are made weak so that a plugin built for another GCC
# still loads and plugin_init() can say so, instead of dlopen() failing on
# the first symbol that GCC version lacks.
$(B)/plugin/%.o: plugin/%.c $(wildcard plugin/*.h) | $(B)/plugin
	$(HOSTCXX) $(PLUGIN_CXXFLAGS) -I$(PLUGIN_DIR)/include -x c++ -c -o $@.tmp $<
	nm --undefined-only --format=posix $@.tmp | cut -d' ' -f1 > $@.undef
	objcopy --weaken-symbols=$@.undef $@.tmp $@
	rm -f $@.tmp $@.undef

$(PLUGIN): $(PLUGIN_OBJS)
	$(HOSTCXX) -shared -o $@ $^

$(B)/plugin:
	mkdir -p $@

check:
	@testsuite/run $(CHECK_CCS)

install: plugin
	install -d $(DESTDIR)$(PLUGINDIR) $(DESTDIR)$(PREFIX)/include
	install -m 644 $(PLUGIN) $(DESTDIR)$(PLUGINDIR)/alloctag.so
	install -m 644 runtime/alloctag.h $(DESTDIR)$(PREFIX)/include/alloctag.h

clean:
	rm -rf build testsuite/work

# SQLite, jansson and Lua from Debian's source packages (cached in .cache/),
# built with and without alloctag-cc, their tests compared, reports checked
# against Valgrind DHAT (testsuite/real/run).
.PHONY: check-real
check-real:
	@testsuite/real/run
