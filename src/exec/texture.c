/* Texture and surface instructions: tex, tld4, txq, suld.b, sust.b, suq.
 *
 * Unified mode: the object is a 64-bit handle (exec_launch.texobjs[handle - 1]).
 * Texture fetching follows the CUDA programming guide's texture-fetching appendix
 * (docs/textures.md says it again with the choices made here):
 *  - normalized coordinates are scaled by the axis size after the address mode
 *    has transformed them: wrap x -> frac(x); mirror x -> frac(x), or 1 - frac(x)
 *    when floor(x) is odd; clamp and border leave x alone.  Wrap and mirror need
 *    normalized coordinates: with unnormalized ones they act as clamp;
 *  - point sampling reads texel floor(x); linear filtering reads texels
 *    i = floor(x - 0.5) and i + 1 with weight alpha = frac(x - 0.5) held in 9-bit
 *    fixed point with 8 fraction bits (rounded to the nearest 1/256), per axis;
 *  - a texel index out of range is wrapped, mirrored or clamped by the address
 *    mode, or reads the border colour (border mode);
 *  - read mode normalized-float turns n-bit integers into [0, 1] (unsigned:
 *    v / (2^n - 1)) or [-1, 1] (signed: max(v / (2^(n-1) - 1), -1)) before
 *    filtering; 16-bit float texels read as float;
 *  - absent channels read 0, alpha 1;
 *  - a linear resource (tex1Dfetch) is indexed by integer texel number: no
 *    filtering, no address mode, 0 out of range;
 *  - the layer of a layered texture is clamped to the layers there are;
 *  - tex.cube (a cubemap: six square faces stored as six layers) picks the face of
 *    the direction's largest component and the face coordinates of the programming
 *    guide's cubemap table, normalized whatever the object says; the face's edges
 *    clamp (filtering does not reach into the neighbouring face);
 *  - .level and .grad sample level 0: there are no mipmapped textures.
 * Surfaces (suld.b / sust.b): x is a byte offset in the row, y and z are rows and
 * slices; an access out of range traps (.trap: a kernel fault), is moved to the
 * nearest valid position (.clamp), or reads 0 and writes nothing (.zero).
 */
#include <math.h>
#include <stdio.h>

#include "exec/exec_internal.h"
#include "exec/float_util.h"

enum { ADDR_WRAP = 0, ADDR_CLAMP = 1, ADDR_MIRROR = 2, ADDR_BORDER = 3 };

/* ---- handles and operands ---- */

static const exec_texobj *object_of(exec_ctx *x, uint64_t handle, int kind, uint32_t lane) {
    const exec_launch *L = x->cta->L;
    if (handle && handle <= L->ntexobjs && L->texobjs[handle - 1].kind == kind) return &L->texobjs[handle - 1];
    char what[200];
    snprintf(what, sizeof what, "Invalid %s object handle %llu (lane %u): not a live %s object",
             kind == EXEC_OBJ_TEXTURE ? "texture" : "surface", (unsigned long long)handle, lane,
             kind == EXEC_OBJ_TEXTURE ? "texture" : "surface");
    exec_fault_insn(x, LOCSIM_ERR_KERNEL_FAULT, what);
    return NULL;
}

/* Element k of a coordinate vector for lane (immediates are stored in the operand). */
static uint32_t coord_bits(const exec_ctx *x, const ptx_operand *o, unsigned k, uint32_t lane) {
    if ((o->vec_imm >> k) & 1) return o->vec[k];
    return (uint32_t)exec_row(x, o->vec[k])[lane];
}

/* A float to an integer texel index without undefined behaviour: NaN reads texel
 * 0, huge values saturate (far outside any texture either way). */
static int64_t to_index(float f) {
    if (!(f == f)) return 0;
    if (f < -2147483648.0f) return INT32_MIN;
    if (f > 2147483520.0f) return INT32_MAX;
    return (int64_t)f;
}

/* ---- texels ---- */

typedef struct {
    int is_float;        /* the fetch returns floats (float format or normalized read) */
    float f[4];
    uint32_t u[4];
} texval;

