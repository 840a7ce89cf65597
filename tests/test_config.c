/* Configuration: the shipped configs load with the numbers of DESIGN.md section 4,
 * errors name file:line, the option and what was expected; overrides, help, dumps. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sim/config.h"
#include "sim/config_options.h"

#include "config_util.h"

static void test_fermi_gtx480(void **state) {
    (void)state;
    sim_config c;
    load_shipped(&c, "fermi_gtx480");
    assert_int_equal(config_num_sms(&c), 15);
    assert_int_equal(config_max_warps_per_sm(&c), 48);
    assert_int_equal(c.num_sched_per_core, 2);
    assert_int_equal(c.registers_per_core, 32768);
    assert_int_equal(c.shmem_size, 48 * 1024);
    assert_int_equal(cache_size_bytes(&c.l1d), 16 * 1024);
    assert_int_equal(c.l1d.assoc, 4);
    assert_int_equal(c.l1d.line_size, 128);
    assert_string_equal(c.l1d.policy, "lru");
    assert_int_equal(config_num_l2_slices(&c) * cache_size_bytes(&c.l2), 768 * 1024);
    assert_int_equal(c.l2.assoc, 8);
    assert_int_equal(c.n_mem, 6);
    assert_true(c.clock_mhz[CLOCK_CORE] == 700.0 && c.clock_mhz[CLOCK_ICNT] == 700.0);
    assert_true(c.clock_mhz[CLOCK_DRAM] == 924.0);
    assert_int_equal(c.dram.t.tCL, 12);
    assert_int_equal(c.dram.t.tRP, 12);
    assert_int_equal(c.dram.t.tRC, 40);
    assert_int_equal(c.dram.t.tRAS, 28);
    assert_int_equal(c.dram.t.tRCD, 12);
    assert_int_equal(c.dram.t.tRRD, 6);
    assert_int_equal(c.dram.bus_width * c.dram.chips, 8);     /* 8 B per channel per beat */
    assert_string_equal(c.dram.scheduler, "frfcfs");
    assert_int_equal(c.lat_int[OPLAT_DIV], 145);
}

static void test_ccws_gtx285(void **state) {
    (void)state;
    sim_config c;
    load_shipped(&c, "ccws_gtx285");
    assert_int_equal(config_num_sms(&c), 30);
    assert_int_equal(config_max_warps_per_sm(&c), 32);
    assert_int_equal(c.simd_width, 8);
    assert_int_equal(c.registers_per_core, 16384);
    assert_int_equal(c.shmem_size, 16 * 1024);
    assert_int_equal(cache_size_bytes(&c.l1d), 32 * 1024);
    assert_int_equal(c.l1d.assoc, 8);
    assert_int_equal(config_num_l2_slices(&c), 8);
    assert_int_equal(cache_size_bytes(&c.l2), 128 * 1024);
    assert_int_equal(c.l2.assoc, 8);
    assert_true(c.clock_mhz[CLOCK_CORE] == 1300.0 && c.clock_mhz[CLOCK_ICNT] == 650.0);
    assert_true(c.clock_mhz[CLOCK_DRAM] == 800.0);
    assert_int_equal(c.dram.t.tCL, 10);
    assert_int_equal(c.dram.t.tRP, 10);
    assert_int_equal(c.dram.t.tRC, 35);
    assert_int_equal(c.dram.t.tRAS, 25);
    assert_int_equal(c.dram.t.tRCD, 12);
    assert_int_equal(c.dram.t.tRRD, 8);
    assert_int_equal(c.dram.queue_size, 32);
    assert_int_equal(cache_size_bytes(&c.l1c), 8 * 1024);
    /* The authors' L1D (tgrogers/ccws-2012 config "A:16:4,4", L1_HIT_LATENCY 20 at a
     * 325 MHz core issuing a whole warp per cycle): 20 cycles x 1300/325 = 80 of ours;
     * global write hits evict, linear set index, flushed at kernel end. */
    assert_int_equal(c.l1d.mshr_entries, 16);
    assert_int_equal(c.l1d.mshr_max_merge, 4);
    assert_int_equal(c.l1d.miss_queue_size, 4);
    assert_int_equal(c.l1d.write_global, CACHE_WRITE_EVICT);
    assert_int_equal(c.l1d.write_alloc, CACHE_NO_WRITE_ALLOCATE);
    assert_int_equal(c.l1d.index, CACHE_INDEX_LINEAR);
    assert_int_equal(c.l1_latency, 80);
    assert_true(c.flush_l1_cache);
}

