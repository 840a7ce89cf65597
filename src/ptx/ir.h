/* Decoded PTX: the compact IR the front end produces and the executor runs.
 *
 * Decode once: every register is resolved to an index, every immediate is typed,
 * every label is an instruction index, every branch carries its reconvergence
 * point (immediate post-dominator).  The executor never looks at text.
 *
 * Ownership: a ptx_module owns everything below it; ptx_module_free() releases it.
 */
#ifndef LOCSIM_PTX_IR_H
#define LOCSIM_PTX_IR_H

#include <stddef.h>
#include <stdint.h>

/* ---- opcodes ------------------------------------------------------------ */
typedef enum {
#define OP(e, name, cls) PTX_OP_##e,
#include "opcodes.def"
#undef OP
    PTX_OP_COUNT
} ptx_opcode;

/* Coarse class, used by the timing model to pick a pipeline. */
typedef enum { PTX_CLASS_ALU, PTX_CLASS_SFU, PTX_CLASS_MEM, PTX_CLASS_CTRL, PTX_CLASS_BAR, PTX_CLASS_TENSOR } ptx_opclass;

const char *ptx_opcode_name(ptx_opcode op);
ptx_opclass ptx_opcode_class(ptx_opcode op);

/* ---- types -------------------------------------------------------------- */
typedef enum {
    PTX_T_NONE = 0,
    PTX_T_B8, PTX_T_B16, PTX_T_B32, PTX_T_B64, PTX_T_B128,
    PTX_T_U8, PTX_T_U16, PTX_T_U32, PTX_T_U64,
    PTX_T_S8, PTX_T_S16, PTX_T_S32, PTX_T_S64,
    PTX_T_F16, PTX_T_F16X2, PTX_T_BF16, PTX_T_BF16X2, PTX_T_F32, PTX_T_F64,
    PTX_T_PRED,
    PTX_T_COUNT
} ptx_type;

unsigned ptx_type_size(ptx_type t);   /* bytes; 0 for PRED/NONE */
int ptx_type_is_signed(ptx_type t);   /* S8..S64 */
int ptx_type_is_float(ptx_type t);    /* F16..F64 */
const char *ptx_type_name(ptx_type t); /* "u32", ... */

/* ---- state spaces ------------------------------------------------------- */
typedef enum {
    PTX_SPACE_NONE = 0, /* generic addressing */
    PTX_SPACE_REG,
    PTX_SPACE_GLOBAL,
    PTX_SPACE_SHARED,   /* .shared / .shared::cta */
    PTX_SPACE_LOCAL,
    PTX_SPACE_CONST,
    PTX_SPACE_PARAM,    /* kernel params (read-only buffer) or call-frame params, see ptx_addr */
    PTX_SPACE_COUNT
} ptx_space;

/* ---- modifiers ---------------------------------------------------------- */
/* Comparison for setp/set (also used by testp/vote/shfl/atom via their own enums below). */
typedef enum {
    PTX_CMP_NONE = 0,
    PTX_CMP_EQ, PTX_CMP_NE, PTX_CMP_LT, PTX_CMP_LE, PTX_CMP_GT, PTX_CMP_GE,
    PTX_CMP_LO, PTX_CMP_LS, PTX_CMP_HI, PTX_CMP_HS,                 /* unsigned */
    PTX_CMP_EQU, PTX_CMP_NEU, PTX_CMP_LTU, PTX_CMP_LEU, PTX_CMP_GTU, PTX_CMP_GEU,
    PTX_CMP_NUM, PTX_CMP_NAN
} ptx_cmp;

/* Boolean op combining setp with a predicate source: setp.lt.and.s32 p|q, a, b, c; */
typedef enum { PTX_BOOL_NONE = 0, PTX_BOOL_AND, PTX_BOOL_OR, PTX_BOOL_XOR } ptx_boolop;

typedef enum {
    PTX_RND_NONE = 0,
    PTX_RND_RN, PTX_RND_RZ, PTX_RND_RM, PTX_RND_RP,       /* float rounding */
    PTX_RND_RNI, PTX_RND_RZI, PTX_RND_RMI, PTX_RND_RPI,   /* round to integer */
    PTX_RND_RNA
} ptx_rnd;

