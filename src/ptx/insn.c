/* Decoding one PTX instruction statement into a ptx_insn.
 *
 *   [@[!]pred] opcode{.modifier} operand {, operand} ;
 *
 * Three steps:
 *   1. the opcode name (opcodes.def, plus the carry forms addc/subc/madc);
 *   2. its modifiers: each is looked up in one dictionary, but only among the
 *      classes the opcode accepts -- ".lo" is a comparison for setp and the low
 *      half for mul, ".and" a boolean for setp and an operation for atom -- and
 *      one the opcode does not accept is an error naming it;
 *   3. the operands: parsed into a raw list, then checked and resolved per opcode
 *      (registers to indices, literals to typed bits, names to frame / kernel
 *      parameter / variable addresses, labels to fixups).
 *
 * Operand layout in the IR (opnd[0..ndst-1] are destinations):
 *   arithmetic/logic     d, a[, b[, c]]   bfi: d, a (field), b (base), pos, len   lop3: d, a, b, c, lut
 *   setp                 p[, q], a, b[, c]        (ndst 1 or 2; c with .and/.or/.xor)
 *   set                  d, a, b[, c]
 *   selp / slct          d, a, b, c
 *   mov                  d, a       d or a may be VEC (pack/unpack); a may be SREG,
 *                                   SYMADDR (address of a variable) or FUNC
 *   cvt                  d, a[, b]  (b: second source of cvt.*.f16x2/bf16x2.f32)
 *   cvta                 d, a       a is a register or SYMADDR
 *   ld / ldu             d, [addr]  d is REG or VEC (vec = 2/4)
 *   st                   [addr], a  a is REG, IMM or VEC
 *   atom                 d, [addr], b[, c]   (cas: b = compare, c = new value)
 *   red                  [addr], b
 *   prefetch(u)          [addr]
 *   isspacep             p, a
 *   testp                p, a
 *   bra                  LABEL (imm = instruction index; may equal ninsn)
 *   call                 FUNC (imm = callee index); arguments in calls[insn.call]
 *   bar.sync / barrier   a[, b]    bar.arrive: a, b    bar.warp.sync: mask
 *   bar.red              d, a, b, c   (b is NONE when omitted; c is a PRED, maybe negated)
 *   shfl                 d, p, a, b, c[, mask]   (p is SINK when no |p was written)
 *   vote                 d, p[, mask]     match: d, p, a, mask (p SINK for .any)
 *   redux                d, a, mask       activemask: d     nanosleep: a
 */
#include "ptx/parse.h"

#include <stdio.h>
#include <string.h>

/* ---- modifier classes -------------------------------------------------- */
enum {
    C_TYPE = 1u << 0, C_SPACE = 1u << 1, C_RND = 1u << 2, C_CMP = 1u << 3, C_BOOL = 1u << 4,
    C_ATOM = 1u << 5, C_FLAG = 1u << 6, C_SHFL = 1u << 7, C_VOTE = 1u << 8, C_MATCH = 1u << 9,
    C_TESTP = 1u << 10, C_VEC = 1u << 11, C_PRMT = 1u << 12, C_SCOPE = 1u << 13, C_SEM = 1u << 14,
    C_CACHE = 1u << 15, C_LEVEL = 1u << 16, C_ALIGNED = 1u << 17, C_NOFTZ = 1u << 18,
    C_DIR = 1u << 19, C_SHFMODE = 1u << 20, C_GEOM = 1u << 21, C_TEXVAR = 1u << 22, C_COMP = 1u << 23,
    C_SUMODE = 1u << 24, C_BOUND = 1u << 25, C_QUERY = 1u << 26
};

typedef struct {
    const char *name;
    uint8_t len;
    uint32_t cls;
    uint32_t value;
} modifier;

#define M(s, c, v) {s, sizeof(s) - 1, c, v}
static const modifier modifiers[] = {
    /* spaces */
    M(".global", C_SPACE, PTX_SPACE_GLOBAL), M(".shared", C_SPACE, PTX_SPACE_SHARED),
    M(".shared::cta", C_SPACE, PTX_SPACE_SHARED), M(".local", C_SPACE, PTX_SPACE_LOCAL),
    M(".const", C_SPACE, PTX_SPACE_CONST), M(".param", C_SPACE, PTX_SPACE_PARAM),
    /* rounding */
    M(".rn", C_RND, PTX_RND_RN), M(".rz", C_RND, PTX_RND_RZ), M(".rm", C_RND, PTX_RND_RM),
    M(".rp", C_RND, PTX_RND_RP), M(".rni", C_RND, PTX_RND_RNI), M(".rzi", C_RND, PTX_RND_RZI),
    M(".rmi", C_RND, PTX_RND_RMI), M(".rpi", C_RND, PTX_RND_RPI), M(".rna", C_RND, PTX_RND_RNA),
    /* comparisons */
    M(".eq", C_CMP, PTX_CMP_EQ), M(".ne", C_CMP, PTX_CMP_NE), M(".lt", C_CMP, PTX_CMP_LT),
    M(".le", C_CMP, PTX_CMP_LE), M(".gt", C_CMP, PTX_CMP_GT), M(".ge", C_CMP, PTX_CMP_GE),
    M(".lo", C_CMP, PTX_CMP_LO), M(".ls", C_CMP, PTX_CMP_LS), M(".hi", C_CMP, PTX_CMP_HI),
    M(".hs", C_CMP, PTX_CMP_HS), M(".equ", C_CMP, PTX_CMP_EQU), M(".neu", C_CMP, PTX_CMP_NEU),
    M(".ltu", C_CMP, PTX_CMP_LTU), M(".leu", C_CMP, PTX_CMP_LEU), M(".gtu", C_CMP, PTX_CMP_GTU),
    M(".geu", C_CMP, PTX_CMP_GEU), M(".num", C_CMP, PTX_CMP_NUM), M(".nan", C_CMP, PTX_CMP_NAN),
    /* boolean combination (setp/set) */
    M(".and", C_BOOL, PTX_BOOL_AND), M(".or", C_BOOL, PTX_BOOL_OR), M(".xor", C_BOOL, PTX_BOOL_XOR),
    /* atomic / reduction operations */
    M(".add", C_ATOM, PTX_ATOM_ADD), M(".min", C_ATOM, PTX_ATOM_MIN), M(".max", C_ATOM, PTX_ATOM_MAX),
    M(".and", C_ATOM, PTX_ATOM_AND), M(".or", C_ATOM, PTX_ATOM_OR), M(".xor", C_ATOM, PTX_ATOM_XOR),
    M(".exch", C_ATOM, PTX_ATOM_EXCH), M(".cas", C_ATOM, PTX_ATOM_CAS), M(".inc", C_ATOM, PTX_ATOM_INC),
    M(".dec", C_ATOM, PTX_ATOM_DEC), M(".popc", C_ATOM, PTX_ATOM_POPC),
    /* flags */
    M(".ftz", C_FLAG, PTX_F_FTZ), M(".sat", C_FLAG, PTX_F_SAT), M(".approx", C_FLAG, PTX_F_APPROX),
    M(".full", C_FLAG, PTX_F_APPROX), M(".hi", C_FLAG, PTX_F_HI), M(".lo", C_FLAG, PTX_F_LO),
    M(".wide", C_FLAG, PTX_F_WIDE), M(".uni", C_FLAG, PTX_F_UNI), M(".nc", C_FLAG, PTX_F_NC),
    M(".volatile", C_FLAG, PTX_F_VOLATILE), M(".cc", C_FLAG, PTX_F_CC),
    M(".shiftamt", C_FLAG, PTX_F_SHIFTAMT), M(".sync", C_FLAG, PTX_F_SYNC),
    M(".arrive", C_FLAG, PTX_F_ARRIVE), M(".red", C_FLAG, PTX_F_RED), M(".warp", C_FLAG, PTX_F_WARP),
    M(".to", C_FLAG, PTX_F_TO), M(".NaN", C_FLAG, PTX_F_NAN), M(".relu", C_FLAG, PTX_F_RELU),
    /* shfl / vote / match / testp / prmt modes */
    M(".up", C_SHFL, PTX_SHFL_UP), M(".down", C_SHFL, PTX_SHFL_DOWN), M(".bfly", C_SHFL, PTX_SHFL_BFLY),
    M(".idx", C_SHFL, PTX_SHFL_IDX),
    M(".all", C_VOTE, PTX_VOTE_ALL), M(".any", C_VOTE, PTX_VOTE_ANY), M(".uni", C_VOTE, PTX_VOTE_UNI),
    M(".ballot", C_VOTE, PTX_VOTE_BALLOT),
    M(".any", C_MATCH, PTX_MATCH_ANY), M(".all", C_MATCH, PTX_MATCH_ALL),
    M(".finite", C_TESTP, PTX_TESTP_FINITE), M(".infinite", C_TESTP, PTX_TESTP_INFINITE),
    M(".number", C_TESTP, PTX_TESTP_NUMBER), M(".notanumber", C_TESTP, PTX_TESTP_NOTANUMBER),
    M(".normal", C_TESTP, PTX_TESTP_NORMAL), M(".subnormal", C_TESTP, PTX_TESTP_SUBNORMAL),
    M(".f4e", C_PRMT, PTX_PRMT_F4E), M(".b4e", C_PRMT, PTX_PRMT_B4E), M(".rc8", C_PRMT, PTX_PRMT_RC8),
    M(".ecl", C_PRMT, PTX_PRMT_ECL), M(".ecr", C_PRMT, PTX_PRMT_ECR), M(".rc16", C_PRMT, PTX_PRMT_RC16),
    /* vectors */
    M(".v2", C_VEC, 2), M(".v4", C_VEC, 4),
    /* shf */
    M(".l", C_DIR, 1), M(".r", C_DIR, 2), M(".wrap", C_SHFMODE, 1), M(".clamp", C_SHFMODE, 2),
    /* memory scopes and orderings: parsed, recorded for membar/fence, otherwise ignored */
    M(".cta", C_SCOPE, PTX_SCOPE_CTA), M(".gpu", C_SCOPE, PTX_SCOPE_GPU), M(".gl", C_SCOPE, PTX_SCOPE_GPU),
    M(".sys", C_SCOPE, PTX_SCOPE_SYS),
    M(".relaxed", C_SEM, 1), M(".acquire", C_SEM, 2), M(".release", C_SEM, 3), M(".acq_rel", C_SEM, 4),
    M(".sc", C_SEM, 5), M(".weak", C_SEM, 6),
    /* cache operators and eviction hints: no effect on results */
    M(".ca", C_CACHE, 0), M(".cg", C_CACHE, 0), M(".cs", C_CACHE, 0), M(".lu", C_CACHE, 0),
    M(".cv", C_CACHE, 0), M(".wb", C_CACHE, 0), M(".wt", C_CACHE, 0),
    M(".L1::evict_normal", C_CACHE, 0), M(".L1::evict_unchanged", C_CACHE, 0),
    M(".L1::evict_first", C_CACHE, 0), M(".L1::evict_last", C_CACHE, 0),
    M(".L1::no_allocate", C_CACHE, 0), M(".L2::evict_normal", C_CACHE, 0),
    M(".L2::evict_first", C_CACHE, 0), M(".L2::evict_last", C_CACHE, 0),
    M(".L2::64B", C_CACHE, 0), M(".L2::128B", C_CACHE, 0), M(".L2::256B", C_CACHE, 0),
    M(".L1", C_LEVEL, 1), M(".L2", C_LEVEL, 2),
    M(".aligned", C_ALIGNED, 0), M(".noftz", C_NOFTZ, 0),
    /* textures and surfaces; value 0 is never used so SET_ONCE sees a repeat
     * (geometry values 1..; unsupported geometries are named in decode_texture) */
    M(".1d", C_GEOM, PTX_GEOM_1D), M(".2d", C_GEOM, PTX_GEOM_2D), M(".3d", C_GEOM, PTX_GEOM_3D),
    M(".a1d", C_GEOM, PTX_GEOM_A1D), M(".a2d", C_GEOM, PTX_GEOM_A2D), M(".cube", C_GEOM, PTX_GEOM_CUBE),
    M(".acube", C_GEOM, 101), M(".2dms", C_GEOM, 102), M(".a2dms", C_GEOM, 103),
    M(".level", C_TEXVAR, 1 + PTX_TEX_LEVEL), M(".grad", C_TEXVAR, 1 + PTX_TEX_GRAD), M(".base", C_TEXVAR, 1),
    M(".r", C_COMP, 1), M(".g", C_COMP, 2), M(".b", C_COMP, 3), M(".a", C_COMP, 4),
    M(".b", C_SUMODE, 1), M(".p", C_SUMODE, 2),
    M(".trap", C_BOUND, 1 + PTX_SURF_TRAP), M(".clamp", C_BOUND, 1 + PTX_SURF_CLAMP),
    M(".zero", C_BOUND, 1 + PTX_SURF_ZERO),
    M(".width", C_QUERY, PTX_TXQ_WIDTH), M(".height", C_QUERY, PTX_TXQ_HEIGHT),
    M(".depth", C_QUERY, PTX_TXQ_DEPTH), M(".normalized_coords", C_QUERY, PTX_TXQ_NORMALIZED_COORDS),
    M(".force_unnormalized_coords", C_QUERY, PTX_TXQ_FORCE_UNNORMALIZED_COORDS),
    M(".filter_mode", C_QUERY, PTX_TXQ_FILTER_MODE), M(".addr_mode_0", C_QUERY, PTX_TXQ_ADDR_MODE_0),
    M(".addr_mode_1", C_QUERY, PTX_TXQ_ADDR_MODE_1), M(".addr_mode_2", C_QUERY, PTX_TXQ_ADDR_MODE_2),
    M(".array_size", C_QUERY, PTX_TXQ_ARRAY_SIZE), M(".num_mipmap_levels", C_QUERY, PTX_TXQ_NUM_MIPMAP_LEVELS),
    M(".num_samples", C_QUERY, PTX_TXQ_NUM_SAMPLES), M(".channel_data_type", C_QUERY, 100),
    M(".channel_order", C_QUERY, 101), M(".memory_layout", C_QUERY, 102),
};
#undef M

/* Modifier classes and flags each opcode accepts. */
typedef struct {
    uint32_t cls, flags;
} op_mods;

#define F(x) PTX_F_##x
static const op_mods op_mod_table[PTX_OP_COUNT] = {
    [PTX_OP_ADD] = {C_TYPE | C_RND | C_FLAG, F(FTZ) | F(SAT) | F(CC)},
    [PTX_OP_SUB] = {C_TYPE | C_RND | C_FLAG, F(FTZ) | F(SAT) | F(CC)},
    [PTX_OP_MUL] = {C_TYPE | C_RND | C_FLAG, F(FTZ) | F(SAT) | F(HI) | F(LO) | F(WIDE)},
    [PTX_OP_MAD] = {C_TYPE | C_RND | C_FLAG, F(FTZ) | F(SAT) | F(HI) | F(LO) | F(WIDE) | F(CC)},
    [PTX_OP_MUL24] = {C_TYPE | C_FLAG, F(HI) | F(LO)},
    [PTX_OP_MAD24] = {C_TYPE | C_FLAG, F(HI) | F(LO) | F(SAT)},
    [PTX_OP_SAD] = {C_TYPE, 0},
    [PTX_OP_DIV] = {C_TYPE | C_RND | C_FLAG, F(FTZ) | F(APPROX)},
    [PTX_OP_REM] = {C_TYPE, 0},
    [PTX_OP_ABS] = {C_TYPE | C_FLAG, F(FTZ)},
    [PTX_OP_NEG] = {C_TYPE | C_FLAG, F(FTZ)},
    [PTX_OP_MIN] = {C_TYPE | C_FLAG, F(FTZ) | F(NAN)},
    [PTX_OP_MAX] = {C_TYPE | C_FLAG, F(FTZ) | F(NAN)},
    [PTX_OP_POPC] = {C_TYPE, 0},
    [PTX_OP_CLZ] = {C_TYPE, 0},
    [PTX_OP_BFIND] = {C_TYPE | C_FLAG, F(SHIFTAMT)},
    [PTX_OP_BREV] = {C_TYPE, 0},
    [PTX_OP_BFE] = {C_TYPE, 0},
    [PTX_OP_BFI] = {C_TYPE, 0},
    [PTX_OP_PRMT] = {C_TYPE | C_PRMT, 0},
    [PTX_OP_SHF] = {C_TYPE | C_DIR | C_SHFMODE, 0},
    [PTX_OP_BMSK] = {C_TYPE | C_SHFMODE, 0},
    [PTX_OP_SHL] = {C_TYPE, 0},
    [PTX_OP_SHR] = {C_TYPE, 0},
    [PTX_OP_AND] = {C_TYPE, 0},
    [PTX_OP_OR] = {C_TYPE, 0},
    [PTX_OP_XOR] = {C_TYPE, 0},
    [PTX_OP_NOT] = {C_TYPE, 0},
    [PTX_OP_CNOT] = {C_TYPE, 0},
    [PTX_OP_LOP3] = {C_TYPE, 0},
    [PTX_OP_DP4A] = {C_TYPE, 0},
    [PTX_OP_DP2A] = {C_TYPE | C_FLAG, F(HI) | F(LO)},
    [PTX_OP_FMA] = {C_TYPE | C_RND | C_FLAG, F(FTZ) | F(SAT) | F(RELU)},
    [PTX_OP_RCP] = {C_TYPE | C_RND | C_FLAG, F(FTZ) | F(APPROX)},
    [PTX_OP_SQRT] = {C_TYPE | C_RND | C_FLAG, F(FTZ) | F(APPROX)},
    [PTX_OP_RSQRT] = {C_TYPE | C_FLAG, F(FTZ) | F(APPROX)},
    [PTX_OP_SIN] = {C_TYPE | C_FLAG, F(FTZ) | F(APPROX)},
    [PTX_OP_COS] = {C_TYPE | C_FLAG, F(FTZ) | F(APPROX)},
    [PTX_OP_LG2] = {C_TYPE | C_FLAG, F(FTZ) | F(APPROX)},
    [PTX_OP_EX2] = {C_TYPE | C_FLAG, F(FTZ) | F(APPROX)},
    [PTX_OP_TANH] = {C_TYPE | C_FLAG, F(APPROX)},
    [PTX_OP_COPYSIGN] = {C_TYPE, 0},
    [PTX_OP_TESTP] = {C_TYPE | C_TESTP, 0},
    [PTX_OP_SETP] = {C_TYPE | C_CMP | C_BOOL | C_FLAG, F(FTZ)},
    [PTX_OP_SET] = {C_TYPE | C_CMP | C_BOOL | C_FLAG, F(FTZ)},
    [PTX_OP_SELP] = {C_TYPE, 0},
    [PTX_OP_SLCT] = {C_TYPE | C_FLAG, F(FTZ)},
    [PTX_OP_MOV] = {C_TYPE, 0},
    [PTX_OP_CVT] = {C_TYPE | C_RND | C_FLAG, F(FTZ) | F(SAT) | F(RELU)},
    [PTX_OP_CVTA] = {C_TYPE | C_SPACE | C_FLAG, F(TO)},
    [PTX_OP_LD] = {C_TYPE | C_SPACE | C_FLAG | C_VEC | C_SCOPE | C_SEM | C_CACHE, F(NC) | F(VOLATILE)},
    [PTX_OP_LDU] = {C_TYPE | C_SPACE | C_VEC, 0},
    [PTX_OP_ST] = {C_TYPE | C_SPACE | C_FLAG | C_VEC | C_SCOPE | C_SEM | C_CACHE, F(VOLATILE)},
    [PTX_OP_ATOM] = {C_TYPE | C_SPACE | C_ATOM | C_SCOPE | C_SEM | C_NOFTZ | C_CACHE, 0},
    [PTX_OP_RED] = {C_TYPE | C_SPACE | C_ATOM | C_SCOPE | C_SEM | C_NOFTZ | C_CACHE, 0},
    [PTX_OP_PREFETCH] = {C_SPACE | C_LEVEL | C_CACHE, 0},
    [PTX_OP_PREFETCHU] = {C_LEVEL, 0},
    [PTX_OP_MEMBAR] = {C_SCOPE, 0},
    [PTX_OP_FENCE] = {C_SCOPE | C_SEM, 0},
    [PTX_OP_ISSPACEP] = {C_SPACE, 0},
    [PTX_OP_BRA] = {C_FLAG, F(UNI)},
    [PTX_OP_BRX] = {0, 0},
    [PTX_OP_CALL] = {C_FLAG, F(UNI)},
    [PTX_OP_RET] = {C_FLAG, F(UNI)},
    [PTX_OP_EXIT] = {0, 0},
    [PTX_OP_TRAP] = {0, 0},
    [PTX_OP_BRKPT] = {0, 0},
    [PTX_OP_NANOSLEEP] = {C_TYPE, 0},
    [PTX_OP_BAR] = {C_TYPE | C_FLAG | C_ATOM | C_ALIGNED | C_SCOPE, F(SYNC) | F(ARRIVE) | F(RED) | F(WARP)},
    [PTX_OP_BARRIER] = {C_TYPE | C_FLAG | C_ATOM | C_ALIGNED | C_SCOPE, F(SYNC) | F(ARRIVE) | F(RED)},
    [PTX_OP_SHFL] = {C_TYPE | C_SHFL | C_FLAG, F(SYNC)},
    [PTX_OP_VOTE] = {C_TYPE | C_VOTE | C_FLAG | C_ALIGNED, F(SYNC)},
    [PTX_OP_MATCH] = {C_TYPE | C_MATCH | C_FLAG, F(SYNC)},
    [PTX_OP_REDUX] = {C_TYPE | C_ATOM | C_FLAG, F(SYNC)},
    [PTX_OP_ACTIVEMASK] = {C_TYPE, 0},
    [PTX_OP_TEX] = {C_TYPE | C_GEOM | C_TEXVAR | C_VEC, 0},
    [PTX_OP_TLD4] = {C_TYPE | C_GEOM | C_COMP | C_VEC, 0},
    [PTX_OP_TXQ] = {C_TYPE | C_QUERY | C_TEXVAR, 0},
    [PTX_OP_SUQ] = {C_TYPE | C_QUERY, 0},
    [PTX_OP_SULD] = {C_TYPE | C_SUMODE | C_GEOM | C_VEC | C_BOUND | C_CACHE, 0},
    [PTX_OP_SUST] = {C_TYPE | C_SUMODE | C_GEOM | C_VEC | C_BOUND | C_CACHE, 0},
};
#undef F

