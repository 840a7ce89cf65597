// locsim microbenchmarks: kernels that measure the latencies and throughputs a
// configuration sets, in the style of published GPU microbenchmarking (dependent
// chains timed with %clock64, pointer chasing through the memory hierarchy,
// shared-memory bank-conflict patterns).  Run by `locsim ubench`
// (src/cli/cmd_ubench.c), which also works out what each figure should be.
//
// Method (every kernel): the timed work is two loops with the same structure and
// the same trip count `reps`, whose bodies hold SHORT and LONG copies of the
// operation under test.  Each loop is timed with %clock64; the whole sequence runs
// twice and only the second pass is kept, so instruction-cache and data-cache cold
// misses fall in the first pass.  The host runs each kernel with two trip counts
// R1 < R2 and takes, per operation,
//     ((t_long - t_short)(R2) - (t_long - t_short)(R1)) / ((R2 - R1) * (LONG - SHORT))
// which cancels everything the loops share (clock reads, loop counter and branch,
// the wait for the previous loop's last result, barriers) and any difference in
// how the two loops are entered.
//
// The operations are written as inline PTX so that nvcc cannot fold a dependent
// chain (x = x + y, 48 times, would become one multiply) or reorder it; floating
// adds and multiplies carry .rn, which the PTX ISA says the code generator treats
// conservatively (without it ptxas may contract or reassociate them: thr.fadd and
// thr.fmul read 0.00 cycles on an H200).
//
// Build: tools/gen-ptx.sh (nvcc -ptx -O3 -arch=compute_75); the PTX is committed.

#define SHORT 16   // operations per loop body, short copy
#define LONG 48    // ... long copy

#define R2(s) s s
#define R4(s) R2(R2(s))
#define R8(s) R2(R4(s))
#define R16(s) R2(R8(s))
#define R48(s) R16(s) R16(s) R16(s)

// Two timed loops per pass, two passes.  Lane 0 of every warp writes the three
// clock readings of the last pass to out[3 * warp ...]: after a barrier the
// scheduler may run one warp for a while before another reads its clock, so the
// host takes, for each reading, the earliest over the warps (the first
// instruction issued after the barrier's release).
#define TIMED_PAIR(BODY_SHORT, BODY_LONG, SYNC)                         \
    long long t0 = 0, t1 = 0, t2 = 0;                                   \
    _Pragma("unroll 1")                                                 \
    for (int pass = 0; pass < 2; pass++) {                              \
        SYNC;                                                           \
        t0 = clock64();                                                 \
        _Pragma("unroll 1")                                             \
        for (int r = 0; r < reps; r++) { BODY_SHORT }                   \
        SYNC;                                                           \
        t1 = clock64();                                                 \
        _Pragma("unroll 1")                                             \
        for (int r = 0; r < reps; r++) { BODY_LONG }                    \
        SYNC;                                                           \
        t2 = clock64();                                                 \
    }                                                                   \
    if ((threadIdx.x & 31) == 0) {                                      \
        long long *o = out + 3 * (threadIdx.x >> 5);                    \
        o[0] = t0;                                                      \
        o[1] = t1;                                                      \
        o[2] = t2;                                                      \
    }

#define NOSYNC do {} while (0)
#define BARRIER __syncthreads()

// ---- arithmetic: latency (one warp, one dependent chain) and throughput (many
// warps, 16 independent chains per thread: enough that even the last warps of a
// loop, which a greedy scheduler leaves behind, keep the pipeline busy) ----

// STEP(x) is one operation on x (the operand b is in scope).
#define STEP8(STEP) STEP(x0) STEP(x1) STEP(x2) STEP(x3) STEP(x4) STEP(x5) STEP(x6) STEP(x7)
#define STEP16(STEP) STEP8(STEP) STEP(x8) STEP(x9) STEP(x10) STEP(x11) STEP(x12) STEP(x13) STEP(x14) STEP(x15)

