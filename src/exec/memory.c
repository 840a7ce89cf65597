/* Memory spaces and ld / st.
 *
 *   global, const  device addresses in devmem, checked against live allocations
 *   shared         offsets into the CTA's shared memory (static + dynamic bytes)
 *   local          offsets into the executing thread's local memory (its stack of
 *                  call frames; the depot and .param slots of .func calls live here)
 *   param          kernel parameters: offsets into the launch's parameter buffer
 *                  (read-only); .param of a .func is frame memory (local)
 *   generic        windows of devmem.h select shared / local (and the executor's
 *                  parameter window); anything else is global
 *
 * Address arithmetic (PTX "addresses as operands"): [reg+imm] is computed in the
 * width of the address register, so a 32-bit register wraps modulo 2^32 and the
 * result is zero-extended; a 64-bit register wraps modulo 2^64.  Addresses in the
 * shared, local and parameter spaces are 32 bits wide (the hardware's shared /
 * local address registers are 32 bits), so whatever the form ([reg], [reg+imm],
 * [var], [var+imm], a 64-bit register holding a space offset) the offset in those
 * spaces is taken modulo 2^32.  Global, const and generic addresses are 64 bits.
 * ld, st, atom, red, cp.async and prefetch all go through addr_form_of.
 *
 * Every access is checked for bounds and natural alignment (the access size, i.e.
 * vector width x element size); a bad one is a kernel fault worded like
 * compute-sanitizer's.
 */
#include <stdlib.h>

#include "exec/exec_internal.h"

ptx_space exec_classify_generic(uint64_t gaddr, uint64_t *offset) {
    if (gaddr - DEVMEM_SHARED_WINDOW < DEVMEM_WINDOW_SIZE) {
        *offset = gaddr - DEVMEM_SHARED_WINDOW;
        return PTX_SPACE_SHARED;
    }
    if (gaddr - DEVMEM_LOCAL_WINDOW < DEVMEM_WINDOW_SIZE) {
        *offset = gaddr - DEVMEM_LOCAL_WINDOW;
        return PTX_SPACE_LOCAL;
    }
    if (gaddr - EXEC_PARAM_WINDOW < DEVMEM_WINDOW_SIZE) {
        *offset = gaddr - EXEC_PARAM_WINDOW;
        return PTX_SPACE_PARAM;
    }
    *offset = gaddr;
    return PTX_SPACE_GLOBAL;
}

/* Remember the allocation and page of a valid global access for exec_mem_fast. */
static void remember(exec_cta *cta, const devmem_alloc_info *a, uint64_t addr, uint8_t *p) {
    unsigned i;
    for (i = 0; i < EXEC_ALLOC_CACHE; i++)
        if (cta->allocs[i].lo == a->base && cta->allocs[i].len == a->size) break;
    if (i == EXEC_ALLOC_CACHE) {
        i = cta->alloc_next;
        cta->alloc_next = (cta->alloc_next + 1) % EXEC_ALLOC_CACHE;
        cta->allocs[i].lo = a->base;
        cta->allocs[i].len = a->size;
    }
    uint64_t pn = addr >> DEVMEM_PAGE_BITS;
    unsigned slot = (unsigned)pn & (EXEC_PAGE_CACHE - 1);
    cta->pages[slot].page_no = pn;
    cta->pages[slot].host = p - (addr & (DEVMEM_PAGE_SIZE - 1));
}

static uint8_t *global_ptr(exec_ctx *x, ptx_space space, uint64_t addr, unsigned size, exec_access acc,
                           uint32_t lane) {
    exec_cta *cta = x->cta;
    devmem *mem = cta->L->mem;
    const devmem_alloc_info *a = devmem_find(mem, addr);
    int inside = a && size <= a->size - (addr - a->base);
    if (!inside) {
        /* memcheck: stop at the first.  Otherwise the hardware's behaviour: mapped
         * memory is read and written, anything else is an illegal address. */
        if (cta->L->memcheck) return exec_fault_memory(x, space, acc, size, addr, lane, "out of bounds"), NULL;
        if (!devmem_mapped(mem, addr, size))
            return exec_fault_memory(x, space, acc, size, addr, lane,
                                     "out of bounds and not in mapped device memory (cudaErrorIllegalAddress)"),
                   NULL;
        /* SMs of a parallel cycle count into one counter: an atomic add, whose sum is order-free */
        if (cta->L->oob_accesses) __atomic_fetch_add(cta->L->oob_accesses, 1, __ATOMIC_RELAXED);
    }
    uint8_t *p = devmem_ptr(mem, addr);
    if (!p) {
        exec_fault_insn(x, LOCSIM_ERR_OUT_OF_MEMORY, "out of host memory for device pages");
        return NULL;
    }
    if (inside) remember(cta, a, addr, p); /* the fast path serves in-bounds accesses only */
    return p;
}

