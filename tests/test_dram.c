/* DRAM channel timing and scheduling.  Timings are the GTX480 GDDR5 numbers
 * (tRCD=12 tCL=12 tRP=12 tRAS=28 tRC=40 tRRD=6 tCCD=2 tWL=4 tCDLR=5 tWR=12) with an
 * 8 B channel (2 chips x 4 B), burst length 8, 4 beats per command cycle: one
 * column command moves 64 B and holds the data bus 8/4 = 2 cycles. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "mem/addrmap.h"
#include "mem/dram.h"
#include "mem/partition.h"
#include "config_util.h"
#include "sim/gpu_internal.h"

enum { RCD = 12, CL = 12, RP = 12, BURST = 2, CCD = 2 };

static dram_config gtx480_cfg(const char *sched) {
    dram_config c;
    memset(&c, 0, sizeof c);
    char err[256];
    assert_int_equal(dram_timing_parse("nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12:"
                                       "nbkgrp=1:CCDL=0:RTPL=0", &c.t, err, sizeof err), 0);
    c.bus_width = 4;
    c.chips = 2;
    c.burst_length = 8;
    c.freq_ratio = 4;
    c.queue_size = 16;
    c.return_queue_size = 116;
    snprintf(c.scheduler, sizeof c.scheduler, "%s", sched);
    return c;
}

static dram *make(const dram_config *c) {
    char err[256];
    dram *d = dram_create(c, "test", err, sizeof err);
    if (!d) print_error("%s\n", err);
    assert_non_null(d);
    return d;
}

static mem_req rd(uint64_t tag, uint16_t size) {
    mem_req r;
    memset(&r, 0, sizeof r);
    r.type = MEM_GLOBAL_ACC_R;
    r.size = size;
    r.tag = tag;
    return r;
}

static void push(dram *d, uint64_t tag, uint8_t type, uint16_t size, uint32_t bank, uint32_t row) {
    mem_req r = rd(tag, size);
    r.type = type;
    assert_int_equal(dram_push(d, &r, bank, row, 0), 0);
}

/* Cycle until n requests came back; done_at[tag] = cycle count at their pop,
 * order[] = tags in completion order. */
static void run(dram *d, int n, uint64_t *done_at, uint64_t *order) {
    int got = 0;
    for (int guard = 0; got < n && guard < 100000; guard++) {
        dram_cycle(d);
        mem_req r;
        while (dram_pop(d, &r) == 0) {
            done_at[r.tag] = dram_now(d);
            if (order) order[got] = r.tag;
            got++;
        }
    }
    assert_int_equal(got, n);
}

static void idle_until(dram *d, uint64_t cycle) {
    while (dram_now(d) < cycle) dram_cycle(d);
}

static void test_timing_string(void **state) {
    (void)state;
    dram_timing t;
    memset(&t, 0, sizeof t);
    char err[256];
    /* GPGPU-Sim files wrap the string over two lines. */
    assert_int_equal(dram_timing_parse("nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:\n      CL=12:WL=4:CDLR=5:"
                                       "WR=12:nbkgrp=4:CCDL=3:RTPL=2", &t, err, sizeof err), 0);
    assert_int_equal(t.nbk, 16);
    assert_int_equal(t.tRAS, 28);
    assert_int_equal(t.tCL, 12);
    assert_int_equal(t.nbkgrp, 4);
    assert_int_equal(t.tRTPL, 2);
    char buf[256];
    dram_timing_format(&t, buf, sizeof buf);
    assert_string_equal(buf, "nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12:nbkgrp=4:CCDL=3:RTPL=2");
    assert_int_equal(dram_timing_parse("nbk=16:tCL=12", &t, err, sizeof err), -1);
    assert_non_null(strstr(err, "unknown DRAM timing key 'tCL'"));
    assert_int_equal(dram_timing_parse("CL=twelve", &t, err, sizeof err), -1);
    assert_non_null(strstr(err, "CL='twelve'"));
    assert_int_equal(dram_timing_parse("nbk=16:nbkgrp=3", &t, err, sizeof err), -1);
    assert_non_null(strstr(err, "nbkgrp=3"));
}

/* Idle bank: ACT at 0, RD at tRCD, data tCL later for one burst: 12+12+2 = 26.
 * A second read to the same row queued behind it issues tCCD after the first
 * (RD at 14) and completes at 28.  A later read to the open row sees tCL+burst = 14;
 * a read to another row of the bank, once tRAS/tRC are long past, pays
 * tRP+tRCD+tCL+burst = 38. */