/* PTX opcodes we know but do not implement: named as unsupported, not unknown. */
static const char *const unsupported_opcodes[] = {
    "sured", "istypep",
    "stmatrix", "movmatrix", "mapa", "getctarank", "elect", "szext", "bmsk",
    "fns", "applypriority", "discard", "createpolicy", "griddepcontrol", "stacksave",
    "stackrestore", "alloca", "multimem", "tensormap", "setmaxnreg", "vabsdiff",
    "vadd", "vsub", "vmad", "vmin", "vmax", "vshl", "vshr", "vset", "vset2", "vset4", "pmevent", "wgmma", "tcgen05", "clusterlaunchcontrol",
};

/* ---- collected modifiers ----------------------------------------------- */
typedef struct {
    ptx_type types[2];
    uint32_t ntypes;
    ptx_space space;
    int has_space;
    ptx_rnd rnd;
    ptx_cmp cmp;
    ptx_boolop boolop;
    ptx_atomop atom;
    uint32_t flags;
    uint32_t shfl, vote, match, testp, prmt, vec, dir, shfmode, scope, level;
    uint32_t geom, texvar, comp, sumode, bound, query;  /* texture / surface: value + 1 where 0 is valid */
    token first;             /* the opcode token, for messages */
    uint32_t cp;             /* cp.async modifiers seen (CP_* bits) */
    uint32_t mbar;           /* mbarrier modifiers seen (MB_* bits) */
    ptx_type vtypes[3];      /* SIMD video: .dtype.atype.btype */
    uint32_t nvtypes, vadd;  /* SIMD video: types seen; .add seen */
    /* tensor-core instructions (tensor_modifier) */
    uint32_t tsync, taligned, tshape, tfrag, tnum, ttrans, tsat;  /* value + 1 where 0 is valid */
    uint32_t tlayout[2], nlayout;    /* 1 row, 2 col */
    ptx_type ttypes[4];
    uint32_t nttypes;
} mods;

/* ---- raw operands ------------------------------------------------------ */
typedef enum { RO_NAME, RO_NUM, RO_ADDR, RO_VEC } raw_kind;

typedef struct {
    uint8_t kind;
    uint8_t neg;             /* '!' before a name, '-' before a number */
    uint8_t pipe;            /* followed by '|' (d|p pairs) */
    int8_t comp;             /* NAME.x/.y/.z: 0..2, else -1 */
    uint8_t has_sel;         /* NAME.b3210 / NAME.h10: a SIMD video selector or mask (sel) */
    token sel;
    token t;                 /* NAME / NUM token; ADDR: base; VEC: the '{' */
    int64_t off;             /* NAME+off (mov sym+4); ADDR offset */
    uint8_t base_is_num;     /* ADDR: [number] */
    uint8_t nelem;           /* VEC */
    token elem[PTX_VEC_MAX];
    uint8_t elem_neg[PTX_VEC_MAX];
} raw_opnd;

typedef struct {
    ptx_insn in;
    mods md;
    raw_opnd raw[PTX_MAX_OPNDS + 2];
    uint32_t nraw;
    const char *opname;      /* for messages */
} ictx;

static int name_eq(const token *t, const char *s)
{
    size_t n = strlen(s);
    return t->len == n && memcmp(t->text, s, n) == 0;
}

/* ---- step 1: opcode ---------------------------------------------------- */
static int lookup_opcode(const token *t, uint32_t *flags)
{
    static const struct {
        const char *name;
        uint8_t len;
    } names[PTX_OP_COUNT] = {
#define OP(e, name, cls) {name, sizeof(name) - 1},
#include "ptx/opcodes.def"
#undef OP
    };
    *flags = 0;
    for (int i = 0; i < PTX_OP_COUNT; i++)
        if (names[i].len == t->len && memcmp(names[i].name, t->text, t->len) == 0)
            return i;
    if (name_eq(t, "addc")) {
        *flags = PTX_F_CARRYIN;
        return PTX_OP_ADD;
    }
    if (name_eq(t, "subc")) {
        *flags = PTX_F_CARRYIN;
        return PTX_OP_SUB;
    }
    if (name_eq(t, "madc")) {
        *flags = PTX_F_CARRYIN;
        return PTX_OP_MAD;
    }
    if (name_eq(t, "cp")) /* cp.async...: the modifiers say which (cp_async_modifier) */
        return PTX_OP_CP_ASYNC;
    if (name_eq(t, "wmma")) /* wmma.load/.store/.mma: the first modifier says which (tensor_modifier) */
        return PTX_OP_WMMA_MMA;
    return -1;
}

/* ---- step 2: modifiers ------------------------------------------------- */
static void dup_fail(parser *P, const token *t, const char *what, const char *op)
{
    parse_fail_tok(P, t, "'%s' has more than one %s modifier ('%.*s')", op, what,
                   t->len > 40 ? 40 : (int)t->len, t->text);
}

#define SET_ONCE(field, val, what)                                                                   \
    do {                                                                                             \
        if (field)                                                                                   \
            dup_fail(P, t, what, c->opname);                                                         \
        field = (val);                                                                               \
    } while (0)

static void apply_modifier(parser *P, ictx *c, const token *t)
{
    const op_mods *om = &op_mod_table[c->in.op];
    mods *md = &c->md;
    if (om->cls & C_TYPE) {
        ptx_type ty = ptx_type_from_name(t->text, t->len);
        if (ty != PTX_T_NONE) {
            if (md->ntypes >= 2)
                parse_fail_tok(P, t, "'%s' has too many type modifiers", c->opname);
            md->types[md->ntypes++] = ty;
            return;
        }
    }
    for (size_t i = 0; i < sizeof(modifiers) / sizeof(modifiers[0]); i++) {
        const modifier *mo = &modifiers[i];
        if (mo->len != t->len || mo->name[1] != t->text[1] || memcmp(mo->name, t->text, t->len) != 0)
            continue;
        if (!(om->cls & mo->cls))
            continue;
        if (mo->cls == C_FLAG && !(om->flags & mo->value))
            continue;
        switch (mo->cls) {
        case C_SPACE:
            if (md->has_space)
                dup_fail(P, t, "state space", c->opname);
            md->space = (ptx_space)mo->value;
            md->has_space = 1;
            return;
        case C_RND: SET_ONCE(md->rnd, (ptx_rnd)mo->value, "rounding"); return;
        case C_CMP: SET_ONCE(md->cmp, (ptx_cmp)mo->value, "comparison"); return;
        case C_BOOL: SET_ONCE(md->boolop, (ptx_boolop)mo->value, "boolean"); return;
        case C_ATOM: SET_ONCE(md->atom, (ptx_atomop)mo->value, "operation"); return;
        case C_FLAG:
            if (md->flags & mo->value)
                dup_fail(P, t, "repeated", c->opname);
            md->flags |= mo->value;
            return;
        case C_SHFL: SET_ONCE(md->shfl, mo->value, "shuffle mode"); return;
        case C_VOTE: SET_ONCE(md->vote, mo->value, "vote mode"); return;
        case C_MATCH: SET_ONCE(md->match, mo->value, "match mode"); return;
        case C_TESTP: SET_ONCE(md->testp, mo->value, "test"); return;
        case C_PRMT: SET_ONCE(md->prmt, mo->value, "permute mode"); return;
        case C_VEC: SET_ONCE(md->vec, mo->value, "vector"); return;
        case C_DIR: SET_ONCE(md->dir, mo->value, "direction"); return;
        case C_SHFMODE: SET_ONCE(md->shfmode, mo->value, "shift mode"); return;
        case C_SCOPE: SET_ONCE(md->scope, mo->value, "scope"); return;
        case C_LEVEL: SET_ONCE(md->level, mo->value, "cache level"); return;
        case C_GEOM: SET_ONCE(md->geom, mo->value, "geometry"); return;
        case C_TEXVAR: SET_ONCE(md->texvar, mo->value, "level-of-detail"); return;
        case C_COMP: SET_ONCE(md->comp, mo->value, "component"); return;
        case C_SUMODE: SET_ONCE(md->sumode, mo->value, "surface access"); return;
        case C_BOUND: SET_ONCE(md->bound, mo->value, "out-of-bounds"); return;
        case C_QUERY: SET_ONCE(md->query, mo->value, "query"); return;
        case C_CACHE:
            /* prefetch.L2::evict_last names its level through the hint */
            if (!md->level && mo->len > 5 && memcmp(mo->name, ".L2::", 5) == 0)
                md->level = 2;
            return;
        default: return; /* semantics, .aligned, .noftz: no effect */
        }
    }
    parse_unsupported(P, t, "unsupported modifier '%.*s' for '%s'", t->len > 40 ? 40 : (int)t->len, t->text,
                   c->opname);
}

/* ---- step 3: raw operands ---------------------------------------------- */
static void expect_kind(parser *P, int kind, const char *what)
{
    char buf[96];
    if (P->tok.kind != kind)
        parse_fail_tok(P, &P->tok, "expected %s, found %s", what, tok_text(&P->tok, buf, sizeof buf));
}

/* A signed integer: ['-'] INT (for address offsets). */
static int64_t parse_signed_int(parser *P, int neg)
{
    if (accept_punct(P, '-'))
        neg = !neg;
    expect_kind(P, TK_INT, "an integer offset");
    uint64_t v = P->tok.ival;
    if (v > (uint64_t)INT64_MAX + (neg ? 1u : 0u))
        parse_fail_tok(P, &P->tok, "address offset out of range");
    next_token(P);
    return neg ? (int64_t)(0 - v) : (int64_t)v;
}

static void parse_raw_addr(parser *P, raw_opnd *r)
{
    r->kind = RO_ADDR;
    next_token(P); /* '[' */
    r->t = P->tok;
    if (P->tok.kind == TK_IDENT) {
        next_token(P);
    } else if (P->tok.kind == TK_INT) {
        r->base_is_num = 1;
        next_token(P);
    } else {
        char buf[96];
        parse_fail_tok(P, &P->tok, "expected a register, symbol or address in '[ ]', found %s",
                       tok_text(&P->tok, buf, sizeof buf));
    }
    if (tok_is_punct(&P->tok, '+')) {
        next_token(P);
        r->off = parse_signed_int(P, 0);
    } else if (tok_is_punct(&P->tok, '-')) {
        next_token(P);
        r->off = parse_signed_int(P, 1);
    }
    expect_punct(P, ']', "']'");
}

/* { e [, e ...] } with 1..8 elements (registers or immediates, an immediate may be
 * negated), into r (kind RO_VEC); the current token is the '{'.  More than 4 only
 * make sense for a wmma fragment; the opcodes' own checks say so for the others. */
static void parse_vec_elements(parser *P, raw_opnd *r)
{
    r->kind = RO_VEC;
    r->t = P->tok;
    r->nelem = 0;
    expect_punct(P, '{', "'{'");
    do {
        if (r->nelem >= PTX_VEC_MAX)
            parse_fail_tok(P, &P->tok, "too many vector elements (at most %d)", PTX_VEC_MAX);
        int neg = accept_punct(P, '-');
        if (P->tok.kind != TK_IDENT && P->tok.kind != TK_INT && P->tok.kind != TK_FLOAT) {
            char buf[96];
            parse_fail_tok(P, &P->tok, "expected a register in vector, found %s", tok_text(&P->tok, buf, sizeof buf));
        }
        if (neg && P->tok.kind == TK_IDENT)
            parse_fail_tok(P, &P->tok, "unexpected '-' before a register");
        r->elem_neg[r->nelem] = (uint8_t)neg;
        r->elem[r->nelem++] = P->tok;
        next_token(P);
    } while (accept_punct(P, ','));
    expect_punct(P, '}', "'}' or ',' in vector operand");
}

static void parse_raw_vec(parser *P, raw_opnd *r)
{
    parse_vec_elements(P, r);
    /* { %r2 } is accepted by ptxas where a scalar data operand goes (ld/st); 8 only
     * in a wmma fragment, and the tensor decoders check every count they take */
    if (r->nelem != 1 && r->nelem != 2 && r->nelem != 4 && r->nelem != 8)
        parse_fail_tok(P, &r->t, "vector operand must have 1, 2, 4 or 8 elements, found %u", r->nelem);
}

/* A one-element vector { x } used as a scalar data operand (ptxas takes it for
 * ld/st): rewrite it as the plain operand x. */
static void unwrap_single_vec(raw_opnd *r)
{
    if (r->kind != RO_VEC || r->nelem != 1)
        return;
    r->t = r->elem[0];
    r->neg = r->elem_neg[0];
    r->kind = r->t.kind == TK_IDENT ? RO_NAME : RO_NUM;
    r->nelem = 0;
}

static void parse_raw_operand(parser *P, raw_opnd *r)
{
    char buf[96];
    /* field by field: the token arrays are only read for the kinds that set them */
    r->kind = RO_NAME;
    r->neg = r->pipe = r->base_is_num = r->nelem = r->has_sel = 0;
    r->comp = -1;
    r->off = 0;
    if (tok_is_punct(&P->tok, '[')) {
        parse_raw_addr(P, r);
        return;
    }
    if (tok_is_punct(&P->tok, '{')) {
        parse_raw_vec(P, r);
        return;
    }
    if (tok_is_punct(&P->tok, '!')) {
        r->neg = 1;
        next_token(P);
        expect_kind(P, TK_IDENT, "a predicate after '!'");
    } else if (tok_is_punct(&P->tok, '-')) {
        r->neg = 1;
        next_token(P);
        if (P->tok.kind != TK_INT && P->tok.kind != TK_FLOAT)
            parse_fail_tok(P, &P->tok, "expected a number after '-', found %s", tok_text(&P->tok, buf, sizeof buf));
    }
    r->t = P->tok;
    if (P->tok.kind == TK_INT || P->tok.kind == TK_FLOAT) {
        r->kind = RO_NUM;
        next_token(P);
        return;
    }
    if (P->tok.kind != TK_IDENT)
        parse_fail_tok(P, &P->tok, "expected an operand, found %s", tok_text(&P->tok, buf, sizeof buf));
    r->kind = RO_NAME;
    next_token(P);
    if (P->tok.kind == TK_DOTNAME) {
        if (tok_is(&P->tok, ".x"))
            r->comp = 0;
        else if (tok_is(&P->tok, ".y"))
            r->comp = 1;
        else if (tok_is(&P->tok, ".z"))
            r->comp = 2;
        else if (P->tok.len >= 3 && (P->tok.text[1] == 'b' || P->tok.text[1] == 'h') &&
                 P->tok.text[2] >= '0' && P->tok.text[2] <= '9') {
            r->has_sel = 1; /* checked by the video decoder; any other opcode refuses it */
            r->sel = P->tok;
        } else
            parse_fail_tok(P, &P->tok, "unexpected %s after operand", tok_text(&P->tok, buf, sizeof buf));
        next_token(P);
    } else if (tok_is_punct(&P->tok, '+') && !r->neg) {
        /* sym+offset (address of a variable plus a constant) */
        next_token(P);
        r->off = parse_signed_int(P, 0);
    }
}

/* Operands up to ';', separated by ',' or '|'. */
static void parse_raw_operands(parser *P, ictx *c)
{
    c->nraw = 0;
    if (tok_is_punct(&P->tok, ';'))
        return;
    if (P->tok.kind == TK_EOF || tok_is_punct(&P->tok, '}')) {
        char buf[96];
        parse_fail_tok(P, &P->tok, "expected ';' after instruction, found %s", tok_text(&P->tok, buf, sizeof buf));
    }
    for (;;) {
        if (c->nraw >= PTX_MAX_OPNDS + 1)
            parse_fail_tok(P, &P->tok, "too many operands for '%s'", c->opname);
        raw_opnd *r = &c->raw[c->nraw++];
        parse_raw_operand(P, r);
        if (tok_is_punct(&P->tok, '|')) {
            r->pipe = 1;
            next_token(P);
            continue;
        }
        if (!accept_punct(P, ','))
            break;
    }
}

/* ---- operand resolution ------------------------------------------------ */
static const struct {
    const char *name;
    ptx_sreg sreg;
    int has_comp;
} sregs[] = {
    {"%tid", PTX_SREG_TID, 1}, {"%ntid", PTX_SREG_NTID, 1}, {"%ctaid", PTX_SREG_CTAID, 1},
    {"%nctaid", PTX_SREG_NCTAID, 1}, {"%laneid", PTX_SREG_LANEID, 0}, {"%warpid", PTX_SREG_WARPID, 0},
    {"%nwarpid", PTX_SREG_NWARPID, 0}, {"%smid", PTX_SREG_SMID, 0}, {"%nsmid", PTX_SREG_NSMID, 0},
    {"%gridid", PTX_SREG_GRIDID, 0}, {"%clock", PTX_SREG_CLOCK, 0}, {"%clock_hi", PTX_SREG_CLOCK_HI, 0},
    {"%clock64", PTX_SREG_CLOCK64, 0}, {"%globaltimer", PTX_SREG_GLOBALTIMER, 0},
    {"%lanemask_eq", PTX_SREG_LANEMASK_EQ, 0}, {"%lanemask_le", PTX_SREG_LANEMASK_LE, 0},
    {"%lanemask_lt", PTX_SREG_LANEMASK_LT, 0}, {"%lanemask_ge", PTX_SREG_LANEMASK_GE, 0},
    {"%lanemask_gt", PTX_SREG_LANEMASK_GT, 0}, {"%dynamic_smem_size", PTX_SREG_DYNAMIC_SMEM_SIZE, 0},
    {"%total_smem_size", PTX_SREG_TOTAL_SMEM_SIZE, 0}, {"%envreg1", PTX_SREG_ENVREG1, 0},
    {"%envreg2", PTX_SREG_ENVREG2, 0},
};

static int lookup_sreg(const token *t)
{
    for (size_t i = 0; i < sizeof(sregs) / sizeof(sregs[0]); i++)
        if (name_eq(t, sregs[i].name))
            return (int)i;
    return -1;
}

#define NAMEFMT(t) ((t)->len > 64 ? 64 : (int)(t)->len), (t)->text

static _Noreturn void undefined_name(parser *P, const token *t)
{
    if (t->len && t->text[0] == '%') {
        if (lookup_sreg(t) < 0 && t->len > 1 &&
            (name_eq(t, "%envreg") || (t->len > 7 && memcmp(t->text, "%envreg", 7) == 0) ||
             (t->len > 3 && memcmp(t->text, "%pm", 3) == 0) ||
             (t->len > 8 && memcmp(t->text, "%cluster", 8) == 0) ||
             (t->len > 12 && memcmp(t->text, "%globaltimer", 12) == 0) ||
             (t->len > 10 && memcmp(t->text, "%reserved_", 10) == 0) || name_eq(t, "%aggr_smem_size") ||
             name_eq(t, "%is_explicit_cluster") || name_eq(t, "%current_graph_exec")))
            parse_unsupported(P, t, "unsupported special register '%.*s'", NAMEFMT(t));
        parse_fail_tok(P, t, "undefined register '%.*s'", NAMEFMT(t));
    }
    parse_fail_tok(P, t, "undefined symbol '%.*s'", NAMEFMT(t));
}

enum { ALLOW_IMM = 1, ALLOW_SREG = 2, ALLOW_SYM = 4, ALLOW_SINK = 8, ALLOW_NEG = 16, ALLOW_WIDER = 32,
       ANY_WIDTH = 64 };

/* A value register must be as wide as the operand's type (ptxas: "Arguments
 * mismatch"), or wider where PTX allows it (the data of ld/st/atom, cvt):
 * the executor relies on the width the instruction names.  The u32 side operands
 * (shift amounts, bit positions, lanes, masks, barrier ids) also take a wider
 * register, read as its low 32 bits: ptxas refuses that, but the meaning is plain
 * and hand-written tests use it. */
static int is_int_type(ptx_type t)
{
    return (t >= PTX_T_U8 && t <= PTX_T_U64) || (t >= PTX_T_S8 && t <= PTX_T_S64);
}

static void check_reg_width(parser *P, const token *t, const sym *s, ptx_type want, int allow)
{
    ptx_type rt = (ptx_type)s->type;
    /* kinds: an integer register cannot feed a floating-point operand nor the
     * reverse; bit-typed (.bN) registers go anywhere of their size */
    if (want != PTX_T_NONE && ((is_int_type(rt) && ptx_type_is_float(want)) ||
                               (ptx_type_is_float(rt) && is_int_type(want))))
        parse_fail_tok(P, t, "register '%.*s' is .%s, the operand is .%s", NAMEFMT(t), ptx_type_name(rt),
                       ptx_type_name(want));
    unsigned have = ptx_type_size(rt), need = ptx_type_size(want);
    if ((allow & ANY_WIDTH) || have == 0 || need == 0 || have == need || ((allow & ALLOW_WIDER) && have > need))
        return;
    parse_fail_tok(P, t, "register '%.*s' is .%s, the operand is %s%u-bit (.%s)", NAMEFMT(t),
                   ptx_type_name((ptx_type)s->type), (allow & ALLOW_WIDER) ? "at least " : "", need * 8,
                   ptx_type_name(want));
}

/* A register operand from a NAME (no immediates): a predicate when ty is .pred,
 * else a value register checked against ty's width (PTX_T_NONE: any width). */