uint8_t *exec_mem_ptr(exec_ctx *x, ptx_space space, uint64_t addr, unsigned size, exec_access acc, uint32_t lane,
                      ptx_space *resolved, uint64_t *raddr) {
    exec_cta *cta = x->cta;
    if (space == PTX_SPACE_NONE) space = exec_classify_generic(addr, &addr);
    *resolved = space;
    *raddr = addr;
    if ((size & (size - 1)) == 0 && (addr & (size - 1)) != 0)
        return exec_fault_memory(x, space, acc, size, addr, lane, "misaligned"), NULL;
    switch (space) {
    case PTX_SPACE_SHARED:
        if (addr >= cta->smem_size || size > cta->smem_size - addr)
            return exec_fault_memory(x, space, acc, size, addr, lane, "out of bounds"), NULL;
        return cta->smem + addr;
    case PTX_SPACE_LOCAL:
        if (addr >= cta->local_bytes || size > cta->local_bytes - addr)
            return exec_fault_memory(x, space, acc, size, addr, lane, "out of bounds"), NULL;
        return cta->local + ((size_t)x->w->index * LANES + lane) * cta->local_bytes + addr;
    case PTX_SPACE_PARAM: {
        const exec_launch *L = cta->L;
        if (acc != ACC_READ)
            return exec_fault_memory(x, space, acc, size, addr, lane, "in read-only kernel parameter memory"), NULL;
        if (addr >= L->params_size || size > L->params_size - addr)
            return exec_fault_memory(x, space, acc, size, addr, lane, "out of bounds"), NULL;
        return (uint8_t *)(uintptr_t)(L->params + addr); /* only ever read through */
    }
    default: return global_ptr(x, space, addr, size, acc, lane);
    }
}

/* How an ADDR operand is formed: the space to access, a uniform base and, for a
 * register base, the register row (per-lane part). */
typedef struct {
    ptx_space space;
    uint64_t base;
    const uint64_t *row;
    uint64_t mask;      /* the address is (base + row[lane]) & mask: 32 or 64 bits wide */
} addr_form;

static inline uint64_t af_addr(const addr_form *a, uint32_t lane) {
    return (a->base + (a->row ? a->row[lane] : 0)) & a->mask;
}

static int space_is_32bit(ptx_space s) {
    return s == PTX_SPACE_SHARED || s == PTX_SPACE_LOCAL || s == PTX_SPACE_PARAM;
}

static addr_form addr_form_of(exec_ctx *x, const ptx_operand *o, ptx_space insn_space) {
    addr_form a = {insn_space, (uint64_t)o->imm, NULL, ~0ull};
    switch ((ptx_addr_base)o->addr_base) {
    case PTX_ABASE_FRAME: /* a .local or .param variable of the current frame */
        a.space = PTX_SPACE_LOCAL;
        a.base += x->fr->local_base;
        break;
    case PTX_ABASE_KPARAM: a.space = PTX_SPACE_PARAM; break;
    case PTX_ABASE_SYM: a.base += x->cta->L->mod->vars[o->reg].addr; break;
    case PTX_ABASE_REG:
        a.row = exec_row(x, o->reg);
        /* ld.param through a register: kernel parameter offsets in a kernel, frame
         * offsets (local) inside a .func */
        if (insn_space == PTX_SPACE_PARAM && !x->f->is_entry) a.space = PTX_SPACE_LOCAL;
        /* a 32-bit address register: the sum wraps modulo 2^32, then zero-extends */
        if (reg_bits(x, o->reg) <= 32) a.mask = 0xffffffffull;
        break;
    default: break;
    }
    if (space_is_32bit(a.space)) a.mask = 0xffffffffull;
    return a;
}

uint64_t exec_addr_of(exec_ctx *x, const ptx_operand *o, uint32_t lane) {
    addr_form a = addr_form_of(x, o, (ptx_space)x->in->space);
    return af_addr(&a, lane);
}

