/*
 * store_key — the ledger's key file: 32 random bytes (STORE_LEDGER_KEY_BYTES), nothing else, in a
 * file of its own outside the database (by default "<database>.key" beside it), readable by its
 * owner only. Someone who can write the database but not read this file cannot forge a ledger
 * row that verifies (store_ledger.h).
 *
 * Promises: a key file is created only where none exists (O_EXCL), with mode 0600, written and
 * flushed to disk before it is used; a key file that others may read or write (any of the mode's
 * group or other bits) or that is not exactly 32 bytes is refused, never repaired.
 */
#ifndef STORE_KEY_H
#define STORE_KEY_H

#include <stddef.h>

#include "store.h"
#include "store_ledger.h"

/* The key file's path: path itself, or "<db_path>.key" when path is NULL or empty. False (with
 * error filled) when it does not fit. */
bool store_key_path(const char *path, const char *db_path, char *out, size_t cap, store_error *error);

/* Reads the key. STORE_NOT_FOUND when there is no such file; STORE_INVALID when its mode lets
 * others in or it is not a regular file; STORE_CORRUPT when it is not 32 bytes; STORE_READONLY or
 * STORE_IO when it cannot be read. */
store_status store_key_load(const char *path, unsigned char key[STORE_LEDGER_KEY_BYTES], store_error *error);

/* Makes a new key and writes it to a new file at path (mode 0600); STORE_CONFLICT when the file
 * appeared meanwhile, STORE_READONLY or STORE_IO when it cannot be written. */
store_status store_key_create(const char *path, unsigned char key[STORE_LEDGER_KEY_BYTES], store_error *error);

#endif
