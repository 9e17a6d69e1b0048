/*
 * load_play — the `play` mode: T tables of 4 people, every seat a client of its own.
 *
 * Setup, per table: seat 0 says hello and creates a private table (Tien Gow, or Tianjin with
 * --game tianjin, or every other table with --game mix); seats 1-3 say hello, join by its code
 * and take their seats; when the three seats are confirmed the host starts. Play: every client
 * whose view says it owes a decision picks a legal action from its view's `legal`, waits a think
 * time of its own and sends it. Tien Gow: a random play, or a discard of the count asked when it
 * has no play. Tianjin: sit or not and pulls at random, a win whenever offered, a claim or kong
 * half the time, else a discard of its least connected tile (never a wild); in a claim window
 * the three other seats think at once, as people do. After each hand every client sends `ready`,
 * which starts the next one at once.
 *
 * Measured: the latency from an `act` leaving its client until all four clients of the table
 * have received the action event it caused, and the actions (events), acts and hands done in the
 * measuring window. A Tianjin pull or pass that does not close its round has no event (its seat
 * alone gets a `view` frame); the event that closes one ({"pulls":…}, {"no_claim":…}) names no
 * seat and is put down to the last such act sent at the table. Checked on every frame: sequence
 * numbers follow one another, no bot plays for a person, and no tile name the client may not see
 * appears in it (Tien Gow: its own hand from hand_started, plus the tiles played face up or shown
 * as a natural hand in this hand; Tianjin: load_tiles.h, with the private `view` frames and the
 * seat of every view); at Tianjin, too, no game event but its close comes while a claim window
 * is open (one then would tell of another seat's pass). With --watchers N, the first N tables
 * also have a spectator, whose frames must name no concealed tile at all.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uv.h>

#include "load.h"
#include "load_conn.h"
#include "load_stats.h"
#include "load_tiles.h"

#define PLAY_SEATS 4
#define PLAY_CLIENTS 5 /* the four seats and, on the first --watchers tables, a spectator */
#define PLAY_WATCHER 4
#define PLAY_SHUTDOWN_MS 10000
#define PLAY_DRAIN_MS 2000
#define PLAY_SHOWN_PROBLEMS 5 /* print the first few bad frames, count the rest */
#define PLAY_LAG_PROBE_MS 50  /* the period of the probe of our own loop's lateness */

typedef enum play_phase {
    PHASE_SETUP,
    PHASE_WARMUP,
    PHASE_MEASURE,
    PHASE_DRAIN,   /* play goes on unmeasured while the window's last acts arrive */
    PHASE_CLOSING,
} play_phase;

typedef struct play_run play_run;
typedef struct play_table play_table;

typedef struct play_client {
    load_conn conn;
    play_table *table;
    int seat;
    int number;            /* for its name */
    bool started;          /* load_conn_start was called */
    bool open;             /* between on_open and on_closed */
    bool welcomed;
    bool join_sent;
    uint64_t last_seq;     /* of the last table event or snapshot */
    uint64_t own;          /* Tien Gow: tile bits this client may see: its hand ... */
    uint64_t shown;        /* ... and what was played face up or revealed in this hand */
    load_mj_seat mj;       /* Tianjin: what this seat may know */
    bool window_open;      /* Tianjin: the last action it saw was a discard (a claim window) */
    /* its own act */
    uv_timer_t think;      /* the pause before it */
    char *act_text;        /* what the think timer sends */
    bool act_inflight;     /* sent, no ok or error yet */
    bool act_pending;      /* sent, no event or private answer put down to it yet */
    bool act_private;      /* a pull or a pass: may be answered by a view frame alone */
    bool act_stale;        /* an action event reached it while the act was in flight */
    bool act_measured;     /* sent inside the measuring window */
    uint64_t act_sent_ns;
    char last_act[160];    /* the text of its latest act, for the report of a refusal */
} play_client;

struct play_table {
    play_run *run;
    play_client clients[PLAY_CLIENTS];
    char code[16];         /* up to 12 characters */
    int seated;            /* joiners whose take_seat was confirmed */
    bool started;
    bool failed;           /* setup was refused */
    bool tianjin;          /* the game: Tianjin Mahjong, else Tien Gow */
    uint32_t rng;
    /* the latest action event and the act it answers */
    uint64_t event_seq;    /* its sequence number (0: none yet) */
    bool event_open;       /* caused by an act of ours, not yet at all four clients */
    bool event_measured;   /* that act was sent inside the measuring window */
    uint64_t event_act_ns; /* when that act was sent */
    int event_seen;        /* clients that received the event so far */
};