#define ALU_KERNELS(NAME, T, STEP)                                                        \
    extern "C" __global__ void lat_##NAME(long long *out, int reps, T a, T b, T *sink) {  \
        T x = a;                                                                         \
        TIMED_PAIR(R16(STEP(x)), R48(STEP(x)), NOSYNC)                                   \
        sink[threadIdx.x] = x;                                                           \
    }                                                                                    \
    extern "C" __global__ void thr_##NAME(long long *out, int reps, T a, T b, T *sink) {  \
        T x0 = a, x1 = a + b, x2 = a + 2 * b, x3 = a + 3 * b;                            \
        T x4 = a + 4 * b, x5 = a + 5 * b, x6 = a + 6 * b, x7 = a + 7 * b;                \
        T x8 = a + 8 * b, x9 = a + 9 * b, x10 = a + 10 * b, x11 = a + 11 * b;            \
        T x12 = a + 12 * b, x13 = a + 13 * b, x14 = a + 14 * b, x15 = a + 15 * b;        \
        TIMED_PAIR(STEP16(STEP), STEP16(STEP) STEP16(STEP) STEP16(STEP), BARRIER)        \
        sink[blockIdx.x * blockDim.x + threadIdx.x] = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7 + \
            x8 + x9 + x10 + x11 + x12 + x13 + x14 + x15;                                  \
    }

// One operation of each kind: x = x op b (binary), x = op x (unary).
#define S_IADD(x) asm volatile("add.s32 %0, %0, %1;" : "+r"(x) : "r"(b));
#define S_IMAX(x) asm volatile("max.s32 %0, %0, %1;" : "+r"(x) : "r"(b));
#define S_IMUL(x) asm volatile("mul.lo.s32 %0, %0, %1;" : "+r"(x) : "r"(b));
#define S_IMAD(x) asm volatile("mad.lo.s32 %0, %0, %1, %1;" : "+r"(x) : "r"(b));
#define S_IDIV(x) asm volatile("div.s32 %0, %0, %1;" : "+r"(x) : "r"(b));
#define S_FADD(x) asm volatile("add.rn.f32 %0, %0, %1;" : "+f"(x) : "f"(b));
#define S_FMAX(x) asm volatile("max.f32 %0, %0, %1;" : "+f"(x) : "f"(b));
#define S_FMUL(x) asm volatile("mul.rn.f32 %0, %0, %1;" : "+f"(x) : "f"(b));
#define S_FFMA(x) asm volatile("fma.rn.f32 %0, %0, %1, %1;" : "+f"(x) : "f"(b));
#define S_FDIV(x) asm volatile("div.rn.f32 %0, %0, %1;" : "+f"(x) : "f"(b));
#define S_DADD(x) asm volatile("add.rn.f64 %0, %0, %1;" : "+d"(x) : "d"(b));
#define S_DMAX(x) asm volatile("max.f64 %0, %0, %1;" : "+d"(x) : "d"(b));
#define S_DMUL(x) asm volatile("mul.rn.f64 %0, %0, %1;" : "+d"(x) : "d"(b));
#define S_DFMA(x) asm volatile("fma.rn.f64 %0, %0, %1, %1;" : "+d"(x) : "d"(b));
#define S_DDIV(x) asm volatile("div.rn.f64 %0, %0, %1;" : "+d"(x) : "d"(b));
#define S_SIN(x) asm volatile("sin.approx.f32 %0, %0;" : "+f"(x));
#define S_RCP(x) asm volatile("rcp.approx.f32 %0, %0;" : "+f"(x));
#define S_SQRT(x) asm volatile("sqrt.approx.f32 %0, %0;" : "+f"(x));
#define S_DRCP(x) asm volatile("rcp.rn.f64 %0, %0;" : "+d"(x));
#define S_DSQRT(x) asm volatile("sqrt.rn.f64 %0, %0;" : "+d"(x));
// Every lane reads lane l + b of x (b = 0: its own): a chain through the shuffle
// network.  Not shfl.idx from one lane: after the first such shuffle every lane
// holds the same value, and ptxas may drop the rest of the chain (lat.shfl read
// 0.00 cycles on an H200).
#define S_SHFL(x) asm volatile("shfl.sync.down.b32 %0, %0, %1, 31, -1;" : "+r"(x) : "r"(b));

