# Every C dialect GCC accepts: the header and the rewrite work from C89
# (with K&R definitions, unprototyped declarations) to C2x, pedantic; clang
# and plugin-less gcc build the annotated code with the attribute compiled away.
cat > "$WORK/dialect.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <alloctag.h>

__thread struct alloc_tag *alloctag_current;
#if defined(__STDC_VERSION__) && __STDC_VERSION__ > 201710L
void *k_alloc(int n) __alloc_tagged;
void *k_alloc_noprof(int n) { return malloc(n); }
void *k_alloc(int n) { return k_alloc_noprof(n); }
#else
void *k_alloc() __alloc_tagged;				/* no prototype */
void *k_alloc_noprof(n) int n; { return malloc(n); }	/* K&R definition */
void *k_alloc(n) int n; { return k_alloc_noprof(n); }
#endif
extern struct alloc_tag __start_alloc_tags[] __attribute__((__weak__));
extern struct alloc_tag __stop_alloc_tags[] __attribute__((__weak__));

int main(void)
{
	struct alloc_tag *t;
	free(k_alloc(3));
	for (t = __start_alloc_tags; t < __stop_alloc_tags; t++)
		printf("%s:%u %s\n", t->ct.filename, t->ct.lineno, t->ct.function);
	return 0;
}
C
dialect_site="dialect.c:$(grep -n 'free(k_alloc' "$WORK/dialect.c" | cut -d: -f1) main"
for std in c89 gnu89 c99 gnu99 c11 gnu11 c17 gnu17 c2x gnu2x; do
	out=$(cd "$WORK" && pcc -std=$std -pedantic -Werror -O2 -o dialect dialect.c 2>&1 && ./dialect)
	if [ "$out" = "$dialect_site" ]; then pass "dialects/$std"; else fail "dialects/$std" "$out"; fi
done

# Without the plugin the attribute compiles away and nothing is tagged.
for other in "$TESTCC" clang; do
	command -v "$other" >/dev/null || { skip "dialects/without-plugin-$other" "no $other"; continue; }
	out=$(cd "$WORK" && "$other" -I"$TOP/runtime" -std=gnu11 -Wall -Werror -o plain dialect.c 2>&1 && ./plain)
	if [ -z "$out" ]; then pass "dialects/without-plugin-$other"; else fail "dialects/without-plugin-$other" "$out"; fi
done
