/* dwt2d: input generation and CPU reference (shared by host.c and kernel.cu's main).
 *
 * The forward 2-D discrete wavelet transform of Rodinia's dwt2d in its reversible
 * mode (-r: the JPEG 2000 integer CDF 5/3 lifting), over DW_LEVELS levels, each on
 * the low-low quadrant of the previous one.  Our own code, not Rodinia's kernels
 * (which slide a window of rows through shared memory): each level is two
 * global-memory passes, rows then columns, one thread per coefficient pair, and a
 * thread reads the five samples 2i-2 .. 2i+2 around its pair, so neighbouring
 * threads, warps and CTAs read overlapping samples -- the INTER_THREAD NEARBY
 * REGULAR reuse of the Locality Descriptor paper's Table 2 (D2D).
 *
 * Lifting on a line s of even length 2n, whole-sample symmetric extension
 * (s[-k] = s[k], s[2n-1+k] = s[2n-1-k]):
 *   d[i] = s[2i+1] - ((s[2i] + s[2i+2]) >> 1)            (predict, high band)
 *   a[i] = s[2i]   + ((d[i-1] + d[i] + 2) >> 2)          (update, low band)
 * a goes to the first half of the line, d to the second.  Integer arithmetic
 * (arithmetic shifts, as JPEG 2000's floor division), so the check is exact.
 *
 * Sizes: W = H = 128 * size pixels of 0..255 (int32, one image component as
 * Rodinia's dwt2d keeps it), 3 levels (Rodinia's run script uses 3); default 4:
 * 512 x 512 (1 MB), Rodinia's 1024 x 1024 bitmap scaled down to put about 36 M
 * thread instructions in timing mode like the other defaults (size 8 has 144 M). */
#ifndef WL_DWT2D_REF_H
#define WL_DWT2D_REF_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "wl_rng.h"

#define DW_MAX_SIZE 64u /* 8192 x 8192: 256 MB */
#define DW_LEVELS 3u
#define DW_BX 32u       /* CTA: 32 x 8 threads, x along a row */
#define DW_BY 8u

#ifdef __CUDACC__
#define DW_FN __host__ __device__ static inline
#else
#define DW_FN static inline
#endif

static inline uint32_t dw_side(uint32_t size) { return 128u * size; }

/* Whole-sample symmetric extension of index k into [0, len). */
DW_FN int dw_ext(int k, int len) { return k < 0 ? -k : (k >= len ? 2 * (len - 1) - k : k); }

/* The low and high coefficients of pair i of a line of len samples, sample k at
 * line[k * step]. */
DW_FN void dw_lift(const int32_t *line, ptrdiff_t step, int i, int len, int32_t *lo, int32_t *hi) {
    int32_t sm2 = line[dw_ext(2 * i - 2, len) * step], sm1 = line[dw_ext(2 * i - 1, len) * step];
    int32_t s0 = line[(ptrdiff_t)(2 * i) * step], s1 = line[dw_ext(2 * i + 1, len) * step];
    int32_t s2 = line[dw_ext(2 * i + 2, len) * step];
    int32_t dm1 = sm1 - ((sm2 + s0) >> 1), d0 = s1 - ((s0 + s2) >> 1);
    *lo = s0 + ((dm1 + d0 + 2) >> 2);
    *hi = d0;
}

static inline int32_t *dw_generate(uint32_t w, uint32_t h, uint64_t seed) {
    wl_rng r;
    wl_rng_seed(&r, seed);
    int32_t *img = (int32_t *)malloc((size_t)w * h * sizeof(int32_t));
    if (!img) return NULL;
    for (size_t i = 0; i < (size_t)w * h; i++) img[i] = (int32_t)wl_rng_below(&r, 256);
    return img;
}

/* In place on img (W x H, pitch W), tmp of the same size: DW_LEVELS levels, each a
 * row pass (img -> tmp) and a column pass (tmp -> img) over the top-left w x h. */
static inline void dw_reference(int32_t *img, int32_t *tmp, uint32_t W, uint32_t H) {
    for (uint32_t l = 0; l < DW_LEVELS; l++) {
        int w = (int)(W >> l), h = (int)(H >> l);
        for (int y = 0; y < h; y++)
            for (int i = 0; i < w / 2; i++)
                dw_lift(img + (size_t)y * W, 1, i, w, &tmp[(size_t)y * W + i], &tmp[(size_t)y * W + w / 2 + i]);
        for (int j = 0; j < h / 2; j++)
            for (int x = 0; x < w; x++)
                dw_lift(tmp + x, (ptrdiff_t)W, j, h, &img[(size_t)j * W + x], &img[(size_t)(h / 2 + j) * W + x]);
    }
}

#endif
