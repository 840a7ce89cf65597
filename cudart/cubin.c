/* Register counts from a cubin: see cubin.h. */
#include "cubin.h"

#include <string.h>

#include "elfsec.h"

#define TEXT_PREFIX ".text."

typedef struct {
    cubin_regs_fn fn;
    void *ctx;
} walk;

static int each_text_section(void *ctx, const char *name, size_t len, uint32_t sh_info) {
    walk *w = ctx;
    size_t plen = sizeof TEXT_PREFIX - 1;
    if (len <= plen || memcmp(name, TEXT_PREFIX, plen) != 0) return 0;
    return w->fn(w->ctx, name + plen, len - plen, sh_info >> 24);
}

int cubin_function_regs(const unsigned char *img, size_t size, cubin_regs_fn fn, void *ctx) {
    walk w = { fn, ctx };
    return elf_each_section(img, size, each_text_section, &w);
}