/* Index on an axis of n texels under address mode `mode`; -1 for a border read. */
static int64_t address(int64_t i, uint32_t n, int mode) {
    int64_t N = n;
    switch (mode) {
    case ADDR_WRAP: {
        int64_t r = i % N;
        return r < 0 ? r + N : r;
    }
    case ADDR_MIRROR: {
        int64_t r = i % (2 * N);
        if (r < 0) r += 2 * N;
        return r >= N ? 2 * N - 1 - r : r;
    }
    case ADDR_BORDER: return i < 0 || i >= N ? -1 : i;
    default: return i < 0 ? 0 : i >= N ? N - 1 : i;
    }
}

static float half_to_float(uint32_t h) { return (float)small_to_double(h & 0xffff, &FMT_F16); }

/* Channel c of a texel at p, as the fetch returns it. */
static void read_channel(const exec_texobj *o, const uint8_t *p, unsigned c, texval *v) {
    const uint8_t *q = p + c * o->chan_bytes;
    uint32_t raw = 0;
    switch (o->chan_bytes) {
    case 1: raw = q[0]; break;
    case 2: raw = (uint32_t)q[0] | (uint32_t)q[1] << 8; break;
    default: memcpy(&raw, q, 4); break;
    }
    unsigned bits = o->chan_bytes * 8u;
    if (o->chan_kind == LOCSIM_CHANNEL_FLOAT) {
        float f = bits == 16 ? half_to_float(raw) : f32_from_bits(raw);
        v->f[c] = f;
        v->u[c] = (uint32_t)f32_bits(f);
        return;
    }
    int sgn = o->chan_kind == LOCSIM_CHANNEL_SIGNED;
    uint32_t ext = sgn ? (uint32_t)sign_extend(raw, bits) : raw;
    v->u[c] = ext;
    if (o->read_norm) {
        if (sgn) {
            float f = (float)(int32_t)ext / (float)((1u << (bits - 1)) - 1);
            v->f[c] = f < -1.0f ? -1.0f : f;
        } else {
            v->f[c] = (float)raw / (float)((1ull << bits) - 1);
        }
    }
}

/* The texel at (i, j, k) of layer `layer` (indices already addressed; any -1 is a
 * border read).  Records the first texel a lane touches for the timing model.
 * 0, or -1 after a fault. */
static int texel(exec_ctx *x, const exec_texobj *o, int64_t i, int64_t j, int64_t k, uint32_t layer, uint32_t lane,
                 int *noted, texval *v) {
    v->is_float = o->chan_kind == LOCSIM_CHANNEL_FLOAT || o->read_norm;
    if (i < 0 || j < 0 || k < 0) {
        for (unsigned c = 0; c < 4; c++) {
            v->f[c] = o->linear ? 0.0f : o->border[c];
            v->u[c] = o->linear ? 0 : v->is_float ? (uint32_t)f32_bits(v->f[c]) : (uint32_t)to_index(v->f[c]);
        }
        return 0;
    }
    uint64_t addr = o->base + (uint64_t)(k + layer) * o->slice + (uint64_t)j * o->pitch + (uint64_t)i * o->elem_bytes;
    const uint8_t *p = exec_mem_fast(x, PTX_SPACE_GLOBAL, addr, o->elem_bytes, lane);
    if (!p) {
        ptx_space rs;
        uint64_t ra;
        p = exec_mem_ptr(x, PTX_SPACE_GLOBAL, addr, o->elem_bytes, ACC_READ, lane, &rs, &ra);
        if (!p) return -1;
    }
    if (x->info && !*noted) {
        exec_step_info *info = x->info;
        info->mem_space = PTX_SPACE_GLOBAL;
        info->mem_mask |= 1u << lane;
        info->mem_addr[lane] = addr;
        *noted = 1;
    }
    for (unsigned c = 0; c < 4; c++) {
        v->f[c] = c == 3 ? 1.0f : 0.0f;
        v->u[c] = c == 3 ? 1u : 0u;
    }
    for (unsigned c = 0; c < o->nchan; c++) read_channel(o, p, c, v);
    return 0;
}

