/*
 * room — one table in-process, on a real libuv loop, with the in-memory store (store_memory.h)
 * whose answers the tests delay, hold, release and fail at will. The room's promises:
 *   - a move is stored before anyone is shown it, and a move whose write failed is never shown;
 *   - a seat's second quick move is checked against the hand with its first one made (queued,
 *     not `busy`), and a refused one changes nothing;
 *   - a seat freed while its move is being written is played by the bot; nobody who left is
 *     answered;
 *   - the running scores are the sums of the ledger rows stored;
 *   - a paused table refuses moves, shows nothing unsaved, and resumes;
 *   - the events that change what a seat sees (seat_left among them) carry each member's view;
 *   - simultaneous decisions (the toy game of toy_game.h): one clock per deciding seat, a
 *     private decision reaches nobody else and leaves the deciding list as it was;
 *   - the host's controls (set_host, set_options, hold, end, watchers' chat) are the host's
 *     alone, refused during a hand where the rules say so, change nothing when refused, and are
 *     kept over a restart; each hand keeps the options it was played under.
 * Each test fails within seconds when the room breaks its promise (see the mutations listed in
 * the commit that added them).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uv.h>

#include "game.h"
#include "game_replay.h"
#include "history.h"
#include "room_internal.h"
#include "store.h"
#include "store_memory.h"
#include "toy_game.h"

#define MAX_PLAYERS 4
#define MAX_FRAMES 4096

/* ---- Fixture: a loop, a memory store, a room, players whose frames are kept ---- */

typedef struct sent {
    player *p;
    json_t *frame;
    int64_t actions_stored; /* the store's count of actions (and hand ends) when it was sent */
} sent;

/* Message ids the tests give room_act, which keeps its own reference: released in teardown. */
static json_t *ids[64];
static int n_ids;

static json_t *an_id(int n)
{
    ck_assert_int_lt(n_ids, 64);
    return ids[n_ids++] = json_integer(n);
}

static uv_loop_t loop;
static store *st;
static room *r;
static player players[MAX_PLAYERS];
static sent log_[MAX_FRAMES];
static int n_log;
static bool room_closed;
static int fake_client; /* players point at it while "connected" */

/* ---- What the memory store holds ---- */

/* Actions stored so far in every hand (a hand's ending action is stored with its end). */
static int64_t store_memory_actions_stored(store *s)
{
    int64_t n = 0;
    for (size_t id = 1; id <= store_memory_n_hands(s); id++)
        n += (int64_t)store_memory_hand_at(s, (int64_t)id)->n_actions;
    return n;
}

static int64_t store_memory_ledger_sum(store *s, int64_t table_id, int seat)
{
    size_t n = 0;
    const store_memory_row *rows = store_memory_ledger(s, &n);
    int64_t sum = 0;
    for (size_t i = 0; i < n; i++)
        if (rows[i].table_id == table_id && rows[i].seat == seat)
            sum += rows[i].units;
    return sum;
}

static void on_send(void *ctx, player *p, const char *text, size_t len)
{
    (void)ctx;
    ck_assert_int_lt(n_log, MAX_FRAMES);
    json_error_t error;
    json_t *frame = json_loadb(text, len, 0, &error);
    ck_assert_msg(frame != NULL, "the room sent text that is not JSON: %.200s", text);
    log_[n_log++] = (sent){.p = p, .frame = frame, .actions_stored = store_memory_actions_stored(st)};
}

static void on_closed(void *ctx, room *closed)
{
    (void)ctx;
    (void)closed;
    room_closed = true;
}

static void on_member_left(void *ctx, room *rm, player *p)
{
    (void)ctx;
    (void)rm;
    (void)p;
}

static room_env env_with(store *s)
{
    return (room_env){.ctx = NULL,
                      .loop = &loop,
                      .send = on_send,
                      .closed = on_closed,
                      .member_left = on_member_left,
                      .bot_delay_ms = 1,
                      .next_hand_ms = 50,
                      .empty_close_ms = 60000,
                      .retry_ms = 20,
                      .store = s};
}

static int guests_made;

static void on_guest(void *ctx, const store_error *error, const store_session *session)
{
    player *p = ctx;
    ck_assert_int_eq(error->status, STORE_OK);
    p->id = session->player_id;
    guests_made++;
}

static void setup(void)
{
    ck_assert_int_eq(uv_loop_init(&loop), 0);
    st = store_memory_open(&loop, NULL);
    ck_assert_ptr_nonnull(st);
    n_log = 0;
    room_closed = false;
    guests_made = 0;
    for (int i = 0; i < MAX_PLAYERS; i++) {
        players[i] = (player){0};
        snprintf(players[i].name, sizeof players[i].name, "P%d", i);
        players[i].client = (struct client *)&fake_client;
        ck_assert(store_guest_create(st, players[i].name, on_guest, &players[i]));
    }
    while (guests_made < MAX_PLAYERS) /* the players are the store's, as the lobby's are */
        uv_run(&loop, UV_RUN_ONCE);
}

static void teardown(void)
{
    if (r != NULL) {
        room_destroy(r);
        r = NULL;
    }
    store_close(st);
    st = NULL;
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(uv_loop_close(&loop), 0);
    for (int i = 0; i < n_log; i++)
        json_decref(log_[i].frame);
    for (int i = 0; i < n_ids; i++)
        json_decref(ids[i]);
    n_ids = 0;
}

/* Runs the loop until cond() holds, for at most max_ms of the loop's time. */
static bool run_until(bool (*cond)(void), int max_ms)
{
    uv_update_time(&loop);
    uint64_t end = uv_now(&loop) + (uint64_t)max_ms;
    while (!cond()) {
        if (uv_now(&loop) > end)
            return false;
        uv_run(&loop, UV_RUN_NOWAIT);
        uv_sleep(0);
        uv_update_time(&loop);
    }
    return true;
}

static void run_for(int ms)
{
    uv_update_time(&loop);
    uint64_t end = uv_now(&loop) + (uint64_t)ms;
    while (uv_now(&loop) < end) {
        uv_run(&loop, UV_RUN_NOWAIT);
        uv_sleep(1);
        uv_update_time(&loop);
    }
}

static const char *kind_of(const json_t *frame)
{
    return json_string_value(json_object_get(json_object_get(frame, "event"), "kind"));
}

static const char *type_of(const json_t *frame) { return json_string_value(json_object_get(frame, "type")); }

/* Frames of a type (and, for events, a kind) sent to p from index `from` on. */
static int count_frames(const player *p, const char *type, const char *kind, int from)
{
    int n = 0;
    for (int i = from; i < n_log; i++)
        if ((p == NULL || log_[i].p == p) && strcmp(type_of(log_[i].frame), type) == 0 &&
            (kind == NULL || (kind_of(log_[i].frame) != NULL && strcmp(kind_of(log_[i].frame), kind) == 0)))
            n++;
    return n;
}

static const json_t *last_frame(const player *p, const char *type, const char *kind)
{
    for (int i = n_log - 1; i >= 0; i--)
        if (log_[i].p == p && strcmp(type_of(log_[i].frame), type) == 0 &&
            (kind == NULL || (kind_of(log_[i].frame) != NULL && strcmp(kind_of(log_[i].frame), kind) == 0)))
            return log_[i].frame;
    return NULL;
}