/* Atomic / reduction operation (atom, red, redux). */
typedef enum {
    PTX_ATOM_NONE = 0, PTX_ATOM_ADD, PTX_ATOM_MIN, PTX_ATOM_MAX, PTX_ATOM_AND, PTX_ATOM_OR,
    PTX_ATOM_XOR, PTX_ATOM_EXCH, PTX_ATOM_CAS, PTX_ATOM_INC, PTX_ATOM_DEC,
    PTX_ATOM_POPC           /* bar.red.popc only */
} ptx_atomop;

/* Memory scope of membar/fence (kept in ptx_insn.mode); atom/red scopes are parsed
 * and ignored (execution is sequentially consistent anyway). */
typedef enum { PTX_SCOPE_NONE = 0, PTX_SCOPE_CTA, PTX_SCOPE_GPU, PTX_SCOPE_SYS } ptx_scope;

/* prmt modes (ptx_insn.mode): 0 is the default (generic byte selector). */
typedef enum {
    PTX_PRMT_DEFAULT = 0, PTX_PRMT_F4E, PTX_PRMT_B4E, PTX_PRMT_RC8, PTX_PRMT_ECL,
    PTX_PRMT_ECR, PTX_PRMT_RC16
} ptx_prmtmode;

typedef enum { PTX_SHFL_NONE = 0, PTX_SHFL_UP, PTX_SHFL_DOWN, PTX_SHFL_BFLY, PTX_SHFL_IDX } ptx_shflmode;
typedef enum { PTX_VOTE_NONE = 0, PTX_VOTE_ALL, PTX_VOTE_ANY, PTX_VOTE_UNI, PTX_VOTE_BALLOT } ptx_votemode;
typedef enum { PTX_MATCH_NONE = 0, PTX_MATCH_ANY, PTX_MATCH_ALL } ptx_matchmode;
typedef enum {
    PTX_TESTP_NONE = 0, PTX_TESTP_FINITE, PTX_TESTP_INFINITE, PTX_TESTP_NUMBER,
    PTX_TESTP_NOTANUMBER, PTX_TESTP_NORMAL, PTX_TESTP_SUBNORMAL
} ptx_testpmode;

/* Texture and surface instructions (tex, tld4, txq, suld, sust, suq): the geometry
 * is kept in ptx_insn.mode, the rest in ptx_insn.aux (see the operand layout). */
typedef enum {
    PTX_GEOM_NONE = 0, PTX_GEOM_1D, PTX_GEOM_2D, PTX_GEOM_3D, PTX_GEOM_A1D, PTX_GEOM_A2D,
    PTX_GEOM_CUBE       /* tex only: {x, y, z, unused} direction, the face is a layer */
} ptx_texgeom;
typedef enum { PTX_TEX_PLAIN = 0, PTX_TEX_LEVEL, PTX_TEX_GRAD } ptx_texvariant;   /* tex: aux */
typedef enum { PTX_SURF_TRAP = 0, PTX_SURF_CLAMP, PTX_SURF_ZERO } ptx_surfclamp;  /* suld/sust: aux */
typedef enum {                                                                    /* txq/suq: aux */
    PTX_TXQ_NONE = 0, PTX_TXQ_WIDTH, PTX_TXQ_HEIGHT, PTX_TXQ_DEPTH, PTX_TXQ_NORMALIZED_COORDS,
    PTX_TXQ_FORCE_UNNORMALIZED_COORDS, PTX_TXQ_FILTER_MODE, PTX_TXQ_ADDR_MODE_0, PTX_TXQ_ADDR_MODE_1,
    PTX_TXQ_ADDR_MODE_2, PTX_TXQ_ARRAY_SIZE, PTX_TXQ_NUM_MIPMAP_LEVELS, PTX_TXQ_NUM_SAMPLES,
    PTX_TXQ_COUNT
} ptx_texquery;

/* mbarrier.<op> (ptx_insn.mode) and its variants (ptx_insn.aux bits). */
typedef enum {
    PTX_MBAR_NONE = 0, PTX_MBAR_INIT, PTX_MBAR_INVAL, PTX_MBAR_ARRIVE, PTX_MBAR_ARRIVE_DROP,
    PTX_MBAR_EXPECT_TX, PTX_MBAR_COMPLETE_TX, PTX_MBAR_TEST_WAIT, PTX_MBAR_TRY_WAIT
} ptx_mbarmode;
enum {
    PTX_MBAR_NOCOMPLETE = 1u << 0,  /* arrive{_drop}.noComplete */
    PTX_MBAR_WITH_TX = 1u << 1,     /* arrive{_drop}.expect_tx */
    PTX_MBAR_PARITY = 1u << 2,      /* test_wait.parity / try_wait.parity */
    PTX_MBAR_NOINC = 1u << 3        /* cp.async.mbarrier.arrive.noinc */
};