static void resolve_reg(parser *P, const raw_opnd *r, ptx_type ty, int allow, ptx_operand *o)
{
    const token *t = &r->t;
    int want_pred = ty == PTX_T_PRED;
    memset(o, 0, sizeof(*o));
    if (r->kind != RO_NAME) {
        if (r->kind == RO_NUM)
            parse_fail_tok(P, t, "expected a %s register, found an immediate", want_pred ? "predicate" : "value");
        parse_fail_tok(P, t, "expected a %s register", want_pred ? "predicate" : "value");
    }
    if (r->comp >= 0 || r->off)
        parse_fail_tok(P, t, "unexpected component or offset on register '%.*s'", NAMEFMT(t));
    if ((allow & ALLOW_SINK) && name_eq(t, "_")) {
        o->kind = PTX_OPND_SINK;
        o->reg = PTX_REG_SINK;
        return;
    }
    uint32_t elem;
    sym *s = sym_lookup(P, t->text, t->len, &elem);
    if (!s)
        undefined_name(P, t);
    int is_pred = s->kind == SYM_PREG || s->kind == SYM_PRANGE;
    int is_val = s->kind == SYM_VREG || s->kind == SYM_VRANGE;
    if (!is_pred && !is_val)
        parse_fail_tok(P, t, "expected a register, found symbol '%.*s'", NAMEFMT(t));
    if (want_pred && !is_pred)
        parse_fail_tok(P, t, "expected a predicate register, found '%.*s'", NAMEFMT(t));
    if (!want_pred && is_pred)
        parse_fail_tok(P, t, "expected a value register, found predicate '%.*s'", NAMEFMT(t));
    if (r->neg && !(allow & ALLOW_NEG))
        parse_fail_tok(P, t, "'!' is not allowed on this operand");
    if (is_val)
        check_reg_width(P, t, s, ty, allow);
    o->kind = is_pred ? PTX_OPND_PRED : PTX_OPND_REG;
    o->reg = s->index + elem;
    o->neg = r->neg;
}

/* The address of a symbol as a value (mov %rd, sym / cvta %rd, sym). */
static void resolve_symaddr(parser *P, const raw_opnd *r, sym *s, ptx_operand *o)
{
    memset(o, 0, sizeof(*o));
    o->kind = PTX_OPND_SYMADDR;
    o->imm = r->off;
    switch (s->kind) {
    case SYM_VAR:
        o->addr_base = PTX_ABASE_SYM;
        o->reg = s->index;
        break;
    case SYM_LOCAL:
    case SYM_PARAM:
    case SYM_KPARAM:
        /* the address may point just past the variable, never further */
        if (r->off < 0 || (uint64_t)r->off > s->size)
            parse_fail_tok(P, &r->t, "offset %lld is outside '%.*s' (%llu bytes)", (long long)r->off,
                           NAMEFMT(&r->t), (unsigned long long)s->size);
        o->addr_base = s->kind == SYM_KPARAM ? PTX_ABASE_KPARAM : PTX_ABASE_FRAME;
        o->imm += s->offset;
        break;
    case SYM_FUNC:
        if (r->off)
            parse_fail_tok(P, &r->t, "offset on a function address");
        o->kind = PTX_OPND_FUNC;
        o->imm = s->index;
        break;
    default:
        parse_fail_tok(P, &r->t, "'%.*s' is not a variable", NAMEFMT(&r->t));
    }
}

/* A source operand of type ty. */
static void resolve_src(parser *P, ictx *c, const raw_opnd *r, ptx_type ty, int allow, ptx_operand *o)
{
    const token *t = &r->t;
    memset(o, 0, sizeof(*o));
    if (r->kind == RO_NUM) {
        if (!(allow & ALLOW_IMM))
            parse_fail_tok(P, t, "immediate not allowed for this operand of '%s'", c->opname);
        /* ptxas takes 1.5 as a double constant: fine for .b64, not for .b32 operands
         * (unlike initializers, where it stores the f32 bits) */
        if (t->kind == TK_FLOAT && t->fkind == FK_DEC && ty == PTX_T_B32)
            parse_fail_tok(P, t, "decimal float literal used with .%s (write a 0f hex float)", ptx_type_name(ty));
        o->kind = PTX_OPND_IMM;
        o->imm = literal_bits(P, t, r->neg, ty);
        return;
    }
    if (r->kind == RO_ADDR)
        parse_fail_tok(P, t, "unexpected address operand for '%s'", c->opname);
    if (r->kind == RO_VEC)
        parse_fail_tok(P, t, "unexpected vector operand for '%s'", c->opname);
    uint32_t elem;
    sym *s = sym_lookup(P, t->text, t->len, &elem);
    if (!s && name_eq(t, "WARP_SZ")) {
        /* PTX's predefined constant: the warp size, an integer immediate */
        if (!(allow & ALLOW_IMM) || ptx_type_is_float(ty) || r->neg || r->comp >= 0)
            parse_fail_tok(P, t, "WARP_SZ is an integer constant, not allowed for this operand of '%s'", c->opname);
        o->kind = PTX_OPND_IMM;
        o->imm = 32;
        return;
    }
    if (!s) {
        int si = lookup_sreg(t);
        if (si < 0)
            undefined_name(P, t);
        if (!(allow & ALLOW_SREG))
            parse_fail_tok(P, t, "special register '%.*s' is only allowed in mov/cvt", NAMEFMT(t));
        if (sregs[si].has_comp && r->comp < 0)
            parse_fail_tok(P, t, "special register '%.*s' needs a component .x, .y or .z", NAMEFMT(t));
        if (!sregs[si].has_comp && r->comp >= 0)
            parse_fail_tok(P, t, "special register '%.*s' has no components", NAMEFMT(t));
        ptx_sreg sr = sregs[si].sreg;
        unsigned bytes = sr == PTX_SREG_CLOCK64 || sr == PTX_SREG_GLOBALTIMER ? 8 : 4;
        /* ptxas: the type must have the register's width (it lets %gridid be read
         * as 32 or 64 bits) and not be a float type */
        if (ty != PTX_T_NONE && (ptx_type_is_float(ty) ||
                                 (ptx_type_size(ty) != bytes && !(sr == PTX_SREG_GRIDID && ptx_type_size(ty) == 8))))
            parse_fail_tok(P, t, "special register '%.*s' is %u-bit, the operand is .%s", NAMEFMT(t), bytes * 8,
                           ptx_type_name(ty));
        o->kind = PTX_OPND_SREG;
        o->reg = sregs[si].sreg;
        o->comp = (uint8_t)(r->comp < 0 ? 0 : r->comp);
        return;
    }
    if (s->kind == SYM_VREG || s->kind == SYM_VRANGE || s->kind == SYM_PREG || s->kind == SYM_PRANGE) {
        resolve_reg(P, r, ty, allow | ALLOW_NEG, o);
        if (o->neg && ty != PTX_T_PRED)
            parse_fail_tok(P, t, "'!' is only allowed on predicates");
        return;
    }
    if (!(allow & ALLOW_SYM))
        parse_fail_tok(P, t, "the address of '%.*s' can only be taken by mov or cvta", NAMEFMT(t));
    if (r->comp >= 0)
        parse_fail_tok(P, t, "unexpected component on symbol '%.*s'", NAMEFMT(t));
    resolve_symaddr(P, r, s, o);
}

/* A destination: value register (or predicate when ty is .pred). */
static void resolve_dst(parser *P, const raw_opnd *r, ptx_type ty, int allow, ptx_operand *o)
{
    resolve_reg(P, r, ty, allow, o);
}

/* [addr] for a memory access in space (PTX_SPACE_NONE = generic). */
/* A static access [sym+off] of `access` bytes must stay inside the frame or
 * parameter variable sym: the executor trusts these offsets. */
static void check_static_access(parser *P, const raw_opnd *r, const sym *s, uint64_t access)
{
    if (r->off < 0 || (uint64_t)r->off + access > s->size)
        parse_fail_tok(P, &r->t, "access of %llu bytes at offset %lld is outside '%.*s' (%llu bytes)",
                       (unsigned long long)access, (long long)r->off, NAMEFMT(&r->t), (unsigned long long)s->size);
}

static void resolve_addr(parser *P, ictx *c, const raw_opnd *r, ptx_space space, int is_store, uint64_t access,
                         ptx_operand *o)
{
    const token *t = &r->t;
    memset(o, 0, sizeof(*o));
    if (r->kind != RO_ADDR)
        parse_fail_tok(P, t, "expected a memory operand '[...]' for '%s'", c->opname);
    o->kind = PTX_OPND_ADDR;
    o->imm = r->off;
    if (r->base_is_num) {
        /* ptxas accepts [imm] only for .local; we also take it for the spaces with
         * flat addresses, not for .param (its layout is the front end's own) */
        if (space == PTX_SPACE_PARAM)
            parse_fail_tok(P, t, "absolute address not allowed in .param space");
        uint64_t v = t->ival;
        if (v > (uint64_t)INT64_MAX || (r->off > 0 && (int64_t)v > INT64_MAX - r->off))
            parse_fail_tok(P, t, "absolute address out of range");
        o->addr_base = PTX_ABASE_NONE;
        o->imm = (int64_t)v + r->off;
        return;
    }
    uint32_t elem;
    sym *s = sym_lookup(P, t->text, t->len, &elem);
    if (!s)
        undefined_name(P, t);
    switch (s->kind) {
    case SYM_VREG:
    case SYM_VRANGE: {
        ptx_type bt = (ptx_type)s->type;
        if (bt != PTX_T_U32 && bt != PTX_T_S32 && bt != PTX_T_B32 && bt != PTX_T_U64 && bt != PTX_T_S64 &&
            bt != PTX_T_B64)
            parse_fail_tok(P, t, "address register '%.*s' is .%s: an address needs a 32- or 64-bit integer register",
                           NAMEFMT(t), ptx_type_name(bt));
        /* .param through a register happens too (nvcc, __grid_constant__ kernel
         * parameters: mov.b64 %rd1, k_param_0; ... ld.param.u32 %r5, [%rd7]): the
         * register holds what mov of a param symbol gave -- a kernel parameter
         * offset in an .entry, a frame address in a .func */
        o->addr_base = PTX_ABASE_REG;
        o->reg = s->index + elem;
        return;
    }
    case SYM_VAR: {
        const ptx_var *v = &P->m->vars[s->index];
        /* A generic access naming a .shared variable (ptxas accepts it; not .const)
         * is a shared access: the generic address of the variable always lands in
         * the shared window, so the instruction becomes its .shared form. */
        if (space == PTX_SPACE_NONE && v->space == PTX_SPACE_SHARED)
            c->in.space = (uint8_t)(space = PTX_SPACE_SHARED);
        if (!(v->space == space || (space == PTX_SPACE_NONE && v->space == PTX_SPACE_GLOBAL))) {
            static const char *const nm[] = {"generic", "reg", "global", "shared", "local", "const", "param"};
            if (space == PTX_SPACE_NONE)
                parse_fail_tok(P, t, "unsupported: generic access to .%s variable '%.*s' by name", nm[v->space],
                               NAMEFMT(t));
            parse_fail_tok(P, t, "'%.*s' is a .%s variable, not .%s", NAMEFMT(t), nm[v->space], nm[space]);
        }
        o->addr_base = PTX_ABASE_SYM;
        o->reg = s->index;
        return;
    }
    case SYM_LOCAL:
        if (space != PTX_SPACE_LOCAL)
            parse_fail_tok(P, t, "'%.*s' is a .local variable: access it with a .local instruction", NAMEFMT(t));
        check_static_access(P, r, s, access);
        o->addr_base = PTX_ABASE_FRAME;
        o->imm += s->offset;
        return;
    case SYM_PARAM:
    case SYM_KPARAM:
        if (space != PTX_SPACE_PARAM)
            parse_fail_tok(P, t, "'%.*s' is a .param variable: access it with a .param instruction", NAMEFMT(t));
        if (s->kind == SYM_KPARAM && is_store)
            parse_fail_tok(P, t, "kernel parameter '%.*s' is read-only", NAMEFMT(t));
        check_static_access(P, r, s, access);
        o->addr_base = s->kind == SYM_KPARAM ? PTX_ABASE_KPARAM : PTX_ABASE_FRAME;
        o->imm += s->offset;
        return;
    default:
        parse_fail_tok(P, t, "'%.*s' cannot be used as an address", NAMEFMT(t));
    }
}

static void resolve_label(parser *P, ictx *c, const raw_opnd *r, uint32_t opnd_index)
{
    const token *t = &r->t;
    if (r->kind != RO_NAME || r->neg || r->comp >= 0 || r->off)
        parse_fail_tok(P, t, "expected a label for '%s'", c->opname);
    ptx_operand *o = &c->in.opnd[opnd_index];
    memset(o, 0, sizeof(*o));
    o->kind = PTX_OPND_LABEL;
    add_label_fixup(P, P->fn->ninsn, opnd_index, label_use(P, t));
}

/* A vector operand: registers (or '_' / immediates where allowed). */
static void resolve_vec(parser *P, ictx *c, const raw_opnd *r, uint32_t want, ptx_type elem_ty, int is_dst,
                        int allow, ptx_operand *o)
{
    memset(o, 0, sizeof(*o));
    if (r->kind != RO_VEC)
        parse_fail_tok(P, &r->t, "expected a vector operand '{...}' for '%s'", c->opname);
    if (want && r->nelem != want)
        parse_fail_tok(P, &r->t, "vector operand has %u elements, '%s' needs %u", r->nelem, c->opname, want);
    o->kind = PTX_OPND_VEC;
    o->comp = r->nelem;
    for (uint32_t i = 0; i < r->nelem; i++) {
        const token *e = &r->elem[i];
        if (e->kind == TK_INT || e->kind == TK_FLOAT) {
            if (is_dst)
                parse_fail_tok(P, e, "immediate in a destination vector");
            if (ptx_type_size(elem_ty) > 4)
                parse_fail_tok(P, e, "unsupported: immediate in a vector of 64-bit elements");
            ptx_type bt = ptx_type_size(elem_ty) == 4 ? PTX_T_B32 : ptx_type_size(elem_ty) == 2 ? PTX_T_B16 : PTX_T_B8;
            if (ptx_type_is_float(elem_ty) && ptx_type_size(elem_ty) == 4)
                bt = elem_ty;
            o->vec[i] = (uint32_t)literal_bits(P, e, r->elem_neg[i], bt);
            o->vec_imm |= (uint8_t)(1u << i);
            continue;
        }
        raw_opnd er;
        memset(&er, 0, sizeof(er));
        er.kind = RO_NAME;
        er.comp = -1;
        er.t = *e;
        ptx_operand eo;
        resolve_reg(P, &er, elem_ty, (is_dst ? ALLOW_SINK : 0) | (allow & ALLOW_WIDER), &eo);
        o->vec[i] = eo.reg;
    }
}

/* ---- per-opcode checks ------------------------------------------------- */
#define TB(t) (1ull << (t))
#define TS_UINT (TB(PTX_T_U16) | TB(PTX_T_U32) | TB(PTX_T_U64))
#define TS_SINT (TB(PTX_T_S16) | TB(PTX_T_S32) | TB(PTX_T_S64))
#define TS_INT (TS_UINT | TS_SINT)
#define TS_BITS (TB(PTX_T_B16) | TB(PTX_T_B32) | TB(PTX_T_B64))
#define TS_F (TB(PTX_T_F32) | TB(PTX_T_F64))
#define TS_H (TB(PTX_T_F16) | TB(PTX_T_F16X2) | TB(PTX_T_BF16) | TB(PTX_T_BF16X2))
#define TS_8 (TB(PTX_T_B8) | TB(PTX_T_U8) | TB(PTX_T_S8))
#define TS_MEM (TS_8 | TS_INT | TS_BITS | TB(PTX_T_B128) | TS_F) /* no .f16: halves move as .b16 */
#define TS_32_64 (TB(PTX_T_U32) | TB(PTX_T_S32) | TB(PTX_T_U64) | TB(PTX_T_S64))

static void fail_type(parser *P, ictx *c, ptx_type t)
{
    parse_fail_tok(P, &c->md.first, "unsupported type .%s for '%s'", ptx_type_name(t), c->opname);
}

/* Exactly one type from set; returns it. */
static ptx_type one_type(parser *P, ictx *c, uint64_t set)
{
    if (c->md.ntypes == 0)
        parse_fail_tok(P, &c->md.first, "'%s' needs a type modifier", c->opname);
    if (c->md.ntypes > 1)
        parse_fail_tok(P, &c->md.first, "'%s' takes one type modifier, found two", c->opname);
    ptx_type t = c->md.types[0];
    if (!(set & TB(t)))
        fail_type(P, c, t);
    return t;
}

static void two_types(parser *P, ictx *c, uint64_t set1, uint64_t set2)
{
    if (c->md.ntypes != 2)
        parse_fail_tok(P, &c->md.first, "'%s' needs two type modifiers", c->opname);
    if (!(set1 & TB(c->md.types[0])))
        fail_type(P, c, c->md.types[0]);
    if (!(set2 & TB(c->md.types[1])))
        fail_type(P, c, c->md.types[1]);
    c->in.type = (uint8_t)c->md.types[0];
    c->in.type2 = (uint8_t)c->md.types[1];
}

static void want_operands(parser *P, ictx *c, uint32_t lo, uint32_t hi)
{
    if (c->nraw < lo || c->nraw > hi) {
        if (lo == hi)
            parse_fail_tok(P, &c->md.first, "'%s' takes %u operands, found %u", c->opname, lo, c->nraw);
        parse_fail_tok(P, &c->md.first, "'%s' takes %u to %u operands, found %u", c->opname, lo, hi, c->nraw);
    }
    for (uint32_t i = 0; i < c->nraw; i++)
        if (c->raw[i].pipe)
            parse_fail_tok(P, &c->raw[i].t, "unexpected '|' in operands of '%s'", c->opname);
}

static void forbid_flags(parser *P, ictx *c, uint32_t flags, const char *why)
{
    if (c->md.flags & flags)
        parse_fail_tok(P, &c->md.first, "'%s': %s", c->opname, why);
}

/* d, a[, b[, c]]: destination and sources all of type ty (immediates allowed). */
static void simple_operands(parser *P, ictx *c, uint32_t nsrc, ptx_type ty)
{
    want_operands(P, c, nsrc + 1, nsrc + 1);
    resolve_dst(P, &c->raw[0], ty, 0, &c->in.opnd[0]);
    for (uint32_t i = 1; i <= nsrc; i++)
        resolve_src(P, c, &c->raw[i], ty, ALLOW_IMM, &c->in.opnd[i]);
    c->in.ndst = 1;
    c->in.nopnd = (uint8_t)(nsrc + 1);
}

/* Float-only modifiers (rounding, .ftz) on an integer operation are errors. */
static void int_no_float_mods(parser *P, ictx *c, ptx_type t)
{
    if (ptx_type_is_float(t))
        return;
    if (c->md.rnd)
        parse_fail_tok(P, &c->md.first, "'%s': rounding modifier on an integer type", c->opname);
    forbid_flags(P, c, PTX_F_FTZ | PTX_F_APPROX, ".ftz/.approx need a floating-point type");
}

static void float_no_int_mods(parser *P, ictx *c, ptx_type t)
{
    if (!ptx_type_is_float(t))
        return;
    forbid_flags(P, c, PTX_F_HI | PTX_F_LO | PTX_F_WIDE | PTX_F_CC | PTX_F_CARRYIN,
                 ".hi/.lo/.wide/.cc need an integer type");
}

static void need_float_rnd(parser *P, ictx *c, int required)
{
    ptx_rnd r = c->md.rnd;
    if (r && r != PTX_RND_RN && r != PTX_RND_RZ && r != PTX_RND_RM && r != PTX_RND_RP)
        parse_fail_tok(P, &c->md.first, "'%s' takes .rn/.rz/.rm/.rp rounding", c->opname);
    if (required && !r)
        parse_fail_tok(P, &c->md.first, "'%s' needs a rounding modifier (.rn/.rz/.rm/.rp)", c->opname);
}

static void decode_arith(parser *P, ictx *c)
{
    ptx_insn *in = &c->in;
    ptx_opcode op = (ptx_opcode)in->op;
    uint32_t fl = c->md.flags;
    switch (op) {
    case PTX_OP_ADD:
    case PTX_OP_SUB: {
        ptx_type t = one_type(P, c, TS_INT | TS_F | TS_H);
        int_no_float_mods(P, c, t);
        float_no_int_mods(P, c, t);
        need_float_rnd(P, c, 0);
        if ((fl & (PTX_F_CC | PTX_F_CARRYIN)) && !(TS_32_64 & TB(t)))
            fail_type(P, c, t);
        in->type = (uint8_t)t;
        simple_operands(P, c, 2, t);
        return;
    }
    case PTX_OP_MUL:
    case PTX_OP_MAD: {
        ptx_type t = one_type(P, c, TS_INT | TS_F | TS_H);
        int_no_float_mods(P, c, t);
        float_no_int_mods(P, c, t);
        need_float_rnd(P, c, 0);
        if (!ptx_type_is_float(t)) {
            uint32_t hlw = fl & (PTX_F_HI | PTX_F_LO | PTX_F_WIDE);
            if (hlw != PTX_F_HI && hlw != PTX_F_LO && hlw != PTX_F_WIDE)
                parse_fail_tok(P, &c->md.first, "'%s' on integers needs exactly one of .hi, .lo, .wide", c->opname);
            if ((fl & PTX_F_WIDE) && ptx_type_size(t) > 4)
                parse_fail_tok(P, &c->md.first, "'%s.wide' takes a 16- or 32-bit type", c->opname);
            if ((fl & (PTX_F_CC | PTX_F_CARRYIN)) && ((fl & PTX_F_WIDE) || !(TS_32_64 & TB(t))))
                parse_fail_tok(P, &c->md.first, "'%s' with carry needs .hi/.lo and a 32/64-bit type", c->opname);
        }
        in->type = (uint8_t)t;
        uint32_t nsrc = op == PTX_OP_MAD ? 3 : 2;
        want_operands(P, c, nsrc + 1, nsrc + 1);
        /* .wide: sources have type t, the destination is twice as wide (and so is
         * mad's addend c) */
        ptx_type wide = t;
        if (fl & PTX_F_WIDE)
            wide = ptx_type_size(t) == 2 ? (ptx_type_is_signed(t) ? PTX_T_S32 : PTX_T_U32)
                                         : (ptx_type_is_signed(t) ? PTX_T_S64 : PTX_T_U64);
        resolve_dst(P, &c->raw[0], wide, 0, &in->opnd[0]);
        resolve_src(P, c, &c->raw[1], t, ALLOW_IMM, &in->opnd[1]);
        resolve_src(P, c, &c->raw[2], t, ALLOW_IMM, &in->opnd[2]);
        if (nsrc == 3)
            resolve_src(P, c, &c->raw[3], wide, ALLOW_IMM, &in->opnd[3]);
        in->ndst = 1;
        in->nopnd = (uint8_t)(nsrc + 1);
        return;
    }
    case PTX_OP_MUL24:
    case PTX_OP_MAD24: {
        ptx_type t = one_type(P, c, TB(PTX_T_U32) | TB(PTX_T_S32));
        uint32_t hl = fl & (PTX_F_HI | PTX_F_LO);
        if (hl != PTX_F_HI && hl != PTX_F_LO)
            parse_fail_tok(P, &c->md.first, "'%s' needs .hi or .lo", c->opname);
        in->type = (uint8_t)t;
        simple_operands(P, c, op == PTX_OP_MAD24 ? 3 : 2, t);
        return;
    }
    case PTX_OP_SAD:
        in->type = (uint8_t)one_type(P, c, TS_INT);
        simple_operands(P, c, 3, (ptx_type)in->type);
        return;
    case PTX_OP_DIV: {
        ptx_type t = one_type(P, c, TS_INT | TS_F);
        int_no_float_mods(P, c, t);
        need_float_rnd(P, c, 0);
        if (c->md.rnd && (fl & PTX_F_APPROX))
            parse_fail_tok(P, &c->md.first, "'div' takes a rounding modifier or .approx/.full, not both");
        in->type = (uint8_t)t;
        simple_operands(P, c, 2, t);
        return;
    }
    case PTX_OP_REM:
        in->type = (uint8_t)one_type(P, c, TS_INT);
        simple_operands(P, c, 2, (ptx_type)in->type);
        return;
    case PTX_OP_ABS:
    case PTX_OP_NEG: {
        ptx_type t = one_type(P, c, TS_SINT | TS_F | TS_H);
        int_no_float_mods(P, c, t);
        in->type = (uint8_t)t;
        simple_operands(P, c, 1, t);
        return;
    }
    case PTX_OP_MIN:
    case PTX_OP_MAX: {
        ptx_type t = one_type(P, c, TS_INT | TS_F | TS_H);
        int_no_float_mods(P, c, t);
        if ((fl & PTX_F_NAN) && !ptx_type_is_float(t))
            parse_fail_tok(P, &c->md.first, "'%s.NaN' needs a floating-point type", c->opname);
        in->type = (uint8_t)t;
        simple_operands(P, c, 2, t);
        return;
    }
    default:
        break;
    }
}

