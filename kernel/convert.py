#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Convert a Linux 6.12 source tree to tag allocations with the alloctag GCC plugin.

    kernel/convert.py [--symlink] [--revert] [-v] KERNEL_TREE

What it does to KERNEL_TREE (every edit is between "alloctag" marker comments,
so running it again replaces its own edits, and --revert removes them):

 1. Copies the plugin sources plugin/alloctag_*.{c,h} of this repository into
    scripts/gcc-plugins/ (--symlink: links to them instead), and builds them
    there as the multi-file plugin alloctag_plugin.so.
 2. Adds CONFIG_GCC_PLUGIN_ALLOC_TAG (scripts/gcc-plugins/Kconfig) and its
    flags (scripts/Makefile.gcc-plugins): -DALLOC_TAG_PLUGIN, the per-CPU
    counters section, the module name, DISABLE_ALLOC_TAG_PLUGIN.
 3. In every header that defines allocation hooks
        #define foo(...)  alloc_hooks(foo_noprof(__VA_ARGS__))
    appends, before the include guard's #endif (earlier line numbers stay):
        #ifdef ALLOC_TAG_PLUGIN
        #undef foo
        extern typeof(foo_noprof) foo __attribute__((alloc_tagged));
        #endif
    so that with the plugin each call foo(...) gets its own tag, as the macro
    gives it; the macros stay for clang and for builds without the plugin.
    Hooks whose untagged variant is a macro, or that add arguments, get a
    small static __always_inline variant made from the macro (ADAPTERS).

Hook macros in .c files, alloc_hooks() around other expressions, and
alloc_hooks_tag() with a run-time tag are left alone (listed with -v).  A hook
this script does not know how to convert is an error: add it to ADAPTERS.
"""
import argparse
import os
import re
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PLUGIN_SRC = os.path.join(REPO, "plugin")
PLUGIN = "alloctag_plugin"

BEGIN = "alloctag: begin"
END = "alloctag: end"

# Hooks converted through a static __always_inline variant: the prototype of
# that variant, whose body is the macro's own expression with its arguments.
# Needed when the untagged variant is a macro (in some configuration), or when
# the hook passes arguments of its own.
ADAPTERS = {
    # the _noprof name is a macro
    "kvmalloc_node": "__alloc_size(1) void *kvmalloc_node_noprof_fn(size_t size, gfp_t flags, int node)",
    "kvmalloc_array": "__alloc_size(1, 2) void *kvmalloc_array_noprof_fn(size_t n, size_t size, gfp_t flags)",
    "kvcalloc_node": "__alloc_size(1, 2) void *kvcalloc_node_noprof_fn(size_t n, size_t size, gfp_t flags, int node)",
    "kvcalloc": "__alloc_size(1, 2) void *kvcalloc_noprof_fn(size_t n, size_t size, gfp_t flags)",
    # ... and the hook adds _RET_IP_
    "kmalloc_node_track_caller": "__alloc_size(1) void *kmalloc_node_track_caller_noprof_fn(size_t size, gfp_t flags, int node)",
    # a macro on !CONFIG_NUMA
    "vma_alloc_folio": "struct folio *vma_alloc_folio_noprof_fn(gfp_t gfp, int order, struct vm_area_struct *vma, unsigned long addr, bool hugepage)",
    # fixed-argument hooks that pass arguments of their own
    "kmem_buckets_alloc": "__alloc_size(2) void *kmem_buckets_alloc_noprof(kmem_buckets *b, size_t size, gfp_t flags)",
    "kmem_buckets_alloc_track_caller": "__alloc_size(2) void *kmem_buckets_alloc_track_caller_noprof(kmem_buckets *b, size_t size, gfp_t flags)",
    "kmem_buckets_valloc": "__alloc_size(2) void *kmem_buckets_valloc_noprof(kmem_buckets *b, size_t size, gfp_t flags)",
    "__alloc_percpu_gfp": "__alloc_size(1) void __percpu *__alloc_percpu_gfp_noprof(size_t size, size_t align, gfp_t gfp)",
    "__alloc_percpu": "__alloc_size(1) void __percpu *__alloc_percpu_noprof(size_t size, size_t align)",
    "__alloc_reserved_percpu": "__alloc_size(1) void __percpu *__alloc_reserved_percpu_noprof(size_t size, size_t align)",
    # an indirect call
    "mempool_alloc_noreserve": "void *mempool_alloc_noreserve_noprof(mempool_t *pool, gfp_t gfp)",
}

# Directories whose headers are not kernel code.
SKIP_DIRS = ("tools", "Documentation", "scripts", "samples", "usr", ".git")


# ---------------------------------------------------------------- file helpers

def read(path):
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        return f.read()


def write_if_changed(path, text):
    if os.path.exists(path) and read(path) == text:
        return False
    with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(text)
    return True


def strip_block(text, opener="/* "):
    """TEXT without the lines from a BEGIN marker comment to its END marker."""
    out, inside = [], False
    for line in text.splitlines(keepends=True):
        if line.startswith(opener + BEGIN):
            inside = True
        elif inside and line.startswith(opener + END):
            inside = False
        elif not inside:
            out.append(line)
    if inside:
        sys.exit("alloctag: unterminated '%s' block" % BEGIN)
    return "".join(out)


def insert_before_last(text, pattern, block, what):
    """BLOCK inserted before the last line matching PATTERN."""
    lines = text.splitlines(keepends=True)
    for i in range(len(lines) - 1, -1, -1):
        if re.match(pattern, lines[i]):
            return "".join(lines[:i] + [block] + lines[i:])
    sys.exit("alloctag: cannot find where to add %s" % what)


# ------------------------------------------------------------ scanning headers

DEFINE = re.compile(r"\s*#\s*define\s+(\w+)(\([^)]*\))?\s*(.*)$", re.S)
COND_OPEN = re.compile(r"\s*#\s*if(n?def)?\b")
COND_CLOSE = re.compile(r"\s*#\s*endif\b")


def logical_lines(text):
    """(first line number, line with continuations joined) for each line."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        start, line = i + 1, lines[i]
        while line.endswith("\\") and i + 1 < len(lines):
            i += 1
            line = line[:-1] + " " + lines[i]
        yield start, line
        i += 1