static void test_sharing_fermi(void **state) {
    (void)state;
    sim_config c;
    load_shipped(&c, "sharing_fermi");
    assert_int_equal(config_num_sms(&c), 15);
    assert_string_equal(c.scheduler, "gto");
    assert_int_equal(cache_size_bytes(&c.l1d), 16 * 1024);
    assert_int_equal(c.l1d.assoc, 4);
    assert_int_equal(config_num_l2_slices(&c) * cache_size_bytes(&c.l2), 768 * 1024);
    assert_int_equal(c.n_sub_partition_per_mchannel * cache_size_bytes(&c.l2), 128 * 1024);
    assert_int_equal(c.n_mem, 6);
    assert_int_equal(c.dram.queue_size, 32);
    assert_string_equal(c.dram.scheduler, "frfcfs");
    assert_int_equal(cache_size_bytes(&c.l1i), 2 * 1024);
    assert_int_equal(cache_size_bytes(&c.l1t), 12 * 1024);
    assert_true(c.clock_mhz[CLOCK_ICNT] == 1400.0);
}

/* The Locality Descriptor paper's single-chip system (Table 1): 15 SMs, GTO with 2
 * schedulers, 48 KB shared, L1 32 KB 4-way, L2 768 KB 16-way over 6 channels. */
static void test_ldesc_gtx480(void **state) {
    (void)state;
    sim_config c;
    load_shipped(&c, "ldesc_gtx480");
    assert_int_equal(config_num_sms(&c), 15);
    assert_string_equal(c.scheduler, "gto");
    assert_int_equal(c.num_sched_per_core, 2);
    assert_int_equal(cache_size_bytes(&c.l1d), 32 * 1024);
    assert_int_equal(c.l1d.assoc, 4);
    assert_int_equal(config_num_l2_slices(&c) * cache_size_bytes(&c.l2), 768 * 1024);
    assert_int_equal(c.l2.assoc, 16);
    assert_false(c.l2.sectored);   /* GPGPU-Sim 3.2.2's L2: whole 128 B line fills */
    assert_int_equal(c.n_mem, 6);
    assert_string_equal(c.cta_scheduler, "rr");
}

/* The paper's multi-chip system (Table 1): 4 modules x 16 SMs, 32 channels, L2 4 MB
 * 16-way, 192 GB/s between modules, 768 GB/s of DRAM: a channel moves
 * 750 MHz x 4 beats x (4 B x 2 chips) = 24 GB/s, x 32 = 768 GB/s. */
static void test_ldesc_numa4(void **state) {
    (void)state;
    sim_config c;
    load_shipped(&c, "ldesc_numa4");
    assert_int_equal(c.numa_n_modules, 4);
    assert_int_equal(config_num_sms(&c), 64);
    assert_int_equal(c.n_mem, 32);
    assert_int_equal(config_num_l2_slices(&c) * cache_size_bytes(&c.l2), 4 * 1024 * 1024);
    assert_int_equal(c.l2.assoc, 16);
    assert_int_equal(cache_size_bytes(&c.l1d), 32 * 1024);
    assert_int_equal(c.l1d.assoc, 4);
    assert_int_equal(c.num_sched_per_core, 2);
    assert_string_equal(c.scheduler, "gto");
    assert_true(c.numa_link_bandwidth == 192.0);
    assert_false(c.l2.sectored);
    assert_string_equal(c.numa_link_topology, "ring");   /* MCM-GPU's, 32 ns a hop */
    assert_true(c.numa_link_latency == 32.0);
    assert_string_equal(c.numa_placement, "xor");
    double gbps = c.clock_mhz[CLOCK_DRAM] * 1e6 * c.dram.freq_ratio * c.dram.bus_width * c.dram.chips * c.n_mem / 1e9;
    assert_true(gbps > 767.99 && gbps < 768.01);
}

