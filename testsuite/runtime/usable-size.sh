# malloc_usable_size() is all a program may use of a block, and programs
# use it (SQLite grows its strings into it): what they write there is kept
# by realloc, to any size and any class, and never touches the runtime's
# trailer.
d=$WORK/usable
mkdir -p "$d"
cat > "$d/usable.c" <<'C'
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void)
{
	static const size_t sizes[] = { 0, 1, 8, 24, 25, 100, 500, 1000, 1024, 1025,
					5000, 200000, 1 << 20 };
	int bad = 0;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(*sizes); i++)
		for (size_t j = 0; j < sizeof(sizes) / sizeof(*sizes); j++) {
			unsigned char *p = malloc(sizes[i]), *q;
			size_t usable = malloc_usable_size(p), keep;
			if (usable < sizes[i])
				bad++;
			for (size_t k = 0; k < usable; k++)
				p[k] = (unsigned char)(k * 7 + 1);
			q = realloc(p, sizes[j] ? sizes[j] : 1);
			keep = usable < sizes[j] ? usable : sizes[j];
			for (size_t k = 0; k < keep; k++)
				if (q[k] != (unsigned char)(k * 7 + 1)) {
					printf("%zu -> %zu: byte %zu lost\n", sizes[i], sizes[j], k);
					bad++;
					break;
				}
			free(q);
		}
	return bad != 0;
}
C
usable_check() {
	cd "$d" && "$ATCC" -O2 -o usable usable.c && ALLOCTAG_REPORT=off ./usable
}
check usable-size/realloc-keeps-it usable_check
