/* DRAM channel: bank state machines, command timing, request queue and return
 * queue.  See dram.h for the timing rules.  All times are DRAM cycles. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem/dram.h"

typedef struct {
    int32_t cur;          /* slot being served, DRAM_NONE if free */
    int64_t open_row;     /* -1: precharged */
    uint64_t act_ok;      /* earliest ACT (tRP after PRE, tRC after ACT) */
    uint64_t col_ok;      /* earliest RD/WR (tRCD after ACT) */
    uint64_t pre_ok;      /* earliest PRE (tRAS, tWR, tRTP) */
} dram_bank;

/* The next command of a serving bank (CMD_UNKNOWN: not worked out yet). */
typedef enum { CMD_UNKNOWN = 0, CMD_READ, CMD_WRITE, CMD_PRE, CMD_ACT, CMD_KINDS } bank_cmd;

/* Banks are at most 64 (dram_timing_parse), so sets of banks are bit masks. */
static inline uint64_t bank_bit(uint32_t b) { return 1ull << b; }

/* Lowest bank of `set` at or after `from`, wrapping around; `set` must not be empty. */
static inline uint32_t first_bank_from(uint64_t set, uint32_t from) {
    uint64_t upper = set & (~0ull << from);
    return (uint32_t)__builtin_ctzll(upper ? upper : set);
}

typedef struct {
    mem_req req;
    uint64_t done, seq;
} dram_return;

struct dram {
    dram_config cfg;
    char name[32];
    const dram_sched_ops *sched;
    void *sched_state;
    dram_queue q;
    dram_bank *banks;
    uint64_t *group_col_ok;    /* per bank group: tCCDL */
    uint64_t now, next_seq;
    uint64_t act_ok_any;       /* tRRD */
    uint64_t col_ok_any;       /* tCCD */
    uint64_t bus_free;         /* end of the last data burst */
    uint64_t wr_data_end;      /* end of the last write burst (tCDLR) */
    bool last_burst_read;
    bool had_write;            /* wr_data_end is meaningful */
    uint32_t rr;               /* next bank to look at for a command */
    uint32_t waiting;          /* queued requests no bank has taken yet */
    uint32_t serving;          /* banks with a request in service */
    uint64_t serving_set;      /* the same banks as a mask */
    uint64_t queued_set;       /* banks with requests waiting in the queue */
    /* Per serving bank, the command it needs next and the first cycle its own
     * timers allow it; CMD_UNKNOWN / 0 after the bank issued or took a request.
     * With chan_ready (the channel-wide limits per kind of command, recomputed
     * each cycle the channel works) the per-cycle scan skips waiting banks
     * without touching their requests. */
    uint8_t *next;             /* bank_cmd */
    uint64_t *own_ready;
    uint64_t chan_ready[CMD_KINDS];
    uint64_t sleep_until;      /* no command can issue before this (reset by dram_push) */
    bool reassign;             /* a bank freed or the queue changed: ask the scheduler again */
    uint64_t *free_slots;      /* bit i set: queue slot i is unused (so the lowest
                                  free slot is found without reading the slots) */
    /* Completed requests sorted by (done, seq), as a ring (ret_cap slots from
     * ret_head): a pop takes the head without moving the rest (it used to be a
     * memmove of the whole queue per pop); inserts come at or near the tail. */
    dram_return *ret;
    uint32_t ret_len, ret_head, ret_cap;
    uint32_t burst, atom, banks_per_group;
    dram_counters ctr;
};

/* Bank group of a bank: by its higher bits (consecutive banks share a group),
 * or with -dram_bnkgrp_indexing_policy 1 by its lower bits (consecutive banks
 * in different groups: GPGPU-Sim's GTX480 choice, more tCCDL-free overlap). */
static uint32_t group_of(const dram *d, uint32_t bank) {
    return d->cfg.bnkgrp_lower_bits ? bank % d->cfg.t.nbkgrp : bank / d->banks_per_group;
}

/* ---- timing string ---- */

typedef struct {
    const char *key;
    size_t offset;
} timing_key;