static void test_read_latencies(void **state) {
    (void)state;
    dram_config c = gtx480_cfg("frfcfs");
    dram *d = make(&c);
    uint64_t done[8] = {0};
    push(d, 0, MEM_GLOBAL_ACC_R, 64, 3, 7);
    push(d, 1, MEM_GLOBAL_ACC_R, 64, 3, 7);
    run(d, 2, done, NULL);
    assert_int_equal(done[0], RCD + CL + BURST);
    assert_int_equal(done[1], RCD + CCD + CL + BURST);

    idle_until(d, 40);
    push(d, 2, MEM_GLOBAL_ACC_R, 64, 3, 7);
    run(d, 1, done, NULL);
    assert_int_equal(done[2] - 40, CL + BURST);

    idle_until(d, 100);
    push(d, 3, MEM_GLOBAL_ACC_R, 64, 3, 8);
    run(d, 1, done, NULL);
    assert_int_equal(done[3] - 100, RP + RCD + CL + BURST);
    const dram_counters *k = dram_stats(d);
    assert_int_equal(k->activates, 2);
    assert_int_equal(k->precharges, 1);
    assert_int_equal(k->row_hits, 2);
    assert_int_equal(k->row_misses, 2);
    assert_int_equal(k->reads, 4);
    dram_destroy(d);
}

/* Bank groups indexed by the low bank bits (-dram_bnkgrp_indexing_policy 1, as
 * every GTX480-derived config): nbkgrp=4, CCDL=3, so bank b is in group b % 4.
 * Rows 0 of banks 0, 1 and 4 are opened first; then, from an idle channel, reads
 * of bank 0 and bank 1 (groups 0 and 1: tCCD = 2 apart) and reads of bank 0 and
 * bank 4 (both group 0: tCCDL = 3 apart).  Row hits, so each done = issue + CL +
 * BURST and the gap between the pair's completions is the gap between the column
 * commands (bank 0's read is pushed a cycle ahead so it goes first).  The bank
 * filter once took bank 1's group as 1 / (16 / 4) = 0 and held
 * its read to tCCDL. */
static void test_bank_groups_low_bits(void **state) {
    (void)state;
    dram_config c = gtx480_cfg("frfcfs");
    char err[256];
    assert_int_equal(dram_timing_parse("nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12:"
                                       "nbkgrp=4:CCDL=3:RTPL=2", &c.t, err, sizeof err), 0);
    c.bnkgrp_lower_bits = 1;
    dram *d = make(&c);
    uint64_t done[8] = {0};
    push(d, 0, MEM_GLOBAL_ACC_R, 64, 0, 0);
    push(d, 1, MEM_GLOBAL_ACC_R, 64, 1, 0);
    push(d, 2, MEM_GLOBAL_ACC_R, 64, 4, 0);
    run(d, 3, done, NULL);

    idle_until(d, 200);
    push(d, 3, MEM_GLOBAL_ACC_R, 64, 0, 0);
    dram_cycle(d);                         /* bank 0's read goes first */
    push(d, 4, MEM_GLOBAL_ACC_R, 64, 1, 0);
    run(d, 2, done, NULL);
    assert_int_equal(done[4] - done[3], CCD);

    idle_until(d, 400);
    push(d, 5, MEM_GLOBAL_ACC_R, 64, 0, 0);
    dram_cycle(d);
    push(d, 6, MEM_GLOBAL_ACC_R, 64, 4, 0);
    run(d, 2, done, NULL);
    assert_int_equal(done[6] - done[5], 3);
    assert_int_equal(dram_stats(d)->row_hits, 4);
    dram_destroy(d);
}

/* A 128 B request needs two 64 B bursts: RD at 12 and 14, done at 14+12+2 = 28. */
static void test_two_bursts(void **state) {
    (void)state;
    dram_config c = gtx480_cfg("frfcfs");
    dram *d = make(&c);
    uint64_t done[1];
    push(d, 0, MEM_GLOBAL_ACC_R, 128, 0, 0);
    run(d, 1, done, NULL);
    assert_int_equal(done[0], 28);
    assert_int_equal(dram_stats(d)->column_cmds, 2);
    assert_int_equal(dram_stats(d)->data_bus_cycles, 4);
    dram_destroy(d);
}

