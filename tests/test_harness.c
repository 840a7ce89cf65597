/* The evaluation harness: SHA-256 against FIPS 180-4's examples, sweep specs
 * (good ones expand to the right runs; bad ones are rejected with file:line and
 * what was expected, before anything runs), the results database, and runs'
 * points and keys (points.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness/db.h"
#include "harness/points.h"
#include "harness/sha256.h"
#include "harness/spec.h"
#include "harness/sweep.h"

static void hash_str(const char *s, char out[65]) {
    sha256_ctx c;
    sha256_init(&c);
    sha256_update(&c, s, strlen(s));
    sha256_hex(&c, out);
}

/* The digests are FIPS 180-4's worked examples (and the empty message's well-known digest). */
static void test_sha256(void **state) {
    (void)state;
    char h[65];
    hash_str("abc", h);
    assert_string_equal(h, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    hash_str("", h);
    assert_string_equal(h, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    hash_str("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", h);
    assert_string_equal(h, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    /* the same message fed in pieces */
    sha256_ctx c;
    sha256_init(&c);
    const char *m = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    for (const char *p = m; *p; p++) sha256_update(&c, p, 1);
    sha256_hex(&c, h);
    assert_string_equal(h, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

static char spec_path[64];

static spec *load_text(const char *text, char *err, size_t errlen) {
    snprintf(spec_path, sizeof spec_path, "/tmp/locsim-test-spec-%d.yaml", (int)getpid());
    FILE *f = fopen(spec_path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    spec *s = spec_load(spec_path, err, errlen);
    unlink(spec_path);
    return s;
}

static const char GOOD[] =
    "configs: [ccws_gtx285]\n"
    "seeds: [1, 2]\n"
    "classes: {HCS: highly, CI: insensitive}\n"
    "workloads:\n"
    "  - {name: kmeans, size: [1, 2], class: HCS}\n"
    "  - {name: backprop, size: default, class: CI, seeds: [7]}\n"
    "variants:\n"
    "  gto: {label: GTO, options: {-gpgpu_scheduler: gto}}\n"
    "grids:\n"
    "  swl: {values: [32, 4, 2], options: {-gpgpu_scheduler: \"warp_limiting:gto:{}\"}, same: {32: gto}}\n"
    "  vta: {values: [4, 16], options: {-gpgpu_scheduler: ccws, -ccws_vta_entries: \"{}\"},\n"
    "        options_for: {4: {-ccws_vta_assoc: 4}}}\n"
    "exclude:\n"
    "  - {class: CI, variant: [swl, vta]}\n"
    "  - {workload: kmeans, variant: vta}\n"
    "  - {workload: kmeans, size: 2, variant: swl_2}\n";

static void test_spec_good(void **state) {
    (void)state;
    char err[1024] = "";
    spec *s = load_text(GOOD, err, sizeof err);
    if (!s) print_error("%s\n", err);
    assert_non_null(s);
    assert_int_equal(s->nworkloads, 2);
    assert_int_equal(s->nvariants, 6);   /* gto, swl_32, swl_4, swl_2, vta_4, vta_16 */
    /* options_for adds its options after the grid's: vta_4 = ccws, 4 entries, 4-way; vta_16 keeps the default */
    const spec_variant *v4 = spec_find_variant(s, "vta_4"), *v16 = spec_find_variant(s, "vta_16");
    assert_int_equal(v4->nopts, 3);
    assert_string_equal(v4->opts[1].value, "4");
    assert_string_equal(v4->opts[2].name, "-ccws_vta_assoc");
    assert_string_equal(v4->opts[2].value, "4");
    assert_int_equal(v16->nopts, 2);
    const spec_variant *v = spec_find_variant(s, "swl_4");
    assert_non_null(v);
    assert_string_equal(v->opts[0].value, "warp_limiting:gto:4");
    assert_string_equal(spec_find_variant(s, "swl_32")->opts[0].value, "gto");  /* same: {32: gto} */
    assert_int_equal(s->workloads[1].sizes[0], 128);   /* backprop's default size */
    sweep_plan p;
    assert_int_equal(sweep_make_plan(s, &p, err, sizeof err), 0);
    /* kmeans: 2 sizes x 2 seeds x 4 variants, minus swl_2 at size 2 (2 seeds) = 14;
     * backprop: 1 size x 1 seed x gto only (swl excluded for CI) = 1 */
    assert_int_equal(p.nruns, 15);
    /* swl_32 has gto's options: the same key, so one run */
    const planned_run *a = sweep_find(&p, &s->workloads[0], 1, 1, &s->configs[0], spec_find_variant(s, "gto"));
    const planned_run *b = sweep_find(&p, &s->workloads[0], 1, 1, &s->configs[0], spec_find_variant(s, "swl_32"));
    const planned_run *c = sweep_find(&p, &s->workloads[0], 1, 2, &s->configs[0], spec_find_variant(s, "gto"));
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(c);
    assert_string_equal(a->key, b->key);
    assert_string_not_equal(a->key, c->key);  /* another seed */
    assert_null(sweep_find(&p, &s->workloads[1], 128, 7, &s->configs[0], spec_find_variant(s, "swl_4")));
    sweep_free_plan(&p);
    spec_free(s);
}

/* Each bad spec and the words its error must hold (file:line first). */
static void expect_error(const char *text, int line, const char *words) {
    char err[1024] = "", want[128];
    spec *s = load_text(text, err, sizeof err);
    if (s) print_error("accepted: %s\n", text);
    assert_null(s);
    snprintf(want, sizeof want, "%s:%d:", spec_path, line);
    if (!strstr(err, want) || !strstr(err, words)) print_error("error '%s' lacks '%s' or '%s'\n", err, want, words);
    assert_non_null(strstr(err, want));
    assert_non_null(strstr(err, words));
}

static void test_spec_bad(void **state) {
    (void)state;
    expect_error("configs: [ccws_gtx285]\nworkload: []\n", 2, "unknown key 'workload' in the spec");
    expect_error("configs: [ccws_gtx285]\nworkloads:\n  - {name: nosuch}\n", 3, "unknown workload 'nosuch'");
    expect_error("configs: [nosuchcfg]\nworkloads: [{name: bfs}]\n", 1, "unknown config 'nosuchcfg'");
    /* a size the workload's run would refuse is refused here, before any run */
    expect_error("configs: [ccws_gtx285]\nworkloads:\n  - {name: pathfinder, size: [512, 532]}\n", 3,
                 "size: pathfinder takes at most 512, got 532");
    expect_error("configs: [ccws_gtx285]\nworkloads: [{name: bfs}]\nvariants:\n  x: {options: {-no_such_option: 1}}\n",
                 4, "no_such_option");
    expect_error("configs: [ccws_gtx285]\nworkloads: [{name: bfs}]\nvariants:\n  x: {options: {-gpgpu_scheduler: nope}}\n",
                 4, "nope");
    expect_error("configs: [ccws_gtx285]\nworkloads: [{name: bfs, size: -3}]\n", 2, "size: expected an unsigned integer");
    expect_error("configs: [ccws_gtx285]\nworkloads: [{name: bfs, colour: red}]\n", 2, "unknown key 'colour' in a workload");
    expect_error("configs: [ccws_gtx285]\nworkloads: [{name: bfs}]\nexclude:\n  - {variant: nosuch}\n", 4,
                 "no variant or grid matches 'nosuch'");
    expect_error("configs: [ccws_gtx285]\nworkloads: [{name: bfs}, {name: bfs}]\n", 2, "used twice");
    expect_error("configs: [ccws_gtx285]\nworkloads: [{name: bfs}\n", 3, "YAML");
    expect_error("configs: [ccws_gtx285]\nworkloads: [{name: bfs, class: X}]\nclasses: {Y: why}\n", 2,
                 "class 'X' is not under classes:");
    expect_error("configs: [ccws_gtx285]\nworkloads: [{exec: [/bin/true]}]\n", 2, "needs an id:");
    expect_error("configs: [ccws_gtx285]\nworkloads: [{name: bfs}]\ngrids:\n  g: {values: [1, 2], options: {-ccws_k_throttle: \"{}\"},\n"
                 "      same: {2: nosuch}}\n", 5, "grid g: same: 2: no variant 'nosuch'");
    expect_error("configs: [ccws_gtx285]\nworkloads: [{name: bfs}]\ngrids:\n  g: {values: [1, 2], options: {-ccws_k_throttle: \"{}\"},\n"
                 "      same: {3: g_1}}\n", 5, "grid g: same: '3' is not one of its values");
    expect_error("configs: [ccws_gtx285]\nworkloads: [{name: bfs}]\nvariants:\n  x: {options: {-gpgpu_scheduler: \"warp_limiting:gto:0\"}}\n",
                 4, "scheduler warp_limiting expects");
    /* a key given twice is refused, wherever the mapping is (libyaml keeps both) */
    expect_error("configs: [ccws_gtx285]\nworkloads: [{name: bfs}]\nconfigs: [fermi_gtx480]\n", 3,
                 "duplicate key 'configs' (first given on line 1)");
    expect_error("configs: [ccws_gtx285]\nworkloads: [{name: bfs}]\nvariants:\n  x: {options: {-gpgpu_scheduler: gto,\n"
                 "     -gpgpu_scheduler: lrr}}\n", 5, "duplicate key '-gpgpu_scheduler'");
}

/* A spec nested far deeper than any real one is refused after a linear pass
 * (libyaml's scanner alone takes time quadratic in the depth: a 200 KB spec
 * nested 100 000 deep took over a minute). */
static void test_spec_deep(void **state) {
    (void)state;
    enum { DEPTH = 100000 };
    char *text = malloc(2 * DEPTH + 64);
    assert_non_null(text);
    size_t n = (size_t)sprintf(text, "configs: ");
    for (int i = 0; i < DEPTH; i++) text[n++] = '[';
    for (int i = 0; i < DEPTH; i++) text[n++] = ']';
    text[n++] = '\n';
    text[n] = 0;
    char err[1024] = "";
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    spec *s = load_text(text, err, sizeof err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    free(text);
    assert_null(s);
    if (!strstr(err, "more than 64 levels deep")) print_error("error '%s'\n", err);
    assert_non_null(strstr(err, ":1: the spec nests lists and mappings more than 64 levels deep"));
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
    if (secs > 5) print_error("took %.1f s\n", secs);
    assert_true(secs <= 5);
    /* 64 levels are fine as YAML (the spec's own checks then say what is wrong) */
    char ok[256];
    n = (size_t)sprintf(ok, "configs: ");
    for (int i = 0; i < 63; i++) ok[n++] = '[';
    for (int i = 0; i < 63; i++) ok[n++] = ']';
    ok[n] = 0;
    s = load_text(ok, err, sizeof err);
    assert_null(s);
    assert_null(strstr(err, "levels deep"));
}

/* A database that is not ours, from another schema version, or corrupt is refused and left as it was. */
static void test_db_refuses(void **state) {
    (void)state;
    char path[64], err[512];
    snprintf(path, sizeof path, "/tmp/locsim-test-db-%d.db", (int)getpid());
    results_db d;
    FILE *f = fopen(path, "w");
    fputs("not a database, but a text file that must survive\n", f);
    fclose(f);
    assert_int_equal(db_open(&d, path, 1, 0, err, sizeof err), -1);
    assert_non_null(strstr(err, "not a readable SQLite database"));
    f = fopen(path, "r");
    char line[128];
    assert_non_null(fgets(line, sizeof line, f));
    fclose(f);
    assert_string_equal(line, "not a database, but a text file that must survive\n");
    unlink(path);

    /* a fresh database, then its schema version changed behind our back */
    assert_int_equal(db_open(&d, path, 1, 0, err, sizeof err), 0);
    assert_int_equal(sqlite3_exec(d.db, "UPDATE meta SET value = '99' WHERE key = 'schema_version'", 0, 0, 0), 0);
    db_close(&d);
    assert_int_equal(db_open(&d, path, 1, 0, err, sizeof err), -1);
    assert_non_null(strstr(err, "schema version 99"));
    /* absent and not to be created */
    unlink(path);
    assert_int_equal(db_open(&d, path, 0, 1, err, sizeof err), -1);
    assert_non_null(strstr(err, "no such results database"));
    assert_int_not_equal(access(path, F_OK), 0);
    /* a 0-byte file is not "an empty database": it was never one */
    f = fopen(path, "w");
    fclose(f);
    assert_int_equal(db_open(&d, path, 0, 1, err, sizeof err), -1);
    if (!strstr(err, "an empty file (0 bytes), not a results database")) print_error("%s\n", err);
    assert_non_null(strstr(err, "an empty file (0 bytes), not a results database"));
    unlink(path);
    char wal[80];
    snprintf(wal, sizeof wal, "%s-wal", path);
    unlink(wal);
    snprintf(wal, sizeof wal, "%s-shm", path);
    unlink(wal);
}

static char *changed(const char *dump, const char *defaults) {
    char *out = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&out, &n);
    points_changed_options(dump, strlen(dump), defaults, strlen(defaults), f);
    fclose(f);
    return out;
}

/* A point hashes the options that differ from the binary's defaults, so a
 * binary with one more option (at a default that changes nothing) gives the
 * same point; scheme 1 hashed the whole dump, and every point changed. */
static void test_points(void **state) {
    (void)state;
    const char *old_defaults = "\n# SMs\n-cores 15\n-sched gto\n\n# L1\n-l1 16:128:4\n";
    const char *old_dump = "\n# SMs\n-cores 15\n-sched lrr\n\n# L1\n-l1 32:128:4\n";
    /* the next binary: a new option in each section, at its default in both */
    const char *new_defaults = "\n# SMs\n-cores 15\n-sub_core 0\n-sched gto\n\n# L1\n-l1 16:128:4\n-banks 1\n";
    const char *new_dump = "\n# SMs\n-cores 15\n-sub_core 0\n-sched lrr\n\n# L1\n-l1 32:128:4\n-banks 1\n";
    char *a = changed(old_dump, old_defaults), *b = changed(new_dump, new_defaults);
    assert_string_equal(a, "-sched lrr\n-l1 32:128:4\n");
    assert_string_equal(b, a);
    free(a);
    free(b);
    /* a config that sets the new option away from its default is another point */
    a = changed("\n# SMs\n-cores 15\n-sub_core 1\n-sched lrr\n\n# L1\n-l1 32:128:4\n-banks 1\n", new_defaults);
    assert_string_equal(a, "-sub_core 1\n-sched lrr\n-l1 32:128:4\n");
    free(a);
    /* the default configuration itself changes nothing; a last line without
     * its newline is compared too */
    a = changed(new_defaults, new_defaults);
    assert_string_equal(a, "");
    free(a);
    a = changed("-x 1\n-y 3", "-x 1\n-y 2");
    assert_string_equal(a, "-y 3");
    free(a);
    /* dumps that do not line up (a value with a newline in it): the whole dump */
    a = changed("-x 1\n-y \"a\nb\"\n", "-x 1\n-y 2\n");
    assert_string_equal(a, "-x 1\n-y \"a\nb\"\n");
    free(a);

    /* the key: the model's 12-digit id and the point, nothing else */
    char k1[65], k2[65], k3[65], want[65];
    points_key("c6a22d0367b6", "ab12", k1);
    points_key("c6a22d0367b6ffffffff", "ab12", k2);   /* only 12 digits count */
    points_key("4f848d710e53", "ab12", k3);
    hash_str("locsim-run-v2\nmodel c6a22d0367b6\npoint ab12\n", want);
    assert_string_equal(k1, want);
    assert_string_equal(k2, k1);
    assert_string_not_equal(k3, k1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sha256),
        cmocka_unit_test(test_spec_good),
        cmocka_unit_test(test_spec_bad),
        cmocka_unit_test(test_spec_deep),
        cmocka_unit_test(test_db_refuses),
        cmocka_unit_test(test_points),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
