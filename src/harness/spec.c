/* Sweep specifications (see spec.h): YAML through libyaml's document API, then
 * checks of every name and option before anything runs. */
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/spec.h"
#include "sim/config.h"
#include "sim/gpu_internal.h"
#include "workload.h"

/* ---- arena: everything a spec holds is freed at once ---- */

typedef struct arena_block {
    struct arena_block *next;
    max_align_t data[];
} arena_block;

void *spec_alloc(spec *s, size_t n) {
    arena_block *b = calloc(1, sizeof *b + n + 1);
    if (!b) {
        fprintf(stderr, "locsim: out of memory\n");
        exit(2);
    }
    b->next = s->arena;
    s->arena = b;
    return b->data;
}

char *spec_strdup(spec *s, const char *str) {
    size_t n = strlen(str);
    char *p = spec_alloc(s, n + 1);
    memcpy(p, str, n + 1);
    return p;
}

void spec_free(spec *s) {
    if (!s) return;
    for (arena_block *b = s->arena, *next; b; b = next) {
        next = b->next;
        free(b);
    }
    yaml_document_delete(&s->doc);
    free(s);
}

/* ---- YAML helpers ---- */

typedef struct {
    spec *s;
    char *err;
    size_t errlen;
} ctx;

int spec_line(yaml_node_t *n) { return n ? (int)n->start_mark.line + 1 : 0; }

static int fail(ctx *c, yaml_node_t *n, const char *fmt, ...) {
    int len = snprintf(c->err, c->errlen, "%s:%d: ", c->s->path, spec_line(n));
    va_list ap;
    va_start(ap, fmt);
    if (len >= 0 && (size_t)len < c->errlen) vsnprintf(c->err + len, c->errlen - (size_t)len, fmt, ap);
    va_end(ap);
    return -1;
}

yaml_node_t *spec_node(spec *s, int index) { return index ? yaml_document_get_node(&s->doc, index) : NULL; }

const char *spec_scalar(yaml_node_t *n) {
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

yaml_node_t *spec_unknown_key(spec *s, yaml_node_t *map, const char *const *allowed, char *list, size_t cap) {
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
        yaml_node_t *kn = spec_node(s, p->key);
        const char *k = spec_scalar(kn);
        int ok = 0;
        for (const char *const *a = allowed; k && *a; a++) ok |= !strcmp(k, *a);
        if (ok) continue;
        size_t len = 0;
        list[0] = '\0';
        for (const char *const *a = allowed; *a && len < cap; a++)
            len += (size_t)snprintf(list + len, cap - len, "%s%s", a == allowed ? "" : ", ", *a);
        return kn;
    }
    return NULL;
}

yaml_node_t *spec_map_get(spec *s, yaml_node_t *map, const char *key) {
    if (!map || map->type != YAML_MAPPING_NODE) return NULL;
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
        const char *k = spec_scalar(spec_node(s, p->key));
        if (k && !strcmp(k, key)) return spec_node(s, p->value);
    }
    return NULL;
}

/* Every key of a mapping must be one of `allowed` (NULL-terminated). */
static int check_keys(ctx *c, yaml_node_t *map, const char *what, const char *const *allowed) {
    if (!map || map->type != YAML_MAPPING_NODE) return fail(c, map, "%s: expected a mapping (key: value)", what);
    char list[512];
    yaml_node_t *kn = spec_unknown_key(c->s, map, allowed, list, sizeof list);
    if (!kn) return 0;
    const char *k = spec_scalar(kn);
    return fail(c, kn, "unknown key '%s' in %s (expected one of: %s)", k ? k : "?", what, list);
}

/* A scalar or a list of scalars, as an array of strings. */
static int strings(ctx *c, yaml_node_t *n, const char *what, char ***out, int *nout) {
    if (!n) return fail(c, n, "%s: missing value", what);
    if (n->type == YAML_SCALAR_NODE) {
        *out = spec_alloc(c->s, 2 * sizeof **out);
        (*out)[0] = spec_strdup(c->s, spec_scalar(n));
        *nout = 1;
        return 0;
    }
    if (n->type != YAML_SEQUENCE_NODE) return fail(c, n, "%s: expected a value or a list of values", what);
    int k = (int)(n->data.sequence.items.top - n->data.sequence.items.start);
    *out = spec_alloc(c->s, (size_t)(k + 1) * sizeof **out);
    *nout = 0;
    for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++) {
        yaml_node_t *e = spec_node(c->s, *it);
        if (!spec_scalar(e)) return fail(c, e, "%s: expected a plain value in the list", what);
        (*out)[(*nout)++] = spec_strdup(c->s, spec_scalar(e));
    }
    if (!*nout) return fail(c, n, "%s: the list is empty", what);
    return 0;
}

static int parse_u64(ctx *c, yaml_node_t *n, const char *text, const char *what, uint64_t max, uint64_t *out) {
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (!*text || *text == '-' || *end || errno || v > max)
        return fail(c, n, "%s: expected an unsigned integer <= %llu, got '%s'", what, (unsigned long long)max, text);
    *out = v;
    return 0;
}

