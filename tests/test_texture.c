/* Texture and surface objects end to end: arrays and copies, tex / tld4 / txq /
 * suld / sust on hand-written kernels, with expected values worked out by hand
 * from the CUDA programming guide's texture-fetching rules (the comment at each
 * check shows the arithmetic).
 *
 * Every kernel below reads four 32-bit words of input per thread (coordinates,
 * as bits) and writes four 32-bit words of output per thread. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "locsim/locsim.h"
#include "timing_util.h"

#define HEADER ".version 9.0\n.target sm_75\n.address_size 64\n"
#define PRO(name)                                                                                                    \
    ".visible .entry " name "(.param .u64 h, .param .u64 out, .param .u64 in)\n{\n"                                  \
    " .reg .b16 %rs<8>; .reg .b32 %r<12>; .reg .f32 %f<12>; .reg .b64 %rd<10>;\n"                                   \
    " ld.param.u64 %rd1, [h];\n ld.param.u64 %rd2, [out];\n ld.param.u64 %rd3, [in];\n"                              \
    " mov.u32 %r1, %tid.x;\n mul.wide.u32 %rd4, %r1, 16;\n add.s64 %rd5, %rd3, %rd4;\n add.s64 %rd6, %rd2, %rd4;\n" \
    " ld.global.v4.b32 {%r2, %r3, %r4, %r5}, [%rd5];\n"
#define EPI " st.global.v4.b32 [%rd6], {%r6, %r7, %r8, %r9};\n ret;\n}\n"

static const char *ptx = HEADER
    PRO("t1f") " tex.1d.v4.f32.f32 {%r6, %r7, %r8, %r9}, [%rd1, {%r2}];\n" EPI
    PRO("t1i") " tex.1d.v4.s32.s32 {%r6, %r7, %r8, %r9}, [%rd1, {%r2}];\n" EPI
    PRO("t2f") " tex.2d.v4.f32.f32 {%r6, %r7, %r8, %r9}, [%rd1, {%r2, %r3}];\n" EPI
    PRO("t2u") " tex.2d.v4.u32.f32 {%r6, %r7, %r8, %r9}, [%rd1, {%r2, %r3}];\n" EPI
    PRO("t2lod") " tex.level.2d.v4.f32.f32 {%r6, %r7, %r8, %r9}, [%rd1, {%r2, %r3}], %r4;\n" EPI
    PRO("t3f") " tex.3d.v4.f32.f32 {%r6, %r7, %r8, %r9}, [%rd1, {%r2, %r3, %r4, %r5}];\n" EPI
    PRO("ta1") " tex.a1d.v4.f32.f32 {%r6, %r7, %r8, %r9}, [%rd1, {%r2, %r3}];\n" EPI
    PRO("ta2") " tex.a2d.v4.f32.f32 {%r6, %r7, %r8, %r9}, [%rd1, {%r2, %r3, %r4, %r5}];\n" EPI
    PRO("g4r") " tld4.r.2d.v4.f32.f32 {%r6, %r7, %r8, %r9}, [%rd1, {%r2, %r3}];\n" EPI
    PRO("g4g") " tld4.g.2d.v4.f32.f32 {%r6, %r7, %r8, %r9}, [%rd1, {%r2, %r3}];\n" EPI
    PRO("txq") " txq.width.b32 %r6, [%rd1];\n txq.height.b32 %r7, [%rd1];\n txq.depth.b32 %r8, [%rd1];\n"
               " txq.normalized_coords.b32 %r9, [%rd1];\n st.global.v4.b32 [%rd6], {%r6, %r7, %r8, %r9};\n"
               " txq.filter_mode.b32 %r6, [%rd1];\n txq.addr_mode_0.b32 %r7, [%rd1];\n"
               " txq.addr_mode_1.b32 %r8, [%rd1];\n txq.addr_mode_2.b32 %r9, [%rd1];\n"
               " add.s64 %rd6, %rd6, 16;\n" EPI
    PRO("suq") " suq.width.b32 %r6, [%rd1];\n suq.height.b32 %r7, [%rd1];\n suq.depth.b32 %r8, [%rd1];\n"
               " mov.b32 %r9, 0;\n" EPI
    PRO("sst") " sust.b.2d.b32.trap [%rd1, {%r2, %r3}], {%r4};\n mov.b32 %r6, 0;\n mov.b32 %r7, 0;\n"
               " mov.b32 %r8, 0;\n mov.b32 %r9, 0;\n" EPI
    PRO("sldt") " suld.b.2d.b32.trap {%r6}, [%rd1, {%r2, %r3}];\n mov.b32 %r7, 0;\n mov.b32 %r8, 0;\n"
                " mov.b32 %r9, 0;\n" EPI
    PRO("sldc") " suld.b.2d.b32.clamp {%r6}, [%rd1, {%r2, %r3}];\n mov.b32 %r7, 0;\n mov.b32 %r8, 0;\n"
                " mov.b32 %r9, 0;\n" EPI
    PRO("sldz") " suld.b.2d.b32.zero %r6, [%rd1, {%r2, %r3}];\n mov.b32 %r7, 0;\n mov.b32 %r8, 0;\n"
                " mov.b32 %r9, 0;\n" EPI
    PRO("sst8") " ld.global.v4.u8 {%rs1, %rs2, %rs3, %rs4}, [%rd5+4];\n"
                " sust.b.1d.v4.b8.zero [%rd1, {%r2}], {%rs1, %rs2, %rs3, %rs4};\n"
                " mov.b32 %r6, 0;\n mov.b32 %r7, 0;\n mov.b32 %r8, 0;\n mov.b32 %r9, 0;\n" EPI
    PRO("sld8") " suld.b.1d.v4.b8.trap {%rs1, %rs2, %rs3, %rs4}, [%rd1, {%r2}];\n"
                " cvt.u32.u16 %r6, %rs1;\n cvt.u32.u16 %r7, %rs2;\n cvt.u32.u16 %r8, %rs3;\n cvt.u32.u16 %r9, %rs4;\n"
                EPI;

typedef struct {
    locsim_device *dev;
    locsim_module *mod;
} fixture;

static int setup(void **state) {
    static fixture f;
    memset(&f, 0, sizeof f);
    if (locsim_device_create(NULL, LOCSIM_MODE_FUNCTIONAL, &f.dev) != LOCSIM_OK) return -1;
    if (locsim_module_load_ptx(f.dev, ptx, strlen(ptx), "tex.ptx", &f.mod) != LOCSIM_OK) {
        fprintf(stderr, "load failed: %s\n", locsim_last_error(f.dev));
        return -1;
    }
    *state = &f;
    return 0;
}

static int teardown(void **state) {
    fixture *f = *state;
    locsim_device_destroy(f->dev);
    return 0;
}

typedef union {
    float f;
    int32_t i;
    uint32_t u;
} word;

/* Run kernel `name` with handle h on n threads: in[4n] -> out[4n].  Returns the
 * launch status. */