static char *dump_to_string(const sim_config *c) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    config_dump(c, f);
    fclose(f);
    return buf;
}

/* The built-in defaults are the GTX480 values fermi_gtx480.cfg spells out. */
static void test_defaults_are_gtx480(void **state) {
    (void)state;
    sim_config d, f;
    char err[512];
    config_defaults(&d);
    assert_int_equal(config_finalize(&d, err, sizeof err), 0);
    load_shipped(&f, "fermi_gtx480");
    char *a = dump_to_string(&d), *b = dump_to_string(&f);
    assert_string_equal(a, b);
    free(a);
    free(b);
}

/* A dump loads back to the same configuration. */
static void test_dump_round_trip(void **state) {
    (void)state;
    sim_config c, back;
    char err[512];
    load_shipped(&c, "ccws_gtx285");
    char *text = dump_to_string(&c);
    config_defaults(&back);
    int rc = config_load_string(&back, text, "dump", err, sizeof err);
    if (rc) print_error("%s\n", err);
    assert_int_equal(rc, 0);
    assert_int_equal(config_finalize(&back, err, sizeof err), 0);
    char *again = dump_to_string(&back);
    assert_string_equal(text, again);
    assert_int_equal(back.dram.t.tRAS, 25);
    free(text);
    free(again);
}

static void expect_error(const char *text, const char *expected) {
    sim_config c;
    char err[512] = "";
    config_defaults(&c);
    assert_int_equal(config_load_string(&c, text, "test.cfg", err, sizeof err), -1);
    if (strcmp(err, expected) != 0) print_error("got      '%s'\nexpected '%s'\n", err, expected);
    assert_string_equal(err, expected);
}

