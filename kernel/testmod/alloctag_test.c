// SPDX-License-Identifier: GPL-2.0
/*
 * alloctag_test: a module for kernel/check-kernel.sh.  At load it calls each
 * kind of allocation hook once (the irregular ones included) and keeps what it
 * got until unloaded, so /proc/allocinfo shows one tag per call below with a
 * known number of calls, whether the tags come from the alloc_hooks() macros
 * or from the alloctag plugin.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/gfp.h>
#include <linux/vmalloc.h>
#include <linux/percpu.h>
#include <linux/mempool.h>
#include <linux/string.h>

#define NPTRS 32
static void *ptrs[NPTRS];
static int nptrs;
static unsigned long pages, zpage;
static struct page *page;
static void *exact;
static int __percpu *pcpu;
static struct kmem_cache *cache;
static mempool_t *pool;

static void keep(void *p)
{
	if (p && nptrs < NPTRS)
		ptrs[nptrs++] = p;
}

/* One tag in this inline function, two calls from its two callers. */
static inline void *twice(size_t n)
{
	return kzalloc(n, GFP_KERNEL);
}

static noinline void *caller(void)
{
	/* kmalloc_track_caller -> kmalloc_node_track_caller(..., _RET_IP_) */
	return kmalloc_track_caller(24, GFP_KERNEL);
}

static int __init alloctag_test_init(void)
{
	static const char msg[] = "alloctag";
	void *p;
	int i;

	for (i = 0; i < 3; i++)			/* one tag, three calls */
		keep(kmalloc(32, GFP_KERNEL));
	keep(kmalloc_array(4, 16, GFP_KERNEL));
	keep(kcalloc(2, 64, GFP_KERNEL));
	keep(kmemdup(msg, sizeof(msg), GFP_KERNEL));
	p = kmalloc(8, GFP_KERNEL);
	keep(krealloc(p, 128, GFP_KERNEL));
	keep(twice(40));
	keep(twice(48));
	keep(caller());
	keep(kvmalloc(1000, GFP_KERNEL));
	keep(kvzalloc(2000, GFP_KERNEL));
	keep(kvmalloc_array(10, 100, GFP_KERNEL));
	keep(kvcalloc(10, 100, GFP_KERNEL));
	keep(vmalloc(3 * PAGE_SIZE));
	keep(vzalloc(PAGE_SIZE));
	if (IS_ENABLED(CONFIG_NUMA))		/* a tag, never called here */
		keep(kmalloc_node(64, GFP_KERNEL, 0));

	pages = __get_free_pages(GFP_KERNEL, 1);
	zpage = get_zeroed_page(GFP_KERNEL);
	page = alloc_pages(GFP_KERNEL, 0);
	exact = alloc_pages_exact(3 * PAGE_SIZE, GFP_KERNEL);
	pcpu = alloc_percpu(int);

	cache = kmem_cache_create("alloctag_test", 200, 0, 0, NULL);
	if (cache) {
		keep(kmem_cache_alloc(cache, GFP_KERNEL));
		keep(kmem_cache_zalloc(cache, GFP_KERNEL));
	}
	pool = mempool_create_kmalloc_pool(2, 96);

	pr_info("alloctag_test: %d allocations kept\n", nptrs);
	return 0;
}

static void __exit alloctag_test_exit(void)
{
	int i;

	mempool_destroy(pool);
	for (i = 0; i < nptrs; i++)
		kvfree(ptrs[i]);	/* kmem_cache objects too: kfree() takes them */
	kmem_cache_destroy(cache);
	free_percpu(pcpu);
	free_pages_exact(exact, 3 * PAGE_SIZE);
	if (page)
		__free_pages(page, 0);
	free_page(zpage);
	free_pages(pages, 1);
}

module_init(alloctag_test_init);
module_exit(alloctag_test_exit);
MODULE_DESCRIPTION("Allocation tags for the alloctag kernel check");
MODULE_LICENSE("GPL");
