/* Sparse paged device memory (see devmem.h).
 *
 * Global addresses in [DEVMEM_DRIVER_BASE, DEVMEM_GLOBAL_LIMIT) (the driver's
 * region, then the heap) span a little over 40 bits; the page table covers 2^40
 * bytes from DEVMEM_DRIVER_BASE: with 64 KB pages that is 2^24 page numbers, split
 * 12/12 over a two-level table so an untouched region costs nothing.  Allocations are handed out by a bump pointer
 * (deterministic, never reused), recorded in an array sorted by base address. */
#include "runtime/devmem.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define L2_BITS 12
#define L1_BITS 12
#define L1_SIZE (1u << L1_BITS)
#define L2_SIZE (1u << L2_BITS)

typedef struct {
    uint8_t *pages[L2_SIZE];
} page_table_l2;

struct devmem {
    page_table_l2 *l1[L1_SIZE];
    devmem_alloc_info *allocs;   /* live allocations, sorted by base */
    uint32_t nallocs, cap;
    uint32_t next_id;
    uint64_t bump;               /* next free address */
    uint64_t resident;           /* bytes of materialised pages */
    uint32_t last_hit;           /* index of the allocation last found (fast path) */
    uint8_t *scratch_page;       /* backing for addresses outside the global range */
    /* Parallel simulation (-sim_threads, docs/timing-core.md): SMs on several
     * threads find allocations and materialise pages concurrently.  Pages are
     * created under this lock and published with release stores; lookups read
     * the table with acquire loads.  A new page is zeros whoever creates it, so
     * results do not depend on which thread does. */
    pthread_mutex_t lock;
};

devmem *devmem_create(void) {
    devmem *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->bump = DEVMEM_GLOBAL_BASE;
    m->next_id = 1;
    if (pthread_mutex_init(&m->lock, NULL)) {
        free(m);
        return NULL;
    }
    return m;
}

void devmem_destroy(devmem *m) {
    if (!m) return;
    for (uint32_t i = 0; i < L1_SIZE; i++) {
        if (!m->l1[i]) continue;
        for (uint32_t j = 0; j < L2_SIZE; j++) free(m->l1[i]->pages[j]);
        free(m->l1[i]);
    }
    free(m->allocs);
    free(m->scratch_page);
    pthread_mutex_destroy(&m->lock);
    free(m);
}

static uint64_t page_number(uint64_t addr) { return (addr - DEVMEM_DRIVER_BASE) >> DEVMEM_PAGE_BITS; }

_Static_assert(DEVMEM_GLOBAL_LIMIT - DEVMEM_DRIVER_BASE <= 1ull << (L1_BITS + L2_BITS + DEVMEM_PAGE_BITS),
               "the page table covers the driver's region and the heap");

static int in_global_range(uint64_t addr) { return addr >= DEVMEM_DRIVER_BASE && addr < DEVMEM_GLOBAL_LIMIT; }

int devmem_alloc(devmem *m, uint64_t size, uint64_t align, uint64_t *addr) {
    if (align < 256) align = 256;
    if (align & (align - 1)) return -1;
    if (size == 0) size = 1;  /* cudaMalloc(0) gives a distinct valid pointer */
    /* Large allocations start on a page boundary so their pages can be released. */
    if (size >= DEVMEM_PAGE_SIZE && align < DEVMEM_PAGE_SIZE) align = DEVMEM_PAGE_SIZE;
    uint64_t base = (m->bump + align - 1) & ~(align - 1);
    if (base < m->bump || size > DEVMEM_GLOBAL_LIMIT - base) return -1;
    if (m->nallocs == m->cap) {
        uint32_t cap = m->cap ? m->cap * 2 : 64;
        devmem_alloc_info *a = realloc(m->allocs, cap * sizeof *a);
        if (!a) return -1;
        m->allocs = a;
        m->cap = cap;
    }
    /* Round the end up to 256 B so the next allocation is on its own granule. */
    uint64_t end = (base + size + 255) & ~255ull;
    m->allocs[m->nallocs++] = (devmem_alloc_info){.base = base, .size = size, .id = m->next_id++};
    m->bump = end;
    *addr = base;
    return 0;
}

