/* pf: input generation and the check (shared by host.c and kernel.cu's main).
 *
 * Particle filter tracking an object through a video (Rodinia's particlefilter, the
 * Locality Descriptor paper's PF; our own code after its structure).
 *
 * Input model (Rodinia's videoSequence): PF_FRAMES frames of PF_W x PF_H 8-bit
 * pixels; a disk of radius PF_RADIUS (the object) starts near the centre (the seed
 * moves it by up to +-4 pixels) and moves by (+1, -2) pixels per frame; object
 * pixels are 228, background 100, plus Gaussian noise of deviation 5, clamped to
 * 0..255.  N = 1024*S particles start at the object's first position.
 *
 * Each frame k = 1..PF_FRAMES-1 is four launches:
 *   pf_likelihood  particle i moves by (1, -2) plus Gaussian noise (deviations 5
 *                  and 2, drawn on the host: Rodinia draws them on the GPU with an
 *                  LCG), then sums over the disk's pixels around its rounded
 *                  position sum(256 I - 41984) = sum((I-100)^2 - (I-228)^2) (an
 *                  integer, exact), L = sum / (50 * disk pixels); per CTA the
 *                  largest L;
 *   pf_weights     w = expf(L - max L) (every weight is 1/N after the previous
 *                  resampling, so the normalised weights are these up to a factor;
 *                  the max keeps expf in range: Rodinia's float version overflows);
 *   pf_scan        one CTA: the CDF of w (each thread sums a chunk, a Hillis-Steele
 *                  scan of the chunk sums in shared memory, then each chunk adds up
 *                  again from its prefix) and the weighted mean position (the
 *                  object's estimate) by a tree in shared memory;
 *   pf_resample    systematic resampling: particle j takes the position of the first
 *                  particle whose CDF reaches (j + u0) / N of the total (binary
 *                  search; Rodinia searches linearly), u0 uniform per frame.
 * Every frame's arrays stay on the device (frame-major), so one read-back at the
 * end holds them all.
 *
 * The check walks the frames with the GPU's own input to each step, so that the
 * one inexact operation, expf, cannot make a later frame's particles differ: the
 * moved positions, L and the per-CTA maxima are compared bit for bit; each weight
 * within PF_WREL relative (4 ulp: CUDA documents expf to 2 ulp) plus 2^-126 (the
 * denormal range); the CDF, the estimate and the resampled positions, computed
 * here from the GPU's weights in the kernels' float operations and order, bit for
 * bit.  Finally the estimate must follow the object (pf_check).  At the default
 * size and seed 1 it stays within 0.1 pixel of the object in every frame. */
#ifndef WL_PF_REF_H
#define WL_PF_REF_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wl_rng.h"

#define PF_MAX_SIZE 64u
#define PF_W 128           /* Rodinia's default IszX = IszY = 128, Nfr = 10 */
#define PF_H 128
#define PF_FRAMES 10
#define PF_RADIUS 5        /* Rodinia's disk strel */
#define PF_MAXONES 128     /* disk pixels: 81 for radius 5 */
#define PF_BLOCK 256       /* threads per CTA of the per-particle kernels */
#define PF_SCAN 256        /* threads of the single scan CTA */
#define PF_WREL (4.0 / 8388608.0)

static inline uint32_t pf_particles(uint32_t size) { return 1024u * size; }

typedef struct {
    uint32_t n;            /* particles */
    int32_t ones;          /* pixels of the disk */
    int32_t obj[2 * PF_MAXONES];   /* (dx, dy) of each disk pixel */
    int32_t x0, y0;        /* the object's first position */
    uint8_t *frames;       /* PF_FRAMES x PF_H x PF_W */
    float *noise;          /* PF_FRAMES x 2N: x then y deviation of each particle (frame 0 unused) */
    float u0[PF_FRAMES];   /* resampling offsets in [0, 1) */
} pf_input;

/* The disk's offsets, row by row. */
static inline int32_t pf_disk(int32_t *obj) {
    int32_t n = 0;
    for (int32_t dy = -PF_RADIUS; dy <= PF_RADIUS; dy++)
        for (int32_t dx = -PF_RADIUS; dx <= PF_RADIUS; dx++)
            if (dx * dx + dy * dy <= PF_RADIUS * PF_RADIUS) {
                obj[2 * n] = dx;
                obj[2 * n + 1] = dy;
                n++;
            }
    return n;
}

