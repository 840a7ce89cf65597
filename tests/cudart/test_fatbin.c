/* The fatbinary reader of the libcudart replacement, on fatbins built by hand in the
 * layout nvcc 13 uses (shared/notes/ptx-nvcc13.md). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <zstd.h>

#include "cubin.h"
#include "fatbin.h"

/* ---- building fatbins ---- */
typedef struct {
    uint16_t kind;
    uint32_t sm;
    uint32_t flags;
    const void *payload;
    size_t size;
    uint64_t uncompressed;
} spec;

static uint8_t buf[1 << 16];

static void put16(uint8_t *p, uint16_t v) { memcpy(p, &v, 2); }
static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

/* Lay out a fatbin of n entries in buf; returns its total size. */
static size_t build(const spec *s, int n) {
    memset(buf, 0, sizeof buf);
    size_t pos = 16;
    for (int i = 0; i < n; i++) {
        uint32_t hdr = s[i].kind == FATBIN_KIND_PTX ? 0x50 : 0x40;
        size_t padded = (s[i].size + 7) & ~(size_t)7;
        uint8_t *e = buf + pos;
        put16(e, s[i].kind);
        put16(e + 2, 0x0101);
        put32(e + 4, hdr);
        put64(e + 8, padded);
        put32(e + 0x10, (uint32_t)s[i].size);
        put16(e + 0x18, s[i].kind == FATBIN_KIND_PTX ? 0 : 8);   /* minor */
        put16(e + 0x1a, s[i].kind == FATBIN_KIND_PTX ? 9 : 1);   /* major */
        put32(e + 0x1c, s[i].sm);
        put32(e + 0x28, s[i].flags);
        put64(e + 0x38, s[i].uncompressed);
        memcpy(e + hdr, s[i].payload, s[i].size);
        pos += hdr + padded;
    }
    put32(buf, FATBIN_MAGIC);
    put16(buf + 4, 1);
    put16(buf + 6, 16);
    put64(buf + 8, pos - 16);
    return pos;
}

static const char ptx75[] = "\n.version 9.0\n.target sm_75\n.address_size 64\n";
static const char ptx80[] = "\n.version 9.0\n.target sm_80\n.address_size 64\n";
static const uint8_t cubin[] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0x33};

static void plain_ptx_entry_is_read_back_exactly(void **state) {
    (void)state;
    spec s = {FATBIN_KIND_PTX, 75, 0x11, ptx75, sizeof ptx75 - 1, 0};
    size_t size = build(&s, 1);
    fatbin_info fb;
    char err[256];
    assert_int_equal(fatbin_parse(buf, size, &fb, err, sizeof err), 0);
    assert_int_equal(fb.count, 1);
    assert_int_equal(fb.total_size, size);
    assert_int_equal(fb.entries[0].kind, FATBIN_KIND_PTX);
    assert_int_equal(fb.entries[0].sm, 75);
    assert_int_equal(fb.entries[0].ver_major, 9);
    assert_int_equal(fb.entries[0].ver_minor, 0);
    assert_int_equal(fatbin_pick_ptx(&fb), 0);
    size_t len;
    char *text = fatbin_ptx_text(&fb.entries[0], &len, err, sizeof err);
    assert_non_null(text);
    /* the payload is padded to 8 bytes with NULs: they are not part of the text */
    assert_int_equal(len, sizeof ptx75 - 1);
    assert_string_equal(text, ptx75);
    free(text);
}

static void zstd_entry_is_decompressed(void **state) {
    (void)state;
    uint8_t frame[512];
    size_t n = ZSTD_compress(frame, sizeof frame, ptx80, sizeof ptx80 - 1, 3);
    assert_false(ZSTD_isError(n));
    spec s = {FATBIN_KIND_PTX, 80, 0x8011, frame, n, sizeof ptx80 - 1};
    size_t size = build(&s, 1);
    fatbin_info fb;
    char err[256];
    assert_int_equal(fatbin_parse(buf, size, &fb, err, sizeof err), 0);
    size_t len;
    char *text = fatbin_ptx_text(&fb.entries[0], &len, err, sizeof err);
    assert_non_null(text);
    assert_int_equal(len, sizeof ptx80 - 1);
    assert_string_equal(text, ptx80);
    free(text);
}

