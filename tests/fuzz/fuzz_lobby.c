/*
 * fuzz_lobby — the lobby (server/lobby.c) as the network layer drives it, on arbitrary messages
 * from several connections: every frame a client sends goes through on_message, so proto_decode,
 * the hello and resume logic, table creation (the game's options_parse), every table command of
 * the rooms and the game's act all see hostile input here, with their state carried from one
 * message to the next.
 *
 * This file stands in for server/net.c: net_send, net_close and the per-connection pointer are
 * defined here, so the server library's lobby, rooms and game run unchanged without sockets. The
 * store is the in-memory one, pumped after every line and timer (store_memory_pump), so hello,
 * accounts, history and every stored move go through the store's paths too.
 * Time is virtual: the loop never waits on the real clock; a '~' line moves the loop's clock to
 * the next timer due (a bot's move, a turn running out, the next hand, an empty table closing,
 * the sweep of players gone for good) and runs it. With libsodium's random bytes from a
 * fixed-seed generator, the same input always does the same thing.
 *
 * The input is lines. The first byte of a line says who:
 *   'a'-'h'   connection 0-7 sends the rest of the line as one text frame (opened if needed);
 *   'A'-'H'   connection 0-7 drops (on_close), if open;
 *   '?'       the connection whose last view says it is to act sends the rest of the line;
 *   '~'       the next N one-shot timers run, with the sweeps due on the way (N the digits that
 *             follow, 1 if none, at most 64; 100 in all per input);
 *   other     byte b: connection b % 8 sends (b % 16 < 8) or drops.
 * In a frame, "$cD" becomes the code of the D-th table the connections have seen (mod their
 * number), "$tD" the token connection D was last welcomed with, and "$aD" the D-th of the
 * actions its last view lists as legal (plays, then the discard), as a JSON object.
 *
 * With FUZZ_TRACE=1 in the environment every frame in and out is printed, to see what a seed does.
 *
 * Promises checked: nothing crashes or leaks; the lobby never sends to a connection after it has
 * closed; every message is answered; every frame it sends is a JSON object with a type, an error
 * has a code and a message, a view shows its own seat's tiles only (none to a spectator); a
 * table's seq never goes back on one connection; shutting down leaves no handle on the loop.
 */
#include <uv.h>

#include <jansson.h>
#include <sodium.h>

#include "fuzz.h"
#include "lobby.h"
#include "log.h"
#include "net.h"
#include "proto.h"
#include "store_memory.h"

#define SLOTS 8
#define MAX_CODES 16
#define TOKEN_LEN 64
#define MAX_TIMERS_PER_INPUT 100 /* so one input stays cheap: a hand is about 35 timers */

struct net_conn {
    void *data;   /* the lobby's client */
    bool open;    /* between on_open and on_close */
    bool closing; /* net_close was called; on_close follows once the message is handled */
};

typedef struct slot {
    net_conn conn;
    uint64_t frames;           /* frames the lobby has sent this slot */
    char token[TOKEN_LEN + 1]; /* from the last welcome on this slot, "" if none */
    json_t *view;              /* the last game view sent to this slot, or NULL */
    uint64_t last_seq[MAX_CODES]; /* per table seen, the last seq this connection was sent */
} slot;

typedef struct session {
    slot slots[SLOTS];
    char codes[MAX_CODES][PROTO_CODE_LEN + 1];
    int n_codes;
    unsigned timer_budget; /* one-shot timers an input may still run: a few hands' worth */
} session;

/* The network layer's callbacks carry no context, so the stub finds the session here. */
static session *current;
/* The lobby's store: in memory, answered by store_memory_pump after every line and timer, so the
 * same input always gets the same answers in the same order. */
static store *current_store;
static bool tracing;

/* --- deterministic random bytes (table codes, tokens and seeds) --- */

static uint64_t random_state;