static inline double pf_gauss(wl_rng *r) {   /* Box-Muller */
    double u = 1.0 - wl_rng_double(r), v = wl_rng_double(r);
    return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

static inline void pf_free(pf_input *in) {
    free(in->frames);
    free(in->noise);
    in->frames = NULL;
    in->noise = NULL;
}

/* 0 when out of memory. */
static inline int pf_generate(uint32_t size, uint64_t seed, pf_input *in) {
    wl_rng r;
    wl_rng_seed(&r, seed);
    memset(in, 0, sizeof *in);
    in->n = pf_particles(size);
    in->ones = pf_disk(in->obj);
    in->x0 = PF_W / 2 - 4 + (int32_t)wl_rng_below(&r, 9);
    in->y0 = PF_H / 2 - 4 + (int32_t)wl_rng_below(&r, 9);
    in->frames = (uint8_t *)malloc((size_t)PF_FRAMES * PF_W * PF_H);
    in->noise = (float *)calloc((size_t)PF_FRAMES * 2 * in->n, sizeof(float));
    if (!in->frames || !in->noise) return pf_free(in), 0;
    for (int k = 0; k < PF_FRAMES; k++) {
        int32_t cx = in->x0 + k, cy = in->y0 - 2 * k;
        for (int y = 0; y < PF_H; y++)
            for (int x = 0; x < PF_W; x++) {
                int32_t dx = x - cx, dy = y - cy;
                double v = dx * dx + dy * dy <= PF_RADIUS * PF_RADIUS ? 228.0 : 100.0;
                v += 5.0 * pf_gauss(&r);
                long p = lround(v);
                in->frames[((size_t)k * PF_H + y) * PF_W + x] = (uint8_t)(p < 0 ? 0 : p > 255 ? 255 : p);
            }
    }
    for (int k = 1; k < PF_FRAMES; k++) {
        float *nz = in->noise + (size_t)k * 2 * in->n;
        for (uint32_t i = 0; i < in->n; i++) {
            nz[i] = (float)(5.0 * pf_gauss(&r));
            nz[in->n + i] = (float)(2.0 * pf_gauss(&r));
        }
        in->u0[k] = wl_rng_float(&r);
    }
    return 1;
}

/* What the GPU leaves, frame-major (index k * n + i; frame 0: only sx, sy, the
 * particles' first positions). */
typedef struct {
    float *sx, *sy;        /* positions after resampling */
    float *mx, *my;        /* positions after the move */
    float *lik, *w, *cdf;
    float *lmax;           /* per CTA of pf_likelihood: PF_FRAMES x n / PF_BLOCK */
    float *est;            /* PF_FRAMES x 2: the weighted mean position */
} pf_state;

static inline int pf_clamp(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

/* The likelihood sum of a particle at (x, y) in frame f (PF_H x PF_W). */
static inline int32_t pf_sum(const uint8_t *f, const int32_t *obj, int32_t ones, float x, float y) {
    int32_t ix = (int32_t)lrintf(x), iy = (int32_t)lrintf(y), s = 0;
    for (int32_t d = 0; d < ones; d++) {
        int32_t px = pf_clamp(ix + obj[2 * d], 0, PF_W - 1), py = pf_clamp(iy + obj[2 * d + 1], 0, PF_H - 1);
        s += 256 * (int32_t)f[py * PF_W + px] - 41984;
    }
    return s;
}

static inline int pf_same(float a, float b) { return memcmp(&a, &b, sizeof a) == 0; }

/* Check frame k of g against in, from g's own frame k-1 positions and its own
 * weights.  0 when it matches; else 1 with a message in why. */
static inline int pf_check_frame(const pf_input *in, const pf_state *g, int k, char *why, size_t len) {
    const uint32_t n = in->n, nb = n / PF_BLOCK;
    const size_t o = (size_t)k * n, p = (size_t)(k - 1) * n;
    const float *nz = in->noise + (size_t)k * 2 * n;
    const uint8_t *f = in->frames + (size_t)k * PF_W * PF_H;
    const float scale = (float)(50 * in->ones);
    for (uint32_t i = 0; i < n; i++) {
        float x = (g->sx[p + i] + 1.0f) + nz[i], y = (g->sy[p + i] + -2.0f) + nz[n + i];
        if (!pf_same(x, g->mx[o + i]) || !pf_same(y, g->my[o + i]))
            return snprintf(why, len, "frame %d particle %u moved to (%.9g, %.9g), expected (%.9g, %.9g)", k, i,
                            g->mx[o + i], g->my[o + i], x, y), 1;
        float l = (float)pf_sum(f, in->obj, in->ones, x, y) / scale;
        if (!pf_same(l, g->lik[o + i]))
            return snprintf(why, len, "frame %d particle %u: likelihood %.9g, expected %.9g", k, i, g->lik[o + i], l), 1;
    }
    float lmax = -INFINITY;
    for (uint32_t b = 0; b < nb; b++) {
        float m = -INFINITY;
        for (uint32_t t = 0; t < PF_BLOCK; t++) m = fmaxf(m, g->lik[o + b * PF_BLOCK + t]);
        if (!pf_same(m, g->lmax[(size_t)k * nb + b]))
            return snprintf(why, len, "frame %d CTA %u: largest likelihood %.9g, expected %.9g", k, b,
                            g->lmax[(size_t)k * nb + b], m), 1;
        lmax = fmaxf(lmax, m);
    }
    for (uint32_t i = 0; i < n; i++) {
        double want = exp((double)(g->lik[o + i] - lmax)), got = g->w[o + i];
        if (!(fabs(got - want) <= PF_WREL * want + 0x1p-126))
            return snprintf(why, len, "frame %d particle %u: weight %.9g, expected %.9g (tolerance 4 ulp)", k, i, got,
                            want), 1;
    }
    /* the scan, in the kernel's order */
    const uint32_t chunk = n / PF_SCAN;
    float part[PF_SCAN], ex[PF_SCAN], ey[PF_SCAN];
    for (uint32_t t = 0; t < PF_SCAN; t++) {
        float s = 0.0f, sx = 0.0f, sy = 0.0f;
        for (uint32_t c = 0; c < chunk; c++) {
            size_t i = o + t * chunk + c;
            s = s + g->w[i];
            sx = fmaf(g->mx[i], g->w[i], sx);
            sy = fmaf(g->my[i], g->w[i], sy);
        }
        part[t] = s, ex[t] = sx, ey[t] = sy;
    }
    for (uint32_t off = 1; off < PF_SCAN; off *= 2) {
        float prev[PF_SCAN];
        for (uint32_t t = 0; t < PF_SCAN; t++) prev[t] = t >= off ? part[t - off] : 0.0f;
        for (uint32_t t = 0; t < PF_SCAN; t++) part[t] = part[t] + prev[t];
    }
    for (uint32_t t = 0; t < PF_SCAN; t++) {
        float run = t ? part[t - 1] : 0.0f;
        for (uint32_t c = 0; c < chunk; c++) {
            size_t i = o + t * chunk + c;
            run = run + g->w[i];
            if (!pf_same(run, g->cdf[i]))
                return snprintf(why, len, "frame %d: CDF[%u] %.9g, expected %.9g", k, t * chunk + c, g->cdf[i], run), 1;
        }
    }
    for (uint32_t s = PF_SCAN / 2; s > 0; s /= 2)
        for (uint32_t t = 0; t < s; t++) ex[t] = ex[t] + ex[t + s], ey[t] = ey[t] + ey[t + s];
    const float total = part[PF_SCAN - 1], xe = ex[0] / total, ye = ey[0] / total;
    if (!pf_same(xe, g->est[2 * k]) || !pf_same(ye, g->est[2 * k + 1]))
        return snprintf(why, len, "frame %d: estimate (%.9g, %.9g), expected (%.9g, %.9g)", k, g->est[2 * k],
                        g->est[2 * k + 1], xe, ye), 1;
    /* systematic resampling from the GPU's CDF */
    const float *cdf = g->cdf + o;
    for (uint32_t j = 0; j < n; j++) {
        float target = ((float)j + in->u0[k]) / (float)n * cdf[n - 1];
        uint32_t lo = 0, hi = n - 1;
        while (lo < hi) {
            uint32_t mid = (lo + hi) / 2;
            if (cdf[mid] >= target) hi = mid;
            else lo = mid + 1;
        }
        if (!pf_same(g->sx[o + j], g->mx[o + lo]) || !pf_same(g->sy[o + j], g->my[o + lo]))
            return snprintf(why, len, "frame %d: particle %u resampled to (%.9g, %.9g), expected particle %u's (%.9g, %.9g)",
                            k, j, g->sx[o + j], g->sy[o + j], lo, g->mx[o + lo], g->my[o + lo]), 1;
    }
    return 0;
}

/* How far frame k's estimate is from the object (pixels). */
static inline double pf_track_error(const pf_input *in, const pf_state *g, int k) {
    double dx = g->est[2 * k] - (in->x0 + k), dy = g->est[2 * k + 1] - (in->y0 - 2 * k);
    return sqrt(dx * dx + dy * dy);
}

/* The whole run: the first positions, then every frame; and the filter must
 * track the object (within PF_TRACK pixels in every frame: at the default size,
 * seeds 1 and 7, it stays within 0.1 pixel) -- a filter that computes the right
 * numbers on the wrong data would not. */
#define PF_TRACK 2.0
static inline int pf_check(const pf_input *in, const pf_state *g, char *why, size_t len) {
    for (uint32_t i = 0; i < in->n; i++)
        if (g->sx[i] != (float)in->x0 || g->sy[i] != (float)in->y0)
            return snprintf(why, len, "particle %u starts at (%.9g, %.9g), expected (%d, %d)", i, g->sx[i], g->sy[i],
                            in->x0, in->y0), 1;
    for (int k = 1; k < PF_FRAMES; k++) {
        if (pf_check_frame(in, g, k, why, len)) return 1;
        if (!(pf_track_error(in, g, k) <= PF_TRACK))
            return snprintf(why, len, "frame %d: the estimate (%.2f, %.2f) is %.2f pixels from the object at (%d, %d)",
                            k, g->est[2 * k], g->est[2 * k + 1], pf_track_error(in, g, k), in->x0 + k,
                            in->y0 - 2 * k), 1;
    }
    return 0;
}

#endif