/* ---- coordinates ---- */

/* One axis of a float coordinate: the first texel index (before addressing) and,
 * for linear filtering, the weight of the second. */
typedef struct {
    int64_t i;
    float a;
    int mode;
} axis;

static float quantize_weight(float a) { return floorf(a * 256.0f + 0.5f) / 256.0f; }

static axis axis_setup(const exec_texobj *o, int ax, float c, uint32_t n, int linear) {
    axis r = {0, 0.0f, o->addr[ax]};
    if (o->normalized) {
        if (r.mode == ADDR_WRAP) {
            c = c - floorf(c);
        } else if (r.mode == ADDR_MIRROR) {
            float fl = floorf(c);
            c = c - fl;
            if (to_index(fl) & 1) c = 1.0f - c;
        }
        c *= (float)n;
    } else if (r.mode == ADDR_WRAP || r.mode == ADDR_MIRROR) {
        r.mode = ADDR_CLAMP; /* wrap and mirror need normalized coordinates */
    }
    if (linear) {
        c -= 0.5f;
        float fl = floorf(c);
        r.a = quantize_weight(c - fl);
        r.i = to_index(fl);
    } else {
        r.i = to_index(floorf(c));
    }
    return r;
}

/* Lane's coordinates of a tex / tld4: axes x, y, z (unused ones are 0) and layer. */
typedef struct {
    int is_int;
    float f[3];
    int32_t n[3];
    uint32_t layer;
} coords;

static coords lane_coords(const exec_ctx *x, const exec_texobj *o, uint32_t lane) {
    const ptx_insn *in = x->in;
    const ptx_operand *c = &in->opnd[2];
    coords r;
    memset(&r, 0, sizeof r);
    r.is_int = in->type2 == PTX_T_S32;
    unsigned first = 0, naxes = 1;
    switch ((ptx_texgeom)in->mode) {
    case PTX_GEOM_2D: naxes = 2; break;
    case PTX_GEOM_3D: naxes = 3; break;
    case PTX_GEOM_A1D: first = 1; break;
    case PTX_GEOM_A2D: first = 1; naxes = 2; break;
    case PTX_GEOM_CUBE: naxes = 3; break;
    default: break;
    }
    if (first) {
        int32_t l = (int32_t)coord_bits(x, c, 0, lane);
        uint32_t layers = o->layered ? o->depth : 1;
        r.layer = l < 0 ? 0 : (uint32_t)l >= layers ? layers - 1 : (uint32_t)l;
    }
    for (unsigned k = 0; k < naxes; k++) {
        uint32_t b = coord_bits(x, c, first + k, lane);
        if (r.is_int) r.n[k] = (int32_t)b;
        else r.f[k] = f32_from_bits(b);
    }
    return r;
}

static uint32_t axis_size(const exec_texobj *o, int ax) {
    return ax == 0 ? o->width : ax == 1 ? o->height : o->layered ? 1 : o->depth;
}

/* Weighted sum of n texels (float results). */
static void blend(texval *out, const texval *t, const float *w, unsigned n) {
    for (unsigned c = 0; c < 4; c++) {
        float s = 0.0f;
        for (unsigned q = 0; q < n; q++) s += w[q] * t[q].f[c];
        out->f[c] = s;
        out->u[c] = (uint32_t)f32_bits(s);
    }
    out->is_float = 1;
}

/* tex.cube: the direction (x, y, z) picks the face of its largest component (ties:
 * x before y before z) and coordinates (s, t) on it, m = that component's size
 * (CUDA programming guide, cubemap textures):
 *   face 0 +x: s = -z, t = -y   face 1 -x: s = z, t = -y
 *   face 2 +y: s = x,  t = z    face 3 -y: s = x, t = -z
 *   face 4 +z: s = x,  t = -y   face 5 -z: s = -x, t = -y
 * and the face is read at the normalized (u, v) = ((s/m + 1)/2, (t/m + 1)/2),
 * point sampled or bilinear, clamped at the face's edges. */
