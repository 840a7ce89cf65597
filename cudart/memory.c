/* Memory: device allocations, copies in every direction, symbols, and the host
 * memory the device can address (managed and pinned).
 *
 * Pointers the program holds are classified by what they point into:
 *   - a region (cudaMallocManaged / cudaMallocHost / cudaHostAlloc / __managed__):
 *     host memory, mirrored into device memory while kernels run (see cudart.h);
 *   - a live device allocation (cudaMalloc, module variables): device memory;
 *   - anything else: ordinary host memory.
 * Device addresses are what locsim_malloc returns, so a device pointer is never a
 * valid host pointer and vice versa (except identity-mapped regions, which are both).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cudart.h"
#include "runtime/runtime.h"

/* ---- regions ---- */

cr_region *cr_find_region(const void *p) {
    uintptr_t a = (uintptr_t)p;
    for (cr_region *r = cr.regions; r; r = r->next) {
        if (a >= (uintptr_t)r->host && a - (uintptr_t)r->host < r->size) return r;
        if (!r->identity && !r->detached && a >= r->dev && a - r->dev < r->size) return r;
    }
    return NULL;
}

/* Host address of p, which lies in region r (either of its views). */
static uint8_t *region_host_ptr(const cr_region *r, const void *p) {
    uintptr_t a = (uintptr_t)p;
    if (a >= (uintptr_t)r->host && a - (uintptr_t)r->host < r->size) return (uint8_t *)p;
    return r->host + (a - r->dev);
}

/* Whether [p, p + n) lies inside the address space (no wrap past its end). */
static int range_fits(const void *p, size_t n) { return n <= UINTPTR_MAX - (uintptr_t)p; }

static size_t page_round(size_t n) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    return (n + page - 1) / page * page;
}

/* The host address range that device addresses occupy, reserved (no access, no
 * memory committed) so that no host allocation can ever have an address that is also
 * a device address, and so that a host dereference of a device pointer faults as on
 * a GPU system.  Regions are mapped inside it.  0 = the reservation failed (the range
 * is in use, or AddressSanitizer's shadow covers it). */
static int range_reserved;