/* Index of the allocation containing addr, or -1 (binary search; allocs sorted). */
static int find_index(const devmem *m, uint64_t addr) {
    uint32_t lo = 0, hi = m->nallocs;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (m->allocs[mid].base <= addr) lo = mid + 1;
        else hi = mid;
    }
    if (lo == 0) return -1;
    const devmem_alloc_info *a = &m->allocs[lo - 1];
    return addr - a->base < a->size ? (int)(lo - 1) : -1;
}

/* Release the pages of [base, base+size) that no live allocation touches. */
static void release_pages(devmem *m, uint64_t base, uint64_t size) {
    uint64_t first = page_number(base), last = page_number(base + size - 1);
    for (uint64_t p = first; p <= last; p++) {
        uint64_t pstart = DEVMEM_DRIVER_BASE + (p << DEVMEM_PAGE_BITS);
        /* does a live allocation overlap this page? */
        uint32_t lo = 0, hi = m->nallocs;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (m->allocs[mid].base < pstart + DEVMEM_PAGE_SIZE) lo = mid + 1;
            else hi = mid;
        }
        if (lo > 0 && m->allocs[lo - 1].base + m->allocs[lo - 1].size > pstart) continue;
        page_table_l2 *t = m->l1[p >> L2_BITS];
        if (t && t->pages[p & (L2_SIZE - 1)]) {
            free(t->pages[p & (L2_SIZE - 1)]);
            t->pages[p & (L2_SIZE - 1)] = NULL;
            m->resident -= DEVMEM_PAGE_SIZE;
        }
    }
}

int devmem_free(devmem *m, uint64_t addr) {
    int i = find_index(m, addr);
    if (i < 0 || m->allocs[i].base != addr) return -1;
    devmem_alloc_info freed = m->allocs[i];
    memmove(&m->allocs[i], &m->allocs[i + 1], (m->nallocs - (uint32_t)i - 1) * sizeof *m->allocs);
    m->nallocs--;
    m->last_hit = 0;
    release_pages(m, freed.base, freed.size);
    return 0;
}

const devmem_alloc_info *devmem_find(devmem *m, uint64_t addr) {
    /* last_hit is only a hint, read and written by every SM thread: relaxed
     * atomics keep that free of data races, and any value gives the same answer */
    uint32_t hint = __atomic_load_n(&m->last_hit, __ATOMIC_RELAXED);
    if (hint < m->nallocs) {
        const devmem_alloc_info *a = &m->allocs[hint];
        if (addr - a->base < a->size) return a;
    }
    int i = find_index(m, addr);
    if (i < 0) return NULL;
    __atomic_store_n(&m->last_hit, (uint32_t)i, __ATOMIC_RELAXED);
    return &m->allocs[i];
}

/* Does the granule starting at g overlap a live allocation?  The allocation with
 * the highest base below the granule's end is the only candidate: allocations are
 * sorted and disjoint, so every earlier one ends before it starts. */
static int granule_mapped(const devmem *m, uint64_t g) {
    uint64_t end = g + DEVMEM_MAP_GRANULE;
    uint32_t lo = 0, hi = m->nallocs;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (m->allocs[mid].base < end) lo = mid + 1;
        else hi = mid;
    }
    return lo > 0 && m->allocs[lo - 1].base + m->allocs[lo - 1].size > g;
}

int devmem_mapped(devmem *m, uint64_t addr, uint64_t size) {
    if (size == 0 || !in_global_range(addr) || size > DEVMEM_GLOBAL_LIMIT - addr) return 0;
    uint64_t first = addr & ~(DEVMEM_MAP_GRANULE - 1), last = (addr + size - 1) & ~(DEVMEM_MAP_GRANULE - 1);
    for (uint64_t g = first; g <= last; g += DEVMEM_MAP_GRANULE)
        if (g >= DEVMEM_GLOBAL_BASE && !granule_mapped(m, g)) return 0;  /* below: the driver's region */
    return 1;
}

int devmem_check(devmem *m, uint64_t addr, uint64_t size) {
    const devmem_alloc_info *a = devmem_find(m, addr);
    if (!a) return 0;
    uint64_t off = addr - a->base;
    return size <= a->size - off;
}

