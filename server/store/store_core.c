/*
 * store_core — the part of the store every backend shares (store_backend.h): a request's life
 * from the request function to its callback, the group commit, and the work on libuv's pool.
 *
 * A request made on the loop thread is held until the loop is about to wait for I/O (a
 * uv_prepare handle), so that the requests made by all the callbacks of one loop iteration reach
 * the runner together and share a transaction; past FLUSH_AT they go at once, so that a
 * blocking runner writes them while the loop makes the next ones. The runner runs them through
 * store_core_run_batch and hands them back to store_core_answer, which calls their callbacks in
 * order, or sends a request on to its next stage: account creation hashes its password on the
 * pool before its insert; a login fetches the account's hash, verifies it on the pool, and then
 * opens its session. Password hashing (argon2id, ~0.1 s and 64 MiB on purpose) thus never holds
 * up a hand's writes.
 *
 * Group commit: store_core_run_batch runs a batch in one transaction (one WAL append and, with
 * FULL durability, one fsync for SQLite). Each request is atomic without a savepoint (which
 * would copy every page it touches): the backend checks what it can before writing, and says
 * what a failed request left (store_undo); in the rare case that it wrote part of itself, the
 * transaction is rolled back and the batch runs again without it (run_pass).
 *
 * Player ids are given here, on the loop thread, from one past the highest stored when the store
 * opened: a guest reserved in memory (store_guest_reserve) and stored later keeps the id it was
 * shown with, and no other request can take it meanwhile.
 *
 * Invariants: only the loop thread touches the held list, `closing`, `in_pool`, `refs`,
 * `unanswered`, `made` and `next_player_id`; a request belongs to one thread at a time (the loop,
 * the runner's, or the pool's).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_backend.h"
#include "store_password.h"

#define FLUSH_AT 1024 /* held requests that go to the runner without waiting for the loop */

struct store {
    uv_loop_t *loop;
    store_options options;
    const store_backend_ops *ops;
    void *backend;
    const store_runner *runner;
    void *runner_data;
    bool cheap_passwords;

    store_req *held_head, *held_tail; /* made in this loop iteration, not yet pushed */
    int held_count;
    uv_prepare_t flush;               /* pushes the held requests before the loop waits */
    bool closing;
    int refs;                         /* the flush handle and the runner, until they are gone */
    int in_pool;
    long unanswered;                  /* requests made and not yet answered */
    long made[STORE_KIND_COUNT];
    int64_t first_player_id;          /* one past the highest player id stored at opening */
    int64_t next_player_id;           /* the next one to give (store_core_player_id) */
    int64_t id_stride;                /* the step between two ids given (store_player_ids) */
};

/* ---- Accessors ---- */

void *store_core_backend(const store *s) { return s->backend; }
const store_backend_ops *store_core_ops(const store *s) { return s->ops; }
void *store_core_runner(const store *s) { return s->runner_data; }
uv_loop_t *store_core_loop(const store *s) { return s->loop; }
const store_options *store_core_options(const store *s) { return &s->options; }
bool store_core_closing(const store *s) { return s->closing; }
void store_core_cheap_passwords(store *s, bool cheap) { s->cheap_passwords = cheap; }

long store_core_made(const store *s, store_kind kind)
{
    return (unsigned)kind < STORE_KIND_COUNT ? s->made[kind] : 0;
}

int64_t store_core_player_id(store *s)
{
    int64_t id = s->next_player_id;
    s->next_player_id += s->id_stride;
    return id;
}

bool store_core_player_id_given(const store *s, int64_t id)
{
    return id >= s->first_player_id && id < s->next_player_id && (id - s->first_player_id) % s->id_stride == 0;
}

void store_player_ids(store *s, int stride, int slot)
{
    if (stride < 1 || slot < 0 || slot >= stride)
        return;
    /* the first id past every one given so far that is slot modulo stride */
    int64_t from = s->next_player_id;
    int64_t id = from - from % stride + slot;
    if (id < from)
        id += stride;
    s->id_stride = stride;
    s->first_player_id = s->next_player_id = id;
}

/* ---- A request's life ---- */

static void free_when_idle(store *s)
{
    if (s->refs > 0 || s->in_pool > 0)
        return;
    s->ops->free(s->backend);
    free(s);
}