uint64_t exec_addr_in(exec_ctx *x, const ptx_operand *o, ptx_space space, uint32_t lane) {
    addr_form a = addr_form_of(x, o, space);
    return af_addr(&a, lane);
}

static inline uint64_t read_le(const uint8_t *p, unsigned n) {
    switch (n) {
    case 1: return p[0];
    case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
    case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
    default: { uint64_t v; memcpy(&v, p, 8); return v; }
    }
}
static inline void write_le(uint8_t *p, uint64_t v, unsigned n) {
    switch (n) {
    case 1: p[0] = (uint8_t)v; break;
    case 2: { uint16_t t = (uint16_t)v; memcpy(p, &t, 2); break; }
    case 4: { uint32_t t = (uint32_t)v; memcpy(p, &t, 4); break; }
    default: memcpy(p, &v, 8); break;
    }
}

/* Registers a vector operand names (or one register), PTX_REG_SINK for '_'. */
static unsigned vector_regs(const ptx_operand *o, unsigned vec, uint32_t regs[4]) {
    if (o->kind == PTX_OPND_VEC) {
        unsigned n = o->comp ? o->comp : vec;
        for (unsigned k = 0; k < 4; k++) regs[k] = k < n ? o->vec[k] : PTX_REG_SINK;
        return n;
    }
    regs[0] = o->kind == PTX_OPND_REG ? o->reg : PTX_REG_SINK;
    for (unsigned k = 1; k < 4; k++) regs[k] = PTX_REG_SINK;
    return 1;
}

/* Record one lane's access for the timing model.  .param accesses of call
 * sequences live in frame (local) memory here, but a GPU passes them in registers:
 * they are reported as PARAM so the timing model does not charge local-memory
 * traffic for them. */
static void note_access(exec_ctx *x, ptx_space space, uint32_t lane, uint64_t addr) {
    exec_step_info *info = x->info;
    if (!info) return;
    if (space == PTX_SPACE_PARAM) info->mem_is_kparam = 1; /* resolved to the kernel's own buffer */
    if (x->in->space == PTX_SPACE_PARAM) space = PTX_SPACE_PARAM;
    if (!info->mem_mask) info->mem_space = (uint8_t)space;
    info->mem_mask |= 1u << lane;
    info->mem_addr[lane] = addr;
}

static void begin_access(exec_ctx *x, unsigned size, int is_store, int is_atomic) {
    exec_step_info *info = x->info;
    if (!info) return;
    info->mem_space = PTX_SPACE_NONE;
    info->mem_is_store = (uint8_t)is_store;
    info->mem_is_atomic = (uint8_t)is_atomic;
    info->mem_size = (uint8_t)(size > 255 ? 255 : size);
    info->mem_mask = 0;
}

/* A kernel parameter is the same for every thread: read it once. */
static int load_kparam(exec_ctx *x, uint64_t addr, unsigned esize, uint32_t reg, int sgn) {
    ptx_space rs;
    uint64_t ra;
    uint32_t lane0 = (uint32_t)__builtin_ctz(x->active);
    const uint8_t *p = exec_mem_ptr(x, PTX_SPACE_PARAM, addr, esize, ACC_READ, lane0, &rs, &ra);
    if (!p) return -1;
    uint64_t v = read_le(p, esize);
    unsigned rb = reg_bits(x, reg);
    if (sgn && rb > esize * 8) v = (uint64_t)sign_extend(v, esize * 8) & width_mask(rb);
    uint64_t *d = exec_row(x, reg);
    exec_step_info *info = x->info;
    if (!info) {
        FOR_EACH_LANE(l, x->active) d[l] = v;
        return 0;
    }
    /* note_access for every lane at once: the same address in every lane */
    if (rs == PTX_SPACE_PARAM) info->mem_is_kparam = 1;
    if (!info->mem_mask) info->mem_space = (uint8_t)(x->in->space == PTX_SPACE_PARAM ? PTX_SPACE_PARAM : rs);
    info->mem_mask |= x->active;
    FOR_EACH_LANE(l, x->active) {
        d[l] = v;
        info->mem_addr[l] = ra;
    }
    return 0;
}