static uint64_t next_random(void)
{
    uint64_t z = (random_state += 0x9e3779b97f4a7c15ull); /* splitmix64 */
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static const char *fixed_name(void) { return "fuzz-fixed-seed"; }
static uint32_t fixed_random(void) { return (uint32_t)(next_random() >> 32); }

static void fixed_buf(void *const buf, const size_t size)
{
    for (size_t i = 0; i < size; i++)
        ((uint8_t *)buf)[i] = (uint8_t)(next_random() >> 56);
}

static randombytes_implementation fixed_randombytes = {
    .implementation_name = fixed_name, .random = fixed_random, .buf = fixed_buf};

/* --- the loop's timers on a virtual clock --- */

typedef struct next_timers {
    uv_timer_t *any, *one_shot; /* the timer due first, and the one-shot timer due first */
    uint64_t any_due, one_shot_due;
} next_timers;

static void find_earliest_timers(uv_handle_t *handle, void *arg)
{
    next_timers *next = arg;
    if (handle->type != UV_TIMER || !uv_is_active(handle) || uv_is_closing(handle))
        return;
    uv_timer_t *timer = (uv_timer_t *)handle;
    uint64_t due = uv_now(handle->loop) + uv_timer_get_due_in(timer);
    if (next->any == NULL || due < next->any_due) {
        next->any = timer;
        next->any_due = due;
    }
    if (uv_timer_get_repeat(timer) == 0 && (next->one_shot == NULL || due < next->one_shot_due)) {
        next->one_shot = timer;
        next->one_shot_due = due;
    }
}

/*
 * Runs a timer as uv_run would once the clock reached its due time. libuv has no call for
 * either step, so this sets the loop's cached time and reads the timer's callback, fields that
 * uv.h declares on every platform but calls private: fine for a test, and the only way to make
 * hours of table time pass in microseconds, the same way every run.
 */
static void run_timer(uv_loop_t *loop, uv_timer_t *timer, uint64_t due)
{
    if (due > loop->time)
        loop->time = due;
    uv_timer_cb callback = timer->timer_cb;
    uv_timer_stop(timer);
    uv_timer_again(timer); /* a repeating timer (the sweep) is armed again, as libuv does */
    callback(timer);
}

/* Runs timers in the order they fall due until `count` one-shot timers (a bot, a turn, the next
 * hand, an empty table) have run; the sweep runs whenever it falls due on the way, but never
 * alone: with only the sweep left, time would pass for nothing. */
static void run_timers(uv_loop_t *loop, const uint8_t *digits, size_t n)
{
    unsigned count = 0;
    for (size_t i = 0; i < n && i < 2 && digits[i] >= '0' && digits[i] <= '9'; i++)
        count = count * 10 + (unsigned)(digits[i] - '0');
    count = count == 0 ? 1 : count > 64 ? 64 : count;
    for (unsigned one_shots = 0, runs = 0; one_shots < count && runs < 4096; runs++) {
        next_timers next = {.any = NULL, .one_shot = NULL};
        uv_walk(loop, find_earliest_timers, &next);
        if (next.one_shot == NULL || current->timer_budget == 0)
            return;
        if (next.any == next.one_shot) {
            one_shots++;
            current->timer_budget--;
        }
        run_timer(loop, next.any, next.any_due);
        store_memory_pump(current_store);
    }
}

/* --- what the lobby sends --- */

static slot *slot_of(const net_conn *conn)
{
    for (int i = 0; i < SLOTS; i++)
        if (&current->slots[i].conn == conn)
            return &current->slots[i];
    FUZZ_CHECK(false, "the lobby used a connection the network layer never opened");
    return NULL;
}

/* The index of a table code among those seen, remembering a new one; -1 when the list is full. */
static int remember_code(const char *code)
{
    for (int i = 0; i < current->n_codes; i++)
        if (strcmp(current->codes[i], code) == 0)
            return i;
    if (current->n_codes == MAX_CODES || strlen(code) != PROTO_CODE_LEN)
        return -1;
    strcpy(current->codes[current->n_codes], code);
    return current->n_codes++;
}

/* PROTOCOL.md: a table's seq grows with every event, so a connection never sees it go back. */
static void check_seq(slot *s, const char *type, int table, const json_t *frame)
{
    if (table < 0)
        return;
    if (strcmp(type, "events") == 0) {
        size_t i;
        const json_t *item;
        json_array_foreach (json_object_get(frame, "events"), i, item) {
            uint64_t seq = (uint64_t)json_integer_value(json_object_get(item, "seq"));
            FUZZ_CHECK(seq > s->last_seq[table], "missed event %llu after %llu", (unsigned long long)seq,
                       (unsigned long long)s->last_seq[table]);
            s->last_seq[table] = seq;
        }
        return;
    }
    const json_t *value = json_object_get(frame, "seq");
    if (!json_is_integer(value))
        return;
    uint64_t seq = (uint64_t)json_integer_value(value);
    if (strcmp(type, "event") == 0)
        FUZZ_CHECK(seq > s->last_seq[table], "event %llu after %llu", (unsigned long long)seq,
                   (unsigned long long)s->last_seq[table]);
    else
        FUZZ_CHECK(seq >= s->last_seq[table], "%s at %llu after %llu", type, (unsigned long long)seq,
                   (unsigned long long)s->last_seq[table]);
    s->last_seq[table] = seq;
}

/* A game view shows its seat's own tiles, as many as the seat holds, and a spectator's none. */
static void check_view(const json_t *view)
{
    json_int_t seat = json_integer_value(json_object_get(view, "seat"));
    const json_t *hand = json_object_get(view, "hand");
    if (seat < 0) {
        FUZZ_CHECK(json_is_null(hand), "a spectator was sent a hand");
        return;
    }
    json_int_t holds = json_integer_value(json_array_get(json_object_get(view, "held"), (size_t)seat));
    FUZZ_CHECK((json_int_t)json_array_size(hand) == holds, "seat %lld was sent %zu tiles, holds %lld",
               (long long)seat, json_array_size(hand), (long long)holds);
}

static void read_frame(slot *s, const json_t *frame)
{
    const char *type = json_string_value(json_object_get(frame, "type"));
    FUZZ_CHECK(type != NULL, "a frame without a type");
    if (strcmp(type, "error") == 0)
        FUZZ_CHECK(json_is_string(json_object_get(frame, "code")) && json_is_string(json_object_get(frame, "message")),
                   "an error without a code and a message");
    const char *token = json_string_value(json_object_get(frame, "token"));
    if (strcmp(type, "welcome") == 0 && token != NULL && strlen(token) == TOKEN_LEN)
        strcpy(s->token, token);
    const char *table = json_string_value(json_object_get(frame, "table"));
    if (table != NULL)
        check_seq(s, type, remember_code(table), frame);
    json_t *view = json_object_get(frame, "view");
    if (json_is_object(view)) {
        check_view(view);
        json_decref(s->view);
        s->view = json_incref(view);
    }
}

bool net_send(net_conn *conn, const char *text, size_t len)
{
    slot *s = slot_of(conn);
    FUZZ_CHECK(conn->open, "the lobby sent to a connection after on_close");
    if (conn->closing)
        return false;
    if (tracing)
        fprintf(stderr, "  -> %d %.*s\n", (int)(s - current->slots), (int)len, text);
    json_error_t error;
    json_t *frame = json_loadb(text, len, 0, &error);
    FUZZ_CHECK(json_is_object(frame), "the lobby sent a frame that is not a JSON object: %s", error.text);
    read_frame(s, frame);
    json_decref(frame);
    s->frames++;
    return true;
}

void net_close(net_conn *conn, const char *reason)
{
    (void)reason;
    FUZZ_CHECK(conn->open, "the lobby closed a connection after on_close");
    conn->closing = true;
}

void net_conn_set_data(net_conn *conn, void *data) { conn->data = data; }
void *net_conn_data(const net_conn *conn) { return conn->data; }
const char *net_conn_peer(const net_conn *conn)
{
    (void)conn;
    return "203.0.113.7"; /* every fuzzed connection comes from one address, as an attacker's would */
}

/* --- what the connections send --- */

static void append(char *out, size_t cap, size_t *used, const char *text, size_t n)
{
    if (*used + n <= cap)
        memcpy(out + *used, text, n);
    *used += n; /* past cap: the frame is too large and is dropped */
}

static void append_json(char *out, size_t cap, size_t *used, json_t *value)
{
    char *text = json_dumps(value, JSON_COMPACT | JSON_ENCODE_ANY);
    if (text != NULL)
        append(out, cap, used, text, strlen(text));
    free(text);
    json_decref(value);
}

/* The k-th legal action of a view: its plays, then the discard of as many of its first tiles. */
static json_t *legal_action(const json_t *view, unsigned k)
{
    const json_t *legal = json_object_get(view, "legal");
    const json_t *plays = json_object_get(legal, "plays");
    const json_t *discard = json_object_get(legal, "discard");
    size_t n_plays = json_array_size(plays), count = n_plays + (json_is_integer(discard) ? 1 : 0);
    if (count == 0)
        return json_pack("{s:[]}", "play");
    if (k % count < n_plays)
        return json_pack("{s:O}", "play", json_array_get(plays, k % count));
    json_t *tiles = json_array();
    const json_t *hand = json_object_get(view, "hand");
    for (json_int_t i = 0; i < json_integer_value(discard) && (size_t)i < json_array_size(hand); i++)
        json_array_append(tiles, json_array_get(hand, (size_t)i));
    return json_pack("{s:o}", "discard", tiles);
}

/* Copies a line into a frame, replacing $cD, $tD and $aD; returns the frame's length. */
static size_t expand(const slot *from, const uint8_t *in, size_t n, char *out, size_t cap)
{
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        bool marker = in[i] == '$' && i + 2 < n && strchr("cta", in[i + 1]) != NULL && in[i + 2] >= '0' &&
                      in[i + 2] <= '9';
        if (!marker) {
            append(out, cap, &used, (const char *)&in[i], 1);
            continue;
        }
        unsigned k = (unsigned)(in[i + 2] - '0');
        if (in[i + 1] == 'c') {
            const char *code = current->n_codes > 0 ? current->codes[k % (unsigned)current->n_codes] : "ZZZZZZ";
            append(out, cap, &used, code, strlen(code));
        } else if (in[i + 1] == 't') {
            const char *token = current->slots[k % SLOTS].token;
            append(out, cap, &used, token, strlen(token));
        } else {
            append_json(out, cap, &used, legal_action(from->view, k));
        }
        i += 2;
    }
    return used;
}

