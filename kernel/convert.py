#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Convert a Linux source tree (6.12, 7.2) to tag allocations with the alloctag GCC plugin.

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
    small static __always_inline variant made from the macro: its prototype
    is the one the header documents for the hook (the '#if 0 /* kernel-doc */'
    blocks of 7.x), or the one in ADAPTERS.

Left alone, and listed with why by -v: hook macros in .c files, alloc_hooks()
around other expressions, alloc_hooks_tag() with a run-time tag, and hooks no
function can replace (a variant that makes a static object per call site, or
takes optional arguments; a variadic hook that adds arguments).  Any other
hook this script does not know how to convert is an error: add it to ADAPTERS.
"""
import argparse
import os
import re
import subprocess
import sys
import textwrap

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PLUGIN_SRC = os.path.join(REPO, "plugin")
PLUGIN = "alloctag_plugin"

BEGIN = "alloctag: begin"
END = "alloctag: end"

# Hooks converted through a static __always_inline variant: the prototype of
# that variant, whose body is the macro's own expression with its arguments.
# Needed when the untagged variant is a macro (in some configuration), or when
# the hook passes arguments of its own.  Entries for hooks a tree does not
# have are unused: the table holds the hooks of every version converted, and
# a hook whose tree documents its prototype needs no entry (kernel-doc rule).
ADAPTERS = {
    # the _noprof name is a macro (6.12)
    "kvmalloc_node": "__alloc_size(1) void *kvmalloc_node_noprof_fn(size_t size, gfp_t flags, int node)",
    # the _noprof name is a macro (6.12; 7.2: it adds a kmalloc token)
    "kvmalloc_array": "__alloc_size(1, 2) void *kvmalloc_array_noprof_fn(size_t n, size_t size, gfp_t flags)",
    "kvcalloc_node": "__alloc_size(1, 2) void *kvcalloc_node_noprof_fn(size_t n, size_t size, gfp_t flags, int node)",
    "kvcalloc": "__alloc_size(1, 2) void *kvcalloc_noprof_fn(size_t n, size_t size, gfp_t flags)",
    "kvmalloc_node_align": "__alloc_size(1) void *kvmalloc_node_align_noprof_fn(size_t size, unsigned long align, gfp_t flags, int node)",
    "kmalloc_node": "__alloc_size(1) void *kmalloc_node_noprof_fn(size_t size, gfp_t flags, int node)",
    "kmalloc_array_node": "__alloc_size(1, 2) void *kmalloc_array_node_noprof_fn(size_t n, size_t size, gfp_t flags, int node)",
    "kmalloc_flags": "__alloc_size(1) void *kmalloc_flags_noprof_fn(size_t size, gfp_t flags, unsigned int alloc_flags, int node)",
    "vrealloc_node": "__realloc_size(2) void *vrealloc_node_noprof_fn(const void *p, size_t size, gfp_t flags, int nid)",
    "vrealloc": "__realloc_size(2) void *vrealloc_noprof_fn(const void *p, size_t size, gfp_t flags)",
    # ... and the hook adds _RET_IP_
    "kmalloc_node_track_caller": "__alloc_size(1) void *kmalloc_node_track_caller_noprof_fn(size_t size, gfp_t flags, int node)",
    # a macro on !CONFIG_NUMA
    "vma_alloc_folio": "struct folio *vma_alloc_folio_noprof_fn(gfp_t gfp, int order, struct vm_area_struct *vma, unsigned long addr, bool hugepage)",
    # fixed-argument hooks that pass arguments of their own
    "kmem_buckets_alloc": "__alloc_size(2) void *kmem_buckets_alloc_noprof(kmem_buckets *b, size_t size, gfp_t flags)",
    "kmem_buckets_alloc_track_caller": "__alloc_size(2) void *kmem_buckets_alloc_track_caller_noprof(kmem_buckets *b, size_t size, gfp_t flags)",
    "kmem_buckets_alloc_node_track_caller": "__alloc_size(2) void *kmem_buckets_alloc_node_track_caller_noprof(kmem_buckets *b, size_t size, gfp_t flags, int node)",
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
        self.why = None                 # where an adapter's prototype is from


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


def macro_defs(tree):
    """name -> (parameters, body) of the macros #defined in the headers of the
    tree (a rough scan: the first definition of each name)."""
    defs = {}
    for path in headers(tree):
        with open(path, "rb") as f:
            raw = f.read()
        if b"define" not in raw:
            continue
        for _, line in logical_lines(raw.decode("utf-8", "surrogateescape")):
            m = DEFINE.match(line)
            if m and m.group(1) not in defs:
                defs[m.group(1)] = (m.group(2) or "", " ".join(m.group(3).split()))
    return defs


KERNEL_DOC_BLOCK = re.compile(r"^#if 0 /\* kernel-doc \*/\n(.*?)^#endif", re.M | re.S)


def documented_prototypes(text):
    """name -> prototype of the functions declared in the '#if 0 /* kernel-doc */'
    blocks of a header: the documented interface of hooks that are macros."""
    protos = {}
    for block in KERNEL_DOC_BLOCK.findall(text):
        code = re.sub(r"/\*.*?\*/", " ", block, flags=re.S)
        for decl in code.split(";"):
            decl = " ".join(decl.split())
            m = re.fullmatch(r"([\w\s*]+?\W)(\w+)\s*\(([^()]*)\)", decl)
            if m:
                protos[m.group(2)] = (m.group(1).strip(), m.group(3))
    return protos


def headers(tree, exts=(".h",)):
    for top, dirs, files in os.walk(tree):
        if top == tree:
            dirs[:] = [d for d in dirs if d not in SKIP_DIRS]
        dirs.sort()
        for f in sorted(files):
            if f.endswith(exts):
                yield os.path.join(top, f)


# ------------------------------------------------------------ converting hooks

MAX_WIDTH = 100     # columns, as checkpatch counts them


def width(line):
    return len(line.rstrip("\n").expandtabs(8))


def wrap_call(line):
    """LINE, a call or prototype 'f(a, b, ...)', its arguments wrapped at the
    top-level commas under the open parenthesis when it is too wide."""
    if width(line) <= MAX_WIDTH:
        return line
    open_ = line.index("(")
    args, depth, start = [], 0, open_ + 1
    for i in range(open_, len(line)):
        c = line[i]
        depth += c in "([{"
        depth -= c in ")]}"
        if c == "," and depth == 1:
            args.append(line[start:i + 1].strip())
            start = i + 1
    args.append(line[start:].strip())
    col = width(line[:open_ + 1])
    indent = "\t" * (col // 8) + " " * (col % 8)
    out = line[:open_ + 1] + args[0]
    lines = []
    for a in args[1:]:
        if width(out + " " + a) > MAX_WIDTH:
            lines.append(out)
            out = indent + a
        else:
            out += " " + a
    return "\n".join(lines + [out])


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


def make_adapter(hook, proto, why):
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
    head = "static __always_inline " + proto
    if width(head) > MAX_WIDTH:     # the name on a line of its own, as kernel style allows
        cut = proto.index(name + "(")
        head = "static __always_inline %s\n%s" % (proto[:cut].rstrip(), wrap_call(proto[cut:]))
    hook.adapter = "%s\n{\n%s;\n}\n\n" % (head, wrap_call("\treturn " + expr))
    hook.why = why


def pass_through(hook):
    """The function or macro a hook passes its arguments to unchanged, or None."""
    m = re.fullmatch(r"alloc_hooks\((\w+)\((.*)\)\)", hook.body)
    if not m:
        return None
    if hook.params == "(...)":
        return m.group(1) if m.group(2) == "__VA_ARGS__" else None
    params = [p.strip() for p in hook.params[1:-1].split(",")]
    args = [a.strip() for a in m.group(2).split(",")]
    return m.group(1) if params == args else None


def why_kept(hook, defs):
    """Why a hook must stay a macro, or None: what no function can do."""
    called = re.match(r"alloc_hooks\((\w+)\(", hook.body)
    params, body = defs.get(called.group(1), ("", "")) if called else ("", "")
    if re.search(r"\bstatic\b", body):
        return ("its variant %s makes a static object per call site (a lockdep class key): "
                "a function would make one for all" % called.group(1))
    if "COUNT_ARGS" in body:
        return ("its variant %s takes optional arguments (COUNT_ARGS): no one prototype"
                % called.group(1))
    if hook.params.endswith("...)") and hook.params != "(...)":
        return "variadic, and it adds arguments before them: a function cannot pass on '...'"
    return None


def classify(hook, defs, docs):
    """How HOOK is converted: a declaration of its variant (hook.variant), an
    adapter (hook.adapter), or not at all (hook.kept says why)."""
    if hook.path.endswith(".c"):
        hook.kept = "local to a .c file"
        return
    variant = pass_through(hook)
    if variant and variant not in defs:
        hook.variant, hook.why = variant, None
        return
    if hook.name in ADAPTERS:
        make_adapter(hook, ADAPTERS[hook.name], "ADAPTERS")
        return
    called = re.match(r"alloc_hooks\((\w+)\(", hook.body)
    if called and hook.name in docs:
        # the header documents the hook's prototype (kernel-doc of a macro)
        ret, params = docs[hook.name]
        name = called.group(1) + "_fn"
        make_adapter(hook, "%s%s%s(%s)" % (ret, "" if ret.endswith("*") else " ", name, params),
                     "kernel-doc prototype")
        return
    hook.kept = why_kept(hook, defs)
    if hook.kept:
        return
    if variant:
        sys.exit("alloctag: %s:%d: the untagged variant %s of %s is a macro\n"
                 "  give %s a variant's prototype in ADAPTERS (%s)"
                 % (hook.path, hook.line, variant, hook.name, hook.name, __file__))
    sys.exit("alloctag: %s:%d: don't know how to convert hook %s: %s\n"
             "  give it a variant's prototype in ADAPTERS (%s)"
             % (hook.path, hook.line, hook.name, hook.body, __file__))


def declaration(hook):
    attr = "alloc_tagged"
    if hook.variant != hook.name + "_noprof":
        attr += '("%s")' % hook.variant
    line = "extern typeof(%s) %s __attribute__((%s));\n" % (hook.variant, hook.name, attr)
    if width(line) > MAX_WIDTH:
        line = "extern typeof(%s) %s\n\t__attribute__((%s));\n" % (hook.variant, hook.name, attr)
    return line


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
{enabled}ifdef CONFIG_GCC_PLUGIN_ALLOC_TAG
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


ENABLED = """\
# As alloc_hooks_tag(): a tag only while mem_alloc_profiling_enabled(),
# a static key, holds; the call made either way.
gcc-plugin-cflags-$(CONFIG_GCC_PLUGIN_ALLOC_TAG)		\\
		+= -fplugin-arg-{plugin}-enabled=mem_alloc_profiling_enabled
