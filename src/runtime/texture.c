/* Arrays, texture objects and surface objects of the runtime API.
 *
 * An array is one device allocation holding its texels row by row, with no
 * padding: pitch = width x texel size, slice = pitch x height (GPGPU-Sim lays its
 * arrays out the same way; real GPUs use a block-linear layout, which only
 * changes which addresses the texture cache sees).  A texture or surface object
 * is a slot of the device's table; the handle a kernel receives is the slot
 * index + 1, so 0 is never a valid object (as in CUDA).  A destroyed slot is
 * reused by the next object (lowest free slot first: deterministic).
 */
#include <stdlib.h>
#include <string.h>

#include "runtime/runtime.h"

/* ---- channel formats ---- */

/* 1, 2 or 4 channels of equal width, 8/16/32 bits (float: 16 or 32).  Returns the
 * channel count, or 0 with a message. */
static unsigned check_format(locsim_device *dev, const locsim_channel_format *f, const char *what) {
    int bits[4] = {f->x, f->y, f->z, f->w};
    unsigned n = 0;
    while (n < 4 && bits[n] > 0) n++;
    for (unsigned i = n; i < 4; i++)
        if (bits[i] != 0) n = 0; /* a gap (x, 0, z) */
    int ok = (n == 1 || n == 2 || n == 4) && f->kind >= LOCSIM_CHANNEL_SIGNED && f->kind <= LOCSIM_CHANNEL_FLOAT;
    for (unsigned i = 1; ok && i < n; i++) ok = bits[i] == bits[0];
    if (ok) ok = f->kind == LOCSIM_CHANNEL_FLOAT ? (bits[0] == 16 || bits[0] == 32)
                                                 : (bits[0] == 8 || bits[0] == 16 || bits[0] == 32);
    if (!ok) {
        runtime_error(dev, LOCSIM_ERR_INVALID,
                      "%s: unsupported channel format (%d,%d,%d,%d) kind %d: 1, 2 or 4 channels of the same width "
                      "(8/16/32-bit integers, 16/32-bit floats)", what, f->x, f->y, f->z, f->w, (int)f->kind);
        return 0;
    }
    return n;
}

/* ---- arrays ---- */

locsim_status locsim_array_create(locsim_device *dev, const locsim_channel_format *fmt, size_t width, size_t height,
                                  size_t depth, unsigned flags, locsim_array **out) {
    if (!dev || !fmt || !out) return LOCSIM_ERR_INVALID;
    *out = NULL;
    unsigned n = check_format(dev, fmt, "array");
    if (!n) return LOCSIM_ERR_INVALID;
    if (flags & ~(unsigned)(LOCSIM_ARRAY_LAYERED | LOCSIM_ARRAY_SURFACE))
        return runtime_error(dev, LOCSIM_ERR_INVALID, "array: unsupported flags 0x%x", flags);
    int layered = (flags & LOCSIM_ARRAY_LAYERED) != 0;
    /* CUDA's limits for 1-D/2-D/3-D arrays are far below 2^31; keep texel indices in 32 bits */
    const size_t lim = 1u << 20;
    if (width == 0 || width > lim || height > lim || depth > lim || (layered && depth == 0) ||
        (!layered && depth && !height))
        return runtime_error(dev, LOCSIM_ERR_INVALID, "array: bad extent %zux%zux%zu%s", width, height, depth,
                             layered ? " (layered: depth is the number of layers)" : "");
    locsim_array *a = calloc(1, sizeof *a);
    if (!a) return runtime_error(dev, LOCSIM_ERR_OUT_OF_MEMORY, "array: out of host memory");
    a->dev = dev;
    a->fmt = *fmt;
    a->extent[0] = width;
    a->extent[1] = height;
    a->extent[2] = depth;
    a->flags = flags;
    a->width = (uint32_t)width;
    a->height = height ? (uint32_t)height : 1;
    a->depth = depth ? (uint32_t)depth : 1;
    a->elem_bytes = n * (uint32_t)fmt->x / 8;
    a->pitch = (uint64_t)a->width * a->elem_bytes;
    a->slice = a->pitch * a->height;
    uint64_t bytes = a->slice * a->depth;
    if (devmem_alloc(dev->mem, bytes, 256, &a->base) != 0) {
        free(a);
        return runtime_error(dev, LOCSIM_ERR_OUT_OF_MEMORY, "array: out of device memory (%llu bytes)",
                             (unsigned long long)bytes);
    }
    a->next = dev->arrays;
    dev->arrays = a;
    *out = a;
    return LOCSIM_OK;
}

