/*
 * game — what every game shares beyond its own game_ops: the wire names of the decision kinds
 * whether a seat owes a decision now, and the open view of a finished hand's replay.
 */
#include "game.h"

const char *game_decision_kind_name(game_decision_kind kind)
{
    switch (kind) {
    case GAME_DECISION_TURN: return "turn";
    case GAME_DECISION_CLAIM: return "claim";
    case GAME_DECISION_PRE_HAND: return "pre_hand";
    }
    return "turn"; /* not reached: every kind is listed above */
}

bool game_seat_decides(const game_ops *game, const game_hand *hand, int seat)
{
    game_decision decisions[GAME_SEATS];
    int n = game->decisions(hand, decisions);
    for (int i = 0; i < n; i++)
        if (decisions[i].seat == seat)
            return true;
    return false;
}

json_t *game_view_open(const game_ops *game, const game_hand *hand)
{
    json_t *view = game->view(hand, GAME_SPECTATOR);
    json_t *admin = game->view_admin(hand);
    json_t *hands = json_object_get(admin, "hands");
    if (view == NULL || !json_is_array(hands) || json_object_set(view, "hands", hands) != 0 ||
        (game->view_open_extra != NULL && game->view_open_extra(hand, view) != 0)) {
        json_decref(view);
        view = NULL;
    }
    json_decref(admin);
    return view;
}