class Hook:
    """One '#define NAME(...) alloc_hooks(...)' of a header."""

    def __init__(self, path, line, name, params, body, depth):
        self.path, self.line, self.name = path, line, name
        self.params = params            # "(...)" or "(_a, _b)"
        self.body = " ".join(body.split())
        self.conditional = depth > 0    # inside #if, the include guard aside
        self.variant = None             # the function calls are renamed to
        self.adapter = None             # C text of a static inline variant
        self.kept = None                # why it stays a macro


def scan(text, path):
    """The hook macros of a file, other alloc_hooks uses, and its include guard."""
    hooks, others, depth, guard = [], [], 0, None
    entries = list(logical_lines(text))
    directives = [l.split() for n, l in entries if l.lstrip().startswith("#")]
    if (len(directives) >= 2 and directives[0][:1] == ["#ifndef"] and len(directives[0]) > 1
            and directives[1][:2] == ["#define", directives[0][1]]):
        guard = directives[0][1]
    for n, line in entries:
        if COND_OPEN.match(line):
            depth += 1
        elif COND_CLOSE.match(line):
            depth -= 1
        if "alloc_hooks" not in line:
            continue
        m = DEFINE.match(line)
        if not m:
            others.append((n, "alloc_hooks_tag() with a run-time tag" if "alloc_hooks_tag" in line
                           else "alloc_hooks() around an expression"))
        elif m.group(1) not in ("alloc_hooks", "alloc_hooks_tag"):   # alloc_tag.h
            hooks.append(Hook(path, n, m.group(1), m.group(2) or "", m.group(3),
                              depth - (1 if guard else 0)))
    return hooks, others, guard