/* Bit flags in ptx_insn.flags */
enum {
    PTX_F_FTZ    = 1u << 0,
    PTX_F_SAT    = 1u << 1,
    PTX_F_APPROX = 1u << 2,  /* .approx / .full */
    PTX_F_HI     = 1u << 3,  /* mul.hi, mad.hi */
    PTX_F_LO     = 1u << 4,  /* mul.lo, mad.lo */
    PTX_F_WIDE   = 1u << 5,  /* mul.wide, mad.wide */
    PTX_F_UNI    = 1u << 6,  /* bra.uni, call.uni */
    PTX_F_NC     = 1u << 7,  /* ld.global.nc */
    PTX_F_VOLATILE = 1u << 8,
    PTX_F_CC     = 1u << 9,  /* add.cc / addc (carry) */
    PTX_F_CARRYIN = 1u << 10,/* addc / subc / madc */
    PTX_F_SHF_L  = 1u << 11, /* shf.l (else shf.r) */
    PTX_F_SHF_WRAP = 1u << 12,/* shf.wrap (else clamp) */
    PTX_F_SHIFTAMT = 1u << 13,/* bfind.shiftamt */
    PTX_F_SYNC   = 1u << 14, /* shfl.sync / vote.sync / bar.sync / bar.arrive distinction below */
    PTX_F_ARRIVE = 1u << 15, /* bar.arrive (no wait) */
    PTX_F_RED    = 1u << 16, /* bar.red */
    PTX_F_WARP   = 1u << 17, /* bar.warp.sync */
    PTX_F_TO     = 1u << 18, /* cvta.to.<space> (else cvta.<space>: to generic) */
    PTX_F_NAN    = 1u << 19, /* min.NaN / max.NaN */
    PTX_F_RELU   = 1u << 20, /* .relu */
    PTX_F_SHIFTED = 1u << 21,/* reserved */
};

/* Special registers. */
typedef enum {
    PTX_SREG_NONE = 0,
    PTX_SREG_TID, PTX_SREG_NTID, PTX_SREG_CTAID, PTX_SREG_NCTAID, /* take a component .x/.y/.z */
    PTX_SREG_LANEID, PTX_SREG_WARPID, PTX_SREG_NWARPID, PTX_SREG_SMID, PTX_SREG_NSMID,
    PTX_SREG_GRIDID, PTX_SREG_CLOCK, PTX_SREG_CLOCK_HI, PTX_SREG_CLOCK64, PTX_SREG_GLOBALTIMER,
    PTX_SREG_LANEMASK_EQ, PTX_SREG_LANEMASK_LE, PTX_SREG_LANEMASK_LT,
    PTX_SREG_LANEMASK_GE, PTX_SREG_LANEMASK_GT,
    PTX_SREG_DYNAMIC_SMEM_SIZE, PTX_SREG_TOTAL_SMEM_SIZE,
    PTX_SREG_ENVREG1, PTX_SREG_ENVREG2, /* the grid-sync workspace of a cooperative launch: high, low 32 bits */
    PTX_SREG_COUNT
} ptx_sreg;

/* ---- operands ----------------------------------------------------------- */
typedef enum {
    PTX_OPND_NONE = 0,
    PTX_OPND_REG,     /* value register: reg = index into the function's value registers */
    PTX_OPND_PRED,    /* predicate register: reg = index into the function's predicates; neg = '!' */
    PTX_OPND_IMM,     /* immediate: bits in imm (int as two's complement; f32/f64 as IEEE bits) */
    PTX_OPND_SREG,    /* special register: sreg + comp (0=x,1=y,2=z) */
    PTX_OPND_ADDR,    /* memory address [base + imm]; see addr_base */
    PTX_OPND_SYMADDR, /* the address of a variable as a value (mov %r, sym; cvta ... sym):
                         resolved like ADDR with addr_base SYM/LOCAL/... but yields the address */
    PTX_OPND_VEC,     /* { r0, r1[, ... r7] }: vec[] holds register indices (PTX_REG_SINK for '_');
                         more than 4 elements only in tensor-core fragments (wmma) */
    PTX_OPND_LABEL,   /* branch target: imm = instruction index */
    PTX_OPND_FUNC,    /* call target: imm = function index in the module */
    PTX_OPND_SINK     /* '_' destination */
} ptx_opnd_kind;

