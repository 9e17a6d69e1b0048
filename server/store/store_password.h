/*
 * store_password — passwords and session tokens, for every backend. Passwords are hashed with
 * argon2id (libsodium crypto_pwhash_str, ~0.1 s and 64 MiB on purpose: the core runs it on
 * libuv's thread pool) and then forgotten; a session token is 32 random bytes in URL-safe base64
 * and is kept only as its BLAKE2b-256 hash.
 *
 * cheap: the in-memory store's stand-in for tests (store_memory.h), a salted BLAKE2b of the
 * password, written "$teahouse-test$<salt>$<hash>". Never for a real store: a real store does
 * not accept such a hash (cheap false), whatever its database holds.
 */
#ifndef STORE_PASSWORD_H
#define STORE_PASSWORD_H

#include <stdbool.h>
#include <stddef.h>

#include "store_backend.h"

/* The encoded hash of password into out; false when memory runs out. */
bool store_password_hash(const char *password, bool cheap, char out[STORE_PASSWORD_HASH_SIZE]);

/* Whether password matches the encoded hash. */
bool store_password_verify(const char *hash, const char *password, bool cheap);

/* Spends the work of a verification for nothing: a login to an unknown account takes as long as
 * one to a known account with a wrong password. */
void store_password_spend(const char *password, bool cheap);

/* A new session token (43 characters and a NUL) and its hash, the only form in which it is kept. */
void store_token_new(char token[STORE_TOKEN_SIZE], unsigned char hash[STORE_TOKEN_HASH_BYTES]);

/* The hash of a token as sessions are keyed; false if it cannot be one of ours. */
bool store_token_hash(const char *token, unsigned char hash[STORE_TOKEN_HASH_BYTES]);

/* Wipes a copied secret and frees it; NULL is a no-op. */
void store_secret_free(char *secret);

/* Wipes n bytes that held a secret (a password hash), so that freed memory does not keep it. */
void store_secret_wipe(void *secret, size_t n);

#endif
