/* Statistics registry: per-kernel deltas and totals, ratios, GPGPU-Sim names,
 * exact text and JSON output, byte-identical JSON for identical runs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>

#include "mem/partition.h"
#include "sim/stats.h"
#include "sim/stats_json.h"

typedef char *(*writer_fn)(const stats *s, unsigned flags);

static char *capture_json(const stats *s, unsigned flags) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(stats_write_json(s, f, flags), 0);
    fclose(f);
    return buf;
}

static char *capture_text(const stats *s, uint32_t kernel) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (kernel == STATS_TOTAL) stats_print_total(s, f);
    else stats_print_kernel(s, kernel, f);
    fclose(f);
    return buf;
}

/* Two kernels: cumulative (cycles, insns) = (100, 250) then (300, 350).
 * Kernel 1: 100 cycles, 250 insns, IPC 2.5; kernel 2: 200, 100, IPC 0.5;
 * total: 300, 350, IPC 350/300. */
static stats *two_kernels(int *cyc, int *insn, int *ipc, int *secs) {
    stats *s = stats_create();
    *cyc = stats_define_counter(s, "gpu_sim_cycle", "gpu_tot_sim_cycle", 0, "core cycles");
    *insn = stats_define_counter(s, "gpu_sim_insn", "gpu_tot_sim_insn", 0, "instructions");
    *ipc = stats_define_ratio(s, "gpu_ipc", "gpu_tot_ipc", *insn, *cyc, 1.0, 0, "IPC");
    *secs = stats_define_real(s, "host_sec", NULL, STAT_HOST, "host time");
    stats_collect_begin(s);
    stats_add(s, *cyc, 100);
    stats_add(s, *insn, 200);
    stats_add(s, *insn, 50);        /* a second instance: summed */
    stats_add_real(s, *secs, 0.25);
    assert_int_equal(stats_kernel_end(s, "first"), 0);
    stats_collect_begin(s);
    stats_add(s, *cyc, 300);
    stats_add(s, *insn, 350);
    stats_add_real(s, *secs, 0.75);
    assert_int_equal(stats_kernel_end(s, "second \"k\""), 0);
    return s;
}

static void test_kernel_deltas_and_totals(void **state) {
    (void)state;
    int cyc, insn, ipc, secs;
    stats *s = two_kernels(&cyc, &insn, &ipc, &secs);
    assert_int_equal(stats_kernels(s), 2);
    assert_int_equal(stats_counter_value(s, 0, cyc), 100);
    assert_int_equal(stats_counter_value(s, 0, insn), 250);
    assert_true(stats_value(s, 0, ipc) == 2.5);
    assert_int_equal(stats_counter_value(s, 1, cyc), 200);
    assert_int_equal(stats_counter_value(s, 1, insn), 100);
    assert_true(stats_value(s, 1, ipc) == 0.5);
    assert_int_equal(stats_counter_value(s, STATS_TOTAL, cyc), 300);
    assert_true(stats_value(s, STATS_TOTAL, ipc) == 350.0 / 300.0);
    assert_true(stats_value(s, 1, secs) == 0.5);
    assert_int_equal(stats_find(s, "gpu_tot_ipc"), ipc);
    assert_string_equal(stats_kernel_name(s, 0), "first");

    /* Names are unique; derived statistics take earlier ones; no definitions
     * after a kernel. */
    assert_int_equal(stats_define_counter(s, "late", NULL, 0, ""), -1);
    stats_destroy(s);
    s = stats_create();
    int a = stats_define_counter(s, "a", NULL, 0, "");
    assert_int_equal(stats_define_counter(s, "a", NULL, 0, ""), -1);
    int r = stats_define_ratio(s, "r", NULL, a, a, 1.0, 0, "");
    assert_true(r >= 0);
    assert_int_equal(stats_define_ratio(s, "rr", NULL, a, r + 1, 1.0, 0, ""), -1);  /* not defined yet */
    assert_int_equal(stats_define_scaled(s, "sc", r + 5, 2.0, 0, ""), -1);
    int none[1] = {r + 7};
    assert_int_equal(stats_define_sum(s, "su", none, 1, 0, ""), -1);
    assert_int_equal(stats_define_sum(s, "su", none, 0, 0, ""), -1);
    assert_true(stats_value(s, STATS_TOTAL, r) == 0.0);   /* 0/0 reads as 0 */
    stats_destroy(s);
}

