/* ray: the scene, the tracer and the CPU reference (shared by host.c and kernel.cu).
 *
 * A Whitted-style ray tracer (ISPASS-2009 RAY): one primary ray per pixel into a
 * small scene of spheres standing on a checkered ground plane, lit by two point
 * lights; at every hit a shadow ray goes to each light (stopping at the first
 * occluder) and, for reflective surfaces, a reflected ray continues, up to
 * RAY_DEPTH bounces.  Divergence comes from which object a ray hits, whether it is
 * shadowed (early exit) and how many bounces it makes.
 *
 * Input model: the classic test scene of such tracers, RAY_SPHERES spheres of radius
 * 0.3..1 at seed-chosen places on the ground in front of the camera, one in three a
 * mirror-like sphere, random colours.  The scene (a few hundred bytes) lives in
 * constant memory, as the original keeps its objects.  Size S: a 32*S x 16*S image;
 * the default S = 8 is 256 x 128 pixels.
 *
 * The tracer below is compiled both into the kernel (__host__ __device__) and into
 * the reference.  Every product that is added to something is an explicit fmaf or a
 * RAY_MUL (__fmul_rn on the GPU, which the compiler never fuses), sqrt and division
 * are IEEE-rounded on both sides (nvcc's defaults), so the GPU performs exactly the
 * reference's float operations and the image is compared bit for bit. */
#ifndef WL_RAY_REF_H
#define WL_RAY_REF_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "wl_rng.h"

#ifdef __CUDACC__
#define RAY_HD __host__ __device__
#else
#define RAY_HD
#endif
#ifdef __CUDA_ARCH__
#define RAY_MUL(a, b) __fmul_rn((a), (b))
#else
#define RAY_MUL(a, b) ((a) * (b))
#endif

#define RAY_MAX_SIZE 256u
#define RAY_BX 16u
#define RAY_BY 8u
#define RAY_SPHERES 12
#define RAY_LIGHTS 2
#define RAY_DEPTH 3          /* primary ray + 2 reflections */
#define RAY_EPS 1e-3f        /* offset of secondary rays off the surface */
#define RAY_AMBIENT 0.1f

static inline uint32_t ray_width(uint32_t size) { return 32u * size; }
static inline uint32_t ray_height(uint32_t size) { return 16u * size; }

typedef struct { float x, y, z; } rv3;
typedef struct {
    float cx, cy, cz, r;      /* centre, radius */
    float red, green, blue, refl;
} ray_sphere;
typedef struct { float x, y, z, power; } ray_light;
typedef struct {
    ray_sphere sph[RAY_SPHERES];
    ray_light light[RAY_LIGHTS];
    float ground_refl;
} ray_scene;

RAY_HD static inline rv3 rv(float x, float y, float z) { rv3 v = { x, y, z }; return v; }
RAY_HD static inline rv3 rv_sub(rv3 a, rv3 b) { return rv(a.x - b.x, a.y - b.y, a.z - b.z); }
RAY_HD static inline rv3 rv_scale(rv3 a, float s) { return rv(RAY_MUL(a.x, s), RAY_MUL(a.y, s), RAY_MUL(a.z, s)); }
/* a + b * s */
RAY_HD static inline rv3 rv_madd(rv3 a, rv3 b, float s) { return rv(fmaf(b.x, s, a.x), fmaf(b.y, s, a.y), fmaf(b.z, s, a.z)); }
RAY_HD static inline float rv_dot(rv3 a, rv3 b) { return fmaf(a.x, b.x, fmaf(a.y, b.y, RAY_MUL(a.z, b.z))); }
RAY_HD static inline rv3 rv_norm(rv3 a) { return rv_scale(a, 1.0f / sqrtf(rv_dot(a, a))); }

/* Distance along d (unit) from o to sphere s, or -1 when it misses. */
RAY_HD static inline float ray_hit_sphere(const ray_sphere *s, rv3 o, rv3 d) {
    rv3 oc = rv_sub(o, rv(s->cx, s->cy, s->cz));
    float b = rv_dot(oc, d);
    float c = fmaf(-s->r, s->r, rv_dot(oc, oc));
    float disc = fmaf(b, b, -c);
    if (disc < 0.0f) return -1.0f;
    float q = sqrtf(disc);
    float t = -b - q;
    if (t < RAY_EPS) t = -b + q;
    return t < RAY_EPS ? -1.0f : t;
}

/* The nearest object along the ray: a sphere index, RAY_SPHERES for the ground
 * (y = 0), or -1 for the sky; *tmin gets the distance. */
RAY_HD static inline int ray_nearest(const ray_scene *sc, rv3 o, rv3 d, float *tmin) {
    int id = -1;
    float best = 1e30f;
    for (int i = 0; i < RAY_SPHERES; i++) {
        float t = ray_hit_sphere(&sc->sph[i], o, d);
        if (t > 0.0f && t < best) { best = t; id = i; }
    }
    if (d.y < 0.0f) {
        float t = -o.y / d.y;
        if (t > RAY_EPS && t < best) { best = t; id = RAY_SPHERES; }
    }
    *tmin = best;
    return id;
}

/* Whether anything blocks the ray before distance dist (first occluder ends it). */
RAY_HD static inline int ray_occluded(const ray_scene *sc, rv3 o, rv3 d, float dist) {
    for (int i = 0; i < RAY_SPHERES; i++) {
        float t = ray_hit_sphere(&sc->sph[i], o, d);
        if (t > 0.0f && t < dist) return 1;
    }
    return 0;
}