/* Like a libuv request, an unanswered request keeps the loop running; an idle store does not. */
static void count_request(store *s, int delta)
{
    s->unanswered += delta;
    /* Once the store closes, its runner's handle is closed and may be freed before the last
     * password work comes back from the pool: nothing is referenced any more. */
    if (s->closing)
        return;
    if (s->unanswered == 1 && delta > 0)
        s->runner->busy(s, true);
    else if (s->unanswered == 0)
        s->runner->busy(s, false);
}

store_req *store_req_new(store *s, store_kind kind, void *ctx)
{
    if (s == NULL || s->closing || (unsigned)kind >= STORE_KIND_COUNT)
        return NULL;
    store_req *r = calloc(1, sizeof *r);
    if (r == NULL)
        return NULL;
    r->s = s;
    r->kind = kind;
    r->ctx = ctx;
    s->made[kind]++;
    count_request(s, +1);
    return r;
}

store_status store_req_fail(store_req *r, store_status status, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(r->error.message, sizeof r->error.message, format, args);
    va_end(args);
    r->error.status = status;
    return status;
}

/* Frees what a history request read (a pass of a batch that is run again reads it anew). */
static void forget_reads(store_req *r)
{
    store_summaries_free(r->out.summaries, r->out.n_summaries);
    r->out.summaries = NULL;
    r->out.n_summaries = 0;
    store_played_free(r->out.played, r->out.n_played);
    r->out.played = NULL;
    r->out.n_played = 0;
    store_hand_free(r->out.hand);
    r->out.hand = NULL;
    store_summary_clear(&r->out.summary);
    store_recovery_free(r->out.recovery);
    r->out.recovery = NULL;
    free(r->out.rows);
    r->out.rows = NULL;
    r->out.n_rows = 0;
    free(r->out.audit);
    r->out.audit = NULL;
    r->out.n_audit = 0;
    store_profile_free(r->out.profile);
    r->out.profile = NULL;
}

/* The request's copies of its input: secrets wiped, JSON texts and ledger rows freed. */
static void free_input(store_req *r)
{
    switch (r->kind) {
    case STORE_KIND_ACCOUNT_CREATE:
        store_secret_free(r->in.account.password);
        break;
    case STORE_KIND_LOGIN:
        store_secret_free(r->in.login.password);
        break;
    case STORE_KIND_TABLE_SAVE:
        free(r->in.table.options);
        free(r->in.table.game_state);
        break;
    case STORE_KIND_HAND_BEGIN:
        free(r->in.hand_begin.deal);
        free(r->in.hand_begin.game_state);
        free(r->in.hand_begin.options);
        break;
    case STORE_KIND_ACTION_APPEND:
        free(r->in.action.action);
        break;
    case STORE_KIND_HAND_FINISH:
        free(r->in.hand_end.last_action);
        free(r->in.hand_end.result);
        free(r->in.hand_end.entries);
        free(r->in.hand_end.next_game_state);
        break;
    case STORE_KIND_ADJUST:
        free(r->in.adjust.result);
        break;
    default:
        break;
    }
}

static void req_free(store_req *r)
{
    free_input(r);
    forget_reads(r);
    /* Password hashes (of accounts, and fetched for a login) go too. */
    if (r->kind == STORE_KIND_ACCOUNT_CREATE)
        store_secret_wipe(r->in.account.password_hash, sizeof r->in.account.password_hash);
    else if (r->kind == STORE_KIND_LOGIN)
        store_secret_wipe(r->in.login.password_hash, sizeof r->in.login.password_hash);
    free(r);
}