#define TK(k, f) {k, offsetof(dram_timing, f)}
static const timing_key timing_keys[] = {
    TK("nbk", nbk),   TK("CCD", tCCD), TK("RRD", tRRD),   TK("RCD", tRCD), TK("RAS", tRAS),
    TK("RP", tRP),    TK("RC", tRC),   TK("CL", tCL),     TK("WL", tWL),   TK("CDLR", tCDLR),
    TK("WR", tWR),    TK("nbkgrp", nbkgrp), TK("CCDL", tCCDL), TK("RTPL", tRTPL),
};
#undef TK
#define NKEYS (sizeof timing_keys / sizeof timing_keys[0])

int dram_timing_parse(const char *text, dram_timing *t, char *err, size_t errlen) {
    char buf[512];
    size_t n = 0;
    for (const char *p = text; *p; p++) {   /* drop whitespace: GPGPU-Sim files wrap this string */
        if (isspace((unsigned char)*p)) continue;
        if (n + 1 >= sizeof buf) {
            snprintf(err, errlen, "DRAM timing string too long");
            return -1;
        }
        buf[n++] = *p;
    }
    buf[n] = '\0';
    dram_timing parsed = *t;
    bool seen[NKEYS] = {false};
    for (char *item = strtok(buf, ":"); item; item = strtok(NULL, ":")) {
        char *eq = strchr(item, '=');
        if (!eq) {
            snprintf(err, errlen, "DRAM timing item '%s' must be <key>=<cycles>", item);
            return -1;
        }
        *eq = '\0';
        size_t k = 0;
        while (k < NKEYS && strcmp(timing_keys[k].key, item) != 0) k++;
        if (k == NKEYS) {
            snprintf(err, errlen,
                     "unknown DRAM timing key '%s' (expected nbk CCD RRD RCD RAS RP RC CL WL CDLR WR nbkgrp CCDL RTPL)",
                     item);
            return -1;
        }
        if (seen[k]) {
            snprintf(err, errlen, "DRAM timing key '%s' given twice", item);
            return -1;
        }
        seen[k] = true;
        const char *v = eq + 1;
        char *end;
        errno = 0;
        unsigned long val = strtoul(v, &end, 10);
        if (!isdigit((unsigned char)*v) || *end || errno || val > 100000) {
            snprintf(err, errlen, "DRAM timing %s='%s': expected a number of cycles in [0, 100000]", item, v);
            return -1;
        }
        *(uint32_t *)((char *)&parsed + timing_keys[k].offset) = (uint32_t)val;
    }
    if (parsed.nbk < 1 || parsed.nbk > 64) {
        snprintf(err, errlen, "DRAM timing nbk=%u: expected 1..64 banks", parsed.nbk);
        return -1;
    }
    if (parsed.nbkgrp < 1 || parsed.nbk % parsed.nbkgrp) {
        snprintf(err, errlen, "DRAM timing nbkgrp=%u: expected a divisor of nbk=%u", parsed.nbkgrp, parsed.nbk);
        return -1;
    }
    if (parsed.tCCD < 1) {
        snprintf(err, errlen, "DRAM timing CCD=0: expected at least 1 cycle");
        return -1;
    }
    *t = parsed;
    return 0;
}

void dram_timing_format(const dram_timing *t, char *buf, size_t n) {
    snprintf(buf, n, "nbk=%u:CCD=%u:RRD=%u:RCD=%u:RAS=%u:RP=%u:RC=%u:CL=%u:WL=%u:CDLR=%u:WR=%u:nbkgrp=%u:CCDL=%u:RTPL=%u",
             t->nbk, t->tCCD, t->tRRD, t->tRCD, t->tRAS, t->tRP, t->tRC, t->tCL, t->tWL, t->tCDLR, t->tWR,
             t->nbkgrp, t->tCCDL, t->tRTPL);
}

/* ---- queue lists ---- */