static int cube_lane(exec_ctx *x, const exec_texobj *o, const coords *c, uint32_t lane, texval *v) {
    float cx = c->f[0], cy = c->f[1], cz = c->f[2];
    float ax = fabsf(cx), ay = fabsf(cy), az = fabsf(cz);
    uint32_t face;
    float m, s, t;
    if (ax >= ay && ax >= az) {
        face = cx >= 0.0f ? 0 : 1, m = ax, s = cx >= 0.0f ? -cz : cz, t = -cy;
    } else if (ay >= az) {
        face = cy >= 0.0f ? 2 : 3, m = ay, s = cx, t = cy >= 0.0f ? cz : -cz;
    } else {
        face = cz >= 0.0f ? 4 : 5, m = az, s = cz >= 0.0f ? cx : -cx, t = -cy;
    }
    uint32_t layers = o->layered ? o->depth : 1;
    if (face >= layers) face = layers - 1; /* not a cubemap: undefined on a GPU */
    float u = (s / m + 1.0f) * 0.5f * (float)o->width, w = (t / m + 1.0f) * 0.5f * (float)o->height;
    int noted = 0;
    if (o->filter != 1)
        return texel(x, o, address(to_index(floorf(u)), o->width, ADDR_CLAMP),
                     address(to_index(floorf(w)), o->height, ADDR_CLAMP), 0, face, lane, &noted, v);
    u -= 0.5f, w -= 0.5f;
    float fu = floorf(u), fw = floorf(w);
    float a = quantize_weight(u - fu), b = quantize_weight(w - fw);
    texval q[4];
    float wt[4];
    for (unsigned k = 0; k < 4; k++) {
        unsigned di = k & 1, dj = k >> 1;
        wt[k] = (di ? a : 1.0f - a) * (dj ? b : 1.0f - b);
        if (texel(x, o, address(to_index(fu) + di, o->width, ADDR_CLAMP),
                  address(to_index(fw) + dj, o->height, ADDR_CLAMP), 0, face, lane, &noted, &q[k]))
            return -1;
    }
    blend(v, q, wt, 4);
    return 0;
}

/* One lane's tex fetch into *v.  0, or -1 after a fault. */
static int tex_lane(exec_ctx *x, const exec_texobj *o, uint32_t lane, texval *v) {
    coords c = lane_coords(x, o, lane);
    if (x->in->mode == PTX_GEOM_CUBE && !o->linear) return cube_lane(x, o, &c, lane, v);
    int noted = 0;
    uint32_t layer = c.layer;
    if (c.is_int || o->linear) {
        /* integer coordinates (or a linear resource): texel numbers, point sampled */
        int64_t idx[3];
        for (int ax = 0; ax < 3; ax++) {
            int64_t i = c.is_int ? c.n[ax] : to_index(floorf(c.f[ax]));
            uint32_t n = axis_size(o, ax);
            idx[ax] = o->linear ? (i < 0 || i >= n ? -1 : i) : address(i, n, o->addr[ax] == ADDR_BORDER ? ADDR_BORDER
                                                                                                        : ADDR_CLAMP);
        }
        return texel(x, o, idx[0], idx[1], idx[2], layer, lane, &noted, v);
    }
    int linear = o->filter == 1;
    axis a[3];
    unsigned naxes = x->in->mode == PTX_GEOM_3D ? 3 : (x->in->mode == PTX_GEOM_2D || x->in->mode == PTX_GEOM_A2D) ? 2 : 1;
    for (unsigned ax = 0; ax < 3; ax++)
        a[ax] = ax < naxes ? axis_setup(o, (int)ax, c.f[ax], axis_size(o, (int)ax), linear) : (axis){0, 0.0f, ADDR_CLAMP};
    if (!linear)
        return texel(x, o, address(a[0].i, o->width, a[0].mode), address(a[1].i, axis_size(o, 1), a[1].mode),
                     address(a[2].i, axis_size(o, 2), a[2].mode), layer, lane, &noted, v);
    /* 2^naxes texels, corner q has offset bit ax of q on axis ax */
    texval t[8];
    float w[8];
    unsigned n = 1u << naxes;
    for (unsigned q = 0; q < n; q++) {
        int64_t idx[3];
        float wt = 1.0f;
        for (unsigned ax = 0; ax < 3; ax++) {
            unsigned bit = ax < naxes ? (q >> ax) & 1 : 0;
            idx[ax] = address(a[ax].i + bit, axis_size(o, (int)ax), a[ax].mode);
            if (ax < naxes) wt *= bit ? a[ax].a : 1.0f - a[ax].a;
        }
        w[q] = wt;
        if (texel(x, o, idx[0], idx[1], idx[2], layer, lane, &noted, &t[q])) return -1;
    }
    blend(v, t, w, n);
    return 0;
}