/* A table of game g with players[0..humans) seated at seats 0.. and bots in the other seats. */
static void open_table(const game_ops *g, int humans, int turn_seconds)
{
    char msg[GAME_MESSAGE_SIZE];
    json_t *options = g->options_parse(NULL, msg, sizeof msg);
    ck_assert_ptr_nonnull(options);
    room_env env = env_with(st);
    r = room_create(&env, g, options, false, turn_seconds, "ROOM42", 7);
    json_decref(options);
    ck_assert_ptr_nonnull(r);
    for (int s = 0; s < humans; s++)
        ck_assert_ptr_null(room_join(r, &players[s], s, NULL, msg, sizeof msg));
    if (humans == 0) /* an all-bot table: its host watches */
        ck_assert_ptr_null(room_join(r, &players[0], -1, NULL, msg, sizeof msg));
    for (int s = humans; s < GAME_SEATS; s++)
        ck_assert_ptr_null(room_add_bot(r, &players[0], s, msg, sizeof msg));
}

static bool table_saved(void) { return room_table_id(r) != 0; }
static bool hand_is_on(void) { return r->state == ROOM_PLAYING && r->hand != NULL && r->writing == WRITE_NONE; }

static void start(void)
{
    char msg[GAME_MESSAGE_SIZE];
    ck_assert_ptr_null(room_start(r, &players[0], msg, sizeof msg));
    ck_assert(run_until(hand_is_on, 2000));
    ck_assert(table_saved()); /* kept from its first hand on */
}

static int seat_deciding_settled(void)
{
    game_decision owed[GAME_SEATS];
    if (!hand_settled(r))
        return -1;
    int n = r->game->decisions(r->hand, owed);
    return n > 0 ? owed[0].seat : -1;
}

static int waiting_seat;
static bool seat_decides_now(void) { return seat_deciding_settled() == waiting_seat; }

/* Waits until seat (a person's) owes the decision in a settled hand; false if the hand ended. */
static bool wait_for_seat(int seat)
{
    waiting_seat = seat;
    return run_until(seat_decides_now, 5000);
}

/* The bot's choice for seat in the latest hand, as a person's move to send. */
static json_t *a_legal_move(int seat) { return r->game->bot_action(latest_hand(r), seat); }

/* ---- Tien Gow: stored before shown ---- */

START_TEST(test_every_action_event_is_sent_after_its_action_is_stored)
{
    open_table(&game_tiengow, 1, 30);
    start();
    /* the human's turns are played by hand, the bots' by themselves: one whole hand */
    for (int moves = 0; moves < 64 && hand_is_on(); moves++) {
        if (!wait_for_seat(0))
            break;
        json_t *move = a_legal_move(0);
        char msg[GAME_MESSAGE_SIZE];
        ck_assert_ptr_null(room_act(r, &players[0], move, NULL, msg, sizeof msg));
        json_decref(move);
    }
    int actions = 0;
    for (int i = 0; i < n_log; i++) {
        if (log_[i].p != &players[0] || kind_of(log_[i].frame) == NULL || strcmp(kind_of(log_[i].frame), "action") != 0)
            continue;
        actions++;
        ck_assert_msg(log_[i].actions_stored >= actions, "action event %d was sent with %lld actions stored", actions,
                      (long long)log_[i].actions_stored);
    }
    ck_assert_int_gt(actions, 4);
}
END_TEST

START_TEST(test_a_move_whose_write_fails_is_never_shown)
{
    open_table(&game_tiengow, 1, 30);
    start();
    ck_assert(wait_for_seat(0));
    int from = n_log;
    int64_t stored = store_memory_actions_stored(st);
    store_memory_fail(st, STORE_KIND_ACTION_APPEND, 1, STORE_FULL);
    json_t *move = a_legal_move(0);
    char msg[GAME_MESSAGE_SIZE];
    ck_assert_ptr_null(room_act(r, &players[0], move, an_id(5), msg, sizeof msg));
    json_decref(move);
    run_for(10); /* the answer comes; the retry (20 ms) has not */
    ck_assert_int_eq(count_frames(NULL, "event", "action", from), 0);
    ck_assert_int_eq(count_frames(&players[0], "event", "paused", from), 1);
    const json_t *error = last_frame(&players[0], "error", NULL);
    ck_assert_ptr_nonnull(error);
    ck_assert_str_eq(json_string_value(json_object_get(error, "code")), "paused");
    ck_assert_int_eq(store_memory_actions_stored(st), stored);
    ck_assert(room_is_paused(r));
    /* paused: a move is refused and changes nothing */
    move = a_legal_move(0);
    ck_assert_ptr_nonnull(room_act(r, &players[0], move, NULL, msg, sizeof msg));
    json_decref(move);
    ck_assert_int_eq(store_memory_actions_stored(st), stored);
    /* it resumes, and the same seat decides again */
    ck_assert(wait_for_seat(0));
    ck_assert_int_eq(count_frames(&players[0], "event", "resumed", from), 1);
    move = a_legal_move(0);
    ck_assert_ptr_null(room_act(r, &players[0], move, NULL, msg, sizeof msg));
    json_decref(move);
    ck_assert(run_until(hand_is_on, 1000));
    run_for(5);
    ck_assert_int_ge(count_frames(&players[0], "event", "action", from), 1);
}
END_TEST

START_TEST(test_two_quick_moves_of_one_seat_store_and_show_only_the_first)
{
    open_table(&game_tiengow, 1, 30);
    start();
    ck_assert(wait_for_seat(0));
    store_memory_hold(st, true);
    int from = n_log;
    int64_t stored = store_memory_actions_stored(st);
    char msg[GAME_MESSAGE_SIZE];
    json_t *move = a_legal_move(0);
    ck_assert_ptr_null(room_act(r, &players[0], move, an_id(1), msg, sizeof msg));
    /* the same move again is checked against the hand with the first made (queued, not busy):
     * it is no longer seat 0's turn */
    const char *code = room_act(r, &players[0], move, an_id(2), msg, sizeof msg);
    json_decref(move);
    ck_assert_ptr_nonnull(code);
    ck_assert_str_eq(code, "not_your_turn");
    run_for(5);
    ck_assert_int_eq(count_frames(NULL, "event", "action", from), 0); /* held: nothing shown yet */
    store_memory_hold(st, false);
    store_memory_release(st, SIZE_MAX);
    run_for(5);
    ck_assert_int_gt(store_memory_actions_stored(st), stored);
    ck_assert_int_ge(count_frames(&players[0], "event", "action", from), 1);
    /* the first action event is seat 0's, and it was answered ok with id 1 after it */
    bool seen_event = false, ok_after = false;
    for (int i = from; i < n_log; i++) {
        if (log_[i].p != &players[0])
            continue;
        if (!seen_event && kind_of(log_[i].frame) && strcmp(kind_of(log_[i].frame), "action") == 0) {
            ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(log_[i].frame, "event"), "seat")), 0);
            seen_event = true;
        }
        if (strcmp(type_of(log_[i].frame), "ok") == 0) {
            ck_assert(seen_event);
            ck_assert_int_eq(json_integer_value(json_object_get(log_[i].frame, "id")), 1);
            ok_after = true;
        }
    }
    ck_assert(ok_after);
}
END_TEST