static void list_append(dram_queue *q, int32_t s) {
    dram_request *e = &q->slots[s];
    e->prev = q->newest;
    e->next = DRAM_NONE;
    if (q->newest != DRAM_NONE) q->slots[q->newest].next = s;
    else q->oldest = s;
    q->newest = s;
    e->bank_prev = q->bank_newest[e->bank];
    e->bank_next = DRAM_NONE;
    if (e->bank_prev != DRAM_NONE) q->slots[e->bank_prev].bank_next = s;
    else q->bank_oldest[e->bank] = s;
    q->bank_newest[e->bank] = s;
}

static void list_unlink(dram_queue *q, int32_t s) {
    dram_request *e = &q->slots[s];
    if (e->prev != DRAM_NONE) q->slots[e->prev].next = e->next;
    else q->oldest = e->next;
    if (e->next != DRAM_NONE) q->slots[e->next].prev = e->prev;
    else q->newest = e->prev;
    if (e->bank_prev != DRAM_NONE) q->slots[e->bank_prev].bank_next = e->bank_next;
    else q->bank_oldest[e->bank] = e->bank_next;
    if (e->bank_next != DRAM_NONE) q->slots[e->bank_next].bank_prev = e->bank_prev;
    else q->bank_newest[e->bank] = e->bank_prev;
    e->prev = e->next = e->bank_prev = e->bank_next = DRAM_NONE;
}

/* The lists plus the set of banks with queued requests. */
static void queue_append(dram *d, int32_t s) {
    list_append(&d->q, s);
    d->queued_set |= bank_bit(d->q.slots[s].bank);
}

static void queue_unlink(dram *d, int32_t s) {
    uint32_t bank = d->q.slots[s].bank;
    list_unlink(&d->q, s);
    if (d->q.bank_oldest[bank] == DRAM_NONE) d->queued_set &= ~bank_bit(bank);
}

/* The lowest unused slot (the order matters: it is the slot the request takes). */
static int32_t free_slot(const dram *d) {
    for (uint32_t w = 0; (w << 6) < d->q.capacity; w++)
        if (d->free_slots[w]) return (int32_t)((w << 6) + (uint32_t)__builtin_ctzll(d->free_slots[w]));
    return DRAM_NONE;
}

static void slot_taken(dram *d, int32_t s) { d->free_slots[s >> 6] &= ~(1ull << (s & 63)); }
static void slot_freed(dram *d, int32_t s) { d->free_slots[s >> 6] |= 1ull << (s & 63); }

/* ---- public API ---- */

bool dram_can_accept(const dram *d) { return d->q.length < d->q.capacity; }

void dram_refuse(dram *d) { d->ctr.push_fails++; }

int dram_push(dram *d, const mem_req *r, uint32_t bank, uint32_t row, uint32_t col) {
    int32_t s = dram_can_accept(d) ? free_slot(d) : DRAM_NONE;
    if (s == DRAM_NONE || bank >= d->cfg.t.nbk) {
        d->ctr.push_fails++;
        return -1;
    }
    dram_request *e = &d->q.slots[s];
    memset(e, 0, sizeof *e);
    e->req = *r;
    e->arrival = d->now;
    e->seq = d->next_seq++;
    e->bank = bank;
    e->row = row;
    e->col = col;
    uint32_t bytes = r->size ? r->size : 1;
    e->columns_left = (bytes + d->atom - 1) / d->atom;
    e->used = 1;
    slot_taken(d, s);
    queue_append(d, s);
    d->q.length++;
    d->waiting++;
    if (d->q.length > d->ctr.queue_max) d->ctr.queue_max = d->q.length;
    if (d->sched->on_arrival) d->sched->on_arrival(d->sched_state, &d->q, s, d->now);
    d->sleep_until = 0;
    d->reassign = true;
    return 0;
}

/* Give every free bank its next request (banks in index order); true if one was
 * given.  Only free banks with queued requests are asked; taking a request off
 * one bank's list never changes another bank's, so the set can be fixed first. */