/* Scaled and summed statistics (the energy model's): per kernel they are
 * computed from the kernel's own counts, not as differences of totals.
 * Counts: a = 3 then 10 (kernels: 3, 7), b = 1 then 5 (1, 4), real t = 0.5
 * then 2.0 (0.5, 1.5).  ea = 0.1 a, eb = 0.25 b, et = 4 t, sum = ea + eb + et,
 * p = sum / t:
 *   kernel 1: 0.1*3 + 0.25*1 + 4*0.5 = 0.3 + 0.25 + 2 = 2.55, p = 5.1
 *   kernel 2: 0.1*7 + 0.25*4 + 4*1.5 = 0.7 + 1 + 6 = 7.7, p = 7.7/1.5
 *   total:    0.1*10 + 0.25*5 + 4*2 = 1 + 1.25 + 8 = 10.25, p = 5.125 */
/* A level (stats_define_max): each kernel's value is the largest any instance
 * gave in its pass, not a difference; the total is the largest kernel's.
 * Kernels 5 (instances 3 and 5), 2 (2 and 1), 7 (7): total 7, kernel 2 is 2
 * (a cumulative counter would say 2 - 5 or 0). */
static void test_max_levels(void **state) {
    (void)state;
    stats *s = stats_create();
    int m = stats_define_max(s, "live_max", NULL, 0, "a level");
    int c = stats_define_counter(s, "count", NULL, 0, "a count");
    assert_true(m >= 0 && c >= 0);
    const uint64_t inst[3][2] = {{3, 5}, {2, 1}, {7, 0}};
    for (int k = 0; k < 3; k++) {
        stats_collect_begin(s);
        for (int i = 0; i < 2; i++) stats_add_max(s, m, inst[k][i]);
        stats_add(s, c, 10u * (uint64_t)(k + 1));
        assert_int_equal(stats_kernel_end(s, "k"), 0);
    }
    assert_int_equal(stats_counter_value(s, 0, m), 5);
    assert_int_equal(stats_counter_value(s, 1, m), 2);
    assert_int_equal(stats_counter_value(s, 2, m), 7);
    assert_int_equal(stats_counter_value(s, STATS_TOTAL, m), 7);
    assert_true(stats_value(s, STATS_TOTAL, m) == 7.0);
    assert_int_equal(stats_counter_value(s, 1, c), 10);   /* counters stay differences */
    char *json = capture_json(s, 0);
    assert_non_null(strstr(json, "\"live_max\": 2"));       /* an integer in JSON, per kernel */
    free(json);
    stats_destroy(s);
}

static void test_scaled_and_sum(void **state) {
    (void)state;
    stats *s = stats_create();
    int a = stats_define_counter(s, "a", NULL, 0, ""), b = stats_define_counter(s, "b", NULL, 0, "");
    int t = stats_define_real(s, "t", NULL, 0, "");
    int ea = stats_define_scaled(s, "ea", a, 0.1, 0, ""), eb = stats_define_scaled(s, "eb", b, 0.25, 0, "");
    int et = stats_define_scaled(s, "et", t, 4.0, 0, "");
    int terms[3] = {ea, eb, et};
    int sum = stats_define_sum(s, "sum", terms, 3, 0, "");
    int p = stats_define_ratio(s, "p", NULL, sum, t, 1.0, 0, "");
    assert_true(ea >= 0 && eb >= 0 && et >= 0 && sum >= 0 && p >= 0);
    stats_collect_begin(s);
    stats_add(s, a, 3);
    stats_add(s, b, 1);
    stats_add_real(s, t, 0.5);
    assert_int_equal(stats_kernel_end(s, "k1"), 0);
    stats_collect_begin(s);
    stats_add(s, a, 10);
    stats_add(s, b, 5);
    stats_add_real(s, t, 2.0);
    assert_int_equal(stats_kernel_end(s, "k2"), 0);
    assert_true(stats_value(s, 0, ea) == 0.1 * 3.0);
    assert_true(stats_value(s, 1, ea) == 0.1 * 7.0);   /* not 0.1*10 - 0.1*3 */
    assert_true(stats_value(s, 0, sum) == 0.1 * 3.0 + 0.25 * 1.0 + 4.0 * 0.5);
    assert_true(stats_value(s, 1, sum) == 0.1 * 7.0 + 0.25 * 4.0 + 4.0 * 1.5);
    assert_true(stats_value(s, STATS_TOTAL, sum) == 0.1 * 10.0 + 0.25 * 5.0 + 4.0 * 2.0);
    assert_true(fabs((stats_value(s, 0, sum)) - (2.55)) < 1e-12);
    assert_true(fabs((stats_value(s, 1, p)) - (7.7 / 1.5)) < 1e-12);
    assert_true(fabs((stats_value(s, STATS_TOTAL, p)) - (5.125)) < 1e-12);
    stats_destroy(s);
}

