/* Tensor-core instructions (docs/tensor.md): mma.sync for each shape and type
 * against hand-worked small matrices, with the fragments packed and unpacked here
 * from the PTX ISA's fragment tables (transcribed below as tables, apart from the
 * implementation's formulas); wmma load -> mma -> store round trips for each shape
 * and type (their fragments are opaque: only the stored result is defined);
 * ldmatrix with and without .trans; the refusal on a configuration without tensor
 * cores; the whole-warp rule; and the tensor pipeline's latency and interval in
 * the timing model.
 *
 * The matrices are identities, permutations and small integers, so every expected
 * element is worked out by hand (in the comments) and exact in every type. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "test_exec_util.h"
#include "timing_util.h"

/* ---- element encodings (exact for the small values used) ---- */
static uint32_t f32b(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static float f32v(uint32_t u) {
    float f;
    memcpy(&f, &u, 4);
    return f;
}
/* IEEE half of an integer-valued or quarter-valued float with |v| < 2048 */
static uint32_t f16b(float v) {
    if (v == 0.0f) return 0;
    uint32_t s = v < 0 ? 0x8000u : 0, u = f32b(v < 0 ? -v : v);
    int e = (int)((u >> 23) & 0xff) - 127 + 15;
    return s | (uint32_t)e << 10 | ((u >> 13) & 0x3ffu);
}
static float f16v(uint32_t h) {
    if ((h & 0x7fff) == 0) return 0.0f;
    uint32_t u = (h & 0x8000u) << 16 | (((h >> 10) & 0x1f) - 15 + 127) << 23 | (h & 0x3ffu) << 13;
    return f32v(u);
}
static uint32_t bf16b(float v) { return f32b(v) >> 16; } /* exact for small integers */

/* ---- mma.sync fragments, after the PTX ISA's tables ----
 * groupID g = lane / 4, threadID_in_group q = lane % 4.  Each entry gives, for
 * element i of a lane's fragment, the row as (g or q, times, plus) and the column
 * likewise; "G" and "Q" name which of the two the term uses. */
enum { G = 0, Q = 1, Z = 2 };
typedef struct {
    uint8_t rsrc, rmul, radd, csrc, cmul, cadd;
} pos_rule;

static uint32_t rule_val(uint8_t src, uint8_t mul, uint8_t add, uint32_t lane) {
    uint32_t v = src == G ? lane / 4 : src == Q ? lane % 4 : 0;
    return v * mul + add;
}

/* C and D of every m16n8 shape: c0,c1 (g, 2q + i); c2,c3 (g + 8, 2q + i - 2) */
static const pos_rule ACC[4] = {{G, 1, 0, Q, 2, 0}, {G, 1, 0, Q, 2, 1}, {G, 1, 8, Q, 2, 0}, {G, 1, 8, Q, 2, 1}};
/* A of m16n8k16 .f16/.bf16: a0,a1 (g, 2q..); a2,a3 (g+8, 2q..); a4,a5 (g, 2q+8..); a6,a7 (g+8, 2q+8..) */
static const pos_rule A_16816[8] = {{G, 1, 0, Q, 2, 0}, {G, 1, 0, Q, 2, 1}, {G, 1, 8, Q, 2, 0}, {G, 1, 8, Q, 2, 1},
                                    {G, 1, 0, Q, 2, 8}, {G, 1, 0, Q, 2, 9}, {G, 1, 8, Q, 2, 8}, {G, 1, 8, Q, 2, 9}};
/* B of m16n8k16 .f16/.bf16: b0,b1 (2q.., g); b2,b3 (2q+8.., g) */
static const pos_rule B_16816[4] = {{Q, 2, 0, G, 1, 0}, {Q, 2, 1, G, 1, 0}, {Q, 2, 8, G, 1, 0}, {Q, 2, 9, G, 1, 0}};
/* m16n8k8 .f16: A a0,a1 (g, 2q..), a2,a3 (g+8, 2q..); B b0,b1 (2q.., g) */
static const pos_rule A_1688[4] = {{G, 1, 0, Q, 2, 0}, {G, 1, 0, Q, 2, 1}, {G, 1, 8, Q, 2, 0}, {G, 1, 8, Q, 2, 1}};
static const pos_rule B_1688[2] = {{Q, 2, 0, G, 1, 0}, {Q, 2, 1, G, 1, 0}};
/* m16n8k8 .tf32: A a0 (g, q), a1 (g+8, q), a2 (g, q+4), a3 (g+8, q+4); B b0 (q, g), b1 (q+4, g) */
static const pos_rule A_TF32[4] = {{G, 1, 0, Q, 1, 0}, {G, 1, 8, Q, 1, 0}, {G, 1, 0, Q, 1, 4}, {G, 1, 8, Q, 1, 4}};
static const pos_rule B_TF32[2] = {{Q, 1, 0, G, 1, 0}, {Q, 1, 4, G, 1, 0}};
/* m16n8k16 .s8/.u8: A a0..a3 (g, 4q + i), a4..a7 (g+8, 4q + i - 4); B b0..b3 (4q + i, g) */
static const pos_rule A_I16[8] = {{G, 1, 0, Q, 4, 0}, {G, 1, 0, Q, 4, 1}, {G, 1, 0, Q, 4, 2}, {G, 1, 0, Q, 4, 3},
                                  {G, 1, 8, Q, 4, 0}, {G, 1, 8, Q, 4, 1}, {G, 1, 8, Q, 4, 2}, {G, 1, 8, Q, 4, 3}};
static const pos_rule B_I16[4] = {{Q, 4, 0, G, 1, 0}, {Q, 4, 1, G, 1, 0}, {Q, 4, 2, G, 1, 0}, {Q, 4, 3, G, 1, 0}};
/* m16n8k32 .s8/.u8: A as k16 for a0..a7, then a8..a15 the same 16 columns further;
 * B b0..b3 (4q + i, g), b4..b7 (4q + i - 4 + 16, g) */
static const pos_rule A_I32[16] = {
    {G, 1, 0, Q, 4, 0},  {G, 1, 0, Q, 4, 1},  {G, 1, 0, Q, 4, 2},  {G, 1, 0, Q, 4, 3},
    {G, 1, 8, Q, 4, 0},  {G, 1, 8, Q, 4, 1},  {G, 1, 8, Q, 4, 2},  {G, 1, 8, Q, 4, 3},
    {G, 1, 0, Q, 4, 16}, {G, 1, 0, Q, 4, 17}, {G, 1, 0, Q, 4, 18}, {G, 1, 0, Q, 4, 19},
    {G, 1, 8, Q, 4, 16}, {G, 1, 8, Q, 4, 17}, {G, 1, 8, Q, 4, 18}, {G, 1, 8, Q, 4, 19}};
static const pos_rule B_I32[8] = {{Q, 4, 0, G, 1, 0},  {Q, 4, 1, G, 1, 0},  {Q, 4, 2, G, 1, 0},
                                  {Q, 4, 3, G, 1, 0},  {Q, 4, 16, G, 1, 0}, {Q, 4, 17, G, 1, 0},
                                  {Q, 4, 18, G, 1, 0}, {Q, 4, 19, G, 1, 0}};

/* One operand: its matrix (row-major, element bits), how many elements per lane,
 * element width, and its position table. */
typedef struct {
    const uint32_t *m;
    uint32_t cols, n, bits;
    const pos_rule *rule;
} operand;

/* Pack lane `lane`'s registers of op into regs (n x bits / 32 of them). */
static uint32_t pack(const operand *op, uint32_t lane, uint32_t *regs) {
    uint32_t per = 32 / op->bits, nregs = op->n / per;
    for (uint32_t r = 0; r < nregs; r++) regs[r] = 0;
    for (uint32_t i = 0; i < op->n; i++) {
        const pos_rule *p = &op->rule[i];
        uint32_t row = rule_val(p->rsrc, p->rmul, p->radd, lane), col = rule_val(p->csrc, p->cmul, p->cadd, lane);
        uint32_t v = op->m[row * op->cols + col];
        if (op->bits < 32) v &= (1u << op->bits) - 1;
        regs[i / per] |= v << ((i % per) * op->bits);
    }
    return nregs;
}

/* Unpack lane registers into a 16 x 8 accumulator matrix. */
static void unpack_acc(const uint32_t *regs, uint32_t lane, uint32_t bits, uint32_t *d) {
    uint32_t per = 32 / bits;
    for (uint32_t i = 0; i < 4; i++) {
        uint32_t row = rule_val(ACC[i].rsrc, ACC[i].rmul, ACC[i].radd, lane);
        uint32_t col = rule_val(ACC[i].csrc, ACC[i].cmul, ACC[i].cadd, lane);
        uint32_t v = regs[i / per] >> ((i % per) * bits);
        d[row * 8 + col] = bits < 32 ? v & ((1u << bits) - 1) : v;
    }
}

/* A kernel that loads each lane's A, B, C registers (32 words a lane: A at 0, B at
 * 8, C at 16), runs `insn` and stores the D registers (at 0). */
static char *mma_kernel(const char *insn, uint32_t na, uint32_t nb, uint32_t nc, uint32_t nd) {
    static char ptx[8192];
    int n = snprintf(ptx, sizeof ptx,
                     XT_HEADER ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n"
                               "  .reg .b32 %%a<16>;\n  .reg .b32 %%b<16>;\n  .reg .b32 %%c<16>;\n  .reg .b32 %%d<16>;\n"
                               "  .reg .b32 %%r<4>;\n  .reg .b64 %%rd<8>;\n"
                               "  ld.param.u64 %%rd1, [in];\n  ld.param.u64 %%rd2, [out];\n"
                               "  mov.u32 %%r1, %%tid.x;\n  mul.wide.u32 %%rd3, %%r1, 128;\n"
                               "  add.u64 %%rd4, %%rd1, %%rd3;\n  add.u64 %%rd5, %%rd2, %%rd3;\n");
    for (uint32_t i = 0; i < na; i++) n += snprintf(ptx + n, sizeof ptx - n, "  ld.global.b32 %%a%u, [%%rd4+%u];\n", i, 4 * i);
    for (uint32_t i = 0; i < nb; i++)
        n += snprintf(ptx + n, sizeof ptx - n, "  ld.global.b32 %%b%u, [%%rd4+%u];\n", i, 32 + 4 * i);
    for (uint32_t i = 0; i < nc; i++)
        n += snprintf(ptx + n, sizeof ptx - n, "  ld.global.b32 %%c%u, [%%rd4+%u];\n", i, 64 + 4 * i);
    n += snprintf(ptx + n, sizeof ptx - n, "  %s {", insn);
    const char *names[4] = {"d", "a", "b", "c"};
    uint32_t counts[4] = {nd, na, nb, nc};
    for (int o = 0; o < 4; o++) {
        for (uint32_t i = 0; i < counts[o]; i++)
            n += snprintf(ptx + n, sizeof ptx - n, "%s%%%s%u", i ? ", " : "", names[o], i);
        n += snprintf(ptx + n, sizeof ptx - n, "%s", o < 3 ? "}, {" : "};\n");
    }
    for (uint32_t i = 0; i < nd; i++) n += snprintf(ptx + n, sizeof ptx - n, "  st.global.b32 [%%rd5+%u], %%d%u;\n", 4 * i, i);
    snprintf(ptx + n, sizeof ptx - n, "  ret;\n}\n");
    return ptx;
}

/* Run insn on A (m x k), B (k x 8), C (16 x 8) given as element bits; D into d. */
static void run_mma(const char *insn, const operand *a, const operand *b, const operand *c, uint32_t dbits,
                    uint32_t *d) {
    uint32_t in[32 * 32] = {0}, out[32 * 32] = {0}, na = 0, nb = 0, nc = 0;
    for (uint32_t l = 0; l < 32; l++) {
        na = pack(a, l, &in[l * 32]);
        nb = pack(b, l, &in[l * 32 + 8]);
        nc = pack(c, l, &in[l * 32 + 16]);
    }
    uint32_t nd = 4 * dbits / 32;
    xt t = xt_open(mma_kernel(insn, na, nb, nc, nd), "mma.ptx");
    locsim_dptr din = xt_buf(&t, in, sizeof in), dout = xt_buf(&t, NULL, sizeof out);
    void *args[] = {&din, &dout};
    xt_run(&t, "k", 1, 32, args, 2);
    xt_get(&t, out, dout, sizeof out);
    xt_close(&t);
    for (uint32_t l = 0; l < 32; l++) unpack_acc(&out[l * 32], l, dbits, d);
}

/* m16n8k16 f16 -> f32: A the identity, B[k][j] = k - j, C[i][j] = i + 0.5, so
 * D[i][j] = B[i][j] + C[i][j] = 2i - j + 0.5. */
static void mma_m16n8k16_f16_identity(void **state) {
    (void)state;
    uint32_t A[16 * 16], B[16 * 8], C[16 * 8], D[16 * 8];
    for (int i = 0; i < 16; i++)
        for (int k = 0; k < 16; k++) A[i * 16 + k] = f16b(i == k ? 1.0f : 0.0f);
    for (int k = 0; k < 16; k++)
        for (int j = 0; j < 8; j++) B[k * 8 + j] = f16b((float)(k - j));
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 8; j++) C[i * 8 + j] = f32b((float)i + 0.5f);
    operand a = {A, 16, 8, 16, A_16816}, b = {B, 8, 4, 16, B_16816}, c = {C, 8, 4, 32, ACC};
    run_mma("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", &a, &b, &c, 32, D);
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 8; j++) assert_true(f32v(D[i * 8 + j]) == (float)(2 * i - j) + 0.5f);
}

