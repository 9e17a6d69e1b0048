/*
 * store_memory — the in-memory store (store_memory.h): its runner, which decides when requests
 * run on the loop thread, the test controls, and reading back what is stored. The data and the
 * rules are in store_memory_data.c.
 *
 * Requests pushed by the core wait in `pending`, in order, each with the loop time it is due at.
 * One uv_timer fires at the earliest due request; it runs every request that may run (a batch,
 * through the same group commit as any backend) and answers them. A request may run when it is
 * due and nothing before it is still waiting (answers keep the order of the requests), or when
 * it was released while holding, or when it is a second visit (a login's session), which never
 * waits.
 */
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "store_memory_internal.h"

static store_memory *memory_of(store *s)
{
    return s != NULL && store_core_ops(s) == &store_memory_ops ? store_core_backend(s) : NULL;
}

/* ---- The runner ---- */

/* Whether the first waiting request that is not a second visit may run now. */
static bool front_may_run(const store_memory *m, const store_req *r, uint64_t now)
{
    if (m->hold)
        return m->released > 0;
    return r->due_ms <= now;
}

/* Takes every request that may run now out of pending, in order. */
static store_req *take_runnable(store_memory *m)
{
    const uint64_t now = uv_now(store_core_loop(m->s));
    store_req *batch = NULL, **batch_end = &batch;
    store_req *kept = NULL, **kept_end = &kept;
    bool blocked = false;
    for (store_req *r = m->pending_head, *next; r != NULL; r = next) {
        next = r->next;
        r->next = NULL;
        bool run = r->revisit;
        if (!run && !blocked) {
            run = front_may_run(m, r, now);
            if (run && m->hold)
                m->released--;
            blocked = !run;
        }
        if (run) {
            *batch_end = r;
            batch_end = &r->next;
        } else {
            *kept_end = r;
            kept_end = &r->next;
        }
    }
    m->pending_head = kept;
    m->pending_tail = NULL;
    for (store_req *r = kept; r != NULL; r = r->next)
        m->pending_tail = r;
    return batch;
}

static void on_timer(uv_timer_t *timer);

/* Sets the timer for the earliest request that may run, or stops it. The first request waiting
 * decides for the others, which come after it; a second visit never waits. */
static void schedule(store_memory *m)
{
    if (m->closing)
        return;
    const uint64_t now = uv_now(store_core_loop(m->s));
    bool any = false, first_seen = false;
    uint64_t due = now;
    for (const store_req *r = m->pending_head; r != NULL; r = r->next) {
        if (r->revisit) {
            any = true;
            due = now;
            break;
        }
        if (first_seen)
            continue;
        first_seen = true;
        if (!m->hold) {
            any = true;
            due = r->due_ms;
        } else if (m->released > 0) {
            any = true;
            due = now;
            break;
        }
    }
    if (!any) {
        uv_timer_stop(&m->timer);
        return;
    }
    uv_timer_start(&m->timer, on_timer, due > now ? due - now : 0, 0);
}

static void run_and_answer(store_memory *m, store_req *batch)
{
    if (batch == NULL)
        return;
    store_core_run_batch(m->s, batch);
    store_core_answer(m->s, batch);
}

static void on_timer(uv_timer_t *timer)
{
    store_memory *m = timer->data;
    run_and_answer(m, take_runnable(m));
    schedule(m); /* a no-op if a callback closed the store */
}

size_t store_memory_pump(store *s)
{
    if (!store_is_memory(s))
        return 0;
    store_memory *m = store_core_backend(s);
    size_t answered = 0;
    for (int rounds = 0; rounds < 1000 && !m->closing; rounds++) {
        store_core_flush(s); /* what the callbacks asked for joins the pending requests */
        store_req *batch = take_runnable(m);
        if (batch == NULL)
            break;
        for (const store_req *r = batch; r != NULL; r = r->next)
            answered++;
        run_and_answer(m, batch);
    }
    schedule(m);
    return answered;
}

