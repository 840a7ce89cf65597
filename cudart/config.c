/* Device selection from the environment (see config.h). */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

void cr_free_words(char **words) {
    if (!words) return;
    for (char **w = words; *w; w++) free(*w);
    free(words);
}

/* Append the word in buf[0..len) to *words. */
static int push_word(char ***words, int *n, const char *buf, size_t len) {
    char **grown = realloc(*words, (size_t)(*n + 2) * sizeof **words);
    if (!grown) return -1;
    *words = grown;
    char *w = malloc(len + 1);
    if (!w) return -1;
    memcpy(w, buf, len);
    w[len] = 0;
    grown[(*n)++] = w;
    grown[*n] = NULL;
    return 0;
}

char **cr_split_words(const char *s, int *count, char *err, size_t errlen) {
    char **words = calloc(1, sizeof *words);
    int n = 0;
    size_t cap = strlen(s) + 1, len = 0;
    char *buf = malloc(cap);
    if (!words || !buf) goto oom;
    const char *p = s;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == '\n') p++;
        if (!*p) break;
        len = 0;
        while (*p && *p != ' ' && *p != '\t' && *p != '\n') {
            if (*p == '"' || *p == '\'') {
                char q = *p++;
                while (*p && *p != q) buf[len++] = *p++;
                if (!*p) {
                    fail(err, errlen, "LOCSIM_OPTIONS: unterminated %c quote in \"%s\"", q, s);
                    free(buf);
                    cr_free_words(words);
                    return NULL;
                }
                p++;
            } else {
                buf[len++] = *p++;
            }
        }
        if (push_word(&words, &n, buf, len) != 0) goto oom;
    }
    free(buf);
    *count = n;
    return words;
oom:
    free(buf);
    cr_free_words(words);
    fail(err, errlen, "out of memory reading LOCSIM_OPTIONS");
    return NULL;
}

static const char *env_or_empty(const char *name) {
    const char *v = getenv(name);
    return v ? v : "";
}

#define DEFAULT_CONFIG "fermi_gtx480"  /* what `locsim run` simulates by default */

int cr_config_from_env(locsim_config **cfg, locsim_mode *mode, char *name, size_t namelen, char *err,
                       size_t errlen) {
    *cfg = NULL;
    const char *m = env_or_empty("LOCSIM_MODE");
    if (!*m || strcmp(m, "timing") == 0) {
        *mode = LOCSIM_MODE_TIMING;
    } else if (strcmp(m, "functional") == 0) {
        *mode = LOCSIM_MODE_FUNCTIONAL;
    } else {
        return fail(err, errlen, "LOCSIM_MODE=%s: expected functional or timing", m);
    }
    const char *config = env_or_empty("LOCSIM_CONFIG");
    int nwords = 0;
    char **words = cr_split_words(env_or_empty("LOCSIM_OPTIONS"), &nwords, err, errlen);
    if (!words) return -1;
    if (nwords % 2) {
        cr_free_words(words);
        return fail(err, errlen, "LOCSIM_OPTIONS: expected \"-option value\" pairs, got %d words", nwords);
    }
    for (int i = 0; *mode == LOCSIM_MODE_FUNCTIONAL && i < nwords; i += 2) {
        if (!strcmp(words[i], "-gpgpu_max_insn") || !strcmp(words[i], "-gpgpu_max_cycle")) {
            fail(err, errlen, "LOCSIM_OPTIONS: %s caps the timing model: functional mode (LOCSIM_MODE=functional) "
                 "does not honour it", words[i]);
            cr_free_words(words);
            return -1;
        }
    }
    snprintf(name, namelen, "%s", *config ? config : DEFAULT_CONFIG);
    char why[1024];
    locsim_status st = locsim_config_load(name, nwords, words, cfg, why, sizeof why);
    cr_free_words(words);
    if (st == LOCSIM_OK) return 0;
    if (!*config && nwords == 0) {
        /* Nothing was asked for and the shipped file is not where we look (the
         * library used outside `locsim exec`): the built-in defaults are the same
         * GTX480 figures. */
        snprintf(name, namelen, "%s (built-in defaults)", DEFAULT_CONFIG);
        return 0;
    }
    return fail(err, errlen, "%s", why);
}