"""


def enabled_flags(tree):
    """The plugin flags for a tree whose alloc_hooks_tag() makes its tag
    current only while profiling is enabled (Linux 7), or nothing (6.12)."""
    header = read(os.path.join(tree, "include", "linux", "alloc_tag.h"))
    hooks = re.search(r"#define alloc_hooks_tag\(.*?\n\}\)", header, re.S)
    if hooks and "mem_alloc_profiling_enabled()" in hooks.group(0):
        return ENABLED.format(plugin=PLUGIN)
    return ""


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
               objs=" ".join(f[:-2] + ".o" for f in plugin_sources() if f.endswith(".c")),
               enabled=enabled_flags(tree))
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


# ------------------------------------------------------------------ patches

# Subject prefixes of the header conversions, by path (first match).
SUBSYSTEMS = [
    (r"include/linux/(slab|string|fortify-string)\.h|mm/slab\.h", "mm/slab"),
    (r"include/linux/vmalloc\.h", "mm/vmalloc"),
    (r"include/linux/percpu\.h", "percpu"),
    (r"include/linux/mempool\.h", "mempool"),
    (r"include/crypto/|crypto/", "crypto"),
    (r"include/linux/bpfptr\.h", "bpf"),
    (r"include/net/|net/|include/linux/(skbuff|skb_array|ptr_ring|sockptr)\.h", "net"),
    (r"include/linux/workqueue\.h", "workqueue"),
    (r"arch/(\w+)/", r"\1"),
    (r"fs/(\w+)/", r"\1"),
    (r"", "mm"),
]

PLUGIN_MESSAGE = """\
gcc-plugins: add the alloctag plugin, which tags allocation call sites