static void test_text_output(void **state) {
    (void)state;
    int cyc, insn, ipc, secs;
    stats *s = two_kernels(&cyc, &insn, &ipc, &secs);
    char *k2 = capture_text(s, 1);
    assert_string_equal(k2,
                        "kernel_name = second \"k\"\n"
                        "kernel_launch_uid = 2\n"
                        "gpu_sim_cycle = 200\n"
                        "gpu_tot_sim_cycle = 300\n"
                        "gpu_sim_insn = 100\n"
                        "gpu_tot_sim_insn = 350\n"
                        "gpu_ipc = 0.5000\n"
                        "gpu_tot_ipc = 1.1667\n"
                        "host_sec = 0.5000\n");
    char *k1 = capture_text(s, 0);
    assert_non_null(strstr(k1, "gpu_sim_cycle = 100\ngpu_tot_sim_cycle = 100\n"));
    char *tot = capture_text(s, STATS_TOTAL);
    assert_string_equal(tot,
                        "kernels = 2\n"
                        "gpu_tot_sim_cycle = 300\n"
                        "gpu_tot_sim_insn = 350\n"
                        "gpu_tot_ipc = 1.1667\n"
                        "host_sec = 0.7500\n");
    free(k1);
    free(k2);
    free(tot);
    stats_destroy(s);
}

static void test_json_output(void **state) {
    (void)state;
    int cyc, insn, ipc, secs;
    stats *s = two_kernels(&cyc, &insn, &ipc, &secs);
    char *j = capture_json(s, 0);
    assert_string_equal(j,
                        "{\n"
                        "  \"kernels\": [\n"
                        "    {\n"
                        "      \"name\": \"first\",\n"
                        "      \"index\": 0,\n"
                        "      \"stats\": {\n"
                        "        \"gpu_sim_cycle\": 100,\n"
                        "        \"gpu_sim_insn\": 250,\n"
                        "        \"gpu_ipc\": 2.5\n"
                        "      }\n"
                        "    },\n"
                        "    {\n"
                        "      \"name\": \"second \\\"k\\\"\",\n"
                        "      \"index\": 1,\n"
                        "      \"stats\": {\n"
                        "        \"gpu_sim_cycle\": 200,\n"
                        "        \"gpu_sim_insn\": 100,\n"
                        "        \"gpu_ipc\": 0.5\n"
                        "      }\n"
                        "    }\n"
                        "  ],\n"
                        "  \"total\": {\n"
                        "    \"kernels\": 2,\n"
                        "    \"gpu_tot_sim_cycle\": 300,\n"
                        "    \"gpu_tot_sim_insn\": 350,\n"
                        "    \"gpu_tot_ipc\": 1.1666666666666667\n"
                        "  }\n"
                        "}\n");
    char *with_host = capture_json(s, STATS_JSON_HOST);
    assert_non_null(strstr(with_host, "\"host_sec\": 0.75\n"));
    free(j);
    free(with_host);
    stats_destroy(s);

    /* The writer refuses unbalanced output. */
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    json_writer w;
    json_init(&w, f);
    json_begin_object(&w, NULL);
    json_double(&w, "nan", 0.0 / 0.0);
    assert_int_equal(json_finish(&w), -1);
    fclose(f);
    assert_non_null(strstr(buf, "\"nan\": null"));
    free(buf);
}