static void test_file_errors(void **state) {
    (void)state;
    expect_error("# a comment\n-gpgpu_n_clusters 15\n-gpgpu_no_such_option 3\n",
                 "test.cfg:3: unknown option '-gpgpu_no_such_option'");
    expect_error("-gpgpu_n_cluster 3\n", "test.cfg:1: unknown option '-gpgpu_n_cluster' (did you mean -gpgpu_n_clusters?)");
    expect_error("\n-gpgpu_n_clusters 0\n",
                 "test.cfg:2: -gpgpu_n_clusters: expected an integer in [1, 1024], got '0'");
    expect_error("-gpgpu_n_clusters 15x\n",
                 "test.cfg:1: -gpgpu_n_clusters: expected an integer in [1, 1024], got '15x'");
    expect_error("-gpgpu_n_mem 6\n\n\n-gpgpu_cache:dl1 N:32:128\n",
                 "test.cfg:4: -gpgpu_cache:dl1: bad cache configuration 'N:32:128': expected 4 or 5 comma-separated "
                 "groups: <N|S>:<sets>:<line>:<assoc>, <repl>:<wr>:<alloc>:<wr_alloc>:<idx>, "
                 "<mshr>:<entries>:<merge>, <miss queue>");
    expect_error("-gpgpu_cache:dl1 N:32:128:4,L:L:m:N:H,A:32:8,8x\n",
                 "test.cfg:1: -gpgpu_cache:dl1: bad cache configuration 'N:32:128:4,L:L:m:N:H,A:32:8,8x': "
                 "miss queue size '8x' must be an integer in [1, 4096]");
    expect_error("-gpgpu_shmem_limited_broadcast yes\n",
                 "test.cfg:1: -gpgpu_shmem_limited_broadcast: expected 0 or 1, got 'yes'");
    expect_error("-ptx_opcode_latency_int 4,13,4,5\n",
                 "test.cfg:1: -ptx_opcode_latency_int: expected <ADD>,<MAX>,<MUL>,<MAD>,<DIV>[,<SHFL>], each an integer in "
                 "[1, 100000], got '4,13,4,5'");
    expect_error("-gpgpu_clock_domains 700:700:700\n",
                 "test.cfg:1: -gpgpu_clock_domains: expected <core>:<icnt>:<l2>:<dram> clocks in MHz, each in "
                 "(0, 100000], got '700:700:700'");
    expect_error("-gpgpu_dram_timing_opt \"nbk=16:CL=x\"\n",
                 "test.cfg:1: -gpgpu_dram_timing_opt: DRAM timing CL='x': expected a number of cycles in [0, 100000], "
                 "got 'nbk=16:CL=x'");
    expect_error("-gpgpu_dram_scheduler 2\n",
                 "test.cfg:1: -gpgpu_dram_scheduler: unknown DRAM scheduler '2' (expected 0, 1, fifo, frfcfs, mfq), got '2'");
    expect_error("-l1d_global_write_policy sometimes\n",
                 "test.cfg:1: -l1d_global_write_policy: expected one of cache|through|evict|back, got 'sometimes'");
    expect_error("-gpgpu_n_clusters\n-gpgpu_n_mem 6\n", "test.cfg:1: -gpgpu_n_clusters: missing value");
    expect_error("-gpgpu_n_mem", "test.cfg:1: -gpgpu_n_mem: missing value");
    expect_error("gpgpu_n_mem 6", "test.cfg:1: expected an option starting with '-', got 'gpgpu_n_mem'");
    expect_error("-gpgpu_scheduler \"gto\n", "test.cfg:1: unterminated quoted value");
    expect_error("-gpgpu_shader_core_pipeline 1536:16\n",
                 "test.cfg:1: -gpgpu_shader_core_pipeline: warp size 16: only 32 is supported, got '1536:16'");
}

/* GPGPU-Sim file habits: a quoted value spread over two lines, comments after
 * values, several options on a line, an old option name. */
static void test_gpgpusim_syntax(void **state) {
    (void)state;
    sim_config c;
    char err[512];
    config_defaults(&c);
    const char *text =
        "-gpgpu_dram_timing_opt \"nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:\n"
        "                        CL=12:WL=4:CDLR=5:WR=12:nbkgrp=4:CCDL=3:RTPL=2\"\n"
        "-dram_data_command_freq_ratio 4  # GDDR5 is QDR\n"
        "-gpgpu_n_mem 6 -gpgpu_n_clusters 14\n"
        "-rop_latency 50\n"
        "-gpgpu_n_clusters 13   # a later setting wins\n";
    int rc = config_load_string(&c, text, "gtx480.cfg", err, sizeof err);
    if (rc) print_error("%s\n", err);
    assert_int_equal(rc, 0);
    assert_int_equal(c.dram.t.nbkgrp, 4);
    assert_int_equal(c.dram.t.tCCDL, 3);
    assert_int_equal(c.dram.freq_ratio, 4);
    assert_int_equal(c.n_clusters, 13);
    assert_int_equal(c.rop_latency, 50);
}