static void decode_bits(parser *P, ictx *c)
{
    ptx_insn *in = &c->in;
    switch ((ptx_opcode)in->op) {
    case PTX_OP_POPC:
    case PTX_OP_CLZ:
    case PTX_OP_BREV:
    case PTX_OP_BFIND: {
        uint64_t set = in->op == PTX_OP_BFIND ? TB(PTX_T_U32) | TB(PTX_T_S32) | TB(PTX_T_U64) | TB(PTX_T_S64)
                                              : TB(PTX_T_B32) | TB(PTX_T_B64);
        ptx_type t = one_type(P, c, set);
        in->type = (uint8_t)t;
        want_operands(P, c, 2, 2);
        /* popc/clz/bfind write a .u32 count; brev writes type t */
        resolve_dst(P, &c->raw[0], in->op == PTX_OP_BREV ? t : PTX_T_U32, 0, &in->opnd[0]);
        resolve_src(P, c, &c->raw[1], t, ALLOW_IMM, &in->opnd[1]);
        in->ndst = 1;
        in->nopnd = 2;
        return;
    }
    case PTX_OP_BFE: {
        ptx_type t = one_type(P, c, TB(PTX_T_U32) | TB(PTX_T_S32) | TB(PTX_T_U64) | TB(PTX_T_S64));
        in->type = (uint8_t)t;
        want_operands(P, c, 4, 4);
        resolve_dst(P, &c->raw[0], t, 0, &in->opnd[0]);
        resolve_src(P, c, &c->raw[1], t, ALLOW_IMM, &in->opnd[1]);
        resolve_src(P, c, &c->raw[2], PTX_T_U32, ALLOW_IMM | ALLOW_WIDER, &in->opnd[2]);
        resolve_src(P, c, &c->raw[3], PTX_T_U32, ALLOW_IMM | ALLOW_WIDER, &in->opnd[3]);
        in->ndst = 1;
        in->nopnd = 4;
        return;
    }
    case PTX_OP_BFI: {
        ptx_type t = one_type(P, c, TB(PTX_T_B32) | TB(PTX_T_B64));
        in->type = (uint8_t)t;
        want_operands(P, c, 5, 5);
        resolve_dst(P, &c->raw[0], t, 0, &in->opnd[0]);
        resolve_src(P, c, &c->raw[1], t, ALLOW_IMM, &in->opnd[1]);
        resolve_src(P, c, &c->raw[2], t, ALLOW_IMM, &in->opnd[2]);
        resolve_src(P, c, &c->raw[3], PTX_T_U32, ALLOW_IMM | ALLOW_WIDER, &in->opnd[3]);
        resolve_src(P, c, &c->raw[4], PTX_T_U32, ALLOW_IMM | ALLOW_WIDER, &in->opnd[4]);
        in->ndst = 1;
        in->nopnd = 5;
        return;
    }
    case PTX_OP_PRMT:
        in->type = (uint8_t)one_type(P, c, TB(PTX_T_B32));
        in->mode = (uint8_t)c->md.prmt;
        simple_operands(P, c, 3, PTX_T_B32);
        return;
    case PTX_OP_SHF:
        in->type = (uint8_t)one_type(P, c, TB(PTX_T_B32));
        if (!c->md.dir || !c->md.shfmode)
            parse_fail_tok(P, &c->md.first, "'shf' needs .l or .r and .wrap or .clamp");
        if (c->md.dir == 1)
            in->flags |= PTX_F_SHF_L;
        if (c->md.shfmode == 1)
            in->flags |= PTX_F_SHF_WRAP;
        want_operands(P, c, 4, 4);
        resolve_dst(P, &c->raw[0], PTX_T_B32, 0, &in->opnd[0]);
        resolve_src(P, c, &c->raw[1], PTX_T_B32, ALLOW_IMM, &in->opnd[1]);
        resolve_src(P, c, &c->raw[2], PTX_T_B32, ALLOW_IMM, &in->opnd[2]);
        resolve_src(P, c, &c->raw[3], PTX_T_U32, ALLOW_IMM | ALLOW_WIDER, &in->opnd[3]);
        in->ndst = 1;
        in->nopnd = 4;
        return;
    case PTX_OP_BMSK:
        /* bmsk.{clamp,wrap}.b32 d, a, b: the mode is kept in PTX_F_SHF_WRAP like shf's */
        in->type = (uint8_t)one_type(P, c, TB(PTX_T_B32));
        if (!c->md.shfmode)
            parse_fail_tok(P, &c->md.first, "'bmsk' needs .clamp or .wrap");
        if (c->md.shfmode == 1)
            in->flags |= PTX_F_SHF_WRAP;
        want_operands(P, c, 3, 3);
        resolve_dst(P, &c->raw[0], PTX_T_B32, 0, &in->opnd[0]);
        resolve_src(P, c, &c->raw[1], PTX_T_U32, ALLOW_IMM, &in->opnd[1]);
        resolve_src(P, c, &c->raw[2], PTX_T_U32, ALLOW_IMM, &in->opnd[2]);
        in->ndst = 1;
        in->nopnd = 3;
        return;
    case PTX_OP_SHL:
    case PTX_OP_SHR: {
        uint64_t set = in->op == PTX_OP_SHL ? TS_BITS : TS_BITS | TS_INT;
        ptx_type t = one_type(P, c, set);
        in->type = (uint8_t)t;
        want_operands(P, c, 3, 3);
        resolve_dst(P, &c->raw[0], t, 0, &in->opnd[0]);
        resolve_src(P, c, &c->raw[1], t, ALLOW_IMM, &in->opnd[1]);
        resolve_src(P, c, &c->raw[2], PTX_T_U32, ALLOW_IMM | ALLOW_WIDER, &in->opnd[2]);
        in->ndst = 1;
        in->nopnd = 3;
        return;
    }
    case PTX_OP_AND:
    case PTX_OP_OR:
    case PTX_OP_XOR:
    case PTX_OP_NOT:
    case PTX_OP_CNOT: {
        uint64_t set = TS_BITS | (in->op == PTX_OP_CNOT ? 0 : TB(PTX_T_PRED));
        ptx_type t = one_type(P, c, set);
        in->type = (uint8_t)t;
        simple_operands(P, c, in->op == PTX_OP_NOT || in->op == PTX_OP_CNOT ? 1 : 2, t);
        return;
    }
    case PTX_OP_LOP3:
        in->type = (uint8_t)one_type(P, c, TB(PTX_T_B32));
        want_operands(P, c, 5, 5);
        resolve_dst(P, &c->raw[0], PTX_T_B32, 0, &in->opnd[0]);
        for (int i = 1; i <= 3; i++)
            resolve_src(P, c, &c->raw[i], PTX_T_B32, ALLOW_IMM, &in->opnd[i]);
        if (c->raw[4].kind != RO_NUM)
            parse_fail_tok(P, &c->raw[4].t, "lop3 needs an immediate lookup table");
        resolve_src(P, c, &c->raw[4], PTX_T_B8, ALLOW_IMM, &in->opnd[4]);
        in->ndst = 1;
        in->nopnd = 5;
        return;
    case PTX_OP_DP4A:
    case PTX_OP_DP2A: {
        uint64_t set = TB(PTX_T_U32) | TB(PTX_T_S32);
        two_types(P, c, set, set);
        if (in->op == PTX_OP_DP2A && (c->md.flags & (PTX_F_HI | PTX_F_LO)) != PTX_F_HI &&
            (c->md.flags & (PTX_F_HI | PTX_F_LO)) != PTX_F_LO)
            parse_fail_tok(P, &c->md.first, "'dp2a' needs .hi or .lo");
        ptx_type acc = (in->type == PTX_T_S32 || in->type2 == PTX_T_S32) ? PTX_T_S32 : PTX_T_U32;
        want_operands(P, c, 4, 4);
        resolve_dst(P, &c->raw[0], acc, 0, &in->opnd[0]);
        resolve_src(P, c, &c->raw[1], PTX_T_B32, ALLOW_IMM, &in->opnd[1]);
        resolve_src(P, c, &c->raw[2], PTX_T_B32, ALLOW_IMM, &in->opnd[2]);
        resolve_src(P, c, &c->raw[3], acc, ALLOW_IMM, &in->opnd[3]);
        in->ndst = 1;
        in->nopnd = 4;
        return;
    }
    default:
        break;
    }
}

static void decode_float(parser *P, ictx *c)
{
    ptx_insn *in = &c->in;
    uint32_t fl = c->md.flags;
    switch ((ptx_opcode)in->op) {
    case PTX_OP_FMA:
        in->type = (uint8_t)one_type(P, c, TS_F | TS_H);
        need_float_rnd(P, c, 1);
        simple_operands(P, c, 3, (ptx_type)in->type);
        return;
    case PTX_OP_RCP:
    case PTX_OP_SQRT:
        in->type = (uint8_t)one_type(P, c, TS_F);
        need_float_rnd(P, c, 0);
        if (!!c->md.rnd + !!(fl & PTX_F_APPROX) != 1)
            parse_fail_tok(P, &c->md.first, "'%s' needs exactly one of .approx, .rn, .rz, .rm, .rp", c->opname);
        simple_operands(P, c, 1, (ptx_type)in->type);
        return;
    case PTX_OP_RSQRT:
    case PTX_OP_SIN:
    case PTX_OP_COS:
    case PTX_OP_LG2:
    case PTX_OP_EX2:
    case PTX_OP_TANH: {
        uint64_t set = TB(PTX_T_F32);
        if (in->op == PTX_OP_RSQRT)
            set |= TB(PTX_T_F64);
        if (in->op == PTX_OP_EX2 || in->op == PTX_OP_TANH)
            set |= TS_H;
        in->type = (uint8_t)one_type(P, c, set);
        if (!(fl & PTX_F_APPROX))
            parse_fail_tok(P, &c->md.first, "'%s' needs .approx", c->opname);
        simple_operands(P, c, 1, (ptx_type)in->type);
        return;
    }
    case PTX_OP_COPYSIGN:
        in->type = (uint8_t)one_type(P, c, TS_F);
        simple_operands(P, c, 2, (ptx_type)in->type);
        return;
    case PTX_OP_TESTP:
        in->type = (uint8_t)one_type(P, c, TS_F);
        if (!c->md.testp)
            parse_fail_tok(P, &c->md.first, "'testp' needs a test (.finite, .infinite, .number, .notanumber, "
                                            ".normal, .subnormal)");
        in->mode = (uint8_t)c->md.testp;
        want_operands(P, c, 2, 2);
        resolve_dst(P, &c->raw[0], PTX_T_PRED, 0, &in->opnd[0]);
        resolve_src(P, c, &c->raw[1], (ptx_type)in->type, ALLOW_IMM, &in->opnd[1]);
        in->ndst = 1;
        in->nopnd = 2;
        return;
    default:
        break;
    }
}

static int is_unsigned_cmp(ptx_cmp k)
{
    return k == PTX_CMP_LO || k == PTX_CMP_LS || k == PTX_CMP_HI || k == PTX_CMP_HS;
}

static int is_float_cmp(ptx_cmp k)
{
    return k >= PTX_CMP_EQU;
}

static void check_cmp(parser *P, ictx *c, ptx_type t)
{
    ptx_cmp k = c->md.cmp;
    if (!k)
        parse_fail_tok(P, &c->md.first, "'%s' needs a comparison (.eq, .lt, ...)", c->opname);
    if (ptx_type_is_float(t)) {
        if (is_unsigned_cmp(k))
            parse_fail_tok(P, &c->md.first, "'%s': unsigned comparison on a floating-point type", c->opname);
    } else {
        if (is_float_cmp(k))
            parse_fail_tok(P, &c->md.first, "'%s': floating-point comparison on an integer type", c->opname);
        if (is_unsigned_cmp(k) && ptx_type_is_signed(t))
            parse_fail_tok(P, &c->md.first, "'%s': unsigned comparison (.lo/.ls/.hi/.hs) on a signed type", c->opname);
        if ((TS_BITS & TB(t)) && k != PTX_CMP_EQ && k != PTX_CMP_NE)
            parse_fail_tok(P, &c->md.first, "'%s': bit types compare only with .eq/.ne", c->opname);
        forbid_flags(P, c, PTX_F_FTZ, ".ftz needs a floating-point type");
    }
}

static void decode_compare(parser *P, ictx *c)
{
    ptx_insn *in = &c->in;
    in->cmp = (uint8_t)c->md.cmp;
    in->boolop = (uint8_t)c->md.boolop;
    uint32_t nbool = c->md.boolop ? 1 : 0;
    if (in->op == PTX_OP_SETP) {
        ptx_type t = one_type(P, c, TS_INT | TS_BITS | TS_F | TS_H);
        check_cmp(P, c, t);
        in->type = (uint8_t)t;
        /* p[|q], a, b[, c] */
        uint32_t ndst = (c->nraw >= 1 && c->raw[0].pipe) ? 2 : 1;
        if (c->nraw != ndst + 2 + nbool)
            parse_fail_tok(P, &c->md.first, "'setp' takes %u operands here, found %u", ndst + 2 + nbool, c->nraw);
        for (uint32_t i = 1; i < c->nraw; i++)
            if (c->raw[i].pipe)
                parse_fail_tok(P, &c->raw[i].t, "unexpected '|'");
        resolve_dst(P, &c->raw[0], PTX_T_PRED, ALLOW_SINK, &in->opnd[0]);
        if (ndst == 2)
            resolve_dst(P, &c->raw[1], PTX_T_PRED, ALLOW_SINK, &in->opnd[1]);
        resolve_src(P, c, &c->raw[ndst], t, ALLOW_IMM, &in->opnd[ndst]);
        resolve_src(P, c, &c->raw[ndst + 1], t, ALLOW_IMM, &in->opnd[ndst + 1]);
        if (nbool)
            resolve_src(P, c, &c->raw[ndst + 2], PTX_T_PRED, ALLOW_IMM, &in->opnd[ndst + 2]);
        in->ndst = (uint8_t)ndst;
        in->nopnd = (uint8_t)c->nraw;
        return;
    }
    if (in->op == PTX_OP_SET) {
        two_types(P, c, TB(PTX_T_U32) | TB(PTX_T_S32) | TB(PTX_T_F32), TS_INT | TS_BITS | TS_F);
        check_cmp(P, c, (ptx_type)in->type2);
        want_operands(P, c, 3 + nbool, 3 + nbool);
        resolve_dst(P, &c->raw[0], (ptx_type)in->type, 0, &in->opnd[0]);
        resolve_src(P, c, &c->raw[1], (ptx_type)in->type2, ALLOW_IMM, &in->opnd[1]);
        resolve_src(P, c, &c->raw[2], (ptx_type)in->type2, ALLOW_IMM, &in->opnd[2]);
        if (nbool)
            resolve_src(P, c, &c->raw[3], PTX_T_PRED, ALLOW_IMM, &in->opnd[3]);
        in->ndst = 1;
        in->nopnd = (uint8_t)(3 + nbool);
        return;
    }
    if (in->op == PTX_OP_SELP) {
        ptx_type t = one_type(P, c, TS_INT | TS_BITS | TS_F);
        in->type = (uint8_t)t;
        want_operands(P, c, 4, 4);
        resolve_dst(P, &c->raw[0], t, 0, &in->opnd[0]);
        resolve_src(P, c, &c->raw[1], t, ALLOW_IMM, &in->opnd[1]);
        resolve_src(P, c, &c->raw[2], t, ALLOW_IMM, &in->opnd[2]);
        resolve_src(P, c, &c->raw[3], PTX_T_PRED, ALLOW_IMM, &in->opnd[3]);
        in->ndst = 1;
        in->nopnd = 4;
        return;
    }
    /* slct.dtype.ctype d, a, b, c: d = (c >= 0) ? a : b */
    two_types(P, c, TS_INT | TS_BITS | TS_F, TB(PTX_T_S32) | TB(PTX_T_F32));
    if ((c->md.flags & PTX_F_FTZ) && in->type2 != PTX_T_F32)
        parse_fail_tok(P, &c->md.first, "'slct.ftz' needs a .f32 selector");
    want_operands(P, c, 4, 4);
    resolve_dst(P, &c->raw[0], (ptx_type)in->type, 0, &in->opnd[0]);
    resolve_src(P, c, &c->raw[1], (ptx_type)in->type, ALLOW_IMM, &in->opnd[1]);
    resolve_src(P, c, &c->raw[2], (ptx_type)in->type, ALLOW_IMM, &in->opnd[2]);
    resolve_src(P, c, &c->raw[3], (ptx_type)in->type2, ALLOW_IMM, &in->opnd[3]);
    in->ndst = 1;
    in->nopnd = 4;
}

static void decode_mov(parser *P, ictx *c)
{
    ptx_insn *in = &c->in;
    ptx_type t = one_type(P, c, TS_INT | TS_BITS | TS_F | TS_H | TB(PTX_T_PRED) | TB(PTX_T_B128));
    in->type = (uint8_t)t;
    want_operands(P, c, 2, 2);
    const raw_opnd *d = &c->raw[0], *a = &c->raw[1];
    if (d->kind == RO_VEC || a->kind == RO_VEC) {
        /* pack {a, b} -> d / unpack d -> {a, b}: element width = size / count */
        if (d->kind == RO_VEC && a->kind == RO_VEC)
            parse_fail_tok(P, &d->t, "mov cannot move a vector to a vector");
        if (!(TS_BITS & TB(t)) && t != PTX_T_B128)
            parse_fail_tok(P, &c->md.first, "vector mov needs a .b16/.b32/.b64/.b128 type");
        const raw_opnd *v = d->kind == RO_VEC ? d : a;
        unsigned esize = ptx_type_size(t) / v->nelem;
        if (v->nelem < 2 || v->nelem > 4 || esize < 1 || (v->nelem == 4 && t == PTX_T_B16))
            parse_fail_tok(P, &v->t, "vector of %u elements does not fit .%s", v->nelem, ptx_type_name(t));
        ptx_type et = esize == 8 ? PTX_T_B64 : esize == 4 ? PTX_T_B32 : esize == 2 ? PTX_T_B16 : PTX_T_B8;
        if (d->kind == RO_VEC) {
            resolve_vec(P, c, d, 0, et, 1, 0, &in->opnd[0]);
            resolve_src(P, c, a, t, 0, &in->opnd[1]);
        } else {
            resolve_dst(P, d, t, 0, &in->opnd[0]);
            resolve_vec(P, c, a, 0, et, 0, 0, &in->opnd[1]);
        }
    } else {
        resolve_dst(P, d, t, 0, &in->opnd[0]);
        int allow = ALLOW_IMM | (t == PTX_T_PRED ? 0 : ALLOW_SREG);
        if (t == PTX_T_U32 || t == PTX_T_U64 || t == PTX_T_B32 || t == PTX_T_B64 || t == PTX_T_S64 ||
            t == PTX_T_S32)
            allow |= ALLOW_SYM;
        resolve_src(P, c, a, t, allow, &in->opnd[1]);
    }
    in->ndst = 1;
    in->nopnd = 2;
}

static int is_int_rnd(ptx_rnd r)
{
    return r == PTX_RND_RNI || r == PTX_RND_RZI || r == PTX_RND_RMI || r == PTX_RND_RPI;
}