START_TEST(test_a_seat_freed_mid_write_is_played_by_the_bot_and_its_leaver_is_not_answered)
{
    open_table(&game_tiengow, 2, 30);
    start();
    int seat = -1;
    for (int tries = 0; tries < 200 && seat < 0; tries++) {
        int s = seat_deciding_settled();
        if (s == 0 || s == 1)
            seat = s;
        else
            run_for(2);
    }
    ck_assert_int_ge(seat, 0);
    player *mover = &players[seat];
    store_memory_hold(st, true);
    json_t *move = a_legal_move(seat);
    char msg[GAME_MESSAGE_SIZE];
    ck_assert_ptr_null(room_act(r, mover, move, an_id(9), msg, sizeof msg));
    json_decref(move);
    ck_assert_ptr_null(room_leave(r, mover, msg, sizeof msg));
    int from = n_log;
    store_memory_hold(st, false);
    store_memory_release(st, SIZE_MAX);
    run_for(20);
    for (int i = from; i < n_log; i++)
        ck_assert_msg(log_[i].p != mover, "the player who left was sent a %s", type_of(log_[i].frame));
    ck_assert(r->seats[seat].leaving && r->seats[seat].bot);
    /* the bot plays the seat: the hand goes on past it */
    int other = 1 - seat;
    ck_assert_int_ge(count_frames(&players[other], "event", "action", from), 1);
}
END_TEST

/* Seat 0's player drops: the bot covers the seat, and the table plays on (a person is seated). */
static void seat_zero_drops(void)
{
    char msg[GAME_MESSAGE_SIZE];
    if (!room_has_member(r, &players[1])) /* someone watches, to see the hands */
        ck_assert_ptr_null(room_join(r, &players[1], -1, NULL, msg, sizeof msg));
    players[0].client = NULL;
    room_player_disconnected(r, &players[0]);
}

static bool hand_over_seen(void) { return count_frames(&players[1], "event", "hand_over", 0) >= 2; }

START_TEST(test_running_scores_are_the_sums_of_the_stored_ledger)
{
    open_table(&game_tiengow, 1, 30);
    start();
    seat_zero_drops();
    ck_assert(run_until(hand_over_seen, 20000));
    const json_t *over = last_frame(&players[1], "event", "hand_over");
    const json_t *scores = json_object_get(json_object_get(over, "event"), "scores");
    for (int s = 0; s < GAME_SEATS; s++)
        ck_assert_int_eq(json_integer_value(json_array_get(scores, (size_t)s)),
                         store_memory_ledger_sum(st, room_table_id(r), s));
    int64_t total = 0;
    for (int s = 0; s < GAME_SEATS; s++)
        total += r->scores[s];
    ck_assert_int_eq(total, 0);
}
END_TEST

START_TEST(test_seat_left_carries_each_members_view)
{
    open_table(&game_tiengow, 2, 30);
    int from = n_log;
    char msg[GAME_MESSAGE_SIZE];
    ck_assert_ptr_null(room_leave_seat(r, &players[1], msg, sizeof msg));
    const json_t *left = last_frame(&players[0], "event", "seat_left");
    ck_assert_ptr_nonnull(left);
    ck_assert_int_ge(count_frames(&players[0], "event", "seat_left", from), 1);
    ck_assert_msg(json_object_get(left, "view") != NULL, "seat_left came without the member's view");
}
END_TEST

/* ---- Scores, the bank and a hand's result follow players, not seats ---- */

static bool watcher_saw_hand_over(void) { return count_frames(&players[2], "event", "hand_over", 0) >= 1; }

static int64_t seat_score_on_wire(const player *p, int seat)
{
    const json_t *snap = last_frame(p, "snapshot", NULL);
    return json_integer_value(json_array_get(json_object_get(json_object_get(snap, "info"), "scores"), (size_t)seat));
}

START_TEST(test_a_seat_left_mid_hand_keeps_its_result_and_score_with_the_leaver_and_a_newcomer_starts_at_0)
{
    open_table(&game_tiengow, 2, 30);
    start();
    char msg[GAME_MESSAGE_SIZE];
    ck_assert_ptr_null(room_join(r, &players[2], -1, NULL, msg, sizeof msg)); /* watches */
    players[0].client = NULL; /* the bot covers seat 0 too, so the hand plays itself */
    room_player_disconnected(r, &players[0]);
    ck_assert_ptr_null(room_leave(r, &players[1], msg, sizeof msg)); /* P1 leaves mid-hand */
    ck_assert(run_until(watcher_saw_hand_over, 20000));
    const int64_t won = store_memory_ledger_sum(st, room_table_id(r), 1); /* P1's rows: the ledger's truth */

    /* the result names P1, who played the hand, not the bot that finished it nor an empty seat */
    const json_t *over = json_object_get(last_frame(&players[2], "event", "hand_over"), "event");
    const json_t *played = json_object_get(over, "players");
    const json_t *who = json_array_get(played, 1);
    char ref[REF_SIZE];
    ck_assert_str_eq(json_string_value(json_object_get(who, "player")), player_ref(players[1].id, ref));
    ck_assert_str_eq(json_string_value(json_object_get(who, "name")), "P1");
    ck_assert(json_is_false(json_object_get(who, "bot")));
    ck_assert(json_is_true(json_object_get(json_array_get(played, 2), "bot")));
    ck_assert(json_is_null(json_object_get(json_array_get(played, 2), "player")));

    /* the freed seat has no score; the watcher who sits there starts at 0, not at P1's */
    ck_assert_ptr_null(r->seats[1].p);
    ck_assert(!r->seats[1].bot);
    ck_assert_int_eq(r->scores[1], 0);
    ck_assert_ptr_null(room_take_seat(r, &players[2], 1, msg, sizeof msg));
    ck_assert_int_eq(r->scores[1], 0);
    ck_assert_ptr_null(room_join(r, &players[3], -1, NULL, msg, sizeof msg));
    ck_assert_int_eq(seat_score_on_wire(&players[3], 1), 0);

    /* P1 comes back, to another seat: their own score comes with them */
    ck_assert_ptr_null(room_remove_bot(r, &players[0], 3, msg, sizeof msg));
    ck_assert_ptr_null(room_join(r, &players[1], 3, NULL, msg, sizeof msg));
    ck_assert_int_eq(r->scores[3], won);
    ck_assert_int_eq(seat_score_on_wire(&players[1], 3), won);
    ck_assert_int_eq(r->scores[1], 0);
    /* and the snapshot names who played the last hand */
    const json_t *hp = json_object_get(json_object_get(last_frame(&players[1], "snapshot", NULL), "info"), "hand_players");
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(hp, 1), "name")), "P1");
}
END_TEST

static bool hand_over_to_p0(void) { return count_frames(&players[0], "event", "hand_over", 0) >= 1; }

/* Plays a hand with P0 connected (its turns played here) and P1-P3 covered by the bot. */
static void play_one_hand_of_four(void)
{
    open_table(&game_tiengow, 4, 30);
    r->env.next_hand_ms = 60000; /* the pause between hands lasts while the test looks */
    start();
    for (int i = 1; i < 4; i++) {
        players[i].client = NULL;
        room_player_disconnected(r, &players[i]);
    }
    for (int moves = 0; moves < 64 && !hand_over_to_p0(); moves++) {
        if (!wait_for_seat(0))
            break;
        json_t *move = a_legal_move(0);
        char msg[GAME_MESSAGE_SIZE];
        ck_assert_ptr_null(room_act(r, &players[0], move, NULL, msg, sizeof msg));
        json_decref(move);
    }
    ck_assert(run_until(hand_over_to_p0, 20000));
}