/* The same with A a permutation: row i picks row p(i) = (5i + 3) mod 16 of B,
 * B[k][j] = 3k + j, C = -1: D[i][j] = 3 p(i) + j - 1. */
static void mma_m16n8k16_f16_permutation(void **state) {
    (void)state;
    uint32_t A[16 * 16], B[16 * 8], C[16 * 8], D[16 * 8];
    for (int i = 0; i < 16; i++)
        for (int k = 0; k < 16; k++) A[i * 16 + k] = f16b(k == (5 * i + 3) % 16 ? 1.0f : 0.0f);
    for (int k = 0; k < 16; k++)
        for (int j = 0; j < 8; j++) B[k * 8 + j] = f16b((float)(3 * k + j));
    for (int i = 0; i < 16 * 8; i++) C[i] = f32b(-1.0f);
    operand a = {A, 16, 8, 16, A_16816}, b = {B, 8, 4, 16, B_16816}, c = {C, 8, 4, 32, ACC};
    run_mma("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", &a, &b, &c, 32, D);
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 8; j++) assert_true(f32v(D[i * 8 + j]) == (float)(3 * ((5 * i + 3) % 16) + j - 1));
}

/* A full dot product: row 0 of A all 2, column 0 of B all 3, the rest 0, C = 0:
 * D[0][0] = 16 x 6 = 96, every other element 0. */