/* cvt{.rnd}{.ftz}{.sat}{.relu}.dtype.atype d, a */
static void decode_cvt(parser *P, ictx *c)
{
    ptx_insn *in = &c->in;
    uint64_t all = TB(PTX_T_U8) | TB(PTX_T_S8) | TS_INT | TS_F | TS_H; /* cvt takes no .bN types */
    two_types(P, c, all, all);
    ptx_type d = (ptx_type)in->type, a = (ptx_type)in->type2;
    ptx_rnd r = c->md.rnd;
    int dfl = ptx_type_is_float(d), afl = ptx_type_is_float(a);
    /* Rounding, as ptxas requires it: every conversion that can lose precision
     * names its rounding (never a default the executor would have to guess);
     * exact ones take none, except .rnd-to-integer within one float type. */
    const token *at = &c->md.first;
    if (!dfl && !afl) {
        if (r)
            parse_fail_tok(P, at, "cvt between integer types takes no rounding modifier");
    } else if (!dfl) {
        if (!is_int_rnd(r))
            parse_fail_tok(P, at, "cvt from float to integer needs .rni, .rzi, .rmi or .rpi");
    } else if (!afl) {
        if (!r || is_int_rnd(r))
            parse_fail_tok(P, at, "cvt from integer to float needs .rn, .rz, .rm or .rp");
    } else if (ptx_type_size(d) < ptx_type_size(a) || (d == PTX_T_F16X2 || d == PTX_T_BF16X2)) {
        if (!r || is_int_rnd(r))
            parse_fail_tok(P, at, "narrowing float cvt needs .rn, .rz, .rm or .rp");
    } else if (ptx_type_size(d) > ptx_type_size(a) || d != a) {
        if (r)
            parse_fail_tok(P, at, "widening float cvt takes no rounding modifier");
    } else if (r && !is_int_rnd(r)) {
        parse_fail_tok(P, at, "cvt within one float type takes .rni, .rzi, .rmi or .rpi (or none)");
    }
    int two_src = d == PTX_T_F16X2 || d == PTX_T_BF16X2;
    want_operands(P, c, two_src ? 3 : 2, two_src ? 3 : 2);
    /* cvt reads and writes registers wider than its types (cvt.u16.u32 %rs1, %r1 is
     * exact, cvt.s32.s8 %r2, %r1 reads the low byte) */
    resolve_dst(P, &c->raw[0], d, ALLOW_WIDER, &in->opnd[0]);
    resolve_src(P, c, &c->raw[1], a, ALLOW_IMM | ALLOW_SREG | ALLOW_WIDER, &in->opnd[1]);
    if (two_src)
        resolve_src(P, c, &c->raw[2], a, ALLOW_IMM | ALLOW_WIDER, &in->opnd[2]);
    in->ndst = 1;
    in->nopnd = (uint8_t)c->nraw;
}

static const char *space_name(ptx_space s)
{
    static const char *const nm[] = {"generic", "reg", "global", "shared", "local", "const", "param"};
    return (unsigned)s < sizeof(nm) / sizeof(nm[0]) ? nm[s] : "?";
}

static void decode_memory(parser *P, ictx *c)
{
    ptx_insn *in = &c->in;
    ptx_space sp = c->md.has_space ? c->md.space : PTX_SPACE_NONE;
    in->space = (uint8_t)sp;
    in->vec = (uint8_t)(c->md.vec ? c->md.vec : 1);
    switch ((ptx_opcode)in->op) {
    case PTX_OP_LD:
    case PTX_OP_LDU:
    case PTX_OP_ST: {
        int is_st = in->op == PTX_OP_ST;
        ptx_type t = one_type(P, c, TS_MEM);
        in->type = (uint8_t)t;
        if ((c->md.flags & PTX_F_NC) && sp != PTX_SPACE_GLOBAL)
            parse_fail_tok(P, &c->md.first, "'ld.nc' needs .global");
        if (in->op == PTX_OP_LDU && sp != PTX_SPACE_GLOBAL && sp != PTX_SPACE_NONE)
            parse_fail_tok(P, &c->md.first, "'ldu' reads .global (or generic) memory, not .%s", space_name(sp));
        if (in->vec > 1 && ptx_type_size(t) * in->vec > 16)
            parse_fail_tok(P, &c->md.first, "vector access wider than 16 bytes");
        if (is_st && sp == PTX_SPACE_CONST) /* ptxas: "State space incorrect for instruction 'st'" */
            parse_fail_tok(P, &c->md.first, "'st' cannot write the read-only .const space");
        want_operands(P, c, 2, 2);
        if (in->vec <= 1)
            unwrap_single_vec(&c->raw[is_st ? 1 : 0]);
        const raw_opnd *v = is_st ? &c->raw[1] : &c->raw[0];
        const raw_opnd *a = is_st ? &c->raw[0] : &c->raw[1];
        ptx_operand *vo = is_st ? &in->opnd[1] : &in->opnd[0];
        resolve_addr(P, c, a, sp, is_st, (uint64_t)ptx_type_size(t) * in->vec, is_st ? &in->opnd[0] : &in->opnd[1]);
        /* the data register may be wider than the type (ld.global.u8 %rs1; st.u32 from %rd) */
        if (in->vec > 1)
            resolve_vec(P, c, v, in->vec, t, !is_st, ALLOW_WIDER, vo);
        else if (v->kind == RO_VEC)
            parse_fail_tok(P, &v->t, "vector operand needs a .v2/.v4 modifier");
        else if (is_st)
            resolve_src(P, c, v, t, ALLOW_IMM | ALLOW_WIDER, vo);
        else
            resolve_dst(P, v, t, ALLOW_WIDER, vo);
        in->ndst = (uint8_t)!is_st;
        in->nopnd = 2;
        return;
    }
    case PTX_OP_ATOM:
    case PTX_OP_RED: {
        int is_red = in->op == PTX_OP_RED;
        if (sp != PTX_SPACE_NONE && sp != PTX_SPACE_GLOBAL && sp != PTX_SPACE_SHARED)
            parse_fail_tok(P, &c->md.first, "'%s' works on .global, .shared or generic memory, not .%s", c->opname,
                           space_name(sp));
        ptx_atomop op = c->md.atom;
        if (!op || op == PTX_ATOM_POPC)
            parse_fail_tok(P, &c->md.first, "'%s' needs an operation (.add, .min, .max, .and, .or, .xor, .exch, "
                                            ".cas, .inc, .dec)", c->opname);
        if (is_red && (op == PTX_ATOM_EXCH || op == PTX_ATOM_CAS))
            parse_fail_tok(P, &c->md.first, "'red' cannot do .exch/.cas");
        uint64_t set;
        switch (op) {
        case PTX_ATOM_ADD:
            set = TB(PTX_T_U32) | TB(PTX_T_S32) | TB(PTX_T_U64) | TB(PTX_T_F32) | TB(PTX_T_F64) | TS_H;
            break;
        case PTX_ATOM_INC:
        case PTX_ATOM_DEC:
            set = TB(PTX_T_U32);
            break;
        case PTX_ATOM_MIN:
        case PTX_ATOM_MAX:
            set = TS_32_64;
            break;
        case PTX_ATOM_CAS:
            set = TB(PTX_T_B16) | TB(PTX_T_B32) | TB(PTX_T_B64);
            break;
        default: /* and, or, xor, exch */
            set = TB(PTX_T_B32) | TB(PTX_T_B64);
            break;
        }
        ptx_type t = one_type(P, c, set);
        in->type = (uint8_t)t;
        in->mode = (uint8_t)op;
        uint32_t n = (is_red ? 2 : 3) + (op == PTX_ATOM_CAS);
        want_operands(P, c, n, n);
        uint32_t k = 0;
        if (!is_red)
            resolve_dst(P, &c->raw[k++], t, ALLOW_SINK, &in->opnd[0]);
        resolve_addr(P, c, &c->raw[k], sp, 1, ptx_type_size(t), &in->opnd[k]);
        for (k++; k < n; k++)
            resolve_src(P, c, &c->raw[k], t, ALLOW_IMM, &in->opnd[k]);
        in->ndst = (uint8_t)!is_red;
        in->nopnd = (uint8_t)n;
        return;
    }
    case PTX_OP_PREFETCH:
    case PTX_OP_PREFETCHU:
        if (sp != PTX_SPACE_NONE && sp != PTX_SPACE_GLOBAL && sp != PTX_SPACE_LOCAL)
            parse_fail_tok(P, &c->md.first, "'prefetch' works on .global, .local or generic memory");
        if (!c->md.level)
            parse_fail_tok(P, &c->md.first, "'%s' needs a cache level (.L1 or .L2)", c->opname);
        if (in->op == PTX_OP_PREFETCHU && c->md.level != 1)
            parse_fail_tok(P, &c->md.first, "'prefetchu' takes .L1");
        want_operands(P, c, 1, 1);
        resolve_addr(P, c, &c->raw[0], sp, 0, 0, &in->opnd[0]);
        in->nopnd = 1;
        return;
    case PTX_OP_CVTA: {
        if (!c->md.has_space || sp == PTX_SPACE_NONE)
            parse_fail_tok(P, &c->md.first, "'cvta' needs a state space (.global, .shared, .local, .const, .param)");
        ptx_type t = one_type(P, c, TB(PTX_T_U32) | TB(PTX_T_U64));
        in->type = (uint8_t)t;
        in->flags |= c->md.flags & PTX_F_TO;
        want_operands(P, c, 2, 2);
        resolve_dst(P, &c->raw[0], t, 0, &in->opnd[0]);
        resolve_src(P, c, &c->raw[1], t, ALLOW_IMM | ((c->md.flags & PTX_F_TO) ? 0 : ALLOW_SYM), &in->opnd[1]);
        ptx_operand *a = &in->opnd[1];
        if (a->kind == PTX_OPND_FUNC)
            parse_fail_tok(P, &c->raw[1].t, "cvta of a function address");
        if (a->kind == PTX_OPND_SYMADDR) {
            int ok = (a->addr_base == PTX_ABASE_SYM && P->m->vars[a->reg].space == sp) ||
                     (a->addr_base == PTX_ABASE_FRAME && (sp == PTX_SPACE_LOCAL || sp == PTX_SPACE_PARAM)) ||
                     (a->addr_base == PTX_ABASE_KPARAM && sp == PTX_SPACE_PARAM);
            if (!ok)
                parse_fail_tok(P, &c->raw[1].t, "'%.*s' is not in the .%s space", NAMEFMT(&c->raw[1].t),
                               space_name(sp));
        }
        in->ndst = 1;
        in->nopnd = 2;
        return;
    }
    case PTX_OP_ISSPACEP:
        if (!c->md.has_space || sp == PTX_SPACE_NONE)
            parse_fail_tok(P, &c->md.first, "'isspacep' needs a state space");
        want_operands(P, c, 2, 2);
        resolve_dst(P, &c->raw[0], PTX_T_PRED, 0, &in->opnd[0]);
        resolve_src(P, c, &c->raw[1], PTX_T_U64, ALLOW_IMM | ANY_WIDTH, &in->opnd[1]);
        in->ndst = 1;
        in->nopnd = 2;
        return;
    default:
        break;
    }
}

/* One call-site value: a .param variable of the caller's frame, a value register,
 * or (arguments only) an immediate typed by the callee's formal.  Returns its size
 * in bytes, checked against the callee's formal at the end of the module. */
static uint64_t call_value(parser *P, ptx_operand *o, int is_ret, const ptx_function *callee, uint32_t index)
{
    char buf[96];
    const char *what = is_ret ? "return value" : "call argument";
    memset(o, 0, sizeof(*o));
    int neg = !is_ret && accept_punct(P, '-');
    token t = P->tok;
    if (!is_ret && (t.kind == TK_INT || t.kind == TK_FLOAT)) {
        next_token(P);
        if (!callee)
            parse_fail_tok(P, &t, "immediate argument in a call to a function declared later");
        if (index >= callee->nparams)
            return 0; /* the count is reported at the end of the module */
        const ptx_param *formal = &callee->params[index];
        if (formal->size != ptx_type_size((ptx_type)formal->type))
            parse_fail_tok(P, &t, "immediate argument for the array parameter '%s'", formal->name);
        o->kind = PTX_OPND_IMM;
        o->imm = literal_bits(P, &t, neg, (ptx_type)formal->type);
        return formal->size;
    }
    if (t.kind != TK_IDENT)
        parse_fail_tok(P, &t, "expected a %s (a .param variable or a register), found %s", what,
                       tok_text(&t, buf, sizeof buf));
    next_token(P);
    uint32_t elem;
    sym *s = sym_lookup(P, t.text, t.len, &elem);
    if (!s)
        undefined_name(P, &t);
    if (s->kind == SYM_PARAM) {
        o->kind = PTX_OPND_ADDR;
        o->addr_base = PTX_ABASE_FRAME;
        o->imm = s->offset;
        return s->size;
    }
    if (s->kind == SYM_VREG || s->kind == SYM_VRANGE) {
        o->kind = PTX_OPND_REG;
        o->reg = s->index + elem;
        return ptx_type_size((ptx_type)s->type);
    }
    parse_fail_tok(P, &t, "%s '%.*s' must be a .param variable or a register", what, NAMEFMT(&t));
}

/* call{.uni} [(ret),] func[, (arg {, arg})]; */
static void decode_call(parser *P, ictx *c)
{
    ptx_insn *in = &c->in;
    ptx_function *f = P->fn;
    uint64_t ret_size[PTX_MAX_FRETS] = {0}, arg_size[PTX_MAX_FPARAMS] = {0};
    ptx_call call;
    memset(&call, 0, sizeof(call));
    call.line = c->md.first.line;

    if (tok_is_punct(&P->tok, '(')) {
        next_token(P);
        do {
            if (call.nrets >= PTX_MAX_FRETS)
                parse_fail_tok(P, &P->tok, "too many return values (at most %d)", PTX_MAX_FRETS);
            ret_size[call.nrets] = call_value(P, &call.rets[call.nrets], 1, NULL, call.nrets);
            call.nrets++;
        } while (accept_punct(P, ','));
        expect_punct(P, ')', "')' after return values");
        expect_punct(P, ',', "',' after return values");
    }
    token callee = P->tok;
    expect_kind(P, TK_IDENT, "a function name");
    next_token(P);
    uint32_t elem;
    const sym *cs = sym_lookup(P, callee.text, callee.len, &elem);
    if (cs && (cs->kind == SYM_VREG || cs->kind == SYM_VRANGE)) {
        /* an indirect call: the address in a 64-bit register, the callee's type given by
         * a .callprototype label after the arguments */
        raw_opnd r;
        memset(&r, 0, sizeof r);
        r.kind = RO_NAME;
        r.comp = -1;
        r.t = callee;
        resolve_reg(P, &r, PTX_T_B64, 0, &in->opnd[1]);
        call.indirect = 1;
    }
    const ptx_function *target = cs && cs->kind == SYM_FUNC ? &P->m->funcs[cs->index] : NULL;
    if (accept_punct(P, ',')) {
        expect_punct(P, '(', "'(' before call arguments");
        if (!tok_is_punct(&P->tok, ')')) {
            do {
                if (call.nargs >= PTX_MAX_FPARAMS)
                    parse_fail_tok(P, &P->tok, "too many call arguments (at most %d)", PTX_MAX_FPARAMS);
                arg_size[call.nargs] = call_value(P, &call.args[call.nargs], 0, target, call.nargs);
                call.nargs++;
            } while (accept_punct(P, ','));
        }
        expect_punct(P, ')', "')' after call arguments");
    }
    if (call.indirect) {
        if (!accept_punct(P, ','))
            parse_fail_tok(P, &P->tok, "an indirect call needs a prototype (.callprototype label) after its arguments");
        expect_kind(P, TK_IDENT, "a .callprototype label");
        next_token(P);
        f->calls = xrealloc_array(P, f->calls, &P->calls_cap, f->ncalls + 1, sizeof(ptx_call), PTX_MAX_INSNS, "calls");
        f->calls[f->ncalls] = call;
        in->call = f->ncalls++;
        in->opnd[0].kind = PTX_OPND_FUNC;
        in->nopnd = 2;
        return;
    }
    if (accept_punct(P, ','))
        parse_fail_tok(P, &P->tok, "a prototype is only for an indirect call (through a register)");
    f->calls = xrealloc_array(P, f->calls, &P->calls_cap, f->ncalls + 1, sizeof(ptx_call), PTX_MAX_INSNS, "calls");
    uint32_t ci = f->ncalls;
    f->calls[ci] = call;
    f->ncalls++;
    call_fixup *fx = add_call_fixup(P, f->ninsn, ci, &callee);
    memcpy(fx->arg_size, arg_size, sizeof(arg_size));
    memcpy(fx->ret_size, ret_size, sizeof(ret_size));
    in->call = ci;
    in->opnd[0].kind = PTX_OPND_FUNC;
    in->nopnd = 1;
}

/* bar / barrier: .sync a{, b} | .arrive a, b | .red.op.type d, a{, b}, {!}c | bar.warp.sync m */
/* ---- cp.async (sm_80) ----------------------------------------------------
 *   cp.async.{ca,cg}.shared{::cta}.global{.L2::cache_hint}{.L2::NNB} [d], [s], cp-size{, src-size | ignore-src}{, policy}
 *   cp.async.commit_group;   cp.async.wait_group N;   cp.async.wait_all;
 * IR: opnd[0] = shared ADDR, opnd[1] = global ADDR, opnd[2] = cp-size (IMM 4/8/16),
 * opnd[3] (optional) = src-size (REG/IMM, bytes read; the rest is zero-filled) or
 * ignore-src (PRED: true = read nothing, fill zeros).  mode = 1 for .cg.  The cache
 * policy operand of .L2::cache_hint is a hint and is dropped.  wait_group: opnd[0]
 * = N (IMM). */
enum {
    CP_ASYNC = 1u << 0, CP_CA = 1u << 1, CP_CG = 1u << 2, CP_SHARED = 1u << 3, CP_GLOBAL = 1u << 4,
    CP_HINT = 1u << 5, CP_PREFETCH = 1u << 6, CP_GROUP_OP = 1u << 7, CP_MBAR = 1u << 8,
    CP_MBAR_ARRIVE = 1u << 9, CP_MBAR_NOINC = 1u << 10, CP_MBAR_B64 = 1u << 11
};

static void cp_async_modifier(parser *P, ictx *c, const token *t)
{
    uint32_t *cp = &c->md.cp, bit = 0;
    if (!(*cp & CP_ASYNC)) {
        if (!tok_is(t, ".async"))
            parse_not_supported(P, &c->md.first, "only cp.async is implemented");
        *cp |= CP_ASYNC;
        return;
    }
    if (*cp & CP_GROUP_OP)
        parse_fail_tok(P, t, "unexpected modifier '%.*s' after '%s'", NAMEFMT(t), c->opname);
    if (tok_is(t, ".commit_group") || tok_is(t, ".wait_group") || tok_is(t, ".wait_all")) {
        if (*cp != CP_ASYNC)
            parse_fail_tok(P, t, "'%.*s' cannot follow copy modifiers", NAMEFMT(t));
        c->in.op = tok_is(t, ".commit_group") ? PTX_OP_CP_ASYNC_COMMIT
                   : tok_is(t, ".wait_group") ? PTX_OP_CP_ASYNC_WAIT
                                              : PTX_OP_CP_ASYNC_WAIT_ALL;
        c->opname = ptx_opcode_name((ptx_opcode)c->in.op);
        *cp |= CP_GROUP_OP;
        return;
    }
    if (tok_is(t, ".mbarrier") && *cp == CP_ASYNC) { /* cp.async.mbarrier.arrive{.noinc}.shared{::cta}.b64 */
        c->in.op = PTX_OP_CP_ASYNC_MBAR;
        c->opname = ptx_opcode_name(PTX_OP_CP_ASYNC_MBAR);
        *cp |= CP_MBAR;
        return;
    }
    if (*cp & CP_MBAR) {
        if (tok_is(t, ".arrive") && !(*cp & CP_MBAR_ARRIVE))
            bit = CP_MBAR_ARRIVE;
        else if (tok_is(t, ".noinc") && (*cp & CP_MBAR_ARRIVE))
            bit = CP_MBAR_NOINC;
        else if ((tok_is(t, ".shared") || tok_is(t, ".shared::cta")) && (*cp & CP_MBAR_ARRIVE))
            bit = CP_SHARED;
        else if (tok_is(t, ".b64") && (*cp & CP_MBAR_ARRIVE))
            bit = CP_MBAR_B64;
        else
            parse_fail_tok(P, t, "unexpected modifier '%.*s' for 'cp.async.mbarrier.arrive{.noinc}{.shared}.b64'",
                           NAMEFMT(t));
        if (*cp & bit)
            parse_fail_tok(P, t, "'%.*s' given twice", NAMEFMT(t));
        *cp |= bit;
        return;
    }
    if (tok_is(t, ".bulk"))
        parse_not_supported(P, &c->md.first, NULL);
    if (tok_is(t, ".ca") || tok_is(t, ".cg"))
        bit = (*cp & (CP_CA | CP_CG)) ? CP_CA | CP_CG : tok_is(t, ".ca") ? CP_CA : CP_CG;
    else if (tok_is(t, ".shared") || tok_is(t, ".shared::cta"))
        bit = CP_SHARED;
    else if (tok_is(t, ".global"))
        bit = CP_GLOBAL;
    else if (tok_is(t, ".L2::cache_hint"))
        bit = CP_HINT;
    else if (tok_is(t, ".L2::64B") || tok_is(t, ".L2::128B") || tok_is(t, ".L2::256B"))
        bit = CP_PREFETCH;
    else
        parse_fail_tok(P, t, "unsupported modifier '%.*s' for 'cp.async'", NAMEFMT(t));
    if (*cp & bit)
        parse_fail_tok(P, t, "'cp.async' has more than one '%.*s'-kind modifier", NAMEFMT(t));
    *cp |= bit;
}

static int raw_is_pred(parser *P, const raw_opnd *r)
{
    uint32_t elem;
    if (r->kind != RO_NAME)
        return 0;
    sym *s = sym_lookup(P, r->t.text, r->t.len, &elem);
    return s && (s->kind == SYM_PREG || s->kind == SYM_PRANGE);
}