static int u64_list(ctx *c, yaml_node_t *n, const char *what, uint64_t max, uint64_t **out, int *nout) {
    char **v;
    int k;
    if (strings(c, n, what, &v, &k)) return -1;
    *out = spec_alloc(c->s, (size_t)k * sizeof **out);
    for (int i = 0; i < k; i++)
        if (parse_u64(c, n, v[i], what, max, &(*out)[i])) return -1;
    *nout = k;
    return 0;
}

static int is_ident(const char *s) {
    if (!*s || !(s[0] == '_' || (s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z'))) return 0;
    for (; *s; s++)
        if (!(*s == '_' || (*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9')))
            return 0;
    return 1;
}

static int count_items(yaml_node_t *n) {
    if (n->type == YAML_SEQUENCE_NODE) return (int)(n->data.sequence.items.top - n->data.sequence.items.start);
    if (n->type == YAML_MAPPING_NODE) return (int)(n->data.mapping.pairs.top - n->data.mapping.pairs.start);
    return 0;
}

/* ---- sections ---- */

static int parse_configs(ctx *c, yaml_node_t *n) {
    char **names;
    if (strings(c, n, "configs", &names, &c->s->nconfigs)) return -1;
    c->s->configs = spec_alloc(c->s, (size_t)c->s->nconfigs * sizeof *c->s->configs);
    for (int i = 0; i < c->s->nconfigs; i++) {
        char path[CONFIG_PATH_MAX], e[1024];
        if (config_resolve(names[i], NULL, path, sizeof path, e, sizeof e))
            return fail(c, n, "configs: unknown config '%s' (%s)", names[i], e);
        c->s->configs[i].name = names[i];
        c->s->configs[i].path = spec_strdup(c->s, path);
    }
    return 0;
}

static int parse_options(ctx *c, yaml_node_t *n, const char *what, spec_option **out, int *nout) {
    if (!n || n->type != YAML_MAPPING_NODE)
        return fail(c, n, "%s: expected a mapping of options, e.g. {-gpgpu_scheduler: gto}", what);
    *nout = 0;
    *out = spec_alloc(c->s, (size_t)(count_items(n) + 1) * sizeof **out);
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        yaml_node_t *kn = spec_node(c->s, p->key), *vn = spec_node(c->s, p->value);
        const char *k = spec_scalar(kn), *v = spec_scalar(vn);
        if (!k || k[0] != '-' || k[1] == '-' || !k[1])
            return fail(c, kn, "%s: expected an option name starting with one '-' (e.g. -gpgpu_scheduler), got '%s'",
                        what, k ? k : "?");
        if (!v) return fail(c, vn, "%s: option %s: expected a plain value", what, k);
        (*out)[*nout].name = spec_strdup(c->s, k);
        (*out)[*nout].line = spec_line(kn);
        (*out)[(*nout)++].value = spec_strdup(c->s, v);
    }
    return 0;
}

static spec_variant *new_variant(ctx *c, int *cap) {
    spec *s = c->s;
    if (s->nvariants == *cap) {
        int ncap = *cap ? 2 * *cap : 16;
        spec_variant *v = spec_alloc(s, (size_t)ncap * sizeof *v);
        if (s->nvariants) memcpy(v, s->variants, (size_t)s->nvariants * sizeof *v);
        s->variants = v;
        *cap = ncap;
    }
    spec_variant *v = &s->variants[s->nvariants++];
    memset(v, 0, sizeof *v);
    return v;
}

static int parse_variants(ctx *c, yaml_node_t *n, int *cap) {
    if (n->type != YAML_MAPPING_NODE) return fail(c, n, "variants: expected a mapping name -> {label, options}");
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        yaml_node_t *kn = spec_node(c->s, p->key), *vn = spec_node(c->s, p->value);
        const char *name = spec_scalar(kn);
        if (!name || !is_ident(name))
            return fail(c, kn, "variants: expected a name of letters, digits and '_', got '%s'", name ? name : "?");
        if (spec_find_variant(c->s, name)) return fail(c, kn, "variants: '%s' is defined twice", name);
        static const char *const keys[] = {"label", "options", NULL};
        if (check_keys(c, vn, "a variant", keys)) return -1;
        spec_variant *v = new_variant(c, cap);
        v->name = spec_strdup(c->s, name);
        v->line = spec_line(kn);
        const char *label = spec_scalar(spec_map_get(c->s, vn, "label"));
        v->label = spec_strdup(c->s, label ? label : name);
        yaml_node_t *on = spec_map_get(c->s, vn, "options");
        if (on && parse_options(c, on, name, &v->opts, &v->nopts)) return -1;
    }
    return 0;
}

/* "warp_limiting:gto:{}" with value 8 -> "warp_limiting:gto:8". */
static char *substitute(spec *s, const char *tmpl, const char *value) {
    char buf[1024];
    size_t len = 0;
    for (const char *p = tmpl; *p && len + 1 < sizeof buf; p++) {
        if (p[0] == '{' && p[1] == '}') {
            len += (size_t)snprintf(buf + len, sizeof buf - len, "%s", value);
            p++;
        } else {
            buf[len++] = *p;
        }
    }
    buf[len < sizeof buf ? len : sizeof buf - 1] = 0;
    return spec_strdup(s, buf);
}

static int parse_grids(ctx *c, yaml_node_t *n, int *cap) {
    if (n->type != YAML_MAPPING_NODE) return fail(c, n, "grids: expected a mapping name -> {values, options}");
    c->s->grids = spec_alloc(c->s, (size_t)count_items(n) * sizeof *c->s->grids);
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        yaml_node_t *kn = spec_node(c->s, p->key), *gn = spec_node(c->s, p->value);
        const char *name = spec_scalar(kn);
        if (!name || !is_ident(name))
            return fail(c, kn, "grids: expected a name of letters, digits and '_', got '%s'", name ? name : "?");
        static const char *const keys[] = {"label", "values", "options", "options_for", "same", NULL};
        if (check_keys(c, gn, "a grid", keys)) return -1;
        spec_grid *g = &c->s->grids[c->s->ngrids++];
        g->name = spec_strdup(c->s, name);
        g->line = spec_line(kn);
        const char *label = spec_scalar(spec_map_get(c->s, gn, "label"));
        g->label = spec_strdup(c->s, label ? label : name);
        if (strings(c, spec_map_get(c->s, gn, "values"), "grid values", &g->values, &g->nvalues)) return -1;
        spec_option *opts;
        int nopts;
        if (parse_options(c, spec_map_get(c->s, gn, "options"), name, &opts, &nopts)) return -1;
        yaml_node_t *same = spec_map_get(c->s, gn, "same"), *extra = spec_map_get(c->s, gn, "options_for");
        if (same && same->type != YAML_MAPPING_NODE)
            return fail(c, same, "grid %s: same: expected a mapping value -> variant (e.g. {32: gto})", name);
        if (extra && extra->type != YAML_MAPPING_NODE)
            return fail(c, extra, "grid %s: options_for: expected a mapping value -> {options} (e.g. {4: {-x: 4}})",
                        name);
        for (int i = 0; i < g->nvalues; i++) {
            char vname[256];
            snprintf(vname, sizeof vname, "%s_%s", name, g->values[i]);
            if (!is_ident(vname))
                return fail(c, gn, "grid %s: value '%s' must be letters, digits or '_'", name, g->values[i]);
            if (spec_find_variant(c->s, vname)) return fail(c, kn, "grid %s: variant %s is defined twice", name, vname);
            spec_variant *v = new_variant(c, cap);
            v->name = spec_strdup(c->s, vname);
            v->label = g->values[i];
            v->grid = g->name;
            v->grid_value = g->values[i];
            v->line = g->line;
            const char *alias = spec_scalar(spec_map_get(c->s, same, g->values[i]));
            if (alias) {
                /* the same run as another variant (e.g. SWL with N = all warps is GTO) */
                const spec_variant *a = spec_find_variant(c->s, alias);
                if (!a) return fail(c, same, "grid %s: same: %s: no variant '%s' (define it under variants: first)",
                                    name, g->values[i], alias);
                v = &c->s->variants[c->s->nvariants - 1];
                v->opts = a->opts;
                v->nopts = a->nopts;
                continue;
            }
            /* the grid's options, then those options_for gives this value (later ones win) */
            spec_option *more = NULL;
            int nmore = 0;
            yaml_node_t *en = spec_map_get(c->s, extra, g->values[i]);
            if (en && parse_options(c, en, name, &more, &nmore)) return -1;
            v = &c->s->variants[c->s->nvariants - 1];
            v->opts = spec_alloc(c->s, (size_t)(nopts + nmore + 1) * sizeof *v->opts);
            v->nopts = nopts + nmore;
            for (int k = 0; k < nopts; k++) {
                v->opts[k].name = opts[k].name;
                v->opts[k].line = opts[k].line;
                v->opts[k].value = substitute(c->s, opts[k].value, g->values[i]);
            }
            for (int k = 0; k < nmore; k++) v->opts[nopts + k] = more[k];
        }
        yaml_node_t *keyed[2] = {same, extra};
        for (int m = 0; m < 2; m++) /* every key of same: and options_for: must be a value of the grid */
            for (yaml_node_pair_t *q = keyed[m] ? keyed[m]->data.mapping.pairs.start : NULL;
                 keyed[m] && q < keyed[m]->data.mapping.pairs.top; q++) {
                const char *k = spec_scalar(spec_node(c->s, q->key));
                int found = 0;
                for (int i = 0; k && i < g->nvalues; i++) found |= !strcmp(g->values[i], k);
                if (!found) return fail(c, spec_node(c->s, q->key), "grid %s: %s: '%s' is not one of its values", name,
                                        m ? "options_for" : "same", k ? k : "?");
            }
    }
    return 0;
}

/* `names` of variants or grids (globs allowed) must each match something. */
static int check_variant_names(ctx *c, yaml_node_t *n, const char *what, char **names, int k) {
    for (int i = 0; i < k; i++) {
        int found = 0;
        for (int v = 0; v < c->s->nvariants && !found; v++) {
            const spec_variant *x = &c->s->variants[v];
            found = !fnmatch(names[i], x->name, 0) || (x->grid && !fnmatch(names[i], x->grid, 0));
        }
        if (!found) return fail(c, n, "%s: no variant or grid matches '%s'", what, names[i]);
    }
    return 0;
}

static int parse_sizes(ctx *c, yaml_node_t *sn, spec_workload *w, const workload_entry *e) {
    char **v;
    int k;
    if (!sn) {
        w->sizes = spec_alloc(c->s, sizeof *w->sizes);
        w->sizes[0] = e->wl->default_size;
        w->nsizes = 1;
        return 0;
    }
    if (strings(c, sn, "size", &v, &k)) return -1;
    w->sizes = spec_alloc(c->s, (size_t)k * sizeof *w->sizes);
    for (int i = 0; i < k; i++) {
        uint64_t x = 0;
        if (!strcmp(v[i], "default")) x = e->wl->default_size;
        else if (parse_u64(c, sn, v[i], "size", 1000000, &x)) return -1;
        if (x == 0) return fail(c, sn, "size: expected >= 1 (or 'default')");
        if (e->wl->max_size && x > e->wl->max_size)
            return fail(c, sn, "size: %s takes at most %u, got %llu", e->wl->name, e->wl->max_size,
                        (unsigned long long)x);
        w->sizes[i] = (uint32_t)x;
    }
    w->nsizes = k;
    return 0;
}

static int parse_workload(ctx *c, yaml_node_t *n, spec_workload *w, char **seeds_default, int nseeds_default) {
    static const char *const keys[] = {"name", "id", "exec", "size", "seeds", "class", "label", "variants", NULL};
    if (check_keys(c, n, "a workload", keys)) return -1;
    memset(w, 0, sizeof *w);
    w->line = spec_line(n);
    yaml_node_t *nn = spec_map_get(c->s, n, "name"), *xn = spec_map_get(c->s, n, "exec");
    const char *name = spec_scalar(nn), *id = spec_scalar(spec_map_get(c->s, n, "id"));
    if (!!nn == !!xn) return fail(c, n, "a workload needs exactly one of name: (built in) or exec: [program, args...]");
    if (nn) {
        const workload_entry *e = name ? workload_find(name) : NULL;
        if (!e) {
            char list[2048] = "";
            size_t len = 0;
            for (const workload_entry *x = workload_table; x->wl && len < sizeof list; x++)
                len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", x == workload_table ? "" : ", ",
                                        x->wl->name);
            return fail(c, nn, "unknown workload '%s' (built in: %s)", name ? name : "?", list);
        }
        w->name = spec_strdup(c->s, name);
        if (parse_sizes(c, spec_map_get(c->s, n, "size"), w, e)) return -1;
    } else {
        char **argv;
        if (strings(c, xn, "exec", &argv, &w->argc)) return -1;
        w->argv = argv;
        w->argv[w->argc] = NULL;
        if (spec_map_get(c->s, n, "size")) return fail(c, n, "size: only built-in workloads have a size");
        if (!id) return fail(c, n, "an exec: workload needs an id: (its name in the results)");
        w->sizes = spec_alloc(c->s, sizeof *w->sizes);
        w->nsizes = 1; /* size 0: none */
    }
    w->id = spec_strdup(c->s, id ? id : name);
    if (!is_ident(w->id)) return fail(c, n, "workload id '%s': expected letters, digits and '_'", w->id);
    const char *label = spec_scalar(spec_map_get(c->s, n, "label"));
    w->label = label ? spec_strdup(c->s, label) : w->id;
    yaml_node_t *cn = spec_map_get(c->s, n, "class");
    if (cn) {
        if (!spec_scalar(cn)) return fail(c, cn, "class: expected a name");
        w->cls = spec_strdup(c->s, spec_scalar(cn));
    }
    yaml_node_t *sn = spec_map_get(c->s, n, "seeds");
    if (sn) {
        if (u64_list(c, sn, "seeds", UINT64_MAX, &w->seeds, &w->nseeds)) return -1;
    } else {
        w->seeds = spec_alloc(c->s, (size_t)nseeds_default * sizeof *w->seeds);
        for (int i = 0; i < nseeds_default; i++) w->seeds[i] = strtoull(seeds_default[i], NULL, 10);
        w->nseeds = nseeds_default;
    }
    yaml_node_t *vn = spec_map_get(c->s, n, "variants");
    if (vn && (strings(c, vn, "variants", &w->only, &w->nonly) || check_variant_names(c, vn, "variants", w->only, w->nonly)))
        return -1;
    return 0;
}

static int parse_workloads(ctx *c, yaml_node_t *n, yaml_node_t *seeds_node) {
    if (n->type != YAML_SEQUENCE_NODE) return fail(c, n, "workloads: expected a list of {name: ..., size: ...}");
    char **seeds = NULL;
    int nseeds = 1;
    static char *one[] = {"1"};
    if (seeds_node) {
        uint64_t *tmp;
        if (u64_list(c, seeds_node, "seeds", UINT64_MAX, &tmp, &nseeds)) return -1;
        if (strings(c, seeds_node, "seeds", &seeds, &nseeds)) return -1;
    } else {
        seeds = one;
    }
    int k = count_items(n);
    c->s->workloads = spec_alloc(c->s, (size_t)k * sizeof *c->s->workloads);
    for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++) {
        spec_workload *w = &c->s->workloads[c->s->nworkloads];
        if (parse_workload(c, spec_node(c->s, *it), w, seeds, nseeds)) return -1;
        if (spec_find_workload(c->s, w->id))
            return fail(c, spec_node(c->s, *it), "workload id '%s' is used twice (give one an id:)", w->id);
        c->s->nworkloads++;
    }
    if (!c->s->nworkloads) return fail(c, n, "workloads: the list is empty");
    return 0;
}

static int glob_list(ctx *c, yaml_node_t *e, const char *key, char ***out, int *nout) {
    yaml_node_t *n = spec_map_get(c->s, e, key);
    if (!n) return 0;
    return strings(c, n, key, out, nout);
}

static int parse_excludes(ctx *c, yaml_node_t *n) {
    if (n->type != YAML_SEQUENCE_NODE)
        return fail(c, n, "exclude: expected a list of {workload, class, variant, config, size, seed} matches");
    c->s->excludes = spec_alloc(c->s, (size_t)count_items(n) * sizeof *c->s->excludes);
    for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++) {
        yaml_node_t *e = spec_node(c->s, *it);
        static const char *const keys[] = {"workload", "class", "variant", "config", "size", "seed", NULL};
        if (check_keys(c, e, "an exclusion", keys)) return -1;
        if (!count_items(e)) return fail(c, e, "an exclusion needs at least one key (it would exclude every run)");
        spec_exclude *x = &c->s->excludes[c->s->nexcludes++];
        memset(x, 0, sizeof *x);
        x->line = spec_line(e);
        if (glob_list(c, e, "workload", &x->workloads, &x->nworkloads) ||
            glob_list(c, e, "class", &x->classes, &x->nclasses) ||
            glob_list(c, e, "variant", &x->variants, &x->nvariants) ||
            glob_list(c, e, "config", &x->configs, &x->nconfigs))
            return -1;
        yaml_node_t *sz = spec_map_get(c->s, e, "size"), *sd = spec_map_get(c->s, e, "seed");
        uint64_t *tmp;
        if (sz && u64_list(c, sz, "size", 1000000, &tmp, &x->nsizes)) return -1;
        if (sz) {
            x->sizes = spec_alloc(c->s, (size_t)x->nsizes * sizeof *x->sizes);
            for (int i = 0; i < x->nsizes; i++) x->sizes[i] = (uint32_t)tmp[i];
        }
        if (sd && u64_list(c, sd, "seed", UINT64_MAX, &x->seeds, &x->nseeds)) return -1;
        /* a name that is not a glob must name something, or it is a typo */
        for (int i = 0; i < x->nworkloads; i++) {
            int found = 0;
            for (int w = 0; w < c->s->nworkloads; w++) found |= !fnmatch(x->workloads[i], c->s->workloads[w].id, 0);
            if (!found) return fail(c, e, "exclude: no workload matches '%s'", x->workloads[i]);
        }
        for (int i = 0; i < x->nclasses; i++) {
            int found = 0;
            for (int w = 0; w < c->s->nworkloads; w++)
                found |= c->s->workloads[w].cls && !fnmatch(x->classes[i], c->s->workloads[w].cls, 0);
            if (!found) return fail(c, e, "exclude: no workload has a class matching '%s'", x->classes[i]);
        }
        if (check_variant_names(c, e, "exclude", x->variants, x->nvariants)) return -1;
        for (int i = 0; i < x->nconfigs; i++) {
            int found = 0;
            for (int k = 0; k < c->s->nconfigs; k++) found |= !fnmatch(x->configs[i], c->s->configs[k].name, 0);
            if (!found) return fail(c, e, "exclude: no config matches '%s'", x->configs[i]);
        }
    }
    return 0;
}

