/* Devices and device memory: the host-side half of the runtime API. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/runtime.h"
#include "sim/config.h"

/* Functional-mode defaults: GTX480-like (15 SMs, 48 KB shared per CTA). */
#define DEFAULT_NUM_SMS 15
#define DEFAULT_MAX_SMEM (48u * 1024u)

static const char *const status_names[] = {
    [LOCSIM_OK] = "ok",
    [LOCSIM_ERR_INVALID] = "invalid argument",
    [LOCSIM_ERR_PARSE] = "PTX parse error",
    [LOCSIM_ERR_UNSUPPORTED] = "unsupported PTX",
    [LOCSIM_ERR_NOT_FOUND] = "not found",
    [LOCSIM_ERR_OUT_OF_MEMORY] = "out of memory",
    [LOCSIM_ERR_LAUNCH] = "invalid launch",
    [LOCSIM_ERR_KERNEL_FAULT] = "kernel fault",
    [LOCSIM_ERR_DEADLOCK] = "deadlock",
    [LOCSIM_ERR_CONFIG] = "configuration error",
    [LOCSIM_ERR_IO] = "I/O error",
    [LOCSIM_ERR_INTERRUPTED] = "interrupted",
    [LOCSIM_ERR_ASSERT] = "device-side assert triggered",
};

const char *locsim_status_name(locsim_status s) {
    if ((unsigned)s < sizeof status_names / sizeof *status_names && status_names[s]) return status_names[s];
    return "unknown status";
}

locsim_status runtime_error(locsim_device *dev, locsim_status st, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(dev->error, sizeof dev->error, fmt, ap);
    va_end(ap);
    return st;
}

/* Why the calling thread's last locsim_device_create failed (there is no device to
 * keep the message in). */
static _Thread_local char create_error[sizeof ((locsim_device *)0)->error];

const char *locsim_last_error(const locsim_device *dev) {
    if (dev) return dev->error;
    return create_error[0] ? create_error : "no device";
}

locsim_status locsim_device_create(const locsim_config *cfg, locsim_mode mode, locsim_device **out) {
    if (!out) return LOCSIM_ERR_INVALID;
    *out = NULL;
    snprintf(create_error, sizeof create_error, "out of host memory creating the device");
    locsim_device *dev = calloc(1, sizeof *dev);
    if (!dev) return LOCSIM_ERR_OUT_OF_MEMORY;
    dev->mem = devmem_create();
    if (!dev->mem) {
        free(dev);
        return LOCSIM_ERR_OUT_OF_MEMORY;
    }
    create_error[0] = '\0';
    dev->cfg = cfg;
    dev->mode = mode;
    dev->num_sms = DEFAULT_NUM_SMS;
    dev->max_smem_per_cta = DEFAULT_MAX_SMEM;
    dev->printf_out = stdout;
    dev->stack_bytes = RUNTIME_RECURSIVE_STACK_BYTES;
    dev->heap_bytes = LOCSIM_DEFAULT_MALLOC_HEAP;
    dev->mem_capacity = (cfg ? cfg->device_memory_mb : 4096) << 20;
    dev->dtoh_digest = 0xcbf29ce484222325ull; /* FNV-1a offset basis */
    dev->run_quantum = cfg ? cfg->functional_run_quantum : 0; /* -functional_run_quantum */
    dev->cta_order = cfg ? cfg->functional_cta_order : 0;     /* -functional_cta_order */
    if (mode == LOCSIM_MODE_TIMING) {
        locsim_status st = timing_attach ? timing_attach(dev) : LOCSIM_ERR_CONFIG;
        if (st != LOCSIM_OK) {
            /* Keep the message for the caller, who sees only the status:
             * locsim_last_error(NULL). */
            snprintf(create_error, sizeof create_error, "%s", dev->error);
            devmem_destroy(dev->mem);
            free(dev);
            return st;
        }
    }
    *out = dev;
    return LOCSIM_OK;
}

void locsim_device_destroy(locsim_device *dev) {
    if (!dev) return;
    while (dev->modules) locsim_module_unload(dev->modules);
    if (dev->timing_ops && dev->timing_ops->destroy) dev->timing_ops->destroy(dev->timing);
    runtime_textures_free(dev);
    devheap_destroy(dev->heap);
    devmem_destroy(dev->mem);
    free(dev);
}

void locsim_set_printf_stream(locsim_device *dev, void *stream) {
    if (dev) dev->printf_out = stream ? (FILE *)stream : stdout;
}

