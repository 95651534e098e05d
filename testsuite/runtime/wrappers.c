// args: -fplugin-arg-alloctag-no-indirect
/*
 * Allocation wrappers, found by the compiler: a function that returns what a
 * tagged call gave it, keeping no other copy, is charged to its callers'
 * lines, however the value reaches its return (a NULL check, an identity
 * function, memset or memcpy, writes through it, another wrapper, realloc,
 * recursion, a pointer into it, aligned).  What keeps or hands on the block
 * (even in the block itself), or is called through a pointer (its address
 * taken) is no wrapper: charged to its own line.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "escape.h"

static void die(void)
{
	abort();
}

static void *nonnull(void *p)
{
	if (!p)
		die();
	return p;
}

void *plain(size_t n) { return malloc(n); }
void *checked(size_t n) { void *p = malloc(n); if (!p) die(); return p; }
void *gnulib(size_t n) { return nonnull(calloc(n, 1)); }
void *zeroed(size_t n) { return memset(checked(n), 0, n); }
char *dup(const char *s) { size_t n = strlen(s) + 1; return memcpy(gnulib(n), s, n); }
void *grow(void *p, size_t n) { void *r = realloc(p, n); if (!r && n) die(); return r; }
void *recursive(int depth, size_t n) { return depth ? recursive(depth - 1, n) : malloc(n); }
static int verbose;
void *traced(size_t n)
{
	void *p = malloc(n);

	if (verbose)
		fprintf(stderr, "traced: %zu bytes at %p\n", n, p);
	return p;
}

/* Its other returns are not fresh: a wrapper all the same. */
static char pool[64];
static size_t pool_used;
void *pooled(size_t n)
{
	if (pool_used + n <= sizeof(pool)) {
		pool_used += n;
		return pool + pool_used - n;
	}
	return malloc(n);
}

/* A header's static inline wrapper (gawk's emalloc). */
static inline void *emalloc(size_t n, const char *what)
{
	void *r = malloc(n);

	if (r == NULL)
		die();
	(void)what;
	return r;
}

/* Not wrappers. */
static void *last;
static void note(void *p) { last = p; }
void *kept(size_t n) { void *p = malloc(n); last = p; return p; }			// site 0/0 60/1 60
void *handed(size_t n) { void *p = malloc(n); note(p); return p; }			// site 0/0 90/1 90
void *by_pointer(size_t n) { return malloc(n); }					// site 0/0 150/2 80
void *self(size_t n) { void **p = malloc(n); *p = p; return p; }			// site 0/0 32/1 32
void *in_table(size_t n) { return malloc(n); }						// site 0/0 33/2 17
void *(*table[1])(size_t) = { in_table };	/* its address taken at file scope */

/* Nor what keeps what a call returned of the block: memcpy's, nonnull's, stpcpy's. */
void *copied(size_t n) { char *p = malloc(n); last = memcpy(p, "x", 1); return p; }	// site 0/0 61/1 61
void *checked_kept(size_t n) { void *p = malloc(n); last = nonnull(p); return p; }	// site 0/0 62/1 62
char *end_kept(size_t n) { char *p = malloc(n); last = stpcpy(p, "x"); return p; }	// site 0/0 63/1 63
/* Nor what keeps it in an initializer. */
struct box { void *p; };
static struct box last_box;
void *boxed_cond(size_t n, int c) { void *p = malloc(n); struct box b = { c ? p : 0 }; last_box = b; return p; }	// site 0/0 66/1 66
void *boxed_assign(size_t n)
{
	void *p = malloc(n), *q;							// site 0/0 67/1 67
	struct box b = { (q = p) };

	last_box = b;
	(void)q;
	return p;
}
/* Nor what hands it to an asm, which may keep it. */
void *in_asm(size_t n) { char *p = malloc(n); __asm__ volatile("" : : "r"(p + 1) : "memory"); return p; }	// site 0/0 69/1 69

/* Nor what keeps the address read as a number. */
static uintptr_t last_number;
void *as_number(size_t n) { char *p = malloc(n); uintptr_t u = (uintptr_t)p; last_number = u; return p; }	// site 0/0 64/1 64

/* Nor one whose locals a nested function reaches (GNU C): it may keep them. */
void *nested(size_t n)
{
	void *p = malloc(n);								// site 0/0 68/1 68
	void keep(void) { last = p; }

	keep();
	return p;
}

/* Wrappers too: a pointer into the block, aligned as gnulib's mmalloca aligns it. */
char *offset(size_t n) { char *p = malloc(n + 16); return p ? p + 16 : NULL; }
void *aligned(size_t n)
{
	char *mem = malloc(n + 16);
	uintptr_t u;

	if (!mem)
		return NULL;
	u = (uintptr_t)mem;
	mem += 16 - (u & 15);
	mem[-1] = 16 - (u & 15);
	return mem;
}

/* A pointer into the block, past a header. */
struct header { size_t n; char data[]; };
char *with_header(size_t n) { struct header *h = malloc(sizeof(*h) + n); h->n = n; return h->data; }