struct play_run {
    const load_options *o;
    load_target *target;
    uv_loop_t loop;
    load_net net;
    play_table *tables;
    int n_tables;
    int n_watchers;        /* spectators, one on each of the first n_watchers tables */
    play_phase phase;
    uv_timer_t phase_timer;
    uv_timer_t tick_timer;       /* once a second in the window: progress (--verbose) */
    uv_timer_t lag_timer;        /* probes how late our own loop runs */
    uint64_t lag_last_ns;
    size_t tick_first_sample;    /* the first latency sample of the current second */
    int tick_seconds;
    double tick_server_cpu;      /* the server's CPU seconds at the last tick */
    int next_client;       /* the next client to connect, in table-major order */
    int handshaking;       /* connected or connecting, not yet welcomed */
    int open_clients;
    int live_handles;      /* clients not yet closed, for the end of the loop */
    int tables_started;
    int welcomed_open;     /* clients welcomed and still connected */
    int held_at_end;       /* welcomed_open when the window closed */
    bool loop_ending;
    /* measured in the window */
    uint64_t window_start_ns, window_end_ns;
    uint64_t actions_in_window[2];  /* action events seen by seat 0, by game (0 Tien Gow, 1 Tianjin) */
    uint64_t acts_in_window[2];     /* acts sent, by game */
    uint64_t private_in_window;     /* Tianjin pulls and passes answered by a view frame alone */
    uint64_t windows_in_window, claims_in_window; /* Tianjin claim windows closed; by a claim */
    uint64_t hands_in_window[2];
    load_latency latency;        /* act sent -> the last of the 4 seats has the event */
    load_latency game_latency[2];
    load_latency first_latency;  /* act sent -> the first seat has it */
    load_latency own_lag;        /* how late our loop ran its probe timer, in the window */
    double server_cpu_start, server_cpu_end, client_cpu_start, client_cpu_end;
    long server_rss_before_kib, server_rss_kib;
    /* checked all along */
    uint64_t acts_sent, acts_unconfirmed;
    uint64_t frames_in;
    uint64_t leaks, seq_gaps, bot_actions, unexpected_events, bad_frames;
    uint64_t window_leaks;       /* Tianjin: an event inside an open claim window */
    uint64_t stale_refusals;     /* Tianjin: a pass or claim that crossed its window's close */
    load_counts errors;          /* error frames by code, before shutdown */
    load_counts lost;            /* connections that ended before shutdown, by why */
    int problems_shown;
};

static double cpu_seconds_self(void);
static void client_send(play_client *c, json_t *message);
static void begin_shutdown(play_run *run);

/* ---- tiles and the leak check ------------------------------------------------------------ */

static void show_problem(play_run *run, const play_client *c, const char *what, const char *text,
                         size_t len)
{
    if (run->problems_shown++ >= PLAY_SHOWN_PROBLEMS)
        return;
    fprintf(stderr, "load: table %s seat %d: %s: %.*s\n", c->table->code, c->seat, what,
            (int)(len > 600 ? 600 : len), text);
}

/* What a snapshot shows: the hand and every play on the table so far. */
static void learn_from_snapshot_view(play_client *c, const json_t *view)
{
    c->own = load_tiles_of(json_object_get(view, "hand"));
    c->shown = 0;
    size_t i, j;
    const json_t *trick, *play;
    json_array_foreach(json_object_get(view, "tricks"), i, trick)
        json_array_foreach(json_object_get(trick, "plays"), j, play)
            c->shown |= load_tiles_of(json_object_get(play, "play"));
    json_array_foreach(json_object_get(json_object_get(view, "trick"), "plays"), j, play)
        c->shown |= load_tiles_of(json_object_get(play, "play"));
}

static void check_mj_leaks(play_run *run, play_client *c, const json_t *frame, const char *text,
                           size_t len)
{
    load_mj_problem problem =
        load_mj_check_frame(&c->mj, frame, text, len, c->act_inflight && c->act_private);
    if (problem != LOAD_MJ_OK) {
        run->leaks++;
        show_problem(run, c, load_mj_problem_text(problem), text, len);
    }
}

static void check_leaks(play_run *run, play_client *c, const json_t *view, const char *text,
                        size_t len)
{
    const json_t *natural = json_object_get(view, "natural");
    if (json_is_object(natural)) /* a natural hand is shown to the table */
        c->shown |= load_tiles_of(json_object_get(natural, "tiles"));
    uint64_t hidden = load_tiles_in_text(text, len) & ~(c->own | c->shown);
    if (hidden != 0) {
        run->leaks++;
        show_problem(run, c, "frame holds a tile this seat may not see", text, len);
    }
}

/* ---- acting ------------------------------------------------------------------------------ */

static uint32_t table_random(play_table *t)
{
    t->rng ^= t->rng << 13;
    t->rng ^= t->rng >> 17;
    t->rng ^= t->rng << 5;
    return t->rng;
}

/* A legal action from the view: a random one of the listed plays, else the discard asked
 * for, made of the first tiles of the hand (any tiles may be discarded face down). */
static json_t *choose_action(play_table *t, const json_t *view)
{
    const json_t *legal = json_object_get(view, "legal");
    const json_t *plays = json_object_get(legal, "plays");
    size_t n_plays = json_array_size(plays);
    if (n_plays > 0)
        return json_pack("{s:O}", "play", json_array_get(plays, table_random(t) % n_plays));
    json_int_t count = json_integer_value(json_object_get(legal, "discard"));
    const json_t *hand = json_object_get(view, "hand");
    json_t *tiles = json_array();
    for (json_int_t i = 0; i < count; i++)
        json_array_append(tiles, json_array_get(hand, (size_t)i));
    return json_pack("{s:o}", "discard", tiles);
}

static const json_t *action_with(const json_t *actions, const char *key)
{
    size_t i;
    const json_t *a;
    json_array_foreach(actions, i, a) if (json_object_get(a, key) != NULL) return a;
    return NULL;
}

/* How much a tile does for a Tianjin hand: its copies and its neighbours in its suit. */
static int mj_tile_worth(const uint8_t count[LOAD_MJ_KINDS], int kind)
{
    int worth = 10 * (count[kind] - 1);
    for (int d = -2; d <= 2 && kind < 27; d++)
        if (d != 0 && kind % 9 + d >= 0 && kind % 9 + d < 9)
            worth += count[kind + d] * (d == -1 || d == 1 ? 4 : 2);
    return worth;
}

static uint8_t *mj_count(const json_t *list, uint8_t count[LOAD_MJ_KINDS])
{
    memset(count, 0, LOAD_MJ_KINDS);
    size_t i;
    const json_t *t;
    json_array_foreach(list, i, t)
    {
        int kind = json_is_string(t) ? load_mj_kind(json_string_value(t), json_string_length(t)) : -1;
        if (kind >= 0)
            count[kind]++;
    }
    return count;
}