locsim_status locsim_array_destroy(locsim_device *dev, locsim_array *arr) {
    if (!dev) return LOCSIM_ERR_INVALID;
    locsim_array **p = &dev->arrays;
    while (*p && *p != arr) p = &(*p)->next;
    if (!arr || !*p) return runtime_error(dev, LOCSIM_ERR_INVALID, "array destroy: not a live array");
    *p = arr->next;
    devmem_free(dev->mem, arr->base);
    free(arr);
    return LOCSIM_OK;
}

void locsim_array_get_info(const locsim_array *arr, locsim_channel_format *fmt, size_t extent[3], unsigned *flags) {
    if (fmt) *fmt = arr->fmt;
    if (extent) memcpy(extent, arr->extent, sizeof arr->extent);
    if (flags) *flags = arr->flags;
}

void runtime_textures_free(locsim_device *dev) {
    while (dev->arrays) {
        locsim_array *a = dev->arrays;
        dev->arrays = a->next;
        free(a);
    }
    free(dev->texobjs);
    free(dev->texinfo);
    dev->texobjs = NULL;
    dev->texinfo = NULL;
    dev->ntexobjs = dev->texobj_cap = 0;
}

/* ---- copies ---- */

/* Device address of byte x of row y of slice z of one side (0 for host memory),
 * after checking that a width x height x depth box fits an array. */
/* Whether [pos, pos + len) fits in [0, limit), without wrapping for a pos or len near SIZE_MAX. */
static int fits(size_t pos, size_t len, uint64_t limit) { return pos <= limit && len <= limit - pos; }

static int side_check(locsim_device *dev, const locsim_copy_side *s, size_t width, size_t height, size_t depth,
                      const char *which) {
    int n = (s->array != NULL) + (s->dptr != 0) + (s->host != NULL);
    if (n != 1) {
        runtime_error(dev, LOCSIM_ERR_INVALID, "3-D copy: the %s must be exactly one of an array, device or host memory",
                      which);
        return -1;
    }
    if (s->array) {
        const locsim_array *a = s->array;
        if (!fits(s->x, width, a->pitch) || !fits(s->y, height, a->height) || !fits(s->z, depth, a->depth) ||
            s->x % a->elem_bytes || width % a->elem_bytes) {
            runtime_error(dev, LOCSIM_ERR_INVALID,
                          "3-D copy: %zu bytes x %zu rows x %zu slices at (%zu bytes, %zu, %zu) do not fit the %s "
                          "array (%llu bytes x %u rows x %u slices, %u-byte texels)",
                          width, height, depth, s->x, s->y, s->z, which, (unsigned long long)a->pitch, a->height,
                          a->depth, a->elem_bytes);
            return -1;
        }
    } else if (height > 1 || depth > 1) {
        if (!fits(s->x, width, s->pitch) || (depth > 1 && !fits(s->y, height, s->height))) {
            runtime_error(dev, LOCSIM_ERR_INVALID, "3-D copy: the %s's pitch %zu / height %zu is smaller than the copy",
                          which, s->pitch, s->height);
            return -1;
        }
    }
    return 0;
}

static uint64_t side_offset(const locsim_copy_side *s, size_t y, size_t z) {
    if (s->array) return s->array->base + (z + s->z) * s->array->slice + (y + s->y) * s->array->pitch + s->x;
    return ((z + s->z) * s->height + (y + s->y)) * s->pitch + s->x;
}

