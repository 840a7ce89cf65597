// The locsim microbenchmarks as a standalone CUDA program: the kernels of
// kernel.cu (the very source of the PTX `locsim ubench` runs, included below,
// so the two cannot drift apart) with a host side that takes the same
// measurements the same way and prints one line per figure, named and in the
// units of `locsim ubench`'s "measured" column:
//
//     lat.iadd 10.00
//
// so that a figure taken on a real GPU can be put beside the simulator's,
// figure for figure.  Build it with tools/ubench-cuda/build.sh; run it on a GPU
// (`./ubench-cuda`) or in the simulator (`locsim exec -- ./ubench-cuda`).
//
// What it measures like `locsim ubench` does (same kernel, launch shape, trip
// counts R1/R2 and formula, kernel.cu's header):
//   lat.<op>, thr.<op>               per-opcode dependent chains / 8 warps per scheduler
//                                    (at least 16) x 16 chains
//   thr.sub.spread, thr.sub.packed   N warps on N schedulers / 1 working warp on one
//   lat.smem.Nway, thr.smem.Nway     shared-memory bank conflicts
//   lat.l1d.hit                      chase over 16 lines of 128 B
//   lat.const.hit                    chase over 8 constant-cache lines 64 B apart
//   lat.l2.hit                       chase over more lines than the L1 holds (below)
// What differs, and why:
//   lat.l2.hit   `locsim ubench` chases 512 lines (64 KB), more than a Fermi L1D
//                holds; a Volta-or-later L1 holds up to 256 KB, so here the chain
//                is sized from the device: at least 512 lines and twice the
//                SM's shared memory plus 64 KB (the L1 and shared memory share
//                one array there), and at most half the L2.  On an LRU L1 that
//                is smaller than the chain every load misses it either way.
//   lat.dram.chase  not a `locsim ubench` row: ubench's lat.dram.rowmiss and
//                rowhit pick lines of one DRAM bank from the simulator's address
//                map, which a real GPU does not reveal.  This row chases lines
//                4 KB + 128 B apart after evicting the L2, which on hardware is
//                mostly row misses spread over channels and banks.
//   lat.numa.*, thr.numa.*  multi-module configurations only: not here.
//
// Options: --only PREFIX[,PREFIX...] (as `locsim ubench --only`).
// Output: lines starting with '#' describe the device; every other line is
// "<row> <figure>", the figure in core cycles (clock64 ticks) per operation,
// or per warp instruction for thr rows.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel.cu"

#define SPAN (LONG - SHORT)  // operations added per loop trip (kernel.cu)
#define THR_WARPS 16         // warps of the throughput kernels (one CTA); thr.<op>: see alu_warps

static long long *d_out;     // clock readings: 3 per warp
static char *d_sink;         // results the kernels must not drop
static char *d_buf;          // pointer-chase buffer
static size_t buf_bytes;
static const char *only;     // --only prefixes, or NULL

static void check(cudaError_t e, const char *what) {
    if (e != cudaSuccess) {
        fprintf(stderr, "ubench-cuda: %s: %s\n", what, cudaGetErrorString(e));
        exit(2);
    }
}

// --only: a comma-separated list of name prefixes.
static int wanted(const char *name) {
    if (!only) return 1;
    for (const char *p = only; *p;) {
        size_t n = strcspn(p, ",");
        if (n && strncmp(name, p, n) == 0) return 1;
        p += n;
        if (*p == ',') p++;
    }
    return 0;
}

static void row(const char *name, double v) {
    printf("%s %.2f\n", name, v);
    fflush(stdout);
}

// Launch `k` on one CTA of `threads` with `reps` trips and return
// (t_long - t_short) of the last pass, each clock reading the earliest over the
// CTA's warps (kernel.cu's TIMED_PAIR).
template <typename K, typename... A>
static long long run_once(K k, unsigned threads, int reps, A... a) {
    unsigned warps = (threads + 31) / 32;
    long long t[3 * 32];
    k<<<1, threads>>>(d_out, reps, a...);
    check(cudaGetLastError(), "launch");
    check(cudaDeviceSynchronize(), "kernel");
    check(cudaMemcpy(t, d_out, 3 * warps * sizeof *t, cudaMemcpyDeviceToHost), "copy back");
    long long m[3];
    for (int j = 0; j < 3; j++) {
        m[j] = t[j];
        for (unsigned w = 1; w < warps; w++)
            if (t[3 * w + j] < m[j]) m[j] = t[3 * w + j];
    }
    return (m[2] - m[1]) - (m[1] - m[0]);
}

