/*
 * tg_status — names and sentences of the engine's refusals, one row each.
 */
#include "tg_status.h"

static const struct {
    const char *name;
    const char *message;
} ROWS[TG_STATUS_COUNT] = {
    [TG_OK] = {"ok", "Accepted."},
    [TG_ERR_HAND_OVER] = {"hand_over", "The hand is over; no more actions are taken."},
    [TG_ERR_BAD_SEAT] = {"bad_seat", "Seats are numbered 0 to 3."},
    [TG_ERR_NOT_YOUR_TURN] = {"not_your_turn", "It is not this seat's turn."},
    [TG_ERR_BAD_TILE] = {"bad_tile", "That is not a Tien Gow tile."},
    [TG_ERR_TILE_NOT_IN_HAND] = {"tile_not_in_hand", "A tile played or discarded is not in this seat's hand."},
    [TG_ERR_WRONG_COUNT] = {"wrong_count",
                            "A lead is 1 to 4 tiles; a follower plays or discards as many tiles as were led."},
    [TG_ERR_LEADER_MUST_PLAY] = {"leader_must_play", "The leader must play a combination, not discard."},
    [TG_ERR_NOT_A_COMBINATION] = {"not_a_combination", "Those tiles are not a combination."},
    [TG_ERR_SUPREME_ONLY_LED] = {"supreme_only_led", "至尊 may only be led; it cannot beat anything."},
    [TG_ERR_WRONG_TYPE] = {"wrong_type", "Only a combination of the same type as the lead can beat it."},
    [TG_ERR_DOES_NOT_BEAT] = {"does_not_beat",
                              "That combination does not beat the best one in the trick (equal does not beat)."},
    [TG_ERR_NOTHING_BEATS] = {"nothing_beats", "Nothing can beat the best combination of this trick."},
    [TG_ERR_ONLY_PAIR_OF_SEVENS_BEATS] = {"only_long_leg_pair_beats", "A led 文尊 is beaten only by the pair of 高腳七."},
    [TG_ERR_BARRED_FROM_FINAL] = {"barred_from_final",
                                  "With fewer than 2 stacks after this trick you may not play the final trick, only discard."},
    [TG_ERR_BAD_DEAL] = {"bad_deal", "The four hands must be 8 tiles each and together exactly the 32 tiles."},
    [TG_ERR_BAD_BANKER] = {"bad_banker", "The banker is a seat from 0 to 3."},
    [TG_ERR_BAD_MULTIPLIER] = {"bad_multiplier", "The banker multiplier is at least 2."},
    [TG_ERR_STACKS_NOT_EIGHT] = {"stacks_not_eight", "The stacks of the four seats must add up to 8."},
    [TG_ERR_WINNER_UNDER_TWO] = {"winner_under_two", "The winner must hold at least 2 stacks."},
    [TG_ERR_EIGHT_AND_SEVEN] = {"eight_and_seven", "A hand cannot end both 八支 and 七支."},
    [TG_ERR_SHUTOUT_NEEDS_EIGHT] = {"shutout_needs_eight", "八支 and 七支 need the winner to hold all 8 stacks."},
    [TG_ERR_TWO_TILE_ENDINGS] = {"conflicting_endings",
                                 "The final trick is won by one combination: at most one of 么結, 包尊 and 四大包."},
    [TG_ERR_QIN_WITH_ENDINGS] = {"qin_with_endings", "With 擒 no other ending applies."},
    [TG_ERR_QIN_CAPTURED] = {"qin_captured", "The captured leader of 擒 is a loser holding at least 1 stack."},
};

const char *tg_status_name(tg_status status)
{
    return (unsigned)status < TG_STATUS_COUNT ? ROWS[status].name : "unknown";
}

const char *tg_status_message(tg_status status)
{
    return (unsigned)status < TG_STATUS_COUNT ? ROWS[status].message : "Unknown status.";
}