locsim_status locsim_memcpy_3d(locsim_device *dev, const locsim_copy_side *dst, const locsim_copy_side *src,
                               size_t width, size_t height, size_t depth) {
    if (!dev || !dst || !src) return LOCSIM_ERR_INVALID;
    if (side_check(dev, dst, width, height, depth, "destination") || side_check(dev, src, width, height, depth, "source"))
        return LOCSIM_ERR_INVALID;
    if (dst->host && src->host)
        return runtime_error(dev, LOCSIM_ERR_INVALID, "3-D copy: host to host is not a device copy");
    if (!width || !height || !depth) return LOCSIM_OK;
    /* linear device ranges must lie in live allocations */
    const locsim_copy_side *sides[2] = {dst, src};
    for (int i = 0; i < 2; i++) {
        const locsim_copy_side *s = sides[i];
        if (!s->dptr) continue;
        uint64_t first = s->dptr + side_offset(s, 0, 0);
        uint64_t last = s->dptr + side_offset(s, height - 1, depth - 1) + width;
        if (!devmem_check(dev->mem, first, last - first))
            return runtime_error(dev, LOCSIM_ERR_INVALID, "3-D copy: device range 0x%llx..0x%llx is not one allocation",
                                 (unsigned long long)first, (unsigned long long)last);
    }
    uint8_t *row = malloc(width);
    if (!row) return runtime_error(dev, LOCSIM_ERR_OUT_OF_MEMORY, "3-D copy: out of host memory");
    for (size_t z = 0; z < depth; z++)
        for (size_t y = 0; y < height; y++) {
            uint64_t so = side_offset(src, y, z), d = side_offset(dst, y, z);
            const uint8_t *from = src->host ? (const uint8_t *)src->host + so : row;
            if (!src->host) devmem_read(dev->mem, src->dptr + so, row, width);
            if (dst->host) memcpy((uint8_t *)dst->host + d, from, width);
            else devmem_write(dev->mem, dst->dptr + d, from, width);
            /* host <-> device rows go through the copy engine (-gpgpu_perf_sim_memcpy) */
            if (src->host) runtime_memcpy_touch(dev, dst->dptr + d, width);
            else if (dst->host) runtime_memcpy_touch(dev, src->dptr + so, width);
        }
    free(row);
    return LOCSIM_OK;
}

/* ---- objects ---- */

static locsim_status slot_new(locsim_device *dev, uint32_t *index) {
    for (uint32_t i = 0; i < dev->ntexobjs; i++)
        if (dev->texobjs[i].kind == EXEC_OBJ_NONE) {
            *index = i;
            return LOCSIM_OK;
        }
    if (dev->ntexobjs == dev->texobj_cap) {
        uint32_t cap = dev->texobj_cap ? 2 * dev->texobj_cap : 16;
        exec_texobj *o = realloc(dev->texobjs, cap * sizeof *o);
        if (o) dev->texobjs = o;
        runtime_texobj_info *t = o ? realloc(dev->texinfo, cap * sizeof *t) : NULL;
        if (!o || !t) return runtime_error(dev, LOCSIM_ERR_OUT_OF_MEMORY, "out of host memory for texture objects");
        dev->texinfo = t;
        dev->texobj_cap = cap;
    }
    *index = dev->ntexobjs++;
    return LOCSIM_OK;
}

static int array_live(const locsim_device *dev, const locsim_array *a) {
    for (const locsim_array *p = dev->arrays; p; p = p->next)
        if (p == a) return 1;
    return 0;
}