static locsim_status run(fixture *f, const char *name, uint64_t h, const word *in, word *out, uint32_t n) {
    locsim_kernel *k;
    assert_int_equal(locsim_module_get_kernel(f->mod, name, &k), LOCSIM_OK);
    locsim_dptr din, dout;
    size_t bytes = n * 16u;
    assert_int_equal(locsim_malloc(f->dev, &din, bytes), LOCSIM_OK);
    assert_int_equal(locsim_malloc(f->dev, &dout, bytes), LOCSIM_OK);
    assert_int_equal(locsim_memcpy_htod(f->dev, din, in, bytes), LOCSIM_OK);
    void *args[] = {&h, &dout, &din};
    locsim_status st = locsim_launch(k, (locsim_dim3){1, 1, 1}, (locsim_dim3){n, 1, 1}, 0, args, 3);
    if (st == LOCSIM_OK) assert_int_equal(locsim_memcpy_dtoh(f->dev, out, dout, bytes), LOCSIM_OK);
    locsim_free(f->dev, din);
    locsim_free(f->dev, dout);
    return st;
}

static const locsim_channel_format F32 = {32, 0, 0, 0, LOCSIM_CHANNEL_FLOAT};

/* A w x h float array with T[x, y] = 10 y + x (h 0: 1-D). */
static locsim_array *grid_array(fixture *f, size_t w, size_t h) {
    locsim_array *a;
    assert_int_equal(locsim_array_create(f->dev, &F32, w, h, 0, 0, &a), LOCSIM_OK);
    float v[64];
    size_t rows = h ? h : 1;
    for (size_t y = 0; y < rows; y++)
        for (size_t x = 0; x < w; x++) v[y * w + x] = (float)(10 * y + x);
    locsim_copy_side dst = {a, 0, NULL, 0, 0, 0, 0, 0}, src = {NULL, 0, v, w * 4, rows, 0, 0, 0};
    assert_int_equal(locsim_memcpy_3d(f->dev, &dst, &src, w * 4, rows, 1), LOCSIM_OK);
    return a;
}

static uint64_t make_tex(fixture *f, locsim_array *a, int mode, int filter, int normalized) {
    locsim_resource_desc r = {LOCSIM_RES_ARRAY, a, 0, {0, 0, 0, 0, 0}, 0, 0, 0, 0};
    locsim_texture_desc t = {{mode, mode, mode}, filter, LOCSIM_READ_ELEMENT, normalized, {100, 100, 100, 100}};
    uint64_t h;
    assert_int_equal(locsim_texture_create(f->dev, &r, &t, &h), LOCSIM_OK);
    assert_true(h != 0);
    return h;
}

/* x of tex.2d (float result) at one coordinate. */
static float fetch2(fixture *f, uint64_t h, float x, float y) {
    word in[4] = {{.f = x}, {.f = y}, {.u = 0}, {.u = 0}}, out[4];
    assert_int_equal(run(f, "t2f", h, in, out, 1), LOCSIM_OK);
    return out[0].f;
}

/* 4 x 4 texture T = 10y + x, linear filtering, unnormalized (1.3, 2.75):
 *   xB = 0.8 -> i = 0, alpha = 0.8 in 1.8 fixed point = 205/256;
 *   yB = 2.25 -> j = 2, beta = 64/256.
 *   T is linear, so bilinear filtering gives 10 (j + beta) + (i + alpha)
 *   = 22.5 + 0.80078125 = 23.30078125 (every product and sum is a multiple of
 *   1/1024 below 32: exact in float).  All four texels are inside the texture, so
 *   clamp, border and (unnormalized) wrap agree. */
static void test_linear_inside(void **state) {
    fixture *f = *state;
    locsim_array *a = grid_array(f, 4, 4);
    int modes[3] = {LOCSIM_ADDRESS_CLAMP, LOCSIM_ADDRESS_BORDER, LOCSIM_ADDRESS_WRAP};
    for (int m = 0; m < 3; m++) {
        uint64_t h = make_tex(f, a, modes[m], LOCSIM_FILTER_LINEAR, 0);
        assert_true(fetch2(f, h, 1.3f, 2.75f) == 23.30078125f);
        assert_int_equal(locsim_texture_destroy(f->dev, h), LOCSIM_OK);
    }
    locsim_array_destroy(f->dev, a);
}