/* Standard groups: a 16 KB L1D reading an 8 KB array twice (64 misses, 64 hits),
 * with 1000 instructions: miss rate 0.5, MPKI 64. */
static void test_cache_group_names(void **state) {
    (void)state;
    stats *s = stats_create();
    stats_gpu_ids g;
    stats_cache_ids l1;
    assert_int_equal(stats_define_gpu(s, &g), 0);
    assert_int_equal(stats_define_cache(s, "L1D", g.insn, &l1), 0);
    cache_geometry geo;
    char err[256];
    assert_int_equal(cache_geometry_parse("N:32:128:4,L:L:m:N:H,A:32:8,8", &geo, err, sizeof err), 0);
    cache *c = cache_create(&geo, "L1D", err, sizeof err);
    mem_req woken[8];
    for (int pass = 0; pass < 2; pass++) {
        for (uint64_t a = 0; a < 8192; a += 128) {
            mem_req r;
            memset(&r, 0, sizeof r);
            r.addr = a;
            r.type = MEM_GLOBAL_ACC_R;
            r.sector_mask = 0xF;
            if (cache_access(c, &r, 0, NULL) == CACHE_MISS) {
                mem_req f = *cache_miss_queue_peek(c);
                cache_miss_queue_pop(c);
                assert_int_equal(cache_fill(c, &f, 0, woken, 8), 1);
            }
        }
    }
    stats_collect_begin(s);
    stats_add(s, g.insn, 1000);
    stats_add(s, g.cycle, 500);
    stats_add_cache(s, &l1, c);
    assert_int_equal(stats_kernel_end(s, "reread"), 0);
    assert_int_equal(stats_counter_value(s, 0, stats_find(s, "L1D_total_cache_accesses")), 128);
    assert_int_equal(stats_counter_value(s, 0, stats_find(s, "L1D_total_cache_misses")), 64);
    assert_true(stats_value(s, 0, stats_find(s, "L1D_total_cache_miss_rate")) == 0.5);
    assert_true(stats_value(s, 0, stats_find(s, "L1D_MPKI")) == 64.0);
    assert_int_equal(stats_counter_value(s, 0, stats_find(s, "L1D_cache_stats_breakdown[GLOBAL_ACC_R][HIT]")), 64);
    assert_true(stats_value(s, 0, stats_find(s, "gpu_ipc")) == 2.0);
    char *text = capture_text(s, 0);
    assert_non_null(strstr(text, "L1D_total_cache_pending_hits = 0\n"));
    assert_null(strstr(text, "breakdown"));                 /* details: JSON only */
    char *json = capture_json(s, 0);
    assert_null(strstr(json, "gpgpu_simulation_rate"));   /* host time: not in JSON */
    assert_non_null(strstr(json, "\"L1D_cache_stats_breakdown[GLOBAL_ACC_R][MISS]\": 64"));
    free(json);
    free(text);
    cache_destroy(c);
    stats_destroy(s);
}

/* A small deterministic memory-system run: a pseudo-random read/write stream
 * through one memory partition, statistics collected with the standard groups. */