/* The resource part of an object. */
static locsim_status fill_resource(locsim_device *dev, const locsim_resource_desc *res, exec_texobj *o,
                                   const char *what) {
    memset(o, 0, sizeof *o);
    const locsim_channel_format *f;
    if (res->type == LOCSIM_RES_ARRAY) {
        const locsim_array *a = res->array;
        if (!a || !array_live(dev, a)) return runtime_error(dev, LOCSIM_ERR_INVALID, "%s: not a live array", what);
        f = &a->fmt;
        o->layered = (a->flags & LOCSIM_ARRAY_LAYERED) != 0;
        o->dims = a->extent[1] == 0 ? 1 : (a->extent[2] == 0 || o->layered) ? 2 : 3;
        o->width = a->width;
        o->height = a->height;
        o->depth = a->depth;
        o->base = a->base;
        o->pitch = a->pitch;
        o->slice = a->slice;
    } else if (res->type == LOCSIM_RES_LINEAR || res->type == LOCSIM_RES_PITCH2D) {
        f = &res->format;
        if (!check_format(dev, f, what)) return LOCSIM_ERR_INVALID;
        if (!res->ptr) return runtime_error(dev, LOCSIM_ERR_INVALID, "%s: null device pointer", what);
        o->base = res->ptr;
        o->height = o->depth = 1;
    } else {
        return runtime_error(dev, LOCSIM_ERR_INVALID, "%s: unsupported resource type %d (mipmapped arrays are not "
                             "supported)", what, (int)res->type);
    }
    unsigned n = check_format(dev, f, what);
    if (!n) return LOCSIM_ERR_INVALID;
    o->nchan = (uint8_t)n;
    o->chan_bytes = (uint8_t)(f->x / 8);
    o->chan_kind = (uint8_t)f->kind;
    o->elem_bytes = n * o->chan_bytes;
    if (res->type == LOCSIM_RES_LINEAR) {
        uint64_t texels = res->size_bytes / o->elem_bytes;
        if (texels == 0 || texels > (1u << 27) || res->ptr % 256)
            return runtime_error(dev, LOCSIM_ERR_INVALID, "%s: linear resource of %zu bytes at 0x%llx (needs 1 to 2^27 "
                                 "texels, 256-byte aligned)", what, res->size_bytes, (unsigned long long)res->ptr);
        o->dims = 1;
        o->linear = 1;
        o->width = (uint32_t)texels;
        o->pitch = o->slice = texels * o->elem_bytes;
    } else if (res->type == LOCSIM_RES_PITCH2D) {
        if (!res->width || !res->height || res->width > (1u << 20) || res->height > (1u << 20) ||
            res->pitch < res->width * o->elem_bytes || res->pitch % 32 || res->ptr % 256)
            return runtime_error(dev, LOCSIM_ERR_INVALID, "%s: pitch-2D resource %zux%zu, pitch %zu at 0x%llx (pitch "
                                 "at least width x texel size, 32-byte multiple; 256-byte aligned base)", what,
                                 res->width, res->height, res->pitch, (unsigned long long)res->ptr);
        o->dims = 2;
        o->width = (uint32_t)res->width;
        o->height = (uint32_t)res->height;
        o->pitch = res->pitch;
        o->slice = res->pitch * res->height;
    }
    return LOCSIM_OK;
}

locsim_status locsim_texture_create(locsim_device *dev, const locsim_resource_desc *res,
                                    const locsim_texture_desc *tex, uint64_t *handle) {
    if (!dev || !res || !tex || !handle) return LOCSIM_ERR_INVALID;
    exec_texobj o;
    locsim_status st = fill_resource(dev, res, &o, "texture object");
    if (st != LOCSIM_OK) return st;
    for (int i = 0; i < 3; i++)
        if (tex->address_mode[i] < LOCSIM_ADDRESS_WRAP || tex->address_mode[i] > LOCSIM_ADDRESS_BORDER)
            return runtime_error(dev, LOCSIM_ERR_INVALID, "texture object: bad address mode %d", tex->address_mode[i]);
    if (tex->filter_mode != LOCSIM_FILTER_POINT && tex->filter_mode != LOCSIM_FILTER_LINEAR)
        return runtime_error(dev, LOCSIM_ERR_INVALID, "texture object: bad filter mode %d", tex->filter_mode);
    if (tex->read_mode != LOCSIM_READ_ELEMENT && tex->read_mode != LOCSIM_READ_NORMALIZED_FLOAT)
        return runtime_error(dev, LOCSIM_ERR_INVALID, "texture object: bad read mode %d", tex->read_mode);
    int int_fmt = o.chan_kind != LOCSIM_CHANNEL_FLOAT;
    /* normalized-float reads are for 8- and 16-bit integers; linear filtering
     * returns floats, so an integer texture must be read normalized to use it */
    if (tex->read_mode == LOCSIM_READ_NORMALIZED_FLOAT && (!int_fmt || o.chan_bytes == 4))
        return runtime_error(dev, LOCSIM_ERR_INVALID, "texture object: normalized-float reads need an 8- or 16-bit "
                             "integer format");
    if (tex->filter_mode == LOCSIM_FILTER_LINEAR && int_fmt && tex->read_mode != LOCSIM_READ_NORMALIZED_FLOAT)
        return runtime_error(dev, LOCSIM_ERR_INVALID, "texture object: linear filtering of an integer format needs "
                             "normalized-float reads");
    if (o.linear && tex->filter_mode == LOCSIM_FILTER_LINEAR)
        return runtime_error(dev, LOCSIM_ERR_INVALID, "texture object: a linear resource has no filtering "
                             "(tex1Dfetch)");
    o.kind = EXEC_OBJ_TEXTURE;
    o.read_norm = (uint8_t)(tex->read_mode == LOCSIM_READ_NORMALIZED_FLOAT);
    o.normalized = (uint8_t)(tex->normalized_coords != 0);
    o.filter = (uint8_t)tex->filter_mode;
    for (int i = 0; i < 3; i++) o.addr[i] = (uint8_t)tex->address_mode[i];
    memcpy(o.border, tex->border_color, sizeof o.border);
    uint32_t i = 0;
    if ((st = slot_new(dev, &i)) != LOCSIM_OK) return st;
    dev->texobjs[i] = o;
    dev->texinfo[i].res = *res;
    dev->texinfo[i].tex = *tex;
    *handle = (uint64_t)i + 1;
    return LOCSIM_OK;
}