// Integer (-ptx_opcode_latency_int / _initiation_int: ADD, MAX, MUL, MAD, DIV).
ALU_KERNELS(iadd, int, S_IADD)
ALU_KERNELS(imax, int, S_IMAX)
ALU_KERNELS(imul, int, S_IMUL)
ALU_KERNELS(imad, int, S_IMAD)
ALU_KERNELS(idiv, int, S_IDIV)
// Single precision (_fp).
ALU_KERNELS(fadd, float, S_FADD)
ALU_KERNELS(fmax, float, S_FMAX)
ALU_KERNELS(fmul, float, S_FMUL)
ALU_KERNELS(ffma, float, S_FFMA)
ALU_KERNELS(fdiv, float, S_FDIV)
// Double precision (_dp).
ALU_KERNELS(dadd, double, S_DADD)
ALU_KERNELS(dmax, double, S_DMAX)
ALU_KERNELS(dmul, double, S_DMUL)
ALU_KERNELS(dfma, double, S_DFMA)
ALU_KERNELS(ddiv, double, S_DDIV)
// Special-function unit.
ALU_KERNELS(sin, float, S_SIN)
ALU_KERNELS(rcp, float, S_RCP)
ALU_KERNELS(sqrt, float, S_SQRT)
ALU_KERNELS(drcp, double, S_DRCP)
ALU_KERNELS(dsqrt, double, S_DSQRT)
ALU_KERNELS(shfl, int, S_SHFL)

// ---- memory: pointer chasing (each load's address is the previous load's value,
// so a load cannot issue before the previous one's data is visible) ----

#define S_LDG(p) asm volatile("ld.global.u64 %0, [%0];" : "+l"(p));
#define S_LDC(p) asm volatile("ld.const.u64 %0, [%0];" : "+l"(p));
#define S_LDS(p) asm volatile("ld.shared.u32 %0, [%0];" : "+r"(p));

// Global memory through L1D / L2 / DRAM, as the chain the host laid out decides.
// One thread: every load is one access of one line.
extern "C" __global__ void chase_global(long long *out, int reps, unsigned long long start,
                                        unsigned long long *sink) {
    unsigned long long p = start;
    TIMED_PAIR(R16(S_LDG(p)), R48(S_LDG(p)), NOSYNC)
    sink[0] = p;
}

// The constant cache: the host fills c_chain with constant-space addresses of
// c_chain's own elements (c_chain_base tells it where the array is).
__constant__ unsigned long long c_chain[256];

extern "C" __global__ void c_chain_base(unsigned long long *out) {
    unsigned long long a;
    asm("mov.u64 %0, c_chain;" : "=l"(a));
    out[0] = a;
    out[1] = c_chain[0];
}

extern "C" __global__ void chase_const(long long *out, int reps, unsigned long long start,
                                       unsigned long long *sink) {
    unsigned long long p = start;
    TIMED_PAIR(R16(S_LDC(p)), R48(S_LDC(p)), NOSYNC)
    sink[0] = p;
}

// Shared memory with an n-way bank conflict: lane l reads word
// (l mod n) * 32 + l / n, and each word holds its own shared address, so every
// load of the chain repeats the same access pattern.  With 32 banks of 4 bytes,
// the 32 words fall in 32/n banks, n distinct words each: an n-way conflict.
// (The host works out the degree for the configuration's bank count.)
extern "C" __global__ void chase_shared(long long *out, int reps, int ways, unsigned *sink) {
    __shared__ unsigned s[32 * 32];
    for (int i = threadIdx.x; i < 32 * 32; i += blockDim.x) s[i] = (unsigned)__cvta_generic_to_shared(&s[i]);
    __syncthreads();
    unsigned lane = threadIdx.x & 31;
    unsigned p = (unsigned)__cvta_generic_to_shared(&s[(lane % ways) * 32 + lane / ways]);
    TIMED_PAIR(R16(S_LDS(p)), R48(S_LDS(p)), NOSYNC)
    sink[threadIdx.x] = p;
}

// The same access pattern from many warps, independent loads: the cycles the
// LD/ST unit spends per warp access (throughput).
extern "C" __global__ void stream_shared(long long *out, int reps, int ways, unsigned *sink) {
    __shared__ unsigned s[32 * 32];
    for (int i = threadIdx.x; i < 32 * 32; i += blockDim.x) s[i] = (unsigned)__cvta_generic_to_shared(&s[i]);
    unsigned lane = threadIdx.x & 31;
    unsigned a = (unsigned)__cvta_generic_to_shared(&s[(lane % ways) * 32 + lane / ways]);
    unsigned x0 = a, x1 = a, x2 = a, x3 = a, x4 = a, x5 = a, x6 = a, x7 = a;
#define S_LDS_IND(x) asm volatile("ld.shared.u32 %0, [%1];" : "=r"(x) : "r"(a));
    TIMED_PAIR(R2(STEP8(S_LDS_IND)), R4(STEP8(S_LDS_IND)) R2(STEP8(S_LDS_IND)), BARRIER)
    sink[threadIdx.x] = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;
}