/* What an address operand is relative to. */
typedef enum {
    PTX_ABASE_NONE = 0, /* absolute: imm is the address (after symbol resolution) */
    PTX_ABASE_REG,      /* reg holds the base; imm is the byte offset */
    PTX_ABASE_SYM,      /* module variable sym (index into module->vars); imm = offset.
                           The runtime resolves it to ABASE_NONE at load (ptx_var.addr). */
    PTX_ABASE_FRAME,    /* per-thread call frame of the current function: imm = frame offset.
                           Used for function-scope .local variables (the depot) and for
                           .param variables of .func formals and call sites. */
    PTX_ABASE_KPARAM    /* kernel parameter buffer: imm = offset */
} ptx_addr_base;

#define PTX_REG_SINK 0xFFFFFFFFu
/* Elements of a VEC operand: 4 for ld/st/tex, 8 for a wmma fragment. */
#define PTX_VEC_MAX 8

typedef struct {
    uint8_t kind;       /* ptx_opnd_kind */
    uint8_t neg;        /* PRED: logical not ('!%p') */
    uint8_t comp;       /* SREG component 0..2; VEC: element count */
    uint8_t addr_base;  /* ADDR/SYMADDR: ptx_addr_base */
    uint8_t vec_imm;    /* VEC: bit i set = element i is an immediate whose bits are vec[i]
                           (nvcc packs bf16 as `mov.b32 %f1, {0, %rs1};`); only in
                           mov sources and st values, elements of at most 32 bits */
    /* A VEC operand uses neither reg nor imm: its elements share their storage, so
     * that 8-element wmma fragments cost no instruction any more bytes (40 an
     * operand).  Only a VEC operand may touch vec[], only the others reg and imm. */
    union {
        struct {
            uint32_t reg;   /* REG/PRED index; SREG: ptx_sreg; ADDR base register; SYM: var index */
            int64_t imm;    /* IMM bits, ADDR offset, LABEL/FUNC index */
        };
        uint32_t vec[PTX_VEC_MAX]; /* VEC: register indices (value regs, or PTX_REG_SINK) */
    };
} ptx_operand;

/* Whether element e of a VEC operand names a register (not '_', not an immediate):
 * what the scoreboard, the register banks and liveness must look at. */
static inline int ptx_vec_elem_is_reg(const ptx_operand *o, uint32_t e) {
    return o->vec[e] != PTX_REG_SINK && !((o->vec_imm >> e) & 1);
}

/* ---- instructions ------------------------------------------------------- */
#define PTX_MAX_OPNDS 6  /* e.g. shfl.sync d|p, a, b, c, mask; setp.and d|p, a, b, c */

typedef struct {
    uint16_t op;        /* ptx_opcode */
    uint8_t type;       /* main (destination / operation) type; mul/mad .wide: the source
                           type (the destination is twice as wide); set: destination type */
    uint8_t type2;      /* cvt: source type; set: compare (source) type; slct: type of c;
                           dp4a/dp2a: type of b (type is a's); setp: unused (type is the
                           compare type) */
    uint8_t space;      /* ld/st/atom/red/cvta/isspacep: ptx_space */
    uint8_t cmp;        /* setp/set: ptx_cmp */
    uint8_t boolop;     /* setp/set: ptx_boolop */
    uint8_t rnd;        /* ptx_rnd */
    uint8_t mode;       /* atom/red/redux: ptx_atomop; shfl: ptx_shflmode; vote: ptx_votemode;
                           match: ptx_matchmode; testp: ptx_testpmode; prmt: ptx_prmtmode;
                           bar.red: ptx_atomop (AND/OR/POPC); membar/fence: ptx_scope;
                           tex/tld4/suld/sust: ptx_texgeom */
    uint8_t vec;        /* ld/st vector width: 1, 2 or 4 */
    uint8_t nopnd;      /* operands used in opnd[] */
    uint8_t ndst;       /* how many leading operands are destinations (0, 1 or 2: setp p|q) */
    uint32_t flags;     /* PTX_F_* */
    uint32_t guard;     /* guard predicate index, or PTX_NO_GUARD */
    uint8_t guard_neg;  /* @!%p */
    uint8_t aux;        /* tex: ptx_texvariant; tld4: component (0 r .. 3 a); suld/sust:
                           ptx_surfclamp; txq/suq: ptx_texquery; tensor-core instructions:
                           PTX_MMA_* bits (see below) */
    uint8_t dtype;      /* wmma.mma / mma: type of D (type, type2: A, B) */
    uint8_t ctype;      /* wmma.mma / mma: type of C */
    uint32_t reconv;    /* BRA: immediate post-dominator instruction index (function's
                           ninsn = exit) -- where divergent paths of this branch rejoin */
    uint32_t call;      /* CALL: index into the function's calls[] */
    uint32_t line;      /* source line (1-based) for diagnostics */
    uint32_t vsel;      /* SIMD video (vadd4 ...): PTX_VSEL_* fields below */
    ptx_operand opnd[PTX_MAX_OPNDS];
} ptx_insn;

