/* CUDA arrays, texture objects and surface objects on locsim's runtime API.
 *
 * A cudaArray_t is a locsim_array (texels stored row by row, see
 * src/runtime/texture.c); a cudaTextureObject_t / cudaSurfaceObject_t is the
 * simulator's object handle.  Copies to and from arrays accept host memory,
 * device memory and managed regions on the other side, as cudaMemcpy does.
 * Texture references (removed in CUDA 12), mipmapped arrays and resource views
 * are not supported: docs/textures.md.
 */
#include <stdint.h>
#include <string.h>

#include "cudart.h"

static locsim_array *arr_of(cudaArray_const_t a) { return (locsim_array *)(uintptr_t)a; }

struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, enum cudaChannelFormatKind f) {
    struct cudaChannelFormatDesc d = {x, y, z, w, f};
    return d;
}

static locsim_channel_format fmt_of(const struct cudaChannelFormatDesc *d) {
    locsim_channel_format f = {d->x, d->y, d->z, d->w, (locsim_channel_kind)d->f};
    return f;
}

/* ---- allocation ---- */

static cudaError_t array_create(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, size_t w, size_t h,
                                size_t d, unsigned flags) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    if (!array || !desc) return cr_leave(cudaErrorInvalidValue);
    *array = NULL;
    if (desc->f == cudaChannelFormatKindNone) return cr_leave(cudaErrorInvalidValue);
    /* gather is always allowed here; layered cubemaps and sparse arrays are not modelled */
    if (flags & ~(unsigned)(cudaArrayLayered | cudaArraySurfaceLoadStore | cudaArrayTextureGather | cudaArrayCubemap))
        return cr_leave(cudaErrorNotSupported);
    if ((flags & cudaArrayCubemap) && (flags & cudaArrayLayered)) return cr_leave(cudaErrorNotSupported);
    /* a cubemap: six square faces, stored as the six layers of a layered array */
    if ((flags & cudaArrayCubemap) && (w != h || d != 6)) return cr_leave(cudaErrorInvalidValue);
    unsigned lflags = (flags & (cudaArrayLayered | cudaArrayCubemap) ? LOCSIM_ARRAY_LAYERED : 0) |
                      (flags & cudaArraySurfaceLoadStore ? LOCSIM_ARRAY_SURFACE : 0);
    locsim_channel_format f = fmt_of(desc);
    locsim_array *a;
    locsim_status st = locsim_array_create(cr.dev, &f, w, h, d, lflags, &a);
    if (st != LOCSIM_OK) return cr_leave(cr_from_status(st));
    *array = (cudaArray_t)(void *)a;
    return cr_leave(cudaSuccess);
}

cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, size_t width, size_t height,
                            unsigned int flags) {
    if (flags & (cudaArrayLayered | cudaArrayCubemap))
        return cr_record(cudaErrorInvalidValue); /* layered and cubemap arrays come from Malloc3DArray */
    return array_create(array, desc, width, height, 0, flags);
}

cudaError_t cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, struct cudaExtent extent,
                              unsigned int flags) {
    return array_create(array, desc, extent.width, extent.height, extent.depth, flags);
}

cudaError_t cudaFreeArray(cudaArray_t array) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    if (!array) return cr_leave(cudaSuccess);
    return cr_leave(locsim_array_destroy(cr.dev, arr_of(array)) == LOCSIM_OK ? cudaSuccess : cudaErrorInvalidValue);
}

cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *desc, cudaArray_const_t array) {
    if (!desc || !array) return cr_record(cudaErrorInvalidValue);
    locsim_channel_format f;
    locsim_array_get_info(arr_of(array), &f, NULL, NULL);
    *desc = cudaCreateChannelDesc(f.x, f.y, f.z, f.w, (enum cudaChannelFormatKind)f.kind);
    return cudaSuccess;
}

cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *desc, struct cudaExtent *extent, unsigned int *flags,
                             cudaArray_t array) {
    if (!array) return cr_record(cudaErrorInvalidValue);
    locsim_channel_format f;
    size_t ext[3];
    unsigned fl;
    locsim_array_get_info(arr_of(array), &f, ext, &fl);
    if (desc) *desc = cudaCreateChannelDesc(f.x, f.y, f.z, f.w, (enum cudaChannelFormatKind)f.kind);
    if (extent) *extent = (struct cudaExtent){ext[0], ext[1], ext[2]};
    if (flags) *flags = fl;
    return cudaSuccess;
}

/* ---- copies ---- */

static size_t texel_bytes(const locsim_array *a) {
    locsim_channel_format f;
    locsim_array_get_info(a, &f, NULL, NULL);
    return (size_t)((f.x > 0) + (f.y > 0) + (f.z > 0) + (f.w > 0)) * (size_t)f.x / 8;
}

/* The linear side of a copy (n bytes from p, rows pitch apart).  is_src: p is the
 * source.  The memcpy kind must agree with the array being on the device. */
static cudaError_t linear_side(const void *p, size_t pitch, size_t height, size_t n, enum cudaMemcpyKind kind,
                               int is_src, locsim_copy_side *s) {
    memset(s, 0, sizeof *s);
    if ((unsigned)kind > cudaMemcpyDefault) return cudaErrorInvalidMemcpyDirection;
    /* the array end is the device: host-to-host is wrong, and so is the array as the host side */
    if (kind == cudaMemcpyHostToHost || (is_src && kind == cudaMemcpyDeviceToHost) ||
        (!is_src && kind == cudaMemcpyHostToDevice))
        return cudaErrorInvalidMemcpyDirection;
    int device_side = kind == cudaMemcpyDeviceToDevice;
    locsim_dptr d;
    uint8_t *h;
    cudaError_t e = cr_copy_endpoint(p, n, device_side, &d, &h);
    if (e != cudaSuccess) return e;
    if (kind == cudaMemcpyHostToDevice && is_src && d) return cudaErrorInvalidValue;
    if (kind == cudaMemcpyDeviceToHost && !is_src && d) return cudaErrorInvalidValue;
    s->dptr = d;
    s->host = h;
    s->pitch = pitch;
    s->height = height;
    return cudaSuccess;
}

static cudaError_t copy3d(const locsim_copy_side *dst, const locsim_copy_side *src, size_t w, size_t h, size_t d) {
    locsim_status st = locsim_memcpy_3d(cr.dev, dst, src, w, h, d);
    return st == LOCSIM_OK ? cudaSuccess : st == LOCSIM_ERR_INVALID ? cudaErrorInvalidValue : cr_from_status(st);
}

static cudaError_t to_array(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch,
                            size_t width, size_t height, enum cudaMemcpyKind kind) {
    if (!dst) return cudaErrorInvalidValue;
    if (!width || !height) return cudaSuccess;
    size_t span;
    cudaError_t e = cr_pitched_span(spitch, width, height, &span);
    if (e != cudaSuccess) return e;
    locsim_copy_side a = {arr_of(dst), 0, NULL, 0, 0, wOffset, hOffset, 0}, s;
    e = linear_side(src, spitch, height, span, kind, 1, &s);
    return e != cudaSuccess ? e : copy3d(&a, &s, width, height, 1);
}

static cudaError_t from_array(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                              size_t width, size_t height, enum cudaMemcpyKind kind) {
    if (!src) return cudaErrorInvalidValue;
    if (!width || !height) return cudaSuccess;
    size_t span;
    cudaError_t e = cr_pitched_span(dpitch, width, height, &span);
    if (e != cudaSuccess) return e;
    locsim_copy_side a = {arr_of(src), 0, NULL, 0, 0, wOffset, hOffset, 0}, d;
    e = linear_side(dst, dpitch, height, span, kind, 0, &d);
    return e != cudaSuccess ? e : copy3d(&d, &a, width, height, 1);
}

cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch,
                                size_t width, size_t height, enum cudaMemcpyKind kind) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    return cr_leave(to_array(dst, wOffset, hOffset, src, spitch, width, height, kind));
}

cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                  size_t width, size_t height, enum cudaMemcpyKind kind) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    return cr_leave(from_array(dst, dpitch, src, wOffset, hOffset, width, height, kind));
}

/* The deprecated 1-D forms copy count bytes from (wOffset, hOffset) on, row after
 * row: a partial first row, whole rows, a partial last row. */
static cudaError_t linear_copy(cudaArray_const_t arr, size_t wOffset, size_t hOffset, void *lin, size_t count,
                               enum cudaMemcpyKind kind, int to) {
    if (!arr) return cudaErrorInvalidValue;
    size_t ext[3];
    locsim_array_get_info(arr_of(arr), NULL, ext, NULL);
    size_t pitch = ext[0] * texel_bytes(arr_of(arr));
    if (wOffset >= pitch) return cudaErrorInvalidValue;
    uint8_t *p = lin;
    while (count) {
        size_t x = wOffset, rows = 1, w = pitch - x < count ? pitch - x : count;
        if (x == 0 && count >= pitch) { /* whole rows at once */
            rows = count / pitch;
            w = pitch;
        }
        cudaError_t e = to ? to_array((cudaArray_t)(uintptr_t)arr, x, hOffset, p, w, w, rows, kind)
                           : from_array(p, w, arr, x, hOffset, w, rows, kind);
        if (e != cudaSuccess) return e;
        p += w * rows;
        count -= w * rows;
        hOffset += rows;
        wOffset = 0;
    }
    return cudaSuccess;
}

cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t count,
                              enum cudaMemcpyKind kind) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    return cr_leave(linear_copy(dst, wOffset, hOffset, (void *)(uintptr_t)src, count, kind, 1));
}

cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t count,
                                enum cudaMemcpyKind kind) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    return cr_leave(linear_copy(src, wOffset, hOffset, dst, count, kind, 0));
}

/* cudaMemcpy3D: the extent and an array's position are in texels when an array
 * takes part, in bytes otherwise. */
cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    if (!p || (!p->srcArray && !p->srcPtr.ptr) || (!p->dstArray && !p->dstPtr.ptr) ||
        (p->srcArray && p->srcPtr.ptr) || (p->dstArray && p->dstPtr.ptr))
        return cr_leave(cudaErrorInvalidValue);
    const locsim_array *any = p->srcArray ? arr_of(p->srcArray) : p->dstArray ? arr_of(p->dstArray) : NULL;
    size_t tb = any ? texel_bytes(any) : 1;
    size_t w, h = p->extent.height ? p->extent.height : 1, d = p->extent.depth ? p->extent.depth : 1;
    if (!p->extent.width) return cr_leave(cudaSuccess);
    if (__builtin_mul_overflow(p->extent.width, tb, &w)) return cr_leave(cudaErrorInvalidValue);
    locsim_copy_side sides[2];
    const struct cudaPitchedPtr *ptrs[2] = {&p->srcPtr, &p->dstPtr};
    const struct cudaPos *pos[2] = {&p->srcPos, &p->dstPos};
    cudaArray_t arrs[2] = {p->srcArray, p->dstArray};
    for (int i = 0; i < 2; i++) {
        locsim_copy_side *s = &sides[i];
        if (arrs[i]) {
            memset(s, 0, sizeof *s);
            s->array = arr_of(arrs[i]);
            s->x = pos[i]->x * texel_bytes(s->array);
        } else {
            const struct cudaPitchedPtr *q = ptrs[i];
            size_t rows = q->ysize ? q->ysize : h;
            /* span = pitch x (rows x (z + d - 1) + y + h - 1) + x + w, every step checked:
             * a pitch or position near SIZE_MAX must not wrap into a small span */
            size_t xw, last_row, span;
            if (q->pitch > CR_MAX_PITCH) return cr_leave(cudaErrorInvalidPitchValue);
            if (__builtin_add_overflow(pos[i]->x, w, &xw) || __builtin_add_overflow(pos[i]->z, d - 1, &last_row) ||
                __builtin_mul_overflow(last_row, rows, &last_row) ||
                __builtin_add_overflow(last_row, pos[i]->y, &last_row) ||
                __builtin_add_overflow(last_row, h - 1, &last_row) || __builtin_mul_overflow(last_row, q->pitch, &span) ||
                __builtin_add_overflow(span, xw, &span))
                return cr_leave(cudaErrorInvalidValue);
            if (q->pitch < xw) return cr_leave(cudaErrorInvalidPitchValue);
            if (p->kind == cudaMemcpyHostToHost) return cr_leave(cudaErrorInvalidMemcpyDirection);
            int dev_side = i == 0 ? (p->kind == cudaMemcpyDeviceToDevice || p->kind == cudaMemcpyDeviceToHost)
                                  : (p->kind == cudaMemcpyDeviceToDevice || p->kind == cudaMemcpyHostToDevice);
            locsim_dptr dp;
            uint8_t *hp;
            if ((e = cr_copy_endpoint(q->ptr, span, dev_side, &dp, &hp)) != cudaSuccess) return cr_leave(e);
            memset(s, 0, sizeof *s);
            s->dptr = dp;
            s->host = hp;
            s->pitch = q->pitch;
            s->height = rows;
            s->x = pos[i]->x;
        }
        s->y = pos[i]->y;
        s->z = pos[i]->z;
    }
    if (sides[0].host && sides[1].host) { /* host to host (cudaMemcpyDefault): plain copies */
        for (size_t z = 0; z < d; z++)
            for (size_t y = 0; y < h; y++)
                memmove(sides[1].host + ((sides[1].z + z) * sides[1].height + sides[1].y + y) * sides[1].pitch +
                            sides[1].x,
                        sides[0].host + ((sides[0].z + z) * sides[0].height + sides[0].y + y) * sides[0].pitch +
                            sides[0].x,
                        w);
        return cr_leave(cudaSuccess);
    }
    return cr_leave(copy3d(&sides[1], &sides[0], w, h, d));
}

cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch,
                                     size_t width, size_t height, enum cudaMemcpyKind kind, cudaStream_t stream) {
    if (cr_check_stream(stream) != cudaSuccess) return cr_record(cudaErrorInvalidResourceHandle);
    return cudaMemcpy2DToArray(dst, wOffset, hOffset, src, spitch, width, height, kind);
}

cudaError_t cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                       size_t hOffset, size_t width, size_t height, enum cudaMemcpyKind kind,
                                       cudaStream_t stream) {
    if (cr_check_stream(stream) != cudaSuccess) return cr_record(cudaErrorInvalidResourceHandle);
    return cudaMemcpy2DFromArray(dst, dpitch, src, wOffset, hOffset, width, height, kind);
}

cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream) {
    if (cr_check_stream(stream) != cudaSuccess) return cr_record(cudaErrorInvalidResourceHandle);
    return cudaMemcpy3D(p);
}

cudaError_t cudaMemcpyToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t count,
                                   enum cudaMemcpyKind kind, cudaStream_t stream) {
    if (cr_check_stream(stream) != cudaSuccess) return cr_record(cudaErrorInvalidResourceHandle);
    return cudaMemcpyToArray(dst, wOffset, hOffset, src, count, kind);
}

cudaError_t cudaMemcpyFromArrayAsync(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t count,
                                     enum cudaMemcpyKind kind, cudaStream_t stream) {
    if (cr_check_stream(stream) != cudaSuccess) return cr_record(cudaErrorInvalidResourceHandle);
    return cudaMemcpyFromArray(dst, src, wOffset, hOffset, count, kind);
}

