/*
 * mj_status — names and sentences of the Tianjin engine's refusals, one row each.
 */
#include "mj_status.h"

static const struct {
    const char *name;
    const char *message;
    bool impossible;
} ROWS[MJ_STATUS_COUNT] = {
    [MJ_OK] = {"ok", "Accepted.", false},
    [MJ_ERR_BAD_INPUT] = {"bad_input", "The engine was given values outside their ranges.", false},
    [MJ_ERR_TOO_MANY_OF_A_KIND] = {"too_many_of_a_kind",
                                   "The hand holds more than the four tiles there are of a kind.", true},
    [MJ_ERR_TOO_MANY_OF_INDICATOR] = {"too_many_of_indicator",
                                      "The hand holds more than three of the indicator's kind; the fourth is "
                                      "the indicator in the dead wall.",
                                      true},
    [MJ_ERR_WILD_IN_MELD] = {"wild_in_meld",
                             "A pung or exposed kong never holds a wild: wilds do not help to claim a discard.",
                             true},
    [MJ_ERR_GOLD_KONG_BARRED] = {"gold_kong_barred",
                                 "A kong of four wilds (金杠) is not allowed at this table (gold_kong_fan 0).", true},
    [MJ_ERR_REPLACEMENT_WITHOUT_KONG] = {"replacement_without_kong",
                                         "A tile drawn after a kong needs a kong among the melds.", true},
    [MJ_ERR_FIRST_DRAW_NOT_FIRST] = {"first_draw_not_first",
                                     "A win on the first draw (天胡 or 地胡) comes with no meld and not on a kong "
                                     "replacement.",
                                     true},
    [MJ_ERR_NOT_A_WIN] = {"not_a_win", "The tiles are not four sets and a pair, even with the wilds.", false},
    [MJ_ERR_UNDER_MINIMUM] = {"under_minimum",
                              "The hand wins no fan (under 刮大风 混儿吊 alone counts as none); a bare win (鸡胡) is "
                              "not allowed, the minimum is 2 fan.",
                              false},
    [MJ_ERR_BANKER_PULLED] = {"banker_pulled", "Only a non-banker pulls (拉庄).", true},
    [MJ_ERR_PULL_WITHOUT_SIT] = {"pull_without_sit", "A seat can pull (拉庄) only when the banker sat (坐庄).", true},
    [MJ_ERR_MUST_SIT] = {"must_sit", "The banker must sit (坐庄) at this table (must_sit).", true},
    [MJ_ERR_CHAN_OFF] = {"chan_off", "铲 is not played at this table (option chan is off).", true},
    [MJ_ERR_TOO_MANY_KONGS] = {"too_many_kongs", "A seat makes at most four kongs in a hand.", true},
    [MJ_ERR_WINNER_DISCARDED_WILD] = {"winner_discarded_wild",
                                      "A seat that discarded a wild may not win the hand.", true},
    [MJ_ERR_BAD_START] = {"bad_start",
                          "A hand starts with a banker 0-3, pulls only by non-bankers of a sitting banker "
                          "(at most max_pulls), and a sitting banker under must_sit.",
                          false},
    [MJ_ERR_HAND_OVER] = {"hand_over", "The hand is over; no more actions are taken.", false},
    [MJ_ERR_NOT_YOUR_TURN] = {"not_your_turn", "It is not this seat's turn to act.", false},
    [MJ_ERR_NOT_NOW] = {"not_now",
                        "That action is not open now: after a draw a seat wins, kongs or discards; after a "
                        "pung it discards; a claim is a pung, a kong or a pass.",
                        false},
    [MJ_ERR_TILE_NOT_IN_HAND] = {"tile_not_in_hand", "That tile is not in this seat's hand.", false},
    [MJ_ERR_CANNOT_CLAIM] = {"cannot_claim",
                             "A pung needs two natural tiles of the discard in hand, an exposed kong three; a "
                             "wild is never claimed.",
                             false},
    [MJ_ERR_NO_SUCH_KONG] = {"no_such_kong",
                             "A concealed kong needs four of a kind in hand (four wilds only when 金杠 is allowed); "
                             "an added kong needs the fourth tile of an exposed pung.",
                             false},
    [MJ_ERR_NO_WIN] = {"no_win", "The hand with the drawn tile is not a winning hand of at least 2 fan.", false},
    [MJ_ERR_WILD_DISCARDED] = {"wild_discarded", "A seat that discarded a wild may not win this hand.", false},
};

const char *mj_status_name(mj_status status)
{
    return (unsigned)status < MJ_STATUS_COUNT ? ROWS[status].name : "unknown";
}

const char *mj_status_message(mj_status status)
{
    return (unsigned)status < MJ_STATUS_COUNT ? ROWS[status].message : "Unknown status.";
}

bool mj_status_is_impossible(mj_status status)
{
    return (unsigned)status < MJ_STATUS_COUNT && ROWS[status].impossible;
}