/* (0.25, 3.875) unnormalized: xB = -0.25 -> i = -1, alpha = 0.75; yB = 3.375 ->
 * j = 3, beta = 0.375.  Weights: (-1,3) 0.25*0.625 = 0.15625, (0,3) 0.75*0.625 =
 * 0.46875, (-1,4) 0.25*0.375 = 0.09375, (0,4) 0.75*0.375 = 0.28125.
 *   clamp: every texel is T[0,3] = 30                         -> 30
 *   border (colour 100): 100 (0.15625 + 0.09375 + 0.28125) + 30 x 0.46875 = 67.1875
 *   wrap (normalized (0.0625, 0.96875), same texel space): (-1,3) -> T[3,3] = 33,
 *     (0,3) = 30, (-1,4) -> T[3,0] = 3, (0,4) -> T[0,0] = 0:
 *     33 x 0.15625 + 30 x 0.46875 + 3 x 0.09375 = 19.5
 *   mirror (normalized, same): (-1) -> 0 and 4 -> 3, as clamp  -> 30 */
static void test_linear_edges(void **state) {
    fixture *f = *state;
    locsim_array *a = grid_array(f, 4, 4);
    uint64_t h = make_tex(f, a, LOCSIM_ADDRESS_CLAMP, LOCSIM_FILTER_LINEAR, 0);
    assert_true(fetch2(f, h, 0.25f, 3.875f) == 30.0f);
    h = make_tex(f, a, LOCSIM_ADDRESS_BORDER, LOCSIM_FILTER_LINEAR, 0);
    assert_true(fetch2(f, h, 0.25f, 3.875f) == 67.1875f);
    h = make_tex(f, a, LOCSIM_ADDRESS_WRAP, LOCSIM_FILTER_LINEAR, 1);
    assert_true(fetch2(f, h, 0.0625f, 0.96875f) == 19.5f);
    h = make_tex(f, a, LOCSIM_ADDRESS_MIRROR, LOCSIM_FILTER_LINEAR, 1);
    assert_true(fetch2(f, h, 0.0625f, 0.96875f) == 30.0f);
    /* normalized (-0.0625, 0.5): y -> 2.0, yB = 1.5, rows 1 and 2 at 0.5 each (15 + x part)
     *   mirror: floor(-0.0625) = -1 is odd: 1 - 0.9375 = 0.0625 -> 0.25, i = -1 -> 0 and 0:
     *     x part 0                                          -> 15
     *   wrap: 0.9375 -> 3.75, xB = 3.25: T[3] x 0.75 + T[4 -> 0] x 0.25 = 2.25 -> 17.25 */
    assert_true(fetch2(f, h, -0.0625f, 0.5f) == 15.0f);
    h = make_tex(f, a, LOCSIM_ADDRESS_WRAP, LOCSIM_FILTER_LINEAR, 1);
    assert_true(fetch2(f, h, -0.0625f, 0.5f) == 17.25f);
    /* a handle destroyed twice is an error the second time */
    assert_int_equal(locsim_texture_destroy(f->dev, h), LOCSIM_OK);
    assert_int_equal(locsim_texture_destroy(f->dev, h), LOCSIM_ERR_INVALID);
    locsim_array_destroy(f->dev, a);
}

/* Point sampling, normalized (1.3, -0.2) on the 4 x 4 grid:
 *   wrap:   x frac 0.3 -> 1.2 -> 1; y frac 0.8 -> 3.2 -> 3        T[1,3] = 31
 *   mirror: floor(1.3) = 1 odd: 1 - 0.3 = 0.7 -> 2.8 -> 2;
 *           floor(-0.2) = -1 odd: 1 - 0.8 = 0.2 -> 0.8 -> 0       T[2,0] = 2
 *   clamp:  5.2 -> 5 -> 3; -0.8 -> -1 -> 0                         T[3,0] = 3
 *   border: outside                                                100 */
static void test_point_normalized(void **state) {
    fixture *f = *state;
    locsim_array *a = grid_array(f, 4, 4);
    int modes[4] = {LOCSIM_ADDRESS_WRAP, LOCSIM_ADDRESS_MIRROR, LOCSIM_ADDRESS_CLAMP, LOCSIM_ADDRESS_BORDER};
    float want[4] = {31, 2, 3, 100};
    for (int m = 0; m < 4; m++) {
        uint64_t h = make_tex(f, a, modes[m], LOCSIM_FILTER_POINT, 1);
        assert_true(fetch2(f, h, 1.3f, -0.2f) == want[m]);
        locsim_texture_destroy(f->dev, h);
    }
    /* unnormalized point: floor, then clamp; a single-channel fetch returns (T, 0, 0, 1) */
    uint64_t h = make_tex(f, a, LOCSIM_ADDRESS_CLAMP, LOCSIM_FILTER_POINT, 0);
    word in[4] = {{.f = 2.99f}, {.f = 1.0f}, {.u = 0}, {.u = 0}}, out[4];
    assert_int_equal(run(f, "t2f", h, in, out, 1), LOCSIM_OK);
    assert_true(out[0].f == 12.0f && out[1].f == 0.0f && out[2].f == 0.0f && out[3].f == 1.0f);
    /* tex.level samples level 0 (no mipmaps): same as tex.2d */
    in[2].f = 3.0f;
    assert_int_equal(run(f, "t2lod", h, in, out, 1), LOCSIM_OK);
    assert_true(out[0].f == 12.0f);
    locsim_texture_destroy(f->dev, h);
    locsim_array_destroy(f->dev, a);
}

/* tld4.r / tld4.g at (1.3, 2.75): i = 0, j = 2; counter-clockwise from the lower
 * left (i, j+1), (i+1, j+1), (i+1, j), (i, j) = T[0,3], T[1,3], T[1,2], T[0,2]. */