static void mma_m16n8k16_f16_dot(void **state) {
    (void)state;
    uint32_t A[16 * 16], B[16 * 8], C[16 * 8] = {0}, D[16 * 8];
    for (int i = 0; i < 16 * 16; i++) A[i] = f16b(i < 16 ? 2.0f : 0.0f);
    for (int i = 0; i < 16 * 8; i++) B[i] = f16b(i % 8 == 0 ? 3.0f : 0.0f);
    operand a = {A, 16, 8, 16, A_16816}, b = {B, 8, 4, 16, B_16816}, c = {C, 8, 4, 32, ACC};
    run_mma("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", &a, &b, &c, 32, D);
    for (int i = 0; i < 16 * 8; i++) assert_true(f32v(D[i]) == (i == 0 ? 96.0f : 0.0f));
}

/* m16n8k8 with f16 C and D: A[i][k] = 1 where k = i mod 8, B[k][j] = 8k + j,
 * C = 1: D[i][j] = 8 (i mod 8) + j + 1 (at most 64: exact in half). */
static void mma_m16n8k8_f16_f16(void **state) {
    (void)state;
    uint32_t A[16 * 8], B[8 * 8], C[16 * 8], D[16 * 8];
    for (int i = 0; i < 16; i++)
        for (int k = 0; k < 8; k++) A[i * 8 + k] = f16b(k == i % 8 ? 1.0f : 0.0f);
    for (int k = 0; k < 8; k++)
        for (int j = 0; j < 8; j++) B[k * 8 + j] = f16b((float)(8 * k + j));
    for (int i = 0; i < 16 * 8; i++) C[i] = f16b(1.0f);
    operand a = {A, 8, 4, 16, A_1688}, b = {B, 8, 2, 16, B_1688}, c = {C, 8, 4, 16, ACC};
    run_mma("mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16", &a, &b, &c, 16, D);
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 8; j++) assert_true(f16v(D[i * 8 + j]) == (float)(8 * (i % 8) + j + 1));
}

/* m16n8k16 bf16: A = 2 x identity, B[k][j] = j - k, C = -1: D[i][j] = 2 (j - i) - 1. */
static void mma_m16n8k16_bf16(void **state) {
    (void)state;
    uint32_t A[16 * 16], B[16 * 8], C[16 * 8], D[16 * 8];
    for (int i = 0; i < 16; i++)
        for (int k = 0; k < 16; k++) A[i * 16 + k] = bf16b(i == k ? 2.0f : 0.0f);
    for (int k = 0; k < 16; k++)
        for (int j = 0; j < 8; j++) B[k * 8 + j] = bf16b((float)(j - k));
    for (int i = 0; i < 16 * 8; i++) C[i] = f32b(-1.0f);
    operand a = {A, 16, 8, 16, A_16816}, b = {B, 8, 4, 16, B_16816}, c = {C, 8, 4, 32, ACC};
    run_mma("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", &a, &b, &c, 32, D);
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 8; j++) assert_true(f32v(D[i * 8 + j]) == (float)(2 * (j - i) - 1));
}

/* m16n8k8 bf16: A[i][k] = 1 where k = (i + 3) mod 8, B[k][j] = k j, C = 0:
 * D[i][j] = ((i + 3) mod 8) j. */
