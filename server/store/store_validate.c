/*
 * store_validate — what a request's input must be (store_validate.h), checked on the loop thread
 * as the request is made. Texts go through store_text_is_clean (store_ledger.c): valid UTF-8
 * without control characters, so that none can break a ledger row's canonical text or a log line.
 */
#include <string.h>

#include "store_backend.h"
#include "store_ledger.h"
#include "store_validate.h"

_Static_assert(STORE_TURN_SECONDS_MIN == 5 && STORE_TURN_SECONDS_MAX == 300, "the refusal below names the range");

static bool seat_ok(int seat) { return seat >= 0 && seat < STORE_SEATS; }

static store_status invalid(store_error *error, const char *sentence)
{
    return store_error_set(error, STORE_INVALID, "%s", sentence);
}

static store_status ok(store_error *error)
{
    error->status = STORE_OK;
    error->message[0] = '\0';
    return STORE_OK;
}

store_status store_validate_nickname(const char *nickname, store_error *error)
{
    if (!store_text_is_clean(nickname, STORE_NAME_MAX))
        return store_error_set(error, STORE_INVALID,
                               "A nickname is 1 to %d bytes of text without control characters.", STORE_NAME_MAX);
    return ok(error);
}

store_status store_validate_player(int64_t player_id, const char *nickname, store_error *error)
{
    if (player_id < 0)
        return invalid(error, "A player's id is not negative.");
    return store_validate_nickname(nickname, error);
}

store_status store_validate_account(const char *name, const char *password, int64_t guest_id, store_error *error)
{
    const size_t len = password ? strnlen(password, STORE_PASSWORD_MAX + 1) : 0;
    if (guest_id < 0 || !store_text_is_clean(name, STORE_NAME_MAX))
        return store_error_set(error, STORE_INVALID,
                               "An account name is 1 to %d bytes of text without control characters.",
                               STORE_NAME_MAX);
    if (len < STORE_PASSWORD_MIN || len > STORE_PASSWORD_MAX)
        return store_error_set(error, STORE_INVALID, "A password is %d to %d bytes long.", STORE_PASSWORD_MIN,
                               STORE_PASSWORD_MAX);
    return ok(error);
}

/* No account has such a name or password: refused at once, as a wrong password is. */
store_status store_validate_login(const char *name, const char *password, store_error *error)
{
    const size_t len = password ? strnlen(password, STORE_PASSWORD_MAX + 1) : STORE_PASSWORD_MAX + 1;
    if (!store_text_is_clean(name, STORE_NAME_MAX) || len > STORE_PASSWORD_MAX)
        return store_error_set(error, STORE_BAD_LOGIN, "Wrong account name or password.");
    return ok(error);
}

static const char *table_problem(const store_table *t)
{
    if (t == NULL)
        return "The table is missing.";
    if (t->id < 0 || t->host_player_id < 0 || t->hands_played < 0)
        return "A table's ids and counts are not negative.";
    if (!store_text_is_clean(t->game, STORE_SHORT_TEXT - 1) || !store_text_is_clean(t->code, STORE_SHORT_TEXT - 1) ||
        !store_text_is_clean(t->state, STORE_SHORT_TEXT - 1))
        return "A table's game, code and state are 1 to 32 bytes of text without control characters.";
    if (!json_is_object(t->game_state))
        return "A table's game state is a JSON object.";
    if (t->options != NULL && !json_is_object(t->options))
        return "A table's options are a JSON object.";
    if (t->turn_seconds < STORE_TURN_SECONDS_MIN || t->turn_seconds > STORE_TURN_SECONDS_MAX)
        return "A table's turn timer is 5 to 300 seconds.";
    for (int i = 0; i < STORE_SEATS; i++)
        if (t->seats[i].player_id < 0 || (t->seats[i].bot && t->seats[i].player_id != 0))
            return "A seat holds a player or a bot, not both.";
    return NULL;
}

store_status store_validate_table(const store_table *t, store_error *error)
{
    const char *problem = table_problem(t);
    return problem ? invalid(error, problem) : ok(error);
}

store_status store_validate_hand_start(const store_hand_start *h, store_error *error)
{
    if (h == NULL || h->table_id <= 0 || h->number <= 0 || h->deal == NULL || !json_is_object(h->game_state))
        return invalid(error, "A hand needs its table, a number from 1, a deal and a game state (a JSON object).");
    return ok(error);
}