/* tld4: component `comp` of the four texels bilinear filtering of (x, y) reads,
 * counter-clockwise from the lower left: (i, j+1), (i+1, j+1), (i+1, j), (i, j). */
static int tld4_lane(exec_ctx *x, const exec_texobj *o, uint32_t lane, texval *v) {
    coords c = lane_coords(x, o, lane);
    axis ax = axis_setup(o, 0, c.f[0], o->width, 1), ay = axis_setup(o, 1, c.f[1], o->height, 1);
    static const uint8_t di[4] = {0, 1, 1, 0}, dj[4] = {1, 1, 0, 0};
    unsigned comp = x->in->aux & 3;
    int noted = 0;
    for (unsigned q = 0; q < 4; q++) {
        texval t;
        if (texel(x, o, address(ax.i + di[q], o->width, ax.mode), address(ay.i + dj[q], o->height, ay.mode), 0,
                  c.layer, lane, &noted, &t))
            return -1;
        v->is_float = t.is_float;
        v->f[q] = t.f[comp];
        v->u[q] = t.u[comp];
    }
    return 0;
}

static int do_tex(exec_ctx *x) {
    const ptx_insn *in = x->in;
    const uint64_t *h = exec_src(x, 1);
    if (x->info) {
        x->info->mem_is_texture = 1;
        x->info->mem_is_store = 0;
        x->info->mem_is_atomic = 0;
        x->info->mem_mask = 0;
    }
    uint32_t out[4][LANES];
    unsigned esize = 0;
    FOR_EACH_LANE(l, x->active) {
        const exec_texobj *o = object_of(x, h[l], EXEC_OBJ_TEXTURE, l);
        if (!o) return -1;
        esize = o->elem_bytes;
        texval v;
        int rc = in->op == PTX_OP_TLD4 ? tld4_lane(x, o, l, &v) : tex_lane(x, o, l, &v);
        if (rc) return -1;
        for (unsigned c = 0; c < 4; c++) out[c][l] = v.is_float ? (uint32_t)f32_bits(v.f[c]) : v.u[c];
    }
    if (x->info) x->info->mem_size = (uint8_t)esize;
    const ptx_operand *d = &in->opnd[0];
    for (unsigned c = 0; c < 4 && c < d->comp; c++) {
        if (d->vec[c] == PTX_REG_SINK) continue;
        uint64_t *row = exec_row(x, d->vec[c]);
        FOR_EACH_LANE(l, x->active) row[l] = out[c][l];
    }
    return 0;
}

/* ---- queries ---- */

static uint32_t query(const exec_texobj *o, ptx_texquery q) {
    /* PTX's address-mode numbering: wrap 0, mirror 1, clamp_ogl 2, clamp_to_edge 3,
     * clamp_to_border 4; CUDA's clamp is clamp_to_edge */
    static const uint32_t ptx_addr[4] = {[ADDR_WRAP] = 0, [ADDR_CLAMP] = 3, [ADDR_MIRROR] = 1, [ADDR_BORDER] = 4};
    switch (q) {
    case PTX_TXQ_WIDTH: return o->width;
    case PTX_TXQ_HEIGHT: return o->height;
    case PTX_TXQ_DEPTH: return o->layered ? 1 : o->depth;
    case PTX_TXQ_NORMALIZED_COORDS: return o->normalized;
    case PTX_TXQ_FORCE_UNNORMALIZED_COORDS: return 0;
    case PTX_TXQ_FILTER_MODE: return o->filter;
    case PTX_TXQ_ADDR_MODE_0: return ptx_addr[o->addr[0] & 3];
    case PTX_TXQ_ADDR_MODE_1: return ptx_addr[o->addr[1] & 3];
    case PTX_TXQ_ADDR_MODE_2: return ptx_addr[o->addr[2] & 3];
    case PTX_TXQ_ARRAY_SIZE: return o->layered ? o->depth : 0;
    case PTX_TXQ_NUM_MIPMAP_LEVELS: return 1;
    case PTX_TXQ_NUM_SAMPLES: return 1;
    default: return 0;
    }
}