/* A row conflict right after the first access: PRE waits for tRAS or tRC.
 * RAS=28 RP=5 RC=40: PRE at 28, ACT at max(28+5, 0+40) = 40, RD 52, done 66.
 * RAS=30 RP=12 RC=20: PRE at 30, ACT at 42, RD 54, done 68. */
static void test_tras_trc(void **state) {
    (void)state;
    static const char *const timings[2] = {"RAS=28:RP=5:RC=40", "RAS=30:RP=12:RC=20"};
    static const uint64_t expect[2] = {66, 68};
    for (int i = 0; i < 2; i++) {
        dram_config c = gtx480_cfg("frfcfs");
        char err[256];
        assert_int_equal(dram_timing_parse(timings[i], &c.t, err, sizeof err), 0);
        dram *d = make(&c);
        uint64_t done[2];
        push(d, 0, MEM_GLOBAL_ACC_R, 64, 0, 0);
        push(d, 1, MEM_GLOBAL_ACC_R, 64, 0, 1);
        run(d, 2, done, NULL);
        assert_int_equal(done[0], 26);
        assert_int_equal(done[1], expect[i]);
        dram_destroy(d);
    }
}

/* Two banks: the second ACT waits tRRD=6: RD at 12 and 18, done at 26 and 32. */
static void test_trrd(void **state) {
    (void)state;
    dram_config c = gtx480_cfg("frfcfs");
    dram *d = make(&c);
    uint64_t done[2];
    push(d, 0, MEM_GLOBAL_ACC_R, 64, 0, 0);
    push(d, 1, MEM_GLOBAL_ACC_R, 64, 1, 0);
    run(d, 2, done, NULL);
    assert_int_equal(done[0], 26);
    assert_int_equal(done[1], 32);
    dram_destroy(d);
}

/* Write then read of the same row: WR at 12, data 16..18 (done 18); the read
 * waits tCDLR=5 after the write data: RD at 23, done 37. */
static void test_write_to_read(void **state) {
    (void)state;
    dram_config c = gtx480_cfg("frfcfs");
    dram *d = make(&c);
    uint64_t done[2];
    push(d, 0, MEM_GLOBAL_ACC_W, 64, 0, 0);
    push(d, 1, MEM_GLOBAL_ACC_R, 64, 0, 0);
    run(d, 2, done, NULL);
    assert_int_equal(done[0], 18);
    assert_int_equal(done[1], 37);
    assert_int_equal(dram_stats(d)->writes, 1);
    assert_int_equal(dram_stats(d)->write_bytes, 64);
    dram_destroy(d);
}

/* A (row 0) opens the row; B (row 1, older) and C (row 0, younger) wait.
 * FR-FCFS serves C first: RD at 14, done 28; then B: PRE at 28 (tRAS), ACT 40,
 * RD 52, done 66.  FIFO serves B first (66), then C must reopen row 0: PRE at
 * 68 (tRAS after the ACT at 40), ACT at 80, RD 92, done 106. */
static void test_frfcfs_vs_fifo(void **state) {
    (void)state;
    static const char *const scheds[2] = {"frfcfs", "fifo"};
    for (int i = 0; i < 2; i++) {
        dram_config c = gtx480_cfg(scheds[i]);
        dram *d = make(&c);
        uint64_t done[3], order[3];
        push(d, 0, MEM_GLOBAL_ACC_R, 64, 0, 0);
        push(d, 1, MEM_GLOBAL_ACC_R, 64, 0, 1);
        push(d, 2, MEM_GLOBAL_ACC_R, 64, 0, 0);
        run(d, 3, done, order);
        assert_int_equal(order[0], 0);
        assert_int_equal(done[0], 26);
        if (i == 0) {
            assert_int_equal(order[1], 2);
            assert_int_equal(done[2], 28);
            assert_int_equal(done[1], 66);
            assert_int_equal(dram_stats(d)->row_hits, 1);
        } else {
            assert_int_equal(order[1], 1);
            assert_int_equal(done[1], 66);
            assert_int_equal(done[2], 106);
            assert_int_equal(dram_stats(d)->row_hits, 0);
        }
        dram_destroy(d);
    }
}

