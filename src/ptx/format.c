/* Disassembly of one decoded instruction (ptx_insn_format), for traces and
 * error reports.  The text follows PTX syntax where the IR keeps enough
 * information; what the IR drops is shown in a readable form:
 *   branch targets  L<instruction index>
 *   frame slots     [__frame+OFF] (a .func formal or return by its name)
 *   kernel params   [name+OFF]
 */
#include "ptx/ir.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    char *buf;
    size_t size, len;
} out;

static void put(out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(out *o, const char *fmt, ...)
{
    if (o->len + 1 >= o->size)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(o->buf + o->len, o->size - o->len, fmt, ap);
    va_end(ap);
    if (n > 0)
        o->len = o->len + (size_t)n < o->size ? o->len + (size_t)n : o->size - 1;
}

static const char *reg_name(const ptx_function *f, uint32_t r, char *tmp, size_t n)
{
    if (r == PTX_REG_SINK)
        return "_";
    if (f && r < f->nregs && f->reg_names && f->reg_names[r])
        return f->reg_names[r];
    snprintf(tmp, n, "%%r?%u", r);
    return tmp;
}

static const char *pred_name(const ptx_function *f, uint32_t r, char *tmp, size_t n)
{
    if (r == PTX_REG_SINK)
        return "_";
    if (f && r < f->npreds && f->pred_names && f->pred_names[r])
        return f->pred_names[r];
    snprintf(tmp, n, "%%p?%u", r);
    return tmp;
}

static const char *sreg_names[PTX_SREG_COUNT] = {
    [PTX_SREG_TID] = "%tid", [PTX_SREG_NTID] = "%ntid", [PTX_SREG_CTAID] = "%ctaid",
    [PTX_SREG_NCTAID] = "%nctaid", [PTX_SREG_LANEID] = "%laneid", [PTX_SREG_WARPID] = "%warpid",
    [PTX_SREG_NWARPID] = "%nwarpid", [PTX_SREG_SMID] = "%smid", [PTX_SREG_NSMID] = "%nsmid",
    [PTX_SREG_GRIDID] = "%gridid", [PTX_SREG_CLOCK] = "%clock", [PTX_SREG_CLOCK_HI] = "%clock_hi",
    [PTX_SREG_CLOCK64] = "%clock64", [PTX_SREG_GLOBALTIMER] = "%globaltimer",
    [PTX_SREG_LANEMASK_EQ] = "%lanemask_eq", [PTX_SREG_LANEMASK_LE] = "%lanemask_le",
    [PTX_SREG_LANEMASK_LT] = "%lanemask_lt", [PTX_SREG_LANEMASK_GE] = "%lanemask_ge",
    [PTX_SREG_LANEMASK_GT] = "%lanemask_gt", [PTX_SREG_DYNAMIC_SMEM_SIZE] = "%dynamic_smem_size",
    [PTX_SREG_TOTAL_SMEM_SIZE] = "%total_smem_size",
};

static void put_imm(out *o, int64_t v, ptx_type t)
{
    if (t == PTX_T_F32)
        put(o, "0f%08X", (unsigned)(uint32_t)v);
    else if (t == PTX_T_F64)
        put(o, "0d%016llX", (unsigned long long)v);
    else if (ptx_type_is_signed(t) || v < 0)
        put(o, "%lld", (long long)v);
    else
        put(o, "%llu", (unsigned long long)v);
}

/* name[+off] of a frame slot: a .func formal/return when one covers it. */
static void put_frame(out *o, const ptx_function *f, int64_t off)
{
    for (int r = 0; f && r < 2; r++) {
        const ptx_param *ps = r ? f->params : f->rets;
        uint32_t n = r ? f->nparams : f->nrets;
        for (uint32_t i = 0; !f->is_entry && i < n; i++) {
            if (!ps[i].is_reg && off >= ps[i].offset && off < (int64_t)ps[i].offset + ps[i].size) {
                put(o, "%s", ps[i].name);
                if (off != ps[i].offset)
                    put(o, "+%lld", (long long)(off - ps[i].offset));
                return;
            }
        }
    }
    put(o, "__frame+%lld", (long long)off);
}

static void put_kparam(out *o, const ptx_function *f, int64_t off)
{
    for (uint32_t i = 0; f && f->is_entry && i < f->nparams; i++) {
        const ptx_param *p = &f->params[i];
        if (off >= p->offset && off < (int64_t)p->offset + p->size) {
            put(o, "%s", p->name);
            if (off != p->offset)
                put(o, "+%lld", (long long)(off - p->offset));
            return;
        }
    }
    put(o, "__kparam+%lld", (long long)off);
}

static void put_location(out *o, const ptx_module *m, const ptx_function *f, const ptx_operand *op)
{
    char tmp[32];
    switch (op->addr_base) {
    case PTX_ABASE_REG:
        put(o, "%s", reg_name(f, op->reg, tmp, sizeof tmp));
        if (op->imm)
            put(o, "%+lld", (long long)op->imm);
        break;
    case PTX_ABASE_SYM:
        if (m && op->reg < m->nvars)
            put(o, "%s", m->vars[op->reg].name);
        else
            put(o, "__var%u", op->reg);
        if (op->imm)
            put(o, "%+lld", (long long)op->imm);
        break;
    case PTX_ABASE_FRAME:
        put_frame(o, f, op->imm);
        break;
    case PTX_ABASE_KPARAM:
        put_kparam(o, f, op->imm);
        break;
    default:
        put(o, "0x%llx", (unsigned long long)op->imm);
        break;
    }
}

static void put_operand(out *o, const ptx_module *m, const ptx_function *f, const ptx_operand *op, ptx_type t)
{
    char tmp[32];
    switch (op->kind) {
    case PTX_OPND_REG:
        put(o, "%s", reg_name(f, op->reg, tmp, sizeof tmp));
        break;
    case PTX_OPND_PRED:
        put(o, "%s%s", op->neg ? "!" : "", pred_name(f, op->reg, tmp, sizeof tmp));
        break;
    case PTX_OPND_IMM:
        put_imm(o, op->imm, t);
        break;
    case PTX_OPND_SREG:
        put(o, "%s", op->reg < PTX_SREG_COUNT && sreg_names[op->reg] ? sreg_names[op->reg] : "%sreg?");
        if (op->reg == PTX_SREG_TID || op->reg == PTX_SREG_NTID || op->reg == PTX_SREG_CTAID ||
            op->reg == PTX_SREG_NCTAID)
            put(o, ".%c", "xyz"[op->comp % 3]);
        break;
    case PTX_OPND_ADDR:
        put(o, "[");
        put_location(o, m, f, op);
        put(o, "]");
        break;
    case PTX_OPND_SYMADDR:
        put_location(o, m, f, op);
        break;
    case PTX_OPND_VEC:
        put(o, "{");
        for (unsigned i = 0; i < op->comp && i < PTX_VEC_MAX; i++) {
            if (i)
                put(o, ", ");
            if (op->vec_imm & (1u << i))
                put(o, "%u", op->vec[i]);
            else
                put(o, "%s", reg_name(f, op->vec[i], tmp, sizeof tmp));
        }
        put(o, "}");
        break;
    case PTX_OPND_LABEL:
        put(o, "L%lld", (long long)op->imm);
        break;
    case PTX_OPND_FUNC:
        if (m && op->imm >= 0 && (uint64_t)op->imm < m->nfuncs)
            put(o, "%s", m->funcs[op->imm].name);
        else
            put(o, "__func%lld", (long long)op->imm);
        break;
    case PTX_OPND_SINK:
        put(o, "_");
        break;
    default:
        break;
    }
}

static const char *const space_names[PTX_SPACE_COUNT] = {"", "reg", "global", "shared", "local", "const", "param"};
static const char *const cmp_names[] = {"",    "eq",  "ne",  "lt",  "le",  "gt",  "ge",  "lo",  "ls", "hi",
                                        "hs",  "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
static const char *const bool_names[] = {"", "and", "or", "xor"};
static const char *const rnd_names[] = {"", "rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi", "rna"};
static const char *const atom_names[] = {"",   "add", "min", "max", "and", "or",
                                         "xor", "exch", "cas", "inc", "dec", "popc"};
static const char *const shfl_names[] = {"", "up", "down", "bfly", "idx"};
static const char *const vote_names[] = {"", "all", "any", "uni", "ballot"};
static const char *const match_names[] = {"", "any", "all"};
static const char *const testp_names[] = {"", "finite", "infinite", "number", "notanumber", "normal", "subnormal"};
static const char *const prmt_names[] = {"", "f4e", "b4e", "rc8", "ecl", "ecr", "rc16"};
static const char *const scope_names[] = {"", "cta", "gpu", "sys"};
static const char *const mbar_names[] = {"", "init", "inval", "arrive", "arrive_drop", "expect_tx", "complete_tx",
                                         "test_wait", "try_wait"};

#define NAME_OF(tab, i) ((unsigned)(i) < sizeof(tab) / sizeof(tab[0]) ? tab[i] : "?")

static void put_mod(out *o, const char *s)
{
    if (s && *s)
        put(o, ".%s", s);
}

/* Tensor-core modifiers in PTX order (.tf32 is kept as .b32, see ir.h). */
static const char *tensor_type_name(ptx_type t, const ptx_insn *in)
{
    return t == PTX_T_B32 && in->op != PTX_OP_LDMATRIX ? "tf32" : ptx_type_name(t);
}

static void put_tensor_modifiers(out *o, const ptx_insn *in)
{
    static const char *const shapes[] = {"", "m16n16k16", "m32n8k16", "m8n32k16", "m16n16k8",
                                         "m16n8k16", "m16n8k8", "m16n8k32", "m8n8"};
    ptx_opcode op = (ptx_opcode)in->op;
    const char *shape = in->mode < sizeof shapes / sizeof shapes[0] ? shapes[in->mode] : "?";
    if (op == PTX_OP_WMMA_LOAD || op == PTX_OP_WMMA_STORE) {
        static const char *const frags[] = {"a", "b", "c", "d"};
        put_mod(o, frags[PTX_MMA_FRAG(in->aux)]);
    }
    put_mod(o, "sync");
    put_mod(o, "aligned");
    if (op == PTX_OP_LDMATRIX) {
        put_mod(o, shape);
        put(o, ".x%u", in->aux & 7u);
        if (in->aux & PTX_MMA_TRANS)
            put_mod(o, "trans");
        put_mod(o, "shared");
        put_mod(o, "b16");
        return;
    }
    if (op == PTX_OP_WMMA_LOAD || op == PTX_OP_WMMA_STORE) {
        put_mod(o, (in->aux & PTX_MMA_COL) ? "col" : "row");
        put_mod(o, shape);
        if (in->space && in->space < PTX_SPACE_COUNT)
            put_mod(o, space_names[in->space]);
        put_mod(o, tensor_type_name((ptx_type)in->type, in));
        return;
    }
    if (op == PTX_OP_WMMA_MMA) {
        put_mod(o, (in->aux & 1u) ? "col" : "row");
        put_mod(o, (in->aux & 2u) ? "col" : "row");
        put_mod(o, shape);
    } else {
        put_mod(o, shape);
        put_mod(o, "row");
        put_mod(o, "col");
        if (in->flags & PTX_F_SAT) /* mma: before the types; wmma: after them */
            put_mod(o, "satfinite");
    }
    put_mod(o, tensor_type_name((ptx_type)in->dtype, in));
    if (op == PTX_OP_MMA || in->type != PTX_T_F16) { /* wmma .f16 names only .dtype.ctype */
        put_mod(o, tensor_type_name((ptx_type)in->type, in));
        put_mod(o, tensor_type_name((ptx_type)in->type2, in));
    }
    put_mod(o, tensor_type_name((ptx_type)in->ctype, in));
    if (op == PTX_OP_WMMA_MMA && (in->flags & PTX_F_SAT))
        put_mod(o, "satfinite");
}

static void put_modifiers(out *o, const ptx_insn *in)
{
    uint32_t fl = in->flags;
    ptx_opcode op = (ptx_opcode)in->op;
    if (ptx_op_is_tensor(op)) {
        put_tensor_modifiers(o, in);
        return;
    }
    if (op == PTX_OP_BAR) {
        if (fl & PTX_F_WARP)
            put_mod(o, "warp");
        put_mod(o, (fl & PTX_F_ARRIVE) ? "arrive" : (fl & PTX_F_RED) ? "red" : "sync");
        if (fl & PTX_F_RED)
            put_mod(o, NAME_OF(atom_names, in->mode));
    }
    if (op == PTX_OP_MBARRIER) {
        put_mod(o, NAME_OF(mbar_names, in->mode));
        if (in->aux & PTX_MBAR_NOCOMPLETE)
            put_mod(o, "noComplete");
        if (in->aux & PTX_MBAR_WITH_TX)
            put_mod(o, "expect_tx");
        if (in->aux & PTX_MBAR_PARITY)
            put_mod(o, "parity");
    }
    if (op == PTX_OP_CP_ASYNC_MBAR && (in->aux & PTX_MBAR_NOINC))
        put_mod(o, "noinc");
    if (op == PTX_OP_SHFL || op == PTX_OP_VOTE || op == PTX_OP_MATCH || op == PTX_OP_REDUX) {
        if (op == PTX_OP_MATCH)
            put_mod(o, NAME_OF(match_names, in->mode));
        if (fl & PTX_F_SYNC)
            put_mod(o, "sync");
        if (op == PTX_OP_SHFL)
            put_mod(o, NAME_OF(shfl_names, in->mode));
        if (op == PTX_OP_VOTE)
            put_mod(o, NAME_OF(vote_names, in->mode));
        if (op == PTX_OP_REDUX)
            put_mod(o, NAME_OF(atom_names, in->mode));
    }
    if (op == PTX_OP_TESTP)
        put_mod(o, NAME_OF(testp_names, in->mode));
    if (op == PTX_OP_SETP || op == PTX_OP_SET) {
        put_mod(o, NAME_OF(cmp_names, in->cmp));
        put_mod(o, NAME_OF(bool_names, in->boolop));
    }
    if (op == PTX_OP_MEMBAR || op == PTX_OP_FENCE)
        put_mod(o, op == PTX_OP_MEMBAR && in->mode == PTX_SCOPE_GPU ? "gl" : NAME_OF(scope_names, in->mode));
    if (fl & PTX_F_TO)
        put_mod(o, "to");
    if (in->space && in->space < PTX_SPACE_COUNT)
        put_mod(o, space_names[in->space]);
    if (op == PTX_OP_ATOM || op == PTX_OP_RED)
        put_mod(o, NAME_OF(atom_names, in->mode));
    if (fl & PTX_F_NC)
        put_mod(o, "nc");
    if (fl & PTX_F_VOLATILE)
        put_mod(o, "volatile");
    if (op == PTX_OP_SHF) {
        put_mod(o, (fl & PTX_F_SHF_L) ? "l" : "r");
        put_mod(o, (fl & PTX_F_SHF_WRAP) ? "wrap" : "clamp");
    }
    if (op == PTX_OP_BMSK)
        put_mod(o, (fl & PTX_F_SHF_WRAP) ? "wrap" : "clamp");
    if (fl & PTX_F_SHIFTAMT)
        put_mod(o, "shiftamt");
    put_mod(o, NAME_OF(rnd_names, in->rnd));
    if (fl & PTX_F_HI)
        put_mod(o, "hi");
    if (fl & PTX_F_LO)
        put_mod(o, "lo");
    if (fl & PTX_F_WIDE)
        put_mod(o, "wide");
    if (fl & PTX_F_CC)
        put_mod(o, "cc");
    if (fl & PTX_F_APPROX)
        put_mod(o, "approx");
    if (fl & PTX_F_FTZ)
        put_mod(o, "ftz");
    if (fl & PTX_F_SAT)
        put_mod(o, "sat");
    if (fl & PTX_F_RELU)
        put_mod(o, "relu");
    if (fl & PTX_F_NAN)
        put_mod(o, "NaN");
    if (fl & PTX_F_UNI)
        put_mod(o, "uni");
    if (op == PTX_OP_PRMT)
        put_mod(o, NAME_OF(prmt_names, in->mode));
    if (in->vec > 1)
        put(o, ".v%u", in->vec);
    if (in->type)
        put_mod(o, ptx_type_name((ptx_type)in->type));
    if (in->type2)
        put_mod(o, ptx_type_name((ptx_type)in->type2));
}

static void put_call(out *o, const ptx_module *m, const ptx_function *f, const ptx_insn *in)
{
    const ptx_call *c = f && in->call < f->ncalls ? &f->calls[in->call] : NULL;
    if (c && c->nrets) {
        put(o, " (");
        for (unsigned i = 0; i < c->nrets && i < PTX_CALL_MAX_RETS; i++) {
            if (i)
                put(o, ", ");
            put_operand(o, m, f, &c->rets[i], PTX_T_NONE);
        }
        put(o, "),");
    }
    put(o, " ");
    put_operand(o, m, f, &in->opnd[0], PTX_T_NONE);
    if (c) {
        put(o, ", (");
        for (unsigned i = 0; i < c->nargs && i < 16; i++) {
            if (i)
                put(o, ", ");
            put_operand(o, m, f, &c->args[i], PTX_T_NONE);
        }
        put(o, ")");
    }
}

static int is_texture_op(ptx_opcode op)
{
    return op == PTX_OP_TEX || op == PTX_OP_TLD4 || op == PTX_OP_TXQ || op == PTX_OP_SUQ || op == PTX_OP_SULD ||
           op == PTX_OP_SUST;
}

/* tex/tld4/suld/sust/txq/suq: modifiers in PTX order, and the object operand
 * written [handle, {coordinates}]. */
static void put_texture(out *o, const ptx_module *m, const ptx_function *f, const ptx_insn *in)
{
    static const char *const geom[] = {"", "1d", "2d", "3d", "a1d", "a2d", "cube"};
    static const char *const var[] = {"", "level", "grad"};
    static const char *const comp[] = {"r", "g", "b", "a"};
    static const char *const bound[] = {"trap", "clamp", "zero"};
    static const char *const query[] = {"", "width", "height", "depth", "normalized_coords",
                                        "force_unnormalized_coords", "filter_mode", "addr_mode_0",
                                        "addr_mode_1", "addr_mode_2", "array_size", "num_mipmap_levels",
                                        "num_samples"};
    ptx_opcode op = (ptx_opcode)in->op;
    if (op == PTX_OP_TXQ || op == PTX_OP_SUQ) {
        put_mod(o, NAME_OF(query, in->aux));
        put(o, ".b32 ");
        put_operand(o, m, f, &in->opnd[0], PTX_T_B32);
        put(o, ", [");
        put_operand(o, m, f, &in->opnd[1], PTX_T_NONE);
        put(o, "];");
        return;
    }
    int surf = op == PTX_OP_SULD || op == PTX_OP_SUST;
    if (op == PTX_OP_TLD4)
        put_mod(o, NAME_OF(comp, in->aux));
    if (op == PTX_OP_TEX)
        put_mod(o, NAME_OF(var, in->aux));
    if (surf)
        put(o, ".b");
    put_mod(o, NAME_OF(geom, in->mode));
    if (in->vec > 1)
        put(o, ".v%u", in->vec);
    put_mod(o, ptx_type_name((ptx_type)in->type));
    if (!surf)
        put_mod(o, ptx_type_name((ptx_type)in->type2));
    else
        put_mod(o, NAME_OF(bound, in->aux));
    unsigned h = op == PTX_OP_SUST ? 0 : 1;
    put(o, " ");
    if (op != PTX_OP_SUST) {
        put_operand(o, m, f, &in->opnd[0], (ptx_type)in->type);
        put(o, ", ");
    }
    put(o, "[");
    put_operand(o, m, f, &in->opnd[h], PTX_T_NONE);
    put(o, ", ");
    put_operand(o, m, f, &in->opnd[h + 1], PTX_T_NONE);
    put(o, "]");
    for (unsigned i = h + 2; i < in->nopnd && i < PTX_MAX_OPNDS; i++) {
        put(o, ", ");
        put_operand(o, m, f, &in->opnd[i], op == PTX_OP_SUST ? (ptx_type)in->type : PTX_T_F32);
    }
    put(o, ";");
}

void ptx_insn_format(const ptx_module *m, const ptx_function *f, const ptx_insn *in, char *buf, size_t bufsz)
{
    char tmp[32];
    if (!buf || bufsz == 0)
        return;
    buf[0] = 0;
    if (!in)
        return;
    out o = {buf, bufsz, 0};
    if (in->guard != PTX_NO_GUARD)
        put(&o, "@%s%s ", in->guard_neg ? "!" : "", pred_name(f, in->guard, tmp, sizeof tmp));
    const char *name = ptx_opcode_name((ptx_opcode)in->op);
    if (in->flags & PTX_F_CARRYIN)
        name = in->op == PTX_OP_ADD ? "addc" : in->op == PTX_OP_SUB ? "subc" : "madc";
    put(&o, "%s", name);
    if (is_texture_op((ptx_opcode)in->op)) {
        put_texture(&o, m, f, in);
        return;
    }
    put_modifiers(&o, in);
    if (in->op == PTX_OP_CALL) {
        put_call(&o, m, f, in);
        put(&o, ";");
        return;
    }
    const char *sep = " ";
    for (unsigned i = 0; i < in->nopnd && i < PTX_MAX_OPNDS; i++) {
        const ptx_operand *op = &in->opnd[i];
        if (op->kind == PTX_OPND_NONE)
            continue;
        /* two destinations print as p|q (setp, shfl, match) */
        int pair = in->ndst == 2 && i == 1;
        if (pair && op->kind == PTX_OPND_SINK && in->op != PTX_OP_SETP)
            continue;
        put(&o, "%s", pair ? "|" : sep);
        ptx_type t = (ptx_type)in->type;
        if (in->op == PTX_OP_CVT && i >= 1)
            t = (ptx_type)in->type2;
        if ((in->op == PTX_OP_SET && i >= 1 && i <= 2) || (in->op == PTX_OP_SLCT && i == 3))
            t = (ptx_type)in->type2;
        if (ptx_op_is_tensor(in->op)) /* fragments print as registers; a wmma stride is a u32 */
            t = PTX_T_U32;
        put_operand(&o, m, f, op, t);
        sep = ", ";
    }
    put(&o, ";");
}