void locsim_set_printf_fifo_size(locsim_device *dev, uint64_t bytes) {
    if (dev) dev->printf_fifo_bytes = bytes;
}

uint64_t locsim_printf_fifo_size(const locsim_device *dev) { return dev ? dev->printf_fifo_bytes : 0; }

locsim_status locsim_set_stack_size(locsim_device *dev, uint64_t bytes) {
    if (!dev) return LOCSIM_ERR_INVALID;
    if (bytes > RUNTIME_MAX_STACK_BYTES)
        return runtime_error(dev, LOCSIM_ERR_INVALID, "a per-thread stack of %llu bytes: locsim allows at most %u",
                             (unsigned long long)bytes, RUNTIME_MAX_STACK_BYTES);
    dev->stack_bytes = (uint32_t)(bytes + 15) & ~15u;
    return LOCSIM_OK;
}

uint64_t locsim_stack_size(const locsim_device *dev) { return dev ? dev->stack_bytes : 0; }

/* ---- the device malloc heap (devheap.h) ---- */

locsim_status locsim_set_malloc_heap_size(locsim_device *dev, uint64_t bytes) {
    if (!dev) return LOCSIM_ERR_INVALID;
    if (dev->heap)
        return runtime_error(dev, LOCSIM_ERR_INVALID,
                             "the device malloc heap is fixed once a kernel that calls malloc or free has been "
                             "launched (cudaLimitMallocHeapSize must be set before)");
    dev->heap_bytes = bytes;
    return LOCSIM_OK;
}

uint64_t locsim_malloc_heap_size(const locsim_device *dev) { return dev ? dev->heap_bytes : 0; }

void locsim_malloc_heap_reset(locsim_device *dev) {
    if (!dev || !dev->heap) return;
    devheap_destroy(dev->heap);
    dev->heap = NULL;
    locsim_free(dev, dev->heap_base);
    dev->heap_base = 0;
}

locsim_status runtime_heap_for_launch(locsim_device *dev) {
    if (dev->heap) return LOCSIM_OK;
    locsim_dptr base = 0;
    if (dev->heap_bytes) {
        locsim_status st = locsim_malloc(dev, &base, dev->heap_bytes);
        if (st != LOCSIM_OK)
            return runtime_error(dev, st, "no device memory for the %llu-byte device malloc heap "
                                 "(cudaLimitMallocHeapSize)", (unsigned long long)dev->heap_bytes);
    }
    dev->heap = devheap_create(base, dev->heap_bytes);
    if (!dev->heap) {
        if (base) locsim_free(dev, base);
        return runtime_error(dev, LOCSIM_ERR_OUT_OF_MEMORY, "out of host memory");
    }
    dev->heap_base = base;
    return LOCSIM_OK;
}

void locsim_set_memcheck(locsim_device *dev, int on) {
    if (dev) dev->memcheck = on != 0;
}

void locsim_set_cta_order(locsim_device *dev, uint32_t order) {
    if (dev) dev->cta_order = order;
}

void locsim_set_run_quantum(locsim_device *dev, uint32_t insns) {
    if (dev) dev->run_quantum = insns;
}

void locsim_get_counters(const locsim_device *dev, locsim_counters *out) {
    if (dev && out) *out = dev->counters;
}

/* ---- device memory ---- */

/* 1 if [p, p+n) is inside one live allocation. */
static int valid_range(locsim_device *dev, locsim_dptr p, size_t n) {
    return n == 0 || devmem_check(dev->mem, p, n);
}

/* Bytes an allocation takes from the capacity: whole 256-byte granules. */
static uint64_t granules(uint64_t bytes) { return bytes > UINT64_MAX - 255 ? UINT64_MAX : (bytes + 255) & ~255ull; }

locsim_status locsim_malloc(locsim_device *dev, locsim_dptr *out, size_t bytes) {
    if (!dev || !out) return LOCSIM_ERR_INVALID;
    uint64_t need = granules(bytes);
    if (need > dev->mem_capacity - dev->mem_used)
        return runtime_error(dev, LOCSIM_ERR_OUT_OF_MEMORY,
                             "device malloc of %zu bytes failed: %llu of the device's %llu bytes are in use "
                             "(-device_memory_mb %llu)", bytes, (unsigned long long)dev->mem_used,
                             (unsigned long long)dev->mem_capacity, (unsigned long long)(dev->mem_capacity >> 20));
    if (devmem_alloc(dev->mem, bytes, 256, out) != 0)
        return runtime_error(dev, LOCSIM_ERR_OUT_OF_MEMORY, "device malloc of %zu bytes failed: out of device address space", bytes);
    dev->mem_used += need;
    return LOCSIM_OK;
}