static void test_command_line_overrides(void **state) {
    (void)state;
    sim_config c;
    char err[512];
    load_shipped(&c, "fermi_gtx480");
    char *const args[] = {"-gpgpu_n_clusters", "30", "-gpgpu_cache:dl1", "N:64:128:4,F:L:m:N:H,A:32:8,8",
                          "-gpgpu_n_clusters", "28", "-l1d_policy", "lru", "-gpgpu_dram_scheduler", "0"};
    assert_int_equal(config_apply_args(&c, 10, args, err, sizeof err), 0);
    assert_int_equal(config_finalize(&c, err, sizeof err), 0);
    assert_int_equal(c.n_clusters, 28);
    assert_int_equal(cache_size_bytes(&c.l1d), 32 * 1024);
    assert_string_equal(c.l1d.policy, "lru");     /* the override beats the string's F */
    assert_string_equal(c.dram.scheduler, "fifo");

    char *const bad[] = {"-gpgpu_n_mem", "many"};
    assert_int_equal(config_apply_args(&c, 2, bad, err, sizeof err), -1);
    assert_string_equal(err, "command line: -gpgpu_n_mem: expected an integer in [1, 256], got 'many'");
    char *const odd[] = {"-gpgpu_n_mem"};
    assert_int_equal(config_apply_args(&c, 1, odd, err, sizeof err), -1);
    assert_string_equal(err, "command line: -gpgpu_n_mem: missing value");
    assert_int_equal(config_set(&c, "gpgpu_n_mem", "8", "test", err, sizeof err), 0);
    assert_int_equal(c.n_mem, 8);
}

static void expect_finalize_error(const char *name, const char *value, const char *fragment) {
    sim_config c;
    char err[512] = "";
    config_defaults(&c);
    assert_int_equal(config_set(&c, name, value, NULL, err, sizeof err), 0);
    assert_int_equal(config_finalize(&c, err, sizeof err), -1);
    if (!strstr(err, fragment)) print_error("got '%s'\n", err);
    assert_non_null(strstr(err, fragment));
}

static void test_finalize_errors(void **state) {
    (void)state;
    expect_finalize_error("-l1d_policy", "belady",
                          "-l1d_policy: unknown replacement policy 'belady' (expected lru fifo lpc sharing ldesc)");
    /* the sharing L1 decides at the fill: the default L1D allocates on miss */
    expect_finalize_error("-l1d_policy", "sharing", "-l1d_policy: policy 'sharing': decides L1 allocation");
    expect_finalize_error("-gpgpu_dram_timing_opt", "nbk=8",
                          "-gpgpu_mem_addr_mapping: address mapping 'dramid@8;00000000.00000000.00000000.00000000."
                          "0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS' has 4 bank bits (16 banks) but the DRAM has nbk=8");
    expect_finalize_error("-icnt_in_buffer_limit", "3", "must hold one 136-byte packet (4 flits of 40 B)");
    /* a 64 B L2 line cannot answer a 128 B L1D line (issue 10's crash) */
    expect_finalize_error("-gpgpu_cache:dl2", "N:64:64:8,L:B:m:W:L,A:32:4,4:0,32",
                          "-gpgpu_cache:dl1: its 128-byte lines are longer than the L2's 64-byte lines");
    expect_finalize_error("-gpgpu_cache:dl1", "S:32:256:4,L:L:m:N:H,A:32:8,8",
                          "-gpgpu_cache:dl1: its 256-byte lines are longer than the L2's 128-byte lines");
    /* a sectored L2 turns one request into 4 sector requests: its input queue must hold them */
    expect_finalize_error("-gpgpu_dram_partition_queues", "2:64:64:64", "the icnt->L2 queue (2) must hold the 4 sector");
    expect_finalize_error("-gpgpu_simd_width", "12", "-gpgpu_simd_width 12 does not divide the warp size 32");
    expect_finalize_error("-gpgpu_n_sub_partition_per_mchannel", "3", "3 L2 slices per channel");
    expect_finalize_error("-gpgpu_dram_partition_queues", "8:8:8:2", "the L2->icnt queue (2) must hold the 4 requests");
}

