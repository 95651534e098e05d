# The aligned allocators answer as the C library the program runs with:
# the same alignments refused, with the same errno, the same aligned.
d=$WORK/aligned
mkdir -p "$d"
cat > "$d/aligned.c" <<'C'
#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
static void show(const char *f, size_t a, size_t n, void *p, int err)
{
	size_t want = a && !(a & (a - 1)) ? a : 16;
	printf("%s(%zu, %zu): %s errno=%d\n", f, a, n,
	       !p ? "NULL" : (uintptr_t)p % want ? "misaligned" : "aligned", p ? 0 : err);
	free(p);
}
int main(void)
{
	static const size_t aligns[] = { 0, 1, 2, 3, 8, 16, 24, 32, 48, 64, 100, 4096, 1 << 20,
					 (size_t)1 << 62, SIZE_MAX / 2 + 2 };
	static const size_t sizes[] = { 0, 1, 100, 5000 };
	for (size_t i = 0; i < sizeof(aligns) / sizeof(*aligns); i++)
		for (size_t j = 0; j < sizeof(sizes) / sizeof(*sizes); j++) {
			size_t a = aligns[i], n = sizes[j];
			void *p;
			int r;
			errno = 0; p = aligned_alloc(a, n); show("aligned_alloc", a, n, p, errno);
			errno = 0; p = memalign(a, n); show("memalign", a, n, p, errno);
			p = 0; r = posix_memalign(&p, a, n); show("posix_memalign", a, n, p, r);
		}
	errno = 0; show("valloc", 4096, 10, valloc(10), errno);
	errno = 0; show("pvalloc", 4096, 10, pvalloc(10), errno);
	return 0;
}
C
aligned_check() {
	cd "$d" && "$TESTCC" -O0 -w -o plain aligned.c && "$ATCC" -O0 -w -o ours aligned.c || return 1
	./plain > plain.txt && ALLOCTAG_REPORT=off ./ours > ours.txt && diff plain.txt ours.txt
}
check aligned/as-glibc aligned_check
