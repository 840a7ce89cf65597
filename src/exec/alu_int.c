/* Integer and bit arithmetic, and logic on predicates.
 *
 * Values are computed in 64 bits and truncated to the instruction's width; signed
 * operations sign-extend their operands from that width first.  Every result is
 * stored zero-extended (the bits above the type are 0).  Nothing here relies on C
 * undefined behaviour: shifts are clamped, division by zero and INT_MIN / -1 give
 * the values the hardware gives (documented at int_div).
 */
#include "exec/exec_internal.h"

/* d[l] = expr for the active lanes; the full-warp case is a plain loop the compiler
 * can vectorise. */
#define LANE_LOOP(expr)                                                      \
    do {                                                                     \
        if (x->active == FULL_MASK) {                                        \
            for (uint32_t l = 0; l < LANES; l++) d[l] = (expr);              \
        } else {                                                             \
            FOR_EACH_LANE(l, x->active) d[l] = (expr);                       \
        }                                                                    \
    } while (0)

typedef struct {
    uint64_t *d;
    const uint64_t *a, *b, *c;
    unsigned bits;
    uint64_t wm;       /* width mask */
    int sgn;
} int_args;

/* ---- predicates: and/or/xor/not/mov on .pred work on whole lane masks ---- */
static int pred_logic(exec_ctx *x) {
    const ptx_insn *in = x->in;
    uint32_t a = exec_pred_src(x, &in->opnd[1]);
    uint32_t b = in->nopnd > 2 ? exec_pred_src(x, &in->opnd[2]) : 0;
    uint32_t r;
    switch ((ptx_opcode)in->op) {
    case PTX_OP_AND: r = a & b; break;
    case PTX_OP_OR: r = a | b; break;
    case PTX_OP_XOR: r = a ^ b; break;
    case PTX_OP_NOT: r = ~a; break;
    default: return exec_unsupported(x);
    }
    exec_pred_write(x, &in->opnd[0], r);
    return 0;
}

static inline int64_t sx(const int_args *g, uint64_t v) { return sign_extend(v, g->bits); }

/* ---- add / sub with carry chains and saturation ---- */
static uint64_t sat_s(int64_t v, unsigned bits) {
    int64_t hi = (int64_t)(width_mask(bits) >> 1), lo = -hi - 1;
    return (uint64_t)(v > hi ? hi : v < lo ? lo : v);
}

static int add_sub_carry(exec_ctx *x, int_args *g, int is_sub) {
    const ptx_insn *in = x->in;
    uint32_t cin_mask = (in->flags & PTX_F_CARRYIN) ? x->w->carry : 0;
    uint32_t cout = 0;
    FOR_EACH_LANE(l, x->active) {
        uint64_t a = g->a[l] & g->wm, b = g->b[l] & g->wm, ci = (cin_mask >> l) & 1;
        uint64_t r, co;
        if (g->bits == 64) {
            unsigned __int128 w = is_sub ? (unsigned __int128)a - b - ci : (unsigned __int128)a + b + ci;
            r = (uint64_t)w;
            co = (uint64_t)(w >> 64) & 1; /* for sub: the borrow (wraps to all ones) */
        } else {
            uint64_t w = is_sub ? a - b - ci : a + b + ci;
            r = w & g->wm;
            co = (w >> g->bits) & 1;
        }
        g->d[l] = r;
        cout |= (uint32_t)co << l;
    }
    if (in->flags & PTX_F_CC) x->w->carry = (x->w->carry & ~x->active) | (cout & x->active);
    return 0;
}

static int add_sub(exec_ctx *x, int_args *g, int is_sub) {
    const ptx_insn *in = x->in;
    uint64_t *d = g->d, wm = g->wm;
    const uint64_t *a = g->a, *b = g->b;
    if (in->flags & (PTX_F_CC | PTX_F_CARRYIN)) return add_sub_carry(x, g, is_sub);
    if ((in->flags & PTX_F_SAT) && g->sgn) {
        LANE_LOOP(sat_s(is_sub ? sx(g, a[l]) - sx(g, b[l]) : sx(g, a[l]) + sx(g, b[l]), g->bits) & wm);
        return 0;
    }
    if (is_sub) LANE_LOOP((a[l] - b[l]) & wm);
    else LANE_LOOP((a[l] + b[l]) & wm);
    return 0;
}