static int parse_classes(ctx *c, yaml_node_t *n) {
    if (n->type != YAML_MAPPING_NODE) return fail(c, n, "classes: expected a mapping name -> description");
    c->s->classes = spec_alloc(c->s, (size_t)count_items(n) * sizeof *c->s->classes);
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        const char *k = spec_scalar(spec_node(c->s, p->key)), *v = spec_scalar(spec_node(c->s, p->value));
        if (!k || !v) return fail(c, spec_node(c->s, p->key), "classes: expected name: description");
        c->s->classes[c->s->nclasses].name = spec_strdup(c->s, k);
        c->s->classes[c->s->nclasses++].description = spec_strdup(c->s, v);
    }
    return 0;
}

/* Load every config with every variant's options: an unknown option or a bad
 * value stops the sweep here, before any run. */
static int check_options(ctx *c) {
    for (int k = 0; k < c->s->nconfigs; k++)
        for (int v = 0; v < c->s->nvariants; v++) {
            const spec_variant *x = &c->s->variants[v];
            sim_config cfg;
            char e[1024], origin[1200];
            if (config_load(&cfg, c->s->configs[k].path, e, sizeof e)) {
                snprintf(c->err, c->errlen, "%s: config %s: %s", c->s->path, c->s->configs[k].name, e);
                return -1;
            }
            for (int o = 0; o < x->nopts; o++) {
                snprintf(origin, sizeof origin, "%s:%d", c->s->path, x->opts[o].line);
                if (config_set(&cfg, x->opts[o].name, x->opts[o].value, origin, e, sizeof e)) {
                    snprintf(c->err, c->errlen, "%s (variant %s, config %s)", e, x->name, c->s->configs[k].name);
                    return -1;
                }
            }
            /* and the policy names and their arguments, as creating a device would check them */
            gpu_params gp;
            if (config_finalize(&cfg, e, sizeof e) || gpu_params_from_config(&cfg, &gp, e, sizeof e) ||
                gpu_params_validate(&gp, e, sizeof e)) {
                snprintf(c->err, c->errlen, "%s:%d: variant %s with config %s: %s", c->s->path, x->line, x->name,
                         c->s->configs[k].name, e);
                return -1;
            }
        }
    return 0;
}