def macro_names(tree):
    """Every name #defined as a macro in a header of the tree (a rough scan)."""
    names = set()
    define = re.compile(rb"^\s*#\s*define\s+(\w+)", re.M)
    for path in headers(tree):
        with open(path, "rb") as f:
            names.update(n.decode() for n in define.findall(f.read()))
    return names


def headers(tree, exts=(".h",)):
    for top, dirs, files in os.walk(tree):
        if top == tree:
            dirs[:] = [d for d in dirs if d not in SKIP_DIRS]
        dirs.sort()
        for f in sorted(files):
            if f.endswith(exts):
                yield os.path.join(top, f)


# ------------------------------------------------------------ converting hooks

VA_HOOK = re.compile(r"alloc_hooks\((\w+)\(__VA_ARGS__\)\)$")


def split_prototype(proto):
    """(name, [parameter names]) of a prototype in ADAPTERS."""
    depth = 0
    for i in range(len(proto) - 1, -1, -1):     # the '(' of the parameter list
        depth += {")": 1, "(": -1}.get(proto[i], 0)
        if depth == 0:
            break
    name = re.search(r"(\w+)\s*$", proto[:i]).group(1)
    params = [re.findall(r"\w+", p)[-1] for p in proto[i + 1:-1].split(",")]
    return name, params


def make_adapter(hook, proto):
    """A static inline function doing what the hook macro's alloc_hooks() does."""
    name, params = split_prototype(proto)
    expr = re.fullmatch(r"alloc_hooks\((.*)\)", hook.body)
    if not expr:
        sys.exit("alloctag: %s:%d: %s: expected alloc_hooks(...)" % (hook.path, hook.line, hook.name))
    expr = expr.group(1)
    if hook.params == "(...)":
        expr = expr.replace("__VA_ARGS__", ", ".join(params))
    else:
        macro_params = [p.strip() for p in hook.params[1:-1].split(",")]
        if len(macro_params) != len(params):
            sys.exit("alloctag: %s: %d arguments, adapter %s takes %d"
                     % (hook.name, len(macro_params), name, len(params)))
        mapping = dict(zip(macro_params, params))
        expr = re.sub(r"\b\w+\b", lambda m: mapping.get(m.group(0), m.group(0)), expr)
    hook.variant = name
    hook.adapter = "static __always_inline %s\n{\n\treturn %s;\n}\n" % (proto, expr)


def classify(hook, macros):
    if hook.path.endswith(".c"):
        hook.kept = "local to a .c file"
        return
    if hook.name in ADAPTERS:
        make_adapter(hook, ADAPTERS[hook.name])
        return
    m = VA_HOOK.match(hook.body) if hook.params == "(...)" else None
    if not m:
        sys.exit("alloctag: %s:%d: don't know how to convert hook %s: %s\n"
                 "  give it a variant's prototype in ADAPTERS (%s)"
                 % (hook.path, hook.line, hook.name, hook.body, __file__))
    if m.group(1) in macros:
        sys.exit("alloctag: %s:%d: the untagged variant %s of %s is a macro\n"
                 "  give %s a variant's prototype in ADAPTERS (%s)"
                 % (hook.path, hook.line, m.group(1), hook.name, hook.name, __file__))
    hook.variant = m.group(1)


def declaration(hook):
    attr = "alloc_tagged"
    if hook.variant != hook.name + "_noprof":
        attr += '("%s")' % hook.variant
    return "extern typeof(%s) %s __attribute__((%s));\n" % (hook.variant, hook.name, attr)


def header_block(hooks):
    out = ["/* %s: allocation hooks as tagged declarations (kernel/convert.py) */\n" % BEGIN,
           "#ifdef ALLOC_TAG_PLUGIN\n",
           "/*\n",
           " * With the alloctag GCC plugin, each call of a function declared\n",
           " * __attribute__((alloc_tagged)) gets its own allocation tag and calls the\n",
           " * untagged variant, as the alloc_hooks() macros above do by hand.\n",
           " */\n"]
    for h in hooks:
        if h.conditional:
            out.append("#ifdef %s\n" % h.name)
        out.append("#undef %s\n" % h.name)
        if h.adapter:
            out.append(h.adapter)
        out.append(declaration(h))
        if h.conditional:
            out.append("#endif\n")
    out.append("#endif /* ALLOC_TAG_PLUGIN */\n")
    out.append("/* %s */\n" % END)
    return "".join(out)


