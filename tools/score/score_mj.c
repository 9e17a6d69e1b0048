/*
 * score_mj — the two Tianjin modes on top of mj_json and the engine: shape, then possibility,
 * then the rules, so the error code follows §7's precedence.
 */
#include "score_mj.h"

#include <stdio.h>
#include <string.h>

#include "mj_json.h"
#include "score.h"

static json_t *refusal(mjj_error code, const char *message) { return score_error(mjj_error_name(code), message); }

/* The engine's sentence, naming the tile when the refusal is about one. */
static json_t *hand_refusal(mj_status status, int kind)
{
    char message[MJJ_MESSAGE_SIZE];
    if (kind >= 0)
        snprintf(message, sizeof message, "%s (\"%s\", %s)", mj_status_message(status), mj_kind_name(kind),
                 mj_kind_zh(kind));
    else
        snprintf(message, sizeof message, "%s", mj_status_message(status));
    return refusal(mjj_error_of_status(status), message);
}

static json_t *score_mode(const json_t *input)
{
    char message[MJJ_MESSAGE_SIZE];
    mj_options options;
    mj_winning_hand hand;
    mjj_error e = mjj_parse_score_request(input, &options, &hand, message, sizeof message);
    if (e != MJJ_OK)
        return refusal(e, message);
    int kind;
    mj_status status = mj_winning_hand_check(&options, &hand, &kind);
    if (status != MJ_OK)
        return hand_refusal(status, kind);
    mj_score score;
    status = mj_score_hand(&options, &hand, &score);
    if (status != MJ_OK)
        return hand_refusal(status, -1);
    return mjj_score_to_json(&score);
}

static json_t *settle_mode(const json_t *input)
{
    char message[MJJ_MESSAGE_SIZE];
    mj_options options;
    mj_outcome outcome;
    mjj_error e = mjj_parse_settle_request(input, &options, &outcome, message, sizeof message);
    if (e != MJJ_OK)
        return refusal(e, message);
    mj_status status = mj_outcome_check(&options, &outcome);
    if (status != MJ_OK)
        return refusal(mjj_error_of_status(status), mj_status_message(status));
    mj_settlement settlement;
    mj_settle(&options, &outcome, &settlement);
    return mjj_settlement_to_json(&settlement);
}

json_t *score_mj_run(const json_t *input)
{
    const json_t *mode = json_object_get(input, "mode");
    const char *text = json_string_value(mode);
    if (mode == NULL)
        return refusal(MJJ_BAD_REQUEST, "The document has no \"mode\"; it is \"score\" or \"settle\".");
    if (text != NULL && strcmp(text, "score") == 0)
        return score_mode(input);
    if (text != NULL && strcmp(text, "settle") == 0)
        return settle_mode(input);
    return refusal(MJJ_BAD_REQUEST, "mode must be \"score\" or \"settle\" for game \"tianjin\".");
}