// Evict the L2: every thread reads one word of its own line, over a region several
// times larger than the L2 (so that host-to-device copies passing through the L2
// cannot leave a chase's lines there).
extern "C" __global__ void flush_l2(const unsigned *region, unsigned line_words, unsigned *sink) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v;
    asm volatile("ld.global.u32 %0, [%1];" : "=r"(v) : "l"(region + (size_t)i * line_words));
    if (v == 0x12345678u) sink[0] = v;  // never true: keeps the load
}

// Bandwidth of a set of L2 lines (the host's list, nlines a multiple of 8 x the
// grid's warps): every warp reads whole lines (lane l: word l, one 128 B access
// per warp load), 8 independent loads at a time bypassing the L1D
// (ld.global.cg), so that each SM keeps as many in flight as its MSHRs allow.
// The list is read once to bring it into the L2, then `reps` times timed; each
// CTA writes its clock before and after (out[2 * blockIdx.x ...]); the host takes
// the span from the earliest start to the latest end over the CTAs.
#define S_LDCG(v, a) asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(a));
#define LINES8(i)                                                                 \
    {                                                                             \
        unsigned v0, v1, v2, v3, v4, v5, v6, v7;                                  \
        S_LDCG(v0, lines[(i)] + 4 * lane) S_LDCG(v1, lines[(i) + warps] + 4 * lane) \
        S_LDCG(v2, lines[(i) + 2 * warps] + 4 * lane)                             \
        S_LDCG(v3, lines[(i) + 3 * warps] + 4 * lane)                             \
        S_LDCG(v4, lines[(i) + 4 * warps] + 4 * lane)                             \
        S_LDCG(v5, lines[(i) + 5 * warps] + 4 * lane)                             \
        S_LDCG(v6, lines[(i) + 6 * warps] + 4 * lane)                             \
        S_LDCG(v7, lines[(i) + 7 * warps] + 4 * lane)                             \
        acc += v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7;                             \
    }
extern "C" __global__ void stream_lines(long long *out, int reps, const unsigned long long *lines,
                                        unsigned nlines, unsigned *sink) {
    unsigned wpc = blockDim.x >> 5, warps = gridDim.x * wpc;
    unsigned w = blockIdx.x * wpc + (threadIdx.x >> 5), lane = threadIdx.x & 31;
    unsigned acc = 0;
    for (unsigned i = w; i < nlines; i += 8 * warps) LINES8(i)
    __syncthreads();
    long long t0 = clock64();
    _Pragma("unroll 1")
    for (int r = 0; r < reps; r++)
        for (unsigned i = w; i < nlines; i += 8 * warps) LINES8(i)
    __syncthreads();
    long long t1 = clock64();
    if (threadIdx.x == 0) {
        out[2 * blockIdx.x] = t0;
        out[2 * blockIdx.x + 1] = t1;
    }
    sink[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// ---- sub-cores (-gpgpu_sub_core_model): the throughput of f32 adds when only the
// warps whose index is a multiple of `stride` work (the others only take part in the
// barriers).  Warp w of a CTA alone on an SM is in hardware slot w, on scheduler (and
// sub-core) w mod the scheduler count: with stride = that count every working warp
// is on sub-core 0, with stride 1 they spread over all of them. ----

extern "C" __global__ void part_fadd(long long *out, int reps, float a, float b, float *sink, int stride) {
    const bool work = (threadIdx.x >> 5) % stride == 0;
    float x0 = a, x1 = a + b, x2 = a + 2 * b, x3 = a + 3 * b;
    float x4 = a + 4 * b, x5 = a + 5 * b, x6 = a + 6 * b, x7 = a + 7 * b;
    float x8 = a + 8 * b, x9 = a + 9 * b, x10 = a + 10 * b, x11 = a + 11 * b;
    float x12 = a + 12 * b, x13 = a + 13 * b, x14 = a + 14 * b, x15 = a + 15 * b;
    TIMED_PAIR(if (work) { STEP16(S_FADD) },
               if (work) { STEP16(S_FADD) STEP16(S_FADD) STEP16(S_FADD) }, BARRIER)
    sink[blockIdx.x * blockDim.x + threadIdx.x] = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7 +
        x8 + x9 + x10 + x11 + x12 + x13 + x14 + x15;
}