locsim_status locsim_surface_create(locsim_device *dev, const locsim_resource_desc *res, uint64_t *handle) {
    if (!dev || !res || !handle) return LOCSIM_ERR_INVALID;
    if (res->type != LOCSIM_RES_ARRAY)
        return runtime_error(dev, LOCSIM_ERR_INVALID, "surface object: the resource must be an array");
    if (res->array && !(res->array->flags & LOCSIM_ARRAY_SURFACE) && array_live(dev, res->array))
        return runtime_error(dev, LOCSIM_ERR_INVALID, "surface object: the array was not created for surface "
                             "load/store (cudaArraySurfaceLoadStore)");
    exec_texobj o;
    locsim_status st = fill_resource(dev, res, &o, "surface object");
    if (st != LOCSIM_OK) return st;
    o.kind = EXEC_OBJ_SURFACE;
    uint32_t i = 0;
    if ((st = slot_new(dev, &i)) != LOCSIM_OK) return st;
    dev->texobjs[i] = o;
    memset(&dev->texinfo[i], 0, sizeof dev->texinfo[i]);
    dev->texinfo[i].res = *res;
    *handle = (uint64_t)i + 1;
    return LOCSIM_OK;
}

static locsim_status find_object(locsim_device *dev, uint64_t handle, int kind, const char *what, uint32_t *index) {
    if (handle == 0 || handle > dev->ntexobjs || dev->texobjs[handle - 1].kind != kind)
        return runtime_error(dev, LOCSIM_ERR_INVALID, "%s: %llu is not a live %s object", what,
                             (unsigned long long)handle, kind == EXEC_OBJ_TEXTURE ? "texture" : "surface");
    *index = (uint32_t)(handle - 1);
    return LOCSIM_OK;
}

locsim_status locsim_texture_destroy(locsim_device *dev, uint64_t handle) {
    uint32_t i = 0;
    if (!dev) return LOCSIM_ERR_INVALID;
    locsim_status st = find_object(dev, handle, EXEC_OBJ_TEXTURE, "texture destroy", &i);
    if (st == LOCSIM_OK) dev->texobjs[i].kind = EXEC_OBJ_NONE;
    return st;
}

locsim_status locsim_surface_destroy(locsim_device *dev, uint64_t handle) {
    uint32_t i = 0;
    if (!dev) return LOCSIM_ERR_INVALID;
    locsim_status st = find_object(dev, handle, EXEC_OBJ_SURFACE, "surface destroy", &i);
    if (st == LOCSIM_OK) dev->texobjs[i].kind = EXEC_OBJ_NONE;
    return st;
}

locsim_status locsim_texture_get_desc(locsim_device *dev, uint64_t handle, locsim_resource_desc *res,
                                      locsim_texture_desc *tex) {
    uint32_t i = 0;
    if (!dev) return LOCSIM_ERR_INVALID;
    locsim_status st = find_object(dev, handle, EXEC_OBJ_TEXTURE, "texture descriptor", &i);
    if (st != LOCSIM_OK) return st;
    if (res) *res = dev->texinfo[i].res;
    if (tex) *tex = dev->texinfo[i].tex;
    return LOCSIM_OK;
}

locsim_status locsim_surface_get_desc(locsim_device *dev, uint64_t handle, locsim_resource_desc *res) {
    uint32_t i = 0;
    if (!dev) return LOCSIM_ERR_INVALID;
    locsim_status st = find_object(dev, handle, EXEC_OBJ_SURFACE, "surface descriptor", &i);
    if (st == LOCSIM_OK && res) *res = dev->texinfo[i].res;
    return st;
}