static void test_tld4(void **state) {
    fixture *f = *state;
    locsim_array *a = grid_array(f, 4, 4);
    uint64_t h = make_tex(f, a, LOCSIM_ADDRESS_CLAMP, LOCSIM_FILTER_POINT, 0);
    word in[4] = {{.f = 1.3f}, {.f = 2.75f}, {.u = 0}, {.u = 0}}, out[4];
    assert_int_equal(run(f, "g4r", h, in, out, 1), LOCSIM_OK);
    assert_true(out[0].f == 30 && out[1].f == 31 && out[2].f == 21 && out[3].f == 20);
    /* .g of a one-channel texture: absent channel, 0 */
    assert_int_equal(run(f, "g4g", h, in, out, 1), LOCSIM_OK);
    assert_true(out[0].f == 0 && out[1].f == 0 && out[2].f == 0 && out[3].f == 0);
    locsim_texture_destroy(f->dev, h);
    locsim_array_destroy(f->dev, a);
}

/* Read modes and channel formats. */
static void test_formats(void **state) {
    fixture *f = *state;
    /* u8 x 1, normalized-float reads: {0, 51, 255, 128} -> 51/255 = 0.2 at texel 1;
     * linear at x = 2.0: xB = 1.5 -> 0.5 x 0.2 + 0.5 x 1.0 = 0.6 */
    locsim_channel_format u8 = {8, 0, 0, 0, LOCSIM_CHANNEL_UNSIGNED};
    locsim_array *a;
    assert_int_equal(locsim_array_create(f->dev, &u8, 4, 0, 0, 0, &a), LOCSIM_OK);
    uint8_t v8[4] = {0, 51, 255, 128};
    locsim_copy_side dst = {a, 0, NULL, 0, 0, 0, 0, 0}, src = {NULL, 0, v8, 4, 1, 0, 0, 0};
    assert_int_equal(locsim_memcpy_3d(f->dev, &dst, &src, 4, 1, 1), LOCSIM_OK);
    locsim_resource_desc r = {LOCSIM_RES_ARRAY, a, 0, {0, 0, 0, 0, 0}, 0, 0, 0, 0};
    locsim_texture_desc t = {{1, 1, 1}, LOCSIM_FILTER_LINEAR, LOCSIM_READ_NORMALIZED_FLOAT, 0, {0, 0, 0, 0}};
    uint64_t h;
    assert_int_equal(locsim_texture_create(f->dev, &r, &t, &h), LOCSIM_OK);
    word in[8] = {{.f = 1.5f}, {0}, {0}, {0}, {.f = 2.0f}, {0}, {0}, {0}}, out[8];
    assert_int_equal(run(f, "t1f", h, in, out, 2), LOCSIM_OK);
    assert_true(out[0].f == 51.0f / 255.0f); /* x = 1.5: xB = 1.0, alpha 0: texel 1 alone */
    assert_true(fabsf(out[4].f - 0.6f) < 1e-6f);
    locsim_texture_destroy(f->dev, h);
    /* linear filtering of integers read as integers is refused */
    t.read_mode = LOCSIM_READ_ELEMENT;
    assert_int_equal(locsim_texture_create(f->dev, &r, &t, &h), LOCSIM_ERR_INVALID);
    locsim_array_destroy(f->dev, a);

    /* s8 x 2, normalized: (-128, 127) -> (max(-128/127, -1) = -1, 1); (-64, 0) -> (-64/127, 0) */
    locsim_channel_format s8 = {8, 8, 0, 0, LOCSIM_CHANNEL_SIGNED};
    assert_int_equal(locsim_array_create(f->dev, &s8, 2, 0, 0, 0, &a), LOCSIM_OK);
    int8_t vs[4] = {-128, 127, -64, 0};
    src.host = vs;
    dst.array = a;
    assert_int_equal(locsim_memcpy_3d(f->dev, &dst, &src, 4, 1, 1), LOCSIM_OK);
    r.array = a;
    t.filter_mode = LOCSIM_FILTER_POINT;
    t.read_mode = LOCSIM_READ_NORMALIZED_FLOAT;
    assert_int_equal(locsim_texture_create(f->dev, &r, &t, &h), LOCSIM_OK);
    in[0].f = 0.5f;
    in[4].f = 1.5f;
    assert_int_equal(run(f, "t1f", h, in, out, 2), LOCSIM_OK);
    assert_true(out[0].f == -1.0f && out[1].f == 1.0f && out[2].f == 0.0f && out[3].f == 1.0f);
    assert_true(out[4].f == -64.0f / 127.0f && out[5].f == 0.0f);
    locsim_texture_destroy(f->dev, h);
    /* element-type reads of s8 x 2: sign-extended integers, alpha 1 */
    t.read_mode = LOCSIM_READ_ELEMENT;
    assert_int_equal(locsim_texture_create(f->dev, &r, &t, &h), LOCSIM_OK);
    in[0].i = 0;
    in[4].i = 1;
    assert_int_equal(run(f, "t1i", h, in, out, 2), LOCSIM_OK);
    assert_true(out[0].i == -128 && out[1].i == 127 && out[2].i == 0 && out[3].i == 1);
    assert_true(out[4].i == -64 && out[5].i == 0);
    locsim_texture_destroy(f->dev, h);
    locsim_array_destroy(f->dev, a);

    /* half x 4: 0x3c00 = 1.0, 0xc000 = -2.0, 0x3800 = 0.5, 0x7bff = 65504 */
    locsim_channel_format h16 = {16, 16, 16, 16, LOCSIM_CHANNEL_FLOAT};
    assert_int_equal(locsim_array_create(f->dev, &h16, 1, 1, 0, 0, &a), LOCSIM_OK);
    uint16_t vh[4] = {0x3c00, 0xc000, 0x3800, 0x7bff};
    src.host = vh;
    dst.array = a;
    assert_int_equal(locsim_memcpy_3d(f->dev, &dst, &src, 8, 1, 1), LOCSIM_OK);
    r.array = a;
    assert_int_equal(locsim_texture_create(f->dev, &r, &t, &h), LOCSIM_OK);
    in[0].f = 0.5f;
    in[1].f = 0.5f;
    assert_int_equal(run(f, "t2f", h, in, out, 1), LOCSIM_OK);
    assert_true(out[0].f == 1.0f && out[1].f == -2.0f && out[2].f == 0.5f && out[3].f == 65504.0f);
    /* u8 x 4 element reads give integers (tex.2d.v4.u32) */
    locsim_texture_destroy(f->dev, h);
    locsim_array_destroy(f->dev, a);
    /* 3-channel formats do not exist for arrays */
    locsim_channel_format bad = {32, 32, 32, 0, LOCSIM_CHANNEL_FLOAT};
    assert_int_equal(locsim_array_create(f->dev, &bad, 4, 4, 0, 0, &a), LOCSIM_ERR_INVALID);
}