void cr_reserve_device_range(void) {
    static int tried;
    if (tried) return;
    tried = 1;
    void *want = (void *)(uintptr_t)DEVMEM_GLOBAL_BASE;
    size_t len = DEVMEM_GLOBAL_LIMIT - DEVMEM_GLOBAL_BASE;
    void *got = mmap(want, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
    if (got == want) range_reserved = 1;
    else if (got != MAP_FAILED) munmap(got, len);  /* a kernel that took it as a hint */
}

/* Whether no host memory can live at device addresses: we reserved the range, or
 * AddressSanitizer's shadow gap covers it. */
static int device_range_holds_no_host_memory(void) {
#if defined(__SANITIZE_ADDRESS__)
    return 1;
#else
    return range_reserved;
#endif
}

/* Map host memory at the device address itself, so one pointer means the same on
 * both sides.  NULL when the device range could not be reserved; the caller then
 * keeps a separate host copy. */
static uint8_t *map_at(locsim_dptr dev, size_t size) {
    cr_reserve_device_range();
    if (!range_reserved) return NULL;
    void *want = (void *)(uintptr_t)dev;
    void *got = mmap(want, page_round(size), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    return got == want ? got : NULL;
}

/* Give an identity-mapped region's pages back to the reservation. */
static void unmap_at(uint8_t *host, size_t size) {
    mmap(host, page_round(size), PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
}

static void warn_no_identity_once(void) {
    static int warned;
    if (warned) return;
    warned = 1;
    cr_warn("note: managed/pinned memory could not be mapped at its device address; kernel arguments "
            "pointing into it are translated, but pointers stored inside such memory are not");
}

static cudaError_t region_create(size_t size, int kind, void **out) {
    if (size == 0) size = 1;
    /* Whole pages, so the host mapping at the same address covers exactly this
     * allocation and no other device allocation shares its pages. */
    locsim_dptr dev;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    if (devmem_alloc(cr.dev->mem, page_round(size), page, &dev) != 0) return cudaErrorMemoryAllocation;
    cr_region *r = calloc(1, sizeof *r);
    if (!r) {
        locsim_free(cr.dev, dev);
        return cudaErrorMemoryAllocation;
    }
    r->dev = dev;
    r->size = size;
    r->kind = kind;
    r->host = map_at(dev, size);
    r->identity = r->host != NULL;
    if (!r->host) {
        r->host = calloc(1, size);
        if (!r->host) {
            free(r);
            locsim_free(cr.dev, dev);
            return cudaErrorMemoryAllocation;
        }
        warn_no_identity_once();
    }
    r->next = cr.regions;
    cr.regions = r;
    *out = r->host;
    return cudaSuccess;
}

static void region_release(cr_region *r) {
    if (r->identity) unmap_at(r->host, r->size);
    else if (r->kind != CR_REGION_REGISTERED) free(r->host);
    if (r->kind != CR_REGION_MANAGED_VAR && cr.dev) locsim_free(cr.dev, r->dev);
    free(r);
}

/* Free the region whose host copy starts at p; -1 if there is none. */
static int region_free(void *p, int kind) {
    for (cr_region **pp = &cr.regions; *pp; pp = &(*pp)->next) {
        cr_region *r = *pp;
        if (r->host == p && (kind == 0 || r->kind == kind)) {
            *pp = r->next;
            region_release(r);
            return 0;
        }
    }
    return -1;
}

void cr_release_regions(int keep_vars) {
    cr_region **pp = &cr.regions;
    while (*pp) {
        cr_region *r = *pp;
        if (keep_vars && r->kind == CR_REGION_MANAGED_VAR) {
            r->detached = 1;
            pp = &r->next;
            continue;
        }
        *pp = r->next;
        region_release(r);
    }
}

void cr_bind_managed_var(cr_var *v, locsim_dptr addr, size_t size) {
    cr_region *r = v->region;
    if (!r) {
        r = calloc(1, sizeof *r);
        uint8_t *host = calloc(1, size ? size : 1);
        if (!r || !host) cr_die("out of memory for __managed__ variable %s", v->name);
        r->host = host;
        r->size = size;
        r->kind = CR_REGION_MANAGED_VAR;
        r->next = cr.regions;
        cr.regions = r;
        v->region = r;
    }
    r->dev = addr;
    r->detached = 0;
    locsim_memcpy_dtoh(cr.dev, r->host, addr, r->size < size ? r->size : size);  /* its initial value */
    *v->managed_ptr = r->host;
}

/* Before a kernel: the host copies are the reference.  After: the device's. */
void cr_regions_to_device(void) {
    for (cr_region *r = cr.regions; r; r = r->next)
        if (!r->detached) locsim_memcpy_htod(cr.dev, r->dev, r->host, r->size);
}

void cr_regions_to_host(void) {
    for (cr_region *r = cr.regions; r; r = r->next)
        if (!r->detached) locsim_memcpy_dtoh(cr.dev, r->host, r->dev, r->size);
}

uint64_t cr_translate_arg(uint64_t value) {
    for (cr_region *r = cr.regions; r; r = r->next) {
        if (r->identity || r->detached) continue;
        uintptr_t h = (uintptr_t)r->host;
        if (value >= h && value - h < r->size) return r->dev + (value - h);
    }
    return value;
}

/* ---- the program's device allocations, so cudaDeviceReset can free them ----
 * An open-addressing set of base addresses (linear probing, tombstones). */
#define SLOT_EMPTY 0
#define SLOT_TOMBSTONE 1  /* device addresses are >= DEVMEM_GLOBAL_BASE, never 0 or 1 */
static uint64_t *alloc_slots;
static size_t alloc_cap, alloc_used;  /* used counts live entries and tombstones */

static size_t slot_of(uint64_t addr, size_t cap) { return (size_t)((addr >> 8) * 0x9E3779B97F4A7C15ull) & (cap - 1); }

/* Rehash into a table at least four times the live entries (tombstones dropped). */
static int track_grow(void) {
    size_t live = 0;
    for (size_t i = 0; i < alloc_cap; i++) live += alloc_slots[i] > SLOT_TOMBSTONE;
    size_t ncap = 1024;
    while (ncap < 4 * (live + 1)) ncap *= 2;
    uint64_t *n = calloc(ncap, sizeof *n);
    if (!n) return -1;
    for (size_t i = 0; i < alloc_cap; i++) {
        uint64_t a = alloc_slots[i];
        if (a <= SLOT_TOMBSTONE) continue;
        size_t j = slot_of(a, ncap);
        while (n[j] != SLOT_EMPTY) j = (j + 1) & (ncap - 1);
        n[j] = a;
    }
    free(alloc_slots);
    alloc_slots = n;
    alloc_cap = ncap;
    alloc_used = live;
    return 0;
}

static int track_alloc(uint64_t addr) {
    if ((alloc_used + 1) * 2 > alloc_cap && track_grow() != 0) return -1;
    size_t j = slot_of(addr, alloc_cap);
    while (alloc_slots[j] > SLOT_TOMBSTONE) j = (j + 1) & (alloc_cap - 1);
    if (alloc_slots[j] == SLOT_EMPTY) alloc_used++;
    alloc_slots[j] = addr;
    return 0;
}

/* Remove addr; -1 if it is not a tracked allocation. */
static int track_free(uint64_t addr) {
    if (!alloc_cap) return -1;
    for (size_t j = slot_of(addr, alloc_cap);; j = (j + 1) & (alloc_cap - 1)) {
        if (alloc_slots[j] == SLOT_EMPTY) return -1;
        if (alloc_slots[j] == addr) {
            alloc_slots[j] = SLOT_TOMBSTONE;
            return 0;
        }
    }
}

void cr_forget_allocations(void) {
    free(alloc_slots);
    alloc_slots = NULL;
    alloc_cap = alloc_used = 0;
}

void cr_free_all_allocations(void) {
    for (size_t i = 0; i < alloc_cap; i++)
        if (alloc_slots[i] > SLOT_TOMBSTONE) locsim_free(cr.dev, alloc_slots[i]);
    cr_forget_allocations();
    cr_release_regions(1);
}

/* ---- classifying pointers ---- */

typedef struct {
    int on_device;      /* 1: dev is a device address; 0: host points at host memory */
    locsim_dptr dev;
    uint8_t *host;
} endpoint;

static int is_device_range(locsim_dptr p, size_t n) {
    return devmem_check(cr.dev->mem, p, n ? n : 1);
}

static int is_device_pointer(const void *p) {
    return devmem_find(cr.dev->mem, (uintptr_t)p) != NULL;
}

/* What p (n bytes) is.  device_side: the caller's memcpy kind says p is device
 * memory; an ordinary host pointer there is the program's error. */
static cudaError_t classify(const void *p, size_t n, int device_side, endpoint *e) {
    memset(e, 0, sizeof *e);
    cr_region *r = cr_find_region(p);
    if (r) {
        e->host = region_host_ptr(r, p);
        if ((size_t)(r->host + r->size - e->host) < n) return cudaErrorInvalidValue;
        return cudaSuccess;
    }
    if (is_device_pointer(p)) {
        e->on_device = 1;
        e->dev = (uintptr_t)p;
        return is_device_range(e->dev, n) ? cudaSuccess : cudaErrorInvalidValue;
    }
    if (device_side || !p || !range_fits(p, n)) return cudaErrorInvalidValue;
    /* In the device range but no live allocation: a freed device pointer, not host
     * memory (reading it would fault). */
    if (device_range_holds_no_host_memory() && (uintptr_t)p >= DEVMEM_GLOBAL_BASE &&
        (uintptr_t)p < DEVMEM_GLOBAL_LIMIT)
        return cudaErrorInvalidValue;
    e->host = (uint8_t *)p;
    return cudaSuccess;
}

cudaError_t cr_copy_endpoint(const void *p, size_t n, int device_side, locsim_dptr *dev, uint8_t **host) {
    endpoint e;
    cudaError_t err = classify(p, n, device_side, &e);
    *dev = e.on_device ? e.dev : 0;
    *host = e.on_device ? NULL : e.host;
    return err;
}

static cudaError_t copy_between(const endpoint *dst, const endpoint *src, size_t n) {
    locsim_status st = LOCSIM_OK;
    if (dst->on_device && src->on_device) st = locsim_memcpy_dtod(cr.dev, dst->dev, src->dev, n);
    else if (dst->on_device) st = locsim_memcpy_htod(cr.dev, dst->dev, src->host, n);
    else if (src->on_device) st = locsim_memcpy_dtoh(cr.dev, dst->host, src->dev, n);
    else memmove(dst->host, src->host, n);
    return cr_from_status(st);
}

static cudaError_t do_memcpy(void *dst, const void *src, size_t n, cudaMemcpyKind kind) {
    if (n == 0) return cudaSuccess;
    if ((unsigned)kind > cudaMemcpyDefault) return cudaErrorInvalidMemcpyDirection;
    int dst_dev = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    int src_dev = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    endpoint d, s;
    cudaError_t e = classify(dst, n, dst_dev, &d);
    if (e == cudaSuccess) e = classify(src, n, src_dev, &s);
    if (e != cudaSuccess) return e;
    return copy_between(&d, &s, n);
}

/* ---- allocation ---- */

cudaError_t cudaMalloc(void **ptr, size_t size) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    if (!ptr) return cr_leave(cudaErrorInvalidValue);
    *ptr = NULL;
    if (size == 0) return cr_leave(cudaSuccess);
    locsim_dptr d;
    if (locsim_malloc(cr.dev, &d, size) != LOCSIM_OK) return cr_leave(cudaErrorMemoryAllocation);
    if (track_alloc(d) != 0) {
        locsim_free(cr.dev, d);
        return cr_leave(cudaErrorMemoryAllocation);
    }
    *ptr = (void *)(uintptr_t)d;
    return cr_leave(cudaSuccess);
}

cudaError_t cudaFree(void *ptr) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    if (!ptr) return cr_leave(cudaSuccess);
    if (region_free(ptr, CR_REGION_MANAGED) == 0) return cr_leave(cudaSuccess);
    /* Only what cudaMalloc returned: module variables are device memory too. */
    if (track_free((uintptr_t)ptr) != 0) return cr_leave(cudaErrorInvalidValue);
    locsim_free(cr.dev, (uintptr_t)ptr);
    return cr_leave(cudaSuccess);
}

cudaError_t cudaMallocManaged(void **ptr, size_t size, unsigned int flags) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    if (!ptr || size == 0 || (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost))
        return cr_leave(cudaErrorInvalidValue);
    return cr_leave(region_create(size, CR_REGION_MANAGED, ptr));
}