/* ---- multiplication ---- */
/* High half of the 2*bits product of a and b (as the instruction's signedness). */
static uint64_t mul_hi(const int_args *g, uint64_t a, uint64_t b) {
    if (g->bits == 64) {
        if (g->sgn) return (uint64_t)(((__int128)(int64_t)a * (__int128)(int64_t)b) >> 64);
        return (uint64_t)(((unsigned __int128)a * b) >> 64);
    }
    if (g->sgn) return (uint64_t)(((__int128)sx(g, a) * sx(g, b)) >> g->bits) & g->wm;
    return (((a & g->wm) * (b & g->wm)) >> g->bits) & g->wm;
}

/* The full product, for .wide (bits <= 32, so it fits in 64). */
static uint64_t mul_wide(const int_args *g, uint64_t a, uint64_t b) {
    uint64_t r = g->sgn ? (uint64_t)(sx(g, a) * sx(g, b)) : (a & g->wm) * (b & g->wm);
    return r & width_mask(2 * g->bits);
}

static uint64_t mul_part(const int_args *g, uint32_t flags, uint64_t a, uint64_t b) {
    if (flags & PTX_F_HI) return mul_hi(g, a, b);
    if (flags & PTX_F_WIDE) return mul_wide(g, a, b);
    return (a * b) & g->wm;
}

static int mul(exec_ctx *x, int_args *g) {
    uint32_t fl = x->in->flags;
    uint64_t *d = g->d;
    const uint64_t *a = g->a, *b = g->b;
    if (!(fl & (PTX_F_HI | PTX_F_WIDE))) {
        uint64_t wm = g->wm;
        LANE_LOOP((a[l] * b[l]) & wm);
        return 0;
    }
    if (!(fl & PTX_F_HI)) { /* mul.wide (address arithmetic): mul_wide inline, the same expression */
        uint64_t wm = g->wm, rm = width_mask(2 * g->bits);
        unsigned bits = g->bits;
        if (g->sgn) LANE_LOOP((uint64_t)(sign_extend(a[l], bits) * sign_extend(b[l], bits)) & rm);
        else LANE_LOOP(((a[l] & wm) * (b[l] & wm)) & rm);
        return 0;
    }
    LANE_LOOP(mul_part(g, fl, a[l], b[l]));
    return 0;
}

static int mad(exec_ctx *x, int_args *g) {
    const ptx_insn *in = x->in;
    uint32_t fl = in->flags;
    unsigned rbits = (fl & PTX_F_WIDE) ? 2 * g->bits : g->bits;
    uint64_t rm = width_mask(rbits);
    if (fl & (PTX_F_CC | PTX_F_CARRYIN)) {
        uint32_t cin = (fl & PTX_F_CARRYIN) ? x->w->carry : 0, cout = 0;
        FOR_EACH_LANE(l, x->active) {
            uint64_t p = mul_part(g, fl, g->a[l], g->b[l]), c = g->c[l] & rm, ci = (cin >> l) & 1;
            unsigned __int128 w = (unsigned __int128)p + c + ci;
            uint64_t r = (uint64_t)w & rm;
            uint64_t co = rbits == 64 ? (uint64_t)(w >> 64) & 1 : ((uint64_t)w >> rbits) & 1;
            g->d[l] = r;
            cout |= (uint32_t)co << l;
        }
        if (fl & PTX_F_CC) x->w->carry = (x->w->carry & ~x->active) | (cout & x->active);
        return 0;
    }
    uint64_t *d = g->d;
    const uint64_t *a = g->a, *b = g->b, *c = g->c;
    if ((fl & PTX_F_SAT) && (fl & PTX_F_HI) && g->sgn && g->bits == 32) {
        /* mad.hi.sat.s32: the 64-bit sum, clamped to s32 */
        LANE_LOOP(sat_s((int64_t)sign_extend(mul_hi(g, a[l], b[l]), 32) + sx(g, c[l]), 32) & rm);
        return 0;
    }
    if (!(fl & (PTX_F_HI | PTX_F_WIDE))) {
        LANE_LOOP((a[l] * b[l] + c[l]) & rm);
        return 0;
    }
    LANE_LOOP((mul_part(g, fl, a[l], b[l]) + c[l]) & rm);
    return 0;
}

/* mul24/mad24: operands are the low 24 bits (sign-extended for .s32); .lo keeps the
 * low 32 bits of the 48-bit product, .hi its bits 47..16. */