/* The regime table's sensitivity probes (docs/harness.md, "The regime table"):
 * the baseline's options plus one change each. */
static const struct {
    const char *name, *label, *option, *value;
} regime_probe[] = {
    {"regime_l1d_4x", "4x L1D", "-l1d_size_scale", "4"},
    {"regime_dram_bw_2x", "2x DRAM BW", "-dram_bw_scale", "2"},
    {"regime_l1d_unbounded", "unbounded L1D", "-l1d_unbounded", "1"},
};

static int parse_regime(ctx *c, yaml_node_t *n, int *cap) {
    spec *s = c->s;
    const char *base = NULL;
    int sensitivity = 0;   /* the probes triple a spec's baseline runs: only when asked for */
    if (n) {
        static const char *const keys[] = {"variant", "sensitivity", NULL};
        if (check_keys(c, n, "regime", keys)) return -1;
        base = spec_scalar(spec_map_get(s, n, "variant"));
        yaml_node_t *sn = spec_map_get(s, n, "sensitivity");
        const char *t = sn ? spec_scalar(sn) : "false";
        if (t && (!strcmp(t, "true") || !strcmp(t, "yes"))) sensitivity = 1;
        else if (t && (!strcmp(t, "false") || !strcmp(t, "no"))) sensitivity = 0;
        else return fail(c, sn, "regime: sensitivity: expected true or false");
    }
    const spec_variant *b = base ? spec_find_variant(s, base) : &s->variants[0];
    if (!b) return fail(c, n, "regime: variant: no variant '%s'", base);
    s->regime_base = (int)(b - s->variants);
    if (!sensitivity) return 0;
    for (size_t i = 0; i < sizeof regime_probe / sizeof *regime_probe; i++) {
        if (spec_find_variant(s, regime_probe[i].name))
            return fail(c, n ? n : spec_node(s, 1), "variant name '%s' is taken by the regime table's probes",
                        regime_probe[i].name);
        spec_variant *v = new_variant(c, cap);
        const spec_variant *bb = &s->variants[s->regime_base];   /* after new_variant: it may move */
        v->name = (char *)regime_probe[i].name;
        v->label = (char *)regime_probe[i].label;
        v->probe_of = bb->name;
        v->probe_of_grid = bb->grid;
        v->line = bb->line;
        v->nopts = bb->nopts + 1;
        v->opts = spec_alloc(s, (size_t)v->nopts * sizeof *v->opts);
        if (bb->nopts) memcpy(v->opts, bb->opts, (size_t)bb->nopts * sizeof *v->opts);
        v->opts[bb->nopts] = (spec_option){(char *)regime_probe[i].option, (char *)regime_probe[i].value, bb->line};
        s->regime_probes++;
    }
    return 0;
}