/* Pinned host memory is device-addressable too (unified addressing), so it is a
 * region like managed memory: kernels may dereference it directly. */
cudaError_t cudaHostAlloc(void **ptr, size_t size, unsigned int flags) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    if (!ptr || flags > 0xf) return cr_leave(cudaErrorInvalidValue);
    return cr_leave(region_create(size, CR_REGION_PINNED, ptr));
}

cudaError_t cudaMallocHost(void **ptr, size_t size) { return cudaHostAlloc(ptr, size, 0); }

cudaError_t cudaFreeHost(void *ptr) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    if (!ptr) return cr_leave(cudaSuccess);
    return cr_leave(region_free(ptr, CR_REGION_PINNED) == 0 ? cudaSuccess : cudaErrorInvalidValue);
}

/* cudaHostRegister: the program's own host memory becomes a region (device memory
 * of the same size behind it, copied around every launch), so kernels may use it
 * through cudaHostGetDevicePointer or, as with unified addressing, through the host
 * pointer itself (a kernel argument pointing into it is translated). */
cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    if (!ptr || size == 0 || flags > 0xf) return cr_leave(cudaErrorInvalidValue);
    uintptr_t a = (uintptr_t)ptr;
    if (size > UINTPTR_MAX - a) return cr_leave(cudaErrorInvalidValue);
    for (cr_region *r = cr.regions; r; r = r->next) {
        uintptr_t h = (uintptr_t)r->host;
        if (a < h + r->size && h < a + size) return cr_leave(cudaErrorHostMemoryAlreadyRegistered);
    }
    if (is_device_pointer(ptr)) return cr_leave(cudaErrorInvalidValue);
    locsim_dptr dev;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    if (devmem_alloc(cr.dev->mem, page_round(size), page, &dev) != 0) return cr_leave(cudaErrorMemoryAllocation);
    cr_region *r = calloc(1, sizeof *r);
    if (!r) {
        locsim_free(cr.dev, dev);
        return cr_leave(cudaErrorMemoryAllocation);
    }
    r->host = ptr;
    r->dev = dev;
    r->size = size;
    r->kind = CR_REGION_REGISTERED;
    r->next = cr.regions;
    cr.regions = r;
    return cr_leave(cudaSuccess);
}