static uint64_t mul24(const int_args *g, uint32_t flags, uint64_t a, uint64_t b) {
    int64_t p = g->sgn ? sign_extend(a, 24) * sign_extend(b, 24) : (int64_t)((a & 0xffffff) * (b & 0xffffff));
    uint64_t u = (uint64_t)p;
    return (flags & PTX_F_HI) ? (u >> 16) & 0xffffffffu : u & 0xffffffffu;
}

/* ---- division: hardware results where C would be undefined ----
 * unsigned x / 0 = all ones, x % 0 = x;  signed x / 0 = -1 (all ones), x % 0 = x;
 * signed MIN / -1 = MIN, MIN % -1 = 0. */
static uint64_t int_div(const int_args *g, uint64_t a, uint64_t b, int rem) {
    if (!g->sgn) {
        a &= g->wm;
        b &= g->wm;
        if (b == 0) return rem ? a : g->wm;
        return rem ? a % b : a / b;
    }
    int64_t sa = sx(g, a), sb = sx(g, b);
    if (sb == 0) return rem ? (uint64_t)sa & g->wm : g->wm;
    if (sb == -1) return rem ? 0 : (0 - (uint64_t)sa) & g->wm;
    return (uint64_t)(rem ? sa % sb : sa / sb) & g->wm;
}

/* ---- bit operations ---- */
static uint64_t shift_left(const int_args *g, uint64_t a, uint64_t n) {
    n &= 0xffffffffu;
    return n >= g->bits ? 0 : (a << n) & g->wm;
}

static uint64_t shift_right(const int_args *g, uint64_t a, uint64_t n) {
    n &= 0xffffffffu;
    if (g->sgn) {
        int64_t v = sx(g, a);
        return (uint64_t)(v >> (n >= g->bits ? g->bits - 1 : n)) & g->wm;
    }
    return n >= g->bits ? 0 : ((a & g->wm) >> n);
}

static uint64_t bfe(const int_args *g, uint64_t a, uint64_t b, uint64_t c) {
    unsigned msb = g->bits - 1, pos = (unsigned)(b & 0xff), len = (unsigned)(c & 0xff);
    uint64_t sbit = 0;
    if (g->sgn && len != 0) {
        unsigned top = pos + len - 1 > msb ? msb : pos + len - 1;
        sbit = (a >> top) & 1;
    }
    uint64_t r = 0;
    for (unsigned i = 0; i <= msb; i++) {
        uint64_t bit = (i < len && pos + i <= msb) ? (a >> (pos + i)) & 1 : sbit;
        r |= bit << i;
    }
    return r;
}

static uint64_t bfi(const int_args *g, uint64_t a, uint64_t b, uint64_t c, uint64_t dd) {
    unsigned msb = g->bits - 1, pos = (unsigned)(c & 0xff), len = (unsigned)(dd & 0xff);
    uint64_t f = b & g->wm;
    for (unsigned i = 0; i < len && pos + i <= msb; i++) {
        uint64_t bit = 1ull << (pos + i);
        f = (f & ~bit) | (((a >> i) & 1) << (pos + i));
    }
    return f;
}

static uint64_t bfind(const int_args *g, uint64_t a, int shiftamt) {
    uint64_t v = a & g->wm;
    if (g->sgn && ((v >> (g->bits - 1)) & 1)) v = ~v & g->wm; /* negative: find the top 0 bit */
    if (v == 0) return 0xffffffffu;
    unsigned pos = 63 - (unsigned)__builtin_clzll(v);
    return shiftamt ? g->bits - 1 - pos : pos;
}

static uint64_t brev(uint64_t a, unsigned bits) {
    uint64_t r = 0;
    for (unsigned i = 0; i < bits; i++) r |= ((a >> i) & 1) << (bits - 1 - i);
    return r;
}

static uint64_t clz(uint64_t a, unsigned bits) {
    a &= width_mask(bits);
    return a == 0 ? bits : (uint64_t)__builtin_clzll(a) - (64 - bits);
}

/* prmt.b32: each of the four result bytes is chosen from the 8 bytes of {b, a}.
 * mode 0 is the generic selector form (bit 3 of a selector nibble replicates the
 * sign of the chosen byte); modes 1..6 are f4e, b4e, rc8, ecl, ecr, rc16. */