static void decode_cp_async(parser *P, ictx *c)
{
    ptx_insn *in = &c->in;
    uint32_t cp = c->md.cp;
    if (!(cp & CP_ASYNC))
        parse_fail_tok(P, &c->md.first, "unsupported: 'cp' (only cp.async is implemented)");
    in->ndst = 0;
    if (in->op == PTX_OP_CP_ASYNC_MBAR) {
        if (!(cp & CP_MBAR_ARRIVE) || !(cp & CP_MBAR_B64))
            parse_fail_tok(P, &c->md.first, "expected 'cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64 [addr]'");
        want_operands(P, c, 1, 1);
        in->space = (cp & CP_SHARED) ? PTX_SPACE_SHARED : PTX_SPACE_NONE;
        in->aux = (cp & CP_MBAR_NOINC) ? PTX_MBAR_NOINC : 0;
        in->type = PTX_T_B64;
        resolve_addr(P, c, &c->raw[0], (ptx_space)in->space, 1, 8, &in->opnd[0]);
        in->nopnd = 1;
        return;
    }
    if (in->op == PTX_OP_CP_ASYNC_COMMIT || in->op == PTX_OP_CP_ASYNC_WAIT_ALL) {
        want_operands(P, c, 0, 0);
        in->nopnd = 0;
        return;
    }
    if (in->op == PTX_OP_CP_ASYNC_WAIT) {
        want_operands(P, c, 1, 1);
        if (c->raw[0].kind != RO_NUM)
            parse_fail_tok(P, &c->raw[0].t, "'cp.async.wait_group' takes an integer constant");
        resolve_src(P, c, &c->raw[0], PTX_T_U32, ALLOW_IMM, &in->opnd[0]);
        in->nopnd = 1;
        return;
    }
    if (!(cp & (CP_CA | CP_CG)) || !(cp & CP_SHARED) || !(cp & CP_GLOBAL))
        parse_fail_tok(P, &c->md.first, "'cp.async' needs .ca or .cg, .shared and .global");
    uint32_t hint = (cp & CP_HINT) ? 1 : 0;
    want_operands(P, c, 3 + hint, 4 + hint);
    if (c->raw[2].kind != RO_NUM)
        parse_fail_tok(P, &c->raw[2].t, "'cp.async' copy size must be an integer constant (4, 8 or 16)");
    resolve_src(P, c, &c->raw[2], PTX_T_U32, ALLOW_IMM, &in->opnd[2]);
    uint64_t size = (uint64_t)in->opnd[2].imm;
    if (size != 4 && size != 8 && size != 16)
        parse_fail_tok(P, &c->raw[2].t, "'cp.async' copy size must be 4, 8 or 16, found %llu", (unsigned long long)size);
    if ((cp & CP_CG) && size != 16)
        parse_fail_tok(P, &c->raw[2].t, "'cp.async.cg' copies 16 bytes, found %llu", (unsigned long long)size);
    in->space = PTX_SPACE_SHARED;
    in->mode = (uint8_t)((cp & CP_CG) ? 1 : 0);
    resolve_addr(P, c, &c->raw[0], PTX_SPACE_SHARED, 1, size, &in->opnd[0]);
    resolve_addr(P, c, &c->raw[1], PTX_SPACE_GLOBAL, 0, size, &in->opnd[1]);
    in->nopnd = 3;
    if (c->nraw == 4 + hint) {
        const raw_opnd *r = &c->raw[3];
        if (raw_is_pred(P, r)) {
            resolve_src(P, c, r, PTX_T_PRED, 0, &in->opnd[3]);
        } else {
            resolve_src(P, c, r, PTX_T_U32, ALLOW_IMM, &in->opnd[3]);
            if (in->opnd[3].kind == PTX_OPND_IMM && (uint64_t)in->opnd[3].imm > size)
                parse_fail_tok(P, &r->t, "'cp.async' source size %llu exceeds the copy size %llu",
                               (unsigned long long)in->opnd[3].imm, (unsigned long long)size);
        }
        in->nopnd = 4;
    }
    if (hint) { /* cache policy: a 64-bit register, checked and dropped */
        ptx_operand pol;
        resolve_src(P, c, &c->raw[c->nraw - 1], PTX_T_B64, 0, &pol);
    }
}

/* mbarrier.<op>{.variant}{.sem}{.scope}{.space}.b64 (PTX ISA 8.x, 9.7.13.15).  The
 * first modifier names the operation (ptx_insn.mode); then, in any order: the
 * variants .noComplete, .expect_tx (after arrive / arrive_drop) and .parity (after
 * test_wait / try_wait); the memory-ordering .release/.acquire/.relaxed and the
 * scope .cta/.cluster (execution here is sequentially consistent: accepted, no
 * effect); the space .shared, .shared::cta, .shared::cluster (one CTA per cluster:
 * the same memory); and .b64, which every form but pending_count's own needs. */
enum {
    MB_OP = 1u << 0, MB_NOCOMPLETE = 1u << 1, MB_TX = 1u << 2, MB_PARITY = 1u << 3, MB_SEM = 1u << 4,
    MB_SCOPE = 1u << 5, MB_SHARED = 1u << 6, MB_B64 = 1u << 7, MB_CLUSTER = 1u << 8
};

static void mbar_modifier(parser *P, ictx *c, const token *t)
{
    static const struct { const char *name; uint8_t mode; } ops[] = {
        {".init", PTX_MBAR_INIT}, {".inval", PTX_MBAR_INVAL}, {".arrive", PTX_MBAR_ARRIVE},
        {".arrive_drop", PTX_MBAR_ARRIVE_DROP}, {".expect_tx", PTX_MBAR_EXPECT_TX},
        {".complete_tx", PTX_MBAR_COMPLETE_TX}, {".test_wait", PTX_MBAR_TEST_WAIT},
        {".try_wait", PTX_MBAR_TRY_WAIT},
    };
    uint32_t *mb = &c->md.mbar, bit = 0;
    ptx_insn *in = &c->in;
    if (!(*mb & MB_OP)) {
        *mb |= MB_OP;
        if (tok_is(t, ".pending_count")) {
            in->op = PTX_OP_MBARRIER_PENDING;
            c->opname = ptx_opcode_name(PTX_OP_MBARRIER_PENDING);
            return;
        }
        for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
            if (tok_is(t, ops[i].name)) {
                in->mode = ops[i].mode;
                return;
            }
        parse_fail_tok(P, t, "unknown mbarrier operation '%.*s'", NAMEFMT(t));
    }
    int arrive = in->mode == PTX_MBAR_ARRIVE || in->mode == PTX_MBAR_ARRIVE_DROP;
    int wait = in->mode == PTX_MBAR_TEST_WAIT || in->mode == PTX_MBAR_TRY_WAIT;
    if (tok_is(t, ".noComplete") && arrive)
        bit = MB_NOCOMPLETE;
    else if (tok_is(t, ".expect_tx") && arrive)
        bit = MB_TX;
    else if (tok_is(t, ".parity") && wait)
        bit = MB_PARITY;
    else if (tok_is(t, ".release") || tok_is(t, ".acquire") || tok_is(t, ".relaxed"))
        bit = MB_SEM;
    else if (tok_is(t, ".cta") || tok_is(t, ".cluster"))
        bit = MB_SCOPE;
    else if (tok_is(t, ".shared") || tok_is(t, ".shared::cta"))
        bit = MB_SHARED;
    else if (tok_is(t, ".shared::cluster"))
        bit = MB_SHARED | MB_CLUSTER;
    else if (tok_is(t, ".b64"))
        bit = MB_B64;
    else
        parse_fail_tok(P, t, "unsupported modifier '%.*s' for '%s'", NAMEFMT(t), c->opname);
    if (*mb & bit & ~MB_CLUSTER)
        parse_fail_tok(P, t, "'%s' has more than one '%.*s'-kind modifier", c->opname, NAMEFMT(t));
    *mb |= bit;
}

static void decode_mbarrier(parser *P, ictx *c)
{
    ptx_insn *in = &c->in;
    uint32_t mb = c->md.mbar;
    if (!(mb & MB_OP))
        parse_fail_tok(P, &c->md.first, "'mbarrier' needs an operation (.init, .arrive, .test_wait, ...)");
    if (!(mb & MB_B64))
        parse_fail_tok(P, &c->md.first, "'%s' needs .b64", c->opname);
    if (c->md.ntypes || c->md.flags)
        parse_fail_tok(P, &c->md.first, "unexpected modifier on '%s'", c->opname);
    in->ndst = 0;
    in->type = PTX_T_B64;
    if (in->op == PTX_OP_MBARRIER_PENDING) {
        if (mb & ~(MB_OP | MB_B64))
            parse_fail_tok(P, &c->md.first, "expected 'mbarrier.pending_count.b64 count, state'");
        want_operands(P, c, 2, 2);
        resolve_dst(P, &c->raw[0], PTX_T_U32, 0, &in->opnd[0]);
        resolve_src(P, c, &c->raw[1], PTX_T_B64, 0, &in->opnd[1]);
        in->ndst = 1;
        in->nopnd = 2;
        return;
    }
    in->space = (mb & MB_SHARED) ? PTX_SPACE_SHARED : PTX_SPACE_NONE;
    in->aux = (uint8_t)(((mb & MB_NOCOMPLETE) ? PTX_MBAR_NOCOMPLETE : 0) | ((mb & MB_TX) ? PTX_MBAR_WITH_TX : 0) |
                        ((mb & MB_PARITY) ? PTX_MBAR_PARITY : 0));
    const raw_opnd *r = c->raw;
    switch ((ptx_mbarmode)in->mode) {
    case PTX_MBAR_INIT: case PTX_MBAR_EXPECT_TX: case PTX_MBAR_COMPLETE_TX:
        want_operands(P, c, 2, 2);
        resolve_addr(P, c, &r[0], (ptx_space)in->space, 1, 8, &in->opnd[0]);
        resolve_src(P, c, &r[1], PTX_T_U32, ALLOW_IMM, &in->opnd[1]);
        in->nopnd = 2;
        return;
    case PTX_MBAR_INVAL:
        want_operands(P, c, 1, 1);
        resolve_addr(P, c, &r[0], (ptx_space)in->space, 1, 8, &in->opnd[0]);
        in->nopnd = 1;
        return;
    case PTX_MBAR_ARRIVE: case PTX_MBAR_ARRIVE_DROP: {
        int needs_count = (mb & (MB_NOCOMPLETE | MB_TX)) != 0;
        if ((mb & MB_NOCOMPLETE) && (mb & MB_TX))
            parse_fail_tok(P, &c->md.first, "'%s' takes .noComplete or .expect_tx, not both", c->opname);
        want_operands(P, c, needs_count ? 3 : 2, 3);
        /* the state of a remote (.shared::cluster) arrive is not returned: '_' */
        resolve_dst(P, &r[0], PTX_T_B64, ALLOW_SINK, &in->opnd[0]);
        if ((mb & MB_CLUSTER) && in->opnd[0].kind != PTX_OPND_SINK)
            parse_fail_tok(P, &r[0].t, "'%s' on .shared::cluster returns no state: write '_'", c->opname);
        resolve_addr(P, c, &r[1], (ptx_space)in->space, 1, 8, &in->opnd[1]);
        if (c->nraw == 3)
            resolve_src(P, c, &r[2], PTX_T_U32, ALLOW_IMM, &in->opnd[2]);
        in->ndst = 1;
        in->nopnd = 3;
        return;
    }
    case PTX_MBAR_TEST_WAIT: case PTX_MBAR_TRY_WAIT:
        want_operands(P, c, 3, in->mode == PTX_MBAR_TRY_WAIT ? 4 : 3);
        resolve_dst(P, &r[0], PTX_T_PRED, 0, &in->opnd[0]);
        resolve_addr(P, c, &r[1], (ptx_space)in->space, 0, 8, &in->opnd[1]);
        resolve_src(P, c, &r[2], (mb & MB_PARITY) ? PTX_T_U32 : PTX_T_B64, (mb & MB_PARITY) ? ALLOW_IMM : 0,
                    &in->opnd[2]);
        if (c->nraw == 4) /* suspendTimeHint (ns): a hint, checked and kept */
            resolve_src(P, c, &r[3], PTX_T_U32, ALLOW_IMM, &in->opnd[3]);
        in->ndst = 1;
        in->nopnd = (uint8_t)c->nraw;
        return;
    default:
        parse_fail_tok(P, &c->md.first, "unknown mbarrier operation");
    }
}

/* ---- tensor cores: wmma, mma, ldmatrix (docs/tensor.md) ---------------- */

/* .tf32 has no ptx_type of its own: tensor instructions keep it as .b32. */
static ptx_type tensor_type_from(const token *t)
{
    if (tok_is(t, ".tf32"))
        return PTX_T_B32;
    ptx_type ty = ptx_type_from_name(t->text, t->len);
    switch (ty) {
    case PTX_T_F16: case PTX_T_BF16: case PTX_T_F32: case PTX_T_F64: case PTX_T_S8: case PTX_T_U8:
    case PTX_T_S32: case PTX_T_B16:
        return ty;
    default:
        return PTX_T_NONE;
    }
}

static void tensor_modifier(parser *P, ictx *c, const token *t, int wmma_first)
{
    mods *md = &c->md;
    if (wmma_first) {
        if (tok_is(t, ".load"))
            c->in.op = PTX_OP_WMMA_LOAD;
        else if (tok_is(t, ".store"))
            c->in.op = PTX_OP_WMMA_STORE;
        else if (tok_is(t, ".mma"))
            c->in.op = PTX_OP_WMMA_MMA;
        else
            parse_not_supported(P, &md->first, "wmma takes .load, .store or .mma");
        c->opname = ptx_opcode_name((ptx_opcode)c->in.op);
        return;
    }
    static const struct {
        const char *name;
        uint32_t shape;
    } shapes[] = {
        {".m16n16k16", PTX_SHAPE_M16N16K16}, {".m32n8k16", PTX_SHAPE_M32N8K16}, {".m8n32k16", PTX_SHAPE_M8N32K16},
        {".m16n16k8", PTX_SHAPE_M16N16K8},   {".m16n8k16", PTX_SHAPE_M16N8K16}, {".m16n8k8", PTX_SHAPE_M16N8K8},
        {".m16n8k32", PTX_SHAPE_M16N8K32},   {".m8n8", PTX_SHAPE_M8N8},
    };
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        if (tok_is(t, shapes[i].name)) {
            SET_ONCE(md->tshape, shapes[i].shape, "shape");
            return;
        }
    ptx_type ty = tensor_type_from(t);
    if (ty != PTX_T_NONE) {
        if (md->nttypes >= 4)
            parse_fail_tok(P, t, "'%s' has too many type modifiers", c->opname);
        md->ttypes[md->nttypes++] = ty;
        return;
    }
    int is_wmma_ls = c->in.op == PTX_OP_WMMA_LOAD || c->in.op == PTX_OP_WMMA_STORE;
    if (tok_is(t, ".sync"))
        SET_ONCE(md->tsync, 1, ".sync");
    else if (tok_is(t, ".aligned"))
        SET_ONCE(md->taligned, 1, ".aligned");
    else if (tok_is(t, ".row") || tok_is(t, ".col")) {
        if (md->nlayout >= 2)
            parse_fail_tok(P, t, "'%s' has too many layout modifiers", c->opname);
        md->tlayout[md->nlayout++] = tok_is(t, ".row") ? 1 : 2;
    } else if (is_wmma_ls && (tok_is(t, ".a") || tok_is(t, ".b") || tok_is(t, ".c") || tok_is(t, ".d")))
        SET_ONCE(md->tfrag, 1 + (uint32_t)(t->text[1] - 'a'), "fragment");
    else if (is_wmma_ls && (tok_is(t, ".global") || tok_is(t, ".shared") || tok_is(t, ".shared::cta"))) {
        if (md->has_space)
            dup_fail(P, t, "state space", c->opname);
        md->has_space = 1;
        md->space = tok_is(t, ".global") ? PTX_SPACE_GLOBAL : PTX_SPACE_SHARED;
    } else if (c->in.op == PTX_OP_LDMATRIX && (tok_is(t, ".shared") || tok_is(t, ".shared::cta"))) {
        if (md->has_space)
            dup_fail(P, t, "state space", c->opname);
        md->has_space = 1;
        md->space = PTX_SPACE_SHARED;
    } else if (c->in.op == PTX_OP_LDMATRIX && (tok_is(t, ".x1") || tok_is(t, ".x2") || tok_is(t, ".x4")))
        SET_ONCE(md->tnum, (uint32_t)(t->text[2] - '0'), "count");
    else if (c->in.op == PTX_OP_LDMATRIX && tok_is(t, ".trans"))
        SET_ONCE(md->ttrans, 1, ".trans");
    else if ((c->in.op == PTX_OP_MMA || c->in.op == PTX_OP_WMMA_MMA) && tok_is(t, ".satfinite"))
        SET_ONCE(md->tsat, 1, ".satfinite");
    else
        parse_unsupported(P, t, "unsupported modifier '%.*s' for '%s'", NAMEFMT(t), c->opname);
}

/* Element type of the registers of a fragment of element type t: f32 and s32
 * accumulators are one element a register, the rest are packed in .b32. */
static ptx_type frag_reg_type(ptx_type t)
{
    return t == PTX_T_F32 ? PTX_T_F32 : t == PTX_T_S32 ? PTX_T_S32 : PTX_T_B32;
}

/* Registers of a wmma fragment (PTX ISA, "Matrix fragments for WMMA"): .f16 A and
 * B fragments are 8 .f16x2 registers whatever the shape (the data is replicated
 * where the matrix is smaller), every other fragment holds its matrix exactly
 * once across the warp's 32 threads. */
static uint32_t wmma_frag_regs(uint32_t shape, uint32_t frag, ptx_type t)
{
    uint32_t m, n, k;
    ptx_mma_dims((ptx_mma_shape)shape, &m, &n, &k);
    if ((frag == PTX_FRAG_A || frag == PTX_FRAG_B) && t == PTX_T_F16)
        return 8;
    uint32_t elems = frag == PTX_FRAG_A ? m * k : frag == PTX_FRAG_B ? k * n : m * n;
    return elems * ptx_type_size(t) * 8 / (32 * 32);
}

/* Which element types wmma takes for A/B at a shape, and for C/D. */
static int wmma_ab_type_ok(uint32_t shape, ptx_type t)
{
    if (shape == PTX_SHAPE_M16N16K8)
        return t == PTX_T_B32;
    return t == PTX_T_F16 || t == PTX_T_BF16 || t == PTX_T_S8 || t == PTX_T_U8;
}

static void tensor_common(parser *P, ictx *c)
{
    if (!c->md.tsync || !c->md.taligned)
        parse_fail_tok(P, &c->md.first, "'%s' needs .sync.aligned", c->opname);
    if (!c->md.tshape)
        parse_fail_tok(P, &c->md.first, "'%s' needs a shape (.m16n16k16, ...)", c->opname);
    int ldm = c->in.op == PTX_OP_LDMATRIX;
    if (ldm != (c->md.tshape == PTX_SHAPE_M8N8))
        parse_not_supported(P, &c->md.first, ldm ? "ldmatrix takes .m8n8" : "this shape");
    int wmma = c->in.op != PTX_OP_MMA && !ldm;
    if (!ldm && wmma != (c->md.tshape <= PTX_SHAPE_M16N16K8))
        parse_not_supported(P, &c->md.first, "this shape");
    c->in.mode = (uint8_t)c->md.tshape;
}

static void decode_wmma_ls(parser *P, ictx *c)
{
    ptx_insn *in = &c->in;
    mods *md = &c->md;
    int store = in->op == PTX_OP_WMMA_STORE;
    if (!md->tfrag || (store ? md->tfrag != 1 + PTX_FRAG_D : md->tfrag == 1 + PTX_FRAG_D))
        parse_fail_tok(P, &md->first, "'%s' needs %s", c->opname, store ? ".d" : ".a, .b or .c");
    if (md->nlayout != 1 || md->nttypes != 1)
        parse_fail_tok(P, &md->first, "'%s' needs one layout (.row/.col) and one type", c->opname);
    uint32_t frag = md->tfrag - 1;
    ptx_type t = md->ttypes[0];
    int ok = frag <= PTX_FRAG_B ? wmma_ab_type_ok(md->tshape, t)
                                : t == PTX_T_F32 || t == PTX_T_S32 || (t == PTX_T_F16 && md->tshape != PTX_SHAPE_M16N16K8);
    if (!ok)
        parse_not_supported(P, &md->first, "this type for this fragment and shape");
    if (md->has_space && md->space != PTX_SPACE_GLOBAL && md->space != PTX_SPACE_SHARED)
        parse_fail_tok(P, &md->first, "'%s' takes .global, .shared or a generic address", c->opname);
    in->space = (uint8_t)(md->has_space ? md->space : PTX_SPACE_NONE);
    in->type = (uint8_t)t;
    in->aux = (uint8_t)(frag | (md->tlayout[0] == 2 ? PTX_MMA_COL : 0));
    uint32_t nregs = wmma_frag_regs(md->tshape, frag, t);
    want_operands(P, c, 2, 3);
    uint32_t fi = store ? 1 : 0, ai = store ? 0 : 1;
    resolve_vec(P, c, &c->raw[fi], nregs, frag_reg_type(t), !store, 0, &in->opnd[fi]);
    for (uint32_t e = 0; e < nregs; e++)
        if (!ptx_vec_elem_is_reg(&in->opnd[fi], e))
            parse_fail_tok(P, &c->raw[fi].t, "'%s' needs a register for every fragment element", c->opname);
    resolve_addr(P, c, &c->raw[ai], (ptx_space)in->space, store, ptx_type_size(t), &in->opnd[ai]);
    if (c->nraw == 3)
        resolve_src(P, c, &c->raw[2], PTX_T_U32, ALLOW_IMM, &in->opnd[2]);
    in->nopnd = (uint8_t)c->nraw;
    in->ndst = (uint8_t)!store;
}

/* Registers of an mma.sync operand (PTX ISA, "Matrix fragments for mma.m16n8k*"):
 * each thread holds (rows x cols / 32) elements, packed in .b32 registers. */
static uint32_t mma_frag_regs(uint32_t rows, uint32_t cols, ptx_type t)
{
    return rows * cols / 32 * ptx_type_size(t) / 4;
}