/* A Tianjin decision from the view (module comment). */
static json_t *choose_mj_action(play_table *t, const json_t *view)
{
    const json_t *legal = json_object_get(view, "legal");
    const json_t *actions = json_object_get(legal, "actions");
    size_t n = json_array_size(actions);
    if (n == 0)
        return NULL;
    const char *kind = json_string_value(json_object_get(legal, "kind"));
    if (kind == NULL || strcmp(kind, "pre_hand") == 0)
        return json_deep_copy(json_array_get(actions, table_random(t) % n));
    const json_t *a = action_with(actions, "win");
    if (a == NULL && table_random(t) % 2 == 0) {
        const char *claims[] = {"kong", "pung", "concealed_kong", "added_kong"};
        for (size_t i = 0; i < sizeof claims / sizeof claims[0] && a == NULL; i++)
            a = action_with(actions, claims[i]);
    }
    if (a == NULL && strcmp(kind, "claim") == 0)
        a = action_with(actions, "pass");
    if (a != NULL)
        return json_deep_copy(a);
    uint8_t count[LOAD_MJ_KINDS], wild[LOAD_MJ_KINDS];
    mj_count(json_object_get(view, "hand"), count);
    mj_count(json_object_get(view, "wilds"), wild);
    const json_t *best = NULL;
    int best_worth = 0;
    size_t i;
    json_array_foreach(actions, i, a)
    {
        const json_t *tile = json_object_get(a, "discard");
        int k = json_is_string(tile) ? load_mj_kind(json_string_value(tile), json_string_length(tile)) : -1;
        if (k < 0)
            continue;
        int worth = wild[k] ? 1000 : mj_tile_worth(count, k);
        if (best == NULL || worth < best_worth) {
            best = a;
            best_worth = worth;
        }
    }
    return json_deep_copy(best != NULL ? best : json_array_get(actions, 0));
}

static void send_act(play_client *c)
{
    play_table *t = c->table;
    play_run *run = t->run;
    char *text = c->act_text;
    c->act_text = NULL;
    if (text == NULL || !c->open || run->phase == PHASE_CLOSING) {
        free(text);
        return;
    }
    json_t *message = json_loads(text, 0, NULL);
    const json_t *action = json_object_get(message, "action");
    c->act_private = json_object_get(action, "pass") != NULL || json_object_get(action, "pull") != NULL;
    json_decref(message);
    c->act_inflight = true;
    c->act_pending = true;
    c->act_stale = false;
    c->act_measured = run->phase == PHASE_MEASURE;
    c->act_sent_ns = uv_hrtime();
    snprintf(c->last_act, sizeof c->last_act, "%s", text);
    run->acts_sent++;
    if (c->act_measured)
        run->acts_in_window[t->tianjin]++;
    load_conn_send_text(&c->conn, text, strlen(text));
    free(text);
}

static void on_think_done(uv_timer_t *timer)
{
    send_act(timer->data);
}

/* The client owes a decision: prepare the act and send it after the think time (0.5-1.5 times
 * the mean, so the tables drift apart instead of acting in lockstep). A plan made from an older
 * view is dropped first. */
static void plan_act(play_client *c, const json_t *view)
{
    play_table *t = c->table;
    play_run *run = t->run;
    json_t *action = t->tianjin ? choose_mj_action(t, view) : choose_action(t, view);
    if (action == NULL)
        return;
    json_t *message = json_pack("{s:s, s:s, s:s, s:o}", "type", "act", "id", "act", "code",
                                t->code, "action", action);
    free(c->act_text);
    c->act_text = json_dumps(message, JSON_COMPACT);
    json_decref(message);
    int think = run->o->think_ms;
    if (think <= 0) {
        send_act(c);
        return;
    }
    uint64_t delay = (uint64_t)think / 2 + table_random(t) % (uint64_t)think + 1;
    uv_timer_start(&c->think, on_think_done, delay, 0);
}

/* A view came: plan from it if the client owes a decision, else drop a plan made earlier. */
static void consider_view(play_client *c, const json_t *view)
{
    play_run *run = c->table->run;
    if (!json_is_object(view))
        return;
    uv_timer_stop(&c->think);
    free(c->act_text);
    c->act_text = NULL;
    if (run->phase == PHASE_CLOSING || json_is_true(json_object_get(view, "over")) ||
        !json_is_object(json_object_get(view, "legal")))
        return;
    const json_t *to_act = json_object_get(view, "to_act");
    if (!c->table->tianjin && (!json_is_integer(to_act) || json_integer_value(to_act) != c->seat))
        return;
    plan_act(c, view);
}

/* ---- table events ------------------------------------------------------------------------ */

static bool in_window(const play_run *run)
{
    return run->phase == PHASE_MEASURE;
}

/* The act of ours an action event answers: the seat's own, or, for an event that names no seat
 * (the pulls shown, a window closed by its last pass), the last pull or pass sent at the table
 * (the one the server took last, but for two sent within a network delay of each other). */
static play_client *cause_of(play_table *t, const json_t *event)
{
    const json_t *seat = json_object_get(event, "seat");
    if (json_is_integer(seat)) {
        json_int_t s = json_integer_value(seat);
        play_client *c = s >= 0 && s < PLAY_SEATS ? &t->clients[s] : NULL;
        return c != NULL && c->act_pending ? c : NULL;
    }
    play_client *last = NULL;
    for (int s = 0; s < PLAY_SEATS; s++) {
        play_client *c = &t->clients[s];
        if (c->act_pending && c->act_private && (last == NULL || c->act_sent_ns > last->act_sent_ns))
            last = c;
    }
    return last;
}

/* Tianjin: while a claim window is open nothing may happen in the game but its close; an action
 * then would tell the seats something about another seat's pass. */
