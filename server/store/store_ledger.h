/*
 * store_ledger — the ledger's canonical text and hash (the format is documented in store.h), kept
 * apart from any backend so that every backend, and any outside auditor, hashes rows the same
 * way; and the check that a short text (reason, name, code) is clean enough to store.
 */
#ifndef STORE_LEDGER_H
#define STORE_LEDGER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"

#define STORE_LEDGER_ZERO_HASH "0000000000000000000000000000000000000000000000000000000000000000"

typedef struct store_ledger_row {
    int64_t id;
    int64_t table_id;
    int64_t hand_id;
    bool is_bot;             /* then player_id and balance_after are written empty */
    int64_t player_id;
    int seat;
    int64_t units;
    const char *reason;
    int64_t balance_after;
    int64_t at_ms;
    const char *prev_hash;   /* 64 hex digits */
} store_ledger_row;

/* The row's hash as 64 lowercase hex digits and a NUL. */
void store_ledger_hash(const store_ledger_row *row, char out[STORE_HASH_HEX]);

/* True when text is 1..max bytes of valid UTF-8 without control characters (so it cannot break a
 * line of the canonical text or a log line). */
bool store_text_is_clean(const char *text, size_t max);

#endif
