/* Control-flow graph and immediate post-dominators of a function.
 *
 * Basic blocks start at instruction 0, at every branch target and after every
 * branch, ret, exit and trap.  Successors:
 *   bra (unguarded)          -> its target
 *   @p bra                   -> its target and the next block (fallthrough)
 *   ret / exit / trap        -> the virtual exit node
 *   @p ret / exit / trap     -> the exit node and the next block
 *   anything else            -> the next block (the exit node after the last one)
 * A branch to a label placed after the last instruction (target == ninsn) goes to
 * the exit node: falling off the end of a function returns.
 *
 * Post-dominators are dominators of the reverse graph rooted at the exit node,
 * computed with the Cooper-Harvey-Kennedy iteration ("A Simple, Fast Dominance
 * Algorithm") over a reverse postorder of that graph.  Each branch's reconvergence
 * point (ptx_insn.reconv) is the first instruction of the immediate
 * post-dominator of its block, or ninsn when that is the exit node.
 *
 * Subtleties:
 *  - Blocks that cannot reach the exit (an infinite loop) have no post-dominator;
 *    their branches get reconv = ninsn.  A block that can reach the exit through
 *    one successor but not the other gets its ipdom from the successor that can:
 *    threads that take the other path never come back, so they cannot be waited for.
 *  - Unreachable code (after an unconditional branch) is still a block and gets
 *    post-dominators like any other: it may be reached by nothing, but it is
 *    harmless and keeps every branch's reconv defined.
 *  - call is not a terminator: the callee returns to the next instruction.
 *  - Leaving is not a path to wait for.  Where a block has two successors and one
 *    of them only leaves the function -- the exit node (a guarded ret / exit /
 *    trap) or a block that is nothing but an unguarded ret or exit (nvcc's shared
 *    `$L__BB0_N: ret;`) -- that edge is left out of the post-dominator
 *    computation.  Otherwise `if (i >= n) return;` would make the whole rest of
 *    the kernel one divergent region reconverging at the exit: the remaining
 *    lanes would reach a later bar.sync or shfl.sync without the departed ones
 *    (a false divergent barrier), and code after an if/else would run once per
 *    path.  The lanes that take the dropped edge retire on their own: from a
 *    kernel they exit; in a .func the executor parks them until the frame
 *    returns, so nobody waits for them at the reconvergence point.
 */
#include "ptx/parse.h"

#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

typedef struct {
    uint32_t n;         /* blocks; node n is the exit */
    uint32_t *start;    /* n + 1: first instruction of each block; start[n] = ninsn */
    uint32_t *succ;     /* 2 per block, NONE if unused; n means the exit */
    uint32_t *pred_off; /* CSR: forward predecessors of node v (v = 0..n) */
    uint32_t *pred;
    uint32_t *po;       /* postorder number in the reverse graph, NONE if unreached */
    uint32_t *order;    /* nodes by postorder number */
    uint32_t *ipdom;
} cfg;

static int is_terminator(const ptx_insn *in)
{
    return in->op == PTX_OP_BRA || in->op == PTX_OP_RET || in->op == PTX_OP_EXIT || in->op == PTX_OP_TRAP;
}

static void cfg_free(cfg *g)
{
    free(g->start);
    free(g->succ);
    free(g->pred_off);
    free(g->pred);
    free(g->po);
    free(g->order);
    free(g->ipdom);
}

/* Split into blocks; block_of[i] is the block of instruction i. */
static int find_blocks(const ptx_function *f, cfg *g, uint32_t *block_of)
{
    uint32_t n = f->ninsn;
    uint8_t *leader = calloc(n + 1, 1);
    if (!leader)
        return -1;
    leader[0] = 1;
    for (uint32_t i = 0; i < n; i++) {
        const ptx_insn *in = &f->insns[i];
        if (in->op == PTX_OP_BRA && in->opnd[0].imm >= 0 && (uint64_t)in->opnd[0].imm <= n)
            leader[in->opnd[0].imm] = 1;
        if (is_terminator(in))
            leader[i + 1] = 1;
    }
    uint32_t nb = 0;
    for (uint32_t i = 0; i < n; i++)
        nb += leader[i];
    g->n = nb;
    g->start = malloc((nb + 1) * sizeof(uint32_t));
    if (!g->start) {
        free(leader);
        return -1;
    }
    uint32_t b = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (leader[i])
            g->start[b++] = i;
        block_of[i] = b - 1;
    }
    g->start[nb] = n;
    free(leader);
    return 0;
}

static uint32_t block_at(const cfg *g, const uint32_t *block_of, uint32_t ninsn, int64_t insn)
{
    return (uint64_t)insn >= ninsn ? g->n : block_of[insn];
}