/* Create what page_lookup found missing, under the lock (another thread may
 * have created it meanwhile).  NULL when out of host memory. */
static uint8_t *page_create(devmem *m, uint64_t addr) {
    pthread_mutex_lock(&m->lock);
    uint8_t *host = NULL;
    if (!in_global_range(addr)) {
        if (!m->scratch_page) m->scratch_page = calloc(1, DEVMEM_PAGE_SIZE);
        host = m->scratch_page ? m->scratch_page + (addr & (DEVMEM_PAGE_SIZE - 1)) : NULL;
        pthread_mutex_unlock(&m->lock);
        return host;
    }
    uint64_t p = page_number(addr);
    page_table_l2 *t = m->l1[p >> L2_BITS];
    if (!t && (t = calloc(1, sizeof *t))) __atomic_store_n(&m->l1[p >> L2_BITS], t, __ATOMIC_RELEASE);
    if (t) {
        uint8_t *page = t->pages[p & (L2_SIZE - 1)];
        if (!page && (page = calloc(1, DEVMEM_PAGE_SIZE))) {
            m->resident += DEVMEM_PAGE_SIZE;
            __atomic_store_n(&t->pages[p & (L2_SIZE - 1)], page, __ATOMIC_RELEASE);
        }
        if (page) host = page + (addr & (DEVMEM_PAGE_SIZE - 1));
    }
    pthread_mutex_unlock(&m->lock);
    return host;
}

/* Host address of the byte at addr; with create=0 an untouched page gives NULL. */
static uint8_t *page_lookup(devmem *m, uint64_t addr, int create) {
    if (!in_global_range(addr)) {
        /* Callers bounds-check first; this only keeps an unchecked access from
         * touching host memory it does not own. */
        uint8_t *scratch = __atomic_load_n(&m->scratch_page, __ATOMIC_ACQUIRE);
        if (scratch) return scratch + (addr & (DEVMEM_PAGE_SIZE - 1));
        return create ? page_create(m, addr) : NULL;
    }
    uint64_t p = page_number(addr);
    page_table_l2 *t = __atomic_load_n(&m->l1[p >> L2_BITS], __ATOMIC_ACQUIRE);
    uint8_t *page = t ? __atomic_load_n(&t->pages[p & (L2_SIZE - 1)], __ATOMIC_ACQUIRE) : NULL;
    if (page) return page + (addr & (DEVMEM_PAGE_SIZE - 1));
    return create ? page_create(m, addr) : NULL;
}

uint8_t *devmem_ptr(devmem *m, uint64_t addr) { return page_lookup(m, addr, 1); }

/* Bytes from addr to the end of its page. */
static size_t page_left(uint64_t addr) { return DEVMEM_PAGE_SIZE - (addr & (DEVMEM_PAGE_SIZE - 1)); }

void devmem_read(devmem *m, uint64_t addr, void *dst, size_t n) {
    uint8_t *out = dst;
    while (n) {
        size_t len = n < page_left(addr) ? n : page_left(addr);
        const uint8_t *host = page_lookup(m, addr, 0);
        if (host) memcpy(out, host, len);
        else memset(out, 0, len);  /* untouched memory reads as zero, without materialising */
        addr += len, out += len, n -= len;
    }
}

void devmem_write(devmem *m, uint64_t addr, const void *src, size_t n) {
    const uint8_t *in = src;
    while (n) {
        size_t len = n < page_left(addr) ? n : page_left(addr);
        uint8_t *host = page_lookup(m, addr, 1);
        if (!host) return;  /* host out of memory: caller sees the write lost */
        memcpy(host, in, len);
        addr += len, in += len, n -= len;
    }
}

void devmem_fill(devmem *m, uint64_t addr, int value, size_t n) {
    while (n) {
        size_t len = n < page_left(addr) ? n : page_left(addr);
        uint8_t *host = page_lookup(m, addr, value != 0);
        if (host) memset(host, value, len);  /* zero-filling an untouched page is a no-op */
        addr += len, n -= len;
    }
}

uint64_t devmem_resident_bytes(const devmem *m) { return m->resident; }