static void deliver(store_req *r)
{
    const bool ok = r->error.status == STORE_OK;
    switch (r->kind) {
    case STORE_KIND_PLAYER_SAVE:
    case STORE_KIND_ACCOUNT_CREATE:
    case STORE_KIND_TABLE_SAVE:
    case STORE_KIND_HAND_BEGIN:
        r->cb.id(r->ctx, &r->error, ok ? r->out.id : 0);
        break;
    case STORE_KIND_GUEST_CREATE:
    case STORE_KIND_LOGIN:
    case STORE_KIND_SESSION_LOOKUP:
        r->cb.session(r->ctx, &r->error, ok ? &r->out.session : NULL);
        break;
    case STORE_KIND_TABLE_HANDS:
        r->cb.hands(r->ctx, &r->error, ok ? r->out.summaries : NULL, ok ? r->out.n_summaries : 0);
        break;
    case STORE_KIND_HAND_GET:
        r->cb.hand(r->ctx, &r->error, ok ? r->out.hand : NULL, ok ? &r->out.summary : NULL);
        break;
    case STORE_KIND_PLAYER_TABLES:
        r->cb.played(r->ctx, &r->error, ok ? r->out.played : NULL, ok ? r->out.n_played : 0);
        break;
    case STORE_KIND_LOGOUT:
    case STORE_KIND_ACTION_APPEND:
    case STORE_KIND_HAND_FINISH:
        r->cb.done(r->ctx, &r->error);
        break;
    case STORE_KIND_LEDGER_VERIFY:
        r->cb.verify(r->ctx, &r->error, ok ? &r->out.check : NULL);
        break;
    case STORE_KIND_GUESTS_EXPIRE:
        r->cb.count(r->ctx, &r->error, ok ? r->out.id : 0);
        break;
    case STORE_KIND_LEDGER_QUERY:
        r->cb.ledger(r->ctx, &r->error, ok ? r->out.rows : NULL, ok ? r->out.n_rows : 0,
                     ok && r->in.ledger.with_totals ? &r->out.totals : NULL);
        break;
    case STORE_KIND_ADMIN_SESSION_OPEN:
    case STORE_KIND_ADMIN_SESSION_LOOKUP:
        r->cb.admin(r->ctx, &r->error, ok ? &r->out.admin : NULL);
        break;
    case STORE_KIND_ADMIN_SESSION_CLOSE:
        r->cb.done(r->ctx, &r->error);
        break;
    case STORE_KIND_AUDIT_APPEND:
    case STORE_KIND_ADJUST:
        r->cb.id(r->ctx, &r->error, ok ? r->out.id : 0);
        break;
    case STORE_KIND_AUDIT_LIST:
        r->cb.audit(r->ctx, &r->error, ok ? r->out.audit : NULL, ok ? r->out.n_audit : 0);
        break;
    case STORE_KIND_PROFILE:
        r->cb.profile(r->ctx, &r->error, ok ? r->out.profile : NULL);
        break;
    case STORE_KIND_RECOVER:
        if (r->cb.recovery != NULL) {
            store_recovery *recovery = ok ? r->out.recovery : NULL;
            r->out.recovery = NULL; /* the callback's now */
            r->cb.recovery(r->ctx, &r->error, recovery);
        }
        break;
    case STORE_KIND_COUNT:
        break;
    }
    count_request(r->s, -1);
    req_free(r);
}

static void deliver_closed(store_req *r)
{
    store_req_fail(r, STORE_CLOSED, "The store closed before the request was done.");
    deliver(r);
}

/* ---- Holding requests until the loop waits ---- */

void store_core_flush(store *s)
{
    if (s->held_head == NULL)
        return;
    store_req *list = s->held_head;
    s->held_head = s->held_tail = NULL;
    s->held_count = 0;
    s->runner->push(s, list);
}

static void on_flush(uv_prepare_t *prepare)
{
    uv_prepare_stop(prepare); /* an idle store keeps no handle active */
    store_core_flush(prepare->data);
}

static void enqueue(store *s, store_req *r)
{
    if (s->held_tail)
        s->held_tail->next = r;
    else
        s->held_head = r;
    s->held_tail = r;
    if (++s->held_count >= FLUSH_AT)
        store_core_flush(s);
    else if (!uv_is_active((uv_handle_t *)&s->flush))
        uv_prepare_start(&s->flush, on_flush);
}

/* A request refused as it was made (error already set) is queued too: the runner skips it, and
 * it is answered in turn, so answers keep the order of the requests. */
void store_req_submit(store_req *r)
{
    enqueue(r->s, r);
}

static void to_store(store_req *r)
{
    if (r->s->closing) {
        deliver_closed(r);
        return;
    }
    enqueue(r->s, r);
}

/* ---- Work on the thread pool: passwords and ledger checks ---- */

static void advance(store_req *r);

static void check_password(store_req *r, bool cheap)
{
    store_in_login *in = &r->in.login;
    if (in->found) {
        in->verified = store_password_verify(in->password_hash, in->password, cheap);
    } else {
        store_password_spend(in->password, cheap); /* the answer takes as long either way */
        in->verified = false;
    }
    if (in->verified)
        store_token_new(r->out.session.token, in->token_hash);
}