static char *simulate_and_report(void) {
    addrmap_config ac = {.n_channels = 1, .n_sub_per_channel = 2, .nbanks = 16};
    snprintf(ac.mapping, sizeof ac.mapping, "RRRRRRRR.RRRRRRRR.BBBBCCCC.CCCCCCCC");
    addrmap am;
    char err[256];
    assert_int_equal(addrmap_init(&am, &ac, err, sizeof err), 0);
    partition_config pc;
    memset(&pc, 0, sizeof pc);
    assert_int_equal(cache_geometry_parse("N:16:128:4,L:B:m:W:L,A:16:4,4", &pc.l2, err, sizeof err), 0);
    assert_int_equal(dram_timing_parse("nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12:"
                                       "nbkgrp=1:CCDL=0:RTPL=0", &pc.dram.t, err, sizeof err), 0);
    pc.dram.bus_width = 4;
    pc.dram.chips = 2;
    pc.dram.burst_length = 8;
    pc.dram.freq_ratio = 4;
    pc.dram.queue_size = 16;
    pc.dram.return_queue_size = 32;
    snprintf(pc.dram.scheduler, sizeof pc.dram.scheduler, "frfcfs");
    pc.rop_latency = 20;
    pc.dram_latency = 10;
    for (int q = 0; q < PART_Q_COUNT; q++) pc.queue_size[q] = 8;
    partition *p = partition_create(&pc, &am, 0, err, sizeof err);
    assert_non_null(p);

    stats *s = stats_create();
    stats_gpu_ids g;
    stats_cache_ids l2;
    stats_dram_ids d;
    assert_int_equal(stats_define_gpu(s, &g), 0);
    assert_int_equal(stats_define_cache(s, "L2", g.insn, &l2), 0);
    assert_int_equal(stats_define_dram(s, &d), 0);
    uint64_t x = 7, sent = 0, replies = 0, cycles = 0;
    for (int kernel = 0; kernel < 2; kernel++) {
        uint64_t target = (uint64_t)(kernel + 1) * 1500;
        for (; (sent < target || !partition_idle(p)) && cycles < 1000000; cycles++) {
            if (sent < target) {
                x = x * 6364136223846793005ull + 1442695040888963407ull;
                mem_req r;
                memset(&r, 0, sizeof r);
                r.addr = (x >> 33) % (256 * 1024) & ~127ull;
                r.type = (x >> 20) % 4 == 0 ? MEM_GLOBAL_ACC_W : MEM_GLOBAL_ACC_R;
                r.sector_mask = 0xF;
                r.size = 128;
                addr_loc l;
                addrmap_decode(&am, r.addr, &l);
                if (partition_push(p, l.slice, &r) == 0) sent++;
            }
            partition_l2_cycle(p);
            partition_dram_cycle(p);
            for (uint32_t sl = 0; sl < 2; sl++)
                while (partition_reply_peek(p, sl)) {
                    partition_reply_pop(p, sl);
                    replies++;
                }
        }
        stats_collect_begin(s);
        stats_add(s, g.cycle, cycles);
        stats_add(s, g.insn, sent * 10);
        for (uint32_t sl = 0; sl < 2; sl++) stats_add_cache(s, &l2, partition_l2(p, sl));
        stats_add_dram(s, &d, partition_dram(p));
        stats_add_real(s, g.host_seconds, 0.001 * (kernel + 1));
        assert_int_equal(stats_kernel_end(s, kernel ? "second" : "first"), 0);
    }
    assert_int_equal(sent, 3000);
    assert_int_equal(replies, 3000);
    assert_int_equal(stats_counter_value(s, STATS_TOTAL, l2.accesses), 3000);
    assert_true(stats_counter_value(s, STATS_TOTAL, d.reads) > 0);
    char *json = capture_json(s, 0);
    stats_destroy(s);
    partition_destroy(p);
    return json;
}

static void test_json_byte_identical_across_runs(void **state) {
    (void)state;
    char *a = simulate_and_report();
    char *b = simulate_and_report();
    assert_true(strlen(a) > 1000);
    assert_string_equal(a, b);
    assert_non_null(strstr(a, "\"L2_total_cache_miss_rate\": "));
    assert_non_null(strstr(a, "\"dram_row_buffer_locality\": "));
    free(a);
    free(b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kernel_deltas_and_totals),
        cmocka_unit_test(test_max_levels),
        cmocka_unit_test(test_scaled_and_sum),
        cmocka_unit_test(test_text_output),
        cmocka_unit_test(test_json_output),
        cmocka_unit_test(test_cache_group_names),
        cmocka_unit_test(test_json_byte_identical_across_runs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
