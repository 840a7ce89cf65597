/* IR helpers: opcode and type tables, lookups, and freeing a module. */
#include "ptx/ir.h"

#include <stdlib.h>
#include <string.h>

static const char *const opcode_names[PTX_OP_COUNT] = {
#define OP(e, name, cls) name,
#include "ptx/opcodes.def"
#undef OP
};

static const unsigned char opcode_classes[PTX_OP_COUNT] = {
#define OP(e, name, cls) PTX_CLASS_##cls,
#include "ptx/opcodes.def"
#undef OP
};

const char *ptx_opcode_name(ptx_opcode op)
{
    return (unsigned)op < PTX_OP_COUNT ? opcode_names[op] : "?";
}

ptx_opclass ptx_opcode_class(ptx_opcode op)
{
    return (unsigned)op < PTX_OP_COUNT ? (ptx_opclass)opcode_classes[op] : PTX_CLASS_ALU;
}

static const struct {
    const char *name;
    unsigned char size;
} type_info[PTX_T_COUNT] = {
    [PTX_T_NONE] = {"", 0},
    [PTX_T_B8] = {"b8", 1},     [PTX_T_B16] = {"b16", 2},   [PTX_T_B32] = {"b32", 4},
    [PTX_T_B64] = {"b64", 8},   [PTX_T_B128] = {"b128", 16},
    [PTX_T_U8] = {"u8", 1},     [PTX_T_U16] = {"u16", 2},   [PTX_T_U32] = {"u32", 4},
    [PTX_T_U64] = {"u64", 8},
    [PTX_T_S8] = {"s8", 1},     [PTX_T_S16] = {"s16", 2},   [PTX_T_S32] = {"s32", 4},
    [PTX_T_S64] = {"s64", 8},
    [PTX_T_F16] = {"f16", 2},   [PTX_T_F16X2] = {"f16x2", 4}, [PTX_T_BF16] = {"bf16", 2},
    [PTX_T_BF16X2] = {"bf16x2", 4}, [PTX_T_F32] = {"f32", 4}, [PTX_T_F64] = {"f64", 8},
    [PTX_T_PRED] = {"pred", 0},
};

unsigned ptx_type_size(ptx_type t)
{
    return (unsigned)t < PTX_T_COUNT ? type_info[t].size : 0;
}

int ptx_type_is_signed(ptx_type t)
{
    return t == PTX_T_S8 || t == PTX_T_S16 || t == PTX_T_S32 || t == PTX_T_S64;
}

int ptx_type_is_float(ptx_type t)
{
    return t >= PTX_T_F16 && t <= PTX_T_F64;
}

const char *ptx_type_name(ptx_type t)
{
    return (unsigned)t < PTX_T_COUNT ? type_info[t].name : "?";
}

static void free_function(ptx_function *f)
{
    free(f->name);
    free(f->unsupported);
    free(f->insns);
    for (uint32_t i = 0; i < f->nregs; i++)
        free(f->reg_names[i]);
    free(f->reg_names);
    free(f->reg_types);
    for (uint32_t i = 0; i < f->npreds; i++)
        free(f->pred_names[i]);
    free(f->pred_names);
    for (uint32_t i = 0; i < f->nparams; i++)
        free(f->params[i].name);
    free(f->params);
    for (uint32_t i = 0; i < f->nrets; i++)
        free(f->rets[i].name);
    free(f->rets);
    free(f->calls);
    free(f->zero_regs);
    free(f->reg_slot);
}

void ptx_module_free(ptx_module *m)
{
    if (!m)
        return;
    for (uint32_t i = 0; i < m->nfuncs; i++)
        free_function(&m->funcs[i]);
    free(m->funcs);
    for (uint32_t i = 0; i < m->nvars; i++) {
        free(m->vars[i].name);
        free(m->vars[i].init);
        free(m->vars[i].init_sym);
    }
    free(m->vars);
    free(m->source_name);
    free(m);
}

