/*
 * store_ledger — the ledger's canonical text and hash (the format is documented in store.h), kept
 * apart from any backend so that every backend, and any outside auditor, hashes rows the same
 * way; the key record that says where the unkeyed rows end; and the check that a short text
 * (reason, name, code) is clean enough to store.
 *
 * Two versions of a row's text: "teahouse-ledger-v1", hashed with no key, for the rows written
 * before the ledger had a key, and "teahouse-ledger-v2", hashed with the ledger's key (BLAKE2b
 * keyed with 32 bytes), for every row since. The key record (one per database, itself keyed)
 * names how many v1 rows there are and the hash of the last one, so that a forger without the key
 * can neither add v1 rows after it nor pass a rewritten ledger off as older than the key.
 */
#ifndef STORE_LEDGER_H
#define STORE_LEDGER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"

#define STORE_LEDGER_ZERO_HASH "0000000000000000000000000000000000000000000000000000000000000000"
#define STORE_LEDGER_KEY_BYTES 32

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

/* The row's hash as 64 lowercase hex digits and a NUL: its v2 text keyed with key, or its v1
 * text with no key when key is NULL. */
void store_ledger_hash(const store_ledger_row *row, const unsigned char *key, char out[STORE_HASH_HEX]);

/* The key record: the rows 1 to v1_rows were written before the key (v1), and v1_last_hash is the
 * hash of row v1_rows (64 zeros when there is none); the ledger got its key at keyed_at_ms. */
typedef struct store_ledger_anchor {
    int64_t v1_rows;
    char v1_last_hash[STORE_HASH_HEX];
    int64_t keyed_at_ms;
    char mac[STORE_HASH_HEX];
} store_ledger_anchor;

/* The record's MAC with the key, as 64 hex digits: BLAKE2b-256 keyed, of the text
 * "teahouse-ledger-key-v2\nv1_rows=<n>\nv1_last=<hash>\nat=<ms>\n". */
void store_ledger_anchor_mac(const store_ledger_anchor *anchor, const unsigned char key[STORE_LEDGER_KEY_BYTES],
                             char out[STORE_HASH_HEX]);

/* True when the record's MAC is the one the key gives (compared in constant time). */
bool store_ledger_anchor_valid(const store_ledger_anchor *anchor, const unsigned char key[STORE_LEDGER_KEY_BYTES]);

/* True when text is 1..max bytes of valid UTF-8 without control characters (so it cannot break a
 * line of the canonical text or a log line). */
bool store_text_is_clean(const char *text, size_t max);

#endif