cudaError_t cudaHostUnregister(void *ptr) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    if (!ptr) return cr_leave(cudaErrorInvalidValue);
    return cr_leave(region_free(ptr, CR_REGION_REGISTERED) == 0 ? cudaSuccess : cudaErrorHostMemoryNotRegistered);
}

/* Managed memory is coherent at kernel boundaries, whatever stream it is attached to. */
cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *ptr, size_t length, unsigned int flags) {
    (void)stream, (void)length;
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    cr_region *r = cr_find_region(ptr);
    if (!r || (r->kind != CR_REGION_MANAGED && r->kind != CR_REGION_MANAGED_VAR) || flags > 4)
        return cr_leave(cudaErrorInvalidValue);
    return cr_leave(cudaSuccess);
}

cudaError_t cudaStreamAttachMemAsync_ptsz(cudaStream_t stream, void *ptr, size_t length, unsigned int flags) {
    return cudaStreamAttachMemAsync(stream, ptr, length, flags);
}

cudaError_t cudaHostGetDevicePointer(void **dev_ptr, void *host_ptr, unsigned int flags) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    cr_region *r = cr_find_region(host_ptr);
    if (!dev_ptr || flags != 0 || !r) return cr_leave(cudaErrorInvalidValue);
    *dev_ptr = (void *)(uintptr_t)(r->dev + (region_host_ptr(r, host_ptr) - r->host));
    return cr_leave(cudaSuccess);
}