START_TEST(test_the_bankers_player_leaving_draws_a_new_bank_and_anyone_elses_does_not)
{
    play_one_hand_of_four();
    int banker = (int)json_integer_value(json_object_get(r->game_state, "banker"));
    int other = (banker + 1) % GAME_SEATS;
    char msg[GAME_MESSAGE_SIZE];
    int from = n_log;
    ck_assert_ptr_null(room_leave_seat(r, &players[other], msg, sizeof msg));
    ck_assert_int_eq(count_frames(&players[0], "event", "bank", from), 0);
    ck_assert_int_eq(json_integer_value(json_object_get(r->game_state, "banker")), banker);
    from = n_log;
    ck_assert_ptr_null(room_leave_seat(r, &players[banker], msg, sizeof msg));
    ck_assert_int_eq(count_frames(&players[0], "event", "bank", from), 1);
    const json_t *ev = json_object_get(last_frame(&players[0], "event", "bank"), "event");
    ck_assert(json_equal(json_object_get(ev, "game_state"), r->game_state));
    /* a fresh bank: Tien Gow's first multiplier */
    ck_assert_int_eq(json_integer_value(json_object_get(r->game_state, "multiplier")), 2);
}
END_TEST

START_TEST(test_a_seated_player_whose_page_left_the_table_is_shown_away_not_online)
{
    open_table(&game_tiengow, 2, 30);
    char msg[GAME_MESSAGE_SIZE];
    int from = n_log;
    ck_assert_ptr_null(room_presence(r, &players[1], false, msg, sizeof msg));
    const json_t *ev = last_frame(&players[0], "event", "connection");
    ck_assert_ptr_nonnull(ev);
    ck_assert(json_is_true(json_object_get(json_object_get(ev, "event"), "away")));
    ck_assert(json_is_true(json_object_get(json_object_get(ev, "event"), "connected")));
    const json_t *seat1 = json_array_get(json_object_get(ev, "seats"), 1);
    ck_assert(json_is_true(json_object_get(seat1, "away")));
    ck_assert(json_is_false(json_object_get(json_array_get(json_object_get(ev, "seats"), 0), "away")));
    /* saying it again changes nothing and tells nobody */
    int events = count_frames(&players[0], "event", "connection", from);
    ck_assert_ptr_null(room_presence(r, &players[1], false, msg, sizeof msg));
    ck_assert_int_eq(count_frames(&players[0], "event", "connection", from), events);
    /* back at the table's page by joining again */
    ck_assert_ptr_null(room_join(r, &players[1], -1, NULL, msg, sizeof msg));
    ev = last_frame(&players[0], "event", "connection");
    ck_assert(json_is_false(json_object_get(json_object_get(ev, "event"), "away")));
    ck_assert(json_is_false(json_object_get(json_array_get(json_object_get(ev, "seats"), 1), "away")));
    /* someone not at the table cannot say anything */
    ck_assert_str_eq(room_presence(r, &players[3], false, msg, sizeof msg), "not_at_table");
    ck_assert_int_eq(room_seat_of(r, &players[1]), 1);
    ck_assert(!room_seat_deciding(r, 1)); /* no hand on */
}
END_TEST

START_TEST(test_a_restored_table_gives_a_returning_player_their_own_score_and_a_newcomer_0)
{
    char msg[GAME_MESSAGE_SIZE];
    json_t *options = game_tiengow.options_parse(NULL, msg, sizeof msg);
    json_t *state = game_tiengow.table_state_new(options, 1);
    store_player_score kept[] = {{players[0].id, 5, 3}, {players[1].id, -7, 3}, {players[3].id, 2, 1}};
    store_open_table t = {.table = {.id = 1, .options = options, .game_state = state, .hands_played = 3, .turn_seconds = 30},
                          .scores = {5, 0, 0, 0},
                          .player_scores = kept,
                          .n_player_scores = 3};
    snprintf(t.table.game, sizeof t.table.game, "tiengow");
    snprintf(t.table.code, sizeof t.table.code, "ROOM42");
    snprintf(t.table.state, sizeof t.table.state, "waiting");
    t.table.seats[0].player_id = players[0].id;
    t.table.seats[2].bot = true;
    t.table.seats[3].bot = true;
    player *seated[GAME_SEATS] = {&players[0], NULL, NULL, NULL};
    room_env env = env_with(NULL);
    r = room_restore(&env, &game_tiengow, &t, seated, 7, msg, sizeof msg);
    json_decref(options);
    json_decref(state);
    ck_assert_ptr_nonnull(r);
    ck_assert_int_eq(r->scores[0], 5);
    ck_assert_ptr_null(room_join(r, &players[1], 1, NULL, msg, sizeof msg)); /* back after the restart */
    ck_assert_int_eq(r->scores[1], -7);
    ck_assert_ptr_null(room_leave_seat(r, &players[1], msg, sizeof msg));
    ck_assert_int_eq(r->scores[1], 0);
    ck_assert_ptr_null(room_join(r, &players[2], -1, NULL, msg, sizeof msg)); /* never played here */
    ck_assert_ptr_null(room_take_seat(r, &players[2], 1, msg, sizeof msg));
    ck_assert_int_eq(r->scores[1], 0);
}
END_TEST

/* ---- The toy game: several seats deciding at once ---- */

static bool toy_in_window(void)
{
    game_decision owed[GAME_SEATS];
    return hand_settled(r) && r->game->decisions(r->hand, owed) >= 2;
}

START_TEST(test_simultaneous_deciders_each_get_a_clock_and_a_private_decision_reaches_nobody_else)
{
    open_table(&toy_game, 4, 30);
    start();
    ck_assert(run_until(toy_in_window, 2000));
    game_decision owed[GAME_SEATS];
    int n = r->game->decisions(r->hand, owed);
    ck_assert_int_ge(n, 2);
    json_t *deciding_before = room_deciding_json(r);
    ck_assert_int_eq(json_array_size(deciding_before), (size_t)n);
    for (size_t i = 0; i < json_array_size(deciding_before); i++)
        ck_assert(json_is_integer(json_object_get(json_array_get(deciding_before, i), "ms_left")));
    int seat = owed[0].seat;
    int from = n_log;
    char msg[GAME_MESSAGE_SIZE];
    json_t *move = a_legal_move(seat);
    ck_assert_ptr_nonnull(move);
    ck_assert_ptr_null(room_act(r, &players[seat], move, an_id(3), msg, sizeof msg));
    json_decref(move);
    run_for(5);
    bool private = r->game->last_event(r->hand) == NULL;
    if (private) {
        for (int i = from; i < n_log; i++)
            ck_assert_msg(log_[i].p == &players[seat], "a private decision of seat %d reached seat %d", seat,
                          (int)(log_[i].p - players));
        ck_assert_ptr_nonnull(last_frame(&players[seat], "view", NULL));
        json_t *deciding_after = room_deciding_json(r);
        ck_assert_int_eq(json_array_size(deciding_after), json_array_size(deciding_before));
        json_decref(deciding_after);
    }
    json_decref(deciding_before);
}
END_TEST

/* The first person's seat that owes a decision now, or -1. */
static int a_person_deciding(void)
{
    game_decision owed[GAME_SEATS];
    int n = hand_settled(r) ? r->game->decisions(r->hand, owed) : 0;
    return n > 0 ? owed[0].seat : -1;
}

static json_int_t ms_left_of(int seat)
{
    json_t *deciding = room_deciding_json(r);
    json_int_t left = -1;
    for (size_t i = 0; i < json_array_size(deciding); i++)
        if (json_integer_value(json_object_get(json_array_get(deciding, i), "seat")) == seat)
            left = json_integer_value(json_object_get(json_array_get(deciding, i), "ms_left"));
    json_decref(deciding);
    return left;
}