// Cycles per operation: run with r2 trips, then r1, and divide the growth by
// the operations added per warp and by `per` (warps sharing the pipeline).
template <typename K, typename... A>
static double measure(K k, unsigned threads, int r1, int r2, double per, A... a) {
    long long d2 = run_once(k, threads, r2, a...);
    long long d1 = run_once(k, threads, r1, a...);
    return (double)(d2 - d1) / ((double)(r2 - r1) * SPAN * per);
}

// ---- arithmetic: the order and operands of locsim ubench's rows ----

typedef void (*int_k)(long long *, int, int, int, int *);
typedef void (*f32_k)(long long *, int, float, float, float *);
typedef void (*f64_k)(long long *, int, double, double, double *);

struct alu_op {
    const char *name;
    int_k ilat, ithr;
    f32_k flat, fthr;
    f64_k dlat, dthr;
};

#define OP_I(n) {#n, lat_##n, thr_##n, 0, 0, 0, 0}
#define OP_F(n) {#n, 0, 0, lat_##n, thr_##n, 0, 0}
#define OP_D(n) {#n, 0, 0, 0, 0, lat_##n, thr_##n}

static const alu_op alu_ops[] = {
    OP_I(iadd), OP_I(imax), OP_I(imul), OP_I(imad), OP_I(idiv), OP_F(fadd), OP_F(fmax),
    OP_F(fmul), OP_F(ffma), OP_F(fdiv), OP_D(dadd), OP_D(dmax), OP_D(dmul), OP_D(dfma),
    OP_D(ddiv), OP_F(sin),  OP_F(rcp),  OP_F(sqrt), OP_D(drcp), OP_D(dsqrt), OP_I(shfl),
};

// The warps a thr kernel can run in one CTA: `warps`, or fewer where its
// registers do not fit that many threads (thr_dmax, thr_drcp, thr_dsqrt and
// thr_ddiv need 78-92 registers on sm_90: 1024 threads would ask for more than
// the SM's 65,536, and the launch failed on an H200), said on a '#' line.
template <typename K>
static unsigned fit_warps(K k, unsigned warps, const char *name) {
    cudaFuncAttributes a;
    check(cudaFuncGetAttributes(&a, k), "cudaFuncGetAttributes");
    unsigned most = (unsigned)a.maxThreadsPerBlock / 32;
    if (most >= warps) return warps;
    printf("# thr.%s: %u warps, not %u (%d registers a thread)\n", name, most, warps, a.numRegs);
    return most;
}

// thr = 0: latency (one warp, R 1..3); 1: throughput (`warps` warps, R 2..4).
// b is the neutral operand (x op 1; shfl.down by 0: each lane its own): only timing matters.
static double alu_measure(const alu_op *op, int thr, unsigned warps) {
    if (thr) {
        if (op->ithr) warps = fit_warps(op->ithr, warps, op->name);
        else if (op->fthr) warps = fit_warps(op->fthr, warps, op->name);
        else warps = fit_warps(op->dthr, warps, op->name);
    }
    unsigned threads = thr ? warps * 32 : 32;
    int r1 = thr ? 2 : 1, r2 = thr ? 4 : 3;
    double per = thr ? warps : 1;
    if (op->ilat) {
        int b = strcmp(op->name, "shfl") ? 1 : 0;
        return measure(thr ? op->ithr : op->ilat, threads, r1, r2, per, 3, b, (int *)d_sink);
    }
    if (op->flat) return measure(thr ? op->fthr : op->flat, threads, r1, r2, per, 1.5f, 1.0f, (float *)d_sink);
    return measure(thr ? op->dthr : op->dlat, threads, r1, r2, per, 1.5, 1.0, (double *)d_sink);
}

// Warp schedulers per SM, which the runtime does not report: 2 on Fermi (sm_2x),
// 4 from Kepler on (the architectures' whitepapers).
static unsigned schedulers(const cudaDeviceProp *p) { return p->major >= 3 ? 4 : 2; }

// Warps of the thr.<op> kernels, as `locsim ubench` takes them (its alu_warps
// says why): 8 per scheduler, at least 16, at most 32.
static unsigned alu_warps(const cudaDeviceProp *p) {
    unsigned w = 8 * schedulers(p);
    return w < THR_WARPS ? THR_WARPS : w > 32 ? 32 : w;
}