store_status store_validate_action(int64_t hand_id, int64_t seq, int seat, const json_t *action, store_error *error)
{
    if (hand_id <= 0 || seq <= 0 || !seat_ok(seat) || action == NULL)
        return invalid(error, "An action needs its hand, a number from 1, a seat and the action.");
    return ok(error);
}

static const char *ledger_problem(const store_ledger_entry *entries, size_t n)
{
    if (n > STORE_ENTRIES_MAX || (n > 0 && entries == NULL))
        return "A hand has at most 64 ledger rows.";
    int64_t sum = 0;
    for (size_t i = 0; i < n; i++) {
        if (entries[i].player_id < 0 || !seat_ok(entries[i].seat))
            return "A ledger row names a seat and a player (0 for a bot).";
        if (!store_text_is_clean(entries[i].reason, STORE_SHORT_TEXT - 1))
            return "A ledger reason is 1 to 32 bytes of text without control characters.";
        if (__builtin_add_overflow(sum, entries[i].units, &sum))
            return "The ledger rows overflow.";
    }
    return sum == 0 ? NULL : "A hand's ledger rows must sum to zero.";
}

static const char *hand_end_problem(const store_hand_end *e)
{
    if (e == NULL || e->hand_id <= 0 || e->result == NULL)
        return "A hand's end needs its hand and its result.";
    if (e->last_seq < 0 || (e->last_seq > 0 && (e->last_action == NULL || !seat_ok(e->last_seat))))
        return "The last action needs its number, seat and action (or number 0 when no action ended the hand).";
    if (!json_is_object(e->next_game_state))
        return "The table's next game state is a JSON object.";
    return ledger_problem(e->entries, e->n_entries);
}

store_status store_validate_hand_end(const store_hand_end *e, store_error *error)
{
    const char *problem = hand_end_problem(e);
    return problem ? invalid(error, problem) : ok(error);
}

store_status store_validate_page(int64_t before, int limit, store_error *error)
{
    if (limit < 1 || limit > STORE_HISTORY_PAGE_MAX || before < 0)
        return store_error_set(error, STORE_INVALID,
                               "A page of hands is 1 to %d hands, numbered below a bound of 0 or more.",
                               STORE_HISTORY_PAGE_MAX);
    return ok(error);
}

static bool text_fits(const char *text, size_t cap)
{
    return memchr(text, '\0', cap) != NULL;
}

store_status store_validate_ledger_query(const store_ledger_filter *filter, int64_t before, int limit,
                                         store_error *error)
{
    if (filter == NULL)
        return store_error_set(error, STORE_INVALID, "A ledger query needs a filter (all zero for every row).");
    if (limit < 1 || limit > STORE_LEDGER_PAGE_MAX || before < 0)
        return store_error_set(error, STORE_INVALID, "A page of the ledger is 1 to %d rows, below a row id of 0 or more.",
                               STORE_LEDGER_PAGE_MAX);
    if (filter->player_id < 0 || filter->table_id < 0 || filter->from_ms < 0 || filter->to_ms < 0)
        return store_error_set(error, STORE_INVALID, "Ledger filters take ids and times of 0 or more.");
    if (filter->to_ms != 0 && filter->to_ms < filter->from_ms)
        return store_error_set(error, STORE_INVALID, "The ledger's time range ends before it starts.");
    if (!text_fits(filter->code, sizeof filter->code) || !text_fits(filter->game, sizeof filter->game) ||
        !text_fits(filter->reason, sizeof filter->reason))
        return store_error_set(error, STORE_INVALID, "A table code, game or reason is at most %d bytes.",
                               STORE_SHORT_TEXT - 1);
    return ok(error);
}

store_status store_validate_admin_open(int64_t player_id, int64_t seconds, store_error *error)
{
    if (player_id <= 0)
        return invalid(error, "An admin session is for a player id above 0.");
    if (seconds < 1 || seconds > 7 * 24 * 3600)
        return invalid(error, "An admin session lasts 1 second to 7 days.");
    return ok(error);
}

static bool action_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
}

