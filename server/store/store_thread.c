/*
 * store_thread — the runner of a backend that blocks (SQLite; one day PostgreSQL): a thread of
 * its own, so that the loop never waits on disk (store_backend.h).
 *
 * The loop pushes the requests of each turn onto a queue and wakes the thread once for all of
 * them. The thread takes everything queued (at most BATCH_MAX), runs it as one batch
 * (store_core_run_batch: one transaction), moves the batch to a done list and wakes the loop
 * through one uv_async, whose callback answers the requests in order. A synchronous request
 * (store_recover) is queued like the others and its caller waits on a condition variable.
 *
 * Invariants: the queue, the done list, `stopping` and each request's sync_finished are guarded
 * by `lock`; only the store thread calls the backend while the thread runs.
 */
#include <stdlib.h>

#include "store_backend.h"

#define BATCH_MAX 4096 /* requests in one transaction at most, to bound a batch's latency */

typedef struct store_thread {
    store *s;
    uv_thread_t thread;
    uv_mutex_t lock;
    uv_cond_t wake;          /* the store thread waits here for requests */
    uv_cond_t sync_done;     /* store_recover waits here */
    store_req *queue_head, *queue_tail;
    store_req *done_head, *done_tail;
    bool stopping;
    uv_async_t async;        /* the loop's wake-up; referenced while requests are unanswered */
} store_thread;

static store_req *take_batch(store_thread *t)
{
    store_req *head = t->queue_head;
    if (head == NULL)
        return NULL;
    store_req *tail = head;
    for (int n = 1; tail->next != NULL && n < BATCH_MAX; n++)
        tail = tail->next;
    t->queue_head = tail->next;
    if (t->queue_head == NULL)
        t->queue_tail = NULL;
    tail->next = NULL;
    return head;
}

/* Hands the answered batch to the loop: synchronous requests to their waiter, the rest to the
 * done list and the uv_async. */
static void hand_back(store_thread *t, store_req *batch)
{
    bool any_async = false;
    uv_mutex_lock(&t->lock);
    for (store_req *r = batch, *next; r != NULL; r = next) {
        next = r->next;
        r->next = NULL;
        if (r->sync) {
            r->sync_finished = true; /* the waiter owns r from here */
            continue;
        }
        if (t->done_tail)
            t->done_tail->next = r;
        else
            t->done_head = r;
        t->done_tail = r;
        any_async = true;
    }
    uv_cond_broadcast(&t->sync_done);
    uv_mutex_unlock(&t->lock);
    if (any_async)
        uv_async_send(&t->async);
}

static void thread_main(void *arg)
{
    store_thread *t = arg;
    for (;;) {
        uv_mutex_lock(&t->lock);
        while (t->queue_head == NULL && !t->stopping)
            uv_cond_wait(&t->wake, &t->lock);
        store_req *batch = take_batch(t);
        uv_mutex_unlock(&t->lock);
        if (batch == NULL) /* stopping, and everything queued is written */
            break;
        store_core_run_batch(t->s, batch);
        hand_back(t, batch);
    }
}

/* ---- The loop side ---- */

static void answer_done(store_thread *t)
{
    uv_mutex_lock(&t->lock);
    store_req *list = t->done_head;
    t->done_head = t->done_tail = NULL;
    uv_mutex_unlock(&t->lock);
    store_core_answer(t->s, list);
}

static void on_async(uv_async_t *async)
{
    answer_done(async->data);
}

static void thread_push(store *s, store_req *list)
{
    store_thread *t = store_core_runner(s);
    store_req *tail = list;
    while (tail->next != NULL)
        tail = tail->next;
    uv_mutex_lock(&t->lock);
    if (t->queue_tail)
        t->queue_tail->next = list;
    else
        t->queue_head = list;
    t->queue_tail = tail;
    uv_cond_signal(&t->wake);
    uv_mutex_unlock(&t->lock);
}

static void thread_run_now(store *s, store_req *r)
{
    store_thread *t = store_core_runner(s);
    thread_push(s, r);
    uv_mutex_lock(&t->lock);
    while (!r->sync_finished)
        uv_cond_wait(&t->sync_done, &t->lock);
    uv_mutex_unlock(&t->lock);
}

static void thread_busy(store *s, bool busy)
{
    store_thread *t = store_core_runner(s);
    if (busy)
        uv_ref((uv_handle_t *)&t->async);
    else
        uv_unref((uv_handle_t *)&t->async);
}

static void destroy(store_thread *t)
{
    uv_cond_destroy(&t->wake);
    uv_cond_destroy(&t->sync_done);
    uv_mutex_destroy(&t->lock);
    free(t);
}

static void on_async_closed(uv_handle_t *handle)
{
    store_thread *t = handle->data;
    store *s = t->s;
    destroy(t);
    store_core_unref(s);
}

/* The thread did not start: the runner goes without the store having counted it. */
static void on_failed_async_closed(uv_handle_t *handle)
{
    destroy(handle->data);
}

static void *thread_start(store *s, store_error *error)
{
    store_thread *t = calloc(1, sizeof *t);
    if (t == NULL || uv_mutex_init(&t->lock) != 0) {
        free(t);
        store_error_set(error, STORE_INTERNAL, "Out of memory opening the store.");
        return NULL;
    }
    t->s = s;
    uv_cond_init(&t->wake);
    uv_cond_init(&t->sync_done);
    t->async.data = t;
    if (uv_async_init(store_core_loop(s), &t->async, on_async) != 0) {
        destroy(t);
        store_error_set(error, STORE_INTERNAL, "Cannot set up the store's wake-up handle.");
        return NULL;
    }
    uv_unref((uv_handle_t *)&t->async); /* until a request is made */
    if (uv_thread_create(&t->thread, thread_main, t) != 0) {
        store_error_set(error, STORE_INTERNAL, "Cannot start the store thread.");
        uv_close((uv_handle_t *)&t->async, on_failed_async_closed);
        return NULL;
    }
    return t;
}

static void thread_close(store *s)
{
    store_thread *t = store_core_runner(s);
    uv_mutex_lock(&t->lock);
    t->stopping = true;
    uv_cond_signal(&t->wake);
    uv_mutex_unlock(&t->lock);
    uv_thread_join(&t->thread);
    answer_done(t); /* everything the thread wrote is answered before store_close returns */
    uv_close((uv_handle_t *)&t->async, on_async_closed);
}

const store_runner store_thread_runner = {
    .start = thread_start,
    .push = thread_push,
    .run_now = thread_run_now,
    .busy = thread_busy,
    .close = thread_close,
    .blocking = true,
};
