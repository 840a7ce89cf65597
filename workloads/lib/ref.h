/* lib: input generation and CPU reference (shared by host.c and kernel.cu's main).
 *
 * LIBOR market model Monte Carlo (ISPASS-2009 LIB, after Giles' LIBOR code): each
 * path evolves LIB_N quarterly forward rates (delta = 0.25 years) through LIB_NMAT
 * time steps under the LMM's drift, with one Gaussian increment per step, and then
 * values a portfolio of LIB_NOPT receiver swaptions that expire at the end of those
 * steps, discounted back to today.  The estimate is the mean over paths.
 *
 * Input model.  The original evolves 80 rates over 40 steps with 15 swaptions on
 * 4096 paths and a flat 5% curve; we keep its shape at half the horizon (40 rates,
 * 20 steps: a 5-year expiry into swaps of 1..5 years), a 5% curve with a mild seed-
 * dependent slope, a humped volatility term structure around the original's 0.2, and
 * real Gaussian increments (the original fills them with the constant 0.3, which makes
 * every path the same).  The increments are drawn on the host (Box-Muller in double)
 * and stored step-major, z[step * paths + path], so a warp's loads coalesce.
 * Size S: 256*S paths, one per thread; the default S = 16 is the original's 4096.
 *
 * The check.  The kernel uses the original's fast intrinsics (__expf, __fdividef);
 * the reference computes the same formulas in double with exact exp and division.
 * Error budget per path: each rate is multiplied by LIB_NMAT factors exp(x) whose
 * float evaluation (x to a few ulps of |x| < 2, __expf within 2 ulps, one rounding in
 * the product) errs by under 8 * 2^-24 relative each, so rates err by under
 * 20 * 8 * 2^-24 = 1e-5 relative; a swap value B + K*S - 1 (B ~ 0.8) then errs by
 * under 1e-5 absolute including its 20 rounded divisions, each swaption pays
 * 100 * max(0, -swap value), so at most 1e-3 per swaption, 1.5e-2 for the 15 if every
 * error had the same sign.  LIB_TOL (absolute per path) is that worst case; on
 * locsim the largest difference at the default size is 6e-4 (seed 1; 4e-4 at seed 7)
 * on payoffs averaging 35.  A wrong drift, step or
 * strike moves payoffs by 1e-2..1 on most paths. */
#ifndef WL_LIB_REF_H
#define WL_LIB_REF_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "wl_rng.h"

#define LIB_MAX_SIZE 4096u
#define LIB_N 40           /* forward rates */
#define LIB_NMAT 20        /* time steps to the swaptions' expiry */
#define LIB_NOPT 15        /* swaptions in the portfolio */
#define LIB_BLOCK 64u      /* threads per CTA (the original's) */
#define LIB_DELTA 0.25f    /* accrual period, years */
#define LIB_TOL 1.5e-2     /* per-path absolute tolerance (above) */

static inline uint32_t lib_paths(uint32_t size) { return 256u * size; }

/* The market: initial rates, volatilities, swaption expiries (in steps of the swap
 * tenor, 1-based) and strikes.  The seed tilts the curve; the rest is fixed. */
typedef struct {
    float l0[LIB_N];
    float lambda[LIB_N];
    int maturities[LIB_NOPT];
    float swaprates[LIB_NOPT];
} lib_market;

static inline void lib_make_market(wl_rng *r, lib_market *m) {
    double slope = 0.01 * (wl_rng_double(r) - 0.3); /* -0.3% .. +0.7% over 10 years */
    for (int i = 0; i < LIB_N; i++) {
        m->l0[i] = (float)(0.05 + slope * i / LIB_N);
        /* humped volatility: 0.2 at the short end, peaking near 2 years */
        double t = 0.25 * (i + 1);
        m->lambda[i] = (float)(0.15 + 0.1 * t * exp(1.0 - t / 2.0) / 2.0);
    }
    for (int k = 0; k < LIB_NOPT; k++) {
        m->maturities[k] = 4 * (k / 3 + 1);                 /* 4, 8, 12, 16, 20 */
        m->swaprates[k] = 0.045f + 0.005f * (float)(k % 3); /* 4.5%, 5%, 5.5% */
    }
}

/* The market and paths * LIB_NMAT standard normals, z[step * paths + path]. */
static inline float *lib_generate(uint32_t paths, uint64_t seed, lib_market *m) {
    wl_rng r;
    wl_rng_seed(&r, seed);
    lib_make_market(&r, m);
    float *z = (float *)malloc((size_t)paths * LIB_NMAT * sizeof(float));
    if (!z) return NULL;
    for (size_t i = 0; i < (size_t)paths * LIB_NMAT; i++) {
        double u1 = 1.0 - wl_rng_double(&r), u2 = wl_rng_double(&r);
        z[i] = (float)(sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2));
    }
    return z;
}

/* One path's discounted portfolio payoff, in double: the kernel's formulas. */
static inline double lib_path_value(const lib_market *m, const float *z, uint32_t paths, uint32_t path) {
    double L[LIB_N], B[LIB_N], S[LIB_N];
    const double delta = LIB_DELTA;
    for (int i = 0; i < LIB_N; i++) L[i] = m->l0[i];
    for (int n = 0; n < LIB_NMAT; n++) {
        double sqez = sqrt(delta) * z[(size_t)n * paths + path], v = 0.0;
        for (int i = n + 1; i < LIB_N; i++) {
            double lam = m->lambda[i - n - 1], con1 = delta * lam;
            v += con1 * L[i] / (1.0 + delta * L[i]);
            L[i] *= exp(con1 * v + lam * (sqez - 0.5 * con1));
        }
    }
    double b = 1.0, s = 0.0, value = 0.0;
    for (int n = LIB_NMAT; n < LIB_N; n++) {
        b /= 1.0 + delta * L[n];
        s += delta * b;
        B[n - LIB_NMAT] = b;
        S[n - LIB_NMAT] = s;
    }
    for (int k = 0; k < LIB_NOPT; k++) {
        int j = m->maturities[k] - 1;
        double swapval = B[j] + (double)m->swaprates[k] * S[j] - 1.0;
        if (swapval < 0) value += -100.0 * swapval;
    }
    for (int n = 0; n < LIB_NMAT; n++) value /= 1.0 + delta * L[n];
    return value;
}

/* First path whose value is off by more than LIB_TOL, or -1; *want gets its value. */
static inline int64_t lib_first_bad(const lib_market *m, const float *z, uint32_t paths, const float *got,
                                    double *want) {
    for (uint32_t p = 0; p < paths; p++) {
        *want = lib_path_value(m, z, paths, p);
        if (!(fabs((double)got[p] - *want) <= LIB_TOL)) return p;
    }
    return -1;
}

#endif