static void check_window(play_client *c, const json_t *event)
{
    play_run *run = c->table->run;
    bool closes = json_object_get(event, "no_claim") != NULL || json_object_get(event, "pung") != NULL ||
                  json_object_get(event, "kong") != NULL;
    if (c->window_open && !closes) {
        run->window_leaks++;
        char *text = json_dumps(event, JSON_COMPACT);
        show_problem(run, c, "an event inside an open claim window", text ? text : "", text ? strlen(text) : 0);
        free(text);
    }
    if (c->seat == 0 && c->window_open && in_window(run)) {
        run->windows_in_window++;
        run->claims_in_window += json_object_get(event, "no_claim") == NULL;
    }
    c->window_open = json_object_get(event, "discard") != NULL;
}

/* An action event: public tiles, and the latency of the act it answers. */
static void on_action_event(play_client *c, const json_t *event, uint64_t seq)
{
    play_table *t = c->table;
    play_run *run = t->run;
    bool by_bot = json_is_true(json_object_get(event, "by_bot"));
    if (t->tianjin)
        check_window(c, event);
    else
        c->shown |= load_tiles_of(json_object_get(event, "play"));
    if (c->seat < 0)
        return; /* a spectator is checked, not timed */
    if (c->act_inflight)
        c->act_stale = true;
    if (c->seat == 0) {
        if (by_bot)
            run->bot_actions++;
        if (in_window(run))
            run->actions_in_window[t->tianjin]++;
    }
    if (seq > t->event_seq) { /* the first client to get it: which act does it answer? */
        if (t->event_open)
            run->acts_unconfirmed++; /* the last event never reached all four */
        t->event_seq = seq;
        play_client *by = by_bot ? NULL : cause_of(t, event);
        t->event_open = by != NULL;
        t->event_seen = 0;
        if (by == NULL) {
            if (!by_bot)
                run->unexpected_events++;
            return;
        }
        by->act_pending = false;
        t->event_measured = by->act_measured;
        t->event_act_ns = by->act_sent_ns;
    }
    if (!t->event_open || seq != t->event_seq)
        return;
    uint64_t now = uv_hrtime();
    if (++t->event_seen == 1 && t->event_measured)
        load_latency_add(&run->first_latency, now - t->event_act_ns);
    if (t->event_seen < PLAY_SEATS)
        return;
    t->event_open = false;
    if (t->event_measured) {
        load_latency_add(&run->latency, now - t->event_act_ns);
        load_latency_add(&run->game_latency[t->tianjin], now - t->event_act_ns);
    }
}

static void on_event(play_client *c, const json_t *frame)
{
    play_run *run = c->table->run;
    uint64_t seq = (uint64_t)json_integer_value(json_object_get(frame, "seq"));
    if (c->last_seq != 0 && seq != c->last_seq + 1)
        run->seq_gaps++;
    c->last_seq = seq;

    const json_t *event = json_object_get(frame, "event");
    const json_t *view = json_object_get(frame, "view");
    const char *kind = json_string_value(json_object_get(event, "kind"));
    if (kind == NULL)
        return;
    if (strcmp(kind, "hand_started") == 0) {
        c->own = load_tiles_of(json_object_get(view, "hand"));
        c->shown = 0;
        c->window_open = false;
    } else if (strcmp(kind, "action") == 0) {
        on_action_event(c, event, seq);
    } else if (strcmp(kind, "hand_over") == 0) {
        c->window_open = false;
        if (c->seat == 0 && in_window(run))
            run->hands_in_window[c->table->tianjin]++;
        if (run->phase != PHASE_CLOSING && c->seat >= 0)
            client_send(c, json_pack("{s:s, s:s, s:s}", "type", "ready", "id", "ready", "code",
                                     c->table->code));
    }
    /* other events (joined, left, chat, parked, …) are the members' and the server's news, not
     * the game's, and may come at any time */
    consider_view(c, view);
}

/* Tianjin: the private answer to this client's own pull or pass (the leak check has made sure
 * it asked for one). */
static void on_private_view(play_client *c, const json_t *frame)
{
    play_run *run = c->table->run;
    if (c->act_pending && c->act_measured && in_window(run))
        run->private_in_window++;
    c->act_pending = false;
    consider_view(c, json_object_get(frame, "view"));
}

/* ---- setup ------------------------------------------------------------------------------- */

static void client_send(play_client *c, json_t *message)
{
    char *text = json_dumps(message, JSON_COMPACT);
    json_decref(message);
    if (text != NULL)
        load_conn_send_text(&c->conn, text, strlen(text));
    free(text);
}

static void send_join(play_client *c)
{
    c->join_sent = true;
    client_send(c, json_pack("{s:s, s:s, s:s}", "type", "join_table", "id", "join", "code",
                             c->table->code));
}

static void on_welcome(play_client *c)
{
    play_table *t = c->table;
    c->welcomed = true;
    t->run->welcomed_open++;
    if (c->seat == 0 && t->tianjin) /* the longest claim window: a think time never runs out */
        client_send(c, json_pack("{s:s, s:s, s:s, s:{s:i}, s:b}", "type", "create_table", "id",
                                 "create", "game", "tianjin", "options", "claim_seconds", 30,
                                 "public", 0));
    else if (c->seat == 0)
        client_send(c, json_pack("{s:s, s:s, s:s, s:b}", "type", "create_table", "id", "create",
                                 "game", "tiengow", "public", 0));
    else if (t->code[0] != '\0')
        send_join(c);
}