START_TEST(test_dropping_and_coming_back_never_lengthens_a_decision)
{
    open_table(&toy_game, 4, 30);
    start();
    int seat = a_person_deciding();
    ck_assert_int_ge(seat, 0);
    const json_int_t before = ms_left_of(seat);
    ck_assert_int_gt(before, 10000);
    run_for(400);
    players[seat].client = NULL; /* a reload: the connection drops and a new one comes back */
    room_player_disconnected(r, &players[seat]);
    players[seat].client = (struct client *)&fake_client;
    room_player_connected(r, &players[seat], NULL);
    ck_assert(room_seat_deciding(r, seat));
    const json_int_t after = ms_left_of(seat);
    ck_assert_msg(after >= 0 && after <= before - 300, "%lld ms left after a reload, %lld before",
                  (long long)after, (long long)before);
}
END_TEST

static bool toy_hands_done(void) { return room_hands_played(r) >= 3 && r->state == ROOM_BETWEEN_HANDS; }

START_TEST(test_a_toy_table_plays_hands_through_store_recovery_and_history)
{
    open_table(&toy_game, 1, 30);
    start();
    seat_zero_drops();
    ck_assert(run_until(toy_hands_done, 20000));
    char msg[GAME_MESSAGE_SIZE];
    /* recovery: the store's open table reopens with the same game state and scores */
    store_recovery *rec = NULL;
    store_error error;
    ck_assert(store_recover(st, &rec, &error));
    ck_assert_uint_eq(rec->n_tables, 1);
    const store_open_table *t = &rec->tables[0];
    ck_assert_str_eq(t->table.game, "toy");
    ck_assert(json_equal(t->table.game_state, r->game_state));
    for (int s = 0; s < GAME_SEATS; s++)
        ck_assert_int_eq(t->scores[s], r->scores[s]);
    player *seated[GAME_SEATS] = {0};
    room_env env = env_with(st);
    room *again = room_restore(&env, &toy_game, t, seated, 9, msg, sizeof msg);
    ck_assert_msg(again != NULL, "%s", msg);
    ck_assert(json_equal(again->game_state, r->game_state));
    room_destroy(again);
    store_recovery_free(rec);

    /* history: hand 1 replayed for the seated player and for someone else, alike: the hand is
     * over, so every frame is the open view (each seat's secret), and a decision kept private
     * while its window was open has no frame for anyone */
    const store_memory_hand *kept = store_memory_hand_at(st, store_memory_hand_id(st, room_table_id(r), 1));
    ck_assert_ptr_nonnull(kept);
    ck_assert_ptr_nonnull(kept->result);
    store_hand hand = {.id = kept->id, .number = kept->number, .seed = kept->seed, .deal = kept->deal,
                       .game_state = kept->game_state, .actions = kept->actions, .n_actions = kept->n_actions};
    store_hand_summary summary = {.id = kept->id, .number = kept->number, .game_state = kept->game_state};
    summary.player_ids[0] = players[0].id;
    game_logged_action *log = calloc(kept->n_actions + 1, sizeof *log);
    for (size_t i = 0; i < kept->n_actions; i++)
        log[i] = (game_logged_action){.seat = kept->actions[i].seat, .action = kept->actions[i].action};
    size_t public_actions = 0, seat0_private = 0;
    game_hand *g = r->game->hand_new(r->options, kept->seed, kept->game_state);
    for (size_t i = 0; i < kept->n_actions; i++) {
        ck_assert(game_replay_actions(r->game, g, &log[i], 1, NULL, NULL, NULL));
        json_t *event = r->game->last_event(g);
        public_actions += event != NULL;
        seat0_private += event == NULL && log[i].seat == 0;
        json_decref(event);
    }
    r->game->hand_free(g);
    free(log);
    ck_assert_uint_gt(kept->n_actions, public_actions); /* the toy game has private decisions */
    json_t *as_seat = history_replay_json(&toy_game, r->options, "ROOM42", &hand, &summary, players[0].id, msg, sizeof msg);
    json_t *as_guest = history_replay_json(&toy_game, r->options, "ROOM42", &hand, &summary, players[3].id, msg, sizeof msg);
    ck_assert_msg(as_seat != NULL && as_guest != NULL, "%s", msg);
    (void)seat0_private;
    ck_assert_uint_eq(json_array_size(json_object_get(as_seat, "frames")), 1 + public_actions);
    ck_assert(json_equal(json_object_get(as_seat, "frames"), json_object_get(as_guest, "frames")));
    size_t f;
    json_t *frame;
    json_array_foreach(json_object_get(as_guest, "frames"), f, frame)
        ck_assert_uint_eq(json_array_size(json_object_get(json_object_get(frame, "view"), "hands")), 4);
    json_decref(as_seat);
    json_decref(as_guest);
}
END_TEST

/* ---- The host's controls: hand over hosting, options, hold, end, watchers' chat ---- */

static json_t *options_of(const char *text)
{
    json_t *o = json_loads(text, 0, NULL);
    ck_assert_ptr_nonnull(o);
    return o;
}

static const char *ref_of(const player *p, char buf[REF_SIZE]) { return player_ref(p->id, buf); }

START_TEST(test_set_host_hands_hosting_to_a_member_present_and_refuses_anyone_else)
{
    open_table(&game_tiengow, 2, 30);
    char msg[GAME_MESSAGE_SIZE], ref[REF_SIZE];
    ck_assert_ptr_null(room_join(r, &players[2], -1, NULL, msg, sizeof msg)); /* a watcher */
    int from = n_log;
    ck_assert_str_eq(room_set_host(r, &players[1], players[2].id, msg, sizeof msg), "not_host");
    ck_assert_str_eq(room_set_host(r, &players[0], players[3].id, msg, sizeof msg), "not_at_table"); /* no member */
    ck_assert_str_eq(room_set_host(r, &players[0], players[0].id, msg, sizeof msg), "bad_request");
    players[1].client = NULL; /* seated, but not connected: not present */
    room_player_disconnected(r, &players[1]);
    ck_assert_str_eq(room_set_host(r, &players[0], players[1].id, msg, sizeof msg), "not_at_table");
    ck_assert(room_is_host(r, &players[0]));
    ck_assert_int_eq(count_frames(&players[0], "event", "host", from), 0);
    ck_assert_ptr_null(room_set_host(r, &players[0], players[2].id, msg, sizeof msg));
    ck_assert(room_is_host(r, &players[2]));
    const json_t *ev = json_object_get(last_frame(&players[2], "event", "host"), "event");
    ck_assert_str_eq(json_string_value(json_object_get(ev, "player")), ref_of(&players[2], ref));
    ck_assert_str_eq(json_string_value(json_object_get(ev, "name")), "P2");
    /* the old host is an ordinary member now */
    ck_assert_str_eq(room_start(r, &players[0], msg, sizeof msg), "not_host");
    ck_assert_str_eq(room_hold(r, &players[0], true, msg, sizeof msg), "not_host");
}
END_TEST

/* Plays the hand on with P0's turns played here and the others covered by the bot. */
static void play_hand_to_end(int hands_over_before)
{
    for (int moves = 0; moves < 64 && count_frames(&players[0], "event", "hand_over", 0) <= hands_over_before; moves++) {
        if (!wait_for_seat(0))
            break;
        json_t *move = a_legal_move(0);
        char msg[GAME_MESSAGE_SIZE];
        ck_assert_ptr_null(room_act(r, &players[0], move, NULL, msg, sizeof msg));
        json_decref(move);
    }
    for (int i = 0; i < 2000 && count_frames(&players[0], "event", "hand_over", 0) <= hands_over_before; i++)
        run_for(5);
    ck_assert_int_gt(count_frames(&players[0], "event", "hand_over", 0), hands_over_before);
}

