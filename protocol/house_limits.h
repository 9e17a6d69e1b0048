/*
 * house_limits — every bound the house puts on what people send and what it keeps, in one place.
 * The protocol checks them (proto.c), the store refuses what breaks them, the server's flags stay
 * inside them (config.c), the client learns them from `welcome` ("limits", proto_limits_json)
 * and PROTOCOL.md states them (a unit test compares). Change a limit here and nowhere else.
 *
 * "Characters" are Unicode code points, "bytes" bytes of UTF-8. Not named limits.h: this folder
 * is on the include path, and it would hide the C library's <limits.h>.
 */
#ifndef HOUSE_LIMITS_H
#define HOUSE_LIMITS_H

/* Seats at a table, numbered 0 to LIMIT_SEATS - 1. */
#define LIMIT_SEATS 4

/* A player's name at the tables: 1 to 24 characters after trimming. */
#define LIMIT_NAME_CHARS 24
/* The bytes the longest allowed name can take: every character may need 4 bytes of UTF-8. The
 * store keeps names (nicknames and account names) of up to this many bytes, so whatever name the
 * protocol accepts, the store accepts too. */
#define LIMIT_NAME_BYTES (LIMIT_NAME_CHARS * 4)

/* An account name: 3 to 24 characters (so at most LIMIT_NAME_BYTES bytes), or 2 when both are
 * wide (CJK: 小明), letters of one script family, digits and '_', '-', '.' (PROTOCOL.md, register). */
#define LIMIT_ACCOUNT_MIN_CHARS 3
#define LIMIT_ACCOUNT_MIN_WIDE_CHARS 2
#define LIMIT_ACCOUNT_MAX_CHARS LIMIT_NAME_CHARS

/* A password, in bytes as sent (never trimmed). The upper bound keeps the hash's input small. */
#define LIMIT_PASSWORD_MIN_BYTES 8
#define LIMIT_PASSWORD_MAX_BYTES 1024

/* A chat line: 1 to 300 characters without control characters. */
#define LIMIT_CHAT_CHARS 300

/* A table's turn timer, in seconds: what create_table may ask, what --turn-seconds may set and
 * what the store keeps. */
#define LIMIT_TURN_SECONDS_MIN 5
#define LIMIT_TURN_SECONDS_MAX 300

/* A table's stake (what one unit of a game's score is worth in the ledger). With the Tien Gow
 * multiplier also at most 1,000,000 the largest amount stays far inside 64 bits (tg_json.h). */
#define LIMIT_STAKE_MIN 1
#define LIMIT_STAKE_MAX 1000000

/* A table code: characters from an alphabet of 31 without look-alikes (proto.h). A new table
 * gets 12 (31^12 ≈ 7.9e17 codes: guessing one of 10,000 open tables at 1,700 tries a second
 * takes about 1,500 years, docs/DECISIONS.md); tables opened before codes grew keep their 6, so
 * any length from 6 to 12 is accepted. */
#define LIMIT_CODE_MIN_CHARS 6
#define LIMIT_CODE_CHARS 12

/* Failed joins (a code that names no open table, or no table the address may be told of) from
 * one address: bursts of 10, then one a minute; each try past that doubles the wait, up to 15
 * minutes. Joins that find their table cost nothing. */
#define LIMIT_CODE_MISSES_BURST 10
#define LIMIT_CODE_MISS_SECONDS 60
#define LIMIT_CODE_MISS_MAX_WAIT_SECONDS (15 * 60)

/* A resume token: 16 to 64 of [A-Za-z0-9_-] (64 hex digits without a store, 43 characters of
 * URL-safe base64 with one). */
#define LIMIT_TOKEN_MIN_CHARS 16
#define LIMIT_TOKEN_MAX_CHARS 64

/* A message's id, when it is a string. */
#define LIMIT_ID_BYTES 64

/* One WebSocket text frame (fragments joined); a larger one is refused with too_large. */
#define LIMIT_MESSAGE_BYTES 16384

/* Messages a connection may send: this many a second on average, in bursts of LIMIT_RATE_BURST. */
#define LIMIT_RATE_PER_SECOND 20
#define LIMIT_RATE_BURST 40

/* Tables in one page of `list_tables`, at most (a client asks for fewer with `limit`). */
#define LIMIT_TABLES_PAGE 50
/* The bytes of one `tables` reply, at most: a page ends early rather than pass it (a game's
 * options and four long names make a summary of up to ~1.3 KB). Far below what a connection
 * may have queued (net.h), so no answer can get its asker dropped as a slow reader. */
#define LIMIT_TABLES_REPLY_BYTES (64 * 1024)

/* Hands in one page of `history`. */
#define LIMIT_HISTORY_PAGE 20

/* Past tables in a `my_tables` reply: the most recently played. */
#define LIMIT_PAST_TABLES 20

/* The latest events a table keeps for a resuming connection (`events`). */
#define LIMIT_EVENTS_KEPT 200

/* Tables one player may have joined (seated or watching) at once. */
#define LIMIT_TABLES_PER_PLAYER 8

/* People at one table, seated or watching. */
#define LIMIT_TABLE_MEMBERS 64
/* People watching one table (members without a seat), at most: the other places are kept for
 * the seats, so friends who come to sit always get in however many watch. */
#define LIMIT_TABLE_WATCHERS (LIMIT_TABLE_MEMBERS - LIMIT_SEATS)

/* Chat at one table, per person, apart from play: bursts of this many lines, then this many a
 * minute on average (a flood of chat cannot crowd out moves or the table's kept events). */
#define LIMIT_CHAT_BURST 5
#define LIMIT_CHAT_PER_MINUTE 30

/* The bytes of a table's kept events (for members who resume), at most: chat cannot make a
 * table hold more than this however long its lines (LIMIT_EVENTS_KEPT bounds the count). */
#define LIMIT_EVENTS_KEPT_BYTES (64 * 1024)

_Static_assert(LIMIT_ACCOUNT_MAX_CHARS * 4 <= LIMIT_NAME_BYTES, "an account name fits where names are kept");
_Static_assert(LIMIT_CODE_MIN_CHARS >= 6 && LIMIT_CODE_MIN_CHARS <= LIMIT_CODE_CHARS, "a code length range");
_Static_assert(LIMIT_TABLE_WATCHERS > 0, "room to watch");
_Static_assert(LIMIT_TURN_SECONDS_MIN >= 1 && LIMIT_TURN_SECONDS_MIN <= LIMIT_TURN_SECONDS_MAX,
               "a turn timer range");

#endif
