/* libFuzzer target: the configuration parser on arbitrary text.
 *
 * Config files are user input (GPGPU-Sim-style `-option value` lines, cache
 * geometry strings, DRAM timing strings).  Loading one must either succeed and
 * pass config_finalize's cross-checks, or fail with a message; a crash, leak,
 * hang or sanitizer report is a finding.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16)
        return 0;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';  /* config_load_string takes a C string */
    static sim_config c;
    char err[512];
    config_defaults(&c);
    err[0] = '\0';
    if (config_load_string(&c, text, "fuzz.cfg", err, sizeof err) == 0) {
        config_finalize(&c, err, sizeof err);
    } else if (err[0] == '\0') {
        abort();  /* a failure must say why */
    }
    free(text);
    return 0;
}