static void pool_work_run(store_req *r)
{
    store *s = r->s;
    switch (r->kind) {
    case STORE_KIND_ACCOUNT_CREATE:
        if (!store_password_hash(r->in.account.password, s->cheap_passwords, r->in.account.password_hash))
            store_req_fail(r, STORE_INTERNAL, "Out of memory while hashing the password.");
        store_secret_free(r->in.account.password);
        r->in.account.password = NULL;
        break;
    case STORE_KIND_LOGIN:
        check_password(r, s->cheap_passwords);
        store_secret_free(r->in.login.password);
        r->in.login.password = NULL;
        break;
    case STORE_KIND_LEDGER_VERIFY:
        s->ops->verify_ledger(s->backend, &r->out.check, &r->error);
        break;
    default:
        store_req_fail(r, STORE_INTERNAL, "The thread pool was given a request it does not run.");
        break;
    }
}

static void pool_work(uv_work_t *work)
{
    pool_work_run(work->data);
}

static void pool_done(uv_work_t *work, int status)
{
    store_req *r = work->data;
    store *s = r->s;
    s->in_pool--;
    if (status != 0)
        deliver_closed(r);
    else
        advance(r);
    free_when_idle(s);
}

/* Password work goes to the pool, except the cheap test stand-in of a store that does not block,
 * which runs at once: then a failure is answered in turn, never from inside a request function. */
static void to_pool(store_req *r)
{
    store *s = r->s;
    if (s->closing) {
        deliver_closed(r);
        return;
    }
    const bool inline_work = !s->runner->blocking && (r->kind == STORE_KIND_LEDGER_VERIFY || s->cheap_passwords);
    if (inline_work) {
        pool_work_run(r);
        if (r->error.status == STORE_OK)
            advance(r);
        else
            enqueue(s, r);
        return;
    }
    r->work.data = r;
    if (uv_queue_work(s->loop, &r->work, pool_work, pool_done) != 0) {
        store_req_fail(r, STORE_INTERNAL, "The thread pool refused the work.");
        enqueue(s, r);
        return;
    }
    s->in_pool++;
}

void store_req_hash(store_req *r)
{
    to_pool(r);
}

/* A blocking backend checks its ledger on the pool, over a connection of its own, so that writes
 * go on; one that does not block checks it in turn with the other requests. */
void store_req_verify(store_req *r)
{
    if (r->s->runner->blocking)
        to_pool(r);
    else
        enqueue(r->s, r);
}

/* ---- Answering ---- */

/* A request came back from the runner or the pool: send it on, or answer it. */
static void advance(store_req *r)
{
    if (r->error.status != STORE_OK) {
        deliver(r);
        return;
    }
    switch (r->kind) {
    case STORE_KIND_ACCOUNT_CREATE:
        if (r->stage++ == 0)
            to_store(r);
        else
            deliver(r);
        return;
    case STORE_KIND_LOGIN:
        if (r->stage == 0) {
            r->stage = 1;
            to_pool(r);
        } else if (r->stage == 1) {
            if (!r->in.login.verified) {
                store_req_fail(r, STORE_BAD_LOGIN, "Wrong account name or password.");
                deliver(r);
                return;
            }
            r->stage = 2;
            r->revisit = true;
            to_store(r);
        } else {
            deliver(r);
        }
        return;
    default:
        deliver(r);
        return;
    }
}

void store_core_answer(store *s, store_req *list)
{
    (void)s;
    while (list != NULL) {
        store_req *r = list;
        list = r->next;
        r->next = NULL;
        advance(r);
    }
}

/* ---- The batch: one transaction for everything the runner took ---- */

/* A session lookup writes too: it marks its player seen (store_guests_expire). */
static bool request_writes(const store_req *r)
{
    switch (r->kind) {
    case STORE_KIND_TABLE_HANDS:
    case STORE_KIND_HAND_GET:
    case STORE_KIND_PLAYER_TABLES:
    case STORE_KIND_RECOVER:
    case STORE_KIND_LEDGER_VERIFY:
    case STORE_KIND_LEDGER_QUERY:
    case STORE_KIND_ADMIN_SESSION_LOOKUP:
    case STORE_KIND_AUDIT_LIST:
    case STORE_KIND_PROFILE:
        return false;
    case STORE_KIND_LOGIN:
        return r->stage == 2;
    default:
        return true;
    }
}