/* Resolve one lane's access: the inline fast path, else the checked slow path. */
static inline const uint8_t *lane_ptr(exec_ctx *x, ptx_space space, uint64_t addr, unsigned size, exec_access acc,
                                      uint32_t lane) {
    const uint8_t *p = exec_mem_fast(x, space, addr, size, lane);
    if (p) {
        note_access(x, space == PTX_SPACE_NONE ? PTX_SPACE_GLOBAL : space, lane, addr);
        return p;
    }
    ptx_space rs;
    uint64_t ra;
    p = exec_mem_ptr(x, space, addr, size, acc, lane, &rs, &ra);
    if (p) note_access(x, rs, lane, ra);
    return p;
}

/* Addresses of the active lanes of a scalar access, into addr[]: 0 when some
 * lane is misaligned; *lo and *hi are the lowest and highest. */
static int lane_addrs(const exec_ctx *x, const addr_form *af, unsigned esize, uint64_t addr[LANES], uint64_t *lo,
                      uint64_t *hi) {
    uint64_t base = af->base, mask = af->mask, bad = 0, mn = UINT64_MAX, mx = 0;
    const uint64_t *row = af->row;
    uint32_t act = x->active;
    if (act == FULL_MASK && !row) { /* one address for the whole warp */
        uint64_t a = base & mask;
        for (uint32_t l = 0; l < LANES; l++) addr[l] = a;
        mn = mx = a;
        bad = a & (esize - 1);
    } else if (act == FULL_MASK) { /* whole warps: one straight loop */
        for (uint32_t l = 0; l < LANES; l++) {
            uint64_t a = (base + row[l]) & mask;
            addr[l] = a;
            bad |= a;
            mn = a < mn ? a : mn;
            mx = a > mx ? a : mx;
        }
        bad &= esize - 1;
    } else {
        FOR_EACH_LANE(l, act) {
            addr[l] = (base + (row ? row[l] : 0)) & mask;
            bad |= addr[l] & (esize - 1);
            mn = addr[l] < mn ? addr[l] : mn;
            mx = addr[l] > mx ? addr[l] : mx;
        }
    }
    *lo = mn;
    *hi = mx;
    return !bad;
}

/* Read esize (4 or 8) bytes per active lane at host + addr[l] - off. */
static void gather(uint32_t act, const uint8_t *host, uint64_t off, const uint64_t addr[LANES], unsigned esize,
                   uint64_t vals[LANES]) {
    if (act == FULL_MASK && esize == 4)
        for (uint32_t l = 0; l < LANES; l++) {
            uint32_t v;
            memcpy(&v, host + (addr[l] - off), 4);
            vals[l] = v;
        }
    else if (act == FULL_MASK)
        for (uint32_t l = 0; l < LANES; l++) memcpy(&vals[l], host + (addr[l] - off), 8);
    else
        FOR_EACH_LANE(l, act) {
            if (esize == 4) {
                uint32_t v;
                memcpy(&v, host + (addr[l] - off), 4);
                vals[l] = v;
            } else {
                memcpy(&vals[l], host + (addr[l] - off), 8);
            }
        }
}

/* note_access for every active lane of a fast-path access in `space` (never
 * .param: the fast paths do not take it). */
static void note_lanes(exec_ctx *x, ptx_space space, const uint64_t addr[LANES]) {
    exec_step_info *info = x->info;
    uint32_t act = x->active;
    if (!info || !act) return;
    info->mem_space = (uint8_t)space;
    info->mem_mask = act;
    if (act == FULL_MASK) memcpy(info->mem_addr, addr, LANES * sizeof *addr);
    else FOR_EACH_LANE(l, act) info->mem_addr[l] = addr[l];
}

/* A scalar 4- or 8-byte access to shared memory (the inner loops of tiled
 * kernels), or to global/constant memory with every lane in one page of the
 * allocation the CTA's last global access hit (a coalesced warp): the host
 * memory of lane l is base + addr[l] - *off, and *space is the space
 * note_access records.  Exactly what exec_mem_fast() gives lane by lane, with
 * one bounds and page check for the warp.  NULL when the warp does not qualify
 * (a lane misaligned, out of bounds, in another page or allocation, or the
 * page not in the CTA's page cache): nothing has been changed then, and the
 * caller takes the per-lane path, which handles (and reports) every case. */