static int parse_root(ctx *c, yaml_node_t *root) {
    static const char *const keys[] = {"name", "configs", "seeds", "timeout", "wall_timeout", "kernel_stats",
                                       "classes", "workloads", "variants", "grids", "exclude", "regime", "report",
                                       NULL};
    if (check_keys(c, root, "the spec", keys)) return -1;
    spec *s = c->s;
    const char *name = spec_scalar(spec_map_get(s, root, "name"));
    if (name) s->name = spec_strdup(s, name);
    yaml_node_t *n;
    if (!(n = spec_map_get(s, root, "configs"))) return fail(c, root, "missing key 'configs' (e.g. configs: [fermi_gtx480])");
    if (parse_configs(c, n)) return -1;
    if ((n = spec_map_get(s, root, "timeout"))) {
        const char *t = spec_scalar(n);
        char *end;
        s->timeout = t ? strtod(t, &end) : -1;
        if (!t || *end || !(s->timeout >= 0)) return fail(c, n, "timeout: expected seconds >= 0 (0 = none)");
    }
    if ((n = spec_map_get(s, root, "wall_timeout"))) {
        const char *t = spec_scalar(n);
        char *end;
        s->wall_timeout = t ? strtod(t, &end) : -1;
        if (!t || *end || !(s->wall_timeout > 0)) return fail(c, n, "wall_timeout: expected seconds > 0");
    }
    s->kernel_stats = 1;
    if ((n = spec_map_get(s, root, "kernel_stats"))) {
        const char *t = spec_scalar(n);
        if (t && (!strcmp(t, "true") || !strcmp(t, "yes"))) s->kernel_stats = 1;
        else if (t && (!strcmp(t, "false") || !strcmp(t, "no"))) s->kernel_stats = 0;
        else return fail(c, n, "kernel_stats: expected true or false");
    }
    if ((n = spec_map_get(s, root, "classes")) && parse_classes(c, n)) return -1;
    int cap = 0;
    if ((n = spec_map_get(s, root, "variants")) && parse_variants(c, n, &cap)) return -1;
    if ((n = spec_map_get(s, root, "grids")) && parse_grids(c, n, &cap)) return -1;
    if (!s->nvariants) {
        /* no variants: one run per point with the config as it is */
        spec_variant *v = new_variant(c, &cap);
        v->name = v->label = "base";
        v->line = spec_line(root);
    }
    if (parse_regime(c, spec_map_get(s, root, "regime"), &cap)) return -1;
    if (!(n = spec_map_get(s, root, "workloads"))) return fail(c, root, "missing key 'workloads'");
    if (parse_workloads(c, n, spec_map_get(s, root, "seeds"))) return -1;
    for (int w = 0; w < s->nworkloads; w++) {
        const char *cls = s->workloads[w].cls;
        if (!cls || !s->nclasses) continue;
        int found = 0;
        for (int k = 0; k < s->nclasses; k++) found |= !strcmp(s->classes[k].name, cls);
        if (!found) return fail(c, n, "workload %s: class '%s' is not under classes:", s->workloads[w].id, cls);
    }
    if ((n = spec_map_get(s, root, "exclude")) && parse_excludes(c, n)) return -1;
    if ((n = spec_map_get(s, root, "report"))) s->report_node = (int)(n - s->doc.nodes.start) + 1;
    return check_options(c);
}