/* SIMD video instructions, vop2 / vop4 d{.mask}, a{.asel}, b{.bsel}, c: type is the
 * destination's type, type2 a's, aux b's (each .u32 or .s32); mode 1 = secondary
 * accumulate (.add), 0 = SIMD merge; PTX_F_SAT = .sat.  vsel holds, per element i
 * (0..3 bytes, or 0..1 half-words), the source element asel / bsel picks from the
 * pair {b, a} (a's elements first: 0..7 bytes, 0..3 half-words), 3 bits each, and
 * the .mask bits. */
#define PTX_VSEL_A(i)   (3u * (i))          /* asel of element i: bits 0..11 */
#define PTX_VSEL_B(i)   (12u + 3u * (i))    /* bsel of element i: bits 12..23 */
#define PTX_VSEL_MASK   24u                 /* element i enabled: bit 24 + i */

#define PTX_NO_GUARD 0xFFFFFFFFu

/* Tensor-core instructions (src/exec/tensor.c, docs/tensor.md).  mode holds the
 * shape; types: .f16 .bf16 .f32 .s8 .u8 .s32 as themselves, .tf32 as PTX_T_B32
 * (its bits are an f32's).
 *   wmma.load.{a,b,c}  d, [addr][, stride]   d: VEC of the fragment's registers;
 *                      type: the element type; aux: fragment | layout
 *   wmma.store.d       [addr], a[, stride]   (stride: REG or IMM, in elements;
 *                      absent: the tile is packed)
 *   wmma.mma, mma      d, a, b, c            VECs; type, type2: A's and B's element types,
 *                      dtype, ctype: D's and C's; aux: A layout | B layout << 1;
 *                      PTX_F_SAT: .satfinite
 *   ldmatrix           d, [addr]             d: VEC of 1, 2 or 4 .b32; space .shared;
 *                      aux: the count (1, 2, 4) | PTX_MMA_TRANS */
typedef enum {
    PTX_SHAPE_NONE = 0,
    PTX_SHAPE_M16N16K16, PTX_SHAPE_M32N8K16, PTX_SHAPE_M8N32K16, PTX_SHAPE_M16N16K8,  /* wmma */
    PTX_SHAPE_M16N8K16, PTX_SHAPE_M16N8K8, PTX_SHAPE_M16N8K32,                        /* mma */
    PTX_SHAPE_M8N8                                                                     /* ldmatrix */
} ptx_mma_shape;
enum { PTX_FRAG_A = 0, PTX_FRAG_B = 1, PTX_FRAG_C = 2, PTX_FRAG_D = 3 };
#define PTX_MMA_FRAG(aux) ((aux) & 3u)     /* wmma.load/store: the fragment */
#define PTX_MMA_COL 4u                     /* wmma.load/store: .col (else .row) */
#define PTX_MMA_TRANS 8u                   /* ldmatrix: .trans */
/* m, n, k of a shape (ldmatrix's m8n8: 8, 8, 0). */
void ptx_mma_dims(ptx_mma_shape s, uint32_t *m, uint32_t *n, uint32_t *k);
/* Whether op is one of the tensor-core instructions (wmma, mma, ldmatrix). */
static inline int ptx_op_is_tensor(uint32_t op) {
    return op == PTX_OP_WMMA_LOAD || op == PTX_OP_WMMA_STORE || op == PTX_OP_WMMA_MMA || op == PTX_OP_MMA ||
           op == PTX_OP_LDMATRIX;
}