static uint8_t *fast_base(exec_ctx *x, const addr_form *af, unsigned esize, uint64_t addr[LANES], ptx_space *space,
                          uint64_t *off) {
    exec_cta *cta = x->cta;
    uint64_t lo, hi;
    *space = af->space;
    if (!lane_addrs(x, af, esize, addr, &lo, &hi)) return NULL;
    if (*space == PTX_SPACE_SHARED) {
        if (cta->smem_size < esize || hi > cta->smem_size - esize) return NULL;
        *off = 0;
        return cta->smem;
    }
    if (*space == PTX_SPACE_NONE) {
        if (hi >= DEVMEM_GLOBAL_LIMIT) return NULL; /* a window: the per-lane path classifies it */
        *space = PTX_SPACE_GLOBAL;
    }
    unsigned i = cta->alloc_last;
    uint64_t len = cta->allocs[i].len, off_lo = lo - cta->allocs[i].lo, off_hi = hi - cta->allocs[i].lo;
    if (off_lo >= len || off_hi >= len || esize > len - off_hi) return NULL;
    uint64_t pn = lo >> DEVMEM_PAGE_BITS;
    if ((hi >> DEVMEM_PAGE_BITS) != pn) return NULL;
    unsigned slot = (unsigned)pn & (EXEC_PAGE_CACHE - 1);
    if (cta->pages[slot].page_no != pn || !cta->pages[slot].host) return NULL;
    *off = pn << DEVMEM_PAGE_BITS;
    return cta->pages[slot].host;
}

static int fast_space(ptx_space s) {
    return s == PTX_SPACE_SHARED || s == PTX_SPACE_GLOBAL || s == PTX_SPACE_NONE || s == PTX_SPACE_CONST;
}

/* load() of one 4- or 8-byte element through fast_base(); 0 if it does not apply. */
static int load_fast(exec_ctx *x, const addr_form *af, unsigned esize, uint64_t vals[LANES]) {
    uint64_t addr[LANES], off;
    ptx_space space;
    const uint8_t *host = fast_base(x, af, esize, addr, &space, &off);
    if (!host) return 0;
    gather(x->active, host, off, addr, esize, vals);
    note_lanes(x, space, addr);
    return 1;
}

/* store() of one 4- or 8-byte element through fast_base(), lanes in
 * ascending order as the per-lane path writes them; 0 if it does not apply. */
static int store_fast(exec_ctx *x, const addr_form *af, unsigned esize, const uint64_t *row) {
    uint64_t addr[LANES], off;
    ptx_space space;
    uint8_t *host = fast_base(x, af, esize, addr, &space, &off);
    if (!host) return 0;
    FOR_EACH_LANE(l, x->active) {
        if (esize == 4) {
            uint32_t v = (uint32_t)row[l];
            memcpy(host + (addr[l] - off), &v, 4);
        } else {
            memcpy(host + (addr[l] - off), &row[l], 8);
        }
    }
    note_lanes(x, space, addr);
    return 1;
}

/* ---- deferred global memory (exec.h, "Parallel simulation") ---- */

/* Is an access in `space` (generic: per lane) possibly global memory? */
static int may_defer(ptx_space s) { return s == PTX_SPACE_GLOBAL || s == PTX_SPACE_CONST || s == PTX_SPACE_NONE; }

static int is_device_space(ptx_space s) { return s == PTX_SPACE_GLOBAL || s == PTX_SPACE_CONST; }

int exec_memlog_push(exec_memlog *log, const exec_memop *op) {
    if (log->n == log->cap) {
        size_t cap = log->cap ? log->cap * 2 : 256;
        exec_memop *ops = realloc(log->ops, cap * sizeof *ops);
        if (!ops) {
            log->oom = 1;
            return -1;
        }
        log->ops = ops;
        log->cap = cap;
    }
    log->ops[log->n++] = *op;
    return 0;
}

void exec_memlog_free(exec_memlog *log) {
    free(log->ops);
    memset(log, 0, sizeof *log);
}

/* A logged load's value, as its register takes it. */
static uint64_t memop_load(const exec_memop *op) {
    uint64_t v = read_le(op->host, op->size);
    if (op->sext) v = (uint64_t)sign_extend(v, op->size * 8u) & width_mask(op->sext);
    return v;
}

void exec_memlog_replay(exec_memlog *log, int *written) {
    for (size_t i = 0; i < log->n; i++) {
        const exec_memop *op = &log->ops[i];
        switch ((exec_memop_kind)op->kind) {
        case EXEC_MEMOP_LOAD:
            if (*written) *op->dst = memop_load(op);
            break;
        case EXEC_MEMOP_STORE:
            write_le(op->host, op->v, op->size);
            *written = 1;
            break;
        case EXEC_MEMOP_ATOMIC:
            exec_atom_apply(op);
            *written = 1;
            break;
        }
    }
    log->n = 0;
}