static bool table_write_done(void) { return !r->table_saving && !r->table_dirty; }

/* The first hand of a new table waits for the table's first save (it needs the table's id): from
 * the host's start until that hand begins, it counts as begun for everything that must wait. */
START_TEST(test_a_first_hand_waiting_for_its_tables_first_save_counts_as_begun)
{
    open_table(&game_tiengow, 1, 30);
    char msg[GAME_MESSAGE_SIZE];
    ck_assert_ptr_null(room_start(r, &players[0], msg, sizeof msg));
    ck_assert(!table_saved()); /* the save is on its way: nothing has run yet */
    json_t *stake5 = options_of("{\"stake\":5}");
    ck_assert_str_eq(room_set_options(r, &players[0], stake5, msg, sizeof msg), "hand_in_progress");
    ck_assert_str_eq(room_end(r, &players[0], msg, sizeof msg), "hand_in_progress");
    ck_assert_str_eq(room_start(r, &players[0], msg, sizeof msg), "hand_in_progress");
    ck_assert_str_eq(room_leave_seat(r, &players[0], msg, sizeof msg), "hand_in_progress");
    json_decref(stake5);
    ck_assert(run_until(hand_is_on, 2000));
    ck_assert_int_eq(json_integer_value(json_object_get(r->options, "stake")), 1); /* the hand begun under its rules */
    ck_assert_int_eq((int)r->hands_played, 1); /* one hand: the second start was refused */
}
END_TEST

START_TEST(test_set_options_between_hands_is_checked_by_the_game_and_each_hand_keeps_its_own)
{
    open_table(&game_tiengow, 1, 30);
    r->env.next_hand_ms = 60000;
    char msg[GAME_MESSAGE_SIZE];
    json_t *before = json_deep_copy(r->options);
    int from = n_log;
    json_t *bad[] = {options_of("{\"bogus\":1}"), options_of("{\"stake\":\"three\"}"), options_of("{\"stake\":0}"),
                     options_of("{\"rotation\":\"sideways\"}")};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_str_eq(room_set_options(r, &players[0], bad[i], msg, sizeof msg), "bad_options");
        ck_assert_msg(strlen(msg) > 0, "a refusal says why");
        json_decref(bad[i]);
    }
    json_t *stake2 = options_of("{\"stake\":2}");
    ck_assert_str_eq(room_set_options(r, &players[1], stake2, msg, sizeof msg), "not_at_table");
    ck_assert(json_equal(r->options, before));
    ck_assert_int_eq(count_frames(NULL, "event", "options", from), 0);
    ck_assert_ptr_null(room_set_options(r, &players[0], stake2, msg, sizeof msg));
    const json_t *ev = json_object_get(last_frame(&players[0], "event", "options"), "event");
    ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(ev, "options"), "stake")), 2);
    ck_assert_uint_eq(json_array_size(json_object_get(ev, "changed")), 1);
    ck_assert_str_eq(json_string_value(json_array_get(json_object_get(ev, "changed"), 0)), "stake");
    /* the same options again: nothing to tell */
    from = n_log;
    ck_assert_ptr_null(room_set_options(r, &players[0], stake2, msg, sizeof msg));
    ck_assert_int_eq(count_frames(NULL, "event", "options", from), 0);
    start();
    json_t *stake5 = options_of("{\"stake\":5}");
    ck_assert_str_eq(room_set_options(r, &players[0], stake5, msg, sizeof msg), "hand_in_progress");
    ck_assert_int_eq(json_integer_value(json_object_get(r->options, "stake")), 2);
    play_hand_to_end(0);
    ck_assert_ptr_null(room_set_options(r, &players[0], stake5, msg, sizeof msg));
    ck_assert(run_until(table_write_done, 2000));
    /* the table is stored with the new options; hand 1 keeps the ones it was played under */
    ck_assert_int_eq(json_integer_value(json_object_get(store_memory_table_at(st, room_table_id(r))->options, "stake")), 5);
    const store_memory_hand *h1 = store_memory_hand_at(st, store_memory_hand_id(st, room_table_id(r), 1));
    ck_assert_ptr_nonnull(h1->options);
    ck_assert_int_eq(json_integer_value(json_object_get(h1->options, "stake")), 2);
    /* its replay under its own options gives its stored result; under the table's new ones it would not */
    game_logged_action *log = calloc(h1->n_actions + 1, sizeof *log);
    for (size_t i = 0; i < h1->n_actions; i++)
        log[i] = (game_logged_action){.seat = h1->actions[i].seat, .action = h1->actions[i].action};
    game_replay_error err;
    game_hand *own = game_replay(r->game, h1->options, h1->seed, h1->game_state, log, h1->n_actions, NULL, NULL, &err);
    game_hand *newer = game_replay(r->game, r->options, h1->seed, h1->game_state, log, h1->n_actions, NULL, NULL, &err);
    free(log);
    ck_assert_ptr_nonnull(own);
    json_t *own_result = r->game->result_json(own), *newer_result = newer ? r->game->result_json(newer) : NULL;
    json_t *stored = json_deep_copy(h1->result);
    json_object_del(stored, GAME_RESULT_PLAYERS_KEY);
    ck_assert(json_equal(own_result, stored));
    ck_assert(newer_result == NULL || !json_equal(newer_result, stored));
    json_decref(own_result);
    json_decref(newer_result);
    json_decref(stored);
    r->game->hand_free(own);
    if (newer != NULL)
        r->game->hand_free(newer);
    /* the next hand is played under the new ones */
    ck_assert_ptr_null(room_start(r, &players[0], msg, sizeof msg));
    ck_assert(run_until(hand_is_on, 2000));
    const store_memory_hand *h2 = store_memory_hand_at(st, store_memory_hand_id(st, room_table_id(r), 2));
    ck_assert_int_eq(json_integer_value(json_object_get(h2->options, "stake")), 5);
    json_decref(stake2);
    json_decref(stake5);
    json_decref(before);
}
END_TEST

static bool second_hand_on(void) { return room_hands_played(r) >= 2 && hand_is_on(); }