/* The value of a function's address (mov.u64 %rd, f; a function name in a .global
 * initializer, as in a C++ vtable): PTX_FUNC_ADDR_BASE + PTX_FUNC_ADDR_STRIDE x its
 * index in module->funcs.  Below the driver's region and the instruction addresses
 * the caches see, and never mapped, so a load through one faults. */
#define PTX_FUNC_ADDR_BASE 0x00000000E0000000ull
#define PTX_FUNC_ADDR_STRIDE 16u

/* Operand layout by opcode (opnd[0..ndst-1] are the destinations):
 *   arithmetic / logic   d, a[, b[, c]]   bfi: d, a (field), b (base), pos, len   lop3: d, a, b, c, lut
 *   setp                 p[, q], a, b[, c]   ndst 1 or 2; c (a PRED) with .and/.or/.xor
 *   set                  d, a, b[, c]        selp / slct: d, a, b, c
 *   mov                  d, a   d or a may be VEC (unpack / pack); a may be SREG, SYMADDR
 *                               (address of a variable) or FUNC
 *   (any predicate source -- and.pred, mov.pred, selp c, setp c, vote a, bar.red c --
 *    may be an IMM 0/1, as ptxas accepts)
 *   cvt                  d, a[, b]   (b: second source of cvt.*.f16x2/bf16x2.f32)
 *   cvta                 d, a   a is a register or SYMADDR
 *   ld / ldu             d, [addr]   d is REG or VEC (vec 2/4; '_' elements are SINK)
 *   st                   [addr], a   a is REG, IMM or VEC
 *   atom                 d, [addr], b[, c]   (cas: b = compare, c = new value)
 *   red                  [addr], b
 *   prefetch(u)          [addr]      isspacep / testp: p, a
 *   bra                  LABEL (imm = instruction index; may equal ninsn = return)
 *   call                 FUNC (imm = callee); arguments in calls[insn.call]
 *   bar (and barrier, decoded as bar)   .sync: a[, b]   .arrive: a, b   .warp.sync: mask
 *   bar.red              d, a, b, c   b is NONE when omitted; c is a PRED (maybe negated)
 *   shfl                 d, p, a, b, c[, mask]   ndst 2; p is SINK when no |p was written
 *   vote                 d, p[, mask]            match: d, p, a, mask (p SINK for .any)
 *   redux                d, a, mask      activemask: d      nanosleep: a
 *   tex                  d, h, c[, lod | dPdx, dPdy]   d: VEC of 4 (type: .f32/.s32/.u32);
 *                        h: REG holding the texture object; c: VEC of 1..4 coordinates
 *                        (type2: .f32/.s32; .a1d/.a2d: element 0 is the .s32 layer)
 *   tld4                 d, h, c     (2d; aux = component)
 *   txq / suq            d, h        (aux = query)
 *   suld.b               d, h, c     d: REG or VEC (vec 1/2/4 of .b8-.b64); c: x in bytes, y, z
 *   sust.b               h, c, a     a: REG or VEC
 *   mbarrier (mode, aux: ptx_mbarmode, PTX_MBAR_*; space SHARED or NONE = generic)
 *     init               [addr], count          inval: [addr]
 *     arrive{_drop}      state, [addr][, count]   state: b64 REG or SINK ('_'); with
 *                        .expect_tx opnd[2] is the tx-count (the arrival count is 1)
 *     expect_tx / complete_tx   [addr], txCount
 *     test_wait / try_wait       p, [addr], state (b64) | parity (u32, .parity)[, hint]
 *   mbarrier.pending_count       d, state
 *   cp.async.mbarrier.arrive     [addr]   (aux: PTX_MBAR_NOINC)
 * Immediates are already in the bits of the operand's type (see ptx_operand.imm);
 * sources of shift amounts, bfe/bfi positions, shfl lanes and masks are u32.
 * ld.param/st.param with an ABASE_REG address (nvcc: __grid_constant__ parameters)
 * use what mov of a param symbol produced: a kernel-parameter offset (SYMADDR
 * KPARAM) in an .entry, a frame address (SYMADDR FRAME) in a .func. */

/* A call site: call[.uni] (ret_0, ...), func, (arg_0, ...);
 * Arguments and return slots are frame offsets in the CALLER's frame (the call-site
 * .param variables) -- or registers/immediates where PTX allows them. */