static uint64_t prmt(uint64_t a, uint64_t b, uint64_t c, unsigned mode) {
    uint64_t bytes = (a & 0xffffffffu) | ((b & 0xffffffffu) << 32);
    unsigned sel[4], n = (unsigned)(c & 3);
    switch (mode) {
    case 1: for (unsigned i = 0; i < 4; i++) sel[i] = (n + i) & 7; break;                  /* f4e */
    case 2: for (unsigned i = 0; i < 4; i++) sel[i] = (n - i) & 7; break;                  /* b4e */
    case 3: for (unsigned i = 0; i < 4; i++) sel[i] = n; break;                            /* rc8 */
    case 4: for (unsigned i = 0; i < 4; i++) sel[i] = i > n ? i : n; break;               /* ecl */
    case 5: for (unsigned i = 0; i < 4; i++) sel[i] = i < n ? i : n; break;               /* ecr */
    case 6: for (unsigned i = 0; i < 4; i++) sel[i] = ((c & 1) * 2) + (i & 1); break;      /* rc16 */
    default: {
        uint64_t r = 0;
        for (unsigned i = 0; i < 4; i++) {
            unsigned s = (unsigned)(c >> (4 * i)) & 0xf;
            uint64_t byte = (bytes >> (8 * (s & 7))) & 0xff;
            if (s & 8) byte = (byte & 0x80) ? 0xff : 0;
            r |= byte << (8 * i);
        }
        return r;
    }
    }
    uint64_t r = 0;
    for (unsigned i = 0; i < 4; i++) r |= ((bytes >> (8 * sel[i])) & 0xff) << (8 * i);
    return r;
}

/* shf: funnel shift of the 64-bit b:a; .wrap uses the amount mod 32, .clamp caps it at 32. */
/* bmsk.{clamp,wrap}.b32: a mask of width b starting at bit a (PTX ISA semantics:
 * both are taken mod 32; .clamp makes a >= 32 give 0 and b >= 32 mean "to the
 * top"; a field running past bit 31 also stops at the top). */
static uint64_t bmsk(uint32_t flags, uint64_t a64, uint64_t b64) {
    uint32_t a = (uint32_t)a64, b = (uint32_t)b64;
    uint32_t a1 = a & 31, b1 = b & 31, sum = a1 + b1;
    uint32_t mask0 = ~0u << a1;
    int clamp = !(flags & PTX_F_SHF_WRAP);
    int position_overflow = clamp && a >= 32, width_overflow = clamp && b >= 32;
    if (position_overflow) mask0 = 0;
    uint32_t mask1;
    if (sum >= 32 || position_overflow || width_overflow) mask1 = 0;
    else if (b1 == 0) mask1 = ~0u;
    else mask1 = ~0u << sum;
    return mask0 & ~mask1;
}

static uint64_t shf(uint32_t flags, uint64_t a, uint64_t b, uint64_t c) {
    uint32_t n = (uint32_t)c;
    n = (flags & PTX_F_SHF_WRAP) ? n & 31 : (n > 32 ? 32 : n);
    uint64_t v = (a & 0xffffffffu) | ((b & 0xffffffffu) << 32);
    if (flags & PTX_F_SHF_L) return n == 0 ? (b & 0xffffffffu) : ((v << n) >> 32) & 0xffffffffu;
    return (n == 32 ? v >> 32 : v >> n) & 0xffffffffu;
}

static uint64_t lop3(uint64_t a, uint64_t b, uint64_t c, unsigned lut) {
    uint64_t r = 0;
    for (unsigned i = 0; i < 8; i++)
        if ((lut >> i) & 1) r |= ((i & 4) ? a : ~a) & ((i & 2) ? b : ~b) & ((i & 1) ? c : ~c);
    return r;
}

/* dp4a / dp2a: byte / half-word dot products accumulated into c (32-bit). */
static uint64_t dp4a(uint64_t a, uint64_t b, uint64_t c, int as, int bs) {
    int64_t acc = (int64_t)(int32_t)(uint32_t)c;
    for (unsigned i = 0; i < 4; i++) {
        uint64_t ab = (a >> (8 * i)) & 0xff, bb = (b >> (8 * i)) & 0xff;
        acc += (as ? sign_extend(ab, 8) : (int64_t)ab) * (bs ? sign_extend(bb, 8) : (int64_t)bb);
    }
    return (uint64_t)acc & 0xffffffffu;
}

