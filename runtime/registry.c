/* SPDX-License-Identifier: MIT */
/*
 * alloctag runtime: call sites and threads.
 *
 * Off the fast path: this runs the first time a thread allocates, and the
 * first time a thread allocates from a site.  It never calls malloc (it *is*
 * malloc): its memory is the counters' (counters.c) or mmap's.
 *
 * A site is registered at its first allocation: its record (file, line,
 * function, module, ...) goes into the counters and its id into the tag's
 * counters object, which the fast path reads.  A library loaded again
 * after dlclose() finds its sites under the same ids (by module and offset).
 *
 * A thread state outlives its thread: blocks point to its slots, and the
 * next thread adopts it, slots and all.  So the slots grow with the threads
 * alive at once, not with every thread there ever was, and only with the
 * sites each allocates from often (alloctag_internal.h).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <string.h>
#include "counters_mem.h"
#include "heap.h"
#include "registry.h"

/*
 * Until a thread first allocates (and while it exits): no slots, so that
 * the fast paths' bounds check fails, and no slab.
 */
struct thread_state alloctag_boot_state = {
	.current = { [0 ... CLASSES - 1] = &alloctag_no_slab },
};
__thread struct thread_state *alloctag_self TLS_IE = &alloctag_boot_state;

static struct alloc_tag_counters untagged_counters;
struct alloc_tag alloctag_untagged = {
	.ct = { .lineno = 0, .function = "untagged", .filename = "untagged" },
	.counters = &untagged_counters,
};

#define FIRST_TABLE	256u		/* a thread's first table of slots */
#define STATES_PER_MAP	(65536 / sizeof(struct thread_state))

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
_Atomic(struct thread_state *) alloctag_states;
void (*_Atomic alloctag_registry_hook)(void);
static uint32_t threads_made;
static pthread_key_t state_key;
static pthread_once_t state_key_once = PTHREAD_ONCE_INIT;

void alloctag_registry_lock(void)
{
	pthread_mutex_lock(&registry_lock);
}

void alloctag_registry_unlock(void)
{
	pthread_mutex_unlock(&registry_lock);
}

/*
 * Open-addressing tables in mmap'd memory, under the registry lock: strings
 * already in the counters (by content), and module sites (by module and
 * offset).  Keys are never 0; the tables double at half full.
 */
struct table {
	uint64_t *keys;
	uint64_t *values;
	size_t cap, used;
};

#define TABLE_FIRST	1024u

static uint64_t *table_slot(const struct table *tb, uint64_t key)
{
	size_t i = (key * 0x9e3779b97f4a7c15ull) >> 20;

	for (;; i++) {
		uint64_t *k = &tb->keys[i & (tb->cap - 1)];

		if (*k == key || *k == 0)
			return k;
	}
}

static int table_grow(struct table *tb)
{
	struct table bigger = { .cap = tb->cap ? tb->cap * 2 : TABLE_FIRST, .used = tb->used };

	bigger.keys = alloctag_map(bigger.cap * sizeof(uint64_t) * 2);
	if (!bigger.keys)
		return -1;
	bigger.values = bigger.keys + bigger.cap;
	for (size_t i = 0; i < tb->cap; i++) {
		if (tb->keys[i]) {
			uint64_t *k = table_slot(&bigger, tb->keys[i]);

			*k = tb->keys[i];
			bigger.values[k - bigger.keys] = tb->values[i];
		}
	}
	if (tb->keys)
		alloctag_unmap(tb->keys, tb->cap * sizeof(uint64_t) * 2);
	*tb = bigger;
	return 0;
}

/* The value slot of KEY (0 in it when new), or NULL when out of memory. */
static uint64_t *table_value(struct table *tb, uint64_t key)
{
	uint64_t *k;

	if (2 * (tb->used + 1) > tb->cap && table_grow(tb) != 0)
		return NULL;
	k = table_slot(tb, key);
	if (!*k) {
		*k = key;
		tb->used++;
		tb->values[k - tb->keys] = 0;
	}
	return &tb->values[k - tb->keys];
}