static void memory_push(store *s, store_req *list)
{
    store_memory *m = store_core_backend(s);
    const uint64_t due = uv_now(store_core_loop(s)) + (uint64_t)m->delay_ms;
    store_req *tail = list;
    for (store_req *r = list; r != NULL; r = r->next) {
        r->due_ms = due;
        tail = r;
    }
    if (m->pending_tail != NULL)
        m->pending_tail->next = list;
    else
        m->pending_head = list;
    m->pending_tail = tail;
    schedule(m);
}

/* store_recover: reads what is stored now, without running what waits. */
static void memory_run_now(store *s, store_req *r)
{
    store_core_run_batch(s, r);
}

static void memory_busy(store *s, bool busy)
{
    (void)s;
    (void)busy; /* the timer keeps the loop running while something is due; a held request does not */
}

static void on_timer_closed(uv_handle_t *handle)
{
    store_memory *m = handle->data;
    store_core_unref(m->s);
}

static void memory_close(store *s)
{
    store_memory *m = store_core_backend(s);
    store_req *all = m->pending_head;
    m->pending_head = m->pending_tail = NULL;
    m->closing = true;
    run_and_answer(m, all); /* everything already requested is written and answered */
    uv_close((uv_handle_t *)&m->timer, on_timer_closed);
}

static void *memory_start(store *s, store_error *error)
{
    store_memory *m = store_core_backend(s);
    m->s = s;
    if (uv_timer_init(store_core_loop(s), &m->timer) != 0) {
        store_error_set(error, STORE_INTERNAL, "Cannot set up the in-memory store's timer.");
        return NULL;
    }
    m->timer.data = m;
    return m;
}

static const store_runner memory_runner = {
    .start = memory_start,
    .push = memory_push,
    .run_now = memory_run_now,
    .busy = memory_busy,
    .close = memory_close,
    .blocking = false,
};

store *store_memory_open(uv_loop_t *loop, const store_options *options)
{
    const store_options o = options ? *options : store_options_default();
    if (o.session_seconds <= 0 || sodium_init() < 0)
        return NULL;
    store_memory *m = calloc(1, sizeof *m);
    if (m == NULL)
        return NULL;
    m->options = o;
    m->fail_kind = STORE_KIND_ANY;
    randombytes_buf(m->ledger_key, sizeof m->ledger_key);
    store_error error;
    store *s = store_core_new(loop, &o, &store_memory_ops, m, &memory_runner, &error);
    if (s != NULL)
        store_core_cheap_passwords(s, true);
    return s;
}

bool store_is_memory(const store *s)
{
    return s != NULL && store_core_ops(s) == &store_memory_ops;
}

/* ---- Test controls ---- */

void store_memory_set_delay(store *s, int delay_ms)
{
    store_memory *m = memory_of(s);
    if (m != NULL)
        m->delay_ms = delay_ms > 0 ? delay_ms : 0;
}

void store_memory_hold(store *s, bool hold)
{
    store_memory *m = memory_of(s);
    if (m == NULL)
        return;
    m->hold = hold;
    if (!hold)
        m->released = 0;
    schedule(m);
}

/* Requests waiting for a release: the pending first visits not released yet. */
static size_t waiting(store_memory *m)
{
    size_t n = 0;
    for (const store_req *r = m->pending_head; r != NULL; r = r->next)
        n += !r->revisit;
    return n > m->released ? n - m->released : 0;
}

size_t store_memory_held(store *s)
{
    store_memory *m = memory_of(s);
    if (m == NULL || !m->hold)
        return 0;
    store_core_flush(s); /* the requests of this turn of the loop are waiting too */
    return waiting(m);
}

size_t store_memory_release(store *s, size_t n)
{
    store_memory *m = memory_of(s);
    if (m == NULL || !m->hold)
        return 0;
    store_core_flush(s);
    const size_t let_go = n < waiting(m) ? n : waiting(m);
    m->released += let_go;
    schedule(m);
    return let_go;
}