static uint64_t dp2a(uint64_t a, uint64_t b, uint64_t c, int as, int bs, int hi) {
    int64_t acc = (int64_t)(int32_t)(uint32_t)c;
    for (unsigned i = 0; i < 2; i++) {
        uint64_t ah = (a >> (16 * i)) & 0xffff, bb = (b >> (8 * (i + (hi ? 2 : 0)))) & 0xff;
        acc += (as ? sign_extend(ah, 16) : (int64_t)ah) * (bs ? sign_extend(bb, 8) : (int64_t)bb);
    }
    return (uint64_t)acc & 0xffffffffu;
}

static uint64_t min_max(const int_args *g, uint64_t a, uint64_t b, int is_max) {
    if (g->sgn) {
        int64_t sa = sx(g, a), sb = sx(g, b);
        return (uint64_t)(is_max ? (sa > sb ? sa : sb) : (sa < sb ? sa : sb)) & g->wm;
    }
    a &= g->wm;
    b &= g->wm;
    return is_max ? (a > b ? a : b) : (a < b ? a : b);
}

static uint64_t sad(const int_args *g, uint64_t a, uint64_t b, uint64_t c) {
    uint64_t diff;
    if (g->sgn) {
        int64_t sa = sx(g, a), sb = sx(g, b);
        diff = sa > sb ? (uint64_t)sa - (uint64_t)sb : (uint64_t)sb - (uint64_t)sa;
    } else {
        a &= g->wm;
        b &= g->wm;
        diff = a > b ? a - b : b - a;
    }
    return (c + diff) & g->wm;
}

static int sources(exec_ctx *x, int_args *g) {
    const ptx_insn *in = x->in;
    g->d = exec_dst(x, 0);
    g->a = in->nopnd > 1 ? exec_src(x, 1) : NULL;
    g->b = in->nopnd > 2 ? exec_src(x, 2) : NULL;
    g->c = in->nopnd > 3 ? exec_src(x, 3) : NULL;
    g->bits = type_bits((ptx_type)in->type);
    if (g->bits == 0 || g->bits > 64) return -1;
    g->wm = width_mask(g->bits);
    g->sgn = type_signed((ptx_type)in->type);
    return 0;
}

/* Operation families that need one, two or three sources. */
static int unary(exec_ctx *x, int_args *g) {
    uint64_t *d = g->d, wm = g->wm;
    const uint64_t *a = g->a;
    unsigned bits = g->bits;
    switch ((ptx_opcode)x->in->op) {
    case PTX_OP_NOT: LANE_LOOP(~a[l] & wm); break;
    case PTX_OP_CNOT: LANE_LOOP((uint64_t)((a[l] & wm) == 0)); break;
    case PTX_OP_NEG: LANE_LOOP((0 - a[l]) & wm); break;
    case PTX_OP_ABS: LANE_LOOP((sx(g, a[l]) < 0 ? 0 - a[l] : a[l]) & wm); break;
    case PTX_OP_POPC: LANE_LOOP((uint64_t)__builtin_popcountll(a[l] & wm)); break;
    case PTX_OP_CLZ: LANE_LOOP(clz(a[l], bits)); break;
    case PTX_OP_BREV: LANE_LOOP(brev(a[l], bits)); break;
    case PTX_OP_BFIND: {
        int sh = (x->in->flags & PTX_F_SHIFTAMT) != 0;
        LANE_LOOP(bfind(g, a[l], sh));
        break;
    }
    default: return exec_unsupported(x);
    }
    return 0;
}

static int binary(exec_ctx *x, int_args *g) {
    uint64_t *d = g->d, wm = g->wm;
    const uint64_t *a = g->a, *b = g->b;
    switch ((ptx_opcode)x->in->op) {
    case PTX_OP_AND: LANE_LOOP(a[l] & b[l] & wm); break;
    case PTX_OP_OR: LANE_LOOP((a[l] | b[l]) & wm); break;
    case PTX_OP_XOR: LANE_LOOP((a[l] ^ b[l]) & wm); break;
    case PTX_OP_SHL: LANE_LOOP(shift_left(g, a[l], b[l])); break;
    case PTX_OP_SHR: LANE_LOOP(shift_right(g, a[l], b[l])); break;
    case PTX_OP_DIV: LANE_LOOP(int_div(g, a[l], b[l], 0)); break;
    case PTX_OP_REM: LANE_LOOP(int_div(g, a[l], b[l], 1)); break;
    case PTX_OP_MIN: LANE_LOOP(min_max(g, a[l], b[l], 0)); break;
    case PTX_OP_MAX: {
        int relu = (x->in->flags & PTX_F_RELU) && g->sgn;
        LANE_LOOP(relu && sx(g, min_max(g, a[l], b[l], 1)) < 0 ? 0 : min_max(g, a[l], b[l], 1));
        break;
    }
    case PTX_OP_MUL24: {
        uint32_t fl = x->in->flags;
        LANE_LOOP(mul24(g, fl, a[l], b[l]));
        break;
    }
    case PTX_OP_BMSK: {
        uint32_t fl = x->in->flags;
        LANE_LOOP(bmsk(fl, a[l], b[l]));
        break;
    }
    default: return exec_unsupported(x);
    }
    return 0;
}