static void test_queue_backpressure(void **state) {
    (void)state;
    dram_config c = gtx480_cfg("frfcfs");
    dram *d = make(&c);
    for (uint64_t i = 0; i < 16; i++) push(d, i, MEM_GLOBAL_ACC_R, 64, (uint32_t)(i % 16), 0);
    assert_false(dram_can_accept(d));
    mem_req r = rd(16, 64);
    assert_int_equal(dram_push(d, &r, 0, 0, 0), -1);
    assert_int_equal(dram_stats(d)->push_fails, 1);
    uint64_t done[17];
    run(d, 16, done, NULL);          /* all 16 come back; the refused one can retry */
    assert_int_equal(dram_push(d, &r, 0, 0, 0), 0);
    run(d, 1, done, NULL);
    assert_true(dram_idle(d));
    dram_destroy(d);

    char err[256];
    c.scheduler[0] = 'x';
    assert_null(dram_create(&c, "DRAM[0]", err, sizeof err));
    assert_non_null(strstr(err, "unknown DRAM scheduler"));
}

/* Channel 0 of the GTX480 mapping: a row of a bank holds 4 KB of the channel's
 * addresses (12 column bits) = 32 lines, so 128 B lines in address order open
 * each row once: 31 of 32 requests hit, 4096 lines -> 128 misses, rate 0.96875.  Lines at random over 1 GB almost never share a row. */
static double row_hit_rate(int sequential) {
    addrmap_config ac = {.n_channels = 6, .n_sub_per_channel = 2, .nbanks = 16};
    addrmap m;
    char err[256];
    assert_int_equal(addrmap_init(&m, &ac, err, sizeof err), 0);
    dram_config c = gtx480_cfg("frfcfs");
    dram *d = make(&c);
    uint64_t x = 12345, line = 0;
    int sent = 0, got = 0;
    while (got < 4096) {
        while (sent < 4096 && dram_can_accept(d)) {
            uint64_t addr;
            if (sequential) {
                addr = line++ * 128;
            } else {
                x = x * 6364136223846793005ull + 1442695040888963407ull;
                addr = (x >> 34) * 128 % (1ull << 30);
            }
            addr_loc l;
            addrmap_decode(&m, addr, &l);
            if (l.channel != 0) continue;
            mem_req r = rd((uint64_t)sent, 128);
            r.addr = addr;
            assert_int_equal(dram_push(d, &r, l.bank, l.row, l.col), 0);
            sent++;
        }
        dram_cycle(d);
        mem_req r;
        while (dram_pop(d, &r) == 0) got++;
    }
    const dram_counters *k = dram_stats(d);
    double rate = (double)k->row_hits / (double)(k->row_hits + k->row_misses);
    print_message("%s: row hits %llu misses %llu rate %.4f, %llu cycles\n", sequential ? "sequential" : "random",
                  (unsigned long long)k->row_hits, (unsigned long long)k->row_misses, rate,
                  (unsigned long long)k->cycles);
    if (sequential) {
        assert_int_equal(k->row_hits, 3968);
        assert_int_equal(k->row_misses, 128);
    }
    dram_destroy(d);
    return rate;
}

static void test_row_hit_rate_sequential_vs_random(void **state) {
    (void)state;
    assert_true(row_hit_rate(1) == 0.96875);
    assert_true(row_hit_rate(0) < 0.02);
}

/* Random reads and writes over 4 banks x 4 rows: every request completes exactly
 * once, and the channel's skipping of dead cycles changes nothing: FR-FCFS run
 * with pick_uses_time set (asked every cycle, never sleeping) completes every
 * request at the same cycle. */
static void random_run(const dram_sched_ops *ops, uint64_t *done_at, uint32_t n) {
    dram_config c = gtx480_cfg("frfcfs");
    c.return_queue_size = 4;      /* let the return queue fill up too */
    char err[256];
    dram *d = dram_create_with(&c, ops, "stress", err, sizeof err);
    assert_non_null(d);
    uint64_t x = 99;
    uint32_t sent = 0, got = 0;
    for (int guard = 0; got < n && guard < 1000000; guard++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        if (sent < n && (x >> 61) < 3) {
            uint8_t type = (x >> 20) % 3 ? MEM_GLOBAL_ACC_R : MEM_GLOBAL_ACC_W;
            mem_req r = rd(sent, (uint16_t)((x >> 30) % 2 ? 128 : 32));
            r.type = type;
            if (dram_push(d, &r, (uint32_t)(x >> 40) % 4, (uint32_t)(x >> 50) % 4, 0) == 0) sent++;
        }
        dram_cycle(d);
        mem_req r;
        if ((x >> 35) % 4 && dram_pop(d, &r) == 0) {    /* the consumer is sometimes slow */
            assert_true(r.tag < n);
            assert_int_equal(done_at[r.tag], 0);
            done_at[r.tag] = dram_now(d);
            got++;
        }
    }
    assert_int_equal(got, n);
    assert_true(dram_idle(d));
    dram_destroy(d);
}