/* tex1Dfetch on linear memory: integer texel numbers, 0 outside; and a
 * pitch-2D resource. */
static void test_linear_resources(void **state) {
    fixture *f = *state;
    locsim_dptr d;
    int32_t v[8] = {5, -6, 7, -8, 9, -10, 11, -12};
    assert_int_equal(locsim_malloc(f->dev, &d, sizeof v), LOCSIM_OK);
    assert_int_equal(locsim_memcpy_htod(f->dev, d, v, sizeof v), LOCSIM_OK);
    locsim_resource_desc r = {LOCSIM_RES_LINEAR, NULL, d, {32, 32, 0, 0, LOCSIM_CHANNEL_SIGNED}, sizeof v, 0, 0, 0};
    locsim_texture_desc t = {{0, 0, 0}, LOCSIM_FILTER_POINT, LOCSIM_READ_ELEMENT, 0, {0, 0, 0, 0}};
    uint64_t h;
    assert_int_equal(locsim_texture_create(f->dev, &r, &t, &h), LOCSIM_OK);
    /* int2 texels: index 2 -> (9, -10); -1 and 4 are outside -> (0, 0, 0, 0) */
    word in[12] = {{.i = 2}, {0}, {0}, {0}, {.i = -1}, {0}, {0}, {0}, {.i = 4}, {0}, {0}, {0}}, out[12];
    assert_int_equal(run(f, "t1i", h, in, out, 3), LOCSIM_OK);
    assert_true(out[0].i == 9 && out[1].i == -10 && out[2].i == 0 && out[3].i == 1);
    for (int k = 4; k < 12; k++) assert_int_equal(out[k].i, 0);
    locsim_resource_desc back;
    locsim_texture_desc tb;
    assert_int_equal(locsim_texture_get_desc(f->dev, h, &back, &tb), LOCSIM_OK);
    assert_true(back.type == LOCSIM_RES_LINEAR && back.ptr == d && back.size_bytes == sizeof v);
    locsim_texture_destroy(f->dev, h);
    locsim_free(f->dev, d);

    /* pitch 2D: 3 x 2 floats, rows 64 bytes apart; T = 10 y + x; point (2.5, 1.5) -> 12 */
    float rows[32];
    for (int i = 0; i < 32; i++) rows[i] = (float)(i < 16 ? i : 10 + i - 16);
    assert_int_equal(locsim_malloc(f->dev, &d, sizeof rows), LOCSIM_OK);
    assert_int_equal(locsim_memcpy_htod(f->dev, d, rows, sizeof rows), LOCSIM_OK);
    locsim_resource_desc p = {LOCSIM_RES_PITCH2D, NULL, d, F32, 0, 3, 2, 64};
    assert_int_equal(locsim_texture_create(f->dev, &p, &t, &h), LOCSIM_OK);
    assert_true(fetch2(f, h, 2.5f, 1.5f) == 12.0f);
    assert_true(fetch2(f, h, 7.0f, 1.5f) == 12.0f); /* clamp: x 7 -> 2 */
    locsim_texture_destroy(f->dev, h);
    locsim_free(f->dev, d);
}