static store_status run_request(store *s, store_req *r)
{
    const store_backend_ops *ops = s->ops;
    void *b = s->backend;
    store_error *e = &r->error;
    switch (r->kind) {
    case STORE_KIND_PLAYER_SAVE:
        return ops->player_save(b, &r->in.player, &r->out.id, e);
    case STORE_KIND_GUEST_CREATE:
        return ops->guest_create(b, &r->in.guest, &r->out.session, e);
    case STORE_KIND_ACCOUNT_CREATE:
        return ops->account_create(b, &r->in.account, &r->out.id, e);
    case STORE_KIND_LOGIN:
        if (r->stage == 0)
            return ops->login_fetch(b, &r->in.login, &r->out.session, e);
        return ops->session_open(b, &r->in.login, &r->out.session, e);
    case STORE_KIND_SESSION_LOOKUP:
        return ops->session_lookup(b, &r->in.session, &r->out.session, e);
    case STORE_KIND_LOGOUT:
        return ops->logout(b, &r->in.session, e);
    case STORE_KIND_TABLE_SAVE:
        return ops->table_save(b, &r->in.table, &r->out.id, e);
    case STORE_KIND_HAND_BEGIN:
        return ops->hand_begin(b, &r->in.hand_begin, &r->out.id, e);
    case STORE_KIND_ACTION_APPEND:
        return ops->action_append(b, &r->in.action, e);
    case STORE_KIND_HAND_FINISH:
        return ops->hand_finish(b, &r->in.hand_end, e);
    /* The reads run inside the batch's transaction, after the requests made before them: an
     * answer reflects every write requested earlier. A pass that is run again reads afresh. */
    case STORE_KIND_TABLE_HANDS:
        forget_reads(r);
        return ops->table_hands(b, &r->in.hands, &r->out.summaries, &r->out.n_summaries, e);
    case STORE_KIND_HAND_GET:
        forget_reads(r);
        return ops->hand_get(b, &r->in.hand_get, &r->out.hand, &r->out.summary, e);
    case STORE_KIND_PLAYER_TABLES:
        forget_reads(r);
        return ops->player_tables(b, &r->in.player_tables, &r->out.played, &r->out.n_played, e);
    case STORE_KIND_RECOVER:
        forget_reads(r);
        return ops->recover(b, &r->out.recovery, e);
    case STORE_KIND_LEDGER_VERIFY:
        return ops->verify_ledger(b, &r->out.check, e);
    case STORE_KIND_GUESTS_EXPIRE:
        return ops->guests_expire(b, &r->in.expire, &r->out.id, e);
    case STORE_KIND_LEDGER_QUERY:
        forget_reads(r);
        r->out.totals = (store_ledger_totals){0};
        return ops->ledger_query(b, &r->in.ledger, &r->out.rows, &r->out.n_rows, &r->out.totals, e);
    case STORE_KIND_ADMIN_SESSION_OPEN:
        return ops->admin_session_open(b, &r->in.admin_open, &r->out.admin, e);
    case STORE_KIND_ADMIN_SESSION_LOOKUP:
        return ops->admin_session_lookup(b, &r->in.session, &r->out.admin, e);
    case STORE_KIND_ADMIN_SESSION_CLOSE:
        return ops->admin_session_close(b, &r->in.session, e);
    case STORE_KIND_AUDIT_APPEND:
        return ops->audit_append(b, &r->in.audit, &r->out.id, e);
    case STORE_KIND_AUDIT_LIST:
        forget_reads(r);
        return ops->audit_list(b, &r->in.audit_list, &r->out.audit, &r->out.n_audit, e);
    case STORE_KIND_ADJUST:
        return ops->adjust(b, &r->in.adjust, &r->out.id, e);
    case STORE_KIND_PROFILE:
        forget_reads(r);
        if (ops->profile == NULL)
            return store_req_fail(r, STORE_INTERNAL, "The %s store keeps no profiles.", ops->name);
        return ops->profile(b, &r->in.profile, &r->out.profile, e);
    case STORE_KIND_COUNT:
        break;
    }
    return store_req_fail(r, STORE_INTERNAL, "The store was given a request it does not run.");
}