static bool assign_banks(dram *d) {
    bool assigned = false;
    for (uint64_t todo = d->queued_set & ~d->serving_set; todo; todo &= todo - 1) {
        uint32_t b = (uint32_t)__builtin_ctzll(todo);
        dram_bank *bk = &d->banks[b];
        int32_t s = d->sched->pick(d->sched_state, &d->q, b, bk->open_row, d->now);
        if (s == DRAM_NONE) continue;
        dram_request *e = &d->q.slots[s];
        if (!e->used || e->in_service || e->bank != b) continue;   /* a buggy scheduler: ignore */
        queue_unlink(d, s);
        e->in_service = 1;
        bk->cur = s;
        d->waiting--;
        d->serving++;
        d->serving_set |= bank_bit(b);
        d->next[b] = CMD_UNKNOWN;
        d->own_ready[b] = 0;
        assigned = true;
        d->reassign = true;   /* the queue changed: banks asked earlier in this pass may now get one */
        if (bk->open_row == (int64_t)e->row) d->ctr.row_hits++;
        else d->ctr.row_misses++;
    }
    return assigned;
}

/* The i-th entry of the return ring (i < ret_cap). */
static dram_return *ret_at(const dram *d, uint32_t i) {
    uint32_t k = d->ret_head + i;
    return &d->ret[k >= d->ret_cap ? k - d->ret_cap : k];
}

static void return_insert(dram *d, const mem_req *r, uint64_t done, uint64_t seq) {
    uint32_t i = d->ret_len;
    for (; i > 0; i--) {
        const dram_return *prev = ret_at(d, i - 1);
        if (!(prev->done > done || (prev->done == done && prev->seq > seq))) break;
        *ret_at(d, i) = *prev;
    }
    dram_return *e = ret_at(d, i);
    e->req = *r;
    e->done = done;
    e->seq = seq;
    d->ret_len++;
}

static bool column_ready(const dram *d, const dram_bank *bk, uint32_t bank, bool write) {
    uint64_t t = d->now;
    if (t < bk->col_ok || t < d->col_ok_any || t < d->group_col_ok[group_of(d, bank)]) return false;
    if (d->ret_len >= d->cfg.return_queue_size) return false;
    if (write) {
        uint64_t bus = d->bus_free + (d->last_burst_read ? 1 : 0);   /* one cycle read->write turnaround */
        return t + d->cfg.t.tWL >= bus;
    }
    if (d->had_write && t < d->wr_data_end + d->cfg.t.tCDLR) return false;
    return t + d->cfg.t.tCL >= d->bus_free;
}

static void issue_column(dram *d, dram_bank *bk, uint32_t bank) {
    dram_request *e = &d->q.slots[bk->cur];
    bool write = mem_access_is_write(e->req.type);
    const dram_timing *t = &d->cfg.t;
    uint64_t now = d->now;
    uint64_t data_start = now + (write ? t->tWL : t->tCL);
    uint64_t data_end = data_start + d->burst;
    d->bus_free = data_end;
    d->last_burst_read = !write;
    d->col_ok_any = now + t->tCCD;
    uint32_t ccdl = t->tCCDL > t->tCCD ? t->tCCDL : t->tCCD;
    d->group_col_ok[group_of(d, bank)] = now + ccdl;
    if (write) {
        d->wr_data_end = data_end;
        d->had_write = true;
        uint64_t pre = data_end + t->tWR;
        if (pre > bk->pre_ok) bk->pre_ok = pre;
    } else {
        uint64_t pre = now + (t->tRTPL > d->burst ? t->tRTPL : d->burst);
        if (pre > bk->pre_ok) bk->pre_ok = pre;
    }
    d->ctr.column_cmds++;
    if (write) d->ctr.write_bursts++;
    else d->ctr.read_bursts++;
    d->ctr.data_bus_cycles += d->burst;
    if (--e->columns_left) return;
    /* Last burst of the request: it completes when its data has moved. */
    if (write) {
        d->ctr.writes++;
        d->ctr.write_bytes += e->req.size;
    } else {
        d->ctr.reads++;
        d->ctr.read_bytes += e->req.size;
    }
    d->ctr.latency_sum += data_end - e->arrival;
    return_insert(d, &e->req, data_end, e->seq);
    e->used = 0;
    slot_freed(d, bk->cur);
    d->q.length--;
    bk->cur = DRAM_NONE;
    d->serving--;
    d->serving_set &= ~bank_bit(bank);
    d->reassign = true;
}