/* 3-D and layered textures. */
static void test_3d_layered(void **state) {
    fixture *f = *state;
    /* 2 x 2 x 2, T = x + 10 y + 100 z, linear at (1, 1, 1): every axis xB = 0.5 ->
     * the mean of the 8 texels = 0.5 + 5 + 50 = 55.5 */
    locsim_array *a;
    assert_int_equal(locsim_array_create(f->dev, &F32, 2, 2, 2, 0, &a), LOCSIM_OK);
    float v[8];
    for (int i = 0; i < 8; i++) v[i] = (float)((i & 1) + 10 * ((i >> 1) & 1) + 100 * (i >> 2));
    locsim_copy_side dst = {a, 0, NULL, 0, 0, 0, 0, 0}, src = {NULL, 0, v, 8, 2, 0, 0, 0};
    assert_int_equal(locsim_memcpy_3d(f->dev, &dst, &src, 8, 2, 2), LOCSIM_OK);
    uint64_t h = make_tex(f, a, LOCSIM_ADDRESS_CLAMP, LOCSIM_FILTER_LINEAR, 0);
    word in[4] = {{.f = 1}, {.f = 1}, {.f = 1}, {.f = 0}}, out[4];
    assert_int_equal(run(f, "t3f", h, in, out, 1), LOCSIM_OK);
    assert_true(out[0].f == 55.5f);
    locsim_texture_destroy(f->dev, h);
    locsim_array_destroy(f->dev, a);

    /* 2-D layered 2 x 2 x 2 layers, same values: layer 1, point (1.5, 0.5) -> 101;
     * layer 7 is clamped to layer 1 */
    assert_int_equal(locsim_array_create(f->dev, &F32, 2, 2, 2, LOCSIM_ARRAY_LAYERED, &a), LOCSIM_OK);
    dst.array = a;
    assert_int_equal(locsim_memcpy_3d(f->dev, &dst, &src, 8, 2, 2), LOCSIM_OK);
    h = make_tex(f, a, LOCSIM_ADDRESS_CLAMP, LOCSIM_FILTER_POINT, 0);
    word in2[8] = {{.i = 1}, {.f = 1.5f}, {.f = 0.5f}, {.f = 0.5f}, {.i = 7}, {.f = 0.5f}, {.f = 1.5f}, {.f = 0}};
    word out2[8];
    assert_int_equal(run(f, "ta2", h, in2, out2, 2), LOCSIM_OK);
    assert_true(out2[0].f == 101.0f && out2[4].f == 110.0f);
    locsim_texture_destroy(f->dev, h);
    locsim_array_destroy(f->dev, a);
    /* 1-D layered, 2 texels x 3 layers {0,1 | 10,11 | 20,21}: layer 2, x 1.5 -> 21 */
    assert_int_equal(locsim_array_create(f->dev, &F32, 2, 0, 3, LOCSIM_ARRAY_LAYERED, &a), LOCSIM_OK);
    float v1[6] = {0, 1, 10, 11, 20, 21};
    dst.array = a;
    src.host = v1;
    src.height = 1;
    assert_int_equal(locsim_memcpy_3d(f->dev, &dst, &src, 8, 1, 3), LOCSIM_OK);
    h = make_tex(f, a, LOCSIM_ADDRESS_CLAMP, LOCSIM_FILTER_POINT, 0);
    word in3[4] = {{.i = 2}, {.f = 1.5f}, {0}, {0}};
    assert_int_equal(run(f, "ta1", h, in3, out2, 1), LOCSIM_OK);
    assert_true(out2[0].f == 21.0f);
    locsim_texture_destroy(f->dev, h);
    locsim_array_destroy(f->dev, a);
}

/* txq / suq on a 4 x 3 texture: width 4, height 3, depth 1, normalized 1, filter
 * linear 1, address modes wrap 0, mirror 1, border (clamp_to_border) 4. */
static void test_queries(void **state) {
    fixture *f = *state;
    locsim_array *a;
    assert_int_equal(locsim_array_create(f->dev, &F32, 4, 3, 0, LOCSIM_ARRAY_SURFACE, &a), LOCSIM_OK);
    locsim_resource_desc r = {LOCSIM_RES_ARRAY, a, 0, {0, 0, 0, 0, 0}, 0, 0, 0, 0};
    locsim_texture_desc t = {{LOCSIM_ADDRESS_WRAP, LOCSIM_ADDRESS_MIRROR, LOCSIM_ADDRESS_BORDER},
                             LOCSIM_FILTER_LINEAR, LOCSIM_READ_ELEMENT, 1, {0, 0, 0, 0}};
    uint64_t h, s;
    assert_int_equal(locsim_texture_create(f->dev, &r, &t, &h), LOCSIM_OK);
    word in[4] = {{0}, {0}, {0}, {0}}, out[8];
    locsim_kernel *k;
    assert_int_equal(locsim_module_get_kernel(f->mod, "txq", &k), LOCSIM_OK);
    locsim_dptr din, dout;
    assert_int_equal(locsim_malloc(f->dev, &din, 16), LOCSIM_OK);
    assert_int_equal(locsim_malloc(f->dev, &dout, 32), LOCSIM_OK);
    assert_int_equal(locsim_memcpy_htod(f->dev, din, in, 16), LOCSIM_OK);
    void *args[] = {&h, &dout, &din};
    assert_int_equal(locsim_launch(k, (locsim_dim3){1, 1, 1}, (locsim_dim3){1, 1, 1}, 0, args, 3), LOCSIM_OK);
    assert_int_equal(locsim_memcpy_dtoh(f->dev, out, dout, 32), LOCSIM_OK);
    uint32_t want[8] = {4, 3, 1, 1, 1, 0, 1, 4};
    for (int i = 0; i < 8; i++) assert_int_equal(out[i].u, want[i]);
    locsim_free(f->dev, din);
    locsim_free(f->dev, dout);
    assert_int_equal(locsim_surface_create(f->dev, &r, &s), LOCSIM_OK);
    assert_true(s != h);
    assert_int_equal(run(f, "suq", s, in, out, 1), LOCSIM_OK);
    assert_true(out[0].u == 4 && out[1].u == 3 && out[2].u == 1);
    /* a texture handle is not a surface: the kernel faults */
    assert_int_equal(run(f, "suq", h, in, out, 1), LOCSIM_ERR_KERNEL_FAULT);
    assert_non_null(strstr(locsim_last_error(f->dev), "not a live surface object"));
    locsim_surface_destroy(f->dev, s);
    locsim_texture_destroy(f->dev, h);
    locsim_array_destroy(f->dev, a);
}

/* Surfaces: write 4 x 3 ints (100 y + x) with sust, read them back with suld in
 * the three out-of-range modes. */
