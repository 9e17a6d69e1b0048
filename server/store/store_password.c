/*
 * store_password — argon2id password hashes, the cheap test-only stand-in, and session tokens
 * (store_password.h). Thread-safe: the core calls the password functions on libuv's pool.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "store_password.h"

#define TOKEN_BYTES 32
#define CHEAP_PREFIX "$teahouse-test$"
#define CHEAP_SALT_BYTES 16
#define CHEAP_HASH_BYTES 32

_Static_assert(crypto_pwhash_STRBYTES <= STORE_PASSWORD_HASH_SIZE, "an argon2id hash fits");
_Static_assert(sizeof CHEAP_PREFIX - 1 + 2 * CHEAP_SALT_BYTES + 1 + 2 * CHEAP_HASH_BYTES < STORE_PASSWORD_HASH_SIZE,
               "a test hash fits");
_Static_assert(STORE_TOKEN_HASH_BYTES == 32, "tokens are keyed by BLAKE2b-256 (store.h)");

/* "$teahouse-test$<salt hex>$<BLAKE2b(password, key = salt) hex>" */
static void cheap_hash(const char *password, const unsigned char salt[CHEAP_SALT_BYTES],
                       char out[STORE_PASSWORD_HASH_SIZE])
{
    unsigned char digest[CHEAP_HASH_BYTES];
    crypto_generichash(digest, sizeof digest, (const unsigned char *)password, strlen(password), salt,
                       CHEAP_SALT_BYTES);
    char salt_hex[2 * CHEAP_SALT_BYTES + 1], digest_hex[2 * CHEAP_HASH_BYTES + 1];
    sodium_bin2hex(salt_hex, sizeof salt_hex, salt, CHEAP_SALT_BYTES);
    sodium_bin2hex(digest_hex, sizeof digest_hex, digest, sizeof digest);
    snprintf(out, STORE_PASSWORD_HASH_SIZE, "%s%s$%s", CHEAP_PREFIX, salt_hex, digest_hex);
}

static bool cheap_verify(const char *hash, const char *password)
{
    const char *salt_hex = hash + strlen(CHEAP_PREFIX);
    unsigned char salt[CHEAP_SALT_BYTES];
    size_t salt_len = 0;
    if (sodium_hex2bin(salt, sizeof salt, salt_hex, 2 * CHEAP_SALT_BYTES, NULL, &salt_len, NULL) != 0 ||
        salt_len != CHEAP_SALT_BYTES)
        return false;
    char expected[STORE_PASSWORD_HASH_SIZE];
    cheap_hash(password, salt, expected);
    const size_t len = strlen(expected);
    return strlen(hash) == len && sodium_memcmp(expected, hash, len) == 0;
}

bool store_password_hash(const char *password, bool cheap, char out[STORE_PASSWORD_HASH_SIZE])
{
    if (cheap) {
        unsigned char salt[CHEAP_SALT_BYTES];
        randombytes_buf(salt, sizeof salt);
        cheap_hash(password, salt, out);
        return true;
    }
    return crypto_pwhash_str_alg(out, password, strlen(password), crypto_pwhash_OPSLIMIT_INTERACTIVE,
                                 crypto_pwhash_MEMLIMIT_INTERACTIVE, crypto_pwhash_ALG_ARGON2ID13) == 0;
}

bool store_password_verify(const char *hash, const char *password, bool cheap)
{
    if (strncmp(hash, CHEAP_PREFIX, strlen(CHEAP_PREFIX)) == 0)
        return cheap && cheap_verify(hash, password);
    return crypto_pwhash_str_verify(hash, password, strlen(password)) == 0;
}

void store_password_spend(const char *password, bool cheap)
{
    if (cheap) {
        char ignored[STORE_PASSWORD_HASH_SIZE];
        static const unsigned char salt[CHEAP_SALT_BYTES];
        cheap_hash(password, salt, ignored);
        return;
    }
    unsigned char ignored[32], salt[crypto_pwhash_SALTBYTES] = {0};
    int spent = crypto_pwhash(ignored, sizeof ignored, password, strlen(password), salt,
                              crypto_pwhash_OPSLIMIT_INTERACTIVE, crypto_pwhash_MEMLIMIT_INTERACTIVE,
                              crypto_pwhash_ALG_ARGON2ID13);
    (void)spent; /* only the time it took matters */
}

void store_token_new(char token[STORE_TOKEN_SIZE], unsigned char hash[STORE_TOKEN_HASH_BYTES])
{
    unsigned char raw[TOKEN_BYTES];
    randombytes_buf(raw, sizeof raw);
    sodium_bin2base64(token, STORE_TOKEN_SIZE, raw, sizeof raw, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    sodium_memzero(raw, sizeof raw);
    crypto_generichash(hash, STORE_TOKEN_HASH_BYTES, (const unsigned char *)token, strlen(token), NULL, 0);
}

bool store_token_hash(const char *token, unsigned char hash[STORE_TOKEN_HASH_BYTES])
{
    if (token == NULL || strnlen(token, STORE_TOKEN_SIZE) != STORE_TOKEN_SIZE - 1)
        return false;
    crypto_generichash(hash, STORE_TOKEN_HASH_BYTES, (const unsigned char *)token, STORE_TOKEN_SIZE - 1, NULL, 0);
    return true;
}

void store_secret_free(char *secret)
{
    if (secret == NULL)
        return;
    sodium_memzero(secret, strlen(secret));
    free(secret);
}

void store_secret_wipe(void *secret, size_t n)
{
    sodium_memzero(secret, n);
}
