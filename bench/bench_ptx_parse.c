/* PTX front-end speed (a benchmark, not a test: it prints, it asserts nothing).
 *
 * For every workloads/<name>/kernel.ptx and every .ptx in tests/ptx, and for a generated
 * module of about 10,000 lines, prints the process CPU time of one ptx_parse
 * (median of repeated parses, module freed each time) and the throughput in
 * lines per second.
 *
 *   ./build/bench/bench_ptx_parse [repeats]
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ptx/ir.h"

#ifndef LOCSIM_SOURCE_DIR
#define LOCSIM_SOURCE_DIR "."
#endif

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static char *read_all(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (buf && fread(buf, 1, (size_t)n, fp) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(fp);
    *len = buf ? (size_t)n : 0;
    return buf;
}

static unsigned count_lines(const char *s, size_t n)
{
    unsigned l = 0;
    for (size_t i = 0; i < n; i++)
        l += s[i] == '\n';
    return l;
}

/* Median CPU milliseconds of one parse; -1 if it does not parse. */
static double time_parse(const char *name, const char *text, size_t len, int repeats)
{
    double t[64];
    if (repeats > 64)
        repeats = 64;
    for (int r = 0; r < repeats; r++) {
        ptx_error err;
        double t0 = cpu_seconds();
        ptx_module *m = ptx_parse(text, len, name, &err);
        double t1 = cpu_seconds();
        if (!m) {
            fprintf(stderr, "%s\n", err.msg);
            return -1;
        }
        ptx_module_free(m);
        t[r] = (t1 - t0) * 1e3;
    }
    qsort(t, (size_t)repeats, sizeof t[0], cmp_double);
    return t[repeats / 2];
}

static void report(const char *name, const char *text, size_t len, int repeats)
{
    double ms = time_parse(name, text, len, repeats);
    unsigned lines = count_lines(text, len);
    if (ms < 0)
        printf("%-36s %7u lines   parse error\n", name, lines);
    else
        printf("%-36s %7u lines %9.3f ms %10.0f lines/s\n", name, lines, ms, ms > 0 ? lines / (ms * 1e-3) : 0.0);
}

/* A deterministic module of ~10k lines: 50 kernels of ~200 instructions each. */
static char *generate_module(size_t *len)
{
    size_t cap = 1 << 20, n = 0;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    uint32_t x = 12345;
#define RND() (x ^= x << 13, x ^= x >> 17, x ^= x << 5, x)
#define EMIT(...) (n += (size_t)snprintf(s + n, cap - n, __VA_ARGS__))
    EMIT(".version 9.0\n.target sm_75\n.address_size 64\n");
    for (int f = 0; f < 50 && n + 65536 < cap; f++) {
        EMIT(".visible .entry k%d(.param .u64 k%d_p0, .param .u32 k%d_p1)\n{\n", f, f, f);
        EMIT("\t.reg .pred %%p<20>;\n\t.reg .b32 %%r<200>;\n\t.reg .f32 %%f<200>;\n\t.reg .b64 %%rd<200>;\n");
        EMIT("\tld.param.u64 %%rd1, [k%d_p0];\n\tld.param.u32 %%r1, [k%d_p1];\n", f, f);
        for (int i = 0; i < 200; i++) {
            unsigned a = 1 + RND() % 199, b = 1 + RND() % 199, c = 1 + RND() % 199;
            switch (RND() % 7) {
            case 0: EMIT("\tadd.s32 \t%%r%u, %%r%u, %%r%u;\n", a, b, c); break;
            case 1: EMIT("\tfma.rn.f32 \t%%f%u, %%f%u, %%f%u, 0f3F800000;\n", a, b, c); break;
            case 2: EMIT("\tld.global.f32 \t%%f%u, [%%rd%u+%u];\n", a, b, 4 * (c % 64)); break;
            case 3: EMIT("\tsetp.lt.s32 \t%%p%u, %%r%u, %u;\n", 1 + a % 19, b, c); break;
            case 4: EMIT("\t@%%p%u bra \t$L__BB%d_%u;\n", 1 + a % 19, f, b % 10); break;
            case 5: EMIT("\tmul.wide.s32 \t%%rd%u, %%r%u, 4;\n", a, b); break;
            default: EMIT("\tst.global.f32 \t[%%rd%u], %%f%u;\n", a, b); break;
            }
            if (i % 20 == 19)
                EMIT("$L__BB%d_%d:\n", f, i / 20);
        }
        EMIT("\tret;\n}\n");
    }
#undef EMIT
#undef RND
    *len = n;
    return s;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every file matching dir/<entry>/<leaf> (leaf non-NULL) or dir/<entry>.ptx. */
static void bench_dir(const char *dir, const char *leaf, int repeats)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    char *names[512];
    size_t k = 0;
    struct dirent *e;
    while ((e = readdir(d)) && k < 512) {
        size_t l = strlen(e->d_name);
        if (e->d_name[0] == '.' || (!leaf && (l < 5 || strcmp(e->d_name + l - 4, ".ptx") != 0)))
            continue;
        names[k++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, k, sizeof names[0], cmp_str);
    for (size_t i = 0; i < k; i++) {
        char path[2048], label[300];
        snprintf(path, sizeof path, "%s/%s%s%s", dir, names[i], leaf ? "/" : "", leaf ? leaf : "");
        snprintf(label, sizeof label, "%s%s", names[i], leaf ? "/kernel.ptx" : "");
        size_t len;
        char *text = read_all(path, &len);
        if (text)
            report(label, text, len, repeats);
        free(text);
        free(names[i]);
    }
}

int main(int argc, char **argv)
{
    int repeats = argc > 1 ? atoi(argv[1]) : 9;
    if (repeats < 1)
        repeats = 1;
    printf("PTX parse time (CPU, median of %d)\n", repeats);
    bench_dir(LOCSIM_SOURCE_DIR "/workloads", "kernel.ptx", repeats);
    bench_dir(LOCSIM_SOURCE_DIR "/tests/ptx", NULL, repeats);
    size_t len;
    char *big = generate_module(&len);
    if (big)
        report("generated (50 kernels)", big, len, repeats);
    free(big);
    return 0;
}