START_TEST(test_a_held_table_starts_no_next_hand_until_the_host_resumes)
{
    open_table(&game_tiengow, 1, 30);
    r->env.next_hand_ms = 30;
    char msg[GAME_MESSAGE_SIZE];
    start();
    ck_assert_str_eq(room_hold(r, &players[1], true, msg, sizeof msg), "not_at_table");
    ck_assert_ptr_null(room_hold(r, &players[0], true, msg, sizeof msg)); /* during the hand: after it */
    ck_assert(json_is_true(json_object_get(json_object_get(last_frame(&players[0], "event", "held"), "event"), "held")));
    play_hand_to_end(0);
    ck_assert_ptr_null(room_ready(r, &players[0], msg, sizeof msg)); /* everyone ready: still held */
    run_for(200);
    ck_assert_uint_eq(room_hands_played(r), 1);
    ck_assert_int_eq(r->state, ROOM_BETWEEN_HANDS);
    ck_assert(!uv_is_active((uv_handle_t *)&r->next_hand_timer)); /* the countdown stopped */
    /* the snapshot says so, for a page that reloads */
    ck_assert_ptr_null(room_join(r, &players[0], -1, NULL, msg, sizeof msg));
    ck_assert(json_is_true(json_object_get(json_object_get(last_frame(&players[0], "snapshot", NULL), "info"), "held")));
    int from = n_log;
    ck_assert_ptr_null(room_hold(r, &players[0], true, msg, sizeof msg)); /* as it was: no event */
    ck_assert_int_eq(count_frames(NULL, "event", "held", from), 0);
    /* everyone said ready while held: resuming starts the next hand at once */
    ck_assert_ptr_null(room_hold(r, &players[0], false, msg, sizeof msg));
    const json_t *ev = json_object_get(last_frame(&players[0], "event", "held"), "event");
    ck_assert(json_is_false(json_object_get(ev, "held")));
    ck_assert_ptr_null(json_object_get(ev, "next_hand_ms"));
    ck_assert(run_until(second_hand_on, 3000));
    /* held again, and resumed with nobody ready: the pause between hands starts afresh */
    ck_assert_ptr_null(room_hold(r, &players[0], true, msg, sizeof msg));
    play_hand_to_end(1);
    run_for(100);
    ck_assert_uint_eq(room_hands_played(r), 2);
    ck_assert_ptr_null(room_hold(r, &players[0], false, msg, sizeof msg));
    ev = json_object_get(last_frame(&players[0], "event", "held"), "event");
    ck_assert_int_eq(json_integer_value(json_object_get(ev, "next_hand_ms")), 30);
    ck_assert_uint_eq(room_hands_played(r), 2); /* not at once */
    ck_assert(uv_is_active((uv_handle_t *)&r->next_hand_timer));
}
END_TEST

START_TEST(test_a_hold_asked_while_the_hands_start_is_being_stored_lets_that_hand_start)
{
    open_table(&game_tiengow, 1, 30);
    r->env.next_hand_ms = 30;
    char msg[GAME_MESSAGE_SIZE];
    ck_assert_ptr_null(room_start(r, &players[0], msg, sizeof msg)); /* the table's first save is on its way */
    ck_assert(!hand_is_on());
    ck_assert_ptr_null(room_hold(r, &players[0], true, msg, sizeof msg));
    ck_assert_msg(run_until(hand_is_on, 2000), "the hand asked for before the hold did not start");
    play_hand_to_end(0);
    run_for(200);
    ck_assert_uint_eq(room_hands_played(r), 1); /* and the hold applies after it */
}
END_TEST

START_TEST(test_end_table_between_hands_sends_the_final_scoreboard_and_closes_the_table)
{
    open_table(&game_tiengow, 2, 30);
    r->env.next_hand_ms = 60000;
    char msg[GAME_MESSAGE_SIZE], ref[REF_SIZE];
    players[1].client = NULL; /* P1's seat is played by the bot */
    room_player_disconnected(r, &players[1]);
    start();
    ck_assert_str_eq(room_end(r, &players[0], msg, sizeof msg), "hand_in_progress");
    ck_assert(!room_closed);
    play_hand_to_end(0);
    players[1].client = (struct client *)&fake_client;
    room_player_connected(r, &players[1], NULL);
    ck_assert_str_eq(room_end(r, &players[1], msg, sizeof msg), "not_host");
    ck_assert(!room_closed);
    int64_t p0_score = r->scores[0], p1_score = r->scores[1];
    ck_assert_ptr_null(room_end(r, &players[0], msg, sizeof msg));
    ck_assert(room_closed); /* the owner was told */
    for (int i = 0; i < 2; i++) {
        const json_t *ev = json_object_get(last_frame(&players[i], "event", "table_ended"), "event");
        ck_assert_ptr_nonnull(ev);
        ck_assert_int_eq(json_integer_value(json_object_get(ev, "hands")), 1);
        const json_t *board = json_object_get(ev, "scoreboard");
        ck_assert_uint_eq(json_array_size(board), 2); /* the two players; bots are not on it */
        for (size_t k = 0; k < 2; k++) {
            const json_t *row = json_array_get(board, k);
            bool is_p0 = strcmp(json_string_value(json_object_get(row, "player")), ref_of(&players[0], ref)) == 0;
            ck_assert_int_eq(json_integer_value(json_object_get(row, "score")), is_p0 ? p0_score : p1_score);
            ck_assert_int_eq(json_integer_value(json_object_get(row, "hands")), 1);
        }
        ck_assert_int_ge(json_integer_value(json_object_get(json_array_get(board, 0), "score")),
                         json_integer_value(json_object_get(json_array_get(board, 1), "score"))); /* best first */
        ck_assert_ptr_nonnull(last_frame(&players[i], "event", "closing"));
    }
    ck_assert_int_eq(room_get_state(r), ROOM_CLOSED);
    ck_assert_uint_eq(room_member_count(r), 0);
    ck_assert(run_until(table_write_done, 2000));
    ck_assert_str_eq(store_memory_table_at(st, room_table_id(r))->state, "closed");
}
END_TEST

START_TEST(test_a_table_restarted_mid_hand_counts_that_hand_for_the_sessions_scoreboard)
{
    open_table(&game_tiengow, 1, 30);
    r->env.next_hand_ms = 60000;
    char msg[GAME_MESSAGE_SIZE];
    start();
    play_hand_to_end(0);
    ck_assert_ptr_null(room_start(r, &players[0], msg, sizeof msg));
    ck_assert(run_until(second_hand_on, 2000));
    store_recovery *rec = NULL;
    store_error error;
    ck_assert(store_recover(st, &rec, &error));
    const store_open_table *t = &rec->tables[0];
    ck_assert_ptr_nonnull(t->hand); /* hand 2 is on */
    ck_assert_int_eq(t->player_scores[0].hands, 1); /* the ledger knows of hand 1 only */
    player *seated[GAME_SEATS] = {&players[0], NULL, NULL, NULL};
    room_env env = env_with(st);
    room_destroy(r);
    players[0] = (player){.id = players[0].id, .client = (struct client *)&fake_client};
    snprintf(players[0].name, sizeof players[0].name, "P0");
    r = room_restore(&env, &game_tiengow, t, seated, 9, msg, sizeof msg);
    ck_assert_msg(r != NULL, "%s", msg);
    store_recovery_free(rec);
    ck_assert_int_eq(r->n_played, 1);
    ck_assert_int_eq(r->played[0].player_id, players[0].id);
    ck_assert_int_eq(r->played[0].hands, 2);
    ck_assert_str_eq(r->played[0].name, "P0");
}
END_TEST

START_TEST(test_watchers_chat_can_be_turned_off_and_on_by_the_host_and_players_always_chat)
{
    open_table(&game_tiengow, 2, 30);
    char msg[GAME_MESSAGE_SIZE];
    ck_assert_ptr_null(room_join(r, &players[2], -1, NULL, msg, sizeof msg));
    ck_assert_ptr_null(room_chat(r, &players[2], "hello", msg, sizeof msg));
    ck_assert_str_eq(room_spectator_chat(r, &players[2], false, msg, sizeof msg), "not_host");
    ck_assert_str_eq(room_spectator_chat(r, &players[1], false, msg, sizeof msg), "not_host");
    ck_assert_ptr_null(room_spectator_chat(r, &players[0], false, msg, sizeof msg));
    ck_assert(json_is_false(
        json_object_get(json_object_get(last_frame(&players[2], "event", "spectator_chat"), "event"), "on")));
    int from = n_log;
    ck_assert_str_eq(room_chat(r, &players[2], "still here?", msg, sizeof msg), "chat_off");
    ck_assert_int_eq(count_frames(NULL, "event", "chat", from), 0); /* nothing was said */
    ck_assert_ptr_null(room_chat(r, &players[1], "seated", msg, sizeof msg));
    ck_assert_int_eq(count_frames(&players[2], "event", "chat", from), 1); /* the watcher still reads */
    ck_assert_ptr_null(room_join(r, &players[2], -1, NULL, msg, sizeof msg));
    ck_assert(json_is_false(
        json_object_get(json_object_get(last_frame(&players[2], "snapshot", NULL), "info"), "spectator_chat")));
    ck_assert_ptr_null(room_spectator_chat(r, &players[0], true, msg, sizeof msg));
    ck_assert_ptr_null(room_chat(r, &players[2], "back", msg, sizeof msg));
}
END_TEST