static uint64_t hash_string(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;	/* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h | 1;
}

static struct table strings;		/* content hash -> offset */
static uint64_t string_chunk;		/* the chunk strings are appended to */

/* Room for N bytes of strings: the offset where they go, or 0. */
static uint64_t string_room(size_t n)
{
	struct counters_chunk *c = string_chunk ? alloctag_counters_at(string_chunk) : NULL;
	uint32_t size;

	if (c && c->size - sizeof(*c) - load_relaxed(&c->count) >= n)
		return string_chunk + sizeof(*c) + load_relaxed(&c->count);
	size = (sizeof(*c) + n + CHUNK_SIZE - 1) / CHUNK_SIZE * CHUNK_SIZE;
	if (size > EXTENT_SIZE)
		return 0;
	string_chunk = alloctag_counters_chunk(CHUNK_STRINGS, size, 0);
	return string_chunk ? string_chunk + sizeof(*c) : 0;
}

/* S in the counters (once per content): its offset, or 0. */
static uint64_t counters_string(const char *s)
{
	size_t n;
	uint64_t *value, offset;
	struct counters_chunk *c;

	if (!s)
		return 0;
	n = strlen(s) + 1;
	value = table_value(&strings, hash_string(s));
	if (value && *value && !strcmp(alloctag_counters_at(*value), s))
		return *value;
	offset = string_room(n);
	if (!offset)
		return 0;
	memcpy(alloctag_counters_at(offset), s, n);
	c = alloctag_counters_at(string_chunk);
	store_release(&c->count, load_relaxed(&c->count) + n);
	if (value && !*value)
		*value = offset;
	return offset;
}

/* Where a tag lives: its module's name (NULL: the main program) and offset. */
struct place {
	const char *module;
	uintptr_t offset;
};

/* The loaded object holding ADDRESS: glibc's lock-free lookup where there is one. */
static struct link_map *object_of(const void *address)
{
	struct link_map *map = NULL;
	Dl_info info;

#ifdef DLFO_STRUCT_HAS_EH_DBASE
	struct dl_find_object found;

	if (_dl_find_object((void *)address, &found) == 0)
		return found.dlfo_link_map;
#endif
	/* dladdr() takes the loader's lock: never under ours. */
	if (!dladdr1(address, &info, (void **)&map, RTLD_DL_LINKMAP))
		return NULL;
	return map;
}

static struct place place_of(const struct alloc_tag *tag)
{
	struct place where = { NULL, (uintptr_t)tag };
	struct link_map *map;
	const char *slash;

	if (tag == &alloctag_untagged || !(map = object_of(tag)))
		return where;
	where.offset = (uintptr_t)tag - map->l_addr;
	if (!map->l_name || !map->l_name[0])
		return where;
	slash = strrchr(map->l_name, '/');
	where.module = slash ? slash + 1 : map->l_name;
	return where;
}

static struct table module_sites;	/* (module string, offset) -> id */
static uint64_t site_chunk;
static uint32_t nsites;

static uint64_t module_site_key(uint64_t module, uintptr_t offset, unsigned line)
{
	return ((module * 0x9e3779b97f4a7c15ull) ^ offset ^ ((uint64_t)line << 40)) | 1;
}

/* A new site's record in the counters, published: its id, or 0. */
static uint32_t new_site(const struct alloc_tag *tag, const struct place *where)
{
	struct counters_chunk *c = site_chunk ? alloctag_counters_at(site_chunk) : NULL;
	struct counters_site *s;
	uint32_t count;

	if (!c || load_relaxed(&c->count) == SITES_PER_CHUNK) {
		site_chunk = alloctag_counters_chunk(CHUNK_SITES, CHUNK_SIZE, 0);
		if (!site_chunk)
			return 0;
		c = alloctag_counters_at(site_chunk);
	}
	count = load_relaxed(&c->count);
	s = (struct counters_site *)(c + 1) + count;
	s->id = nsites + 1;
	s->line = tag->ct.lineno;
	s->column = tag->column;
	s->file = counters_string(tag->ct.filename ? tag->ct.filename : "?");
	s->function = counters_string(tag->ct.function ? tag->ct.function : "?");
	s->callee = counters_string(tag->callee);
	s->module = counters_string(where->module);
	s->module_offset = where->offset;
	store_release(&c->count, count + 1);
	nsites++;
	store_release(&alloctag_counters()->nsites, nsites);
	return nsites;
}

/* The id of a site in a module: the one it had if it was loaded before. */
static uint32_t module_site(const struct alloc_tag *tag, const struct place *where)
{
	uint64_t module = counters_string(where->module), *id;

	id = table_value(&module_sites, module_site_key(module, where->offset, tag->ct.lineno));
	if (id && !*id)
		*id = new_site(tag, where);
	return id ? (uint32_t)*id : new_site(tag, where);
}

/* TAG's site id, registering the site at its first allocation; 0 if out of memory. */
static uint32_t site_id(struct alloc_tag *tag)
{
	_Atomic uint32_t *cached = (_Atomic uint32_t *)&tag->counters->id;
	uint32_t id = load_acquire(cached);
	struct place where;

	if (id)
		return id;
	where = place_of(tag);
	alloctag_registry_lock();
	id = load_acquire(cached);
	if (!id)
		id = where.module ? module_site(tag, &where) : new_site(tag, &where);
	if (id)
		store_release(cached, id);
	alloctag_registry_unlock();
	return id;
}

/* Thread exit: the state stays, with its slots, for the next thread. */
static void release_state(void *p)
{
	struct thread_state *t = p;

	alloctag_self = &alloctag_boot_state;
	alloctag_heap_exit(t);
	store_release(&t->in_use, STATE_FREE);
}

static void make_state_key(void)
{
	pthread_key_create(&state_key, release_state);
}

static struct thread_state *new_state(void)
{
	static struct thread_state *pool;
	static size_t pooled;
	struct thread_state *t;

	alloctag_registry_lock();
	if (!pooled) {
		pool = alloctag_map(STATES_PER_MAP * sizeof(*pool));
		pooled = pool ? STATES_PER_MAP : 0;
	}
	t = pooled ? &pool[STATES_PER_MAP - pooled--] : NULL;
	if (t) {
		t->number = ++threads_made;
		alloctag_heap_init(t);
		store_relaxed(&t->in_use, STATE_OWNED);
		t->next = load_relaxed(&alloctag_states);
		store_release(&alloctag_states, t);
	}
	alloctag_registry_unlock();
	return t;
}

static struct thread_state *adopt_state(void)
{
	struct thread_state *t;

	pthread_once(&state_key_once, make_state_key);
	for (t = load_acquire(&alloctag_states); t; t = t->next) {
		int free_state = STATE_FREE;

		if (cas_acquire(&t->in_use, &free_state, STATE_OWNED))
			break;
	}
	if (!t && !(t = new_state()))
		return NULL;
	/* Before pthread_setspecific(), which may allocate. */
	alloctag_self = t;
	pthread_setspecific(state_key, t);
	return t;
}

/*
 * T's table made to hold ID.  Only its owner reads and writes it; under the
 * registry lock, so that a fork never leaves the child a table half moved.
 */
static int grow_table(struct thread_state *t, uint32_t id)
{
	uint32_t cap = t->cap ? t->cap : FIRST_TABLE, old_cap = t->cap;
	uint32_t *slots, *old = t->slots;

	while (cap <= id)
		cap *= 2;
	slots = alloctag_map(cap * sizeof(*slots));
	if (!slots)
		return -1;
	if (old_cap)
		memcpy(slots, old, old_cap * sizeof(*slots));
	t->slots = slots;
	t->cap = cap;
	if (old_cap)
		alloctag_unmap(old, old_cap * sizeof(*slots));
	return 0;
}

/* A slot's ref (block.h) from its offset in the counters. */
static uint32_t ref_of(uint64_t offset)
{
	debug_assert(offset % sizeof(struct counters_slot) == 0);
	return (uint32_t)(offset >> SLOT_REF_SHIFT);
}

/* A new slot for site ID in *CHUNK (a new chunk of THREAD's when full), published. */
static struct charge_to new_slot(uint64_t *chunk, uint32_t thread, uint32_t id)
{
	struct counters_chunk *c = *chunk ? alloctag_counters_at(*chunk) : NULL;
	struct counters_slot *s;
	uint32_t count;

	if (!c || load_relaxed(&c->count) == SLOTS_PER_CHUNK) {
		*chunk = alloctag_counters_chunk(CHUNK_SLOTS, CHUNK_SIZE, thread);
		if (!*chunk)
			return (struct charge_to){ NULL, 0 };
		c = alloctag_counters_at(*chunk);
	}
	count = load_relaxed(&c->count);
	debug_assert(count < SLOTS_PER_CHUNK && id >= 1);
	s = (struct counters_slot *)(c + 1) + count;
	s->site = id;
	s->thread = thread;
	store_release(&c->count, count + 1);
	return (struct charge_to){ s, ref_of(*chunk + sizeof(*c) + count * sizeof(*s)) };
}

/*
 * What the registry keeps of a site, by id, under its lock: the first
 * thread that allocated there, and the slot the others share.
 */
struct site_state {
	uint32_t first;
	struct charge_to shared;
};

#define SITE_STATES_PER_MAP	4096u
#define SITE_STATE_MAPS		4096u

static struct site_state *site_states[SITE_STATE_MAPS];
static uint64_t shared_chunk;

static struct site_state *site_state(uint32_t id)
{
	struct site_state **map = &site_states[id / SITE_STATES_PER_MAP];

	if (id / SITE_STATES_PER_MAP >= SITE_STATE_MAPS)
		return NULL;
	if (!*map)
		*map = alloctag_map(SITE_STATES_PER_MAP * sizeof(**map));
	return *map ? &(*map)[id % SITE_STATES_PER_MAP] : NULL;
}

/*
 * The slot T charges for site ID, whose table entry says T has no slot of
 * its own yet: one of its own (the site's first thread, or a thread that
 * allocated there often enough), else the shared one.  Under the registry
 * lock.
 */
static struct charge_to slot_for(struct thread_state *t, uint32_t id)
{
	struct site_state *site = site_state(id);
	uint32_t *e = &t->slots[id], count = *e + 1;
	struct charge_to c;

	debug_assert(id < t->cap && !own_ref(*e));
	if (!site)
		return (struct charge_to){ NULL, 0 };
	if (!site->first)
		site->first = t->number;
	if (site->first == t->number || count >= HOT_ALLOCATIONS) {
		c = new_slot(&t->slot_chunk, t->number, id);
		if (c.slot)
			*e = c.ref;
		return c;
	}
	*e = count;
	if (!site->shared.slot)
		site->shared = new_slot(&shared_chunk, SHARED_THREAD, id);
	return site->shared;
}

/*
 * The slot charged when there is no other: out of memory for the counters.
 * In their first chunk, after the header, where no report reads it.
 */
static struct charge_to lost_slot(void)
{
	struct counters_slot *s = alloctag_counters_at(COUNTERS_LOST_SLOT);

	return (struct charge_to){ s, ref_of(COUNTERS_LOST_SLOT) };
}

/* The counters, made at the first allocation, with their lost slot: 0, or -1. */
static int counters_ready(void)
{
	struct counters_header *h;

	if (alloctag_counters())
		return 0;
	alloctag_registry_lock();
	h = alloctag_counters_begin();
	if (h)
		lost_slot().slot->thread = SHARED_THREAD;
	alloctag_registry_unlock();
	return h ? 0 : -1;
}

struct charge_to alloctag_charge_slow(struct alloc_tag *tag)
{
	struct thread_state *t = alloctag_self;
	void (*hook)(void) = load_relaxed(&alloctag_registry_hook);
	struct charge_to c;
	uint32_t id;

	if (unlikely(hook))
		hook();		/* a fork child's live file, made lazily (live.c) */
	if (counters_ready() != 0)
		return (struct charge_to){ NULL, 0 };
	if (t == &alloctag_boot_state && !(t = adopt_state()))
		return lost_slot();
	id = site_id(tag);
	if (!id && tag != &alloctag_untagged)
		id = site_id(&alloctag_untagged);
	if (!id)
		return lost_slot();
	if (id >= t->cap) {
		int grown;

		alloctag_registry_lock();
		grown = grow_table(t, id);
		alloctag_registry_unlock();
		if (grown != 0)
			return lost_slot();
	}
	if (own_ref(t->slots[id]))
		return (struct charge_to){ slot_at(t->slots[id]), t->slots[id] };
	alloctag_registry_lock();
	c = slot_for(t, id);
	alloctag_registry_unlock();
	return c.slot ? c : lost_slot();
}

/*
 * In a child after fork: its only thread keeps its state.  The other
 * threads' states may be halfway through an operation on their slabs: they
 * are never touched again (orphaned), their blocks freed onto their slabs'
 * remote lists.  States no thread held stay free for the child's threads.
 */
void alloctag_registry_after_fork(void)
{
	for (struct thread_state *t = load_acquire(&alloctag_states); t; t = t->next)
		if (t != alloctag_self && load_relaxed(&t->in_use) != STATE_FREE)
			store_relaxed(&t->in_use, STATE_ORPHANED);
	pthread_mutex_init(&registry_lock, NULL);
}