static void on_snapshot(play_client *c, const json_t *frame, const char *id)
{
    play_table *t = c->table;
    c->last_seq = (uint64_t)json_integer_value(json_object_get(frame, "seq"));
    const json_t *view = json_object_get(frame, "view");
    if (json_is_object(view) && !t->tianjin)
        learn_from_snapshot_view(c, view);
    if (strcmp(id, "create") == 0) {
        snprintf(t->code, sizeof t->code, "%s", json_string_value(json_object_get(frame, "table")));
        for (int s = 1; s < PLAY_CLIENTS; s++)
            if (t->clients[s].welcomed && !t->clients[s].join_sent)
                send_join(&t->clients[s]);
    } else if (strcmp(id, "join") == 0 && c->seat >= 0) {
        client_send(c, json_pack("{s:s, s:s, s:s, s:i}", "type", "take_seat", "id", "seat", "code",
                                 t->code, "seat", c->seat));
    }
}

static void begin_warmup(play_run *run);

static void on_ok(play_client *c, const char *id)
{
    play_table *t = c->table;
    play_run *run = t->run;
    if (strcmp(id, "act") == 0)
        c->act_inflight = false;
    if (strcmp(id, "seat") == 0 && ++t->seated == PLAY_SEATS - 1) {
        client_send(&t->clients[0], json_pack("{s:s, s:s, s:s}", "type", "start", "id", "start",
                                              "code", t->code));
    } else if (strcmp(id, "start") == 0) {
        t->started = true;
        if (++run->tables_started == run->n_tables && run->phase == PHASE_SETUP)
            begin_warmup(run);
    }
}

static void on_error(play_client *c, const json_t *frame, const char *id, const char *text,
                     size_t len)
{
    play_run *run = c->table->run;
    /* A pass or claim that crossed its window's close: the close came first (stale), or the claim
     * that closes it is still being stored (it is checked against the hand with that claim made,
     * so the refusal may come before the claim's event; the window check then wants that event
     * next). */
    bool act = strcmp(id, "act") == 0, was_stale = act && (c->act_stale || c->window_open);
    if (act) {
        c->act_inflight = false;
        c->act_pending = false;
    }
    if (run->phase == PHASE_CLOSING)
        return; /* shutting_down and the like are expected then */
    const json_t *code = json_object_get(frame, "code");
    const char *code_text = json_string_value(code);
    if (was_stale && c->table->tianjin && code_text != NULL &&
        (strcmp(code_text, "not_your_turn") == 0 || strcmp(code_text, "not_now") == 0 ||
         strcmp(code_text, "hand_over") == 0)) {
        run->stale_refusals++; /* a pass or claim sent as its window closed: the race people have too */
        return;
    }
    load_counts_add(&run->errors, json_is_string(code) ? json_string_value(code) : "(none)",
                    json_is_string(code) ? json_string_length(code) : 6);
    if (strcmp(id, "act") != 0 && strcmp(id, "ready") != 0 && !c->table->started)
        c->table->failed = true;
    char what[200];
    snprintf(what, sizeof what, "error (to %s)", act ? c->last_act : id);
    show_problem(run, c, what, text, len);
}

/* ---- connections ------------------------------------------------------------------------- */

static void connect_more(play_run *run);

static void on_open(load_conn *conn)
{
    play_client *c = conn->user;
    c->open = true;
    c->table->run->open_clients++;
    char name[24];
    snprintf(name, sizeof name, "load%d", c->number);
    client_send(c, json_pack("{s:s, s:s, s:i, s:s}", "type", "hello", "id", "hello", "v", 1, "name",
                             name));
}

static void on_message(load_conn *conn, const char *text, size_t len)
{
    play_client *c = conn->user;
    play_run *run = c->table->run;
    run->frames_in++;
    json_t *frame = json_loadb(text, len, 0, NULL);
    const char *type = json_string_value(json_object_get(frame, "type"));
    if (type == NULL) {
        run->bad_frames++;
        show_problem(run, c, "not a protocol message", text, len);
        json_decref(frame);
        return;
    }
    const json_t *id_json = json_object_get(frame, "id");
    const char *id = json_is_string(id_json) ? json_string_value(id_json) : "";
    /* Tianjin: before the frame is acted on, while the act it may answer is still in flight */
    if (c->table->tianjin)
        check_mj_leaks(run, c, frame, text, len);
    if (strcmp(type, "event") == 0) {
        on_event(c, frame);
    } else if (strcmp(type, "view") == 0) {
        on_private_view(c, frame);
    } else if (strcmp(type, "welcome") == 0) {
        run->handshaking--;
        on_welcome(c);
        connect_more(run);
    } else if (strcmp(type, "snapshot") == 0) {
        on_snapshot(c, frame, id);
    } else if (strcmp(type, "ok") == 0) {
        on_ok(c, id);
    } else if (strcmp(type, "error") == 0) {
        on_error(c, frame, id, text, len);
    }
    if (!c->table->tianjin) /* Tien Gow: after the frame taught the client its own hand */
        check_leaks(run, c, json_object_get(frame, "view"), text, len);
    json_decref(frame);
}

static void maybe_end_loop(play_run *run);

static void on_closed(load_conn *conn, const char *why)
{
    play_client *c = conn->user;
    play_run *run = c->table->run;
    if (c->open)
        run->open_clients--;
    if (!c->welcomed)
        run->handshaking--;
    else
        run->welcomed_open--;
    c->open = false;
    run->live_handles--;
    if (run->phase != PHASE_CLOSING) {
        load_counts_add(&run->lost, why, strlen(why));
        if (!c->table->started)
            c->table->failed = true;
        connect_more(run);
    }
    maybe_end_loop(run);
}

static const load_conn_handlers play_handlers = {
    .on_open = on_open,
    .on_message = on_message,
    .on_closed = on_closed,
};