void locsim_mem_get_info(const locsim_device *dev, size_t *free_bytes, size_t *total_bytes) {
    *total_bytes = (size_t)dev->mem_capacity;
    *free_bytes = (size_t)(dev->mem_capacity - dev->mem_used);
}

locsim_status locsim_free(locsim_device *dev, locsim_dptr ptr) {
    if (!dev) return LOCSIM_ERR_INVALID;
    if (ptr == 0) return LOCSIM_OK;  /* like cudaFree(NULL) */
    const devmem_alloc_info *a = devmem_find(dev->mem, ptr);
    uint64_t size = a && a->base == ptr ? a->size : 0;
    if (devmem_free(dev->mem, ptr) != 0)
        return runtime_error(dev, LOCSIM_ERR_INVALID, "free of 0x%llx: not the start of a live allocation",
                             (unsigned long long)ptr);
    uint64_t back = granules(size);
    dev->mem_used -= back < dev->mem_used ? back : dev->mem_used;
    runtime_ldesc_forget(dev, ptr, size);
    return LOCSIM_OK;
}

static locsim_status bad_range(locsim_device *dev, const char *what, locsim_dptr p, size_t n) {
    return runtime_error(dev, LOCSIM_ERR_INVALID, "%s: [0x%llx, +%zu) is not inside a live device allocation", what,
                         (unsigned long long)p, n);
}

locsim_status locsim_memset(locsim_device *dev, locsim_dptr ptr, int value, size_t bytes) {
    if (!dev) return LOCSIM_ERR_INVALID;
    if (!valid_range(dev, ptr, bytes)) return bad_range(dev, "memset", ptr, bytes);
    devmem_fill(dev->mem, ptr, value & 0xff, bytes);
    return LOCSIM_OK;
}

locsim_status locsim_memcpy_htod(locsim_device *dev, locsim_dptr dst, const void *src, size_t bytes) {
    if (!dev || (!src && bytes)) return LOCSIM_ERR_INVALID;
    if (!valid_range(dev, dst, bytes)) return bad_range(dev, "memcpy host to device", dst, bytes);
    devmem_write(dev->mem, dst, src, bytes);
    runtime_memcpy_touch(dev, dst, bytes);
    return LOCSIM_OK;
}

/* The digest of what the host reads back (locsim_dtoh_digest): FNV-1a's step
 * taken a 64-bit word at a time, with a shift folding the product's high bits
 * back down (a byte at a time, the serial multiply cost 2% of a streaming
 * workload's run), then the copy's last bytes one at a time. */
static uint64_t digest_bytes(uint64_t h, const void *src, size_t bytes) {
    const uint8_t *b = src;
    size_t i = 0;
    for (; i + 8 <= bytes; i += 8) {
        uint64_t w;
        memcpy(&w, b + i, sizeof w);
        h = (h ^ w) * 0x100000001b3ull;
        h ^= h >> 29;
    }
    for (; i < bytes; i++) h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

locsim_status locsim_memcpy_dtoh(locsim_device *dev, void *dst, locsim_dptr src, size_t bytes) {
    if (!dev || (!dst && bytes)) return LOCSIM_ERR_INVALID;
    if (!valid_range(dev, src, bytes)) return bad_range(dev, "memcpy device to host", src, bytes);
    devmem_read(dev->mem, src, dst, bytes);
    runtime_memcpy_touch(dev, src, bytes);
    dev->dtoh_digest = digest_bytes(dev->dtoh_digest, dst, bytes);
    return LOCSIM_OK;
}

uint64_t locsim_dtoh_digest(const locsim_device *dev) { return dev ? dev->dtoh_digest : 0; }

locsim_status locsim_memcpy_dtod(locsim_device *dev, locsim_dptr dst, locsim_dptr src, size_t bytes) {
    if (!dev) return LOCSIM_ERR_INVALID;
    if (!valid_range(dev, src, bytes)) return bad_range(dev, "memcpy device to device (source)", src, bytes);
    if (!valid_range(dev, dst, bytes)) return bad_range(dev, "memcpy device to device (destination)", dst, bytes);
    uint8_t buf[4096];
    for (size_t done = 0; done < bytes;) {
        size_t len = bytes - done < sizeof buf ? bytes - done : sizeof buf;
        devmem_read(dev->mem, src + done, buf, len);
        devmem_write(dev->mem, dst + done, buf, len);
        done += len;
    }
    return LOCSIM_OK;
}