static void mma_m16n8k8_bf16(void **state) {
    (void)state;
    uint32_t A[16 * 8], B[8 * 8], C[16 * 8] = {0}, D[16 * 8];
    for (int i = 0; i < 16; i++)
        for (int k = 0; k < 8; k++) A[i * 8 + k] = bf16b(k == (i + 3) % 8 ? 1.0f : 0.0f);
    for (int k = 0; k < 8; k++)
        for (int j = 0; j < 8; j++) B[k * 8 + j] = bf16b((float)(k * j));
    operand a = {A, 8, 4, 16, A_1688}, b = {B, 8, 2, 16, B_1688}, c = {C, 8, 4, 32, ACC};
    run_mma("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32", &a, &b, &c, 32, D);
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 8; j++) assert_true(f32v(D[i * 8 + j]) == (float)(((i + 3) % 8) * j));
}

/* m16n8k8 tf32: A[i][k] = 3 where k = (i + 1) mod 8, B[k][j] = k + 10 j, C = 0.5:
 * D[i][j] = 3 ((i + 1) mod 8 + 10 j) + 0.5. */
static void mma_m16n8k8_tf32(void **state) {
    (void)state;
    uint32_t A[16 * 8], B[8 * 8], C[16 * 8], D[16 * 8];
    for (int i = 0; i < 16; i++)
        for (int k = 0; k < 8; k++) A[i * 8 + k] = f32b(k == (i + 1) % 8 ? 3.0f : 0.0f);
    for (int k = 0; k < 8; k++)
        for (int j = 0; j < 8; j++) B[k * 8 + j] = f32b((float)(k + 10 * j));
    for (int i = 0; i < 16 * 8; i++) C[i] = f32b(0.5f);
    operand a = {A, 8, 4, 32, A_TF32}, b = {B, 8, 2, 32, B_TF32}, c = {C, 8, 4, 32, ACC};
    run_mma("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", &a, &b, &c, 32, D);
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 8; j++) assert_true(f32v(D[i * 8 + j]) == (float)(3 * ((i + 1) % 8 + 10 * j)) + 0.5f);
}

/* m16n8k16 s8: A = -3 x identity, B[k][j] = k - 2j, C = 1000:
 * D[i][j] = -3 (i - 2j) + 1000. */
static void mma_m16n8k16_s8(void **state) {
    (void)state;
    uint32_t A[16 * 16], B[16 * 8], C[16 * 8], D[16 * 8];
    for (int i = 0; i < 16; i++)
        for (int k = 0; k < 16; k++) A[i * 16 + k] = (uint32_t)(i == k ? -3 : 0) & 0xff;
    for (int k = 0; k < 16; k++)
        for (int j = 0; j < 8; j++) B[k * 8 + j] = (uint32_t)(k - 2 * j) & 0xff;
    for (int i = 0; i < 16 * 8; i++) C[i] = 1000;
    operand a = {A, 16, 8, 8, A_I16}, b = {B, 8, 4, 8, B_I16}, c = {C, 8, 4, 32, ACC};
    run_mma("mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32", &a, &b, &c, 32, D);
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 8; j++) assert_int_equal((int32_t)D[i * 8 + j], -3 * (i - 2 * j) + 1000);
}

/* m16n8k32 with s8 A and u8 B: A[i][k] = 1 at k = i and k = i + 16, B[k][j] = 7k + j
 * (up to 224: a u8 above 127), C[i][j] = -i: D[i][j] = B[i][j] + B[i+16][j] - i
 * = 14i + 112 + 2j - i = 13i + 2j + 112. */
static void mma_m16n8k32_s8_u8(void **state) {
    (void)state;
    uint32_t A[16 * 32], B[32 * 8], C[16 * 8], D[16 * 8];
    for (int i = 0; i < 16; i++)
        for (int k = 0; k < 32; k++) A[i * 32 + k] = k == i || k == i + 16 ? 1 : 0;
    for (int k = 0; k < 32; k++)
        for (int j = 0; j < 8; j++) B[k * 8 + j] = (uint32_t)(7 * k + j);
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 8; j++) C[i * 8 + j] = (uint32_t)-i;
    operand a = {A, 32, 16, 8, A_I32}, b = {B, 8, 8, 8, B_I32}, c = {C, 8, 4, 32, ACC};
    run_mma("mma.sync.aligned.m16n8k32.row.col.s32.s8.u8.s32", &a, &b, &c, 32, D);
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 8; j++) assert_int_equal((int32_t)D[i * 8 + j], 13 * i + 2 * j + 112);
}

/* s32 overflow: A and B all 127, C = 2^31 - 1000: every sum is 16 x 16129 = 258064
 * past it.  Without .satfinite it wraps modulo 2^32; with it, it stops at 2^31 - 1. */
static void mma_s8_wrap_and_satfinite(void **state) {
    (void)state;
    uint32_t A[16 * 16], B[16 * 8], C[16 * 8], D[16 * 8];
    for (int i = 0; i < 16 * 16; i++) A[i] = 127;
    for (int i = 0; i < 16 * 8; i++) B[i] = 127;
    for (int i = 0; i < 16 * 8; i++) C[i] = 0x7fffffffu - 999u;
    operand a = {A, 16, 8, 8, A_I16}, b = {B, 8, 4, 8, B_I16}, c = {C, 8, 4, 32, ACC};
    run_mma("mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32", &a, &b, &c, 32, D);
    for (int i = 0; i < 16 * 8; i++) assert_int_equal(D[i], (0x7fffffffu - 999u + 258064u));
    run_mma("mma.sync.aligned.m16n8k16.row.col.satfinite.s32.s8.s8.s32", &a, &b, &c, 32, D);
    for (int i = 0; i < 16 * 8; i++) assert_int_equal(D[i], 0x7fffffffu);
}

/* ---- wmma: load -> mma -> store ---- */

/* A kernel: wmma.load A, B, C from global (at in + 0, + 4096, + 8192 bytes, with the
 * given layouts and strides), wmma.mma, wmma.store D at out (row-major, stride sd). */
