/* SPDX-License-Identifier: MIT */
/*
 * alloctag runtime: call sites, thread states and the runtime's own memory.
 *
 * Everything here is off the allocation fast path: it runs the first time a
 * thread allocates, and the first time a thread allocates from a site.  It
 * never calls malloc (it *is* malloc): memory comes from mmap.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include "alloctag_internal.h"

/* Until a thread first allocates, its state has no slots: the fast path's
 * bounds check sends it here without a test of its own.  Its cache looks
 * full, so that such a thread's frees go to glibc. */
static struct thread_state boot_state = {
	.cache_bytes = CACHE_BYTES,
};
__thread struct thread_state *alloctag_self TLS_IE = &boot_state;

static struct alloc_tag_counters untagged_counters;
struct alloc_tag alloctag_untagged = {
	.ct = { .lineno = 0, .function = "untagged", .filename = "untagged" },
	.counters = &untagged_counters,
};

#define MAX_SITES	(1u << 22)
#define SLOTS_PER_ARENA	64

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct site *sites;			/* [1 .. nsites], reserved once */
static _Atomic uint32_t nsites;
static _Atomic(struct thread_state *) all_states;
static pthread_key_t state_key;
static pthread_once_t state_key_once = PTHREAD_ONCE_INIT;

void *alloctag_map(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

void alloctag_unmap(void *p, size_t size)
{
	munmap(p, size);
}

/* Strings and states for the life of the process, under registry_lock. */
static void *permanent(size_t size)
{
	static char *next, *end;
	char *p;

	size = (size + 15) & ~(size_t)15;
	if ((size_t)(end - next) < size) {
		size_t chunk = size > (1u << 20) ? size : (1u << 20);

		next = alloctag_map(chunk);
		if (!next)
			return NULL;
		end = next + chunk;
	}
	p = next;
	next += size;
	return p;
}

static const char *permanent_string(const char *s)
{
	size_t n = strlen(s) + 1;
	char *copy = permanent(n);

	return copy ? memcpy(copy, s, n) : "?";
}

uint32_t alloctag_site_count(void)
{
	return atomic_load_explicit(&nsites, memory_order_acquire);
}

const struct site *alloctag_site(uint32_t id)
{
	return &sites[id];
}

struct thread_state *alloctag_first_state(void)
{
	return atomic_load_explicit(&all_states, memory_order_acquire);
}

/* The shared object a tag lives in, or NULL for the main program. */
static const char *module_of(const struct alloc_tag *tag, uintptr_t *offset)
{
	struct link_map *map = NULL;
	const char *slash;
	Dl_info info;

	*offset = (uintptr_t)tag;
	if (tag == &alloctag_untagged ||
	    !dladdr1(tag, &info, (void **)&map, RTLD_DL_LINKMAP) || !map)
		return NULL;
	*offset = (uintptr_t)tag - (uintptr_t)info.dli_fbase;
	if (!map->l_name || !map->l_name[0])	/* the main program */
		return NULL;
	slash = strrchr(map->l_name, '/');
	return slash ? slash + 1 : map->l_name;
}

/*
 * A site's id, registering it at its first allocation.  A library loaded
 * again after dlclose() finds its sites under the same ids.
 */
static uint32_t site_id(struct alloc_tag *tag)
{
	uint32_t id = __atomic_load_n(&tag->counters->id, __ATOMIC_ACQUIRE);
	const char *module;
	uintptr_t offset;

	if (id)
		return id;
	/* dladdr() takes the loader's lock: not while holding ours. */
	module = module_of(tag, &offset);

	pthread_mutex_lock(&registry_lock);
	id = __atomic_load_n(&tag->counters->id, __ATOMIC_ACQUIRE);
	if (!id && module) {
		for (uint32_t i = 1; i <= nsites; i++)
			if (sites[i].module && sites[i].module_offset == offset &&
			    sites[i].line == tag->ct.lineno && !strcmp(sites[i].module, module)) {
				id = i;
				break;
			}
	}
	if (!id && sites == NULL)
		sites = alloctag_map(MAX_SITES * sizeof(*sites));
	if (!id && sites && nsites + 1 < MAX_SITES) {
		struct site *s = &sites[nsites + 1];

		s->file = permanent_string(tag->ct.filename ? tag->ct.filename : "?");
		s->function = permanent_string(tag->ct.function ? tag->ct.function : "?");
		s->module = module ? permanent_string(module) : NULL;
		s->line = tag->ct.lineno;
		s->module_offset = offset;
		id = atomic_fetch_add_explicit(&nsites, 1, memory_order_release) + 1;
	}
	if (id)
		__atomic_store_n(&tag->counters->id, id, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&registry_lock);
	/* Out of sites or memory: charge the untagged line (or id 0, unreported). */
	return id || tag == &alloctag_untagged ? id : site_id(&alloctag_untagged);
}

/* Thread exit: the state (and the slots that blocks still point to) stays,
 * for the next thread to adopt. */
static void release_state(void *p)
{
	struct thread_state *t = p;

	alloctag_self = &boot_state;
	alloctag_flush_cache(t);
	atomic_store_explicit(&t->in_use, 0, memory_order_release);
}

static void make_state_key(void)
{
	pthread_key_create(&state_key, release_state);
}

static struct thread_state *adopt_state(void)
{
	struct thread_state *t;
	int free_state = 0;

	pthread_once(&state_key_once, make_state_key);
	for (t = alloctag_first_state(); t; t = t->next)
		if (atomic_compare_exchange_strong(&t->in_use, &free_state, 1))
			break;
		else
			free_state = 0;
	if (!t) {
		pthread_mutex_lock(&registry_lock);
		t = permanent(sizeof(*t));
		pthread_mutex_unlock(&registry_lock);
		if (!t)
			return NULL;
		memset(t, 0, sizeof(*t));
		atomic_store(&t->in_use, 1);
		t->next = atomic_load(&all_states);
		while (!atomic_compare_exchange_weak(&all_states, &t->next, t))
			;
	}
	/* Set before pthread_setspecific(), which may allocate. */
	alloctag_self = t;
	pthread_setspecific(state_key, t);
	return t;
}

/* Grow a thread's table to hold ID.  Only its owner writes it; a report
 * reading the old table meanwhile sees slightly older counts. */
static int grow_table(struct thread_state *t, uint32_t id)
{
	uint32_t cap = t->cap ? t->cap : 256;
	struct slot **slots;

	while (cap <= id)
		cap *= 2;
	slots = alloctag_map(cap * sizeof(*slots));
	if (!slots)
		return -1;
	if (t->cap)
		memcpy(slots, t->slots, t->cap * sizeof(*slots));
	__atomic_store_n(&t->slots, slots, __ATOMIC_RELEASE);
	__atomic_store_n(&t->cap, cap, __ATOMIC_RELEASE);
	return 0;
}

static struct slot *new_slot(struct thread_state *t, uint32_t id)
{
	struct slot *s;

	if (t->arena_end - t->arena < (ptrdiff_t)sizeof(*s)) {
		t->arena = alloctag_map(SLOTS_PER_ARENA * sizeof(*s));
		if (!t->arena)
			return NULL;
		t->arena_end = t->arena + SLOTS_PER_ARENA * sizeof(*s);
	}
	s = (struct slot *)t->arena;
	t->arena += sizeof(*s);
	s->owner = t;
	s->site = id;
	__atomic_store_n(&t->slots[id], s, __ATOMIC_RELEASE);
	return s;
}

/* The first allocation of this thread, or from this site on this thread. */
struct slot *alloctag_slot_slow(struct alloc_tag *tag)
{
	static struct slot lost;	/* when the runtime itself is out of memory */
	struct thread_state *t = alloctag_self;
	uint32_t id;

	if (t == &boot_state && !(t = adopt_state()))
		return &lost;
	id = site_id(tag);
	if (id >= t->cap && grow_table(t, id))
		return &lost;
	if (t->slots[id])
		return t->slots[id];
	return new_slot(t, id) ?: &lost;
}

/* fork(): the child's only thread keeps its state; the others' are free. */
static void before_fork(void)
{
	pthread_mutex_lock(&registry_lock);
}

static void after_fork_parent(void)
{
	pthread_mutex_unlock(&registry_lock);
}

static void after_fork_child(void)
{
	for (struct thread_state *t = alloctag_first_state(); t; t = t->next)
		if (t != alloctag_self)
			atomic_store(&t->in_use, 0);
	pthread_mutex_init(&registry_lock, NULL);
}

/* Also what pulls report.o out of liballoctag.a into a program. */
__attribute__((constructor)) static void runtime_init(void)
{
	pthread_atfork(before_fork, after_fork_parent, after_fork_child);
	alloctag_report_init();
}