static int32_t frfcfs_every_cycle_pick(void *st, const dram_queue *q, uint32_t bank, int64_t open_row, uint64_t now) {
    return dram_sched_find("frfcfs")->pick(st, q, bank, open_row, now);
}

static void test_random_stream_and_sleep_equivalence(void **state) {
    (void)state;
    enum { N = 3000 };
    static uint64_t a[N], b[N];
    memset(a, 0, sizeof a);
    memset(b, 0, sizeof b);
    random_run(dram_sched_find("frfcfs"), a, N);
    dram_sched_ops awake = {.name = "frfcfs_awake", .pick = frfcfs_every_cycle_pick, .pick_uses_time = true};
    random_run(&awake, b, N);
    for (int i = 0; i < N; i++) assert_int_equal(a[i], b[i]);
}

/* ---- a memory partition: L2 slice in front of the channel ---- */

typedef struct {
    addrmap am;
    partition *p;
} part_fixture;

static void part_make(part_fixture *f, const char *l2) {
    addrmap_config ac = {.n_channels = 6, .n_sub_per_channel = 2, .nbanks = 16};
    char err[256];
    assert_int_equal(addrmap_init(&f->am, &ac, err, sizeof err), 0);
    partition_config pc;
    memset(&pc, 0, sizeof pc);
    assert_int_equal(cache_geometry_parse(l2, &pc.l2, err, sizeof err), 0);
    pc.dram = gtx480_cfg("frfcfs");
    pc.rop_latency = 10;
    pc.dram_latency = 5;
    for (int q = 0; q < PART_Q_COUNT; q++) pc.queue_size[q] = 8;
    f->p = partition_create(&pc, &f->am, 0, err, sizeof err);
    if (!f->p) print_error("%s\n", err);
    assert_non_null(f->p);
}

static mem_req line_read(uint64_t addr, uint16_t sm) {
    mem_req r = rd(sm, 128);
    r.addr = addr;
    r.sector_mask = 0xF;
    r.sm = sm;
    return r;
}

/* One L2 and one DRAM cycle per step; returns the step after which slice 0 has
 * a reply (popped into *out), -1 if none within `limit` steps. */
static int64_t part_run(part_fixture *f, int64_t from, int64_t limit, mem_req *out) {
    for (int64_t t = from; t < limit; t++) {
        partition_l2_cycle(f->p);
        partition_dram_cycle(f->p);
        const mem_req *r = partition_reply_peek(f->p, 0);
        if (r) {
            *out = *r;
            partition_reply_pop(f->p, 0);
            return t;
        }
    }
    return -1;
}

/* Address 0 is channel 0, slice 0.  A miss: ROP 10, +1 to leave the L2 miss queue,
 * +5 dram_latency, then 128 B from an idle bank: tRCD 12 + two bursts (RD at +12
 * and +14) + tCL 12 + burst 2 = 28; the fill answers in that cycle: step 44.
 * The same line again hits: the ROP delay only (10). */
static void test_partition_l2_miss_then_hit(void **state) {
    (void)state;
    part_fixture f;
    part_make(&f, "N:64:128:8,L:B:m:W:L,A:32:4,4:0,32");
    mem_req a = line_read(0x0, 1), out;
    assert_int_equal(partition_push(f.p, 0, &a), 0);
    assert_int_equal(part_run(&f, 0, 1000, &out), 44);
    assert_true(out.flags & MEM_REQ_REPLY);
    assert_int_equal(out.sm, 1);
    assert_int_equal(mem_packet_bytes(&out), 8 + 128);
    while (partition_l2_now(f.p) < 50) {
        partition_l2_cycle(f.p);
        partition_dram_cycle(f.p);
    }
    assert_int_equal(partition_push(f.p, 0, &a), 0);
    assert_int_equal(part_run(&f, 50, 1000, &out), 60);
    assert_int_equal(cache_total(partition_l2(f.p, 0), CACHE_HIT), 1);
    assert_int_equal(cache_total(partition_l2(f.p, 0), CACHE_MISS), 1);
    assert_true(partition_idle(f.p));
    partition_destroy(f.p);
}

