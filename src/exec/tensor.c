/* Tensor-core instructions: wmma.load / wmma.store / wmma.mma, mma.sync and
 * ldmatrix (docs/tensor.md has the model and its sources).
 *
 * Fragments.  mma.sync and ldmatrix use the PTX ISA's fragment layouts ("Matrix
 * fragments for mma.m16n8k*", "ldmatrix"): which thread holds which element is
 * architectural, and programs build and read fragments by hand.  wmma fragments
 * are opaque (the ISA leaves the mapping unspecified and programs may only use
 * them through wmma.load/store/mma and element-wise operations), so locsim picks
 * one: element i of lane t holds element (t x E + i) mod (rows x cols) of the
 * matrix in row-major order, E being the fragment's elements per thread.  .f16 A
 * and B fragments hold more elements than their matrix (the ISA gives them 8
 * registers whatever the shape), and the extra ones repeat it.
 *
 * Arithmetic.  D = A x B + C.  Products of f16, bf16, tf32 (the high 19 bits of
 * an f32 register: the low 13 are ignored, as the ISA says tf32 operands are used)
 * and of 8-bit integers are exact in double; they are added in k order in double
 * (exact unless the terms span more than about 30 binades), C is added, and the
 * sum is rounded once, to nearest even, to D's type.  Hardware adds with its own
 * internal precision and order (unspecified by the ISA), so float results may
 * differ from a GPU's in the last bits (docs/tensor.md); integer results are exact:
 * s32 wraps modulo 2^32, or saturates with .satfinite.
 *
 * Every tensor instruction is warp-collective (.sync.aligned): all 32 lanes must
 * execute it; the address and stride are lane 0's (the ISA requires them to be
 * the same in every thread). */
#include <math.h>

#include "exec/exec_internal.h"
#include "exec/float_util.h"

#define TC_MAX_ELEMS 512 /* the largest A or B: 32 x 16 / 16 x 32 */

/* One operand's matrix and how its fragment is laid out. */
typedef struct {
    uint32_t rows, cols;
    ptx_type type;       /* element type (.tf32 as B32) */
    uint32_t bits;       /* element width in a register: 8, 16 or 32 */
    uint32_t per_lane;   /* elements one lane holds */
    int wmma;            /* opaque wmma mapping, else the mma.sync one */
    uint32_t shape, frag;
} frag_desc;

static uint32_t elem_bits(ptx_type t) {
    return t == PTX_T_S8 || t == PTX_T_U8 ? 8 : t == PTX_T_F16 || t == PTX_T_BF16 || t == PTX_T_B16 ? 16 : 32;
}

static void frag_init(frag_desc *fd, const ptx_insn *in, uint32_t frag, ptx_type t, uint32_t nregs) {
    uint32_t m, n, k;
    ptx_mma_dims((ptx_mma_shape)in->mode, &m, &n, &k);
    fd->rows = frag == PTX_FRAG_B ? k : m;
    fd->cols = frag == PTX_FRAG_A ? k : n;
    fd->type = t;
    fd->bits = elem_bits(t);
    fd->per_lane = nregs * (32 / fd->bits);
    fd->wmma = in->op != PTX_OP_MMA;
    fd->shape = in->mode;
    fd->frag = frag;
}