With CONFIG_MEM_ALLOC_PROFILING every allocator foo has an untagged
foo_noprof() and a macro

	#define foo(...) alloc_hooks(foo_noprof(__VA_ARGS__))

that puts a static struct alloc_tag at each call site.  The alloctag GCC
plugin gives each direct call of a function declared
__attribute__((alloc_tagged)) the same tag (file, line, function, module
name, per-CPU counters) and calls the untagged variant, so that a header
can declare its allocators instead of wrapping them in macros.

This adds the plugin (scripts/gcc-plugins/alloctag_*.c), its Kconfig symbol
GCC_PLUGIN_ALLOC_TAG and its flags: -DALLOC_TAG_PLUGIN, under which the
headers use the declarations (the following patches), the counters'
section (.data..percpu, as DEFINE_PER_CPU() puts them), the module name
(KBUILD_MODNAME in modules), and DISABLE_ALLOC_TAG_PLUGIN, the per-object
opt-out the other plugins have.  Nothing changes without the option; with
it, /proc/allocinfo lists the same call sites as with the macros.  The
plugin's files are listed in MAINTAINERS under memory allocation profiling.
"""


# The plugin's files in MAINTAINERS, under the section of what they serve:
# checkpatch asks for an entry for new files (FILE_PATH_CHANGES).
MAINTAINERS_SECTION = "MEMORY ALLOCATION PROFILING"
MAINTAINERS_FILES = "scripts/gcc-plugins/alloctag_*"


def add_maintainers_entry(tree):
    """F: MAINTAINERS_FILES in MAINTAINERS_SECTION, among its F: lines in order;
    False if the tree has no such section."""
    path = os.path.join(tree, "MAINTAINERS")
    lines = read(path).splitlines(keepends=True) if os.path.exists(path) else []
    if MAINTAINERS_SECTION + "\n" not in lines:
        return False
    start = end = lines.index(MAINTAINERS_SECTION + "\n") + 1
    while end < len(lines) and lines[end].strip():
        end += 1
    files = [i for i in range(start, end) if lines[i].startswith("F:")]
    later = [i for i in files if lines[i][2:].strip() >= MAINTAINERS_FILES]
    at = later[0] if later else files[-1] + 1 if files else end
    if not (later and lines[at][2:].strip() == MAINTAINERS_FILES):
        lines.insert(at, "F:\t%s\n" % MAINTAINERS_FILES)
    return write_if_changed(path, "".join(lines))


def subsystem(rel):
    for pattern, prefix in SUBSYSTEMS:
        m = re.match(pattern, rel)
        if m:
            return m.expand(prefix)
    return "mm"


def fill(text):
    return textwrap.fill(" ".join(text.split()), 72)


def header_message(prefix, files):
    """The commit message of the conversion of FILES: {rel: [converted hooks]}."""
    names = [h.name for hooks in files.values() for h in hooks]
    adapters = [h.name for hooks in files.values() for h in hooks if h.adapter]
    n = len(names)
    paras = [
        fill("With CONFIG_GCC_PLUGIN_ALLOC_TAG, declare the allocation hook%s of %s as "
             "%s tagged by the alloctag plugin instead of using %s alloc_hooks() "
             "macro%s. Under ALLOC_TAG_PLUGIN the macro%s"
             % ("s" if n > 1 else "", ", ".join(sorted(files)), "functions" if n > 1 else "a function",
                "their" if n > 1 else "its", "s" if n > 1 else "", "s" if n > 1 else "")),
        textwrap.fill(", ".join(names), 72, initial_indent="\t", subsequent_indent="\t"),
        fill("%s #undef'd and become%s a declaration"
             % (("are", "") if n > 1 else ("is", "s"))),
        "\textern typeof(foo_noprof) foo __attribute__((alloc_tagged));",
        fill("whose calls the plugin tags with the same file, line and function as the "
             "macro. The declarations come at the end of each header, so every earlier "
             "line keeps its number. Without the plugin (clang, the option off, or "
             "DISABLE_ALLOC_TAG_PLUGIN) the macros stay."),
    ]
    if adapters:
        paras.append(fill("%s %s an untagged variant that is a macro or that adds arguments: "
                          "%s a static __always_inline variant made from the macro."
                          % (", ".join(adapters), "has" if len(adapters) == 1 else "have",
                             "it gets" if len(adapters) == 1 else "they get")))
    subject = "%s: alloc_tag: declare the allocation hooks of %s for the alloctag plugin" % (
        prefix, ", ".join(os.path.basename(f) for f in sorted(files)))
    if len(subject) > 75:
        subject = "%s: alloc_tag: declare %d allocation hook%s for the alloctag plugin" % (
            prefix, n, "s" if n > 1 else "")
    return subject + "\n\n" + "\n\n".join(paras) + "\n"


def git(tree, *args, **kw):
    return subprocess.run(["git", "-C", tree] + list(args), check=True, text=True,
                          stdout=subprocess.PIPE, **kw).stdout


def write_patches(tree, outdir, plan):
    """The conversion as commits on a detached HEAD, written by git format-patch
    into OUTDIR; the tree is left at the commit it was at."""
    try:
        if git(tree, "status", "--porcelain", "--untracked-files=no"):
            sys.exit("alloctag: %s: commit or stash your changes first" % tree)
        base = git(tree, "rev-parse", "HEAD").strip()
        branch = git(tree, "rev-parse", "--abbrev-ref", "HEAD").strip()
    except (subprocess.CalledProcessError, OSError) as e:
        sys.exit("alloctag: %s: --patches needs a git tree: %s" % (tree, e))
    git(tree, "checkout", "-q", "--detach")
    try:
        install_plugin(tree, False, False)
        if add_maintainers_entry(tree):
            git(tree, "add", "MAINTAINERS")
        git(tree, "add", "-A", "-f", "scripts/gcc-plugins", "scripts/Makefile.gcc-plugins")
        git(tree, "commit", "-q", "-s", "-F", "-", input=PLUGIN_MESSAGE)
        groups = {}
        for path, rel, hooks, guard in plan:
            if any(h.variant for h in hooks):
                groups.setdefault(subsystem(rel), []).append((path, rel, hooks, guard))
        for prefix in sorted(groups, key=lambda p: (p != "mm", p)):
            files = {}
            for path, rel, hooks, guard in groups[prefix]:
                convert_header(path, hooks, guard)
                files[rel] = [h for h in hooks if h.variant]
                git(tree, "add", "-f", rel)
            git(tree, "commit", "-q", "-s", "-F", "-", input=header_message(prefix, files))
        os.makedirs(outdir, exist_ok=True)
        out = git(tree, "format-patch", "-o", os.path.abspath(outdir), base + "..HEAD")
    finally:
        git(tree, "checkout", "-q", "-f", branch if branch != "HEAD" else base)
    print("alloctag: %s: %d patches in %s (against %s)"
          % (tree, len(out.split()), outdir, base[:12]))


# ------------------------------------------------------------------------ main

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tree", help="Linux source tree (6.12, 7.2)")
    ap.add_argument("--symlink", action="store_true",
                    help="link the plugin sources instead of copying them")
    ap.add_argument("--revert", action="store_true", help="undo every edit of this script")
    ap.add_argument("--patches", metavar="DIR",
                    help="write the conversion of a git tree as a git format-patch series "
                    "into DIR (the plugin, then the headers by subsystem); the tree stays as it is")
    ap.add_argument("-v", "--verbose", action="store_true", help="list every hook")
    args = ap.parse_args()
    tree = os.path.abspath(args.tree)
    if not os.path.exists(os.path.join(tree, "include/linux/alloc_tag.h")):
        sys.exit("alloctag: %s: not a Linux tree with memory allocation profiling" % tree)
    if args.patches and (args.revert or args.symlink):
        sys.exit("alloctag: --patches converts a clean tree: no --revert, no --symlink")

    changed = 0 if args.patches else install_plugin(tree, args.symlink, args.revert)

    defs = {} if args.revert else macro_defs(tree)
    converted, adapters, kept = 0, 0, 0
    touched = set()     # headers with converted hooks
    plan = []           # (path, rel, hooks, guard) of each header
    for path in headers(tree, (".h", ".c")):
        with open(path, "rb") as f:
            raw = f.read()
        if b"alloc_hooks" not in raw and BEGIN.encode() not in raw:
            continue
        rel = os.path.relpath(path, tree)
        text = strip_block(read(path)) if path.endswith(".h") else read(path)
        hooks, others, guard = scan(text, rel)
        docs = documented_prototypes(text)
        if args.revert:
            hooks, others = [], []
        for h in hooks:
            classify(h, defs, docs)
            converted += h.variant is not None
            if h.variant:
                touched.add(rel)
            adapters += h.adapter is not None
            if args.verbose:
                how = ("stays a macro: " + h.kept if h.kept else
                       "adapter %s (%s)" % (h.variant, h.why) if h.adapter
                       else "-> " + h.variant)
                print("%s:%d: %s %s" % (rel, h.line, h.name, how))
        kept += len(others) + sum(h.kept is not None for h in hooks)
        for n, why in others:
            if args.verbose:
                print("%s:%d: stays: %s" % (rel, n, why))
        if path.endswith(".h"):
            plan.append((path, rel, hooks, guard))
    if args.patches:
        write_patches(tree, args.patches, plan)
        return
    for path, rel, hooks, guard in plan:
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