/* Append op to the CTA's log, or fault (out of host memory). */
static int defer(exec_ctx *x, const exec_memop *op) {
    if (exec_memlog_push(x->cta->memlog, op) == 0) return 0;
    return exec_fault_insn(x, LOCSIM_ERR_OUT_OF_MEMORY, "out of host memory for the parallel memory log");
}

int exec_memlog_defer(exec_ctx *x, const exec_memop *op) { return defer(x, op); }

/* One lane's access with the log set: checked (and noted for the timing
 * model) now; *deferred says it is global or constant memory, whose data moves
 * at replay.  NULL after a fault. */
static uint8_t *lane_checked(exec_ctx *x, ptx_space space, uint64_t addr, unsigned size, exec_access acc,
                             uint32_t lane, int *deferred) {
    ptx_space rs;
    uint64_t ra;
    uint8_t *p = exec_mem_ptr(x, space, addr, size, acc, lane, &rs, &ra);
    if (p) note_access(x, rs, lane, ra);
    *deferred = is_device_space(rs);
    return p;
}

/* load() with the log set: every lane is read now, and every register write of
 * a device lane is logged too (in the order load() writes them), for the
 * replay to read again if a store of the cycle came before it.  A warp within one page of the allocation it used last
 * (fast_base) is checked once, as load_fast does. */
static int load_deferred(exec_ctx *x, const addr_form *af, const uint32_t regs[4], unsigned n, unsigned esize,
                         int sgn) {
    uint64_t vals[4][LANES], addr[LANES], off;
    uint8_t *host[LANES];
    uint32_t dev = 0;
    ptx_space space;
    uint8_t *base = fast_base(x, af, esize * n, addr, &space, &off);
    if (base) {
        note_lanes(x, space, addr);
        dev = x->active;
        FOR_EACH_LANE(l, x->active) host[l] = base + (addr[l] - off);
    } else {
        FOR_EACH_LANE(l, x->active) {
            int d;
            uint8_t *p = lane_checked(x, af->space, af_addr(af, l), esize * n, ACC_READ, l, &d);
            if (!p) return -1;
            host[l] = p;
            if (d) dev |= 1u << l;
            else for (unsigned k = 0; k < n; k++) vals[k][l] = read_le(p + k * esize, esize);
        }
    }
    for (unsigned k = 0; k < n; k++) {
        if (regs[k] == PTX_REG_SINK) continue;
        uint64_t *d = exec_row(x, regs[k]);
        unsigned rb = reg_bits(x, regs[k]);
        int ext = sgn && rb > esize * 8;
        FOR_EACH_LANE(l, x->active) {
            if (dev & (1u << l)) {
                exec_memop op = {.host = host[l] + k * esize, .dst = &d[l], .kind = EXEC_MEMOP_LOAD,
                                 .size = (uint8_t)esize, .sext = (uint8_t)(ext ? rb : 0)};
                if (defer(x, &op)) return -1;
                d[l] = memop_load(&op);
            } else {
                d[l] = ext ? (uint64_t)sign_extend(vals[k][l], esize * 8) & width_mask(rb) : vals[k][l];
            }
        }
    }
    return 0;
}

/* store() with the log set: device lanes' elements are logged in the order
 * store() writes them (lanes ascending, elements within a lane); a warp within
 * one page of the allocation it used last is checked once (fast_base). */
static int store_deferred(exec_ctx *x, const addr_form *af, const uint64_t *const rows[4], unsigned n,
                          unsigned esize) {
    uint64_t addr[LANES], off;
    ptx_space space;
    uint8_t *base = fast_base(x, af, esize * n, addr, &space, &off);
    if (base) note_lanes(x, space, addr);
    FOR_EACH_LANE(l, x->active) {
        int d = 1;
        uint8_t *p = base ? base + (addr[l] - off) : lane_checked(x, af->space, af_addr(af, l), esize * n, ACC_WRITE, l, &d);
        if (!p) return -1;
        for (unsigned k = 0; k < n; k++) {
            if (!d) {
                write_le(p + k * esize, rows[k][l], esize);
                continue;
            }
            exec_memop op = {.host = p + k * esize, .v = rows[k][l], .kind = EXEC_MEMOP_STORE, .size = (uint8_t)esize};
            if (defer(x, &op)) return -1;
        }
    }
    return 0;
}