/* Row and column of element i of lane t's fragment. */
static void frag_pos(const frag_desc *fd, uint32_t t, uint32_t i, uint32_t *r, uint32_t *c) {
    if (fd->wmma) {
        uint32_t lin = (t * fd->per_lane + i) % (fd->rows * fd->cols);
        *r = lin / fd->cols;
        *c = lin % fd->cols;
        return;
    }
    uint32_t g = t >> 2, q = t & 3;
    int is8 = fd->bits == 8, tf32 = fd->type == PTX_T_B32;
    if (fd->frag >= PTX_FRAG_C) { /* m16n8 accumulators, every type */
        *r = g + 8 * (i >> 1);
        *c = q * 2 + (i & 1);
    } else if (fd->frag == PTX_FRAG_A) {
        if (tf32) { /* m16n8k8 */
            *r = g + 8 * (i & 1);
            *c = q + 4 * (i >> 1);
        } else if (is8) { /* m16n8k16: i < 8; m16n8k32: i < 16 */
            *r = g + 8 * ((i >> 2) & 1);
            *c = q * 4 + (i & 3) + 16 * (i >> 3);
        } else { /* f16 / bf16, m16n8k8: i < 4; m16n8k16: i < 8 */
            *r = g + 8 * ((i >> 1) & 1);
            *c = q * 2 + (i & 1) + 8 * (i >> 2);
        }
    } else {
        *c = g;
        if (tf32)
            *r = q + 4 * i;
        else if (is8)
            *r = q * 4 + (i & 3) + 16 * (i >> 2);
        else
            *r = q * 2 + (i & 1) + 8 * (i >> 1);
    }
}

/* Element i of lane l from the fragment's registers (packed low element first). */
static uint32_t frag_get(exec_ctx *x, const ptx_operand *o, const frag_desc *fd, uint32_t l, uint32_t i) {
    uint32_t per_reg = 32 / fd->bits;
    uint32_t v = (uint32_t)exec_row(x, o->vec[i / per_reg])[l];
    if (fd->bits == 32) return v;
    uint32_t sh = (i % per_reg) * fd->bits;
    return (v >> sh) & ((1u << fd->bits) - 1);
}

/* The operand's matrix (raw element bits, row-major) from its fragment. */
static void frag_gather(exec_ctx *x, const ptx_operand *o, const frag_desc *fd, uint32_t *mat) {
    uint8_t seen[TC_MAX_ELEMS] = {0};
    for (uint32_t l = 0; l < LANES; l++)
        for (uint32_t i = 0; i < fd->per_lane; i++) {
            uint32_t r, c;
            frag_pos(fd, l, i, &r, &c);
            uint32_t e = r * fd->cols + c;
            if (seen[e]) continue; /* a replica: the first copy counts */
            seen[e] = 1;
            mat[e] = frag_get(x, o, fd, l, i);
        }
}

/* Write the matrix into the fragment's registers (destination VEC o). */
static void frag_scatter(exec_ctx *x, const ptx_operand *o, const frag_desc *fd, const uint32_t *mat) {
    uint32_t per_reg = 32 / fd->bits, nregs = fd->per_lane / per_reg;
    for (uint32_t reg = 0; reg < nregs; reg++) {
        uint64_t *row = exec_row(x, o->vec[reg]);
        for (uint32_t l = 0; l < LANES; l++) {
            uint32_t v = 0;
            for (uint32_t k = 0; k < per_reg; k++) {
                uint32_t r, c;
                frag_pos(fd, l, reg * per_reg + k, &r, &c);
                uint32_t e = mat[r * fd->cols + c];
                v |= fd->bits == 32 ? e : (e & ((1u << fd->bits) - 1)) << (k * fd->bits);
            }
            row[l] = v;
        }
    }
}

static int need_whole_warp(exec_ctx *x) {
    if (x->active == FULL_MASK) return 0;
    char what[160];
    snprintf(what, sizeof what, "%s (line %u) executed by %u of 32 lanes: a .sync.aligned tensor instruction needs "
             "the whole warp", ptx_opcode_name((ptx_opcode)x->in->op), x->in->line, popc32(x->active));
    return exec_fault_insn(x, LOCSIM_ERR_KERNEL_FAULT, what);
}

/* ---- timing record: the lanes' accesses (one chunk each) ---- */
static void access_begin(exec_ctx *x, unsigned size, int is_store) {
    exec_step_info *info = x->info;
    if (!info) return;
    info->mem_space = PTX_SPACE_NONE;
    info->mem_is_store = (uint8_t)is_store;
    info->mem_is_atomic = 0;
    info->mem_size = (uint8_t)(size > 255 ? 255 : size);
    info->mem_mask = 0;
}