/* Try to issue the next command bank b needs.  true if one was issued. */
static bool try_issue(dram *d, uint32_t b) {
    dram_bank *bk = &d->banks[b];
    if (bk->cur == DRAM_NONE) return false;
    const dram_request *e = &d->q.slots[bk->cur];
    const dram_timing *t = &d->cfg.t;
    uint64_t now = d->now;
    if (bk->open_row == (int64_t)e->row) {
        if (!column_ready(d, bk, b, mem_access_is_write(e->req.type))) return false;
        issue_column(d, bk, b);
        return true;
    }
    if (bk->open_row >= 0) {                       /* row conflict: precharge */
        if (now < bk->pre_ok) return false;
        bk->open_row = -1;
        if (now + t->tRP > bk->act_ok) bk->act_ok = now + t->tRP;
        d->ctr.precharges++;
        return true;
    }
    if (now < bk->act_ok || now < d->act_ok_any) return false;
    bk->open_row = e->row;                          /* activate */
    bk->col_ok = now + t->tRCD;
    bk->act_ok = now + t->tRC;
    if (now + t->tRAS > bk->pre_ok) bk->pre_ok = now + t->tRAS;
    d->act_ok_any = now + t->tRRD;
    d->ctr.activates++;
    return true;
}

static uint64_t max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* The command a serving bank needs next. */
static bank_cmd next_cmd(const dram *d, uint32_t b) {
    const dram_bank *bk = &d->banks[b];
    const dram_request *e = &d->q.slots[bk->cur];
    if (bk->open_row == (int64_t)e->row) return mem_access_is_write(e->req.type) ? CMD_WRITE : CMD_READ;
    return bk->open_row >= 0 ? CMD_PRE : CMD_ACT;
}

/* The first cycle at which the bank's own timers (and its bank group's tCCDL)
 * allow command k.  Changes only when the bank issues or, for the group, when a
 * bank of the group issues a column command (which only moves it later). */
static uint64_t bank_own_ready(const dram *d, uint32_t b, bank_cmd k) {
    const dram_bank *bk = &d->banks[b];
    switch (k) {
    case CMD_READ:
    case CMD_WRITE: return max_u64(bk->col_ok, d->group_col_ok[group_of(d, b)]);
    case CMD_PRE: return bk->pre_ok;
    case CMD_ACT: return bk->act_ok;
    default: return 0;
    }
}

/* The first cycle at which the channel-wide rules (tCCD, tRRD, the data bus,
 * tCDLR, room in the return queue) allow each kind of command, the channel state
 * staying as it is.  With bank_own_ready this mirrors try_issue and column_ready
 * exactly. */
static void channel_ready(dram *d) {
    const dram_timing *t = &d->cfg.t;
    uint64_t *r = d->chan_ready;
    r[CMD_UNKNOWN] = r[CMD_PRE] = 0;
    r[CMD_ACT] = d->act_ok_any;
    uint64_t rd = d->col_ok_any, wr = d->col_ok_any;
    uint64_t bus = d->bus_free + (d->last_burst_read ? 1 : 0);   /* read->write turnaround */
    if (bus > t->tWL) wr = max_u64(wr, bus - t->tWL);
    if (d->had_write) rd = max_u64(rd, d->wr_data_end + t->tCDLR);
    if (d->bus_free > t->tCL) rd = max_u64(rd, d->bus_free - t->tCL);
    if (d->ret_len >= d->cfg.return_queue_size) {   /* waits for a pop */
        rd = max_u64(rd, d->now + 1);
        wr = max_u64(wr, d->now + 1);
    }
    r[CMD_READ] = rd;
    r[CMD_WRITE] = wr;
}

static bool is_column(bank_cmd k) { return k == CMD_READ || k == CMD_WRITE; }

