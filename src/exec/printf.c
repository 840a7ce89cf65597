/* Device printf: vprintf(fmt, args), an .extern .func the executor provides.
 *
 * For each calling lane in lane order: the format string is read at the generic
 * address fmt, the arguments from the buffer at the generic address args (usually
 * the caller's local depot), packed as nvcc packs them: each argument aligned to
 * its own size, 8 bytes for long/long long/pointers/strings/doubles (float is
 * promoted to double), 4 bytes for int, char and the rest.  The text is written to
 * launch->printf_out (stdout if NULL).  As CUDA's printf, the call returns the
 * number of arguments parsed (0 when there are none, -1 for a NULL format). */
#include <stdio.h>
#include <stdlib.h>

#include "exec/exec_internal.h"

#define FMT_MAX 4096
#define STR_MAX 4096

typedef struct {
    exec_ctx *x;
    uint32_t lane;
    uint64_t args;   /* generic address of the argument buffer (0: none) */
    uint32_t off;    /* next argument offset */
    FILE *out;
    int nargs;       /* arguments consumed: the return value */
} printf_state;

static int next_arg(printf_state *s, unsigned size, uint64_t *val) {
    s->off = (s->off + size - 1) & ~(size - 1);
    s->nargs++;
    *val = 0;
    if (!s->args) return 0; /* no argument buffer: missing arguments read as 0 */
    ptx_space rs;
    uint64_t ra;
    const uint8_t *p = exec_mem_ptr(s->x, PTX_SPACE_NONE, s->args + s->off, size, ACC_READ, s->lane, &rs, &ra);
    if (!p) return -1;
    memcpy(val, p, size);
    s->off += size;
    return 0;
}

/* One conversion: spec is "%[flags][width][.prec]" (already expanded), len the
 * length modifier letters, conv the conversion character. */
static int convert(printf_state *s, char *spec, const char *len, char conv) {
    size_t sl = strlen(spec);
    int is_long = strchr(len, 'l') || strchr(len, 'j') || strchr(len, 'z') || strchr(len, 't') || strchr(len, 'q');
    uint64_t v;
    switch (conv) {
    case 'd': case 'i':
        if (next_arg(s, is_long ? 8 : 4, &v)) return -1;
        snprintf(spec + sl, 8, "ll%c", conv);
        if (!is_long) {
            int64_t w = (int32_t)(uint32_t)v;
            if (strcmp(len, "h") == 0) w = (int16_t)w;
            if (strcmp(len, "hh") == 0) w = (int8_t)w;
            fprintf(s->out, spec, (long long)w);
        } else {
            fprintf(s->out, spec, (long long)(int64_t)v);
        }
        return 0;
    case 'u': case 'x': case 'X': case 'o':
        if (next_arg(s, is_long ? 8 : 4, &v)) return -1;
        if (!is_long) {
            v &= 0xffffffffu;
            if (strcmp(len, "h") == 0) v &= 0xffff;
            if (strcmp(len, "hh") == 0) v &= 0xff;
        }
        snprintf(spec + sl, 8, "ll%c", conv);
        fprintf(s->out, spec, (unsigned long long)v);
        return 0;
    case 'c':
        if (next_arg(s, 4, &v)) return -1;
        snprintf(spec + sl, 8, "c");
        fprintf(s->out, spec, (int)(unsigned char)v);
        return 0;
    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
        if (next_arg(s, 8, &v)) return -1;
        double d;
        memcpy(&d, &v, 8);
        snprintf(spec + sl, 8, "%c", conv);
        fprintf(s->out, spec, d);
        return 0;
    }
    case 'p':
        if (next_arg(s, 8, &v)) return -1;
        snprintf(spec + sl, 8, "llx");
        fprintf(s->out, "0x");
        fprintf(s->out, spec, (unsigned long long)v);
        return 0;
    case 's': {
        if (next_arg(s, 8, &v)) return -1;
        char str[STR_MAX];
        if (v == 0) snprintf(str, sizeof str, "(null)");
        else if (exec_read_string(s->x, v, s->lane, str, sizeof str) < 0) return -1;
        snprintf(spec + sl, 8, "s");
        fprintf(s->out, spec, str);
        return 0;
    }
    default: /* not a conversion we know: print it as written */
        fprintf(s->out, "%s%s%c", spec, len, conv);
        return 0;
    }
}