static void decode_mma(parser *P, ictx *c)
{
    ptx_insn *in = &c->in;
    mods *md = &c->md;
    int wmma = in->op == PTX_OP_WMMA_MMA;
    if (md->nlayout != 2)
        parse_fail_tok(P, &md->first, "'%s' needs two layouts (A's and B's)", c->opname);
    if (!wmma && (md->tlayout[0] != 1 || md->tlayout[1] != 2))
        parse_fail_tok(P, &md->first, "'%s' of this shape takes .row.col", c->opname);
    ptx_type d, a, b, ct;
    if (md->nttypes == 4) {
        d = md->ttypes[0], a = md->ttypes[1], b = md->ttypes[2], ct = md->ttypes[3];
    } else if (md->nttypes == 2 && wmma) { /* wmma .f16 inputs: .dtype.ctype */
        d = md->ttypes[0], ct = md->ttypes[1], a = b = PTX_T_F16;
    } else {
        parse_fail_tok(P, &md->first, "'%s' needs .dtype.atype.btype.ctype%s", c->opname,
                       wmma ? " (or .dtype.ctype for .f16)" : "");
    }
    int is_int = a == PTX_T_S8 || a == PTX_T_U8;
    int ok;
    if (is_int)
        ok = (b == PTX_T_S8 || b == PTX_T_U8) && d == PTX_T_S32 && ct == PTX_T_S32 &&
             (wmma ? md->tshape != PTX_SHAPE_M16N16K8
                   : md->tshape == PTX_SHAPE_M16N8K16 || md->tshape == PTX_SHAPE_M16N8K32);
    else if (a == PTX_T_F16)
        ok = b == a && (d == PTX_T_F16 || d == PTX_T_F32) && (ct == PTX_T_F16 || ct == PTX_T_F32) &&
             md->tshape != PTX_SHAPE_M16N16K8 && md->tshape != PTX_SHAPE_M16N8K32;
    else if (a == PTX_T_BF16)
        ok = b == a && d == PTX_T_F32 && ct == PTX_T_F32 && md->tshape != PTX_SHAPE_M16N16K8 &&
             md->tshape != PTX_SHAPE_M16N8K32;
    else if (a == PTX_T_B32)
        ok = b == a && d == PTX_T_F32 && ct == PTX_T_F32 &&
             (md->tshape == PTX_SHAPE_M16N16K8 || md->tshape == PTX_SHAPE_M16N8K8);
    else
        ok = 0;
    if (!ok)
        parse_not_supported(P, &md->first, "this combination of types and shape");
    if (md->tsat && !is_int)
        parse_fail_tok(P, &md->first, "'%s': .satfinite is for integer types here", c->opname);
    in->type = (uint8_t)a;
    in->type2 = (uint8_t)b;
    in->dtype = (uint8_t)d;
    in->ctype = (uint8_t)ct;
    in->aux = (uint8_t)((md->tlayout[0] == 2 ? 1 : 0) | (md->tlayout[1] == 2 ? 2 : 0));
    if (md->tsat)
        in->flags |= PTX_F_SAT;
    uint32_t m, n, k;
    ptx_mma_dims((ptx_mma_shape)md->tshape, &m, &n, &k);
    uint32_t ra, rb, rc, rd;
    if (wmma) {
        ra = wmma_frag_regs(md->tshape, PTX_FRAG_A, a);
        rb = wmma_frag_regs(md->tshape, PTX_FRAG_B, b);
        rc = wmma_frag_regs(md->tshape, PTX_FRAG_C, ct);
        rd = wmma_frag_regs(md->tshape, PTX_FRAG_D, d);
    } else {
        ra = mma_frag_regs(m, k, a);
        rb = mma_frag_regs(k, n, b);
        rc = mma_frag_regs(m, n, ct);
        rd = mma_frag_regs(m, n, d);
    }
    want_operands(P, c, 4, 4);
    const uint32_t want[4] = {rd, ra, rb, rc};
    const ptx_type ty[4] = {frag_reg_type(d), PTX_T_B32, PTX_T_B32, frag_reg_type(ct)};
    for (uint32_t i = 0; i < 4; i++) {
        if (c->raw[i].kind != RO_VEC)
            parse_fail_tok(P, &c->raw[i].t, "'%s' operand %u must be a vector '{...}' of %u registers", c->opname,
                           i + 1, want[i]);
        resolve_vec(P, c, &c->raw[i], want[i], ty[i], i == 0, 0, &in->opnd[i]);
        for (uint32_t e = 0; e < want[i]; e++)
            if (!ptx_vec_elem_is_reg(&in->opnd[i], e))
                parse_fail_tok(P, &c->raw[i].t, "'%s' needs a register for every fragment element", c->opname);
    }
    in->nopnd = 4;
    in->ndst = 1;
}

static void decode_ldmatrix(parser *P, ictx *c)
{
    ptx_insn *in = &c->in;
    mods *md = &c->md;
    if (!md->tnum || md->nttypes != 1 || md->ttypes[0] != PTX_T_B16)
        parse_fail_tok(P, &md->first, "'ldmatrix' needs .x1, .x2 or .x4 and .b16");
    if (md->nlayout)
        parse_fail_tok(P, &md->first, "'ldmatrix' takes no layout");
    in->space = (uint8_t)(md->has_space ? PTX_SPACE_SHARED : PTX_SPACE_NONE); /* else generic */
    in->type = PTX_T_B16;
    in->aux = (uint8_t)(md->tnum | (md->ttrans ? PTX_MMA_TRANS : 0));
    want_operands(P, c, 2, 2);
    if (c->raw[0].kind != RO_VEC)
        parse_fail_tok(P, &c->raw[0].t, "'ldmatrix' writes a vector '{...}' of %u registers", md->tnum);
    resolve_vec(P, c, &c->raw[0], md->tnum, PTX_T_B32, 1, 0, &in->opnd[0]);
    for (uint32_t e = 0; e < md->tnum; e++)
        if (!ptx_vec_elem_is_reg(&in->opnd[0], e))
            parse_fail_tok(P, &c->raw[0].t, "'ldmatrix' needs a register for every element");
    resolve_addr(P, c, &c->raw[1], (ptx_space)in->space, 0, 16, &in->opnd[1]);
    in->nopnd = 2;
    in->ndst = 1;
}

static void decode_tensor(parser *P, ictx *c)
{
    tensor_common(P, c);
    switch ((ptx_opcode)c->in.op) {
    case PTX_OP_WMMA_LOAD: case PTX_OP_WMMA_STORE: decode_wmma_ls(P, c); break;
    case PTX_OP_LDMATRIX: decode_ldmatrix(P, c); break;
    default: decode_mma(P, c); break;
    }
}

static void decode_barrier(parser *P, ictx *c)
{
    ptx_insn *in = &c->in;
    uint32_t fl = c->md.flags;
    int is_bar = in->op == PTX_OP_BAR;
    in->op = PTX_OP_BAR; /* barrier{.cta}.sync == bar.sync for this simulator */
    if (fl & PTX_F_WARP) {
        if (!is_bar || (fl & ~(PTX_F_WARP | PTX_F_SYNC)) || !(fl & PTX_F_SYNC) || c->md.ntypes || c->md.atom)
            parse_fail_tok(P, &c->md.first, "expected 'bar.warp.sync mask'");
        want_operands(P, c, 1, 1);
        resolve_src(P, c, &c->raw[0], PTX_T_B32, ALLOW_IMM, &in->opnd[0]);
        in->nopnd = 1;
        return;
    }
    uint32_t kind = fl & (PTX_F_SYNC | PTX_F_ARRIVE | PTX_F_RED);
    if (kind != PTX_F_SYNC && kind != PTX_F_ARRIVE && kind != PTX_F_RED)
        parse_fail_tok(P, &c->md.first, "'%s' needs exactly one of .sync, .arrive, .red", c->opname);
    if (kind != PTX_F_RED) {
        if (c->md.ntypes || c->md.atom)
            parse_fail_tok(P, &c->md.first, "'%s': type or operation only with .red", c->opname);
        if (kind == PTX_F_ARRIVE)
            want_operands(P, c, 2, 2);
        else
            want_operands(P, c, 1, 2);
        for (uint32_t i = 0; i < c->nraw; i++)
            resolve_src(P, c, &c->raw[i], PTX_T_U32, ALLOW_IMM | ALLOW_WIDER, &in->opnd[i]);
        in->nopnd = (uint8_t)c->nraw;
        return;
    }
    ptx_atomop op = c->md.atom;
    if (op == PTX_ATOM_POPC) {
        if (one_type(P, c, TB(PTX_T_U32)) != PTX_T_U32)
            fail_type(P, c, c->md.types[0]);
        in->type = PTX_T_U32;
    } else if (op == PTX_ATOM_AND || op == PTX_ATOM_OR) {
        in->type = (uint8_t)one_type(P, c, TB(PTX_T_PRED));
    } else {
        parse_fail_tok(P, &c->md.first, "'bar.red' needs .popc.u32, .and.pred or .or.pred");
    }
    in->mode = (uint8_t)op;
    want_operands(P, c, 3, 4);
    resolve_dst(P, &c->raw[0], (ptx_type)in->type, 0, &in->opnd[0]);
    resolve_src(P, c, &c->raw[1], PTX_T_U32, ALLOW_IMM | ALLOW_WIDER, &in->opnd[1]);
    if (c->nraw == 4)
        resolve_src(P, c, &c->raw[2], PTX_T_U32, ALLOW_IMM | ALLOW_WIDER, &in->opnd[2]);
    /* opnd[2] stays NONE when the thread count is omitted */
    resolve_src(P, c, &c->raw[c->nraw - 1], PTX_T_PRED, ALLOW_IMM, &in->opnd[3]);
    in->ndst = 1;
    in->nopnd = 4;
}

static void decode_warp(parser *P, ictx *c)
{
    ptx_insn *in = &c->in;
    int sync = (c->md.flags & PTX_F_SYNC) != 0;
    switch ((ptx_opcode)in->op) {
    case PTX_OP_SHFL: {
        in->type = (uint8_t)one_type(P, c, TB(PTX_T_B32));
        if (!c->md.shfl)
            parse_fail_tok(P, &c->md.first, "'shfl' needs a mode (.up, .down, .bfly, .idx)");
        in->mode = (uint8_t)c->md.shfl;
        /* d[|p], a, b, c[, membermask] -> d, p, a, b, c[, mask] */
        int has_p = c->nraw >= 1 && c->raw[0].pipe;
        uint32_t want = (uint32_t)has_p + 4 + (uint32_t)sync;
        if (c->nraw != want)
            parse_fail_tok(P, &c->md.first, "'%s' takes %u operands here, found %u", c->opname, want, c->nraw);
        for (uint32_t i = 1; i < c->nraw; i++)
            if (c->raw[i].pipe)
                parse_fail_tok(P, &c->raw[i].t, "unexpected '|'");
        resolve_dst(P, &c->raw[0], PTX_T_B32, 0, &in->opnd[0]);
        if (has_p) {
            resolve_dst(P, &c->raw[1], PTX_T_PRED, ALLOW_SINK, &in->opnd[1]);
        } else {
            in->opnd[1].kind = PTX_OPND_SINK;
            in->opnd[1].reg = PTX_REG_SINK;
        }
        uint32_t k = (uint32_t)has_p + 1;
        resolve_src(P, c, &c->raw[k], PTX_T_B32, ALLOW_IMM, &in->opnd[2]);
        for (uint32_t i = 1; k + i < c->nraw; i++)
            resolve_src(P, c, &c->raw[k + i], PTX_T_U32, ALLOW_IMM | ALLOW_WIDER, &in->opnd[2 + i]);
        in->ndst = 2;
        in->nopnd = (uint8_t)(5 + sync);
        return;
    }
    case PTX_OP_VOTE: {
        if (!c->md.vote)
            parse_fail_tok(P, &c->md.first, "'vote' needs a mode (.all, .any, .uni, .ballot)");
        in->mode = (uint8_t)c->md.vote;
        ptx_type t = one_type(P, c, c->md.vote == PTX_VOTE_BALLOT ? TB(PTX_T_B32) : TB(PTX_T_PRED));
        in->type = (uint8_t)t;
        want_operands(P, c, 2 + sync, 2 + sync);
        resolve_dst(P, &c->raw[0], t, 0, &in->opnd[0]);
        resolve_src(P, c, &c->raw[1], PTX_T_PRED, ALLOW_IMM, &in->opnd[1]);
        if (sync)
            resolve_src(P, c, &c->raw[2], PTX_T_U32, ALLOW_IMM | ALLOW_WIDER, &in->opnd[2]);
        in->ndst = 1;
        in->nopnd = (uint8_t)(2 + sync);
        return;
    }
    case PTX_OP_MATCH: {
        if (!c->md.match || !sync)
            parse_fail_tok(P, &c->md.first, "expected 'match.any.sync' or 'match.all.sync'");
        in->mode = (uint8_t)c->md.match;
        ptx_type t = one_type(P, c, TB(PTX_T_B32) | TB(PTX_T_B64));
        in->type = (uint8_t)t;
        int has_p = c->nraw >= 1 && c->raw[0].pipe;
        if (has_p && c->md.match != PTX_MATCH_ALL)
            parse_fail_tok(P, &c->raw[0].t, "'match.any' has no predicate destination");
        uint32_t want = 3 + (uint32_t)has_p;
        if (c->nraw != want)
            parse_fail_tok(P, &c->md.first, "'match' takes %u operands here, found %u", want, c->nraw);
        resolve_dst(P, &c->raw[0], PTX_T_B32, 0, &in->opnd[0]);
        if (has_p) {
            resolve_dst(P, &c->raw[1], PTX_T_PRED, ALLOW_SINK, &in->opnd[1]);
        } else {
            in->opnd[1].kind = PTX_OPND_SINK;
            in->opnd[1].reg = PTX_REG_SINK;
        }
        resolve_src(P, c, &c->raw[want - 2], t, ALLOW_IMM, &in->opnd[2]);
        resolve_src(P, c, &c->raw[want - 1], PTX_T_U32, ALLOW_IMM | ALLOW_WIDER, &in->opnd[3]);
        in->ndst = 2;
        in->nopnd = 4;
        return;
    }
    case PTX_OP_REDUX: {
        if (!sync)
            parse_fail_tok(P, &c->md.first, "expected 'redux.sync'");
        ptx_atomop op = c->md.atom;
        uint64_t set;
        if (op == PTX_ATOM_ADD || op == PTX_ATOM_MIN || op == PTX_ATOM_MAX)
            set = TB(PTX_T_U32) | TB(PTX_T_S32);
        else if (op == PTX_ATOM_AND || op == PTX_ATOM_OR || op == PTX_ATOM_XOR)
            set = TB(PTX_T_B32);
        else
            parse_fail_tok(P, &c->md.first, "'redux.sync' needs .add, .min, .max, .and, .or or .xor");
        ptx_type t = one_type(P, c, set);
        in->type = (uint8_t)t;
        in->mode = (uint8_t)op;
        want_operands(P, c, 3, 3);
        resolve_dst(P, &c->raw[0], t, 0, &in->opnd[0]);
        resolve_src(P, c, &c->raw[1], t, ALLOW_IMM, &in->opnd[1]);
        resolve_src(P, c, &c->raw[2], PTX_T_U32, ALLOW_IMM | ALLOW_WIDER, &in->opnd[2]);
        in->ndst = 1;
        in->nopnd = 3;
        return;
    }
    case PTX_OP_ACTIVEMASK:
        in->type = (uint8_t)one_type(P, c, TB(PTX_T_B32));
        want_operands(P, c, 1, 1);
        resolve_dst(P, &c->raw[0], PTX_T_B32, 0, &in->opnd[0]);
        in->ndst = 1;
        in->nopnd = 1;
        return;
    default:
        break;
    }
}

static void decode_control(parser *P, ictx *c)
{
    ptx_insn *in = &c->in;
    switch ((ptx_opcode)in->op) {
    case PTX_OP_BRA:
        want_operands(P, c, 1, 1);
        resolve_label(P, c, &c->raw[0], 0);
        in->nopnd = 1;
        return;
    case PTX_OP_RET:
    case PTX_OP_EXIT:
    case PTX_OP_TRAP:
    case PTX_OP_BRKPT:
        want_operands(P, c, 0, 0);
        return;
    case PTX_OP_NANOSLEEP:
        in->type = (uint8_t)one_type(P, c, TB(PTX_T_U32));
        want_operands(P, c, 1, 1);
        resolve_src(P, c, &c->raw[0], PTX_T_U32, ALLOW_IMM | ALLOW_WIDER, &in->opnd[0]);
        in->nopnd = 1;
        return;
    case PTX_OP_MEMBAR:
        want_operands(P, c, 0, 0);
        if (!c->md.scope)
            parse_fail_tok(P, &c->md.first, "'membar' needs .cta, .gl or .sys");
        in->mode = (uint8_t)c->md.scope;
        return;
    case PTX_OP_FENCE:
        want_operands(P, c, 0, 0);
        if (!c->md.scope)
            parse_fail_tok(P, &c->md.first, "'fence' needs a scope (.cta, .gpu, .sys)");
        in->mode = (uint8_t)c->md.scope;
        return;
    default:
        break;
    }
}

/* ---- textures and surfaces --------------------------------------------- */
/* Unified mode only (what nvcc emits for texture and surface objects): the
 * object is a 64-bit handle in a register, and the coordinates follow it inside
 * the brackets:  tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];
 * Vectors here have 1 to 4 elements ({%r4} is a one-element destination of suld). */


/* Operands of a texture / surface instruction: registers, vectors and the
 * object operand [h] or [h, {coords}].  The object operand is stored as two raw
 * operands: the handle (RO_NAME) followed by the coordinates (RO_VEC), or the
 * handle alone; *obj_index is the handle's index (UINT32_MAX: none) and
 * *obj_coords whether coordinates were written inside its brackets. */
static void parse_tex_operands(parser *P, ictx *c, uint32_t *obj_index, int *obj_coords)
{
    char buf[96];
    c->nraw = 0;
    *obj_index = UINT32_MAX;
    *obj_coords = 0;
    for (;;) {
        if (c->nraw >= PTX_MAX_OPNDS)
            parse_fail_tok(P, &P->tok, "too many operands for '%s'", c->opname);
        raw_opnd *r = &c->raw[c->nraw++];
        memset(r, 0, sizeof *r);
        r->comp = -1;
        if (tok_is_punct(&P->tok, '{')) {
            parse_vec_elements(P, r);
        } else if (tok_is_punct(&P->tok, '[')) {
            if (*obj_index != UINT32_MAX)
                parse_fail_tok(P, &P->tok, "'%s' takes one texture or surface operand '[...]'", c->opname);
            *obj_index = c->nraw - 1;
            next_token(P);
            if (P->tok.kind != TK_IDENT)
                parse_fail_tok(P, &P->tok, "expected a texture or surface handle, found %s",
                               tok_text(&P->tok, buf, sizeof buf));
            r->kind = RO_NAME;
            r->t = P->tok;
            next_token(P);
            if (accept_punct(P, ',')) {
                *obj_coords = 1;
                raw_opnd *v = &c->raw[c->nraw++];
                memset(v, 0, sizeof *v);
                v->comp = -1;
                parse_vec_elements(P, v);
            }
            expect_punct(P, ']', "']' after texture coordinates");
        } else {
            parse_raw_operand(P, r);
        }
        if (!accept_punct(P, ','))
            break;
    }
}

/* The handle: a 64-bit register (texture references -- .texref/.surfref
 * variables, or names in [ ] -- went away with CUDA 12). */
static void resolve_handle(parser *P, ictx *c, const raw_opnd *r, ptx_operand *o)
{
    uint32_t elem;
    sym *s = sym_lookup(P, r->t.text, r->t.len, &elem);
    if (!s)
        undefined_name(P, &r->t);
    if (s->kind != SYM_VREG && s->kind != SYM_VRANGE)
        parse_fail_tok(P, &r->t, "unsupported: '%s' on '%.*s': only texture/surface objects (a .u64 handle in a "
                       "register) are supported, not texture references", c->opname, NAMEFMT(&r->t));
    resolve_reg(P, r, PTX_T_B64, 0, o);
}

static ptx_texgeom tex_geometry(parser *P, ictx *c)
{
    if (!c->md.geom)
        parse_fail_tok(P, &c->md.first, "'%s' needs a geometry (.1d, .2d, .3d, .a1d, .a2d)", c->opname);
    if (c->md.geom >= 100)
        parse_not_supported(P, &c->md.first, "layered cube-map and multi-sample textures");
    return (ptx_texgeom)c->md.geom;
}

/* Coordinate vector for geometry g: its element count as ptxas requires it
 * (3d and a2d take 4, the last ignored) and its element types. */
static void resolve_coords(parser *P, ictx *c, const raw_opnd *r, ptx_texgeom g, ptx_type ct, ptx_operand *o)
{
    static const uint8_t want[] = {[PTX_GEOM_1D] = 1, [PTX_GEOM_2D] = 2, [PTX_GEOM_3D] = 4, [PTX_GEOM_A1D] = 2,
                                   [PTX_GEOM_A2D] = 4, [PTX_GEOM_CUBE] = 4};
    if (g == PTX_GEOM_CUBE && ct != PTX_T_F32)
        parse_fail_tok(P, &r->t, "'%s.cube' takes .f32 coordinates", c->opname);
    if (r->kind != RO_VEC)
        parse_fail_tok(P, &r->t, "'%s' needs coordinates: [handle, {...}]", c->opname);
    if (r->nelem != want[g])
        parse_fail_tok(P, &r->t, "'%s' of this geometry takes %u coordinates, found %u", c->opname, want[g],
                       r->nelem);
    /* the layer of an array geometry is an integer, whatever the coordinate type */
    int layered = g == PTX_GEOM_A1D || g == PTX_GEOM_A2D;
    memset(o, 0, sizeof *o);
    o->kind = PTX_OPND_VEC;
    o->comp = r->nelem;
    for (uint32_t i = 0; i < r->nelem; i++) {
        ptx_type et = layered && i == 0 ? PTX_T_S32 : ct;
        const token *e = &r->elem[i];
        if (e->kind == TK_INT || e->kind == TK_FLOAT) {
            o->vec[i] = (uint32_t)literal_bits(P, e, r->elem_neg[i], et == PTX_T_F32 ? PTX_T_F32 : PTX_T_B32);
            o->vec_imm |= (uint8_t)(1u << i);
            continue;
        }
        raw_opnd er;
        memset(&er, 0, sizeof er);
        er.kind = RO_NAME;
        er.comp = -1;
        er.t = *e;
        ptx_operand eo;
        resolve_reg(P, &er, et, 0, &eo);
        o->vec[i] = eo.reg;
    }
}