#define PTX_CALL_MAX_RETS 8  /* return values of one call (real PTX has up to 4) */
typedef struct {
    uint32_t func;          /* callee: index into module->funcs (0 and unused when indirect) */
    uint8_t nargs, nrets;
    uint8_t indirect;       /* call (rets), %reg, (args), prototype: the callee is the function
                               whose address (PTX_FUNC_ADDR) the call instruction's opnd[1]
                               holds, lane by lane */
    ptx_operand args[16];   /* ADDR with ABASE_FRAME (param var), REG or IMM */
    ptx_operand rets[PTX_CALL_MAX_RETS];
    uint32_t line;
} ptx_call;

/* Formal parameter of an .entry (kernel buffer) or .func (callee frame). */
typedef struct {
    char *name;
    uint8_t type;           /* scalar type, or B8 for .b8 arrays */
    uint32_t size;          /* bytes (arrays: element size * count) */
    uint32_t align;
    uint32_t offset;        /* entry: offset in kernel param buffer; func: frame offset */
    uint8_t is_ptr;         /* .ptr attribute seen */
    uint8_t is_reg;         /* .func .reg formal (old-style ABI, and the only way to
                               return more than one value): lives in register reg */
    uint32_t reg;           /* is_reg: value register index in the callee */
} ptx_param;

typedef struct ptx_function {
    char *name;
    int is_entry;           /* .entry (kernel) vs .func */
    int is_extern;          /* .extern .func with no body (e.g. vprintf) */
    int is_visible;
    uint32_t line;

    ptx_insn *insns;
    uint32_t ninsn;

    uint32_t nregs;         /* value registers (each is 64 bits per lane) */
    uint32_t npreds;        /* predicate registers */
    char **reg_names;       /* nregs names, for diagnostics and the disassembler */
    uint8_t *reg_types;     /* declared type of each value register */
    char **pred_names;

    ptx_param *params;      /* formals */
    uint32_t nparams;
    ptx_param *rets;        /* .func return params */
    uint32_t nrets;

    ptx_call *calls;
    uint32_t ncalls;

    uint32_t frame_size;    /* per-thread bytes of the call frame: .local vars + .param vars
                               (formals, returns, call-site params) */
    uint32_t frame_align;

    /* performance directives, kept for occupancy checks */
    uint32_t maxntid[3], reqntid[3], minnctapersm, maxnreg;
    uint32_t ptxas_regs;    /* .entry: registers per thread from a ptxas listing
                               (locsim_module_set_ptxas_listing); 0 = none, estimate */

    uint64_t code_addr;     /* byte address of the first instruction in the simulated
                               instruction memory (8 bytes an instruction, as GPGPU-Sim's
                               PTX instructions); set by the runtime at load */
    uint32_t kparam_size;   /* .entry: bytes of the kernel parameter buffer (params laid
                               out at their offsets, rounded up to the largest alignment) */

    /* Value registers a new warp must have zeroed (ptx_find_zero_regs): those a
     * thread may read before writing them, and shfl sources.  When
     * !zero_regs_known (calls, indirect branches, out of memory), all of them. */
    uint32_t *zero_regs;
    uint32_t nzero_regs;
    int zero_regs_known;

    /* The executor's storage of value registers (ptx_assign_reg_slots): register r
     * lives in row reg_slot[r] of a frame of nslots rows.  Registers never live at
     * the same time share a row; the identity (nslots = nregs) where the analysis
     * cannot follow the code.  Everything else (scoreboard, register banks, types,
     * names) keeps the PTX register numbers. */
    uint32_t *reg_slot;
    uint32_t nslots;

    char *unsupported;      /* PTX_PARSE_LAZY: the first unsupported instruction or special
                               register of the body ("file:line:col: unsupported: ..."), whose
                               statement was left out; the function must not run (NULL: none) */
} ptx_function;

/* A module-scope variable: .global, .const, .shared (static or .extern dynamic). */
typedef struct {
    char *name;
    uint8_t space;          /* GLOBAL, CONST, SHARED, LOCAL */
    uint8_t type;
    uint8_t is_extern;      /* .extern .shared (dynamic shared memory) */
    uint8_t is_managed;     /* .global .attribute(.managed): a __managed__ variable */
    uint32_t align;
    uint64_t size;          /* bytes (0 for .extern arrays of unknown size) */
    uint8_t *init;          /* initializer bytes (size bytes), or NULL for zero */
    uint32_t *init_sym;     /* NULL, or per-8-byte-slot var/func index + 1 for address initializers:
                               slot i (bytes 8i..8i+7) holds the address of var (init_sym[i]-1),
                               or of function ((init_sym[i] & ~PTX_INIT_SYM_FUNC) - 1) when the
                               PTX_INIT_SYM_FUNC bit is set, plus the offset already stored in
                               those init bytes (`= {sym+8}`, `generic(sym)`); 0 = plain data */
    uint32_t line;
    uint64_t addr;          /* filled by the runtime at load: device address (global/const)
                               or offset in the CTA's shared window (shared) */
} ptx_var;