cudaError_t cudaHostGetFlags(unsigned int *flags, void *host_ptr) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    cr_region *r = cr_find_region(host_ptr);
    if (!flags || !r || (r->kind != CR_REGION_PINNED && r->kind != CR_REGION_REGISTERED))
        return cr_leave(cudaErrorInvalidValue);
    *flags = cudaHostAllocMapped;
    return cr_leave(cudaSuccess);
}

cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    if (!free_bytes || !total_bytes) return cr_leave(cudaErrorInvalidValue);
    /* The configured capacity (-device_memory_mb) and what cudaMalloc has not taken
     * (device memory is sparse: untouched pages still cost the host nothing). */
    locsim_mem_get_info(cr.dev, free_bytes, total_bytes);
    return cr_leave(cudaSuccess);
}

cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attr, const void *ptr) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    if (!attr) return cr_leave(cudaErrorInvalidValue);
    memset(attr, 0, sizeof *attr);
    cr_region *r = cr_find_region(ptr);
    if (r) {
        attr->type = r->kind == CR_REGION_PINNED || r->kind == CR_REGION_REGISTERED ? cudaMemoryTypeHost
                                                                                    : cudaMemoryTypeManaged;
        attr->hostPointer = region_host_ptr(r, ptr);
        attr->devicePointer = (void *)(uintptr_t)(r->dev + ((uint8_t *)attr->hostPointer - r->host));
    } else if (is_device_pointer(ptr)) {
        attr->type = cudaMemoryTypeDevice;
        attr->devicePointer = (void *)ptr;
    } else {
        attr->type = cudaMemoryTypeUnregistered;
        attr->device = -2;  /* what the runtime reports for unregistered host memory */
    }
    return cr_leave(cudaSuccess);
}