def convert_header(path, hooks, guard):
    text = strip_block(read(path))
    if any(h.variant for h in hooks):
        block = header_block([h for h in hooks if h.variant])
        if guard:
            text = insert_before_last(text, r"\s*#\s*endif\b", block, "the include guard's #endif")
        elif any(h.adapter for h in hooks):
            sys.exit("alloctag: %s has no include guard for its adapters" % path)
        else:
            text = text + ("" if text.endswith("\n") else "\n") + block
    return write_if_changed(path, text)


# ----------------------------------------------------------- plugin and kbuild

KCONFIG = """\
# {begin}
config GCC_PLUGIN_ALLOC_TAG
	bool "Tag allocation call sites with a GCC plugin"
	depends on GCC_PLUGINS && MEM_ALLOC_PROFILING
	# s390 modules define ARCH_NEEDS_WEAK_PER_CPU: their tags would have to
	# count into _shared_alloc_tag (plugin option counters-object), only in
	# modules.  Not wired up.
	depends on !S390
	help
	  The alloctag plugin gives each direct call of an allocator declared
	  __attribute__((alloc_tagged)) its own allocation tag, as the
	  alloc_hooks() macros do: the allocation hooks in the headers become
	  such declarations.  /proc/allocinfo lists the same call sites.

# {end}
"""

MAKEFILE_GCC_PLUGINS = """\
# {begin}
gcc-plugin-$(CONFIG_GCC_PLUGIN_ALLOC_TAG)	+= {plugin}.so
gcc-plugin-cflags-$(CONFIG_GCC_PLUGIN_ALLOC_TAG)		\\
		+= -DALLOC_TAG_PLUGIN
# Per-CPU counters go where DEFINE_PER_CPU() puts them.
ifdef CONFIG_SMP
gcc-plugin-cflags-$(CONFIG_GCC_PLUGIN_ALLOC_TAG)		\\
		+= -fplugin-arg-{plugin}-counters-section=.data..percpu
else
gcc-plugin-cflags-$(CONFIG_GCC_PLUGIN_ALLOC_TAG)		\\
		+= -fplugin-arg-{plugin}-counters-section=.data
endif
# CT_MODULE_NAME: KBUILD_MODNAME in modules, none in vmlinux.
gcc-plugin-cflags-$(CONFIG_GCC_PLUGIN_ALLOC_TAG)		\\
		+= -fplugin-arg-{plugin}-modname-macro=KBUILD_MODNAME	\\
		   -fplugin-arg-{plugin}-modname-if=MODULE		\\
		   -fplugin-arg-{plugin}-include=linux/sched.h
# Only direct calls, as with alloc_hooks(): not the indirect calls through
# an allocator's function type (ops->alloc(), mempool_alloc_t, ...).
gcc-plugin-cflags-$(CONFIG_GCC_PLUGIN_ALLOC_TAG)		\\
		+= -fplugin-arg-{plugin}-no-indirect
ifdef CONFIG_GCC_PLUGIN_ALLOC_TAG
    DISABLE_ALLOC_TAG_PLUGIN += -fplugin-arg-{plugin}-disable -UALLOC_TAG_PLUGIN
endif
export DISABLE_ALLOC_TAG_PLUGIN

# {end}
"""

PLUGIN_MAKEFILE = """\
# {begin}
# copied from the alloctag repository's plugin/ by its kernel/convert.py
{plugin}-objs := {objs}

# {end}
"""


def plugin_sources():
    return sorted(f for f in os.listdir(PLUGIN_SRC)
                  if f.startswith("alloctag_") and f.endswith((".c", ".h")))