/* Keeps at most `inflight` handshakes going; clients connect in table order. */
static void connect_more(play_run *run)
{
    int total = run->n_tables * PLAY_SEATS + run->n_watchers;
    while (run->phase == PHASE_SETUP && run->next_client < total &&
           run->handshaking < run->o->inflight) {
        int i = run->next_client++;
        /* the spectators first: setup ends when the last table starts */
        int k = i - run->n_watchers;
        play_client *c = k < 0 ? &run->tables[i].clients[PLAY_WATCHER]
                               : &run->tables[k / PLAY_SEATS].clients[k % PLAY_SEATS];
        c->started = true;
        run->handshaking++;
        run->live_handles++;
        load_conn_start(&run->net, &c->conn, &play_handlers, c);
    }
}

/* ---- phases ------------------------------------------------------------------------------ */

static void on_phase_timer(uv_timer_t *timer);

static void begin_warmup(play_run *run)
{
    if (run->tables_started < run->n_tables)
        fprintf(stderr, "load: only %d of %d tables started in %.0f s; measuring those\n",
                run->tables_started, run->n_tables, run->o->setup_seconds);
    if (run->o->verbose)
        fprintf(stderr, "load: %d tables playing, warming up\n", run->tables_started);
    run->phase = PHASE_WARMUP;
    uv_timer_start(&run->phase_timer, on_phase_timer, (uint64_t)(run->o->warmup_seconds * 1000), 0);
}

/* Our own loop's lateness: if it is small, the latency measured is the server's, not ours. */
static void on_lag_timer(uv_timer_t *timer)
{
    play_run *run = timer->data;
    uint64_t now = uv_hrtime(), period = (uint64_t)PLAY_LAG_PROBE_MS * 1000000u;
    if (run->lag_last_ns != 0 && run->phase == PHASE_MEASURE)
        load_latency_add(&run->own_lag, now - run->lag_last_ns > period ? now - run->lag_last_ns - period : 0);
    run->lag_last_ns = now;
}

/* One line a second with that second's acts and latency, so a stall shows when it happened. */
static void on_tick_timer(uv_timer_t *timer)
{
    play_run *run = timer->data;
    load_latency slice = {0};
    for (size_t i = run->tick_first_sample; i < run->latency.n; i++)
        load_latency_add(&slice, (uint64_t)run->latency.us[i] * 1000);
    run->tick_first_sample = run->latency.n;
    double cpu = run->target->pid ? load_cpu_seconds(run->target->pid) : -1;
    fprintf(stderr, "load: second %3d: %5zu acts  p50 %7.2f  p99 %7.2f  max %7.2f ms  server CPU %3.0f%%\n",
            ++run->tick_seconds, slice.n, load_latency_percentile(&slice, 50),
            load_latency_percentile(&slice, 99), load_latency_percentile(&slice, 100),
            cpu >= 0 ? 100.0 * (cpu - run->tick_server_cpu) : 0.0);
    run->tick_server_cpu = cpu;
    load_latency_free(&slice);
}

static void begin_measure(play_run *run)
{
    run->phase = PHASE_MEASURE;
    run->window_start_ns = uv_hrtime();
    run->server_cpu_start = run->target->pid ? load_cpu_seconds(run->target->pid) : -1;
    run->client_cpu_start = cpu_seconds_self();
    uv_timer_start(&run->phase_timer, on_phase_timer, (uint64_t)(run->o->seconds * 1000), 0);
    run->tick_server_cpu = run->server_cpu_start;
    if (run->o->verbose)
        uv_timer_start(&run->tick_timer, on_tick_timer, 1000, 1000);
}

static void end_measure(play_run *run)
{
    run->window_end_ns = uv_hrtime();
    run->server_cpu_end = run->target->pid ? load_cpu_seconds(run->target->pid) : -1;
    run->client_cpu_end = cpu_seconds_self();
    run->server_rss_kib = run->target->pid ? load_rss_kib(run->target->pid) : -1;
    run->held_at_end = run->welcomed_open;
    uv_timer_stop(&run->tick_timer);
    uv_timer_stop(&run->lag_timer);
    run->phase = PHASE_DRAIN;
    uv_timer_start(&run->phase_timer, on_phase_timer, PLAY_DRAIN_MS, 0);
}

static void on_phase_timer(uv_timer_t *timer)
{
    play_run *run = timer->data;
    switch (run->phase) {
    case PHASE_SETUP:
        begin_warmup(run);
        break;
    case PHASE_WARMUP:
        begin_measure(run);
        break;
    case PHASE_MEASURE:
        end_measure(run);
        break;
    case PHASE_DRAIN:
        begin_shutdown(run);
        break;
    case PHASE_CLOSING: /* the shutdown deadline: cut whoever is left */
        for (int i = 0; i < run->n_tables; i++)
            for (int s = 0; s < PLAY_CLIENTS; s++)
                if (run->tables[i].clients[s].started)
                    load_conn_abort(&run->tables[i].clients[s].conn, "shutdown deadline");
        break;
    }
}

/* Stops acting, then lets the server close the connections (a server we started gets
 * SIGTERM, which sends every client shutting_down and a close) or closes them ourselves. */
static void begin_shutdown(play_run *run)
{
    run->phase = PHASE_CLOSING;
    for (int i = 0; i < run->n_tables; i++)
        for (int s = 0; s < PLAY_CLIENTS; s++)
            uv_timer_stop(&run->tables[i].clients[s].think);
    if (run->target->ours) {
        load_target_request_stop(run->target);
    } else {
        for (int i = 0; i < run->n_tables; i++)
            for (int s = 0; s < PLAY_CLIENTS; s++)
                if (run->tables[i].clients[s].started)
                    load_conn_close(&run->tables[i].clients[s].conn, 1000);
    }
    uv_timer_start(&run->phase_timer, on_phase_timer, PLAY_SHUTDOWN_MS, 0);
    maybe_end_loop(run);
}

