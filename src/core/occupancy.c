/* How many CTAs of a kernel an SM holds at once.
 *
 * Four limits, each a whole number of CTAs; the smallest wins:
 *   threads    max_threads / (warps per CTA x 32)       (a CTA's threads are padded
 *                                                        to whole warps)
 *   CTAs       max_ctas
 *   registers  num_regs / regs_per_cta, where
 *                regs_per_thread = min(kernel registers, max_regs_per_thread)
 *                regs_per_warp   = round_up(regs_per_thread x 32, reg_alloc_unit)
 *                regs_per_cta    = regs_per_warp x warps per CTA
 *              The GPU top passes the register pressure of the kernel's PTX (regs.c),
 *              never more than its declared value + predicate registers, as the
 *              stand-in for what ptxas would allocate.  When even one CTA would not
 *              fit, regs_per_thread is lowered to what one CTA can have (as ptxas
 *              does under __launch_bounds__: it spills), so a launch the hardware
 *              accepts never fails here for registers alone.
 *   shared     smem_size / round_up(shared bytes per CTA, smem_alloc_unit)
 *              (no limit when the kernel uses no shared memory)
 */
#include <stdio.h>

#include "core/sm.h"

static uint32_t round_up(uint32_t v, uint32_t unit) { return unit > 1 ? (v + unit - 1) / unit * unit : v; }

static uint32_t min_u32(uint32_t a, uint32_t b) { return a < b ? a : b; }

/* Registers per CTA with regs_per_thread registers per thread. */
static uint32_t cta_registers(const sm_config *c, uint32_t regs_per_thread, uint32_t warps) {
    return round_up(regs_per_thread * c->warp_size, c->reg_alloc_unit) * warps;
}

int sm_occupancy(const sm_config *c, uint32_t threads_per_cta, uint32_t kernel_regs, uint32_t smem_per_cta,
                 sm_occupancy_info *out, char *err, size_t errlen) {
    sm_occupancy_info o = {0};
    o.threads = threads_per_cta;
    o.warps = (threads_per_cta + c->warp_size - 1) / c->warp_size;
    if (o.warps == 0 || o.warps * c->warp_size > c->max_threads) {
        snprintf(err, errlen, "a CTA of %u threads does not fit in an SM of %u threads", threads_per_cta,
                 c->max_threads);
        return -1;
    }
    o.limit_threads = c->max_threads / (o.warps * c->warp_size);
    o.limit_ctas = c->max_ctas;

    o.regs_per_thread = min_u32(kernel_regs ? kernel_regs : 1, c->max_regs_per_thread);
    while (o.regs_per_thread > 1 && cta_registers(c, o.regs_per_thread, o.warps) > c->num_regs) o.regs_per_thread--;
    o.regs_per_cta = cta_registers(c, o.regs_per_thread, o.warps);
    if (o.regs_per_cta > c->num_regs) {
        snprintf(err, errlen, "a CTA of %u warps needs %u registers even at 1 per thread; the SM has %u", o.warps,
                 o.regs_per_cta, c->num_regs);
        return -1;
    }
    o.limit_regs = c->num_regs / o.regs_per_cta;

    o.smem_per_cta = round_up(smem_per_cta, c->smem_alloc_unit);
    if (o.smem_per_cta > c->smem_size) {
        snprintf(err, errlen, "a CTA needs %u bytes of shared memory; the SM has %u", o.smem_per_cta, c->smem_size);
        return -1;
    }
    o.limit_smem = o.smem_per_cta ? c->smem_size / o.smem_per_cta : UINT32_MAX;

    o.ctas_per_sm = o.limit_threads;
    o.limiter = "threads";
    if (o.limit_ctas < o.ctas_per_sm) o.ctas_per_sm = o.limit_ctas, o.limiter = "ctas";
    if (o.limit_regs < o.ctas_per_sm) o.ctas_per_sm = o.limit_regs, o.limiter = "registers";
    if (o.limit_smem < o.ctas_per_sm) o.ctas_per_sm = o.limit_smem, o.limiter = "shared memory";
    if (o.ctas_per_sm == 0) {
        snprintf(err, errlen, "no CTA fits in an SM (max_ctas = %u)", c->max_ctas);
        return -1;
    }
    *out = o;
    return 0;
}