static char *wmma_kernel(const char *shape, const char *a_lay, const char *b_lay, const char *ab_type,
                         const char *c_type, const char *d_type, const char *mma_types, uint32_t na, uint32_t nb,
                         uint32_t nc, uint32_t nd, uint32_t sa, uint32_t sb, uint32_t sc, uint32_t sd) {
    static char ptx[8192];
    int n = snprintf(ptx, sizeof ptx,
                     XT_HEADER ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n"
                               "  .reg .b32 %%a<8>;\n  .reg .b32 %%b<8>;\n  .reg .b32 %%c<8>;\n  .reg .b32 %%d<8>;\n"
                               "  .reg .b64 %%rd<8>;\n"
                               "  ld.param.u64 %%rd1, [in];\n  ld.param.u64 %%rd2, [out];\n"
                               "  add.u64 %%rd3, %%rd1, 4096;\n  add.u64 %%rd4, %%rd1, 8192;\n");
    const char *names[4] = {"a", "b", "c", "d"};
    uint32_t counts[4] = {na, nb, nc, nd};
    const char *lay[3] = {a_lay, b_lay, "row"};
    const char *types[3] = {ab_type, ab_type, c_type};
    const char *addr[3] = {"%rd1", "%rd3", "%rd4"};
    uint32_t stride[3] = {sa, sb, sc};
    for (int o = 0; o < 3; o++) {
        n += snprintf(ptx + n, sizeof ptx - n, "  wmma.load.%s.sync.aligned.%s.%s.global.%s {", names[o], lay[o],
                      shape, types[o]);
        for (uint32_t i = 0; i < counts[o]; i++)
            n += snprintf(ptx + n, sizeof ptx - n, "%s%%%s%u", i ? ", " : "", names[o], i);
        n += snprintf(ptx + n, sizeof ptx - n, "}, [%s], %u;\n", addr[o], stride[o]);
    }
    n += snprintf(ptx + n, sizeof ptx - n, "  wmma.mma.sync.aligned.%s.%s.%s.%s {", a_lay, b_lay, shape, mma_types);
    const int order[4] = {3, 0, 1, 2};
    for (int q = 0; q < 4; q++) {
        int o = order[q];
        for (uint32_t i = 0; i < counts[o]; i++)
            n += snprintf(ptx + n, sizeof ptx - n, "%s%%%s%u", i ? ", " : "", names[o], i);
        n += snprintf(ptx + n, sizeof ptx - n, "%s", q < 3 ? "}, {" : "};\n");
    }
    n += snprintf(ptx + n, sizeof ptx - n, "  wmma.store.d.sync.aligned.row.%s.global.%s [%%rd2], {", shape, d_type);
    for (uint32_t i = 0; i < nd; i++) n += snprintf(ptx + n, sizeof ptx - n, "%s%%d%u", i ? ", " : "", i);
    snprintf(ptx + n, sizeof ptx - n, "}, %u;\n  ret;\n}\n", sd);
    return ptx;
}

/* Element (r, c) stored at base with a layout and stride, esize bytes. */
static void put_elem(uint8_t *base, int col_major, uint32_t stride, uint32_t r, uint32_t c, uint32_t esize,
                     uint32_t v) {
    uint8_t *p = base + ((col_major ? c * stride + r : r * stride + c) * esize);
    for (uint32_t b = 0; b < esize; b++) p[b] = (uint8_t)(v >> (8 * b));
}
static uint32_t get_elem(const uint8_t *p, uint32_t esize) {
    uint32_t v = 0;
    for (uint32_t b = 0; b < esize; b++) v |= (uint32_t)p[b] << (8 * b);
    return v;
}

typedef struct {
    const char *shape;
    uint32_t m, n, k;
    const char *a_lay, *b_lay, *ab_type, *c_type, *d_type, *mma_types;
    uint32_t na, nb, nc, nd;
    uint32_t (*enc_ab)(int v);   /* an integer as an A/B element */
    uint32_t ab_size;
    int int_acc;                 /* C, D are s32 (else float: f32 or f16 by their sizes) */
    uint32_t c_size, d_size;
} wmma_case;

static uint32_t enc_f16(int v) { return f16b((float)v); }
static uint32_t enc_bf16(int v) { return bf16b((float)v); }
static uint32_t enc_f32(int v) { return f32b((float)v); }
static uint32_t enc_i8(int v) { return (uint32_t)v & 0xff; }

/* A[i][k] = 1 where k = p(i) = (3i + 1) mod K (a permutation when K is a power of
 * two: 3 is odd) for i < M (M may exceed K: rows then repeat the pattern); B[k][j] =
 * (k + 2j) mod 7 (small, non-negative: u8 too); C[i][j] = i - j (s32) or 2:
 * D[i][j] = B[p(i)][j] + C[i][j].  Strides: A and B padded by 8 elements, C and
 * D by 4 (wmma wants multiples of 16 bytes). */
static void run_wmma_case(const wmma_case *w) {
    static uint8_t in[12288], out[4096];
    memset(in, 0, sizeof in);
    memset(out, 0, sizeof out);
    int acol = strcmp(w->a_lay, "col") == 0, bcol = strcmp(w->b_lay, "col") == 0;
    uint32_t sa = (acol ? w->m : w->k) + 16, sb = (bcol ? w->k : w->n) + 16, sc = w->n + 8, sd = w->n + 8;
    for (uint32_t i = 0; i < w->m; i++)
        for (uint32_t k = 0; k < w->k; k++)
            put_elem(in, acol, sa, i, k, w->ab_size, w->enc_ab(k == (3 * i + 1) % w->k ? 1 : 0));
    for (uint32_t k = 0; k < w->k; k++)
        for (uint32_t j = 0; j < w->n; j++) put_elem(in + 4096, bcol, sb, k, j, w->ab_size, w->enc_ab((int)((k + 2 * j) % 7)));
    for (uint32_t i = 0; i < w->m; i++)
        for (uint32_t j = 0; j < w->n; j++) {
            uint32_t c = w->int_acc ? (uint32_t)((int)i - (int)j) : w->c_size == 2 ? f16b(2.0f) : f32b(2.0f);
            put_elem(in + 8192, 0, sc, i, j, w->c_size, c);
        }
    xt t = xt_open(wmma_kernel(w->shape, w->a_lay, w->b_lay, w->ab_type, w->c_type, w->d_type, w->mma_types, w->na,
                               w->nb, w->nc, w->nd, sa, sb, sc, sd),
                   "wmma.ptx");
    locsim_dptr din = xt_buf(&t, in, sizeof in), dout = xt_buf(&t, NULL, sizeof out);
    void *args[] = {&din, &dout};
    xt_run(&t, "k", 1, 32, args, 2);
    xt_get(&t, out, dout, sizeof out);
    xt_close(&t);
    for (uint32_t i = 0; i < w->m; i++)
        for (uint32_t j = 0; j < w->n; j++) {
            int want_b = (int)(((3 * i + 1) % w->k + 2 * j) % 7);
            uint32_t got = get_elem(out + (i * sd + j) * w->d_size, w->d_size);
            if (w->int_acc) {
                assert_int_equal((int32_t)got, want_b + (int)i - (int)j);
            } else {
                float g = w->d_size == 2 ? f16v(got) : f32v(got);
                if (g != (float)(want_b + 2)) fprintf(stderr, "%s: D[%u][%u] = %g, want %d\n", w->shape, i, j, g, want_b + 2);
                assert_true(g == (float)(want_b + 2));
            }
        }
}