/* One command per cycle (with dual_bus, one row and one column command: HBM's
 * two command buses; GPGPU-Sim's dual_bus_interface): the serving banks are
 * tried in turn from d->rr.  A bank whose next command is known and not yet
 * allowed (by its own timers or the channel's) is passed over without a try:
 * the try would fail, and a failed try changes nothing.  A bank whose command
 * needs a bus already used this cycle is passed over too, its state unchanged.
 * Issuing a command changes the channel's readiness only for its own kind (a
 * column moves tCCD and the data bus, an ACT tRRD), so one pass with chan_ready
 * from the start of the cycle decides both.  true if a command issued. */
static bool issue_one(dram *d) {
    uint32_t nbk = d->cfg.t.nbk;
    uint64_t set = d->serving_set, now = d->now;
    if (!set) return false;
    channel_ready(d);
    bool col_used = false, row_used = false, any = false;
    uint32_t b = first_bank_from(set, d->rr);
    for (uint64_t left = set; left; ) {
        left &= ~bank_bit(b);
        if (now >= d->own_ready[b] && now >= d->chan_ready[d->next[b]]) {
            bank_cmd k = next_cmd(d, b);
            bool col = is_column(k);
            if (!(col ? col_used : row_used)) {
                if (try_issue(d, b)) {
                    d->next[b] = CMD_UNKNOWN;   /* its state changed */
                    d->own_ready[b] = 0;
                    d->rr = b + 1 == nbk ? 0 : b + 1;
                    if (!d->cfg.dual_bus) return true;
                    any = true;
                    if (col) col_used = true;
                    else row_used = true;
                    if (col_used && row_used) return true;
                } else {
                    d->next[b] = k;
                    d->own_ready[b] = bank_own_ready(d, b, k);
                }
            }
        }
        if (left) b = first_bank_from(left, b);
    }
    return any;
}

/* After a cycle in which nothing happened: sleep until some bank may act.  Every
 * serving bank's next command is known (it was tried this cycle or earlier) and
 * chan_ready is current; waking too early would only cost a cycle that finds
 * nothing to do. */
static void plan_sleep(dram *d) {
    uint64_t wake = UINT64_MAX;
    for (uint64_t set = d->serving_set; set; set &= set - 1) {
        uint32_t b = (uint32_t)__builtin_ctzll(set);
        uint64_t t = max_u64(d->own_ready[b], d->chan_ready[d->next[b]]);
        if (t < wake) wake = t;
    }
    d->sleep_until = wake == UINT64_MAX ? 0 : wake;
}

void dram_cycle(dram *d) {
    if (d->now >= d->sleep_until) {
        /* A time-independent scheduler gives the same answer until the queue or
         * the set of free banks changes, so it is asked again only then. */
        bool ask = d->waiting && (d->reassign || d->sched->pick_uses_time);
        d->reassign = false;
        bool assigned = ask && assign_banks(d);
        bool issued = issue_one(d);
        if (!issued && !assigned && d->serving && !d->sched->pick_uses_time) plan_sleep(d);
    }
    d->ctr.bank_busy_cycles += d->serving;
    d->ctr.queue_occupancy_sum += d->q.length;
    d->ctr.cycles++;
    d->now++;
}

const mem_req *dram_peek(const dram *d) {
    return d->ret_len && d->ret[d->ret_head].done <= d->now ? &d->ret[d->ret_head].req : NULL;
}

int dram_pop(dram *d, mem_req *out) {
    if (!d->ret_len || d->ret[d->ret_head].done > d->now) return -1;
    *out = d->ret[d->ret_head].req;
    /* an emptied ring starts again at slot 0 (speed only, as the partition's queues) */
    d->ret_len--;
    d->ret_head = !d->ret_len || d->ret_head + 1 == d->ret_cap ? 0 : d->ret_head + 1;
    return 0;
}

bool dram_idle(const dram *d) { return d->q.length == 0 && d->ret_len == 0; }

void dram_skip_idle(dram *d, uint64_t n) {
    d->now += n;
    d->ctr.cycles += n;
}

