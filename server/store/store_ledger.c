/*
 * store_ledger — the canonical text of a ledger row and its BLAKE2b-256 hash (libsodium's
 * crypto_generichash), unkeyed (v1) or keyed (v2), and the MAC of the key record. One field a
 * line, in a fixed order, so that the text is unambiguous: reasons may not contain control
 * characters, hence no newline.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "store_ledger.h"

/* Enough for the fixed labels, ten integers of at most 20 characters, a reason and a hash. */
#define CANONICAL_MAX 512

static size_t canonical_text(const store_ledger_row *row, bool keyed, char *out, size_t cap)
{
    char player[24] = "", balance[24] = "";
    if (!row->is_bot) {
        snprintf(player, sizeof player, "%" PRId64, row->player_id);
        snprintf(balance, sizeof balance, "%" PRId64, row->balance_after);
    }
    int n = snprintf(out, cap,
                     "teahouse-ledger-v%d\n"
                     "id=%" PRId64 "\n"
                     "table=%" PRId64 "\n"
                     "hand=%" PRId64 "\n"
                     "player=%s\n"
                     "seat=%d\n"
                     "units=%" PRId64 "\n"
                     "reason=%s\n"
                     "balance=%s\n"
                     "at=%" PRId64 "\n"
                     "prev=%s\n",
                     keyed ? 2 : 1, row->id, row->table_id, row->hand_id, player, row->seat, row->units, row->reason,
                     balance, row->at_ms, row->prev_hash);
    return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
}

static void hash_hex(const char *text, size_t len, const unsigned char *key, char out[STORE_HASH_HEX])
{
    unsigned char digest[32];
    crypto_generichash(digest, sizeof digest, (const unsigned char *)text, len, key,
                       key != NULL ? STORE_LEDGER_KEY_BYTES : 0);
    sodium_bin2hex(out, STORE_HASH_HEX, digest, sizeof digest);
}

void store_ledger_hash(const store_ledger_row *row, const unsigned char *key, char out[STORE_HASH_HEX])
{
    char text[CANONICAL_MAX];
    size_t len = canonical_text(row, key != NULL, text, sizeof text);
    hash_hex(text, len, key, out);
}

void store_ledger_anchor_mac(const store_ledger_anchor *anchor, const unsigned char key[STORE_LEDGER_KEY_BYTES],
                             char out[STORE_HASH_HEX])
{
    char text[CANONICAL_MAX];
    int n = snprintf(text, sizeof text, "teahouse-ledger-key-v2\nv1_rows=%" PRId64 "\nv1_last=%s\nat=%" PRId64 "\n",
                     anchor->v1_rows, anchor->v1_last_hash, anchor->keyed_at_ms);
    size_t len = n < 0 ? 0 : (size_t)n < sizeof text ? (size_t)n : sizeof text - 1;
    hash_hex(text, len, key, out);
}

bool store_ledger_anchor_valid(const store_ledger_anchor *anchor, const unsigned char key[STORE_LEDGER_KEY_BYTES])
{
    char expected[STORE_HASH_HEX];
    store_ledger_anchor_mac(anchor, key, expected);
    return strlen(anchor->mac) == STORE_HASH_HEX - 1 && sodium_memcmp(expected, anchor->mac, STORE_HASH_HEX - 1) == 0;
}

/* Length of the UTF-8 sequence starting with byte c, or 0 if c cannot start one. */
static size_t utf8_sequence_length(unsigned char c)
{
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf)
        return 2;
    if (c >= 0xe0 && c <= 0xef)
        return 3;
    if (c >= 0xf0 && c <= 0xf4)
        return 4;
    return 0;
}

bool store_text_is_clean(const char *text, size_t max)
{
    if (text == NULL)
        return false;
    size_t len = strnlen(text, max + 1);
    if (len == 0 || len > max)
        return false;
    const unsigned char *p = (const unsigned char *)text;
    for (size_t i = 0; i < len;) {
        size_t n = utf8_sequence_length(p[i]);
        if (n == 0 || i + n > len)
            return false;
        if (n == 1 && (p[i] < 0x20 || p[i] == 0x7f))
            return false;
        for (size_t k = 1; k < n; k++)
            if ((p[i + k] & 0xc0) != 0x80)
                return false;
        /* No overlong 3- and 4-byte forms, no surrogates, nothing beyond U+10FFFF. */
        if ((p[i] == 0xe0 && p[i + 1] < 0xa0) || (p[i] == 0xed && p[i + 1] >= 0xa0) ||
            (p[i] == 0xf0 && p[i + 1] < 0x90) || (p[i] == 0xf4 && p[i + 1] >= 0x90))
            return false;
        i += n;
    }
    return true;
}