static void wmma_f16_shapes(void **state) {
    (void)state;
    static const wmma_case cases[] = {
        {"m16n16k16", 16, 16, 16, "row", "col", "f16", "f32", "f32", "f32.f32", 8, 8, 8, 8, enc_f16, 2, 0, 4, 4},
        {"m16n16k16", 16, 16, 16, "col", "row", "f16", "f16", "f16", "f16.f16", 8, 8, 4, 4, enc_f16, 2, 0, 2, 2},
        {"m16n16k16", 16, 16, 16, "row", "row", "f16", "f16", "f32", "f32.f16", 8, 8, 4, 8, enc_f16, 2, 0, 2, 4},
        {"m32n8k16", 32, 8, 16, "col", "col", "f16", "f32", "f32", "f32.f32", 8, 8, 8, 8, enc_f16, 2, 0, 4, 4},
        {"m8n32k16", 8, 32, 16, "row", "row", "f16", "f32", "f32", "f32.f32", 8, 8, 8, 8, enc_f16, 2, 0, 4, 4},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) run_wmma_case(&cases[i]);
}

static void wmma_bf16_tf32(void **state) {
    (void)state;
    static const wmma_case cases[] = {
        {"m16n16k16", 16, 16, 16, "row", "col", "bf16", "f32", "f32", "f32.bf16.bf16.f32", 4, 4, 8, 8, enc_bf16, 2, 0, 4, 4},
        {"m32n8k16", 32, 8, 16, "row", "row", "bf16", "f32", "f32", "f32.bf16.bf16.f32", 8, 2, 8, 8, enc_bf16, 2, 0, 4, 4},
        {"m8n32k16", 8, 32, 16, "col", "col", "bf16", "f32", "f32", "f32.bf16.bf16.f32", 2, 8, 8, 8, enc_bf16, 2, 0, 4, 4},
        {"m16n16k8", 16, 16, 8, "row", "col", "tf32", "f32", "f32", "f32.tf32.tf32.f32", 4, 4, 8, 8, enc_f32, 4, 0, 4, 4},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) run_wmma_case(&cases[i]);
}

static void wmma_int8(void **state) {
    (void)state;
    static const wmma_case cases[] = {
        {"m16n16k16", 16, 16, 16, "row", "col", "s8", "s32", "s32", "s32.s8.s8.s32", 2, 2, 8, 8, enc_i8, 1, 1, 4, 4},
        {"m32n8k16", 32, 8, 16, "row", "col", "u8", "s32", "s32", "s32.u8.u8.s32", 4, 1, 8, 8, enc_i8, 1, 1, 4, 4},
        {"m8n32k16", 8, 32, 16, "row", "col", "s8", "s32", "s32", "s32.s8.s8.s32", 1, 4, 8, 8, enc_i8, 1, 1, 4, 4},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) run_wmma_case(&cases[i]);
}

/* ---- ldmatrix ---- */

/* 32 rows of 8 halves in shared memory, S[r][c] = 8r + c + 1 (raw 16-bit values);
 * lane l points at row l.  Without .trans lane t's register j holds row 8j + t/4,
 * columns 2(t%4) and 2(t%4)+1 (low half first); with .trans column t/4, rows
 * 8j + 2(t%4) and 8j + 2(t%4) + 1. */
static void run_ldmatrix(uint32_t num, int trans) {
    char ptx[2048];
    const char *dst = num == 1 ? "{%r10}" : num == 2 ? "{%r10, %r11}" : "{%r10, %r11, %r12, %r13}";
    snprintf(ptx, sizeof ptx,
             XT_HEADER ".visible .entry k(.param .u64 out)\n{\n"
                       "  .shared .align 16 .b8 S[512];\n  .reg .b32 %%r<16>;\n  .reg .b64 %%rd<8>;\n"
                       "  ld.param.u64 %%rd1, [out];\n  mov.u32 %%r1, %%tid.x;\n"
                       "  mov.u32 %%r2, S;\n  shl.b32 %%r3, %%r1, 4;\n  add.u32 %%r4, %%r2, %%r3;\n"
                       /* lane l writes row l: the halves 8l + 1 .. 8l + 8, two a word */
                       "  shl.b32 %%r8, %%r1, 3;\n  add.u32 %%r8, %%r8, 1;\n"
                       "  add.u32 %%r9, %%r8, 1;\n  shl.b32 %%r9, %%r9, 16;\n  or.b32 %%r9, %%r9, %%r8;\n"
                       "  st.shared.b32 [%%r4], %%r9;\n"
                       "  add.u32 %%r8, %%r8, 2;\n  add.u32 %%r9, %%r8, 1;\n  shl.b32 %%r9, %%r9, 16;\n"
                       "  or.b32 %%r9, %%r9, %%r8;\n  st.shared.b32 [%%r4+4], %%r9;\n"
                       "  add.u32 %%r8, %%r8, 2;\n  add.u32 %%r9, %%r8, 1;\n  shl.b32 %%r9, %%r9, 16;\n"
                       "  or.b32 %%r9, %%r9, %%r8;\n  st.shared.b32 [%%r4+8], %%r9;\n"
                       "  add.u32 %%r8, %%r8, 2;\n  add.u32 %%r9, %%r8, 1;\n  shl.b32 %%r9, %%r9, 16;\n"
                       "  or.b32 %%r9, %%r9, %%r8;\n  st.shared.b32 [%%r4+12], %%r9;\n"
                       "  bar.sync 0;\n"
                       "  ldmatrix.sync.aligned.m8n8.x%u%s.shared.b16 %s, [%%r4];\n"
                       "  mul.wide.u32 %%rd2, %%r1, 16;\n  add.u64 %%rd3, %%rd1, %%rd2;\n"
                       "  st.global.v4.b32 [%%rd3], {%%r10, %%r11, %%r12, %%r13};\n  ret;\n}\n",
             num, trans ? ".trans" : "", dst);
    xt t = xt_open(ptx, "ldmatrix.ptx");
    uint32_t out[32 * 4];
    locsim_dptr d = xt_buf(&t, NULL, sizeof out);
    void *args[] = {&d};
    xt_run(&t, "k", 1, 32, args, 1);
    xt_get(&t, out, d, sizeof out);
    xt_close(&t);
    for (uint32_t l = 0; l < 32; l++)
        for (uint32_t j = 0; j < num; j++) {
            uint32_t r0, c0, r1, c1;
            if (!trans) {
                r0 = r1 = 8 * j + l / 4;
                c0 = 2 * (l % 4);
                c1 = c0 + 1;
            } else {
                c0 = c1 = l / 4;
                r0 = 8 * j + 2 * (l % 4);
                r1 = r0 + 1;
            }
            uint32_t want = (8 * r0 + c0 + 1) | (8 * r1 + c1 + 1) << 16;
            assert_int_equal(out[l * 4 + j], want);
        }
}

