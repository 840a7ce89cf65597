/* kmeans_rd: Rodinia 3.1's GPU kmeans (cuda/kmeans) with Rodinia's launch geometry.
 * Input, reference and centre update are kmeans's (../kmeans/ref.h: the same points,
 * the same fmaf distance in feature order, the same host update, the same rounds),
 * and the feature-major copy's reference is kmeans_gm's (../kmeans_gm/ref.h), so
 * kmeans, kmeans_gm and kmeans_rd cluster the same data the same way; what differs
 * is where the GPU finds it and how the grid is shaped (kernel.cu).
 *
 * Size: kmeans's rule, 300 * S + 13 points, so --size 1647 is 494,113 points
 * (Rodinia's kdd_cup has 494,020). */
#ifndef WL_KMEANS_RD_REF_H
#define WL_KMEANS_RD_REF_H

#include <math.h>

#include "../kmeans_gm/ref.h"

/* Threads per CTA: Rodinia's THREADS_PER_DIM^2 = 16 x 16 = 256, launched 1-D. */
#define KMEANS_RD_BLOCK 256u
/* The default size: kmeans's (19,213 points). */
#define KMEANS_RD_DEFAULT_SIZE 64u
/* The features are read through a linear texture, which holds at most 2^27 texels
 * (CUDA's limit, and locsim_texture_create's): n x 34 <= 2^27 up to --size 13158. */
#define KMEANS_RD_MAX_SIZE 13158u

/* The side of Rodinia's square grid for n points: ceil(n / 256) CTAs are needed;
 * the side is the truncated square root, raised until its square covers them (as
 * Rodinia's allocateMemory does).  494,113 points: 1931 CTAs -> 44 (44 x 44 = 1936). */
static inline uint32_t kmeans_rd_grid_side(uint32_t n) {
    uint32_t blocks = (n + KMEANS_RD_BLOCK - 1) / KMEANS_RD_BLOCK;
    uint32_t side = (uint32_t)sqrt((double)blocks);
    while (side * side < blocks) side++;
    return side;
}

#endif