START_TEST(test_a_restarted_table_keeps_its_host_options_hold_and_watchers_chat)
{
    open_table(&game_tiengow, 2, 30);
    r->env.next_hand_ms = 60000;
    char msg[GAME_MESSAGE_SIZE];
    players[1].client = NULL;
    room_player_disconnected(r, &players[1]);
    start();
    play_hand_to_end(0);
    players[1].client = (struct client *)&fake_client;
    room_player_connected(r, &players[1], NULL);
    json_t *stake4 = options_of("{\"stake\":4,\"wen_zun\":true}");
    ck_assert_ptr_null(room_set_options(r, &players[0], stake4, msg, sizeof msg));
    ck_assert_ptr_null(room_hold(r, &players[0], true, msg, sizeof msg));
    ck_assert_ptr_null(room_spectator_chat(r, &players[0], false, msg, sizeof msg));
    ck_assert_ptr_null(room_set_host(r, &players[0], players[1].id, msg, sizeof msg));
    ck_assert(run_until(table_write_done, 2000));
    store_recovery *rec = NULL;
    store_error error;
    ck_assert(store_recover(st, &rec, &error));
    ck_assert_uint_eq(rec->n_tables, 1);
    const store_open_table *t = &rec->tables[0];
    ck_assert(json_equal(t->table.options, r->options));
    ck_assert_int_eq(t->table.host_player_id, players[1].id);
    ck_assert(t->table.held);
    ck_assert(t->table.spectator_chat_off);
    player *seated[GAME_SEATS] = {&players[0], &players[1], NULL, NULL};
    room_env env = env_with(st);
    room_destroy(r); /* the server stopped */
    r = NULL;
    for (int i = 0; i < 2; i++)
    {
        players[i] = (player){.id = players[i].id, .client = (struct client *)&fake_client};
        snprintf(players[i].name, sizeof players[i].name, "P%d", i);
    }
    r = room_restore(&env, &game_tiengow, t, seated, 9, msg, sizeof msg);
    ck_assert_msg(r != NULL, "%s", msg);
    store_recovery_free(rec);
    ck_assert(room_is_host(r, &players[1]));
    ck_assert(room_is_held(r));
    ck_assert(r->spectator_chat_off);
    ck_assert_int_eq(json_integer_value(json_object_get(r->options, "stake")), 4);
    ck_assert(!uv_is_active((uv_handle_t *)&r->next_hand_timer)); /* held: no hand starts by itself */
    run_for(100);
    ck_assert_uint_eq(room_hands_played(r), 1);
    /* the session's scoreboard still counts the hand played before the restart */
    ck_assert_ptr_null(room_end(r, &players[1], msg, sizeof msg));
    const json_t *board = json_object_get(json_object_get(last_frame(&players[0], "event", "table_ended"), "event"), "scoreboard");
    ck_assert_uint_eq(json_array_size(board), 2);
    for (size_t k = 0; k < 2; k++) {
        const json_t *row = json_array_get(board, k);
        ck_assert_int_eq(json_integer_value(json_object_get(row, "hands")), 1);
        bool p0 = json_integer_value(json_object_get(row, "score")) == r->scores[0] &&
                  strcmp(json_string_value(json_object_get(row, "name")), "P0") == 0;
        bool p1 = json_integer_value(json_object_get(row, "score")) == r->scores[1] &&
                  strcmp(json_string_value(json_object_get(row, "name")), "P1") == 0;
        ck_assert_msg(p0 || p1, "row %zu names nobody who played with their score", k);
    }
    json_decref(stake4);
}
END_TEST

Suite *room_suite(void)
{
    Suite *s = suite_create("room");
    TCase *tg = tcase_create("tiengow");
    tcase_add_checked_fixture(tg, setup, teardown);
    tcase_set_timeout(tg, 60);
    tcase_add_test(tg, test_every_action_event_is_sent_after_its_action_is_stored);
    tcase_add_test(tg, test_a_move_whose_write_fails_is_never_shown);
    tcase_add_test(tg, test_two_quick_moves_of_one_seat_store_and_show_only_the_first);
    tcase_add_test(tg, test_a_seat_freed_mid_write_is_played_by_the_bot_and_its_leaver_is_not_answered);
    tcase_add_test(tg, test_running_scores_are_the_sums_of_the_stored_ledger);
    tcase_add_test(tg, test_seat_left_carries_each_members_view);
    tcase_add_test(tg, test_a_seat_left_mid_hand_keeps_its_result_and_score_with_the_leaver_and_a_newcomer_starts_at_0);
    tcase_add_test(tg, test_the_bankers_player_leaving_draws_a_new_bank_and_anyone_elses_does_not);
    tcase_add_test(tg, test_a_seated_player_whose_page_left_the_table_is_shown_away_not_online);
    tcase_add_test(tg, test_a_restored_table_gives_a_returning_player_their_own_score_and_a_newcomer_0);
    suite_add_tcase(s, tg);
    TCase *host = tcase_create("host");
    tcase_add_checked_fixture(host, setup, teardown);
    tcase_set_timeout(host, 60);
    tcase_add_test(host, test_set_host_hands_hosting_to_a_member_present_and_refuses_anyone_else);
    tcase_add_test(host, test_a_first_hand_waiting_for_its_tables_first_save_counts_as_begun);
    tcase_add_test(host, test_set_options_between_hands_is_checked_by_the_game_and_each_hand_keeps_its_own);
    tcase_add_test(host, test_a_held_table_starts_no_next_hand_until_the_host_resumes);
    tcase_add_test(host, test_a_hold_asked_while_the_hands_start_is_being_stored_lets_that_hand_start);
    tcase_add_test(host, test_end_table_between_hands_sends_the_final_scoreboard_and_closes_the_table);
    tcase_add_test(host, test_watchers_chat_can_be_turned_off_and_on_by_the_host_and_players_always_chat);
    tcase_add_test(host, test_a_table_restarted_mid_hand_counts_that_hand_for_the_sessions_scoreboard);
    tcase_add_test(host, test_a_restarted_table_keeps_its_host_options_hold_and_watchers_chat);
    suite_add_tcase(s, host);
    TCase *toy = tcase_create("toy");
    tcase_add_checked_fixture(toy, setup, teardown);
    tcase_set_timeout(toy, 60);
    tcase_add_test(toy, test_simultaneous_deciders_each_get_a_clock_and_a_private_decision_reaches_nobody_else);
    tcase_add_test(toy, test_dropping_and_coming_back_never_lengthens_a_decision);
    tcase_add_test(toy, test_a_toy_table_plays_hands_through_store_recovery_and_history);
    suite_add_tcase(s, toy);
    return s;
}

int main(void)
{
    SRunner *runner = srunner_create(room_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