/* Colour seen along a primary ray. */
RAY_HD static inline rv3 ray_trace(const ray_scene *sc, rv3 o, rv3 d) {
    rv3 color = rv(0.0f, 0.0f, 0.0f);
    float weight = 1.0f;
    for (int depth = 0; depth < RAY_DEPTH; depth++) {
        float t;
        int id = ray_nearest(sc, o, d, &t);
        if (id < 0) { /* sky: a vertical gradient */
            float g = fmaf(0.5f, d.y, 0.5f);
            color = rv_madd(color, rv(fmaf(0.3f, g, 0.2f), fmaf(0.4f, g, 0.3f), fmaf(0.5f, g, 0.5f)), weight);
            break;
        }
        rv3 p = rv_madd(o, d, t), n, base;
        float refl;
        if (id == RAY_SPHERES) {
            n = rv(0.0f, 1.0f, 0.0f);
            int check = ((int)floorf(p.x) + (int)floorf(p.z)) & 1;
            base = check ? rv(0.9f, 0.9f, 0.85f) : rv(0.15f, 0.15f, 0.2f);
            refl = sc->ground_refl;
        } else {
            const ray_sphere *s = &sc->sph[id];
            n = rv_norm(rv_sub(p, rv(s->cx, s->cy, s->cz)));
            base = rv(s->red, s->green, s->blue);
            refl = s->refl;
        }
        rv3 local = rv_scale(base, RAY_AMBIENT);
        rv3 start = rv_madd(p, n, RAY_EPS);
        for (int l = 0; l < RAY_LIGHTS; l++) {
            const ray_light *li = &sc->light[l];
            rv3 to = rv_sub(rv(li->x, li->y, li->z), p);
            float dist = sqrtf(rv_dot(to, to));
            rv3 ldir = rv_scale(to, 1.0f / dist);
            float ndl = rv_dot(n, ldir);
            if (ndl <= 0.0f || ray_occluded(sc, start, ldir, dist)) continue;
            local = rv_madd(local, base, RAY_MUL(ndl, li->power));
            float nh = rv_dot(n, rv_norm(rv_sub(ldir, d)));  /* Blinn-Phong, exponent 16 */
            if (nh > 0.0f) {
                float sp = RAY_MUL(nh, nh);
                sp = RAY_MUL(sp, sp);
                sp = RAY_MUL(sp, sp);
                sp = RAY_MUL(sp, sp);
                float w = RAY_MUL(RAY_MUL(sp, li->power), 0.5f);
                local = rv(local.x + w, local.y + w, local.z + w);
            }
        }
        color = rv_madd(color, local, RAY_MUL(weight, 1.0f - refl));
        weight = RAY_MUL(weight, refl);
        if (weight < 0.01f) break;
        d = rv_madd(d, n, RAY_MUL(-2.0f, rv_dot(d, n)));
        o = start;
    }
    return color;
}

/* The camera: at (0, 1.6, 4) looking down -z, tilted down slightly; pixel (px, py) of
 * a w x h image. */
RAY_HD static inline rv3 ray_primary_dir(uint32_t px, uint32_t py, uint32_t w, uint32_t h) {
    float scale = 2.0f / (float)h; /* a 2-unit-high screen one unit in front */
    float x = RAY_MUL((float)px + 0.5f - RAY_MUL(0.5f, (float)w), scale);
    float y = RAY_MUL(RAY_MUL(0.5f, (float)h) - (float)py - 0.5f, scale);
    return rv_norm(rv(x, y - 0.35f, -1.0f));
}

#define RAY_EYE_X 0.0f
#define RAY_EYE_Y 1.6f
#define RAY_EYE_Z 4.0f

static inline void ray_make_scene(uint64_t seed, ray_scene *sc) {
    wl_rng r;
    wl_rng_seed(&r, seed);
    for (int i = 0; i < RAY_SPHERES; i++) {
        ray_sphere *s = &sc->sph[i];
        s->r = 0.3f + 0.7f * wl_rng_float(&r);
        s->cx = -3.0f + 6.0f * wl_rng_float(&r);
        s->cz = -3.0f + 4.0f * wl_rng_float(&r);
        s->cy = s->r; /* resting on the ground */
        s->red = 0.2f + 0.8f * wl_rng_float(&r);
        s->green = 0.2f + 0.8f * wl_rng_float(&r);
        s->blue = 0.2f + 0.8f * wl_rng_float(&r);
        s->refl = i % 3 == 0 ? 0.6f : 0.05f;
    }
    ray_light l0 = { -4.0f, 6.0f, 3.0f, 0.7f }, l1 = { 5.0f, 4.0f, -1.0f, 0.5f };
    sc->light[0] = l0;
    sc->light[1] = l1;
    sc->ground_refl = 0.25f;
}

/* The reference image: w * h pixels of 3 floats (r, g, b). */
static inline void ray_reference(const ray_scene *sc, uint32_t w, uint32_t h, float *rgb) {
    for (uint32_t py = 0; py < h; py++)
        for (uint32_t px = 0; px < w; px++) {
            rv3 c = ray_trace(sc, rv(RAY_EYE_X, RAY_EYE_Y, RAY_EYE_Z), ray_primary_dir(px, py, w, h));
            float *o = rgb + 3 * ((size_t)py * w + px);
            o[0] = c.x;
            o[1] = c.y;
            o[2] = c.z;
        }
}

#endif
