/* Replays inputs through a libFuzzer target's LLVMFuzzerTestOneInput, without
 * libFuzzer: the test build links it with fuzz/fuzz_config.c and fuzz/fuzz_fatbin.c
 * (tests/CMakeLists.txt) and CTest runs it on every input kept in fuzz/regressions
 * (and the fatbin seeds).  A target aborts (or a sanitizer reports) when an input
 * crashes, hangs past its bounds or fails without a message, so the test fails. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "fuzz_replay: cannot open %s\n", path);
        return -1;
    }
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0, n;
    uint8_t chunk[4096];
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (len + n > cap) {
            cap = (len + n) * 2;
            uint8_t *grown = realloc(buf, cap);
            if (!grown) abort();
            buf = grown;
        }
        for (size_t i = 0; i < n; i++) buf[len + i] = chunk[i];
        len += n;
    }
    fclose(f);
    LLVMFuzzerTestOneInput(buf ? buf : chunk, len);
    free(buf);
    printf("%s: ok (%zu bytes)\n", path, len);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: fuzz_replay INPUT...\n");
        return 2;
    }
    for (int i = 1; i < argc; i++)
        if (replay(argv[i]) != 0) return 1;
    return 0;
}