static void decode_texture(parser *P, ictx *c, uint32_t obj, int coords)
{
    ptx_insn *in = &c->in;
    const char *op = c->opname;
    int is_query = in->op == PTX_OP_TXQ || in->op == PTX_OP_SUQ;
    if (obj == UINT32_MAX || coords == is_query)
        parse_fail_tok(P, &c->md.first, is_query ? "'%s' needs a texture or surface operand '[handle]'"
                                                 : "'%s' needs a texture or surface operand '[handle, {coordinates}]'",
                       op);
    switch ((ptx_opcode)in->op) {
    case PTX_OP_TEX:
    case PTX_OP_TLD4: {
        int is_tld4 = in->op == PTX_OP_TLD4;
        ptx_texgeom g = tex_geometry(P, c);
        if (is_tld4 && g != PTX_GEOM_2D)
            parse_not_supported(P, &c->md.first, "tld4 other than .2d");
        if (is_tld4)
            in->aux = (uint8_t)(c->md.comp ? c->md.comp - 1 : 0);
        else if (c->md.texvar)
            in->aux = (uint8_t)(c->md.texvar - 1);
        if (is_tld4 && !c->md.comp)
            parse_fail_tok(P, &c->md.first, "'tld4' needs a component (.r, .g, .b, .a)");
        if (c->md.vec != 4)
            parse_fail_tok(P, &c->md.first, "'%s' needs .v4", op);
        two_types(P, c, TB(PTX_T_F32) | TB(PTX_T_S32) | TB(PTX_T_U32),
                  is_tld4 ? TB(PTX_T_F32) : TB(PTX_T_F32) | TB(PTX_T_S32));
        in->mode = (uint8_t)g;
        in->vec = 4;
        uint32_t extra = in->aux == PTX_TEX_LEVEL ? 1 : in->aux == PTX_TEX_GRAD ? 2 : 0;
        if (is_tld4)
            extra = 0;
        if (obj != 1 || c->nraw != 3 + extra || c->raw[2].kind != RO_VEC)
            parse_fail_tok(P, &c->md.first, "'%s' takes d, [handle, {coordinates}]%s", op,
                           extra == 1 ? ", lod" : extra == 2 ? ", {dPdx}, {dPdy}" : "");
        for (uint32_t i = 0; i < c->nraw; i++)
            if (c->raw[i].pipe)
                parse_fail_tok(P, &c->raw[i].t, "unexpected '|' in operands of '%s'", op);
        resolve_vec(P, c, &c->raw[0], 4, (ptx_type)in->type, 1, 0, &in->opnd[0]);
        resolve_handle(P, c, &c->raw[1], &in->opnd[1]);
        resolve_coords(P, c, &c->raw[2], g, (ptx_type)in->type2, &in->opnd[2]);
        if (extra == 1)
            resolve_src(P, c, &c->raw[3], PTX_T_F32, ALLOW_IMM, &in->opnd[3]);
        for (uint32_t k = 0; extra == 2 && k < 2; k++) {
            const raw_opnd *v = &c->raw[3 + k];
            if (v->kind != RO_VEC || v->nelem > 4)
                parse_fail_tok(P, &v->t, "'tex.grad' needs gradient vectors {...} of at most 4 elements");
            resolve_vec(P, c, v, v->nelem, PTX_T_F32, 0, 0, &in->opnd[3 + k]);
        }
        in->ndst = 1;
        in->nopnd = (uint8_t)(3 + extra);
        return;
    }
    case PTX_OP_TXQ:
    case PTX_OP_SUQ: {
        if (!c->md.query)
            parse_fail_tok(P, &c->md.first, "'%s' needs a query (.width, .height, .depth, ...)", op);
        if (c->md.query >= 100 || (in->op == PTX_OP_SUQ && c->md.query > PTX_TXQ_DEPTH &&
                                   c->md.query != PTX_TXQ_ARRAY_SIZE))
            parse_not_supported(P, &c->md.first, "channel formats and memory layout are not modelled");
        if (c->md.texvar)
            parse_not_supported(P, &c->md.first, "mipmapped textures");
        one_type(P, c, TB(PTX_T_B32));
        in->type = PTX_T_B32;
        in->aux = (uint8_t)c->md.query;
        if (obj != 1 || c->nraw != 2)
            parse_fail_tok(P, &c->md.first, "'%s' takes d, [handle]", op);
        resolve_dst(P, &c->raw[0], PTX_T_B32, 0, &in->opnd[0]);
        resolve_handle(P, c, &c->raw[1], &in->opnd[1]);
        in->ndst = 1;
        in->nopnd = 2;
        return;
    }
    case PTX_OP_SULD:
    case PTX_OP_SUST: {
        int is_st = in->op == PTX_OP_SUST;
        if (c->md.sumode > 1)
            parse_not_supported(P, &c->md.first, "formatted surface access");
        if (c->md.sumode != 1)
            parse_fail_tok(P, &c->md.first, "'%s' needs .b (or .p)", op);
        ptx_texgeom g = tex_geometry(P, c);
        if (g == PTX_GEOM_CUBE)
            parse_fail_tok(P, &c->md.first, "'%s' has no .cube geometry", op);
        ptx_type t = one_type(P, c, TB(PTX_T_B8) | TB(PTX_T_B16) | TB(PTX_T_B32) | TB(PTX_T_B64));
        in->type = (uint8_t)t;
        in->mode = (uint8_t)g;
        in->vec = (uint8_t)(c->md.vec ? c->md.vec : 1);
        if (in->vec > 1 && ptx_type_size(t) * in->vec > 16)
            parse_fail_tok(P, &c->md.first, "vector access wider than 16 bytes");
        if (!c->md.bound) /* ptxas: "Clamp modifier required" */
            parse_fail_tok(P, &c->md.first, "'%s' needs .trap, .clamp or .zero", op);
        in->aux = (uint8_t)(c->md.bound - 1);
        uint32_t hi = is_st ? 0 : 1; /* index of the handle */
        if (obj != hi || c->nraw != 3 || c->raw[hi + 1].kind != RO_VEC)
            parse_fail_tok(P, &c->md.first, is_st ? "'sust' takes [handle, {coordinates}], a"
                                                  : "'suld' takes d, [handle, {coordinates}]");
        const raw_opnd *v = is_st ? &c->raw[2] : &c->raw[0];
        ptx_operand *vo = is_st ? &in->opnd[2] : &in->opnd[0];
        if (v->kind == RO_VEC)
            resolve_vec(P, c, v, in->vec, t, !is_st, ALLOW_WIDER, vo);
        else if (in->vec > 1)
            parse_fail_tok(P, &v->t, "'%s.v%u' needs a vector operand", op, in->vec);
        else if (is_st)
            resolve_src(P, c, v, t, ALLOW_IMM | ALLOW_WIDER, vo);
        else
            resolve_dst(P, v, t, ALLOW_WIDER, vo);
        ptx_operand *ho = is_st ? &in->opnd[0] : &in->opnd[1];
        resolve_handle(P, c, &c->raw[hi], ho);
        resolve_coords(P, c, &c->raw[hi + 1], g, PTX_T_S32, is_st ? &in->opnd[1] : &in->opnd[2]);
        in->ndst = (uint8_t)!is_st;
        in->nopnd = 3;
        return;
    }
    default:
        break;
    }
}

/* ---- SIMD video instructions ---------------------------------------------
 *   vop2.dtype.atype.btype{.sat} d{.mask}, a{.asel}, b{.bsel}, c   (SIMD merge)
 *   vop2.dtype.atype.btype.add   d{.mask}, a{.asel}, b{.bsel}, c   (accumulate)
 *   vop2 = vadd2 vsub2 vavrg2 vabsdiff2 vmin2 vmax2, on half-words (.h..);
 *   vop4 = the same with 4, on bytes (.b..); types .u32 or .s32.
 * .mask lists the enabled elements, highest first (.b3210, .b20, .h1); a selector
 * lists, for elements 3..0 (1..0), which element of {b, a} each takes (.b3210 and
 * .b7654 are the defaults of asel and bsel: a's and b's own elements). */
static int is_video(int opc)
{
    return opc >= PTX_OP_VADD2 && opc <= PTX_OP_VMAX4;
}

static int video_width(int opc)
{
    return opc >= PTX_OP_VADD4 ? 4 : 2;
}

static void video_modifier(parser *P, ictx *c, const token *t)
{
    ptx_type ty = ptx_type_from_name(t->text, t->len);
    if (ty == PTX_T_U32 || ty == PTX_T_S32) {
        if (c->md.nvtypes == 3)
            parse_fail_tok(P, t, "'%s' takes three type modifiers (.dtype.atype.btype)", c->opname);
        c->md.vtypes[c->md.nvtypes++] = ty;
        return;
    }
    if (tok_is(t, ".sat") || tok_is(t, ".add")) {
        uint32_t *seen = tok_is(t, ".sat") ? &c->md.flags : &c->md.vadd;
        uint32_t bit = tok_is(t, ".sat") ? PTX_F_SAT : 1;
        if (*seen & bit)
            parse_fail_tok(P, t, "repeated '%.*s' on '%s'", NAMEFMT(t), c->opname);
        *seen |= bit;
        return;
    }
    if (ty != PTX_T_NONE)
        parse_fail_tok(P, t, "unsupported type %.*s for '%s' (.u32 or .s32)", NAMEFMT(t), c->opname);
    parse_unsupported(P, t, "unsupported modifier '%.*s' for '%s'", NAMEFMT(t), c->opname);
}

/* A selector (.bxyzw / .hxy) as 3-bit fields at bit `at` + 3i for element i; dflt
 * is the default's first source element. */
static uint32_t video_selector(parser *P, ictx *c, const raw_opnd *r, int width, uint32_t at, uint32_t dflt)
{
    uint32_t v = 0;
    if (!r->has_sel) {
        for (int i = 0; i < width; i++)
            v |= (dflt + (uint32_t)i) << (at + 3u * (uint32_t)i);
        return v;
    }
    const token *t = &r->sel;
    char kind = width == 4 ? 'b' : 'h';
    uint32_t top = width == 4 ? 7 : 3;
    if ((int)t->len != 2 + width || t->text[1] != kind)
        parse_fail_tok(P, t, "'%s' takes a selector .%c followed by %d digits, found '%.*s'", c->opname, kind, width,
                       NAMEFMT(t));
    for (int i = 0; i < width; i++) {
        char d = t->text[2 + (width - 1 - i)]; /* the last digit is element 0's */
        if (d < '0' || d > (char)('0' + top))
            parse_fail_tok(P, t, "selector digit '%c' of '%.*s' is not 0..%u", d, NAMEFMT(t), top);
        v |= (uint32_t)(d - '0') << (at + 3u * (uint32_t)i);
    }
    return v;
}

/* The destination's .mask: distinct element numbers in descending order. */
static uint32_t video_mask(parser *P, ictx *c, const raw_opnd *r, int width)
{
    if (!r->has_sel)
        return (1u << width) - 1;
    const token *t = &r->sel;
    char kind = width == 4 ? 'b' : 'h';
    if (t->len < 3 || (int)t->len > 2 + width || t->text[1] != kind)
        parse_fail_tok(P, t, "'%s' takes a mask .%c with 1 to %d element numbers, found '%.*s'", c->opname, kind,
                       width, NAMEFMT(t));
    uint32_t m = 0;
    int prev = width;
    for (uint32_t k = 2; k < t->len; k++) {
        int e = t->text[k] - '0';
        if (e < 0 || e >= prev)
            parse_fail_tok(P, t, "mask '%.*s': element numbers must be below %d and descending", NAMEFMT(t),
                           width);
        m |= 1u << e;
        prev = e;
    }
    return m;
}

static void decode_video(parser *P, ictx *c)
{
    ptx_insn *in = &c->in;
    int width = video_width(in->op);
    if (c->md.nvtypes != 3)
        parse_fail_tok(P, &c->md.first, "'%s' needs three type modifiers (.dtype.atype.btype: .u32 or .s32)",
                       c->opname);
    if (c->md.vadd && (c->md.flags & PTX_F_SAT))
        parse_fail_tok(P, &c->md.first, "'%s': .sat cannot be used with .add", c->opname);
    in->type = (uint8_t)c->md.vtypes[0];
    in->type2 = (uint8_t)c->md.vtypes[1];
    in->aux = (uint8_t)c->md.vtypes[2];
    in->mode = (uint8_t)(c->md.vadd ? 1 : 0);
    want_operands(P, c, 4, 4);
    if (c->raw[3].has_sel)
        parse_fail_tok(P, &c->raw[3].sel, "'%s': operand c takes no selector", c->opname);
    in->vsel = video_selector(P, c, &c->raw[1], width, PTX_VSEL_A(0), 0) |
               video_selector(P, c, &c->raw[2], width, PTX_VSEL_B(0), (uint32_t)width) |
               video_mask(P, c, &c->raw[0], width) << PTX_VSEL_MASK;
    resolve_dst(P, &c->raw[0], PTX_T_B32, 0, &in->opnd[0]);
    for (int i = 1; i <= 3; i++)
        resolve_src(P, c, &c->raw[i], PTX_T_B32, ALLOW_IMM, &in->opnd[i]);
    in->ndst = 1;
    in->nopnd = 4;
}

/* ---- the statement ----------------------------------------------------- */
void parse_instruction(parser *P)
{
    char buf[96];
    ictx c;
    /* the raw operand slots are filled before use; clear only the rest */
    memset(&c.in, 0, sizeof(c.in));
    memset(&c.md, 0, sizeof(c.md));
    c.nraw = 0;
    ptx_insn *in = &c.in;
    in->guard = PTX_NO_GUARD;
    in->line = P->tok.line;

    if (accept_punct(P, '@')) {
        int neg = accept_punct(P, '!');
        raw_opnd g;
        memset(&g, 0, sizeof(g));
        g.comp = -1;
        g.kind = RO_NAME;
        g.t = P->tok;
        expect_kind(P, TK_IDENT, "a predicate after '@'");
        next_token(P);
        ptx_operand o;
        resolve_reg(P, &g, PTX_T_PRED, 0, &o);
        in->guard = o.reg;
        in->guard_neg = (uint8_t)neg;
    }
    token op = P->tok;
    if (op.kind != TK_IDENT)
        parse_fail_tok(P, &op, "expected an opcode, found %s", tok_text(&op, buf, sizeof buf));
    uint32_t implied;
    int opc = lookup_opcode(&op, &implied);
    if (opc < 0) {
        for (size_t i = 0; i < sizeof(unsupported_opcodes) / sizeof(unsupported_opcodes[0]); i++)
            if (name_eq(&op, unsupported_opcodes[i]))
                parse_not_supported(P, &op, NULL);
        parse_fail_tok(P, &op, "unknown opcode '%.*s'", NAMEFMT(&op));
    }
    if (opc == PTX_OP_BRX)
        parse_not_supported(P, &op, "indirect branch");
    in->op = (uint16_t)opc;
    c.opname = ptx_opcode_name((ptx_opcode)opc);
    if (implied & PTX_F_CARRYIN)
        c.opname = opc == PTX_OP_ADD ? "addc" : opc == PTX_OP_SUB ? "subc" : "madc";
    c.md.first = op;
    c.md.flags = implied;
    next_token(P);
    uint32_t nmods = 0;
    while (P->tok.kind == TK_DOTNAME) {
        if (++nmods > PTX_MAX_MODS)
            parse_fail_tok(P, &P->tok, "too many modifiers on '%s'", c.opname);
        if (opc == PTX_OP_CP_ASYNC)
            cp_async_modifier(P, &c, &P->tok);
        else if (opc == PTX_OP_MBARRIER)
            mbar_modifier(P, &c, &P->tok);
        else if (ptx_op_is_tensor((uint32_t)opc))
            tensor_modifier(P, &c, &P->tok, nmods == 1 && name_eq(&op, "wmma"));
        else if (is_video(opc))
            video_modifier(P, &c, &P->tok);
        else
            apply_modifier(P, &c, &P->tok);
        next_token(P);
    }
    in->rnd = (uint8_t)c.md.rnd;
    in->flags = c.md.flags;

    if (opc == PTX_OP_CALL) {
        decode_call(P, &c);
    } else if (opc == PTX_OP_TEX || opc == PTX_OP_TLD4 || opc == PTX_OP_TXQ || opc == PTX_OP_SUQ ||
               opc == PTX_OP_SULD || opc == PTX_OP_SUST) {
        uint32_t obj;
        int coords;
        parse_tex_operands(P, &c, &obj, &coords);
        decode_texture(P, &c, obj, coords);
    } else {
        parse_raw_operands(P, &c);
        for (uint32_t i = 0; i < c.nraw && !is_video(opc); i++)
            if (c.raw[i].has_sel)
                parse_fail_tok(P, &c.raw[i].sel, "unexpected %s after operand",
                               tok_text(&c.raw[i].sel, buf, sizeof buf));
        switch ((ptx_opcode)opc) {
        case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MUL: case PTX_OP_MAD: case PTX_OP_MUL24:
        case PTX_OP_MAD24: case PTX_OP_SAD: case PTX_OP_DIV: case PTX_OP_REM: case PTX_OP_ABS:
        case PTX_OP_NEG: case PTX_OP_MIN: case PTX_OP_MAX:
            decode_arith(P, &c);
            break;
        case PTX_OP_POPC: case PTX_OP_CLZ: case PTX_OP_BFIND: case PTX_OP_BREV: case PTX_OP_BFE:
        case PTX_OP_BFI: case PTX_OP_PRMT: case PTX_OP_SHF: case PTX_OP_SHL: case PTX_OP_SHR:
        case PTX_OP_BMSK: case PTX_OP_AND: case PTX_OP_OR: case PTX_OP_XOR: case PTX_OP_NOT: case PTX_OP_CNOT:
        case PTX_OP_LOP3: case PTX_OP_DP4A: case PTX_OP_DP2A:
            decode_bits(P, &c);
            break;
        case PTX_OP_FMA: case PTX_OP_RCP: case PTX_OP_SQRT: case PTX_OP_RSQRT: case PTX_OP_SIN:
        case PTX_OP_COS: case PTX_OP_LG2: case PTX_OP_EX2: case PTX_OP_TANH: case PTX_OP_COPYSIGN:
        case PTX_OP_TESTP:
            decode_float(P, &c);
            break;
        case PTX_OP_SETP: case PTX_OP_SET: case PTX_OP_SELP: case PTX_OP_SLCT:
            decode_compare(P, &c);
            break;
        case PTX_OP_MOV:
            decode_mov(P, &c);
            break;
        case PTX_OP_CVT:
            decode_cvt(P, &c);
            break;
        case PTX_OP_CVTA: case PTX_OP_LD: case PTX_OP_LDU: case PTX_OP_ST: case PTX_OP_ATOM:
        case PTX_OP_RED: case PTX_OP_PREFETCH: case PTX_OP_PREFETCHU: case PTX_OP_ISSPACEP:
            decode_memory(P, &c);
            break;
        case PTX_OP_BAR: case PTX_OP_BARRIER:
            decode_barrier(P, &c);
            break;
        case PTX_OP_CP_ASYNC:
            decode_cp_async(P, &c);
            break;
        case PTX_OP_MBARRIER:
            decode_mbarrier(P, &c);
            break;
        case PTX_OP_WMMA_LOAD: case PTX_OP_WMMA_STORE: case PTX_OP_WMMA_MMA: case PTX_OP_MMA: case PTX_OP_LDMATRIX:
            decode_tensor(P, &c);
            break;
        case PTX_OP_SHFL: case PTX_OP_VOTE: case PTX_OP_MATCH: case PTX_OP_REDUX: case PTX_OP_ACTIVEMASK:
            decode_warp(P, &c);
            break;
        case PTX_OP_VADD2: case PTX_OP_VSUB2: case PTX_OP_VAVRG2: case PTX_OP_VABSDIFF2: case PTX_OP_VMIN2:
        case PTX_OP_VMAX2: case PTX_OP_VADD4: case PTX_OP_VSUB4: case PTX_OP_VAVRG4: case PTX_OP_VABSDIFF4:
        case PTX_OP_VMIN4: case PTX_OP_VMAX4:
            decode_video(P, &c);
            break;
        default:
            decode_control(P, &c);
            break;
        }
    }
    /* Modifiers that only some opcodes record in the IR must not be silently
     * dropped elsewhere. */
    if (c.md.vec && in->op != PTX_OP_LD && in->op != PTX_OP_LDU && in->op != PTX_OP_ST && in->op != PTX_OP_TEX &&
        in->op != PTX_OP_TLD4 && in->op != PTX_OP_SULD && in->op != PTX_OP_SUST)
        parse_fail_tok(P, &op, "'%s' takes no vector modifier", c.opname);
    if (c.md.has_space && in->space == PTX_SPACE_NONE && in->op != PTX_OP_CVTA && in->op != PTX_OP_ISSPACEP &&
        in->op != PTX_OP_LD && in->op != PTX_OP_LDU && in->op != PTX_OP_ST && in->op != PTX_OP_ATOM &&
        in->op != PTX_OP_RED && in->op != PTX_OP_PREFETCH)
        parse_fail_tok(P, &op, "'%s' takes no state space", c.opname);
    expect_punct(P, ';', "';' after instruction");

    ptx_function *f = P->fn;
    f->insns = xrealloc_array(P, f->insns, &P->insns_cap, f->ninsn + 1, sizeof(ptx_insn), PTX_MAX_INSNS,
                              "instructions");
    f->insns[f->ninsn++] = *in;
}