/* 1 if block b is a lone unguarded ret or exit: entering it only leaves. */
static int leaves_only(const ptx_function *f, const cfg *g, uint32_t b)
{
    if (b >= g->n)
        return 1;  /* the exit node itself */
    const ptx_insn *in = &f->insns[g->start[b]];
    return (in->op == PTX_OP_RET || in->op == PTX_OP_EXIT) && in->guard == PTX_NO_GUARD;
}

/* reach[v] = 1 if node v can get to the exit over the current edges. */
static int reaches_exit(const cfg *g, uint8_t *reach)
{
    uint32_t n = g->n;
    uint32_t *off = calloc(n + 2, sizeof(uint32_t));
    uint32_t *pred = malloc((2 * (size_t)n + 1) * sizeof(uint32_t));
    uint32_t *queue = malloc((n + 1) * sizeof(uint32_t));
    if (!off || !pred || !queue) {
        free(off);
        free(pred);
        free(queue);
        return -1;
    }
    for (uint32_t b = 0; b < n; b++)
        for (int k = 0; k < 2; k++)
            if (g->succ[2 * b + k] != NONE)
                off[g->succ[2 * b + k] + 1]++;
    for (uint32_t v = 0; v <= n; v++)
        off[v + 1] += off[v];
    for (uint32_t b = 0; b < n; b++)
        for (int k = 0; k < 2; k++)
            if (g->succ[2 * b + k] != NONE)
                pred[off[g->succ[2 * b + k]]++] = b;
    /* off[v] now ends v's list; v's list starts where v-1's ended */
    memset(reach, 0, n + 1);
    uint32_t head = 0, tail = 0;
    reach[n] = 1;
    queue[tail++] = n;
    while (head < tail) {
        uint32_t v = queue[head++];
        for (uint32_t i = v ? off[v - 1] : 0; i < off[v]; i++)
            if (!reach[pred[i]]) {
                reach[pred[i]] = 1;
                queue[tail++] = pred[i];
            }
    }
    free(off);
    free(pred);
    free(queue);
    return 0;
}

/* Leave out the edges that only leave (see the comment at the top) where the
 * block has another way on.  That other way must still lead to the exit: a loop
 * whose only way out leaves would otherwise look endless and take every
 * post-dominator above it along.  So blocks left unable to reach the exit get
 * their edge back, the last such block first (later blocks decide whether
 * earlier ones reach the exit), re-checking after each; past a bound, all at once. */
static int drop_leaving_edges(const ptx_function *f, cfg *g)
{
    uint32_t n = g->n;
    uint32_t *dropped = malloc((n + 1) * sizeof(uint32_t));
    uint8_t *reach = malloc(n + 1);
    if (!dropped || !reach) {
        free(dropped);
        free(reach);
        return -1;
    }
    int any = 0;
    for (uint32_t b = 0; b < n; b++) {
        uint32_t *s = &g->succ[2 * b];
        dropped[b] = NONE;
        if (s[1] == NONE)
            continue;
        int leave0 = leaves_only(f, g, s[0]), leave1 = leaves_only(f, g, s[1]);
        if (leave0 == leave1)
            continue;
        dropped[b] = leave0 ? s[0] : s[1];
        s[0] = leave0 ? s[1] : s[0];
        s[1] = NONE;
        any = 1;
    }
    for (int round = 0; any; round++) {
        if (reaches_exit(g, reach) < 0) {
            free(dropped);
            free(reach);
            return -1;
        }
        any = 0;
        for (uint32_t b = n; b-- > 0;) {
            if (dropped[b] == NONE || reach[b])
                continue;
            g->succ[2 * b + 1] = dropped[b];
            dropped[b] = NONE;
            any = 1;
            if (round < 64)
                break;  /* one at a time while that stays cheap */
        }
    }
    free(dropped);
    free(reach);
    return 0;
}

static int find_edges(const ptx_function *f, cfg *g, const uint32_t *block_of)
{
    uint32_t n = g->n;
    g->succ = malloc((size_t)n * 2 * sizeof(uint32_t));
    g->pred_off = calloc(n + 2, sizeof(uint32_t));
    if (!g->succ || !g->pred_off)
        return -1;
    for (uint32_t b = 0; b < n; b++) {
        uint32_t last = g->start[b + 1] - 1;
        const ptx_insn *in = &f->insns[last];
        uint32_t *s = &g->succ[2 * b];
        int guarded = in->guard != PTX_NO_GUARD;
        uint32_t fall = block_at(g, block_of, f->ninsn, (int64_t)last + 1);
        s[0] = s[1] = NONE;
        if (in->op == PTX_OP_BRA) {
            s[0] = block_at(g, block_of, f->ninsn, in->opnd[0].imm);
            if (guarded && fall != s[0])
                s[1] = fall;
        } else if (is_terminator(in)) {
            s[0] = n;
            if (guarded && fall != n)
                s[1] = fall;
        } else {
            s[0] = fall;
        }
    }
    if (drop_leaving_edges(f, g) < 0)
        return -1;
    /* predecessor lists (CSR) */
    for (uint32_t b = 0; b < n; b++)
        for (int k = 0; k < 2; k++)
            if (g->succ[2 * b + k] != NONE)
                g->pred_off[g->succ[2 * b + k] + 1]++;
    for (uint32_t v = 0; v <= n; v++)
        g->pred_off[v + 1] += g->pred_off[v];
    g->pred = malloc((g->pred_off[n + 1] + 1) * sizeof(uint32_t));
    uint32_t *fill = malloc((n + 1) * sizeof(uint32_t));
    if (!g->pred || !fill) {
        free(fill);
        return -1;
    }
    memcpy(fill, g->pred_off, (n + 1) * sizeof(uint32_t));
    for (uint32_t b = 0; b < n; b++)
        for (int k = 0; k < 2; k++)
            if (g->succ[2 * b + k] != NONE)
                g->pred[fill[g->succ[2 * b + k]]++] = b;
    free(fill);
    return 0;
}