uint64_t dram_now(const dram *d) { return d->now; }
const dram_counters *dram_stats(const dram *d) { return &d->ctr; }
const dram_config *dram_cfg(const dram *d) { return &d->cfg; }

dram *dram_create(const dram_config *cfg, const char *name, char *err, size_t errlen) {
    const dram_sched_ops *sched = dram_sched_find(cfg->scheduler);
    if (!sched) {
        snprintf(err, errlen, "%s: unknown DRAM scheduler '%s'", name, cfg->scheduler);
        return NULL;
    }
    return dram_create_with(cfg, sched, name, err, errlen);
}

const dram_sched_ops *dram_scheduler(const dram *d) { return d->sched; }
const void *dram_sched_state(const dram *d) { return d->sched_state; }

dram *dram_create_with(const dram_config *cfg, const dram_sched_ops *sched, const char *name, char *err,
                       size_t errlen) {
    if (!cfg->t.nbk || cfg->t.nbk > 64 || !cfg->t.nbkgrp || cfg->t.nbk % cfg->t.nbkgrp || !cfg->bus_width || !cfg->chips ||
        !cfg->burst_length || !cfg->freq_ratio || !cfg->queue_size || !cfg->return_queue_size) {
        snprintf(err, errlen, "%s: invalid DRAM configuration", name);
        return NULL;
    }
    dram *d = calloc(1, sizeof *d);
    if (!d) goto oom;
    d->cfg = *cfg;
    snprintf(d->name, sizeof d->name, "%s", name);
    d->sched = sched;
    d->burst = dram_burst_cycles(cfg);
    d->atom = dram_atom_bytes(cfg);
    d->banks_per_group = cfg->t.nbk / cfg->t.nbkgrp;
    d->q.capacity = cfg->queue_size;
    d->q.nbanks = cfg->t.nbk;
    d->q.oldest = d->q.newest = DRAM_NONE;
    d->q.slots = calloc(cfg->queue_size, sizeof *d->q.slots);
    d->q.bank_oldest = malloc(cfg->t.nbk * sizeof *d->q.bank_oldest);
    d->q.bank_newest = malloc(cfg->t.nbk * sizeof *d->q.bank_newest);
    d->banks = calloc(cfg->t.nbk, sizeof *d->banks);
    d->group_col_ok = calloc(cfg->t.nbkgrp, sizeof *d->group_col_ok);
    d->next = calloc(cfg->t.nbk, sizeof *d->next);
    d->own_ready = calloc(cfg->t.nbk, sizeof *d->own_ready);
    d->ret_cap = cfg->return_queue_size + 1;
    d->ret = calloc(d->ret_cap, sizeof *d->ret);
    d->free_slots = calloc((cfg->queue_size + 63) / 64, sizeof *d->free_slots);
    if (!d->free_slots) goto oom;
    for (uint32_t i = 0; i < cfg->queue_size; i++) slot_freed(d, (int32_t)i);
    if (!d->q.slots || !d->q.bank_oldest || !d->q.bank_newest || !d->banks || !d->group_col_ok ||
        !d->next || !d->own_ready || !d->ret)
        goto oom;
    for (uint32_t b = 0; b < cfg->t.nbk; b++) {
        d->q.bank_oldest[b] = d->q.bank_newest[b] = DRAM_NONE;
        d->banks[b].cur = DRAM_NONE;
        d->banks[b].open_row = -1;
    }
    d->sched_state = sched->create ? sched->create(cfg) : NULL;
    if (sched->create && !d->sched_state) goto oom;
    return d;
oom:
    snprintf(err, errlen, "%s: out of memory", name);
    dram_destroy(d);
    return NULL;
}

void dram_destroy(dram *d) {
    if (!d) return;
    if (d->sched && d->sched->destroy && d->sched_state) d->sched->destroy(d->sched_state);
    free(d->q.slots);
    free(d->q.bank_oldest);
    free(d->q.bank_newest);
    free(d->banks);
    free(d->group_col_ok);
    free(d->next);
    free(d->own_ready);
    free(d->ret);
    free(d->free_slots);
    free(d);
}