/* The open slot whose last view has it to act, or -1. */
static int slot_to_act(void)
{
    for (int i = 0; i < SLOTS; i++) {
        const json_t *view = current->slots[i].view;
        const json_t *to_act = json_object_get(view, "to_act");
        if (current->slots[i].conn.open && json_is_integer(to_act) &&
            json_integer_value(to_act) == json_integer_value(json_object_get(view, "seat")))
            return i;
    }
    return -1;
}

static void open_slot(const net_handlers *h, slot *s)
{
    json_decref(s->view);
    s->view = NULL;
    s->conn = (net_conn){.open = true};
    memset(s->last_seq, 0, sizeof s->last_seq);
    h->on_open(h->ctx, &s->conn);
}

static void close_slot(const net_handlers *h, slot *s)
{
    if (!s->conn.open)
        return;
    h->on_close(h->ctx, &s->conn);
    s->conn.open = false;
    s->conn.data = NULL;
    json_decref(s->view);
    s->view = NULL;
}

static void send_line(const net_handlers *h, int index, const uint8_t *text, size_t n)
{
    slot *s = &current->slots[index];
    if (!s->conn.open)
        open_slot(h, s);
    if (s->conn.closing)
        return; /* closed as it opened (the server is stopping) */
    static char frame[NET_MAX_MESSAGE + 1];
    size_t length = expand(s, text, n, frame, NET_MAX_MESSAGE);
    if (length > NET_MAX_MESSAGE)
        return; /* net refuses it as too_large; the lobby never sees it */
    frame[length] = '\0'; /* net's promise: NUL-terminated */
    if (tracing)
        fprintf(stderr, "%d <- %s\n", index, frame);
    uint64_t frames_before = s->frames;
    h->on_message(h->ctx, &s->conn, frame, length);
    store_memory_pump(current_store); /* what waited for the store is answered now */
    /* Every message is answered (welcome, ok, snapshot, tables, pong or an error), unless the
     * connection is being closed. While the known finding stands, a frame holding any text
     * beyond ASCII (raw or as a \u escape) may go unanswered. */
    bool beyond_ascii = strstr(frame, "\\u") != NULL;
    for (size_t i = 0; i < length; i++)
        beyond_ascii |= (unsigned char)frame[i] >= 0x80;
    FUZZ_CHECK(s->frames > frames_before || s->conn.closing || (FUZZ_KNOWN_ERROR_TEXT_NOT_UTF8 && beyond_ascii),
               "no answer to %s", frame);
}