/* Parse "%..." at *pp (just past the '%') and print it; advances *pp. */
static int directive(printf_state *s, const char **pp) {
    const char *p = *pp;
    char spec[64] = "%";
    size_t n = 1;
    while (*p && strchr("-+ #0", *p) && n < 8) spec[n++] = *p++;
    for (int part = 0; part < 2; part++) { /* width, then precision */
        if (part == 1) {
            if (*p != '.') break;
            spec[n++] = *p++;
        }
        long val = 0;
        if (*p == '*') {
            uint64_t v;
            if (next_arg(s, 4, &v)) return -1;
            val = (int32_t)(uint32_t)v;
            p++;
        } else {
            while (*p >= '0' && *p <= '9') {
                if (val < 100000) val = val * 10 + (*p - '0');
                p++;
            }
        }
        if (val > 4096) val = 4096;
        if (val < -4096) val = -4096;
        if (part == 1 && val < 0) { /* a negative precision counts as omitted */
            n--;
            continue;
        }
        if (val || part == 1) n += (size_t)snprintf(spec + n, sizeof spec - n, "%ld", val);
    }
    spec[n] = 0;
    char len[4] = "";
    size_t ln = 0;
    while (*p && strchr("hlLqjzt", *p) && ln < 3) len[ln++] = *p++;
    len[ln] = 0;
    if (!*p) {
        *pp = p;
        return 0;
    }
    char conv = *p++;
    *pp = p;
    if (conv == '%') {
        fputc('%', s->out);
        return 0;
    }
    return convert(s, spec, len, conv);
}

static int print_lane(printf_state *s, const char *fmt) {
    const char *p = fmt;
    while (*p) {
        const char *q = strchr(p, '%');
        size_t lit = q ? (size_t)(q - p) : strlen(p);
        if (lit) fwrite(p, 1, lit, s->out);
        if (!q) break;
        p = q + 1;
        if (directive(s, &p)) return -1;
    }
    return 0;
}

/* One lane's printf through the launch's FIFO: the text is formatted aside and
 * written only if it fits in what is left of printf_limit; else the call is
 * dropped whole and counted (the launch warns). */
static int print_limited(exec_ctx *x, uint32_t lane, uint64_t args, const char *fmt, FILE *out, int32_t *ret) {
    const exec_launch *L = x->cta->L;
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem) return exec_fault_insn(x, LOCSIM_ERR_OUT_OF_MEMORY, "out of host memory for device printf");
    printf_state s = {x, lane, args, 0, mem, 0};
    int bad = print_lane(&s, fmt);
    if (fclose(mem) != 0 && !bad) {
        free(text);
        return exec_fault_insn(x, LOCSIM_ERR_OUT_OF_MEMORY, "out of host memory for device printf");
    }
    if (!bad) {
        if (len <= L->printf_limit - *L->printf_used) {
            fwrite(text, 1, len, out);
            *L->printf_used += len;
        } else {
            (*L->printf_dropped)++;
        }
        *ret = s.nargs;
    }
    free(text);
    return bad ? -1 : 0;
}

int exec_vprintf(exec_ctx *x, const ptx_call *site, uint32_t lanes) {
    FILE *out = x->cta->L->printf_out ? x->cta->L->printf_out : stdout;
    FOR_EACH_LANE(l, lanes) {
        uint64_t fmt_addr = 0, args = 0;
        if (exec_call_arg(x, site, 0, l, &fmt_addr, 8)) return exec_unsupported(x);
        if (site->nargs > 1 && exec_call_arg(x, site, 1, l, &args, 8)) return exec_unsupported(x);
        int32_t ret = -1;
        if (fmt_addr) {
            char fmt[FMT_MAX];
            if (exec_read_string(x, fmt_addr, l, fmt, sizeof fmt) < 0) return -1;
            const exec_launch *L = x->cta->L;
            if (!L->printf_limit) {
                printf_state s = {x, l, args, 0, out, 0};
                if (print_lane(&s, fmt)) return -1;
                ret = s.nargs;
            } else if (print_limited(x, l, args, fmt, out, &ret)) {
                return -1;
            }
        }
        if (exec_call_ret(x, site, 0, l, &ret, 4)) return exec_unsupported(x);
    }
    return 0;
}