static void test_surfaces(void **state) {
    fixture *f = *state;
    locsim_channel_format i32 = {32, 0, 0, 0, LOCSIM_CHANNEL_SIGNED};
    locsim_array *a;
    assert_int_equal(locsim_array_create(f->dev, &i32, 4, 3, 0, 0, &a), LOCSIM_OK);
    locsim_resource_desc r = {LOCSIM_RES_ARRAY, a, 0, {0, 0, 0, 0, 0}, 0, 0, 0, 0};
    uint64_t s;
    /* without cudaArraySurfaceLoadStore there is no surface */
    assert_int_equal(locsim_surface_create(f->dev, &r, &s), LOCSIM_ERR_INVALID);
    locsim_array_destroy(f->dev, a);
    assert_int_equal(locsim_array_create(f->dev, &i32, 4, 3, 0, LOCSIM_ARRAY_SURFACE, &a), LOCSIM_OK);
    r.array = a;
    assert_int_equal(locsim_surface_create(f->dev, &r, &s), LOCSIM_OK);
    word in[48], out[48];
    for (int t = 0; t < 12; t++) {
        in[4 * t].i = 4 * (t % 4); /* x in bytes */
        in[4 * t + 1].i = t / 4;
        in[4 * t + 2].i = 100 * (t / 4) + t % 4;
        in[4 * t + 3].i = 0;
    }
    assert_int_equal(run(f, "sst", s, in, out, 12), LOCSIM_OK);
    int32_t back[12];
    locsim_copy_side dst = {NULL, 0, back, 16, 3, 0, 0, 0}, src = {a, 0, NULL, 0, 0, 0, 0, 0};
    assert_int_equal(locsim_memcpy_3d(f->dev, &dst, &src, 16, 3, 1), LOCSIM_OK);
    for (int t = 0; t < 12; t++) assert_int_equal(back[t], 100 * (t / 4) + t % 4);
    /* reads: (8, 1) -> 102; (100, -3) clamps to (12, 0) -> 3 or reads 0 with .zero */
    word q[8] = {{.i = 8}, {.i = 1}, {0}, {0}, {.i = 100}, {.i = -3}, {0}, {0}};
    assert_int_equal(run(f, "sldc", s, q, out, 2), LOCSIM_OK);
    assert_true(out[0].i == 102 && out[4].i == 3);
    assert_int_equal(run(f, "sldz", s, q, out, 2), LOCSIM_OK);
    assert_true(out[0].i == 102 && out[4].i == 0);
    assert_int_equal(run(f, "sldt", s, q, out, 1), LOCSIM_OK);
    assert_int_equal(out[0].i, 102);
    assert_int_equal(run(f, "sldt", s, q, out, 2), LOCSIM_ERR_KERNEL_FAULT);
    assert_non_null(strstr(locsim_last_error(f->dev), "out of bounds"));
    q[0].i = 2; /* not a multiple of the 4-byte access */
    assert_int_equal(run(f, "sldc", s, q, out, 1), LOCSIM_ERR_KERNEL_FAULT);
    assert_non_null(strstr(locsim_last_error(f->dev), "misaligned"));
    locsim_surface_destroy(f->dev, s);
    locsim_array_destroy(f->dev, a);

    /* uchar4 1-D surface of 2 texels: sust.v4.b8 then suld.v4.b8; a write at byte
     * 8 (outside) is dropped by .zero */
    locsim_channel_format u8x4 = {8, 8, 8, 8, LOCSIM_CHANNEL_UNSIGNED};
    assert_int_equal(locsim_array_create(f->dev, &u8x4, 2, 0, 0, LOCSIM_ARRAY_SURFACE, &a), LOCSIM_OK);
    r.array = a;
    assert_int_equal(locsim_surface_create(f->dev, &r, &s), LOCSIM_OK);
    word w[12] = {{.i = 4}, {.u = 0x04030201}, {0}, {0}, {.i = 0}, {.u = 0xf0e0d0c0}, {0}, {0},
                  {.i = 8}, {.u = 0x55555555}, {0}, {0}};
    assert_int_equal(run(f, "sst8", s, w, out, 3), LOCSIM_OK);
    word rd[8] = {{.i = 0}, {0}, {0}, {0}, {.i = 4}, {0}, {0}, {0}};
    assert_int_equal(run(f, "sld8", s, rd, out, 2), LOCSIM_OK);
    assert_true(out[0].u == 0xc0 && out[1].u == 0xd0 && out[2].u == 0xe0 && out[3].u == 0xf0);
    assert_true(out[4].u == 1 && out[5].u == 2 && out[6].u == 3 && out[7].u == 4);
    locsim_surface_destroy(f->dev, s);
    locsim_array_destroy(f->dev, a);
}

/* Bad handles and copies. */
static void test_errors(void **state) {
    fixture *f = *state;
    word in[4] = {{0}, {0}, {0}, {0}}, out[4];
    assert_int_equal(run(f, "t2f", 0, in, out, 1), LOCSIM_ERR_KERNEL_FAULT);
    assert_non_null(strstr(locsim_last_error(f->dev), "Invalid texture object handle 0"));
    assert_int_equal(run(f, "t2f", 999, in, out, 1), LOCSIM_ERR_KERNEL_FAULT);
    locsim_array *a = grid_array(f, 4, 4);
    float host[16];
    locsim_copy_side dst = {NULL, 0, host, 16, 4, 0, 0, 0}, src = {a, 0, NULL, 0, 0, 4, 0, 0};
    /* 16 bytes from byte 4 of a 16-byte row do not fit */
    assert_int_equal(locsim_memcpy_3d(f->dev, &dst, &src, 16, 4, 1), LOCSIM_ERR_INVALID);
    src.x = 0;
    assert_int_equal(locsim_memcpy_3d(f->dev, &dst, &src, 16, 4, 1), LOCSIM_OK);
    assert_true(host[5] == 11.0f);
    assert_int_equal(locsim_array_destroy(f->dev, a), LOCSIM_OK);
    assert_int_equal(locsim_array_destroy(f->dev, a), LOCSIM_ERR_INVALID);
}

