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