/* The first channel-0 line at or after `from` whose L2 slice is `slice`. */
static uint64_t line_in_slice(const part_fixture *f, uint64_t from, uint32_t slice) {
    for (uint64_t a = from;; a += 128) {
        addr_loc l;
        addrmap_decode(&f->am, a, &l);
        if (l.channel == 0 && l.slice == slice) return a;
    }
}

/* Step until both slices have answered `want` requests in all. */
static void part_drain(part_fixture *f, int want) {
    int got = 0;
    for (int t = 0; t < 5000 && got < want; t++) {
        partition_l2_cycle(f->p);
        partition_dram_cycle(f->p);
        for (uint32_t s = 0; s < 2; s++)
            while (partition_reply_peek(f->p, s)) partition_reply_pop(f->p, s), got++;
    }
    assert_int_equal(got, want);
}

/* Compulsory misses in a sectored L2, whose slices see each 128 B read as four
 * 32 B sector accesses, the two slices' accesses interleaved cycle by cycle:
 * lines A (slice 0) and B (slice 1) read whole, then A again and C (slice 0).
 * By hand: A, B and C each miss first (3 compulsory misses); their other three
 * sectors miss too but are not first references (12 sector misses); A's second
 * read hits all four sectors; 4 + 4 + 4 + 4 = 16 replies. */
static void test_partition_compulsory_misses_per_line(void **state) {
    (void)state;
    part_fixture f;
    part_make(&f, "S:64:128:8,L:B:m:W:L,A:32:4,4:0,32");
    uint64_t A = line_in_slice(&f, 0, 0), B = line_in_slice(&f, 0, 1), C = line_in_slice(&f, A + 128, 0);
    mem_req a = line_read(A, 1), b = line_read(B, 2), c = line_read(C, 3);
    assert_int_equal(partition_push(f.p, 0, &a), 0);
    assert_int_equal(partition_push(f.p, 1, &b), 0);
    part_drain(&f, 8);
    assert_int_equal(partition_push(f.p, 0, &a), 0);
    assert_int_equal(partition_push(f.p, 0, &c), 0);
    part_drain(&f, 8);
    assert_int_equal(partition_stats(f.p)->compulsory_misses, 3);
    uint64_t miss = cache_total(partition_l2(f.p, 0), CACHE_MISS) + cache_total(partition_l2(f.p, 1), CACHE_MISS);
    assert_int_equal(miss, 12);
    assert_int_equal(cache_total(partition_l2(f.p, 0), CACHE_HIT), 4);
    assert_true(partition_idle(f.p));
    partition_destroy(f.p);
}

/* Two SMs read one line back to back: one DRAM read, one L2 pending hit, two replies. */
static void test_partition_merges_misses(void **state) {
    (void)state;
    part_fixture f;
    part_make(&f, "N:64:128:8,L:B:m:W:L,A:32:4,4:0,32");
    mem_req a = line_read(0xC00, 1), b = line_read(0xC00, 2), out;
    assert_int_equal(partition_push(f.p, 0, &a), 0);
    assert_int_equal(partition_push(f.p, 0, &b), 0);
    int64_t t = part_run(&f, 0, 1000, &out);
    assert_true(t > 0);
    assert_int_equal(out.sm, 1);
    assert_int_equal(part_run(&f, t + 1, 1000, &out), t + 1);   /* the merged one, next cycle */
    assert_int_equal(out.sm, 2);
    assert_int_equal(dram_stats(partition_dram(f.p))->reads, 1);
    assert_int_equal(cache_total(partition_l2(f.p, 0), CACHE_HIT_RESERVED), 1);
    partition_destroy(f.p);
}

/* A 2-line L2: two writes allocate dirty lines (acknowledged, no DRAM traffic);
 * a read of a third line evicts the older one: one DRAM write-back, one DRAM read. */