static void access_note(exec_ctx *x, ptx_space space, uint32_t lane, uint64_t addr) {
    exec_step_info *info = x->info;
    if (!info) return;
    if (!info->mem_mask) info->mem_space = (uint8_t)space;
    info->mem_mask |= 1u << lane;
    info->mem_addr[lane] = addr;
}

static uint32_t load_le(const uint8_t *p, unsigned n) {
    uint32_t v = 0;
    for (unsigned b = 0; b < n; b++) v |= (uint32_t)p[b] << (8 * b);
    return v;
}

static void store_le(uint8_t *p, unsigned n, uint32_t v) {
    for (unsigned b = 0; b < n; b++) p[b] = (uint8_t)(v >> (8 * b));
}

/* wmma.load / wmma.store.  The warp moves the tile in memory order, lane l the
 * l-th 32nd of it (a contiguous run of a row, or of a column for .col): that is
 * what the timing model sees, one access of tile/32 bytes per lane. */
static int wmma_load_store(exec_ctx *x) {
    const ptx_insn *in = x->in;
    int store = in->op == PTX_OP_WMMA_STORE;
    uint32_t fi = store ? 1 : 0, ai = store ? 0 : 1;
    const ptx_operand *fo = &in->opnd[fi];
    frag_desc fd;
    frag_init(&fd, in, PTX_MMA_FRAG(in->aux), (ptx_type)in->type, fo->comp);
    int col = (in->aux & PTX_MMA_COL) != 0;
    uint32_t n = fd.rows * fd.cols, esize = ptx_type_size((ptx_type)in->type);
    uint32_t major = col ? fd.rows : fd.cols; /* elements along the contiguous dimension */
    uint64_t stride = major;
    if (in->nopnd > 2) stride = (uint32_t)exec_src(x, 2)[0];
    uint64_t base = exec_addr_of(x, &in->opnd[ai], 0);
    uint32_t mat[TC_MAX_ELEMS];
    if (store) frag_gather(x, fo, &fd, mat);
    uint32_t chunk = n / LANES;
    access_begin(x, chunk * esize, store);
    for (uint32_t l = 0; l < LANES; l++)
        for (uint32_t j = 0; j < chunk; j++) {
            uint32_t idx = l * chunk + j, outer = idx / major, inner = idx % major;
            uint32_t r = col ? inner : outer, c = col ? outer : inner;
            uint64_t addr = base + (outer * stride + inner) * esize;
            ptx_space rs;
            uint64_t ra;
            uint8_t *p = exec_mem_ptr(x, (ptx_space)in->space, addr, esize, store ? ACC_WRITE : ACC_READ, l, &rs, &ra);
            if (!p) return -1;
            if (j == 0) access_note(x, rs, l, ra);
            if (store) store_le(p, esize, mat[r * fd.cols + c]);
            else mat[r * fd.cols + c] = load_le(p, esize);
        }
    if (!store) frag_scatter(x, fo, &fd, mat);
    return 0;
}

/* An element's value (exact in double for every input and accumulator type). */
static double elem_value(uint32_t bits, ptx_type t) {
    switch (t) {
    case PTX_T_F16: return small_to_double(bits, &FMT_F16);
    case PTX_T_BF16: return small_to_double(bits, &FMT_BF16);
    case PTX_T_B32: return f32_from_bits(bits & 0xffffe000u); /* tf32: the low 13 bits are not used */
    case PTX_T_F32: return f32_from_bits(bits);
    case PTX_T_S8: return (int8_t)bits;
    case PTX_T_U8: return (uint8_t)bits;
    case PTX_T_S32: return (int32_t)bits;
    default: return 0.0;
    }
}

/* The sum rounded to D's type. */
static uint32_t result_bits(double v, ptx_type t, int satfinite) {
    switch (t) {
    case PTX_T_F16: return double_to_small(v, PTX_RND_RN, &FMT_F16);
    case PTX_T_F32: return (uint32_t)canon32((float)v);
    case PTX_T_S32: {
        if (satfinite) return (uint32_t)(int32_t)(v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v);
        /* |v| < 2^53: exact in int64, then modulo 2^32 */
        return (uint32_t)(uint64_t)(int64_t)v;
    }
    default: return 0;
    }
}

