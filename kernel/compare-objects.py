#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Compare the tags of every object of two kernel builds, object by object:
the build with the alloc_hooks() macros and the build with the plugin.

    compare-objects.py MACRO_OUT PLUGIN_OUT [--list N]

MACRO_OUT and PLUGIN_OUT are the two builds' output folders (make O=...).
Every *.o found in either (built-in.a members and modules' .o alike, not
the .mod.o and .prelink.o kbuild makes for modules, nor the host programs
of scripts/ and tools/, the plugin among them; 32-bit objects, the x86 boot
and real-mode code, are counted, not read) is read for its
alloc_tags section: one struct alloc_tag per tag, 40 bytes on 64-bit
targets,

    struct codetag { u32 flags, lineno; const char *modname, *function,
                     *filename; } __aligned(8);
    struct alloc_tag { struct codetag ct; void __percpu *counters; };

its strings found through the section's relocations (RELA, x86_64's
R_X86_64_64 or arm64's R_AARCH64_ABS64, against a section symbol or an
object such as __func__.3).  A tag is (file, line, function, module); an
object's tags are a multiset.  Columns are not compared: the kernel's
struct codetag has none.

Prints one line per object whose multisets differ (up to --list, each with
what only one side has), then the totals, and last one line
'PASS: objects: ...' or 'FAIL: objects: ...'.  Exit status 1 on FAIL.
Only the Python standard library: the ELF is read here.
"""
import argparse
import collections
import os
import struct
import sys

TAG_SIZE = 40
FIELDS = {8: "modname", 16: "function", 24: "filename"}
ABS64 = {62: 1, 183: 257}          # e_machine: x86_64, aarch64 -> its 64-bit absolute reloc
SKIP_SUFFIXES = (".mod.o", ".prelink.o")
HOST_FOLDERS = ("scripts/", "tools/")  # host programs (and the plugin itself), not the kernel's


class NotElf64(ValueError):
    """A 32-bit object (the x86 boot and real-mode code): no kernel tags."""


class Elf:
    """The sections, symbols and relocations of one ELF64 little-endian
    relocatable object: what reading its alloc_tags needs, nothing more."""

    def __init__(self, path):
        with open(path, "rb") as f:
            self.data = f.read()
        d = self.data
        if d[:4] != b"\x7fELF" or d[5] != 1:
            raise ValueError("not a little-endian ELF file")
        if d[4] != 2:
            raise NotElf64("a 32-bit object")
        (self.machine,) = struct.unpack_from("<H", d, 18)
        shoff, = struct.unpack_from("<Q", d, 40)
        shentsize, shnum, shstrndx = struct.unpack_from("<HHH", d, 58)
        self.sections = [struct.unpack_from("<IIQQQQIIQQ", d, shoff + i * shentsize)
                         for i in range(shnum)]
        names = self.sections[shstrndx]
        self.names = [self._cstr(names[4] + s[0]) for s in self.sections]

    def _cstr(self, off):
        end = self.data.index(b"\0", off)
        return self.data[off:end].decode("utf-8", "replace")

    def section_data(self, i):
        s = self.sections[i]
        return self.data[s[4]:s[4] + s[5]] if s[1] != 8 else b""    # SHT_NOBITS

    def index(self, name):
        return self.names.index(name) if name in self.names else None

    def symbols(self, symtab):
        s = self.sections[symtab]
        strtab = self.sections[s[6]]
        out = []
        for off in range(s[4], s[4] + s[5], 24):
            name, info, other, shndx, value, size = struct.unpack_from("<IBBHQQ", self.data, off)
            out.append((shndx, value))
        return out, strtab

    def relocations_of(self, target):
        """(offset, type, symbol index, addend) of the RELA section for TARGET."""
        for i, s in enumerate(self.sections):
            if s[1] == 4 and s[7] == target:                        # SHT_RELA, sh_info
                rels = []
                for off in range(s[4], s[4] + s[5], 24):
                    r_off, r_info, addend = struct.unpack_from("<QQq", self.data, off)
                    rels.append((r_off, r_info & 0xffffffff, r_info >> 32, addend))
                return rels, s[6]                                   # sh_link: the symtab
        return [], None

    def string_at(self, shndx, offset):
        data = self.section_data(shndx)
        end = data.find(b"\0", offset)
        return data[offset:end if end >= 0 else len(data)].decode("utf-8", "replace")


def object_tags(path):
    """The multiset of (file, line, function, module) in PATH's alloc_tags."""
    elf = Elf(path)
    sec = elf.index("alloc_tags")
    tags = collections.Counter()
    if sec is None:
        return tags
    data = elf.section_data(sec)
    if len(data) % TAG_SIZE:
        raise ValueError("alloc_tags is %d bytes, not a multiple of %d" % (len(data), TAG_SIZE))
    rels, symtab = elf.relocations_of(sec)
    abs64 = ABS64.get(elf.machine)
    strings = {}
    if rels:
        syms, _ = elf.symbols(symtab)
        for off, rtype, sym, addend in rels:
            if off % TAG_SIZE not in FIELDS:
                continue
            if rtype != abs64:
                raise ValueError("relocation type %d at alloc_tags+%#x" % (rtype, off))
            shndx, value = syms[sym]
            strings[off] = elf.string_at(shndx, value + addend)
    for base in range(0, len(data), TAG_SIZE):
        _flags, line = struct.unpack_from("<II", data, base)
        field = {name: strings.get(base + off, "") for off, name in FIELDS.items()}
        tags[(field["filename"], line, field["function"], field["modname"])] += 1
    return tags