#define PTX_INIT_SYM_FUNC 0x80000000u

typedef struct ptx_module {
    char *source_name;      /* file name for diagnostics */
    uint32_t version_major, version_minor;
    uint32_t target_sm;     /* from .target sm_XX */
    uint32_t address_size;  /* 64 */
    ptx_function *funcs;
    uint32_t nfuncs;
    ptx_var *vars;
    uint32_t nvars;
} ptx_module;

/* ---- front-end entry points (src/ptx/) ----------------------------------- */
typedef struct {
    char file[256];
    uint32_t line, col;
    char msg[512];
} ptx_error;

/* Parse PTX text (len bytes, need not be NUL-terminated).  On success returns a
 * module; on failure returns NULL and fills *err: file/line/col, and msg holds the
 * whole line "file:line:col: message" ready to print.  err may be NULL. */
ptx_module *ptx_parse(const char *text, size_t len, const char *source_name, ptx_error *err);
/* PTX_PARSE_LAZY: an unsupported opcode or special register in a function body does
 * not fail the module: the statement is left out and the function records why in
 * ptx_function.unsupported (see ptx_function_unsupported), so the module's other
 * kernels still run.  Malformed PTX still fails the parse. */
#define PTX_PARSE_LAZY 1u
ptx_module *ptx_parse_ex(const char *text, size_t len, const char *source_name, unsigned flags, ptx_error *err);
/* Why function fi cannot run: its own or a callee's (transitively) unsupported
 * statement, or NULL when it can. */
const char *ptx_function_unsupported(const ptx_module *m, uint32_t fi);
/* The first tensor-core instruction function fi runs, itself or through a direct
 * call: 1 and its function and instruction index, 0 if none, -1 out of memory. */
int ptx_function_tensor_insn(const ptx_module *m, uint32_t fi, uint32_t *func, uint32_t *insn);
void ptx_module_free(ptx_module *m);

/* Lookups: index or -1. */
int ptx_find_function(const ptx_module *m, const char *name);
int ptx_find_var(const ptx_module *m, const char *name);

/* Check that every index in m is in range (registers, predicates, variables,
 * functions, labels, frame and parameter offsets, calls).  Returns 0, or -1 with
 * a description in msg.  Every module ptx_parse returns passes. */
int ptx_module_verify(const ptx_module *m, char *msg, size_t msgsz);

/* Write a human-readable line for insn (disassembly) into buf. */
void ptx_insn_format(const ptx_module *m, const ptx_function *f, const ptx_insn *in,
                     char *buf, size_t bufsz);

/* ---- liveness (liveness.c) ---------------------------------------------- */
/* Value registers live before (in) and after (out) each instruction: `words`
 * 64-bit words per instruction, register r is bit r % 64 of word r / 64. */
typedef struct {
    uint32_t words;
    uint64_t *in, *out;
} ptx_live;
/* 0, or -1 on out-of-memory (nothing to free then). */
int ptx_liveness(const ptx_function *f, ptx_live *L);
void ptx_live_free(ptx_live *L);
/* Set f->zero_regs: the registers whose initial value a thread can observe.
 * keep (may be NULL): the liveness it computed, for the caller to use and free
 * (keep->in is NULL when none was: zero_regs unknown). */
void ptx_find_zero_regs(ptx_function *f, ptx_live *keep);
/* Set the bits of the registers instruction in reads (use) and writes (def). */
void ptx_uses_defs(const ptx_insn *in, uint64_t *use, uint64_t *def, uint32_t nregs);

/* ---- register slots (regslots.c) ---------------------------------------- */
/* Set f->reg_slot and f->nslots: the row of the executor's register file that
 * holds each value register (registers never live together share one).  L: the
 * liveness ptx_find_zero_regs kept (none: the identity).  -1 on out-of-memory
 * (nothing set). */
int ptx_assign_reg_slots(ptx_function *f, const ptx_live *L);

#endif