static void test_partition_writes_and_writeback(void **state) {
    (void)state;
    part_fixture f;
    part_make(&f, "N:1:128:2,L:B:m:W:L,A:8:4,8");
    mem_req w1 = line_read(0x0, 1), w2 = line_read(0xC00, 1), r = line_read(0x1800, 1), out;
    w1.type = w2.type = MEM_GLOBAL_ACC_W;
    assert_int_equal(partition_push(f.p, 0, &w1), 0);
    assert_int_equal(partition_push(f.p, 0, &w2), 0);
    assert_int_equal(partition_push(f.p, 0, &r), 0);
    int replies = 0, acks = 0;
    for (int64_t t = 0; replies < 3 && t < 1000;) {
        t = part_run(&f, t, 1000, &out) + 1;
        replies++;
        acks += out.type == MEM_GLOBAL_ACC_W;
        if (out.type == MEM_GLOBAL_ACC_W) assert_int_equal(mem_packet_bytes(&out), 8);
    }
    assert_int_equal(replies, 3);
    assert_int_equal(acks, 2);
    for (int i = 0; i < 200; i++) {
        partition_l2_cycle(f.p);
        partition_dram_cycle(f.p);
    }
    assert_true(partition_idle(f.p));
    assert_int_equal(dram_stats(partition_dram(f.p))->writes, 1);
    assert_int_equal(dram_stats(partition_dram(f.p))->reads, 1);
    assert_int_equal(cache_stats(partition_l2(f.p, 0))->writebacks, 1);
    assert_null(cache_probe(partition_l2(f.p, 0), 0x0));
    partition_destroy(f.p);
}

/* The ROP delay is a pipeline, not a throttle: with ROP 120 and 8-entry queues,
 * 200 L2 hits offered one per cycle all return by cycle 120 + 200 + a few
 * (a queue of 8 that also held the delay would need 200 / 8 x 120 = 3000). */
static void test_partition_rop_is_pipelined(void **state) {
    (void)state;
    addrmap_config ac = {.n_channels = 6, .n_sub_per_channel = 2, .nbanks = 16};
    char err[256];
    addrmap am;
    assert_int_equal(addrmap_init(&am, &ac, err, sizeof err), 0);
    partition_config pc;
    memset(&pc, 0, sizeof pc);
    assert_int_equal(cache_geometry_parse("N:64:128:8,L:B:m:W:L,A:32:4,4:0,32", &pc.l2, err, sizeof err), 0);
    pc.dram = gtx480_cfg("frfcfs");
    pc.rop_latency = 120;
    pc.dram_latency = 100;
    for (int q = 0; q < PART_Q_COUNT; q++) pc.queue_size[q] = 8;
    partition *p = partition_create(&pc, &am, 0, err, sizeof err);
    assert_non_null(p);
    /* Warm one line in slice 0, then hit it 200 times. */
    mem_req a = line_read(0x0, 1), out;
    part_fixture f = {.am = am, .p = p};
    assert_int_equal(partition_push(p, 0, &a), 0);
    int64_t t0 = part_run(&f, 0, 10000, &out);
    assert_true(t0 > 0);
    int pushed = 0, got = 0;
    int64_t t = t0 + 1, last = 0;
    for (; got < 200 && t < t0 + 5000; t++) {
        if (pushed < 200) {
            assert_true(partition_can_accept(p, 0));
            assert_int_equal(partition_push(p, 0, &a), 0);
            pushed++;
        }
        partition_l2_cycle(p);
        partition_dram_cycle(p);
        while (partition_reply_peek(p, 0)) {
            partition_reply_pop(p, 0);
            got++;
            last = t;
        }
    }
    assert_int_equal(got, 200);
    assert_true(last - t0 <= 120 + 200 + 2);
    assert_int_equal(cache_total(partition_l2(p, 0), CACHE_HIT), 200);
    partition_destroy(p);
}

/* -dram_dual_bus_interface 1 (HBM's separate row and column command buses):
 * a row command and a column command issue in the same cycle.  Bank 0's row 7
 * is opened by a first read (ACT at 0, RD at 12: the round robin then starts
 * at bank 1).  At cycle 40 a row hit of bank 0 and a read of idle bank 1 come
 * in.  One bus: bank 1's ACT goes first at 40, bank 0's RD at 41 (done 41 + 12
 * + 2 = 55).  Two buses: both at 40 (done 54).  Bank 1's RD waits for tRCD
 * either way: at 52, done 66. */
static void test_dual_bus(void **state) {
    (void)state;
    uint64_t hit_done[2], other_done[2];
    for (int dual = 0; dual <= 1; dual++) {
        dram_config c = gtx480_cfg("frfcfs");
        c.dual_bus = dual;
        dram *d = make(&c);
        uint64_t done[4] = {0};
        push(d, 0, MEM_GLOBAL_ACC_R, 64, 0, 7);
        run(d, 1, done, NULL);
        assert_int_equal(done[0], RCD + CL + BURST);
        idle_until(d, 40);
        push(d, 1, MEM_GLOBAL_ACC_R, 64, 0, 7);
        push(d, 2, MEM_GLOBAL_ACC_R, 64, 1, 3);
        run(d, 2, done, NULL);
        hit_done[dual] = done[1];
        other_done[dual] = done[2];
        assert_int_equal(dram_stats(d)->activates, 2);
        dram_destroy(d);
    }
    assert_int_equal(hit_done[0], 41 + CL + BURST);
    assert_int_equal(hit_done[1], 40 + CL + BURST);
    assert_int_equal(other_done[0], 40 + RCD + CL + BURST);
    assert_int_equal(other_done[1], 40 + RCD + CL + BURST);
}