/* Once every client is closed, the timers go too and uv_run returns. */
static void maybe_end_loop(play_run *run)
{
    if (run->phase != PHASE_CLOSING || run->live_handles > 0 || run->loop_ending)
        return;
    run->loop_ending = true;
    uv_close((uv_handle_t *)&run->phase_timer, NULL);
    uv_close((uv_handle_t *)&run->tick_timer, NULL);
    uv_close((uv_handle_t *)&run->lag_timer, NULL);
    for (int i = 0; i < run->n_tables; i++)
        for (int s = 0; s < PLAY_CLIENTS; s++)
            uv_close((uv_handle_t *)&run->tables[i].clients[s].think, NULL);
}

/* ---- report ------------------------------------------------------------------------------ */

static double cpu_seconds_self(void)
{
    uv_rusage_t usage;
    if (uv_getrusage(&usage) != 0)
        return -1;
    return (double)usage.ru_utime.tv_sec + (double)usage.ru_utime.tv_usec / 1e6 +
           (double)usage.ru_stime.tv_sec + (double)usage.ru_stime.tv_usec / 1e6;
}

static int count_playing(const play_run *run)
{
    int n = 0;
    for (int i = 0; i < run->n_tables; i++)
        n += run->tables[i].started && !run->tables[i].failed;
    return n;
}

static void print_cpu(const char *who, double start, double end, double window)
{
    if (start < 0 || end < 0)
        printf("  %-26s unknown\n", who);
    else
        printf("  %-26s %.0f%% of one core\n", who, 100.0 * (end - start) / window);
}

/* Acts sent in the window whose event had not reached all four seats when play stopped. */
static int count_unfinished(const play_run *run)
{
    int n = 0;
    for (int i = 0; i < run->n_tables; i++)
        n += run->tables[i].event_open && run->tables[i].event_measured;
    return n;
}

static int count_tianjin(const play_run *run)
{
    int n = 0;
    for (int i = 0; i < run->n_tables; i++)
        n += run->tables[i].tianjin;
    return n;
}

static double per_second(uint64_t n, double window)
{
    return window > 0 ? (double)n / window : 0.0;
}

static int report(play_run *run, int connections_at_end)
{
    double window = (double)(run->window_end_ns - run->window_start_ns) / 1e9;
    load_latency *lat = &run->latency;
    double p99 = load_latency_percentile(lat, 99);
    printf("teahouse load: play\n");
    printf("  %-26s %d asked, %d playing, %d connections held\n", "tables", run->n_tables,
           count_playing(run), connections_at_end);
    printf("  %-26s %s (%d Tianjin)\n", "game", run->o->game, count_tianjin(run));
    if (run->n_watchers > 0)
        printf("  %-26s %d, one on each of the first %d tables\n", "spectators", run->n_watchers,
               run->n_watchers);
    printf("  %-26s %d ms mean (uniform 0.5-1.5x)\n", "think time", run->o->think_ms);
    printf("  %-26s %.1f s after %.1f s of warm-up\n", "window", window, run->o->warmup_seconds);
    uint64_t actions = run->actions_in_window[0] + run->actions_in_window[1];
    uint64_t acts = run->acts_in_window[0] + run->acts_in_window[1];
    uint64_t hands = run->hands_in_window[0] + run->hands_in_window[1];
    printf("  %-26s %llu (%.1f/s): Tien Gow %llu, Tianjin %llu\n", "actions (events)",
           (unsigned long long)actions, per_second(actions, window),
           (unsigned long long)run->actions_in_window[0], (unsigned long long)run->actions_in_window[1]);
    printf("  %-26s %llu (%.1f/s): Tien Gow %llu, Tianjin %llu (%llu pulls and passes answered "
           "privately)\n", "acts sent", (unsigned long long)acts, per_second(acts, window),
           (unsigned long long)run->acts_in_window[0], (unsigned long long)run->acts_in_window[1],
           (unsigned long long)run->private_in_window);
    if (count_tianjin(run) > 0)
        printf("  %-26s %llu closed (%.1f/s), %llu by a claim\n", "Tianjin claim windows",
               (unsigned long long)run->windows_in_window, per_second(run->windows_in_window, window),
               (unsigned long long)run->claims_in_window);
    printf("  %-26s %llu (%.2f/s): Tien Gow %llu, Tianjin %llu\n", "hands completed",
           (unsigned long long)hands, window > 0 ? (double)hands / window : 0.0,
           (unsigned long long)run->hands_in_window[0], (unsigned long long)run->hands_in_window[1]);
    printf("  %-26s p50 %.2f  p90 %.2f  p99 %.2f  max %.2f  mean %.2f ms (%zu acts, %d "
           "unfinished)\n",
           "act -> all 4 seats", load_latency_percentile(lat, 50), load_latency_percentile(lat, 90),
           p99, load_latency_percentile(lat, 100), load_latency_mean_ms(lat), lat->n,
           count_unfinished(run));
    for (int g = 0; g < 2; g++)
        if (run->game_latency[g].n > 0)
            printf("  %-26s p50 %.2f  p99 %.2f  max %.2f ms (%zu acts)\n",
                   g ? "  of which Tianjin" : "  of which Tien Gow",
                   load_latency_percentile(&run->game_latency[g], 50),
                   load_latency_percentile(&run->game_latency[g], 99),
                   load_latency_percentile(&run->game_latency[g], 100), run->game_latency[g].n);
    load_latency *first = &run->first_latency;
    printf("  %-26s p50 %.2f  p90 %.2f  p99 %.2f  max %.2f  mean %.2f ms\n", "act -> first seat",
           load_latency_percentile(first, 50), load_latency_percentile(first, 90),
           load_latency_percentile(first, 99), load_latency_percentile(first, 100),
           load_latency_mean_ms(first));
    if (run->server_rss_kib >= 0 && run->server_rss_before_kib >= 0 && connections_at_end > 0)
        printf("  %-26s %ld KiB before, %ld KiB playing: %.1f KiB per connection\n", "server RSS",
               run->server_rss_before_kib, run->server_rss_kib,
               (double)(run->server_rss_kib - run->server_rss_before_kib) / connections_at_end);
    print_cpu("server CPU", run->server_cpu_start, run->server_cpu_end, window);
    print_cpu("load generator CPU", run->client_cpu_start, run->client_cpu_end, window);
    printf("  %-26s p99 %.2f  max %.2f ms (how late its own timers ran)\n", "load generator lag",
           load_latency_percentile(&run->own_lag, 99), load_latency_percentile(&run->own_lag, 100));
    printf("  %-26s %llu in, %llu out\n", "frames",
           (unsigned long long)run->frames_in, (unsigned long long)run->net.frames_out);
    printf("  %-26s ", "errors received");
    load_counts_print(&run->errors, stdout);
    printf("\n  %-26s ", "connections lost");
    load_counts_print(&run->lost, stdout);
    printf("\n  %-26s %llu\n", "hidden-tile leaks", (unsigned long long)run->leaks);
    printf("  %-26s %llu events inside an open claim window; %llu passes or claims that crossed "
           "their window's close (refused, not counted as errors)\n", "Tianjin privacy",
           (unsigned long long)run->window_leaks, (unsigned long long)run->stale_refusals);
    printf("  %-26s seq gaps %llu, bot actions %llu, unexpected events %llu, unconfirmed acts "
           "%llu, bad frames %llu\n",
           "other checks", (unsigned long long)run->seq_gaps,
           (unsigned long long)run->bot_actions, (unsigned long long)run->unexpected_events,
           (unsigned long long)run->acts_unconfirmed, (unsigned long long)run->bad_frames);
    printf("  %-26s p99 under 20 ms: %s\n", "target", lat->n == 0 ? "no data"
                                                       : p99 < 20.0 ? "met" : "missed");
    fflush(stdout);

    bool broken = run->leaks > 0 || run->window_leaks > 0 || run->seq_gaps > 0 || run->bot_actions > 0 ||
                  run->unexpected_events > 0 || run->bad_frames > 0 ||
                  load_counts_total(&run->errors) > 0 || load_counts_total(&run->lost) > 0 ||
                  count_playing(run) < run->n_tables || lat->n == 0;
    return broken ? 1 : 0;
}