/* Iterative DFS of the reverse graph from the exit: postorder numbers. */
static int reverse_postorder(cfg *g)
{
    uint32_t n = g->n;
    g->po = malloc((n + 1) * sizeof(uint32_t));
    g->order = malloc((n + 1) * sizeof(uint32_t));
    uint32_t *stack = malloc((n + 1) * sizeof(uint32_t));
    uint32_t *next = malloc((n + 1) * sizeof(uint32_t)); /* next predecessor to visit */
    uint8_t *seen = calloc(n + 1, 1);
    if (!g->po || !g->order || !stack || !next || !seen) {
        free(stack);
        free(next);
        free(seen);
        return -1;
    }
    for (uint32_t v = 0; v <= n; v++)
        g->po[v] = NONE;
    uint32_t sp = 0, counter = 0;
    stack[sp++] = n;
    seen[n] = 1;
    next[n] = g->pred_off[n];
    while (sp) {
        uint32_t v = stack[sp - 1];
        if (next[v] < g->pred_off[v + 1]) {
            uint32_t w = g->pred[next[v]++];
            if (!seen[w]) {
                seen[w] = 1;
                next[w] = g->pred_off[w];
                stack[sp++] = w;
            }
        } else {
            sp--;
            g->po[v] = counter;
            g->order[counter++] = v;
        }
    }
    free(stack);
    free(next);
    free(seen);
    return (int)counter;
}

static uint32_t intersect(const cfg *g, uint32_t a, uint32_t b)
{
    while (a != b) {
        while (g->po[a] < g->po[b])
            a = g->ipdom[a];
        while (g->po[b] < g->po[a])
            b = g->ipdom[b];
    }
    return a;
}

/* Cooper-Harvey-Kennedy on the reverse graph: a node's "predecessors" there are
 * its CFG successors. */
static int post_dominators(cfg *g, uint32_t reached)
{
    uint32_t n = g->n;
    g->ipdom = malloc((n + 1) * sizeof(uint32_t));
    if (!g->ipdom)
        return -1;
    for (uint32_t v = 0; v <= n; v++)
        g->ipdom[v] = NONE;
    g->ipdom[n] = n;
    int changed = 1;
    while (changed) {
        changed = 0;
        /* reverse postorder: highest number first, skipping the root */
        for (uint32_t k = reached - 1; k-- > 0;) {
            uint32_t b = g->order[k];
            uint32_t nd = NONE;
            for (int j = 0; j < 2; j++) {
                uint32_t s = g->succ[2 * b + j];
                if (s == NONE || g->ipdom[s] == NONE)
                    continue;
                nd = nd == NONE ? s : intersect(g, s, nd);
            }
            if (nd != g->ipdom[b]) {
                g->ipdom[b] = nd;
                changed = 1;
            }
        }
    }
    return 0;
}

int ptx_build_cfg(ptx_function *f)
{
    if (f->ninsn == 0)
        return 0;
    cfg g;
    memset(&g, 0, sizeof(g));
    uint32_t *block_of = malloc((size_t)f->ninsn * sizeof(uint32_t));
    int rc = -1;
    if (!block_of || find_blocks(f, &g, block_of) < 0 || find_edges(f, &g, block_of) < 0)
        goto out;
    int reached = reverse_postorder(&g);
    if (reached < 0 || post_dominators(&g, (uint32_t)reached) < 0)
        goto out;
    for (uint32_t b = 0; b < g.n; b++) {
        ptx_insn *last = &f->insns[g.start[b + 1] - 1];
        if (last->op != PTX_OP_BRA)
            continue;
        uint32_t p = g.ipdom[b];
        last->reconv = (p == NONE || p == g.n) ? f->ninsn : g.start[p];
    }
    rc = 0;
out:
    free(block_of);
    cfg_free(&g);
    return rc;
}