/* The requests from first up to (not including) end that had succeeded lose their writes. */
static void fail_succeeded(store_req *first, const store_req *end, const store_error *error)
{
    for (store_req *r = first; r != end; r = r->next)
        if (r->error.status == STORE_OK)
            r->error = *error;
}

static bool any_writes(const store_req *r)
{
    for (; r != NULL; r = r->next)
        if (r->error.status == STORE_OK && request_writes(r))
            return true;
    return false;
}

/* One pass over the batch in one transaction; false when a request wrote part of itself before
 * failing: everything is rolled back and the batch must run again without it. */
static bool run_pass(store *s, store_req *batch)
{
    const store_backend_ops *ops = s->ops;
    store_req *txn_first = NULL; /* the first request of the open transaction, or NULL */
    for (store_req *r = batch; r != NULL; r = r->next) {
        if (r->error.status != STORE_OK) /* refused when it was made, or in an earlier pass */
            continue;
        if (txn_first == NULL) {
            store_error error;
            if (!ops->begin(s->backend, any_writes(r), &error)) {
                fail_succeeded(r, NULL, &error);
                return true;
            }
            txn_first = r;
        }
        ops->mark(s->backend);
        if (run_request(s, r) == STORE_OK)
            continue;
        switch (ops->undo(s->backend)) {
        case STORE_UNDO_NONE:
            break;
        case STORE_UNDO_LOST:
            /* The earlier requests of the transaction are not written either; the next request
             * opens a new one. */
            fail_succeeded(txn_first, r, &r->error);
            txn_first = NULL;
            break;
        case STORE_UNDO_BATCH:
            ops->rollback(s->backend);
            return false;
        }
    }
    if (txn_first != NULL) {
        store_error error;
        if (!ops->commit(s->backend, &error)) {
            ops->rollback(s->backend);
            fail_succeeded(txn_first, NULL, &error);
        }
    }
    return true;
}

void store_core_run_batch(store *s, store_req *batch)
{
    while (!run_pass(s, batch))
        ;
}

/* ---- Synchronous requests (store_recover) ---- */

void store_req_sync(store_req *r)
{
    r->sync = true;
    store_core_flush(r->s); /* we wait here: the loop will not reach its prepare phase */
    r->s->runner->run_now(r->s, r);
}

void store_req_done(store_req *r)
{
    count_request(r->s, -1);
    req_free(r);
}

/* ---- Opening and closing ---- */

static void on_flush_closed(uv_handle_t *handle)
{
    store *s = handle->data;
    s->refs--;
    free_when_idle(s);
}

store *store_core_new(uv_loop_t *loop, const store_options *options, const store_backend_ops *ops, void *backend,
                      const store_runner *runner, store_error *error)
{
    store *s = calloc(1, sizeof *s);
    if (s == NULL) {
        ops->close(backend);
        ops->free(backend);
        store_error_set(error, STORE_INTERNAL, "Out of memory opening the store.");
        return NULL;
    }
    s->loop = loop;
    s->options = *options;
    s->ops = ops;
    s->backend = backend;
    s->runner = runner;
    uv_prepare_init(loop, &s->flush); /* cannot fail */
    s->flush.data = s;
    s->refs = 1;
    int64_t max_id = 0;
    if (ops->max_player_id(backend, &max_id, error) == STORE_OK) {
        s->first_player_id = s->next_player_id = max_id + 1;
        s->id_stride = 1;
        s->runner_data = runner->start(s, error);
    }
    if (s->runner_data == NULL) {
        /* Freed once the loop has closed the handle, as any libuv handle. */
        s->closing = true;
        ops->close(backend);
        uv_close((uv_handle_t *)&s->flush, on_flush_closed);
        return NULL;
    }
    s->refs++;
    return s;
}

void store_core_unref(store *s)
{
    s->refs--;
    free_when_idle(s);
}

void store_close(store *s)
{
    if (s == NULL || s->closing)
        return;
    s->closing = true;
    store_core_flush(s);
    s->runner->close(s); /* everything already requested is written and answered here */
    s->ops->close(s->backend);
    uv_close((uv_handle_t *)&s->flush, on_flush_closed);
}

long store_unanswered(const store *s)
{
    return s->unanswered;
}