/* gnulib's mmalloca: the address read as numbers, the offset kept in the block. */
void *mmalloca_like(size_t n)
{
	char *mem = malloc(n + 32);
	uintptr_t umem, umemplus;
	long offset;

	if (!mem)
		return NULL;
	umem = (uintptr_t)mem;
	__builtin_add_overflow(umem, 16, &umemplus);
	offset = (umemplus & ~(uintptr_t)15) - umem;
	mem += offset;
	((unsigned char *)mem)[-1] = offset;
	return mem;
}

/* Constructors: wrappers. */
struct node { struct node *next; long v; };
struct node *push(struct node *head, long v)
{
	struct node *n = malloc(sizeof(*n));
	n->next = head;
	n->v = v;
	return n;
}
struct node *build(int depth)
{
	struct node *x;

	if (!depth)
		return NULL;
	x = malloc(sizeof(*x));
	x->next = build(depth - 1);
	return x;
}

/* Not what keeps a pointer into the block. */
struct node *field_kept(void) { struct node *p = malloc(sizeof(*p)); last = &p->v; return p; }	// site 0/0 16/1 16

/* Handed to a wrapper that keeps it: kept (push() keeps its head in the new node). */
struct node *pushed(void)
{
	struct node *p = malloc(sizeof(*p));						// site 16/1 16/1 16
	p->next = NULL;
	escape(push(p, 3));								// site 16/1 16/1 16
	return p;
}
static void *last_parent;
void *child_of(void *parent, size_t n) { void *p = malloc(n); last_parent = parent; return p; }
void *parent_kept(size_t n)
{
	void *p = malloc(n);								// site 0/0 65/1 65
	free(escape(child_of(p, 1)));							// site 0/0 1/1 1
	return p;
}

/* Handed to a wrapper that only reallocates it: a wrapper still. */
void *regrow(size_t n) { void *p = checked(n); return grow(p, 2 * n); }

/* Handed to a function of the C library that keeps nothing of it: a wrapper. */
char *resolved(const char *path) { char *buf = malloc(4096); if (!buf || !realpath(path, buf)) die(); return buf; }

/* gnulib's x2nrealloc: its parameter handed to a wrapper of reallocarray. */
void *xreallocarray(void *p, size_t n, size_t s) { void *r = reallocarray(p, n, s); if (!r) die(); return r; }
void *x2nrealloc(void *p, size_t *pn, size_t s)
{
	size_t n = *pn ? 2 * *pn : 4;

	p = xreallocarray(p, n, s);
	*pn = n;
	return p;
}

int main(void)
{
	void *(*volatile through)(size_t) = by_pointer;
	struct node *list = NULL;
	void *array;
	size_t cap;
	char *s;

	free(escape(plain(10)));							// site 0/0 10/1 10
	free(escape(checked(20)));							// site 0/0 20/1 20
	free(escape(gnulib(30)));							// site 0/0 30/1 30
	free(escape(zeroed(40)));							// site 0/0 40/1 40
	s = dup("hello");								// site 0/0 6/1 6
	s = grow(s, 100);								// site 100/1 100/1 100
	free(escape(recursive(3, 50)));							// site 0/0 50/1 50
	free(escape(traced(55)));							// site 0/0 55/1 55
	escape(pooled(16));	/* from the pool: nothing allocated */
	escape(pooled(100));								// site 100/1 100/1 100
	free(escape(emalloc(24, "a")));							// site 0/0 24/1 24
	free(escape(emalloc(25, "b")));							// site 0/0 25/1 25
	free(escape(kept(60)));
	free(escape(handed(90)));
	free(escape(by_pointer(70)));
	free(escape(through(80)));
	free(escape(self(32)));
	free(escape(in_table(16)));
	free(escape(table[0](17)));
	free(escape(copied(61)));
	free(escape(checked_kept(62)));
	free(escape(end_kept(63)));
	free(escape(as_number(64)));
	free(escape(boxed_cond(66, 1)));
	free(escape(boxed_assign(67)));
	free(escape(field_kept()));
	free(escape(nested(68)));
	free(escape(in_asm(69)));
	escape(offset(0));								// site 16/1 16/1 16
	escape(aligned(8));								// site 24/1 24/1 24
	escape(mmalloca_like(8));							// site 40/1 40/1 40
	escape(with_header(8));								// site 16/1 16/1 16
	list = push(list, 1);								// site 16/1 16/1 16
	list = push(list, 2);								// site 16/1 16/1 16
	escape(build(3));								// site 48/3 48/3 48
	escape(pushed());
	free(escape(parent_kept(65)));
	free(escape(regrow(8)));							// site 0/0 24/2 *
	free(escape(resolved(".")));							// site 0/0 4096/1 4096
	cap = 0;
	array = x2nrealloc(NULL, &cap, 4);						// site 0/0 16/1 16
	array = x2nrealloc(array, &cap, 4);						// site 32/1 32/1 32
	return !escape(list) || !escape(s) || !escape(array);
}