def install_plugin(tree, symlink, revert):
    """Plugin sources and kbuild edits; the number of files changed."""
    dest = os.path.join(tree, "scripts", "gcc-plugins")
    sources = [] if revert else plugin_sources()
    changed = 0
    for f in os.listdir(dest):
        path = os.path.join(dest, f)
        if (f.startswith("alloctag_") and f.endswith((".c", ".h"))
                and (f not in sources or os.path.islink(path) != symlink)):
            os.remove(path)
            changed += 1
    for f in sources:
        src, path = os.path.join(PLUGIN_SRC, f), os.path.join(dest, f)
        if symlink and not os.path.islink(path):
            os.symlink(src, path)
            changed += 1
        elif not symlink:
            changed += write_if_changed(path, read(src))

    fmt = dict(begin=BEGIN, end=END, plugin=PLUGIN,
               objs=" ".join(f[:-2] + ".o" for f in plugin_sources() if f.endswith(".c")))
    edits = [
        ("scripts/gcc-plugins/Makefile",
         lambda t: insert_before_last(t, r"always-y \+= \$\(GCC_PLUGIN\)",
                                      PLUGIN_MAKEFILE.format(**fmt), "the plugin's objects")),
        ("scripts/gcc-plugins/Kconfig",
         lambda t: insert_before_last(t, r"endif\b", KCONFIG.format(**fmt),
                                      "GCC_PLUGIN_ALLOC_TAG in Kconfig")),
        ("scripts/Makefile.gcc-plugins",
         lambda t: insert_before_last(t, r"# All the plugin CFLAGS are collected here",
                                      MAKEFILE_GCC_PLUGINS.format(**fmt), "the plugin flags")),
    ]
    for rel, add in edits:
        path = os.path.join(tree, rel)
        text = strip_block(read(path), "# ")
        changed += write_if_changed(path, text if revert else add(text))
    return changed


# ------------------------------------------------------------------------ main

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tree", help="Linux source tree (6.12)")
    ap.add_argument("--symlink", action="store_true",
                    help="link the plugin sources instead of copying them")
    ap.add_argument("--revert", action="store_true", help="undo every edit of this script")
    ap.add_argument("-v", "--verbose", action="store_true", help="list every hook")
    args = ap.parse_args()
    tree = os.path.abspath(args.tree)
    if not os.path.exists(os.path.join(tree, "include/linux/alloc_tag.h")):
        sys.exit("alloctag: %s: not a Linux tree with memory allocation profiling" % tree)

    changed = install_plugin(tree, args.symlink, args.revert)

    macros = set() if args.revert else macro_names(tree)
    converted, adapters, kept = 0, 0, 0
    touched = set()     # headers with converted hooks
    for path in headers(tree, (".h", ".c")):
        with open(path, "rb") as f:
            raw = f.read()
        if b"alloc_hooks" not in raw and BEGIN.encode() not in raw:
            continue
        rel = os.path.relpath(path, tree)
        text = strip_block(read(path)) if path.endswith(".h") else read(path)
        hooks, others, guard = scan(text, rel)
        if args.revert:
            hooks, others = [], []
        for h in hooks:
            classify(h, macros)
            converted += h.variant is not None
            if h.variant:
                touched.add(rel)
            adapters += h.adapter is not None
            if args.verbose:
                how = ("stays a macro: " + h.kept if h.kept else
                       "adapter " + h.variant if h.adapter else "-> " + h.variant)
                print("%s:%d: %s %s" % (rel, h.line, h.name, how))
        kept += len(others) + sum(h.kept is not None for h in hooks)
        for n, why in others:
            if args.verbose:
                print("%s:%d: stays: %s" % (rel, n, why))
        if path.endswith(".h"):
            changed += convert_header(path, hooks, guard)
    if args.revert:
        print("alloctag: reverted %s: %d files changed" % (tree, changed))
    else:
        print("alloctag: %s: %d hooks converted (%d through an adapter) in %d headers, "
              "%d macros and alloc_hooks() uses kept; plugin %s scripts/gcc-plugins/; "
              "%d files changed"
              % (tree, converted, adapters, len(touched), kept,
                 "linked into" if args.symlink else "copied to", changed))


if __name__ == "__main__":
    main()