/* per-thread default stream spellings (nvcc --default-stream per-thread) */
cudaError_t cudaMemcpy2DToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch,
                                     size_t width, size_t height, enum cudaMemcpyKind kind) {
    return cudaMemcpy2DToArray(dst, wOffset, hOffset, src, spitch, width, height, kind);
}
cudaError_t cudaMemcpy2DFromArray_ptds(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                       size_t width, size_t height, enum cudaMemcpyKind kind) {
    return cudaMemcpy2DFromArray(dst, dpitch, src, wOffset, hOffset, width, height, kind);
}
cudaError_t cudaMemcpyToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t count,
                                   enum cudaMemcpyKind kind) {
    return cudaMemcpyToArray(dst, wOffset, hOffset, src, count, kind);
}
cudaError_t cudaMemcpyFromArray_ptds(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t count,
                                     enum cudaMemcpyKind kind) {
    return cudaMemcpyFromArray(dst, src, wOffset, hOffset, count, kind);
}
cudaError_t cudaMemcpy3D_ptds(const struct cudaMemcpy3DParms *p) { return cudaMemcpy3D(p); }
cudaError_t cudaMemcpy3DAsync_ptsz(const struct cudaMemcpy3DParms *p, cudaStream_t s) { return cudaMemcpy3DAsync(p, s); }
cudaError_t cudaMemcpy2DToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                          size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind,
                                          cudaStream_t s) {
    return cudaMemcpy2DToArrayAsync(dst, wOffset, hOffset, src, spitch, width, height, kind, s);
}
cudaError_t cudaMemcpy2DFromArrayAsync_ptsz(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                            size_t hOffset, size_t width, size_t height, enum cudaMemcpyKind kind,
                                            cudaStream_t s) {
    return cudaMemcpy2DFromArrayAsync(dst, dpitch, src, wOffset, hOffset, width, height, kind, s);
}

/* ---- objects ---- */

static cudaError_t resource_in(const struct cudaResourceDesc *r, locsim_resource_desc *out) {
    memset(out, 0, sizeof *out);
    switch (r->resType) {
    case cudaResourceTypeArray:
        out->type = LOCSIM_RES_ARRAY;
        out->array = arr_of(r->res.array.array);
        return out->array ? cudaSuccess : cudaErrorInvalidValue;
    case cudaResourceTypeLinear:
        out->type = LOCSIM_RES_LINEAR;
        out->ptr = (locsim_dptr)(uintptr_t)r->res.linear.devPtr;
        out->format = fmt_of(&r->res.linear.desc);
        out->size_bytes = r->res.linear.sizeInBytes;
        return cudaSuccess;
    case cudaResourceTypePitch2D:
        out->type = LOCSIM_RES_PITCH2D;
        out->ptr = (locsim_dptr)(uintptr_t)r->res.pitch2D.devPtr;
        out->format = fmt_of(&r->res.pitch2D.desc);
        out->width = r->res.pitch2D.width;
        out->height = r->res.pitch2D.height;
        out->pitch = r->res.pitch2D.pitchInBytes;
        return cudaSuccess;
    default: return cudaErrorNotSupported; /* mipmapped arrays */
    }
}

static void resource_out(const locsim_resource_desc *in, struct cudaResourceDesc *r) {
    memset(r, 0, sizeof *r);
    r->resType = (enum cudaResourceType)in->type;
    struct cudaChannelFormatDesc d = cudaCreateChannelDesc(in->format.x, in->format.y, in->format.z, in->format.w,
                                                           (enum cudaChannelFormatKind)in->format.kind);
    switch (in->type) {
    case LOCSIM_RES_ARRAY: r->res.array.array = (cudaArray_t)(void *)in->array; break;
    case LOCSIM_RES_LINEAR:
        r->res.linear.devPtr = (void *)(uintptr_t)in->ptr;
        r->res.linear.desc = d;
        r->res.linear.sizeInBytes = in->size_bytes;
        break;
    default:
        r->res.pitch2D.devPtr = (void *)(uintptr_t)in->ptr;
        r->res.pitch2D.desc = d;
        r->res.pitch2D.width = in->width;
        r->res.pitch2D.height = in->height;
        r->res.pitch2D.pitchInBytes = in->pitch;
        break;
    }
}