static void play_line(const net_handlers *h, uv_loop_t *loop, const uint8_t *line, size_t length)
{
    uint8_t who = line[0];
    if (who == '~')
        run_timers(loop, line + 1, length - 1);
    else if (who >= 'a' && who <= 'h')
        send_line(h, who - 'a', line + 1, length - 1);
    else if (who >= 'A' && who <= 'H')
        close_slot(h, &current->slots[who - 'A']);
    else if (who == '?') {
        int index = slot_to_act();
        if (index >= 0)
            send_line(h, index, line + 1, length - 1);
    } else if (who % 16 < 8)
        send_line(h, who % SLOTS, line + 1, length - 1);
    else
        close_slot(h, &current->slots[who % SLOTS]);
    /* net calls on_close after net_close, never inside it */
    for (int i = 0; i < SLOTS; i++)
        if (current->slots[i].conn.closing)
            close_slot(h, &current->slots[i]);
}

static void set_up_once(void)
{
    static bool done;
    if (done)
        return;
    done = true;
    randombytes_set_implementation(&fixed_randombytes); /* before sodium_init, as libsodium asks */
    log_set_level(LOG_LEVEL_ERROR);
    tracing = getenv("FUZZ_TRACE") != NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    set_up_once();
    random_state = 20240501;
    session s;
    memset(&s, 0, sizeof s);
    s.timer_budget = MAX_TIMERS_PER_INPUT;
    current = &s;
    uv_loop_t loop;
    FUZZ_CHECK(uv_loop_init(&loop) == 0, "no loop");
    lobby_config config = lobby_config_default();
    config.max_tables = 3;        /* so too_many_tables is reachable */
    config.reconnect_seconds = 2; /* so a few sweeps free a player who dropped */
    config.rate_burst = 100;
    current_store = store_memory_open(&loop, NULL);
    FUZZ_CHECK(current_store != NULL, "no store");
    lobby *l = lobby_create(&loop, &config, current_store);
    FUZZ_CHECK(l != NULL, "no lobby");
    net_handlers h = lobby_handlers(l);

    const uint8_t *cursor = data, *end = data + size, *line;
    size_t length;
    while ((line = fuzz_next_line(&cursor, end, &length)) != NULL)
        if (length > 0) {
            play_line(&h, &loop, line, length);
            store_memory_pump(current_store);
        }

    /* The order of main.c: lobby_shutdown, net closes every connection, then lobby_destroy. */
    lobby_shutdown(l);
    for (int i = 0; i < SLOTS; i++)
        close_slot(&h, &s.slots[i]);
    store_memory_pump(current_store);
    lobby_destroy(l);
    store_close(current_store);
    current_store = NULL;
    uv_run(&loop, UV_RUN_DEFAULT);
    FUZZ_CHECK(uv_loop_close(&loop) == 0, "a handle is still open on the loop");
    current = NULL;
    return 0;
}