static void corrupt_zstd_payload_is_an_error(void **state) {
    (void)state;
    const uint8_t junk[16] = {0x28, 0xb5, 0x2f, 0xfd, 0xff, 0xff, 0xff, 0xff, 1, 2, 3, 4, 5, 6, 7, 8};
    spec s = {FATBIN_KIND_PTX, 75, 0x8011, junk, sizeof junk, 100};
    size_t size = build(&s, 1);
    fatbin_info fb;
    char err[256] = "";
    assert_int_equal(fatbin_parse(buf, size, &fb, err, sizeof err), 0);
    size_t len;
    assert_null(fatbin_ptx_text(&fb.entries[0], &len, err, sizeof err));
    assert_non_null(strstr(err, "zstd"));
}

static void cubin_only_fatbin_has_no_ptx(void **state) {
    (void)state;
    spec s = {FATBIN_KIND_CUBIN, 75, 0x11, cubin, sizeof cubin, 0};
    size_t size = build(&s, 1);
    fatbin_info fb;
    char err[256];
    assert_int_equal(fatbin_parse(buf, size, &fb, err, sizeof err), 0);
    assert_int_equal(fatbin_pick_ptx(&fb), -1);
    assert_int_equal(fatbin_count_kind(&fb, FATBIN_KIND_CUBIN), 1);
    assert_int_equal(fatbin_count_kind(&fb, FATBIN_KIND_PTX), 0);
}

static void lowest_ptx_target_is_picked(void **state) {
    (void)state;
    spec s[3] = {
        {FATBIN_KIND_CUBIN, 75, 0x11, cubin, sizeof cubin, 0},
        {FATBIN_KIND_PTX, 80, 0x11, ptx80, sizeof ptx80 - 1, 0},
        {FATBIN_KIND_PTX, 75, 0x11, ptx75, sizeof ptx75 - 1, 0},
    };
    size_t size = build(s, 3);
    fatbin_info fb;
    char err[256];
    assert_int_equal(fatbin_parse(buf, size, &fb, err, sizeof err), 0);
    assert_int_equal(fb.count, 3);
    assert_int_equal(fatbin_pick_ptx(&fb), 2);
}

static void bad_magic_is_named(void **state) {
    (void)state;
    spec s = {FATBIN_KIND_PTX, 75, 0x11, ptx75, sizeof ptx75 - 1, 0};
    size_t size = build(&s, 1);
    buf[0] ^= 0xff;
    fatbin_info fb;
    char err[256] = "";
    assert_int_equal(fatbin_parse(buf, size, &fb, err, sizeof err), -1);
    assert_non_null(strstr(err, "magic"));
}

static void truncated_fatbin_is_an_error(void **state) {
    (void)state;
    spec s = {FATBIN_KIND_PTX, 75, 0x11, ptx75, sizeof ptx75 - 1, 0};
    size_t size = build(&s, 1);
    fatbin_info fb;
    char err[256] = "";
    /* the header promises more bytes than we say are readable */
    assert_int_equal(fatbin_parse(buf, size - 8, &fb, err, sizeof err), -1);
    assert_non_null(strstr(err, "available"));
    /* an entry whose payload runs past the fatbin's end */
    put64(buf + 16 + 8, 0x10000);
    assert_int_equal(fatbin_parse(buf, size, &fb, err, sizeof err), -1);
    assert_non_null(strstr(err, "overruns"));
    /* fewer bytes than a header */
    assert_int_equal(fatbin_parse(buf, 10, &fb, err, sizeof err), -1);
    assert_non_null(strstr(err, "truncated"));
}

static void wrapper_points_at_its_fatbin(void **state) {
    (void)state;
    uint8_t wrapper[24] = {0};
    put32(wrapper, FATBIN_WRAPPER_MAGIC);
    put32(wrapper + 4, 1);
    put64(wrapper + 8, (uint64_t)(uintptr_t)buf);
    char err[256] = "";
    unsigned version = 0;
    assert_ptr_equal(fatbin_from_wrapper(wrapper, &version, err, sizeof err), buf);
    assert_int_equal(version, 1);
    put32(wrapper + 4, 2);
    assert_ptr_equal(fatbin_from_wrapper(wrapper, &version, err, sizeof err), buf);
    assert_int_equal(version, 2);
    put32(wrapper, 0x12345678);
    assert_null(fatbin_from_wrapper(wrapper, &version, err, sizeof err));
    assert_non_null(strstr(err, "magic"));
    put32(wrapper, FATBIN_WRAPPER_MAGIC);
    put32(wrapper + 4, 7);
    assert_null(fatbin_from_wrapper(wrapper, &version, err, sizeof err));
    assert_non_null(strstr(err, "version 7"));
}

/* ---- register counts from a real cubin (tests/cudart/data/regs_sm75.*) ---- */
static uint8_t cubin_file[1 << 15];