/* The deepest nesting of sequences and mappings a spec may have (the deepest
 * real one, a report table's column, is 6 levels).  libyaml's scanner does work
 * proportional to the depth for every token, so a file nested thousands deep
 * would take quadratic time: it is refused after one linear pass. */
#define SPEC_MAX_DEPTH 64

/* A YAML syntax error as "path:line: YAML: problem context". */
static void yaml_error(const yaml_parser_t *parser, const char *path, char *err, size_t errlen) {
    snprintf(err, errlen, "%s:%zu: YAML: %s%s%s", path, parser->problem_mark.line + 1,
             parser->problem ? parser->problem : "syntax error", parser->context ? " " : "",
             parser->context ? parser->context : "");
}

/* One pass over the events of text: 0, or -1 with a message when it nests deeper
 * than SPEC_MAX_DEPTH (stopping there) or is not YAML. */
static int check_depth(const char *path, const unsigned char *text, size_t len, char *err, size_t errlen) {
    yaml_parser_t parser;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, text, len);
    int depth = 0, rc = 0;
    for (;;) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&parser, &ev)) {
            yaml_error(&parser, path, err, errlen);
            rc = -1;
            break;
        }
        yaml_event_type_t t = ev.type;
        size_t line = ev.start_mark.line + 1;
        yaml_event_delete(&ev);
        if (t == YAML_SEQUENCE_START_EVENT || t == YAML_MAPPING_START_EVENT) {
            if (++depth > SPEC_MAX_DEPTH) {
                snprintf(err, errlen, "%s:%zu: the spec nests lists and mappings more than %d levels deep", path,
                         line, SPEC_MAX_DEPTH);
                rc = -1;
                break;
            }
        } else if (t == YAML_SEQUENCE_END_EVENT || t == YAML_MAPPING_END_EVENT) {
            depth--;
        } else if (t == YAML_STREAM_END_EVENT) {
            break;
        }
    }
    yaml_parser_delete(&parser);
    return rc;
}