/* ld[.ss].type / ld.vN: a signed element is sign-extended to its register's width.
 * Every lane is read before any register is written: the address register may be
 * a destination. */
static int load(exec_ctx *x) {
    const ptx_insn *in = x->in;
    ptx_type t = (ptx_type)in->type;
    unsigned esize = type_size(t), vec = in->vec ? in->vec : 1;
    if (in->nopnd < 2 || esize == 0 || esize > 8 || in->opnd[1].kind != PTX_OPND_ADDR) return exec_unsupported(x);
    uint32_t regs[4];
    unsigned n = vector_regs(&in->opnd[0], vec, regs);
    if (n == 0 || n > 4) return exec_unsupported(x);
    unsigned size = esize * n;
    int sgn = type_signed(t);
    addr_form af = addr_form_of(x, &in->opnd[1], (ptx_space)in->space);
    begin_access(x, size, 0, 0);
    if (af.space == PTX_SPACE_PARAM && !af.row && n == 1 && regs[0] != PTX_REG_SINK)
        return load_kparam(x, af.base & af.mask, esize, regs[0], sgn);
    if (x->cta->memlog && may_defer(af.space)) return load_deferred(x, &af, regs, n, esize, sgn);
    uint64_t vals[4][LANES];
    if (n == 1 && (esize == 4 || esize == 8) && fast_space(af.space) && load_fast(x, &af, esize, vals[0])) {
        /* done: vals[0] holds every active lane */
    } else if (n == 1) { /* scalar: the common case, one switch on the size outside the loop */
        switch (esize) {
        case 4:
            FOR_EACH_LANE(l, x->active) {
                const uint8_t *p = lane_ptr(x, af.space, af_addr(&af, l), 4, ACC_READ, l);
                if (!p) return -1;
                uint32_t v;
                memcpy(&v, p, 4);
                vals[0][l] = v;
            }
            break;
        case 8:
            FOR_EACH_LANE(l, x->active) {
                const uint8_t *p = lane_ptr(x, af.space, af_addr(&af, l), 8, ACC_READ, l);
                if (!p) return -1;
                memcpy(&vals[0][l], p, 8);
            }
            break;
        default:
            FOR_EACH_LANE(l, x->active) {
                const uint8_t *p = lane_ptr(x, af.space, af_addr(&af, l), esize, ACC_READ, l);
                if (!p) return -1;
                vals[0][l] = read_le(p, esize);
            }
            break;
        }
    } else {
        FOR_EACH_LANE(l, x->active) {
            const uint8_t *p = lane_ptr(x, af.space, af_addr(&af, l), size, ACC_READ, l);
            if (!p) return -1;
            for (unsigned k = 0; k < n; k++) vals[k][l] = read_le(p + k * esize, esize);
        }
    }
    for (unsigned k = 0; k < n; k++) {
        if (regs[k] == PTX_REG_SINK) continue;
        uint64_t *d = exec_row(x, regs[k]);
        unsigned rb = reg_bits(x, regs[k]);
        if (sgn && rb > esize * 8) {
            FOR_EACH_LANE(l, x->active) d[l] = (uint64_t)sign_extend(vals[k][l], esize * 8) & width_mask(rb);
        } else if (x->active == FULL_MASK) {
            memcpy(d, vals[k], sizeof vals[k]);
        } else {
            FOR_EACH_LANE(l, x->active) d[l] = vals[k][l];
        }
    }
    return 0;
}