static size_t read_fixture(void) {
    FILE *f = fopen(REGS_CUBIN_PATH, "rb");
    assert_non_null(f);
    size_t n = fread(cubin_file, 1, sizeof cubin_file, f);
    fclose(f);
    assert_true(n > 64 && n < sizeof cubin_file);
    return n;
}

typedef struct {
    uint32_t big, small;
    int functions;
} regs_seen;

static int note_regs(void *ctx, const char *name, size_t len, uint32_t regs) {
    regs_seen *seen = ctx;
    seen->functions++;
    if (len == 3 && memcmp(name, "big", 3) == 0) seen->big = regs;
    if (len == 5 && memcmp(name, "small", 5) == 0) seen->small = regs;
    return 0;
}

/* ptxas -v said 64 registers for big and 8 for small (data/regs_sm75.ptxas). */
static void cubin_register_counts_match_ptxas(void **state) {
    (void)state;
    size_t n = read_fixture();
    regs_seen seen = {0, 0, 0};
    assert_int_equal(cubin_function_regs(cubin_file, n, note_regs, &seen), 0);
    assert_int_equal(seen.functions, 2);
    assert_int_equal(seen.big, 64);
    assert_int_equal(seen.small, 8);
}

/* The same cubin as a compressed fatbin entry beside compute_75 PTX, as nvcc -arch=sm_75
 * embeds it: found by its target, decompressed byte for byte. */
static void compressed_cubin_entry_is_found_and_read(void **state) {
    (void)state;
    size_t n = read_fixture();
    static uint8_t packed[1 << 15];
    size_t packed_len = ZSTD_compress(packed, sizeof packed, cubin_file, n, 3);
    assert_false(ZSTD_isError(packed_len));
    const char ptx[] = ".version 9.0\n.target sm_75\n";
    spec s[] = {
        { FATBIN_KIND_CUBIN, 75, 0x8011, packed, packed_len, n },
        { FATBIN_KIND_PTX, 75, 0x11, ptx, sizeof ptx - 1, 0 },
    };
    size_t total = build(s, 2);
    fatbin_info info;
    char err[256];
    assert_int_equal(fatbin_parse(buf, total, &info, err, sizeof err), 0);
    assert_int_equal(fatbin_find_cubin(&info, 80), -1);
    int i = fatbin_find_cubin(&info, 75);
    assert_int_equal(i, 0);
    size_t len = 0;
    uint8_t *img = fatbin_cubin_image(&info.entries[i], &len, err, sizeof err);
    assert_non_null(img);
    assert_int_equal(len, n);
    assert_memory_equal(img, cubin_file, n);
    regs_seen seen = {0, 0, 0};
    assert_int_equal(cubin_function_regs(img, len, note_regs, &seen), 0);
    assert_int_equal(seen.big, 64);
    free(img);
    assert_null(fatbin_cubin_image(&info.entries[1], &len, err, sizeof err));
    assert_non_null(strstr(err, "not a cubin"));
}

/* A cut or corrupted ELF is refused, never read past its end. */
static void malformed_cubin_is_refused(void **state) {
    (void)state;
    size_t n = read_fixture();
    regs_seen seen = {0, 0, 0};
    assert_int_equal(cubin_function_regs(cubin_file, 40, note_regs, &seen), -1);      /* cut inside the header */
    uint64_t shoff;                                                                     /* e_shoff: the section table */
    memcpy(&shoff, cubin_file + 0x28, sizeof shoff);
    assert_true(shoff + 100 < n);
    assert_int_equal(cubin_function_regs(cubin_file, shoff + 100, note_regs, &seen), -1);  /* table cut short */
    cubin_file[0] = 0;                                                                 /* not ELF */
    assert_int_equal(cubin_function_regs(cubin_file, n, note_regs, &seen), -1);
    assert_int_equal(seen.functions, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(plain_ptx_entry_is_read_back_exactly),
        cmocka_unit_test(zstd_entry_is_decompressed),
        cmocka_unit_test(corrupt_zstd_payload_is_an_error),
        cmocka_unit_test(cubin_only_fatbin_has_no_ptx),
        cmocka_unit_test(lowest_ptx_target_is_picked),
        cmocka_unit_test(bad_magic_is_named),
        cmocka_unit_test(truncated_fatbin_is_an_error),
        cmocka_unit_test(wrapper_points_at_its_fatbin),
        cmocka_unit_test(cubin_register_counts_match_ptxas),
        cmocka_unit_test(compressed_cubin_entry_is_found_and_read),
        cmocka_unit_test(malformed_cubin_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
