/* locsim_ldesc_*: attach Locality Descriptors to device allocations
 * (locsim.h; docs/ldesc.md). */
#include <string.h>

#include "runtime/runtime.h"

static void rebuild(locsim_device *dev) {
    ldesc_set_build(&dev->ldesc, dev->ldesc_slot, dev->ldesc_used, LOCSIM_LDESC_MAX);
}

locsim_status locsim_ldesc_attach(locsim_device *dev, const locsim_ldesc *d, int *id) {
    if (id) *id = -1;
    if (!dev) return LOCSIM_ERR_INVALID;
    char why[256];
    if (ldesc_validate(d, why, sizeof why)) return runtime_error(dev, LOCSIM_ERR_INVALID, "locality descriptor: %s", why);
    if (d->space == LOCSIM_LDESC_GLOBAL && (d->base + d->size < d->base || !devmem_check(dev->mem, d->base, d->size)))
        return runtime_error(dev, LOCSIM_ERR_INVALID,
                             "locality descriptor: [0x%llx, +%llu) is not inside one live device allocation",
                             (unsigned long long)d->base, (unsigned long long)d->size);
    for (int i = 0; i < LOCSIM_LDESC_MAX; i++) {
        if (dev->ldesc_used[i]) continue;
        dev->ldesc_slot[i] = *d;
        dev->ldesc_used[i] = 1;
        rebuild(dev);
        if (id) *id = i;
        return LOCSIM_OK;
    }
    return runtime_error(dev, LOCSIM_ERR_INVALID, "locality descriptor: all %d descriptors are in use (detach one first)",
                         LOCSIM_LDESC_MAX);
}

locsim_status locsim_ldesc_detach(locsim_device *dev, int id) {
    if (!dev) return LOCSIM_ERR_INVALID;
    if (id < 0 || id >= LOCSIM_LDESC_MAX || !dev->ldesc_used[id])
        return runtime_error(dev, LOCSIM_ERR_INVALID, "locality descriptor %d is not attached", id);
    dev->ldesc_used[id] = 0;
    rebuild(dev);
    return LOCSIM_OK;
}

void locsim_ldesc_clear(locsim_device *dev) {
    if (!dev) return;
    memset(dev->ldesc_used, 0, sizeof dev->ldesc_used);
    rebuild(dev);
}

uint32_t locsim_ldesc_count(const locsim_device *dev) { return dev ? dev->ldesc.n + dev->ldesc.nlocal : 0; }

void runtime_ldesc_forget(locsim_device *dev, uint64_t base, uint64_t size) {
    int changed = 0;
    for (int i = 0; i < LOCSIM_LDESC_MAX; i++)
        if (dev->ldesc_used[i] && dev->ldesc_slot[i].space == LOCSIM_LDESC_GLOBAL && dev->ldesc_slot[i].base >= base &&
            dev->ldesc_slot[i].base - base < size) {
            dev->ldesc_used[i] = 0;
            changed = 1;
        }
    if (changed) rebuild(dev);
}
