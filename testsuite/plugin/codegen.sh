# Generated code: no call to a tagged function is left, hooks are inlined from
# -O1 on, and the alloc_tags section holds exactly one 8-aligned tag of the
# header's struct alloc_tag per call site.
codegen_check() {
	local opt=$1 dir=$TOP/testsuite/plugin/tags asm obj sites size align tag_size
	asm=$WORK/shapes$opt.s
	obj=$WORK/shapes$opt.o
	(cd "$dir" && pcc $opt -I.. -S -o "$asm" shapes.c && pcc $opt -I.. -c -o "$obj" shapes.c) || return 1
	if grep -E '^\s+(call|jmp)\s+t_(alloc|touch|count|big|die|named|vararg)\b' "$asm"; then
		echo "a tagged function is still called"; return 1
	fi
	if [ "$opt" != -O0 ] && grep -E '(call|jmp)\s+alloc_tag_(save|restore)' "$asm"; then
		echo "hooks not inlined"; return 1
	fi
	sites=$(cd "$dir" && expected_tags shapes.c | wc -l)
	printf '#include <alloctag.h>\nchar size[sizeof(struct alloc_tag)];\n' |
		"$TESTCC" -I"$TOP/runtime" -x c -c -o "$WORK/tagsize.o" - || return 1
	set -- $(nm -S "$WORK/tagsize.o" | grep ' size$')
	tag_size=$((0x$2))
	# Name Type Address Off Size ES Flg Lk Inf Al, once "[Nr]" is cut off
	set -- $(readelf -SW "$obj" | sed -n 's/^ *\[ *[0-9]*\] *alloc_tags / alloc_tags /p')
	size=$((0x$5))
	align=${10}
	[ "$size" = $((sites * tag_size)) ] ||
		{ echo "alloc_tags: $size bytes for $sites sites of $tag_size bytes"; return 1; }
	[ "$align" = 8 ] || { echo "alloc_tags aligned to $align"; return 1; }
}
for opt in -O0 -O1 -O2 -O3 -Os; do
	check "codegen/shapes$opt" codegen_check "$opt"
done

# Each call compiled once: a hook hides the tag it reads from GCC (an empty
# asm volatile), so that GCC cannot take one call's test of it for the next
# one's and copy the calls between them onto both ways (jump threading: two
# malloc calls written, six compiled; an fopen copied three times, whose
# result then reached free() through a PHI, where -Wmismatched-dealloc lost it).
calls_once() {
	local opt=$1 asm=$WORK/calls$opt.s counts
	cat >"$WORK/calls.c" <<-'C'
	#include <stdio.h>
	#include <stdlib.h>
	#include <string.h>
	void *a, *b, *c;
	FILE *f;
	void calls(const char *s)
	{
		a = malloc(10);
		b = malloc(20);
		f = fopen(s, "r");
		c = strdup(s);
		fputs(s, f);
	}
	C
	"$ATCC" $opt -S -o "$asm" "$WORK/calls.c" || return 1
	counts=$(for fn in malloc_noprof fopen strdup_noprof fputs; do
		echo "$fn $(grep -cE "^\s+(call|jmp)\s+$fn(@PLT)?\$" "$asm")"; done | xargs)
	[ "$counts" = "malloc_noprof 2 fopen 1 strdup_noprof 1 fputs 1" ] ||
		{ echo "calls compiled: $counts"; return 1; }
}
for opt in -O1 -O2 -O3 -Os; do
	check "codegen/each call compiled once$opt" calls_once "$opt"
done