/* -dram_bw_scale 2, the regime table's 2x-DRAM-bandwidth probe, on fermi_gtx480:
 * the command clock doubles (924 -> 1848 MHz) and every delay takes twice the
 * cycles, so one read of an idle bank takes 24+24+2 = 50 cycles (27.1 ns)
 * against 12+12+2 = 26 (28.1 ns): the same latency but for half a burst.  tCCD,
 * tCCDL and the burst keep their cycles, so 64 row-hit reads of one bank back
 * to back, tCCDL = 3 apart (one bank group), finish at 24+63x3+24+2 = 239
 * cycles (129.3 ns) against 12+189+12+2 = 215 (232.7 ns).  The probe's first
 * form halved the burst only: tCCD(L) still spaced the reads, and the stream
 * took as long as before. */
static void test_dram_bw_scale(void **state) {
    (void)state;
    char err[512];
    sim_config c;
    load_shipped(&c, "fermi_gtx480");
    uint64_t last[2], first[2];
    for (uint32_t scale = 1; scale <= 2; scale++) {
        c.dram_bw_scale = scale;
        assert_int_equal(config_finalize(&c, err, sizeof err), 0);
        gpu_params gp;
        assert_int_equal(gpu_params_from_config(&c, &gp, err, sizeof err), 0);
        assert_int_equal(gp.clock_khz[CLK_DRAM], 924000 * scale);
        assert_int_equal(gp.clock_khz[CLK_CORE], 700000);
        const dram_timing *t = &gp.part.dram.t;
        assert_int_equal(t->tRCD, RCD * scale);
        assert_int_equal(t->tCL, CL * scale);
        assert_int_equal(t->tRP, RP * scale);
        assert_int_equal(t->tRC, 40 * scale);
        assert_int_equal(t->tCCD, CCD);
        assert_int_equal(t->tCCDL, 3);
        assert_int_equal(dram_burst_cycles(&gp.part.dram), BURST);
        dram *d = make(&gp.part.dram);
        uint64_t done[64] = {0};
        for (uint64_t i = 0; i < 64; i++) push(d, i, MEM_GLOBAL_ACC_R, 64, 0, 5);
        run(d, 64, done, NULL);
        first[scale - 1] = done[0];
        last[scale - 1] = done[63];
        dram_destroy(d);
    }
    assert_int_equal(first[0], RCD + CL + BURST);
    assert_int_equal(first[1], 2 * (RCD + CL) + BURST);
    assert_int_equal(last[0], RCD + 63 * 3 + CL + BURST);
    assert_int_equal(last[1], 2 * (RCD + CL) + 63 * 3 + BURST);
    /* a scaled DRAM clock past the model's 100 GHz limit is refused by name */
    c.clock_mhz[CLOCK_DRAM] = 90000.0;
    c.dram_bw_scale = 2;
    assert_int_equal(config_finalize(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "-dram_bw_scale 2"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_timing_string),
        cmocka_unit_test(test_read_latencies),
        cmocka_unit_test(test_bank_groups_low_bits),
        cmocka_unit_test(test_two_bursts),
        cmocka_unit_test(test_tras_trc),
        cmocka_unit_test(test_trrd),
        cmocka_unit_test(test_write_to_read),
        cmocka_unit_test(test_frfcfs_vs_fifo),
        cmocka_unit_test(test_queue_backpressure),
        cmocka_unit_test(test_row_hit_rate_sequential_vs_random),
        cmocka_unit_test(test_random_stream_and_sleep_equivalence),
        cmocka_unit_test(test_partition_l2_miss_then_hit),
        cmocka_unit_test(test_partition_merges_misses),
        cmocka_unit_test(test_partition_compulsory_misses_per_line),
        cmocka_unit_test(test_partition_writes_and_writeback),
        cmocka_unit_test(test_partition_rop_is_pipelined),
        cmocka_unit_test(test_dram_bw_scale),
        cmocka_unit_test(test_dual_bus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