/* ---- the mode ---------------------------------------------------------------------------- */

static bool setup_tables(play_run *run)
{
    run->tables = calloc((size_t)run->n_tables, sizeof *run->tables);
    if (run->tables == NULL)
        return false;
    for (int i = 0; i < run->n_tables; i++) {
        play_table *t = &run->tables[i];
        t->run = run;
        t->rng = 2463534242u ^ (uint32_t)(i * 2654435761u);
        if (t->rng == 0)
            t->rng = 1;
        t->tianjin = strcmp(run->o->game, "tianjin") == 0 || (strcmp(run->o->game, "mix") == 0 && i % 2 == 1);
        for (int s = 0; s < PLAY_CLIENTS; s++) {
            play_client *c = &t->clients[s];
            c->table = t;
            c->seat = s == PLAY_WATCHER ? -1 : s;
            c->number = s == PLAY_WATCHER ? run->n_tables * PLAY_SEATS + i : i * PLAY_SEATS + s;
            load_mj_seat_init(&c->mj, c->seat);
            uv_timer_init(&run->loop, &c->think);
            c->think.data = c;
        }
    }
    return true;
}

int load_play(const load_options *o, load_target *target)
{
    play_run *run = calloc(1, sizeof *run);
    if (run == NULL)
        return 1;
    run->o = o;
    run->target = target;
    run->n_tables = o->tables;
    run->n_watchers = o->watchers < o->tables ? o->watchers : o->tables;
    uv_loop_init(&run->loop);
    bool net_ready = load_net_init(&run->net, &run->loop, target->host, target->port);
    if (net_ready)
        load_net_spread(&run->net, o->sources, o->source_octet);
    if (!net_ready || !setup_tables(run)) {
        fprintf(stderr, "load: cannot set up (address %s?)\n", target->host);
        return 1;
    }
    run->server_rss_before_kib = target->pid ? load_rss_kib(target->pid) : -1;
    uv_timer_init(&run->loop, &run->phase_timer);
    run->phase_timer.data = run;
    uv_timer_init(&run->loop, &run->tick_timer);
    run->tick_timer.data = run;
    uv_timer_init(&run->loop, &run->lag_timer);
    run->lag_timer.data = run;
    uv_timer_start(&run->lag_timer, on_lag_timer, PLAY_LAG_PROBE_MS, PLAY_LAG_PROBE_MS);
    uv_timer_start(&run->phase_timer, on_phase_timer, (uint64_t)(o->setup_seconds * 1000), 0);
    connect_more(run);
    uv_run(&run->loop, UV_RUN_DEFAULT);

    int status = report(run, run->held_at_end);

    for (int i = 0; i < run->n_tables; i++)
        for (int s = 0; s < PLAY_CLIENTS; s++)
            free(run->tables[i].clients[s].act_text);
    free(run->tables);
    load_latency_free(&run->latency);
    load_latency_free(&run->game_latency[0]);
    load_latency_free(&run->game_latency[1]);
    load_latency_free(&run->first_latency);
    load_latency_free(&run->own_lag);
    load_net_free(&run->net);
    if (uv_loop_close(&run->loop) != 0)
        fprintf(stderr, "load: handles left open at exit\n");
    free(run);
    return status;
}