static int do_query(exec_ctx *x) {
    const uint64_t *h = exec_src(x, 1);
    uint64_t *d = exec_dst(x, 0);
    int kind = x->in->op == PTX_OP_TXQ ? EXEC_OBJ_TEXTURE : EXEC_OBJ_SURFACE;
    FOR_EACH_LANE(l, x->active) {
        const exec_texobj *o = object_of(x, h[l], kind, l);
        if (!o) return -1;
        if (d) d[l] = query(o, (ptx_texquery)x->in->aux);
    }
    return 0;
}

/* ---- surfaces ---- */

/* Registers of a REG or VEC data operand (PTX_REG_SINK for '_'). */
static unsigned data_regs(const ptx_operand *o, uint32_t regs[4]) {
    if (o->kind == PTX_OPND_VEC) {
        for (unsigned k = 0; k < 4; k++) regs[k] = k < o->comp ? o->vec[k] : PTX_REG_SINK;
        return o->comp;
    }
    regs[0] = o->kind == PTX_OPND_REG ? o->reg : PTX_REG_SINK;
    regs[1] = regs[2] = regs[3] = PTX_REG_SINK;
    return 1;
}

static int surface_fault(exec_ctx *x, const exec_texobj *o, uint32_t lane, int64_t bx, int64_t y, int64_t z,
                         unsigned size, const char *why) {
    char what[300];
    snprintf(what, sizeof what, "Surface %s %s of %u bytes at byte %lld, row %lld, %s %lld (lane %u; the surface is "
             "%llu bytes x %u rows x %u %s)", x->in->op == PTX_OP_SUST ? "write" : "read", why, size, (long long)bx,
             (long long)y, o->layered ? "layer" : "slice", (long long)z, lane,
             (unsigned long long)o->width * o->elem_bytes, o->height, o->depth, o->layered ? "layers" : "slices");
    return exec_fault_insn(x, LOCSIM_ERR_KERNEL_FAULT, what);
}

/* The address of one lane's surface access, or 0 when .zero drops it.  -1 in *rc
 * after a fault. */
static uint64_t surface_addr(exec_ctx *x, const exec_texobj *o, const ptx_operand *c, unsigned size, uint32_t lane,
                             int *rc) {
    unsigned first = 0;
    int64_t p[3] = {0, 0, 0};
    ptx_texgeom g = (ptx_texgeom)x->in->mode;
    unsigned naxes = g == PTX_GEOM_3D ? 3 : (g == PTX_GEOM_2D || g == PTX_GEOM_A2D) ? 2 : 1;
    if (g == PTX_GEOM_A1D || g == PTX_GEOM_A2D) first = 1;
    for (unsigned k = 0; k < naxes; k++) p[k] = (int32_t)coord_bits(x, c, first + k, lane);
    if (first) p[2] = (int32_t)coord_bits(x, c, 0, lane);
    int64_t row = (int64_t)o->width * o->elem_bytes;
    int64_t lim[3] = {row - (int64_t)size, (int64_t)o->height - 1, (int64_t)o->depth - 1};
    *rc = 0;
    if (p[0] % (int64_t)size) {
        *rc = surface_fault(x, o, lane, p[0], p[1], p[2], size, "misaligned");
        return 0;
    }
    int out = 0;
    for (int k = 0; k < 3; k++) out |= p[k] < 0 || p[k] > lim[k];
    if (out) {
        switch ((ptx_surfclamp)x->in->aux) {
        case PTX_SURF_ZERO: return 0;
        case PTX_SURF_CLAMP:
            for (int k = 0; k < 3; k++) p[k] = p[k] < 0 ? 0 : p[k] > lim[k] ? lim[k] : p[k];
            break;
        default:
            *rc = surface_fault(x, o, lane, p[0], p[1], p[2], size, "out of bounds");
            return 0;
        }
    }
    return o->base + (uint64_t)p[2] * o->slice + (uint64_t)p[1] * o->pitch + (uint64_t)p[0];
}