// thr.sub.spread / thr.sub.packed (locsim ubench's sub-core rows): f32 adds of N
// warps (N = schedulers), one per scheduler, all working or only warp 0 (all the
// work on one scheduler; `locsim ubench`'s sub_core_row says why one warp); cycles
// per warp instruction over the working warps.
static void sub_rows(const cudaDeviceProp *p) {
    unsigned n = schedulers(p);
    for (int packed = 0; packed < 2; packed++) {
        const char *name = packed ? "thr.sub.packed" : "thr.sub.spread";
        if (!wanted(name)) continue;
        int stride = packed ? (int)n : 1;
        row(name, measure(part_fadd, n * 32, 2, 4, packed ? 1 : n, 1.5f, 1.0f, (float *)d_sink, stride));
    }
}

static void alu_rows(int thr, unsigned warps) {
    char name[32];
    for (size_t i = 0; i < sizeof alu_ops / sizeof *alu_ops; i++) {
        snprintf(name, sizeof name, "%s.%s", thr ? "thr" : "lat", alu_ops[i].name);
        if (wanted(name)) row(name, alu_measure(&alu_ops[i], thr, warps));
    }
}

// ---- shared memory: n-way bank conflicts ----

static void smem_rows(void) {
    static const int ways[] = {1, 2, 4, 8, 16, 32};
    char name[32];
    for (int thr = 0; thr < 2; thr++)
        for (size_t i = 0; i < sizeof ways / sizeof *ways; i++) {
            snprintf(name, sizeof name, "%s.smem.%dway", thr ? "thr" : "lat", ways[i]);
            if (!wanted(name)) continue;
            double v = thr ? measure(stream_shared, THR_WARPS * 32, 1, 3, THR_WARPS, ways[i], (unsigned *)d_sink)
                           : measure(chase_shared, 32, 1, 3, 1, ways[i], (unsigned *)d_sink);
            row(name, v);
        }
}

// ---- pointer chasing ----

// A cyclic chain through n offsets of the buffer: each element holds the
// device address of the next.
static void chain_write(const size_t *off, size_t n) {
    for (size_t i = 0; i < n; i++) {
        unsigned long long next = (unsigned long long)(d_buf + off[(i + 1) % n]);
        check(cudaMemcpy(d_buf + off[i], &next, sizeof next, cudaMemcpyHostToDevice), "chain");
    }
}

static double chase(unsigned long long start, int r1, int r2) {
    return measure(chase_global, 1, r1, r2, 1, start, (unsigned long long *)d_sink);
}

enum { LINE = 128 };  // L1D line of every NVIDIA GPU since Fermi (and of locsim's configs)

static void l1_row(void) {
    if (!wanted("lat.l1d.hit")) return;
    size_t off[16];  // 2 KB: fits any L1D; pass 1 warms it
    for (int i = 0; i < 16; i++) off[i] = (size_t)i * LINE;
    chain_write(off, 16);
    row("lat.l1d.hit", chase((unsigned long long)d_buf, 1, 3));
}

static void const_row(void) {
    if (!wanted("lat.const.hit")) return;
    unsigned long long base[2];
    c_chain_base<<<1, 1>>>((unsigned long long *)d_out);
    check(cudaDeviceSynchronize(), "c_chain_base");
    check(cudaMemcpy(base, d_out, sizeof base, cudaMemcpyDeviceToHost), "copy back");
    // 8 lines of 64 B (the constant cache line of locsim's configurations), cyclic
    enum { STEP = 64 / 8, N = 8 };
    static unsigned long long chain[256];
    for (unsigned i = 0; i < N; i++) chain[i * STEP] = base[0] + (unsigned long long)((i + 1) % N) * STEP * 8;
    check(cudaMemcpyToSymbol(c_chain, chain, sizeof chain), "c_chain");
    double v = measure(chase_const, 1, 1, 3, 1, base[0], (unsigned long long *)d_sink);
    row("lat.const.hit", v);
}