static int ternary(exec_ctx *x, int_args *g) {
    uint64_t *d = g->d;
    const uint64_t *a = g->a, *b = g->b, *c = g->c;
    const ptx_insn *in = x->in;
    switch ((ptx_opcode)in->op) {
    case PTX_OP_MAD: return mad(x, g);
    case PTX_OP_MAD24: {
        uint32_t fl = in->flags;
        LANE_LOOP((mul24(g, fl, a[l], b[l]) + c[l]) & 0xffffffffu);
        break;
    }
    case PTX_OP_SAD: LANE_LOOP(sad(g, a[l], b[l], c[l])); break;
    case PTX_OP_BFE: LANE_LOOP(bfe(g, a[l], b[l], c[l])); break;
    case PTX_OP_BFI: {
        if (in->nopnd < 5) return exec_unsupported(x);
        const uint64_t *e = exec_src(x, 4);
        LANE_LOOP(bfi(g, a[l], b[l], c[l], e[l]));
        break;
    }
    case PTX_OP_PRMT: {
        unsigned mode = in->mode;
        LANE_LOOP(prmt(a[l], b[l], c[l], mode));
        break;
    }
    case PTX_OP_SHF: {
        uint32_t fl = in->flags;
        LANE_LOOP(shf(fl, a[l], b[l], c[l]));
        break;
    }
    case PTX_OP_LOP3: {
        if (in->nopnd < 5 || in->opnd[4].kind != PTX_OPND_IMM) return exec_unsupported(x);
        unsigned lut = (unsigned)in->opnd[4].imm & 0xff;
        uint64_t wm = g->wm;
        LANE_LOOP(lop3(a[l], b[l], c[l], lut) & wm);
        break;
    }
    case PTX_OP_DP4A: {
        int as = type_signed((ptx_type)in->type), bs = type_signed((ptx_type)in->type2);
        LANE_LOOP(dp4a(a[l], b[l], c[l], as, bs));
        break;
    }
    case PTX_OP_DP2A: {
        int as = type_signed((ptx_type)in->type), bs = type_signed((ptx_type)in->type2);
        int hi = (in->flags & PTX_F_HI) != 0;
        LANE_LOOP(dp2a(a[l], b[l], c[l], as, bs, hi));
        break;
    }
    default: return exec_unsupported(x);
    }
    return 0;
}

int exec_alu_int(exec_ctx *x) {
    const ptx_insn *in = x->in;
    if (in->type == PTX_T_PRED) return pred_logic(x);
    int_args g;
    if (sources(x, &g) != 0) return exec_unsupported(x);
    uint64_t sink[LANES];
    if (!g.d) g.d = sink; /* '_' destination (add.cc _, a, b: only the carry is wanted) */
    switch ((ptx_opcode)in->op) {
    case PTX_OP_ADD: return add_sub(x, &g, 0);
    case PTX_OP_SUB: return add_sub(x, &g, 1);
    case PTX_OP_MUL: return mul(x, &g);
    case PTX_OP_NOT: case PTX_OP_CNOT: case PTX_OP_NEG: case PTX_OP_ABS:
    case PTX_OP_POPC: case PTX_OP_CLZ: case PTX_OP_BREV: case PTX_OP_BFIND:
        return unary(x, &g);
    case PTX_OP_MAD: case PTX_OP_MAD24: case PTX_OP_SAD: case PTX_OP_BFE: case PTX_OP_BFI:
    case PTX_OP_PRMT: case PTX_OP_SHF: case PTX_OP_LOP3: case PTX_OP_DP4A: case PTX_OP_DP2A:
        if (!g.c) return exec_unsupported(x);
        return ternary(x, &g);
    default:
        if (!g.b) return exec_unsupported(x);
        return binary(x, &g);
    }
}