static int store(exec_ctx *x) {
    const ptx_insn *in = x->in;
    ptx_type t = (ptx_type)in->type;
    unsigned esize = type_size(t), vec = in->vec ? in->vec : 1;
    if (in->nopnd < 2 || esize == 0 || esize > 8 || in->opnd[0].kind != PTX_OPND_ADDR) return exec_unsupported(x);
    const ptx_operand *src = &in->opnd[1];
    const uint64_t *rows[4];
    unsigned n;
    if (src->kind == PTX_OPND_VEC) {
        n = src->comp ? src->comp : vec;
        if (n == 0 || n > 4) return exec_unsupported(x);
        for (unsigned k = 0; k < n; k++) {
            if ((src->vec_imm >> k) & 1 || src->vec[k] == PTX_REG_SINK) {
                /* an immediate element (or '_', stored as 0): broadcast into scratch */
                uint64_t v = src->vec[k] == PTX_REG_SINK && !((src->vec_imm >> k) & 1) ? 0 : src->vec[k];
                for (unsigned l = 0; l < LANES; l++) x->scratch[2 + k][l] = v;
                rows[k] = x->scratch[2 + k];
            } else {
                rows[k] = exec_row(x, src->vec[k]);
            }
        }
    } else {
        n = 1;
        rows[0] = exec_src(x, 1);
    }
    unsigned size = esize * n;
    addr_form af = addr_form_of(x, &in->opnd[0], (ptx_space)in->space);
    begin_access(x, size, 1, 0);
    if (x->cta->memlog && may_defer(af.space)) return store_deferred(x, &af, rows, n, esize);
    if (n == 1 && (esize == 4 || esize == 8) && fast_space(af.space) && store_fast(x, &af, esize, rows[0])) return 0;
    if (n == 1 && esize == 4) {
        FOR_EACH_LANE(l, x->active) {
            uint8_t *p = (uint8_t *)lane_ptr(x, af.space, af_addr(&af, l), 4, ACC_WRITE, l);
            if (!p) return -1;
            uint32_t v = (uint32_t)rows[0][l];
            memcpy(p, &v, 4);
        }
        return 0;
    }
    FOR_EACH_LANE(l, x->active) {
        uint8_t *p = (uint8_t *)lane_ptr(x, af.space, af_addr(&af, l), size, ACC_WRITE, l);
        if (!p) return -1;
        for (unsigned k = 0; k < n; k++) write_le(p + k * esize, rows[k][l], esize);
    }
    return 0;
}

int exec_memory(exec_ctx *x) {
    switch ((ptx_opcode)x->in->op) {
    case PTX_OP_LD: case PTX_OP_LDU: return load(x);
    case PTX_OP_ST: return store(x);
    default: return exec_unsupported(x);
    }
}

int exec_read_string(exec_ctx *x, uint64_t gaddr, uint32_t lane, char *buf, size_t bufsz) {
    size_t i = 0;
    for (; i + 1 < bufsz; i++) {
        ptx_space rs;
        uint64_t ra;
        const uint8_t *p = exec_mem_ptr(x, PTX_SPACE_NONE, gaddr + i, 1, ACC_READ, lane, &rs, &ra);
        if (!p) return -1;
        buf[i] = (char)*p;
        if (!buf[i]) return (int)i;
    }
    buf[i] = 0;
    return (int)i;
}

/* exec_module_parallel_safe: the instructions that move global data outside
 * ld/st/atom/red, and calls of the built-ins (printf, assert, malloc, free). */
static int moves_data_elsewhere(const ptx_module *m, const ptx_function *f, const ptx_insn *in) {
    switch ((ptx_opcode)in->op) {
    case PTX_OP_TEX: case PTX_OP_TLD4: case PTX_OP_TXQ: case PTX_OP_SUQ: case PTX_OP_SULD: case PTX_OP_SUST:
    case PTX_OP_CP_ASYNC: case PTX_OP_CP_ASYNC_COMMIT: case PTX_OP_CP_ASYNC_WAIT: case PTX_OP_CP_ASYNC_WAIT_ALL:
    case PTX_OP_MBARRIER: case PTX_OP_MBARRIER_PENDING: case PTX_OP_CP_ASYNC_MBAR:
    case PTX_OP_WMMA_LOAD: case PTX_OP_WMMA_STORE: case PTX_OP_LDMATRIX:
        return 1;
    case PTX_OP_CALL: {
        /* a call of a function with a body is plain code; an indirect one may reach a built-in */
        if (in->call >= f->ncalls || f->calls[in->call].indirect || f->calls[in->call].func >= m->nfuncs) return 1;
        const ptx_function *callee = &m->funcs[f->calls[in->call].func];
        return callee->is_extern || !callee->insns;
    }
    default: return 0;
    }
}

int exec_module_parallel_safe(const ptx_module *m) {
    for (uint32_t f = 0; f < m->nfuncs; f++)
        for (uint32_t i = 0; i < m->funcs[f].ninsn; i++)
            if (moves_data_elsewhere(m, &m->funcs[f], &m->funcs[f].insns[i])) return 0;
    return 1;
}
