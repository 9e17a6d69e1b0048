/*
 * profile — the `profile` request: asks the store for the player's profile (only their public
 * tables unless they ask for their own) and answers it as JSON.
 */
#include "profile.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static json_t *player_ref(int64_t id)
{
    char ref[24];
    snprintf(ref, sizeof ref, "p%" PRId64, id);
    return json_string(ref);
}

/* The next cursor: the last entry's when more follow, else null (the end). */
static json_t *next_cursor(bool more, int64_t last_cursor)
{
    return more ? json_integer((json_int_t)last_cursor) : json_null();
}

json_t *profile_json(const store_profile *p, bool self)
{
    json_t *games = json_array();
    for (size_t i = 0; i < p->n_games; i++)
        json_array_append_new(games, json_pack("{s:s, s:I, s:I}", "game", p->games[i].game, "hands",
                                               (json_int_t)p->games[i].hands, "net", (json_int_t)p->games[i].units));
    json_t *days = json_array();
    for (size_t i = 0; i < p->n_days; i++)
        json_array_append_new(days, json_pack("{s:I, s:I}", "at", (json_int_t)p->days[i].day_ms, "balance",
                                              (json_int_t)p->days[i].balance));
    json_t *tables = json_array();
    for (size_t i = 0; i < p->n_tables; i++) {
        const store_profile_table *t = &p->tables[i];
        if (!self && !t->is_public)
            continue; /* the store leaves them out already; a code must never slip through */
        json_array_append_new(tables, json_pack("{s:s, s:s, s:b, s:b, s:I, s:I, s:I}", "code", t->code, "game", t->game,
                                                "public", t->is_public, "closed", t->closed, "hands",
                                                (json_int_t)t->hands, "net", (json_int_t)t->units,
                                                "last_played_at", (json_int_t)t->last_at_ms));
    }
    json_t *hands = json_array();
    for (size_t i = 0; i < p->n_hands; i++) {
        const store_profile_hand *h = &p->hands[i];
        if (!self && !h->is_public)
            continue;
        json_array_append_new(hands, json_pack("{s:s, s:s, s:b, s:b, s:I, s:I, s:I}", "table", h->code, "game", h->game,
                                               "public", h->is_public, "closed", h->closed, "hand",
                                               (json_int_t)h->number, "net", (json_int_t)h->units, "at",
                                               (json_int_t)h->at_ms));
    }
    return json_pack("{s:s, s:{s:o, s:s, s:s, s:I, s:I}, s:b, s:I, s:o, s:{s:I, s:o}, s:o, s:o, s:o, s:o}", "type",
                     "profile", "player", "id", player_ref(p->player_id), "name", p->nickname, "kind",
                     p->is_account ? "account" : "guest", "since", (json_int_t)p->created_at_ms, "last_seen",
                     (json_int_t)p->last_seen_ms, "you", self, "balance", (json_int_t)p->balance, "games", games,
                     "series", "from", (json_int_t)p->balance_before, "days", days, "tables", tables, "tables_next",
                     next_cursor(p->more_tables, p->n_tables > 0 ? p->tables[p->n_tables - 1].cursor : 0), "hands",
                     hands, "hands_next",
                     next_cursor(p->more_hands, p->n_hands > 0 ? p->hands[p->n_hands - 1].cursor : 0));
}

static void send_reply(lobby_pending *w, json_t *reply)
{
    if (w->id != NULL)
        json_object_set(reply, "id", w->id);
    lobby_send_json(w->c, reply);
}

static void on_profile(void *ctx, const store_error *error, const store_profile *profile)
{
    lobby_pending *w = ctx;
    if (lobby_pending_end(w) && w->c->p != NULL) {
        const bool self = w->player_id == w->c->p->id;
        if (error->status == STORE_OK) {
            send_reply(w, profile_json(profile, self));
        } else if (error->status == STORE_NOT_FOUND && self) {
            /* a guest the store does not keep yet (it has played nowhere): a profile with nothing */
            store_profile empty = {.player_id = w->c->p->id};
            snprintf(empty.nickname, sizeof empty.nickname, "%s", w->c->p->name);
            send_reply(w, profile_json(&empty, true));
        } else if (error->status == STORE_NOT_FOUND) {
            lobby_send_error(w->l, w->c, w->id, PROTO_ERR_NO_SUCH_PLAYER, "No player has that id.");
        } else {
            lobby_send_store_error(w->l, w->c, w->id, error, "The profile cannot be read right now.");
        }
    }
    lobby_pending_free(w);
}

void profile_request(request *q)
{
    lobby *l = q->l;
    const proto_msg *m = q->m;
    if (l->store == NULL) {
        lobby_send_error(l, q->c, m->id, PROTO_ERR_NO_HISTORY, "This server keeps no records.");
        return;
    }
    lobby_pending *w = lobby_pending_begin(l, q->c, m->id);
    if (w == NULL)
        return;
    w->player_id = m->player;
    const store_profile_query query = {.player_id = m->player,
                                       .public_only = m->player != q->c->p->id,
                                       .tables_before = m->tables_before,
                                       .hands_before = m->hands_before,
                                       .limit = PROFILE_PAGE};
    if (!store_profile_get(l->store, &query, on_profile, w)) {
        if (lobby_pending_end(w))
            lobby_send_error(l, q->c, m->id, PROTO_ERR_UNAVAILABLE, "The server is stopping.");
        lobby_pending_free(w);
    }
}