static int do_surface(exec_ctx *x) {
    const ptx_insn *in = x->in;
    int is_st = in->op == PTX_OP_SUST;
    unsigned esize = type_size((ptx_type)in->type);
    uint32_t regs[4];
    unsigned n = data_regs(&in->opnd[is_st ? 2 : 0], regs);
    const uint64_t *vals[4] = {NULL, NULL, NULL, NULL};
    if (is_st) {
        const ptx_operand *s = &in->opnd[2];
        for (unsigned k = 0; k < n; k++) {
            if (s->kind == PTX_OPND_VEC && (((s->vec_imm >> k) & 1) || s->vec[k] == PTX_REG_SINK)) {
                uint64_t v = (s->vec_imm >> k) & 1 ? s->vec[k] : 0;
                for (unsigned l = 0; l < LANES; l++) x->scratch[2 + k][l] = v;
                vals[k] = x->scratch[2 + k];
            } else if (s->kind == PTX_OPND_VEC) {
                vals[k] = exec_row(x, s->vec[k]);
            } else {
                vals[k] = exec_src(x, 2);
            }
        }
    }
    unsigned size = esize * n;
    const uint64_t *h = exec_src(x, is_st ? 0 : 1);
    const ptx_operand *c = &in->opnd[is_st ? 1 : 2];
    if (x->info) {
        x->info->mem_is_store = (uint8_t)is_st;
        x->info->mem_is_atomic = 0;
        x->info->mem_size = (uint8_t)size;
        x->info->mem_mask = 0;
    }
    uint64_t loaded[4][LANES];
    FOR_EACH_LANE(l, x->active) {
        const exec_texobj *o = object_of(x, h[l], EXEC_OBJ_SURFACE, l);
        if (!o) return -1;
        int rc;
        uint64_t addr = surface_addr(x, o, c, size, l, &rc);
        if (rc) return -1;
        if (!addr) { /* .zero out of range */
            for (unsigned k = 0; k < n; k++) loaded[k][l] = 0;
            continue;
        }
        ptx_space rs;
        uint64_t ra;
        uint8_t *p = exec_mem_ptr(x, PTX_SPACE_GLOBAL, addr, size, is_st ? ACC_WRITE : ACC_READ, l, &rs, &ra);
        if (!p) return -1;
        if (x->info) {
            x->info->mem_space = PTX_SPACE_GLOBAL;
            x->info->mem_mask |= 1u << l;
            x->info->mem_addr[l] = addr;
        }
        for (unsigned k = 0; k < n; k++) {
            if (is_st) {
                uint64_t v = vals[k][l];
                memcpy(p + k * esize, &v, esize); /* little-endian: the low bytes */
            } else {
                uint64_t v = 0;
                memcpy(&v, p + k * esize, esize);
                loaded[k][l] = v;
            }
        }
    }
    if (is_st) return 0;
    for (unsigned k = 0; k < n; k++) {
        if (regs[k] == PTX_REG_SINK) continue;
        uint64_t *row = exec_row(x, regs[k]);
        FOR_EACH_LANE(l, x->active) row[l] = loaded[k][l];
    }
    return 0;
}

int exec_texture(exec_ctx *x) {
    switch ((ptx_opcode)x->in->op) {
    case PTX_OP_TEX: case PTX_OP_TLD4: return do_tex(x);
    case PTX_OP_TXQ: case PTX_OP_SUQ: return do_query(x);
    case PTX_OP_SULD: case PTX_OP_SUST: return do_surface(x);
    default: return exec_unsupported(x);
    }
}