void store_memory_real_passwords(store *s, bool real)
{
    if (memory_of(s) != NULL)
        store_core_cheap_passwords(s, !real);
}

void store_memory_fail(store *s, store_kind kind, int count, store_status status)
{
    store_memory *m = memory_of(s);
    if (m == NULL)
        return;
    m->fail_kind = (unsigned)kind <= STORE_KIND_ANY ? kind : STORE_KIND_ANY;
    m->fail_count = count > 0 && status != STORE_OK ? count : 0;
    m->fail_status = status;
}

bool store_memory_injected(store_memory *m, store_kind kind, store_error *error)
{
    if (m->fail_count == 0 || (m->fail_kind != STORE_KIND_ANY && m->fail_kind != kind))
        return false;
    m->fail_count--;
    store_error_set(error, m->fail_status, "The in-memory store was told to fail this %s request (%s).",
                    store_kind_name(kind), store_status_name(m->fail_status));
    return true;
}

long store_memory_count(const store *s, store_kind kind)
{
    if (!store_is_memory(s))
        return 0;
    if (kind != STORE_KIND_ANY)
        return store_core_made(s, kind);
    long all = 0;
    for (int k = 0; k < STORE_KIND_COUNT; k++)
        all += store_core_made(s, (store_kind)k);
    return all;
}

/* ---- Reading back ---- */

const store_memory_player *store_memory_player_at(store *s, int64_t player_id)
{
    store_memory *m = memory_of(s);
    const mem_player *p = m ? store_memory_find_player(m, player_id) : NULL;
    return p ? &p->pub : NULL;
}

const store_table *store_memory_table_at(store *s, int64_t table_id)
{
    store_memory *m = memory_of(s);
    if (m == NULL || table_id < 1 || (uint64_t)table_id > m->n_tables)
        return NULL;
    return &m->tables[table_id - 1];
}

const store_memory_hand *store_memory_hand_at(store *s, int64_t hand_id)
{
    store_memory *m = memory_of(s);
    if (m == NULL || hand_id < 1 || (uint64_t)hand_id > m->n_hands)
        return NULL;
    return &m->hands[hand_id - 1].pub;
}

size_t store_memory_n_players(store *s)
{
    store_memory *m = memory_of(s);
    return m ? m->n_players : 0;
}

size_t store_memory_n_tables(store *s)
{
    store_memory *m = memory_of(s);
    return m ? m->n_tables : 0;
}

size_t store_memory_n_hands(store *s)
{
    store_memory *m = memory_of(s);
    return m ? m->n_hands : 0;
}

size_t store_memory_n_sessions(store *s)
{
    store_memory *m = memory_of(s);
    return m ? m->n_sessions : 0;
}

int64_t store_memory_hand_id(store *s, int64_t table_id, int64_t number)
{
    store_memory *m = memory_of(s);
    for (size_t i = 0; m != NULL && i < m->n_hands; i++)
        if (m->hands[i].pub.table_id == table_id && m->hands[i].pub.number == number)
            return m->hands[i].pub.id;
    return 0;
}

const store_memory_row *store_memory_ledger(store *s, size_t *n)
{
    store_memory *m = memory_of(s);
    *n = m ? m->n_rows : 0;
    return m ? m->ledger : NULL;
}

bool store_memory_ledger_key(store *s, unsigned char key[STORE_LEDGER_KEY_BYTES])
{
    store_memory *m = memory_of(s);
    if (m != NULL)
        memcpy(key, m->ledger_key, STORE_LEDGER_KEY_BYTES);
    return m != NULL;
}

store_status store_memory_set_admin(store *s, const char *name, bool is_admin)
{
    store_memory *m = memory_of(s);
    mem_player *p = m && name ? store_memory_account(m, name) : NULL;
    if (p == NULL)
        return STORE_NOT_FOUND;
    p->pub.is_admin = is_admin;
    return STORE_OK;
}
