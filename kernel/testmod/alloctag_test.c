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
	return kzalloc(n, GFP_KERNEL);	/* allocinfo: 2 calls: twice(40), twice(48) */
}

static noinline void *caller(void)
{
	/* kmalloc_track_caller -> kmalloc_node_track_caller(..., _RET_IP_) */
	return kmalloc_track_caller(24, GFP_KERNEL);	/* allocinfo: 1 call */
}

static int __init alloctag_test_init(void)
{
	static const char msg[] = "alloctag";
	void *p;
	int i;

	for (i = 0; i < 3; i++)			/* one tag, three calls */
		keep(kmalloc(32, GFP_KERNEL));	/* allocinfo: 3 calls */
	keep(kmalloc_array(4, 16, GFP_KERNEL));	/* allocinfo: 1 call */
	keep(kcalloc(2, 64, GFP_KERNEL));	/* allocinfo: 1 call */
	keep(kmemdup(msg, sizeof(msg), GFP_KERNEL));	/* allocinfo: 1 call */
	p = kmalloc(8, GFP_KERNEL);	/* allocinfo: 0 calls: krealloc() below freed it */
	keep(krealloc(p, 128, GFP_KERNEL));	/* allocinfo: 1 call */
	keep(twice(40));
	keep(twice(48));
	keep(caller());
	keep(kvmalloc(1000, GFP_KERNEL));	/* allocinfo: 1 call */
	keep(kvzalloc(2000, GFP_KERNEL));	/* allocinfo: 1 call */
	keep(kvmalloc_array(10, 100, GFP_KERNEL));	/* allocinfo: 1 call */
	keep(kvcalloc(10, 100, GFP_KERNEL));	/* allocinfo: 1 call */
	keep(vmalloc(3 * PAGE_SIZE));	/* allocinfo: 4 calls: 3 pages and the vm_struct */
	keep(vzalloc(PAGE_SIZE));	/* allocinfo: 2 calls: 1 page and the vm_struct */
	if (IS_ENABLED(CONFIG_NUMA))		/* a tag, never called here */
		keep(kmalloc_node(64, GFP_KERNEL, 0));	/* allocinfo: 0 calls: never runs here (!NUMA) */

	pages = __get_free_pages(GFP_KERNEL, 1);	/* allocinfo: 1 call */
	zpage = get_zeroed_page(GFP_KERNEL);	/* allocinfo: 1 call */
	page = alloc_pages(GFP_KERNEL, 0);	/* allocinfo: 1 call */
	exact = alloc_pages_exact(3 * PAGE_SIZE, GFP_KERNEL);	/* allocinfo: 3 calls: one per page kept */
	pcpu = alloc_percpu(int);	/* allocinfo: 0 calls: the first chunk has no tags */

	cache = kmem_cache_create("alloctag_test", 200, 0, 0, NULL);
	if (cache) {
		keep(kmem_cache_alloc(cache, GFP_KERNEL));	/* allocinfo: 1 call */
		keep(kmem_cache_zalloc(cache, GFP_KERNEL));	/* allocinfo: 1 call */
	}
	pool = mempool_create_kmalloc_pool(2, 96);	/* allocinfo: 3 calls (mempool_create_node) */
#ifdef kmalloc_obj
	{
		/* Linux 7.0 and later: macros that take a type, built on hooks */
		struct obj { long a[5]; } *o;

		keep(kmalloc_obj(*o, GFP_KERNEL));	/* allocinfo: 1 call */
		keep(kzalloc_objs(struct obj, 3, GFP_KERNEL));	/* allocinfo: 1 call */
		keep(kvmalloc_obj(*o));	/* allocinfo: 1 call */
	}
#endif

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