// The lat.l2.hit chain's length in lines (header): a multiple of 128 so that
// the first run (R2 = n/64 trips: 128 x R2 loads = two turns) brings every line
// into the L2 and the timed pass of each run turns once more.
static size_t l2_chain_lines(const cudaDeviceProp *p) {
    size_t want = 2 * ((size_t)p->sharedMemPerMultiprocessor + 65536) / LINE;
    size_t n = want < 512 ? 512 : (want + 127) / 128 * 128;
    if (p->l2CacheSize > 0 && n * LINE > (size_t)p->l2CacheSize / 2) {
        fprintf(stderr, "ubench-cuda: lat.l2.hit: a chain of %zu lines does not fit half the %d-byte L2\n", n,
                p->l2CacheSize);
        exit(2);
    }
    return n;
}

static void l2_row(const cudaDeviceProp *p) {
    if (!wanted("lat.l2.hit")) return;
    size_t n = l2_chain_lines(p);
    size_t *off = (size_t *)malloc(n * sizeof *off);
    for (size_t i = 0; i < n; i++) off[i] = i * LINE;
    chain_write(off, n);
    free(off);
    row("lat.l2.hit", chase((unsigned long long)d_buf, (int)(n / 128), (int)(n / 64)));
}

// Evict the L2: read one word of every line of a region four times its size,
// past the chains' lines (kernel.cu's flush_l2).
static size_t flush_lines(const cudaDeviceProp *p) { return 4 * (size_t)p->l2CacheSize / LINE; }

static void dram_row(const cudaDeviceProp *p) {
    if (!wanted("lat.dram.chase")) return;
    enum { N = 384, STRIDE = 4096 + LINE };   // 128 x (R1 + R2) loads, R1 = 1, R2 = 2
    size_t region = (size_t)N * STRIDE, off[N];
    for (size_t i = 0; i < N; i++) off[i] = region + i * STRIDE;  // past the L1/L2 chains
    chain_write(off, N);
    unsigned words = LINE / 4;
    size_t lines = flush_lines(p);
    const unsigned *flush = (const unsigned *)(d_buf + 2 * region);
    flush_l2<<<(unsigned)((lines + 255) / 256), 256>>>(flush, words, (unsigned *)d_sink);
    check(cudaDeviceSynchronize(), "flush_l2");
    // as locsim ubench's DRAM rows: R2 = 2 from the chain's start, then R1 = 1
    // from position 256 (R2's 256 loads are still in the L2): every timed load
    // reaches a line nothing has read since the flush
    long long d2 = run_once(chase_global, 1, 2, (unsigned long long)(d_buf + off[0]), (unsigned long long *)d_sink);
    long long d1 = run_once(chase_global, 1, 1, (unsigned long long)(d_buf + off[256]), (unsigned long long *)d_sink);
    row("lat.dram.chase", (double)(d2 - d1) / SPAN);
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--only") && i + 1 < argc) {
            only = argv[++i];
        } else {
            fprintf(stderr, "usage: %s [--only PREFIX[,PREFIX...]]\n", argv[0]);
            return 2;
        }
    }
    cudaDeviceProp p;
    check(cudaGetDeviceProperties(&p, 0), "device 0");
    printf("# ubench-cuda on %s (sm_%d%d), %d SMs, L2 %d bytes, %zu bytes shared memory per SM\n", p.name, p.major,
           p.minor, p.multiProcessorCount, p.l2CacheSize, p.sharedMemPerMultiprocessor);
    printf("# figures in core cycles (clock64) per operation; thr rows per warp instruction of the SM\n");
    size_t l2_bytes = wanted("lat.l2.hit") ? l2_chain_lines(&p) * LINE : 0;
    size_t dram_bytes = wanted("lat.dram.chase") ? 2 * (size_t)384 * (4096 + LINE) + flush_lines(&p) * LINE : 0;
    buf_bytes = l2_bytes > dram_bytes ? l2_bytes : dram_bytes;
    if (buf_bytes < 4096) buf_bytes = 4096;
    check(cudaMalloc(&d_out, 3 * 32 * sizeof(long long)), "cudaMalloc");
    check(cudaMalloc(&d_sink, 8 * 1024), "cudaMalloc");
    check(cudaMalloc(&d_buf, buf_bytes), "cudaMalloc");
    alu_rows(0, 1);
    alu_rows(1, alu_warps(&p));
    sub_rows(&p);
    smem_rows();
    l1_row();
    const_row();
    l2_row(&p);
    dram_row(&p);
    cudaFree(d_buf);
    cudaFree(d_sink);
    cudaFree(d_out);
    return 0;
}