/* ---- copies and fills (executed at call time, whatever the stream) ---- */

/* Asynchronous copies other than cudaMemcpyAsync / cudaMemsetAsync cannot be
 * captured into a graph here: refused with a message (graph.c). */
static int refuse_in_capture(cudaStream_t stream, const char *call) {
    cr_lock();
    int capturing = cr_capture_graph(stream) != NULL;
    cr_unlock();
    if (capturing) cr_warn("%s on a capturing stream is not supported by locsim's stream capture", call);
    return capturing;
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, cudaMemcpyKind kind) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    return cr_leave(do_memcpy(dst, src, count, kind));
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, cudaMemcpyKind kind, cudaStream_t stream) {
    if (cr_check_stream(stream) != cudaSuccess) return cr_record(cudaErrorInvalidResourceHandle);
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    cudaGraph_t g = cr_capture_graph(stream);
    if (g) return cr_leave(cr_capture_memcpy(g, dst, src, count, kind)); /* runs with the graph */
    return cr_leave(do_memcpy(dst, src, count, kind));
}

cudaError_t cudaMemcpyPeer(void *dst, int dst_dev, const void *src, int src_dev, size_t count) {
    if (dst_dev != 0 || src_dev != 0) return cr_record(cudaErrorInvalidDevice);
    return cudaMemcpy(dst, src, count, cudaMemcpyDeviceToDevice);
}

cudaError_t cr_pitched_span(size_t pitch, size_t width, size_t rows, size_t *span) {
    *span = 0;
    if (rows == 0 || width == 0) return cudaSuccess;
    if (rows > 1 && (width > pitch || pitch > CR_MAX_PITCH)) return cudaErrorInvalidPitchValue;
    size_t before_last;
    if (__builtin_mul_overflow(pitch, rows - 1, &before_last) || __builtin_add_overflow(before_last, width, span))
        return cudaErrorInvalidValue;
    return cudaSuccess;
}

static cudaError_t do_memcpy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                               size_t height, cudaMemcpyKind kind) {
    if (height > 1 && (width > dpitch || width > spitch)) return cudaErrorInvalidPitchValue;
    size_t dspan, sspan;
    cudaError_t e = cr_pitched_span(dpitch, width, height, &dspan);
    if (e == cudaSuccess) e = cr_pitched_span(spitch, width, height, &sspan);
    if (e != cudaSuccess) return e;
    if (!range_fits(dst, dspan) || !range_fits(src, sspan)) return cudaErrorInvalidValue;
    for (size_t row = 0; row < height; row++) {
        e = do_memcpy((uint8_t *)dst + row * dpitch, (const uint8_t *)src + row * spitch, width, kind);
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}

cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                         cudaMemcpyKind kind) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    return cr_leave(do_memcpy2d(dst, dpitch, src, spitch, width, height, kind));
}

cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                              cudaMemcpyKind kind, cudaStream_t stream) {
    if (cr_check_stream(stream) != cudaSuccess) return cr_record(cudaErrorInvalidResourceHandle);
    if (refuse_in_capture(stream, "cudaMemcpy2DAsync")) return cr_record(cudaErrorStreamCaptureUnsupported);
    return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}

/* Rows padded to 256 bytes, the alignment the runtime gives pitched allocations.
 * A row wider than the largest pitch (cudaDevAttrMaxPitch), or rows whose total
 * does not fit in a size_t, cannot be allocated. */