/* Linear scans: lookups happen at load/launch time, not in the simulation loop,
 * and modules have tens of functions and variables. */
int ptx_find_function(const ptx_module *m, const char *name)
{
    if (!m || !name)
        return -1;
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (m->funcs[i].name && strcmp(m->funcs[i].name, name) == 0)
            return (int)i;
    return -1;
}

int ptx_find_var(const ptx_module *m, const char *name)
{
    if (!m || !name)
        return -1;
    for (uint32_t i = 0; i < m->nvars; i++)
        if (m->vars[i].name && strcmp(m->vars[i].name, name) == 0)
            return (int)i;
    return -1;
}

/* Depth-first over the call graph from fi; seen[] guards against recursion. */
static const char *unsupported_from(const ptx_module *m, uint32_t fi, uint8_t *seen)
{
    if (fi >= m->nfuncs || seen[fi])
        return NULL;
    seen[fi] = 1;
    const ptx_function *f = &m->funcs[fi];
    if (f->unsupported)
        return f->unsupported;
    for (uint32_t i = 0; i < f->ncalls; i++) {
        if (f->calls[i].indirect)
            continue; /* the callee is known at run time: exec_call checks it then */
        const char *why = unsupported_from(m, f->calls[i].func, seen);
        if (why)
            return why;
    }
    return NULL;
}

const char *ptx_function_unsupported(const ptx_module *m, uint32_t fi)
{
    int any = 0;
    for (uint32_t i = 0; i < m->nfuncs; i++)
        any |= m->funcs[i].unsupported != NULL;
    if (!any)
        return NULL;
    uint8_t *seen = calloc(m->nfuncs, 1);
    if (!seen)
        return "out of memory checking the call graph";
    const char *why = unsupported_from(m, fi, seen);
    free(seen);
    return why;
}

void ptx_mma_dims(ptx_mma_shape s, uint32_t *m, uint32_t *n, uint32_t *k)
{
    static const uint8_t dims[][3] = {
        [PTX_SHAPE_NONE] = {0, 0, 0},       [PTX_SHAPE_M16N16K16] = {16, 16, 16},
        [PTX_SHAPE_M32N8K16] = {32, 8, 16}, [PTX_SHAPE_M8N32K16] = {8, 32, 16},
        [PTX_SHAPE_M16N16K8] = {16, 16, 8}, [PTX_SHAPE_M16N8K16] = {16, 8, 16},
        [PTX_SHAPE_M16N8K8] = {16, 8, 8},   [PTX_SHAPE_M16N8K32] = {16, 8, 32},
        [PTX_SHAPE_M8N8] = {8, 8, 0},
    };
    unsigned i = (unsigned)s < sizeof dims / sizeof dims[0] ? (unsigned)s : 0;
    *m = dims[i][0];
    *n = dims[i][1];
    *k = dims[i][2];
}

/* Depth-first over the direct calls from fi, as unsupported_from. */
static int tensor_from(const ptx_module *m, uint32_t fi, uint8_t *seen, uint32_t *func, uint32_t *insn)
{
    if (fi >= m->nfuncs || seen[fi])
        return 0;
    seen[fi] = 1;
    const ptx_function *f = &m->funcs[fi];
    for (uint32_t i = 0; i < f->ninsn; i++)
        if (ptx_op_is_tensor(f->insns[i].op)) {
            *func = fi;
            *insn = i;
            return 1;
        }
    for (uint32_t i = 0; i < f->ncalls; i++)
        if (!f->calls[i].indirect && tensor_from(m, f->calls[i].func, seen, func, insn))
            return 1;
    return 0;
}

int ptx_function_tensor_insn(const ptx_module *m, uint32_t fi, uint32_t *func, uint32_t *insn)
{
    uint8_t *seen = calloc(m->nfuncs ? m->nfuncs : 1, 1);
    if (!seen)
        return -1;
    int found = tensor_from(m, fi, seen, func, insn);
    free(seen);
    return found;
}