static int tensor_mma(exec_ctx *x) {
    const ptx_insn *in = x->in;
    frag_desc fa, fb, fc, fdd;
    frag_init(&fa, in, PTX_FRAG_A, (ptx_type)in->type, in->opnd[1].comp);
    frag_init(&fb, in, PTX_FRAG_B, (ptx_type)in->type2, in->opnd[2].comp);
    frag_init(&fc, in, PTX_FRAG_C, (ptx_type)in->ctype, in->opnd[3].comp);
    frag_init(&fdd, in, PTX_FRAG_D, (ptx_type)in->dtype, in->opnd[0].comp);
    uint32_t a[TC_MAX_ELEMS], b[TC_MAX_ELEMS], c[TC_MAX_ELEMS], d[TC_MAX_ELEMS];
    frag_gather(x, &in->opnd[1], &fa, a);
    frag_gather(x, &in->opnd[2], &fb, b);
    frag_gather(x, &in->opnd[3], &fc, c);
    uint32_t m = fa.rows, k = fa.cols, n = fb.cols;
    for (uint32_t i = 0; i < m; i++)
        for (uint32_t j = 0; j < n; j++) {
            double s = 0.0;
            for (uint32_t q = 0; q < k; q++)
                s += elem_value(a[i * k + q], fa.type) * elem_value(b[q * n + j], fb.type);
            s += elem_value(c[i * n + j], fc.type);
            d[i * n + j] = result_bits(s, fdd.type, (in->flags & PTX_F_SAT) != 0);
        }
    frag_scatter(x, &in->opnd[0], &fdd, d);
    return 0;
}

/* ldmatrix: matrix j's eight rows of 16 bytes come from the addresses of lanes
 * 8j .. 8j+7; lane t receives, in register j, elements 2(t%4) and 2(t%4)+1 of row
 * t/4 (with .trans: of column t/4, i.e. rows 2(t%4) and 2(t%4)+1 of that column). */
static int tensor_ldmatrix(exec_ctx *x) {
    const ptx_insn *in = x->in;
    uint32_t num = in->aux & 7u;
    int trans = (in->aux & PTX_MMA_TRANS) != 0;
    uint16_t m[4][8][8];
    access_begin(x, 16, 0);
    for (uint32_t l = 0; l < 8 * num; l++) {
        uint64_t addr = exec_addr_of(x, &in->opnd[1], l);
        ptx_space rs;
        uint64_t ra;
        uint8_t *p = exec_mem_ptr(x, (ptx_space)in->space, addr, 16, ACC_READ, l, &rs, &ra);
        if (!p) return -1;
        access_note(x, rs, l, ra);
        for (uint32_t e = 0; e < 8; e++) m[l / 8][l % 8][e] = (uint16_t)load_le(p + 2 * e, 2);
    }
    for (uint32_t j = 0; j < num; j++) {
        uint64_t *row = exec_row(x, in->opnd[0].vec[j]);
        for (uint32_t t = 0; t < LANES; t++) {
            uint32_t r = t / 4, c = 2 * (t % 4);
            uint32_t lo = trans ? m[j][c][r] : m[j][r][c], hi = trans ? m[j][c + 1][r] : m[j][r][c + 1];
            row[t] = lo | (uint32_t)hi << 16;
        }
    }
    return 0;
}

int exec_tensor(exec_ctx *x) {
    if (need_whole_warp(x)) return -1;
    switch ((ptx_opcode)x->in->op) {
    case PTX_OP_WMMA_LOAD: case PTX_OP_WMMA_STORE: return wmma_load_store(x);
    case PTX_OP_WMMA_MMA: case PTX_OP_MMA: return tensor_mma(x);
    case PTX_OP_LDMATRIX: return tensor_ldmatrix(x);
    default: return exec_unsupported(x);
    }
}