static void ldmatrix_forms(void **state) {
    (void)state;
    for (uint32_t num = 1; num <= 4; num *= 2) {
        run_ldmatrix(num, 0);
        run_ldmatrix(num, 1);
    }
}

/* ---- errors ---- */

/* A configuration without tensor cores refuses the launch, naming the
 * instruction; -gpgpu_tensor_core_avail 1 runs it. */
static void refused_without_tensor_cores(void **state) {
    (void)state;
    const char *ptx = mma_kernel("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", 4, 2, 4, 4);
    for (int avail = 0; avail <= 1; avail++) {
        char *ov[] = {"-gpgpu_tensor_core_avail", avail ? "1" : "0"};
        locsim_config *cfg = NULL;
        char err[512];
        assert_int_equal(locsim_config_load("fermi_gtx480", 2, ov, &cfg, err, sizeof err), LOCSIM_OK);
        locsim_device *dev = NULL;
        assert_int_equal(locsim_device_create(cfg, LOCSIM_MODE_FUNCTIONAL, &dev), LOCSIM_OK);
        locsim_module *mod = NULL;
        assert_int_equal(locsim_module_load_ptx(dev, ptx, strlen(ptx), "mma.ptx", &mod), LOCSIM_OK);
        locsim_kernel *k = NULL;
        assert_int_equal(locsim_module_get_kernel(mod, "k", &k), LOCSIM_OK);
        locsim_dptr din, dout;
        assert_int_equal(locsim_malloc(dev, &din, 4096), LOCSIM_OK);
        assert_int_equal(locsim_malloc(dev, &dout, 4096), LOCSIM_OK);
        assert_int_equal(locsim_memset(dev, din, 0, 4096), LOCSIM_OK);
        void *args[] = {&din, &dout};
        locsim_status st = locsim_launch(k, (locsim_dim3){1, 1, 1}, (locsim_dim3){32, 1, 1}, 0, args, 2);
        if (avail) {
            assert_int_equal(st, LOCSIM_OK);
        } else {
            assert_int_equal(st, LOCSIM_ERR_UNSUPPORTED);
            const char *msg = locsim_last_error(dev);
            xt_assert_contains(msg, "mma.ptx:");
            xt_assert_contains(msg, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
            xt_assert_contains(msg, "-gpgpu_tensor_core_avail");
        }
        locsim_device_destroy(dev);
        locsim_config_free(cfg);
    }
}

/* Malformed forms fail at load with file:line and what was expected. */
static void parse_errors(void **state) {
    (void)state;
    static const struct {
        const char *stmt, *want;
    } cases[] = {
        {"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%r1, %r2, %r3, %r4}, {%r1, %r2}, {%r1, %r2}, "
         "{%r1, %r2, %r3, %r4};",
         "vector operand has 2 elements, 'mma' needs 4"},
        {"mma.sync.aligned.m16n8k16.col.row.f32.f16.f16.f32 {%r1, %r2, %r3, %r4}, {%r1, %r2, %r3, %r4}, "
         "{%r1, %r2}, {%r1, %r2, %r3, %r4};",
         "takes .row.col"},
        {"wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r1, %r2, %r3, %r4}, [%rd1], 16;",
         "vector operand has 4 elements, 'wmma.load' needs 8"},
        {"wmma.load.a.row.m16n16k16.global.f16 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd1], 16;",
         "needs .sync.aligned"},
        {"ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r1, %r2}, [%r3];", "vector operand has 2 elements"},
        {"mma.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32 {%r1, %r2, %r3, %r4}, {%r1, %r2, %r3, %r4}, "
         "{%r1, %r2}, {%r1, %r2, %r3, %r4};",
         "not supported"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char ptx[1024];
        snprintf(ptx, sizeof ptx,
                 XT_HEADER ".visible .entry k()\n{\n  .reg .b32 %%r<9>;\n  .reg .b64 %%rd<2>;\n  %s\n  ret;\n}\n",
                 cases[i].stmt);
        locsim_device *dev = NULL;
        assert_int_equal(locsim_device_create(NULL, LOCSIM_MODE_FUNCTIONAL, &dev), LOCSIM_OK);
        locsim_module *mod = NULL;
        locsim_status st = locsim_module_load_ptx(dev, ptx, strlen(ptx), "bad.ptx", &mod);
        const char *msg = locsim_last_error(dev);
        if (st == LOCSIM_OK) {
            /* lazily parsed: an unsupported form fails the kernel's launch */
            locsim_kernel *k = NULL;
            assert_int_equal(locsim_module_get_kernel(mod, "k", &k), LOCSIM_OK);
            st = locsim_launch(k, (locsim_dim3){1, 1, 1}, (locsim_dim3){32, 1, 1}, 0, NULL, 0);
            msg = locsim_last_error(dev);
        }
        assert_int_not_equal(st, LOCSIM_OK);
        xt_assert_contains(msg, "bad.ptx:8");
        xt_assert_contains(msg, cases[i].want);
        locsim_device_destroy(dev);
    }
}

/* A tensor instruction executed by part of a warp faults with a message. */
static void partial_warp_faults(void **state) {
    (void)state;
    const char *ptx = mma_kernel("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", 4, 2, 4, 4);
    xt t = xt_open(ptx, "mma.ptx");
    locsim_dptr din = xt_buf(&t, NULL, 32 * 128), dout = xt_buf(&t, NULL, 32 * 128);
    void *args[] = {&din, &dout};
    const char *msg = xt_expect_error(&t, "k", 1, 16, args, 2, LOCSIM_ERR_KERNEL_FAULT);
    xt_assert_contains(msg, "executed by 16 of 32 lanes");
    xt_close(&t);
}

/* ---- timing: the tensor pipeline ---- */

/* A chain of 8 dependent mma.sync (each reads the previous D as C) in one warp:
 * each waits for the one before, so the kernel's cycles grow by 8 x the latency
 * difference when -ptx_opcode_latency_tesnor grows; 8 independent mma.sync on one
 * tensor unit are spaced by the initiation interval. */
static char *chain_kernel(int dependent) {
    static char ptx[4096];
    int n = snprintf(ptx, sizeof ptx,
                     XT_HEADER ".visible .entry k(.param .u64 out)\n{\n"
                               "  .reg .b32 %%a<4>;\n  .reg .b32 %%b<2>;\n  .reg .f32 %%d<40>;\n  .reg .b64 %%rd<4>;\n"
                               "  ld.param.u64 %%rd1, [out];\n"
                               "  mov.b32 %%a0, 0;\n  mov.b32 %%a1, 0;\n  mov.b32 %%a2, 0;\n  mov.b32 %%a3, 0;\n"
                               "  mov.b32 %%b0, 0;\n  mov.b32 %%b1, 0;\n"
                               "  mov.f32 %%d0, 0f00000000;\n  mov.f32 %%d1, 0f00000000;\n"
                               "  mov.f32 %%d2, 0f00000000;\n  mov.f32 %%d3, 0f00000000;\n");
    for (int i = 0; i < 8; i++) {
        int c = dependent ? 4 * i : 0, d = 4 * (i + 1);
        n += snprintf(ptx + n, sizeof ptx - n,
                      "  mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%%d%d, %%d%d, %%d%d, %%d%d}, "
                      "{%%a0, %%a1, %%a2, %%a3}, {%%b0, %%b1}, {%%d%d, %%d%d, %%d%d, %%d%d};\n",
                      d, d + 1, d + 2, d + 3, c, c + 1, c + 2, c + 3);
    }
    snprintf(ptx + n, sizeof ptx - n, "  st.global.f32 [%%rd1], %%d32;\n  ret;\n}\n");
    return ptx;
}

static double chain_cycles(int dependent, const char *lat, const char *init, double *tensor_insns) {
    const char *ov[] = {"-gpgpu_tensor_core_avail", "1", "-gpgpu_num_tensor_core_units", "1",
                        "-ptx_opcode_latency_tesnor", lat, "-ptx_opcode_initiation_tensor", init, NULL};
    tdev t;
    tdev_open(&t, "fermi_gtx480", ov);
    locsim_kernel *k = tdev_kernel(&t, chain_kernel(dependent), "k");
    locsim_dptr out = tdev_alloc(&t, NULL, 64);
    void *args[] = {&out};
    tdev_launch(&t, k, 1, 32, args, 1);
    double cycles = tdev_stat(&t, "gpu_sim_cycle", 0);
    *tensor_insns = tdev_stat(&t, "warp_insn_tensor", 0);
    tdev_close(&t);
    return cycles;
}

static void tensor_pipeline_timing(void **state) {
    (void)state;
    double n1, n2, n3, n4;
    /* dependent: latency 64 -> 128 adds 8 x 64 cycles (the interval, 1, never binds) */
    double c64 = chain_cycles(1, "64", "1", &n1), c128 = chain_cycles(1, "128", "1", &n2);
    printf("dependent chain of 8: %.0f cycles at latency 64, %.0f at 128\n", c64, c128);
    assert_true(n1 == 8 && n2 == 8);
    assert_true(c128 - c64 == 8 * 64);
    /* independent, latency 8, one tensor unit: at intervals of 32 and 64 cycles the
     * unit binds (the issue, collector and register-bank spacing is shorter), so the
     * last of the 8 starts 7 x 32 cycles later at 64 than at 32; at interval 1 it
     * does not bind and the kernel is shorter still */
    double i1 = chain_cycles(0, "8", "1", &n3), i32 = chain_cycles(0, "8", "32", &n4);
    double n5, i64 = chain_cycles(0, "8", "64", &n5);
    printf("8 independent: %.0f cycles at interval 1, %.0f at 32, %.0f at 64\n", i1, i32, i64);
    assert_true(n3 == 8 && n4 == 8 && n5 == 8);
    assert_true(i64 - i32 == 7 * 32);
    assert_true(i1 < i32);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(mma_m16n8k16_f16_identity),
        cmocka_unit_test(mma_m16n8k16_f16_permutation),
        cmocka_unit_test(mma_m16n8k16_f16_dot),
        cmocka_unit_test(mma_m16n8k8_f16_f16),
        cmocka_unit_test(mma_m16n8k16_bf16),
        cmocka_unit_test(mma_m16n8k8_bf16),
        cmocka_unit_test(mma_m16n8k8_tf32),
        cmocka_unit_test(mma_m16n8k16_s8),
        cmocka_unit_test(mma_m16n8k32_s8_u8),
        cmocka_unit_test(mma_s8_wrap_and_satfinite),
        cmocka_unit_test(wmma_f16_shapes),
        cmocka_unit_test(wmma_bf16_tf32),
        cmocka_unit_test(wmma_int8),
        cmocka_unit_test(ldmatrix_forms),
        cmocka_unit_test(refused_without_tensor_cores),
        cmocka_unit_test(parse_errors),
        cmocka_unit_test(partial_warp_faults),
        cmocka_unit_test(tensor_pipeline_timing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