/* Timing model: the texture cache.  One warp reads texels 0..31 of a 32-float
 * 1-D texture (128 bytes, one 128-byte L1T line: GPGPU-Sim sends one request per
 * distinct line), then, after using the result, the same texels again.  The first
 * fetch misses, the second hits; the L1T is not invalidated between kernels
 * (GPGPU-Sim flushes only the L1D), so a second launch hits twice. */
static const char *twice_ptx = HEADER
    ".visible .entry twice(.param .u64 h, .param .u64 out)\n{\n"
    " .reg .b32 %r<4>; .reg .f32 %f<12>; .reg .b64 %rd<6>;\n"
    " ld.param.u64 %rd1, [h];\n ld.param.u64 %rd2, [out];\n mov.u32 %r1, %tid.x;\n"
    " cvt.rn.f32.u32 %f1, %r1;\n add.f32 %f1, %f1, 0f3F000000;\n"
    " tex.1d.v4.f32.f32 {%f2, %f3, %f4, %f5}, [%rd1, {%f1}];\n"
    " mul.f32 %f6, %f2, 0f00000000;\n add.f32 %f6, %f6, %f1;\n"
    " tex.1d.v4.f32.f32 {%f7, %f8, %f9, %f10}, [%rd1, {%f6}];\n"
    " add.f32 %f11, %f2, %f7;\n mul.wide.u32 %rd3, %r1, 4;\n add.s64 %rd4, %rd2, %rd3;\n"
    " st.global.f32 [%rd4], %f11;\n ret;\n}\n";

static void test_texture_cache_timing(void **state) {
    (void)state;
    tdev t;
    tdev_open(&t, "fermi_gtx480", NULL);
    locsim_array *a;
    assert_int_equal(locsim_array_create(t.dev, &F32, 32, 0, 0, 0, &a), LOCSIM_OK);
    float v[32];
    for (int i = 0; i < 32; i++) v[i] = 3.0f * (float)i;
    locsim_copy_side dst = {a, 0, NULL, 0, 0, 0, 0, 0}, src = {NULL, 0, v, 128, 1, 0, 0, 0};
    assert_int_equal(locsim_memcpy_3d(t.dev, &dst, &src, 128, 1, 1), LOCSIM_OK);
    locsim_resource_desc r = {LOCSIM_RES_ARRAY, a, 0, {0, 0, 0, 0, 0}, 0, 0, 0, 0};
    locsim_texture_desc td = {{1, 1, 1}, LOCSIM_FILTER_POINT, LOCSIM_READ_ELEMENT, 0, {0, 0, 0, 0}};
    uint64_t h;
    assert_int_equal(locsim_texture_create(t.dev, &r, &td, &h), LOCSIM_OK);
    locsim_dptr dout = tdev_alloc(&t, NULL, 128);
    void *args[] = {&h, &dout};
    locsim_kernel *k = tdev_kernel(&t, twice_ptx, "twice");
    tdev_launch(&t, k, 1, 32, args, 2);
    float out[32];
    assert_int_equal(locsim_memcpy_dtoh(t.dev, out, dout, sizeof out), LOCSIM_OK);
    for (int l = 0; l < 32; l++) assert_true(out[l] == 6.0f * (float)l);
    assert_int_equal((int)tdev_stat(&t, "tex_warp_accesses", 0), 2);
    assert_int_equal((int)tdev_stat(&t, "L1T_cache_stats_breakdown[TEXTURE_ACC_R][MISS]", 0), 1);
    assert_int_equal((int)tdev_stat(&t, "L1T_cache_stats_breakdown[TEXTURE_ACC_R][HIT]", 0), 1);
    assert_int_equal((int)tdev_stat(&t, "L1T_cache_stats_breakdown[TEXTURE_ACC_R][HIT_RESERVED]", 0), 0);
    /* the miss went to the L2 as texture reads of one 128-byte line: 1 access in a
     * line-based L2, 4 in a sectored one (32-byte sectors; hits there, since the
     * array copy went through the L2: -gpgpu_perf_sim_memcpy); the L1D saw no texel */
    int l2 = (int)(tdev_stat(&t, "L2_cache_stats_breakdown[TEXTURE_ACC_R][MISS]", 0) +
                   tdev_stat(&t, "L2_cache_stats_breakdown[TEXTURE_ACC_R][HIT]", 0) +
                   tdev_stat(&t, "L2_cache_stats_breakdown[TEXTURE_ACC_R][HIT_RESERVED]", 0));
    assert_true(l2 == 1 || l2 == 4);
    assert_int_equal((int)tdev_stat(&t, "L1D_cache_stats_breakdown[GLOBAL_ACC_R][MISS]", 0), 0);
    tdev_launch(&t, k, 1, 32, args, 2);
    assert_int_equal((int)tdev_stat(&t, "L1T_cache_stats_breakdown[TEXTURE_ACC_R][MISS]", 0), 0);
    assert_int_equal((int)tdev_stat(&t, "L1T_cache_stats_breakdown[TEXTURE_ACC_R][HIT]", 0), 2);
    assert_int_equal((int)tdev_stat(&t, "L1T_total_cache_accesses", 1), 4);
    tdev_close(&t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_linear_inside),    cmocka_unit_test(test_linear_edges),
        cmocka_unit_test(test_point_normalized), cmocka_unit_test(test_tld4),
        cmocka_unit_test(test_formats),          cmocka_unit_test(test_linear_resources),
        cmocka_unit_test(test_3d_layered),       cmocka_unit_test(test_queries),
        cmocka_unit_test(test_surfaces),         cmocka_unit_test(test_errors),
        cmocka_unit_test(test_texture_cache_timing),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