static void test_global_write_override(void **state) {
    (void)state;
    sim_config c;
    char err[512];
    config_defaults(&c);
    assert_int_equal(c.l1d.write_global, CACHE_WRITE_THROUGH);   /* 'L' in the GTX480 string */
    assert_int_equal(config_set(&c, "-l1d_global_write_policy", "evict", NULL, err, sizeof err), 0);
    assert_int_equal(config_finalize(&c, err, sizeof err), 0);
    assert_int_equal(c.l1d.write_global, CACHE_WRITE_EVICT);
    assert_int_equal(c.l1d.write_local, CACHE_WRITE_BACK);
}

static void test_help_lists_every_option(void **state) {
    (void)state;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    config_help(f);
    fclose(f);
    size_t n, options = 0;
    const option_def *t = config_option_table(&n);
    for (size_t i = 0; i < n; i++) {
        if (!t[i].name) continue;
        char line[160];
        snprintf(line, sizeof line, "  -%s ", t[i].name);
        if (!strstr(buf, line)) print_error("help lacks %s\n", line);
        assert_non_null(strstr(buf, line));
        assert_true(t[i].help && t[i].help[0]);
        options++;
    }
    assert_true(options >= 50);
    assert_non_null(strstr(buf, "  -gpgpu_n_clusters <n>\n      number of SM clusters\n      default: 15; an integer in [1, 1024]\n"));
    free(buf);
}

static void test_resolve(void **state) {
    (void)state;
    char path[1024], err[512];
    assert_int_equal(config_resolve("sharing_fermi", LOCSIM_SOURCE_DIR "/configs", path, sizeof path, err, sizeof err), 0);
    assert_non_null(strstr(path, "sharing_fermi.cfg"));
    assert_int_equal(config_resolve("no_such_gpu", "/nonexistent", path, sizeof path, err, sizeof err), -1);
    assert_non_null(strstr(err, "unknown config 'no_such_gpu'"));
    assert_non_null(strstr(err, "/nonexistent/no_such_gpu.cfg"));
    sim_config c;
    assert_int_equal(config_load_file(&c, "/nonexistent/x.cfg", err, sizeof err), -1);
    assert_non_null(strstr(err, "/nonexistent/x.cfg: cannot open config file"));
}

/* -sim_threads says how the simulator runs, not what it simulates: the dump
 * (so sweep points and the JSON's config_hash) is the same at any value. */
static void test_host_option_not_dumped(void **state) {
    (void)state;
    sim_config d, c;
    char err[512];
    config_defaults(&d);
    config_defaults(&c);
    assert_int_equal(config_set(&c, "-sim_threads", "3", NULL, err, sizeof err), 0);
    assert_int_equal(c.sim_threads, 3);
    char *a = dump_to_string(&d), *b = dump_to_string(&c);
    assert_string_equal(a, b);
    assert_null(strstr(a, "sim_threads"));
    free(a);
    free(b);
    assert_true(config_is_host_option("sim_threads"));
    assert_true(config_is_host_option("-sim_threads"));
    assert_false(config_is_host_option("-gpgpu_scheduler"));
    assert_false(config_is_host_option("-no_such_option"));
    assert_int_equal(config_set(&c, "-sim_threads", "0", NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "sim_threads"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fermi_gtx480),
        cmocka_unit_test(test_ccws_gtx285),
        cmocka_unit_test(test_sharing_fermi),
        cmocka_unit_test(test_ldesc_gtx480),
        cmocka_unit_test(test_ldesc_numa4),
        cmocka_unit_test(test_defaults_are_gtx480),
        cmocka_unit_test(test_dump_round_trip),
        cmocka_unit_test(test_host_option_not_dumped),
        cmocka_unit_test(test_file_errors),
        cmocka_unit_test(test_gpgpusim_syntax),
        cmocka_unit_test(test_command_line_overrides),
        cmocka_unit_test(test_finalize_errors),
        cmocka_unit_test(test_global_write_override),
        cmocka_unit_test(test_help_lists_every_option),
        cmocka_unit_test(test_resolve),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
