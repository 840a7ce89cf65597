/* libFuzzer target: the configuration parser on arbitrary text, and the GPU it
 * describes running a tiny kernel.
 *
 * Config files are user input (GPGPU-Sim-style `-option value` lines, cache
 * geometry strings, DRAM timing strings).  Loading one must either succeed and
 * pass every config-time check (config_finalize, gpu_params_validate: what
 * locsim_config_load does), or fail with a message.  A configuration that loads
 * must then build a GPU and run a small kernel (global loads with several strides,
 * stores, shared memory, a barrier, an atomic) for at most FUZZ_CYCLES core cycles:
 * a combination the validation lets through but the model cannot represent shows up
 * here as a crash or a sanitizer report (how the L2-line-smaller-than-L1-line crash
 * of issue 10 was found).  A crash, leak, hang or sanitizer report is a finding.
 *
 * Configurations too large to build quickly (more than FUZZ_MAX_SMS SMs or
 * FUZZ_MAX_CACHE_BYTES of cache per instance) are validated but not run.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "locsim/locsim.h"
#include "sim/config.h"
#include "sim/gpu_internal.h"

#define FUZZ_CYCLES 400
#define FUZZ_MAX_SMS 64
#define FUZZ_MAX_PARTS 64
#define FUZZ_MAX_CACHE_BYTES (4u << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Thread i of CTA c: loads a[i], a[i * 33] (a new line per lane) and a[i * 8 + 4096]
 * (sectors), stores their sum, stages it through shared memory across a barrier and
 * adds it to a[0] atomically. */
static const char kernel_ptx[] =
    ".version 8.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry k(.param .u64 a)\n{\n"
    "  .reg .b32 %r<12>;\n  .reg .b64 %rd<10>;\n  .shared .align 4 .b32 s[128];\n"
    "  ld.param.u64 %rd1, [a];\n  cvta.to.global.u64 %rd1, %rd1;\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %ctaid.x;\n  mov.u32 %r3, %ntid.x;\n"
    "  mad.lo.s32 %r4, %r2, %r3, %r1;\n"
    "  mul.wide.u32 %rd2, %r4, 4;\n  add.s64 %rd3, %rd1, %rd2;\n  ld.global.u32 %r5, [%rd3];\n"
    "  mul.wide.u32 %rd4, %r4, 132;\n  add.s64 %rd5, %rd1, %rd4;\n  ld.global.u32 %r6, [%rd5];\n"
    "  mul.wide.u32 %rd6, %r4, 32;\n  add.s64 %rd7, %rd1, %rd6;\n  ld.global.u32 %r7, [%rd7+16384];\n"
    "  add.s32 %r8, %r5, %r6;\n  add.s32 %r8, %r8, %r7;\n  st.global.u32 [%rd3+65536], %r8;\n"
    "  shl.b32 %r9, %r1, 2;\n  mov.u32 %r10, s;\n  add.s32 %r10, %r10, %r9;\n"
    "  st.shared.u32 [%r10], %r8;\n  bar.sync 0;\n  ld.shared.u32 %r11, [%r10];\n"
    "  atom.global.add.u32 %r11, [%rd1], %r11;\n  ret;\n}\n";

static int small_enough(const sim_config *c) {
    const cache_geometry *caches[] = {&c->l1d, &c->l1c, &c->l1i, &c->l2};
    for (size_t i = 0; i < sizeof caches / sizeof *caches; i++)
        if ((uint64_t)caches[i]->nsets * caches[i]->line_size * caches[i]->assoc > FUZZ_MAX_CACHE_BYTES) return 0;
    return config_num_sms(c) <= FUZZ_MAX_SMS && c->n_mem * c->n_sub_partition_per_mchannel <= FUZZ_MAX_PARTS &&
           !c->l1d_unbounded;
}

/* Build the GPU and run the kernel; any status is fine, a message is required. */
static void run_kernel(sim_config *c) {
    locsim_device *dev = NULL;
    if (locsim_device_create(c, LOCSIM_MODE_TIMING, &dev) != LOCSIM_OK) {
        if (strcmp(locsim_last_error(NULL), "no device") == 0) abort();  /* a failure must say why */
        return;
    }
    locsim_module *mod = NULL;
    locsim_kernel *k = NULL;
    locsim_dptr a = 0;
    if (locsim_module_load_ptx(dev, kernel_ptx, sizeof kernel_ptx - 1, "fuzz.ptx", &mod) != LOCSIM_OK ||
        locsim_module_get_kernel(mod, "k", &k) != LOCSIM_OK || locsim_malloc(dev, &a, 1 << 17) != LOCSIM_OK)
        abort();  /* the kernel is valid PTX: only the timing model is under test */
    void *args[] = {&a};
    locsim_status st = locsim_launch(k, (locsim_dim3){4, 1, 1}, (locsim_dim3){64, 1, 1}, 0, args, 1);
    if (st != LOCSIM_OK && !locsim_last_error(dev)[0]) abort();
    locsim_device_destroy(dev);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > 1 << 16) return 0;
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';  /* config_load_string takes a C string */
    static sim_config c;
    char err[512] = "";
    gpu_params p;
    config_defaults(&c);
    if (config_load_string(&c, text, "fuzz.cfg", err, sizeof err) || config_finalize(&c, err, sizeof err) ||
        gpu_params_from_config(&c, &p, err, sizeof err) || gpu_params_validate(&p, err, sizeof err)) {
        if (!err[0]) abort();  /* a failure must say why */
    } else if (small_enough(&c)) {
        if (!c.max_cycle || c.max_cycle > FUZZ_CYCLES) c.max_cycle = FUZZ_CYCLES;
        run_kernel(&c);
    }
    free(text);
    return 0;
}