static int key_order(const void *a, const void *b) {
    const yaml_node_t *x = *(yaml_node_t *const *)a, *y = *(yaml_node_t *const *)b;
    int d = strcmp((const char *)x->data.scalar.value, (const char *)y->data.scalar.value);
    if (d) return d;
    return x->start_mark.index < y->start_mark.index ? -1 : x->start_mark.index > y->start_mark.index;
}

/* No mapping of the document may give a key twice (YAML forbids it; libyaml
 * keeps both, and a lookup would silently take the first). */
static int check_duplicate_keys(spec *s, char *err, size_t errlen) {
    yaml_node_t **keys = NULL;
    size_t cap = 0;
    int rc = 0;
    for (yaml_node_t *m = s->doc.nodes.start; m < s->doc.nodes.top && !rc; m++) {
        if (m->type != YAML_MAPPING_NODE) continue;
        size_t n = 0, npairs = (size_t)(m->data.mapping.pairs.top - m->data.mapping.pairs.start);
        if (npairs > cap) {
            yaml_node_t **k = realloc(keys, npairs * sizeof *k);
            if (!k) {
                snprintf(err, errlen, "%s: out of memory", s->path);
                rc = -1;
                break;
            }
            keys = k;
            cap = npairs;
        }
        for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
            yaml_node_t *kn = spec_node(s, p->key);
            if (spec_scalar(kn)) keys[n++] = kn;
        }
        qsort(keys, n, sizeof *keys, key_order);
        for (size_t i = 1; i < n; i++) {
            if (strcmp((const char *)keys[i - 1]->data.scalar.value, (const char *)keys[i]->data.scalar.value))
                continue;
            snprintf(err, errlen, "%s:%d: duplicate key '%s' (first given on line %d)", s->path, spec_line(keys[i]),
                     (const char *)keys[i]->data.scalar.value, spec_line(keys[i - 1]));
            rc = -1;
            break;
        }
    }
    free(keys);
    return rc;
}