def objects(out):
    found = set()
    for root, dirs, files in os.walk(out):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for f in files:
            name = os.path.relpath(os.path.join(root, f), out)
            if f.endswith(".o") and not f.endswith(SKIP_SUFFIXES) and not name.startswith(HOST_FOLDERS):
                found.add(name)
    return found


def show(tag):
    file, line, function, module = tag
    return "%s:%d %s%s" % (file, line, function, " [%s]" % module if module else "")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("macro")
    ap.add_argument("plugin")
    ap.add_argument("--list", type=int, default=20, help="objects listed at most (20)")
    a = ap.parse_args()
    names = sorted(objects(a.macro) | objects(a.plugin))
    differ = unreadable = tagged = narrow = 0
    total = [0, 0]
    for name in names:
        try:
            sides = [object_tags(os.path.join(out, name)) if os.path.exists(os.path.join(out, name))
                     else None for out in (a.macro, a.plugin)]
        except NotElf64:
            narrow += 1
            continue
        except (ValueError, IndexError, struct.error) as e:
            unreadable += 1
            print("%s: cannot read its tags: %s" % (name, e))
            continue
        if None in sides:
            differ += 1
            if differ <= a.list:
                print("%s: only in the %s build" % (name, "plugin" if sides[0] is None else "macro"))
            continue
        total[0] += sum(sides[0].values())
        total[1] += sum(sides[1].values())
        if sides[0] or sides[1]:
            tagged += 1
        if sides[0] != sides[1]:
            differ += 1
            if differ <= a.list:
                print("%s: %d tags with the macros, %d with the plugin" %
                      (name, sum(sides[0].values()), sum(sides[1].values())))
                for label, only in (("macros", sides[0] - sides[1]), ("plugin", sides[1] - sides[0])):
                    for tag, n in sorted(only.items()):
                        print("    only with the %s: %s%s" % (label, show(tag), " (x%d)" % n if n > 1 else ""))
    if differ > a.list:
        print("... and %d more objects that differ" % (differ - a.list))
    summary = ("%d objects (%d of them 32-bit, without tags), %d with tags; tags: %d with the "
               "macros, %d with the plugin; %d objects differ%s" %
               (len(names), narrow, tagged, total[0], total[1], differ,
                ", %d unreadable" % unreadable if unreadable else ""))
    ok = differ == 0 and unreadable == 0 and tagged > 0
    print("%s: objects: %s" % ("PASS" if ok else "FAIL", summary))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