cudaError_t cudaCreateTextureObject(cudaTextureObject_t *obj, const struct cudaResourceDesc *res,
                                    const struct cudaTextureDesc *tex, const struct cudaResourceViewDesc *view) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    if (!obj || !res || !tex) return cr_leave(cudaErrorInvalidValue);
    if (view || tex->sRGB) return cr_leave(cudaErrorNotSupported); /* resource views, sRGB: not modelled */
    locsim_resource_desc r;
    if ((e = resource_in(res, &r)) != cudaSuccess) return cr_leave(e);
    locsim_texture_desc t;
    for (int i = 0; i < 3; i++) t.address_mode[i] = tex->addressMode[i];
    t.filter_mode = tex->filterMode;
    t.read_mode = tex->readMode;
    t.normalized_coords = tex->normalizedCoords;
    memcpy(t.border_color, tex->borderColor, sizeof t.border_color);
    uint64_t h;
    locsim_status st = locsim_texture_create(cr.dev, &r, &t, &h);
    if (st != LOCSIM_OK) return cr_leave(cr_from_status(st));
    *obj = h;
    return cr_leave(cudaSuccess);
}

cudaError_t cudaDestroyTextureObject(cudaTextureObject_t obj) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    if (!obj) return cr_leave(cudaSuccess);
    return cr_leave(locsim_texture_destroy(cr.dev, obj) == LOCSIM_OK ? cudaSuccess : cudaErrorInvalidValue);
}

cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *res, cudaTextureObject_t obj) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    locsim_resource_desc r;
    if (!res || locsim_texture_get_desc(cr.dev, obj, &r, NULL) != LOCSIM_OK) return cr_leave(cudaErrorInvalidValue);
    resource_out(&r, res);
    return cr_leave(cudaSuccess);
}

cudaError_t cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *tex, cudaTextureObject_t obj) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    locsim_texture_desc t;
    if (!tex || locsim_texture_get_desc(cr.dev, obj, NULL, &t) != LOCSIM_OK) return cr_leave(cudaErrorInvalidValue);
    memset(tex, 0, sizeof *tex);
    for (int i = 0; i < 3; i++) tex->addressMode[i] = (enum cudaTextureAddressMode)t.address_mode[i];
    tex->filterMode = (enum cudaTextureFilterMode)t.filter_mode;
    tex->readMode = (enum cudaTextureReadMode)t.read_mode;
    tex->normalizedCoords = t.normalized_coords;
    memcpy(tex->borderColor, t.border_color, sizeof tex->borderColor);
    return cr_leave(cudaSuccess);
}

cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *obj, const struct cudaResourceDesc *res) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    if (!obj || !res) return cr_leave(cudaErrorInvalidValue);
    locsim_resource_desc r;
    if ((e = resource_in(res, &r)) != cudaSuccess) return cr_leave(e);
    uint64_t h;
    locsim_status st = locsim_surface_create(cr.dev, &r, &h);
    if (st != LOCSIM_OK) return cr_leave(cr_from_status(st));
    *obj = h;
    return cr_leave(cudaSuccess);
}

cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t obj) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    if (!obj) return cr_leave(cudaSuccess);
    return cr_leave(locsim_surface_destroy(cr.dev, obj) == LOCSIM_OK ? cudaSuccess : cudaErrorInvalidValue);
}

cudaError_t cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc *res, cudaSurfaceObject_t obj) {
    cudaError_t e = cr_enter();
    if (e != cudaSuccess) return cr_leave(e);
    locsim_resource_desc r;
    if (!res || locsim_surface_get_desc(cr.dev, obj, &r) != LOCSIM_OK) return cr_leave(cudaErrorInvalidValue);
    resource_out(&r, res);
    return cr_leave(cudaSuccess);
}