/* The whole file, or NULL with a message. */
static unsigned char *read_spec_file(const char *path, size_t *len, char *err, size_t errlen) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 4096, n = 0;
    unsigned char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap) break;
        unsigned char *b = realloc(buf, cap * 2);
        if (!b) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = b;
        cap *= 2;
    }
    int bad = ferror(f);
    fclose(f);
    if (!buf || bad) {
        snprintf(err, errlen, "%s: cannot read: %s", path, buf ? "read error" : "out of memory");
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

spec *spec_load(const char *path, char *err, size_t errlen) {
    size_t len;
    unsigned char *text = read_spec_file(path, &len, err, errlen);
    if (!text) return NULL;
    if (check_depth(path, text, len, err, errlen)) {
        free(text);
        return NULL;
    }
    spec *s = calloc(1, sizeof *s);
    if (!s) {
        free(text);
        snprintf(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    yaml_parser_t parser;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, text, len);
    int ok = yaml_parser_load(&parser, &s->doc);
    if (!ok) {
        yaml_error(&parser, path, err, errlen);
        yaml_parser_delete(&parser);
        free(text);
        free(s);
        return NULL;
    }
    yaml_parser_delete(&parser);
    free(text);
    s->path = spec_strdup(s, path);
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    s->name = spec_strdup(s, base);
    char *dot = strrchr(s->name, '.');
    if (dot && dot != s->name) *dot = 0;
    ctx c = {s, err, errlen};
    yaml_node_t *root = yaml_document_get_root_node(&s->doc);
    if (!root) {
        snprintf(err, errlen, "%s:1: the spec is empty (expected configs:, workloads:, variants: ...)", path);
        spec_free(s);
        return NULL;
    }
    if (check_duplicate_keys(s, err, errlen) || parse_root(&c, root)) {
        spec_free(s);
        return NULL;
    }
    return s;
}

const spec_workload *spec_find_workload(const spec *s, const char *id) {
    for (int i = 0; i < s->nworkloads; i++)
        if (!strcmp(s->workloads[i].id, id)) return &s->workloads[i];
    return NULL;
}

const spec_variant *spec_find_variant(const spec *s, const char *name) {
    for (int i = 0; i < s->nvariants; i++)
        if (!strcmp(s->variants[i].name, name)) return &s->variants[i];
    return NULL;
}

const spec_grid *spec_find_grid(const spec *s, const char *name) {
    for (int i = 0; i < s->ngrids; i++)
        if (!strcmp(s->grids[i].name, name)) return &s->grids[i];
    return NULL;
}

int spec_workload_runs(const spec_workload *w, const spec_variant *v) {
    if (!w->only) return 1;
    const char *name = v->probe_of ? v->probe_of : v->name, *grid = v->probe_of ? v->probe_of_grid : v->grid;
    for (int i = 0; i < w->nonly; i++)
        if (!fnmatch(w->only[i], name, 0) || (grid && !fnmatch(w->only[i], grid, 0))) return 1;
    return 0;
}