cudaError_t cudaMallocPitch(void **ptr, size_t *pitch, size_t width, size_t height) {
    if (!pitch || !ptr) return cr_record(cudaErrorInvalidValue);
    *ptr = NULL;
    if (width > CR_MAX_PITCH) return cr_record(cudaErrorInvalidValue);
    size_t p = (width + 255) / 256 * 256, bytes;
    if (p == 0) p = 256;
    if (__builtin_mul_overflow(p, height, &bytes)) return cr_record(cudaErrorMemoryAllocation);
    *pitch = p;
    return cudaMalloc(ptr, bytes);
}

static cudaError_t do_memset(void *ptr, int value, size_t count) {
    if (count == 0) return cudaSuccess;
    cr_region *r = cr_find_region(ptr);
    if (r) {
        uint8_t *h = region_host_ptr(r, ptr);
        if ((size_t)(r->host + r->size - h) < count) return cudaErrorInvalidValue;
        memset(h, value, count);
        return cudaSuccess;
    }
    if (!is_device_pointer(ptr)) return cudaErrorInvalidValue;
    return cr_from_status(locsim_memset(cr.dev, (uintptr_t)ptr, value, count));
}

cudaError_t cudaMemset(void *ptr, int value, size_t count) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    return cr_leave(do_memset(ptr, value, count));
}

cudaError_t cudaMemsetAsync(void *ptr, int value, size_t count, cudaStream_t stream) {
    if (cr_check_stream(stream) != cudaSuccess) return cr_record(cudaErrorInvalidResourceHandle);
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    cudaGraph_t g = cr_capture_graph(stream);
    if (g) return cr_leave(cr_capture_memset(g, ptr, value, count)); /* runs with the graph */
    return cr_leave(do_memset(ptr, value, count));
}

cudaError_t cudaMemset2D(void *ptr, size_t pitch, int value, size_t width, size_t height) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    size_t span;
    if (height > 1 && width > pitch) return cr_leave(cudaErrorInvalidPitchValue);
    if ((e = cr_pitched_span(pitch, width, height, &span)) != cudaSuccess) return cr_leave(e);
    if (!range_fits(ptr, span)) return cr_leave(cudaErrorInvalidValue);
    for (size_t row = 0; row < height && e == cudaSuccess; row++)
        e = do_memset((uint8_t *)ptr + row * pitch, value, width);
    return cr_leave(e);
}

/* ---- module variables (__device__ / __constant__) ---- */

/* Device address of [offset, offset+count) of the variable whose host shadow is
 * symbol. */
static cudaError_t symbol_range(const void *symbol, size_t count, size_t offset, locsim_dptr *addr) {
    cr_var *v = cr_find_var(symbol);
    if (!v) return cudaErrorInvalidSymbol;
    size_t size;
    cudaError_t e = cr_var_address(v, addr, &size);
    if (e != cudaSuccess) return e;
    if (offset > size || count > size - offset) return cudaErrorInvalidValue;
    *addr += offset;
    return cudaSuccess;
}

cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset,
                               cudaMemcpyKind kind) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    locsim_dptr addr;
    e = symbol_range(symbol, count, offset, &addr);
    if (e != cudaSuccess) return cr_leave(e);
    if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return cr_leave(cudaErrorInvalidMemcpyDirection);
    endpoint d = {.on_device = 1, .dev = addr}, s;
    e = classify(src, count, kind == cudaMemcpyDeviceToDevice, &s);
    if (e == cudaSuccess && count) e = copy_between(&d, &s, count);
    return cr_leave(e);
}

cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset, cudaMemcpyKind kind) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    locsim_dptr addr;
    e = symbol_range(symbol, count, offset, &addr);
    if (e != cudaSuccess) return cr_leave(e);
    if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return cr_leave(cudaErrorInvalidMemcpyDirection);
    endpoint s = {.on_device = 1, .dev = addr}, d;
    e = classify(dst, count, kind == cudaMemcpyDeviceToDevice, &d);
    if (e == cudaSuccess && count) e = copy_between(&d, &s, count);
    return cr_leave(e);
}

cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset,
                                    cudaMemcpyKind kind, cudaStream_t stream) {
    if (cr_check_stream(stream) != cudaSuccess) return cr_record(cudaErrorInvalidResourceHandle);
    if (refuse_in_capture(stream, "cudaMemcpyToSymbolAsync")) return cr_record(cudaErrorStreamCaptureUnsupported);
    return cudaMemcpyToSymbol(symbol, src, count, offset, kind);
}

cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset,
                                      cudaMemcpyKind kind, cudaStream_t stream) {
    if (cr_check_stream(stream) != cudaSuccess) return cr_record(cudaErrorInvalidResourceHandle);
    if (refuse_in_capture(stream, "cudaMemcpyFromSymbolAsync"))
        return cr_record(cudaErrorStreamCaptureUnsupported);
    return cudaMemcpyFromSymbol(dst, symbol, count, offset, kind);
}

cudaError_t cudaGetSymbolAddress(void **dev_ptr, const void *symbol) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    locsim_dptr addr;
    if (!dev_ptr) return cr_leave(cudaErrorInvalidValue);
    e = symbol_range(symbol, 0, 0, &addr);
    if (e == cudaSuccess) *dev_ptr = (void *)(uintptr_t)addr;
    return cr_leave(e);
}

cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    if (!size) return cr_leave(cudaErrorInvalidValue);
    cr_var *v = cr_find_var(symbol);
    if (!v) return cr_leave(cudaErrorInvalidSymbol);
    locsim_dptr addr;
    e = cr_var_address(v, &addr, size);
    return cr_leave(e);
}

/* ---- per-thread-default-stream variants (nvcc --default-stream per-thread):
 * with every operation executed at call time the two stream semantics coincide. */
cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t count, cudaMemcpyKind kind) {
    return cudaMemcpy(dst, src, count, kind);
}
cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t count, cudaMemcpyKind kind, cudaStream_t s) {
    return cudaMemcpyAsync(dst, src, count, kind, s);
}
cudaError_t cudaMemset_ptds(void *ptr, int value, size_t count) { return cudaMemset(ptr, value, count); }
cudaError_t cudaMemsetAsync_ptsz(void *ptr, int value, size_t count, cudaStream_t s) {
    return cudaMemsetAsync(ptr, value, count, s);
}
cudaError_t cudaMemcpyToSymbol_ptds(const void *symbol, const void *src, size_t count, size_t offset,
                                    cudaMemcpyKind kind) {
    return cudaMemcpyToSymbol(symbol, src, count, offset, kind);
}
cudaError_t cudaMemcpyFromSymbol_ptds(void *dst, const void *symbol, size_t count, size_t offset,
                                      cudaMemcpyKind kind) {
    return cudaMemcpyFromSymbol(dst, symbol, count, offset, kind);
}
cudaError_t cudaMemcpyToSymbolAsync_ptsz(const void *symbol, const void *src, size_t count, size_t offset,
                                         cudaMemcpyKind kind, cudaStream_t s) {
    return cudaMemcpyToSymbolAsync(symbol, src, count, offset, kind, s);
}
cudaError_t cudaMemcpyFromSymbolAsync_ptsz(void *dst, const void *symbol, size_t count, size_t offset,
                                           cudaMemcpyKind kind, cudaStream_t s) {
    return cudaMemcpyFromSymbolAsync(dst, symbol, count, offset, kind, s);
}
cudaError_t cudaMemcpy2D_ptds(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                              cudaMemcpyKind kind) {
    return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}
cudaError_t cudaMemcpy2DAsync_ptsz(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                   size_t height, cudaMemcpyKind kind, cudaStream_t s) {
    return cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind, s);
}
cudaError_t cudaMemset2D_ptds(void *ptr, size_t pitch, int value, size_t width, size_t height) {
    return cudaMemset2D(ptr, pitch, value, width, height);
}