store_status store_validate_audit(int64_t player_id, const char *action, const json_t *details, store_error *error)
{
    if (player_id <= 0)
        return invalid(error, "An audit entry names its admin by a player id above 0.");
    size_t len = action ? strnlen(action, STORE_AUDIT_ACTION_MAX + 1) : 0;
    bool clean = len >= 1 && len <= STORE_AUDIT_ACTION_MAX;
    for (size_t i = 0; clean && i < len; i++)
        clean = action_char(action[i]);
    if (!clean)
        return store_error_set(error, STORE_INVALID, "An audit action is 1 to %d bytes of a-z, 0-9, '_' and '.'.",
                               STORE_AUDIT_ACTION_MAX);
    if (details != NULL && !json_is_object(details))
        return invalid(error, "An audit entry's details are a JSON object.");
    return ok(error);
}

store_status store_validate_audit_page(int64_t before, int limit, store_error *error)
{
    if (limit < 1 || limit > STORE_AUDIT_PAGE_MAX || before < 0)
        return store_error_set(error, STORE_INVALID, "A page of the audit log is 1 to %d entries, below an id of 0 or more.",
                               STORE_AUDIT_PAGE_MAX);
    return ok(error);
}

store_status store_validate_audit_filter(const store_audit_filter *filter, store_error *error)
{
    if (filter == NULL)
        return ok(error);
    size_t len = strnlen(filter->action, sizeof filter->action);
    bool clean = len < sizeof filter->action;
    for (size_t i = 0; clean && i < len; i++)
        clean = action_char(filter->action[i]);
    if (!clean)
        return store_error_set(error, STORE_INVALID, "An audit action is 1 to %d bytes of a-z, 0-9, '_' and '.'.",
                               STORE_AUDIT_ACTION_MAX);
    if (filter->player_id < 0)
        return invalid(error, "An audit filter's player id is 0 or more.");
    return ok(error);
}

/* The number of characters of a UTF-8 text, or -1 when it is not valid UTF-8 or holds a control
 * character (below U+0020, or U+007F to U+009F). */
static long utf8_clean_length(const char *text, size_t max_bytes)
{
    long count = 0;
    const unsigned char *p = (const unsigned char *)text;
    const unsigned char *end = p + strnlen(text, max_bytes + 1);
    if ((size_t)(end - p) > max_bytes)
        return -1;
    while (p < end) {
        uint32_t c;
        int extra;
        if (p[0] < 0x80) {
            c = p[0];
            extra = 0;
        } else if ((p[0] & 0xE0) == 0xC0) {
            c = p[0] & 0x1F;
            extra = 1;
        } else if ((p[0] & 0xF0) == 0xE0) {
            c = p[0] & 0x0F;
            extra = 2;
        } else if ((p[0] & 0xF8) == 0xF0) {
            c = p[0] & 0x07;
            extra = 3;
        } else {
            return -1;
        }
        if (end - p <= extra)
            return -1;
        for (int i = 1; i <= extra; i++) {
            if ((p[i] & 0xC0) != 0x80)
                return -1;
            c = (c << 6) | (p[i] & 0x3F);
        }
        static const uint32_t least[4] = {0, 0x80, 0x800, 0x10000};
        if (c < least[extra] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
            return -1; /* an overlong form, beyond Unicode, or a surrogate */
        if (c < 0x20 || (c >= 0x7F && c <= 0x9F))
            return -1;
        p += extra + 1;
        count++;
    }
    return count;
}

store_status store_validate_adjust(int64_t admin_id, int64_t player_id, int64_t units, const char *reason,
                                   store_error *error)
{
    if (admin_id <= 0 || player_id <= 0)
        return invalid(error, "An adjustment names its admin and its player by ids above 0.");
    if (units == 0 || units > STORE_ADJUST_UNITS_MAX || units < -STORE_ADJUST_UNITS_MAX)
        return store_error_set(error, STORE_INVALID, "An adjustment is a whole number of units, not 0, from -%d to %d.",
                               STORE_ADJUST_UNITS_MAX, STORE_ADJUST_UNITS_MAX);
    long chars = reason ? utf8_clean_length(reason, 4 * STORE_ADJUST_REASON_MAX) : -1;
    if (chars < 1 || chars > STORE_ADJUST_REASON_MAX)
        return store_error_set(error, STORE_INVALID,
                               "An adjustment's reason is 1 to %d characters of text, with no control character.",
                               STORE_ADJUST_REASON_MAX);
    return ok(error);
}
