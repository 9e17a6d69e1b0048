/*
 * peers — connections per address, the descriptor plan and forwarded addresses. See peers.h.
 *
 * The counts live in a chained hash table keyed by the address (an IPv6 one cut to its /64),
 * hashed with SipHash under a random key: the addresses are the attacker's choice, and a fixed
 * hash would let them pile every entry into one chain.
 */
#include "peers.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#define PEERS_FIRST_BUCKETS 256

struct peers_entry {
    peers_entry *next;
    peers_addr key;
    int count;
};

struct peers {
    int max_per_address;
    int fd_hard;       /* no socket at all from this descriptor on */
    int fd_game_full;  /* no game socket from here on */
    int fd_reserve;    /* the reserve starts here */
    peers_addr *trusted;
    size_t n_trusted;
    peers_entry **buckets;
    size_t n_buckets;  /* a power of two */
    size_t n_entries;
    unsigned char hash_key[crypto_shorthash_KEYBYTES];
};

/* ---- addresses --------------------------------------------------------------------------- */

static const unsigned char v4_mapped_prefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};

static void set_v6(peers_addr *out, const unsigned char bytes[16])
{
    memset(out, 0, sizeof *out);
    if (memcmp(bytes, v4_mapped_prefix, sizeof v4_mapped_prefix) == 0) {
        out->family = AF_INET;
        memcpy(out->bytes, bytes + 12, 4);
    } else {
        out->family = AF_INET6;
        memcpy(out->bytes, bytes, 16);
    }
}

bool peers_addr_parse(const char *text, peers_addr *out)
{
    char buf[PEERS_ADDR_TEXT];
    size_t len = strlen(text);

    if (len >= 2 && text[0] == '[' && text[len - 1] == ']') {
        text++;
        len -= 2;
    }
    if (len == 0 || len >= sizeof buf)
        return false;
    memcpy(buf, text, len);
    buf[len] = '\0';

    unsigned char bytes[16];
    if (inet_pton(AF_INET, buf, bytes) == 1) {
        memset(out, 0, sizeof *out);
        out->family = AF_INET;
        memcpy(out->bytes, bytes, 4);
        return true;
    }
    if (inet_pton(AF_INET6, buf, bytes) == 1) {
        set_v6(out, bytes);
        return true;
    }
    return false;
}

bool peers_addr_from_sockaddr(const struct sockaddr *sa, peers_addr *out)
{
    if (sa->sa_family == AF_INET) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)(const void *)sa;
        memset(out, 0, sizeof *out);
        out->family = AF_INET;
        memcpy(out->bytes, &in->sin_addr, 4);
        return true;
    }
    if (sa->sa_family == AF_INET6) {
        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)(const void *)sa;
        set_v6(out, in6->sin6_addr.s6_addr);
        return true;
    }
    return false;
}

void peers_addr_format(const peers_addr *addr, char *out, size_t cap)
{
    if (!inet_ntop(addr->family, addr->bytes, out, (socklen_t)cap))
        snprintf(out, cap, "unknown");
}

static bool addr_equal(const peers_addr *a, const peers_addr *b)
{
    return a->family == b->family && memcmp(a->bytes, b->bytes, sizeof a->bytes) == 0;
}

/* What an address is counted as: itself, or its /64. */
static peers_addr count_key(const peers_addr *addr)
{
    peers_addr key = *addr;
    if (key.family == AF_INET6)
        memset(key.bytes + 8, 0, 8);
    return key;
}

/* ---- create, destroy, trust -------------------------------------------------------------- */

/* Parses every comma-separated item of the trusted proxy list into p->trusted. */
static bool parse_trusted(peers *p, const peers_config *config, char *error, size_t error_cap)
{
    size_t cap = 0;
    for (size_t i = 0; i < config->n_trusted_proxies; i++) {
        cap++;
        for (const char *c = config->trusted_proxies[i]; *c; c++)
            cap += *c == ',';
    }
    p->trusted = cap ? calloc(cap, sizeof *p->trusted) : NULL;
    if (cap && !p->trusted) {
        snprintf(error, error_cap, "out of memory");
        return false;
    }
    for (size_t i = 0; i < config->n_trusted_proxies; i++) {
        const char *item = config->trusted_proxies[i];
        while (*item) {
            size_t len = strcspn(item, ",");
            char text[PEERS_ADDR_TEXT];
            const char *start = item;
            size_t trimmed = len;
            while (trimmed && (*start == ' ' || *start == '\t')) {
                start++;
                trimmed--;
            }
            while (trimmed && (start[trimmed - 1] == ' ' || start[trimmed - 1] == '\t'))
                trimmed--;
            if (trimmed >= sizeof text)
                trimmed = sizeof text - 1;
            memcpy(text, start, trimmed);
            text[trimmed] = '\0';
            if (!peers_addr_parse(text, &p->trusted[p->n_trusted])) {
                snprintf(error, error_cap, "trusted proxy '%s' is not an IP address", text);
                return false;
            }
            p->n_trusted++;
            item += len;
            if (*item == ',')
                item++;
        }
    }
    return true;
}

peers *peers_create(const peers_config *config, char *error, size_t error_cap)
{
    peers *p = calloc(1, sizeof *p);
    if (!p || sodium_init() < 0) {
        snprintf(error, error_cap, "out of memory");
        free(p);
        return NULL;
    }
    p->max_per_address = config->max_per_address;
    int limit = config->fd_limit;
    int reserve = limit / 16 > PEERS_RESERVE_MIN ? limit / 16 : PEERS_RESERVE_MIN;
    p->fd_hard = limit - PEERS_FD_KEEP;
    p->fd_game_full = p->fd_hard - PEERS_FD_OPERATOR;
    p->fd_reserve = p->fd_game_full - reserve;
    randombytes_buf(p->hash_key, sizeof p->hash_key);
    p->n_buckets = PEERS_FIRST_BUCKETS;
    p->buckets = calloc(p->n_buckets, sizeof *p->buckets);
    if (!p->buckets) {
        snprintf(error, error_cap, "out of memory");
        peers_destroy(p);
        return NULL;
    }
    if (!parse_trusted(p, config, error, error_cap)) {
        peers_destroy(p);
        return NULL;
    }
    return p;
}

void peers_destroy(peers *p)
{
    if (!p)
        return;
    for (size_t i = 0; p->buckets && i < p->n_buckets; i++) {
        peers_entry *e = p->buckets[i];
        while (e) {
            peers_entry *next = e->next;
            free(e);
            e = next;
        }
    }
    free(p->buckets);
    free(p->trusted);
    free(p);
}

bool peers_is_trusted(const peers *p, const peers_addr *addr)
{
    for (size_t i = 0; i < p->n_trusted; i++)
        if (addr_equal(&p->trusted[i], addr))
            return true;
    return false;
}

/* ---- the counts -------------------------------------------------------------------------- */

static size_t bucket_of(const peers *p, const peers_addr *key)
{
    unsigned char digest[crypto_shorthash_BYTES];
    unsigned char input[1 + sizeof key->bytes];
    input[0] = (unsigned char)key->family;
    memcpy(input + 1, key->bytes, sizeof key->bytes);
    crypto_shorthash(digest, input, sizeof input, p->hash_key);
    uint64_t h;
    memcpy(&h, digest, sizeof h);
    return (size_t)(h & (p->n_buckets - 1));
}

static peers_entry *find(const peers *p, const peers_addr *key)
{
    for (peers_entry *e = p->buckets[bucket_of(p, key)]; e; e = e->next)
        if (addr_equal(&e->key, key))
            return e;
    return NULL;
}

/* Doubles the table once it holds more entries than buckets; a failed allocation only leaves
 * the chains longer. */
static void grow(peers *p)
{
    size_t n = p->n_buckets * 2;
    peers_entry **buckets = calloc(n, sizeof *buckets);
    if (!buckets)
        return;
    peers_entry **old = p->buckets;
    size_t old_n = p->n_buckets;
    p->buckets = buckets;
    p->n_buckets = n;
    for (size_t i = 0; i < old_n; i++) {
        peers_entry *e = old[i];
        while (e) {
            peers_entry *next = e->next;
            size_t b = bucket_of(p, &e->key);
            e->next = buckets[b];
            buckets[b] = e;
            e = next;
        }
    }
    free(old);
}

peers_entry *peers_add(peers *p, const peers_addr *addr)
{
    peers_addr key = count_key(addr);
    peers_entry *e = find(p, &key);
    if (!e) {
        e = calloc(1, sizeof *e);
        if (!e)
            return NULL;
        e->key = key;
        size_t b = bucket_of(p, &key);
        e->next = p->buckets[b];
        p->buckets[b] = e;
        if (++p->n_entries > p->n_buckets)
            grow(p);
    }
    e->count++;
    return e;
}

void peers_release(peers *p, peers_entry *entry)
{
    if (--entry->count > 0)
        return;
    peers_entry **link = &p->buckets[bucket_of(p, &entry->key)];
    while (*link && *link != entry)
        link = &(*link)->next;
    if (*link)
        *link = entry->next;
    p->n_entries--;
    free(entry);
}

int peers_count(const peers *p, const peers_addr *addr)
{
    peers_addr key = count_key(addr);
    const peers_entry *e = find(p, &key);
    return e ? e->count : 0;
}

size_t peers_address_count(const peers *p)
{
    return p->n_entries;
}

/* ---- admission --------------------------------------------------------------------------- */

const char *peers_verdict_name(peers_verdict verdict)
{
    switch (verdict) {
    case PEERS_ADMIT: return "admitted";
    case PEERS_NO_DESCRIPTORS: return "fd_limit";
    case PEERS_ADDRESS_FULL: return "per_address";
    case PEERS_RESERVE: return "reserve";
    }
    return "unknown";
}

peers_verdict peers_admit(const peers *p, const peers_addr *addr, int fd, bool operator_port)
{
    if (fd >= p->fd_hard)
        return PEERS_NO_DESCRIPTORS;
    if (operator_port)
        return PEERS_ADMIT;
    if (fd >= p->fd_game_full)
        return PEERS_NO_DESCRIPTORS;
    if (!addr)
        return PEERS_ADMIT;
    int held = peers_count(p, addr);
    if (p->max_per_address > 0 && held >= p->max_per_address)
        return PEERS_ADDRESS_FULL;
    if (fd >= p->fd_reserve && held >= PEERS_RESERVE_PER_ADDRESS)
        return PEERS_RESERVE;
    return PEERS_ADMIT;
}

/* ---- forwarded addresses ----------------------------------------------------------------- */

/* One X-Forwarded-For item: an address, possibly with a port ("192.0.2.7:4711",
 * "[2001:db8::1]:443"), with white space around it. */
static bool parse_forwarded_item(const char *start, size_t len, peers_addr *out)
{
    char text[PEERS_ADDR_TEXT];
    while (len && (*start == ' ' || *start == '\t')) {
        start++;
        len--;
    }
    while (len && (start[len - 1] == ' ' || start[len - 1] == '\t'))
        len--;
    if (len == 0 || len >= sizeof text)
        return false;
    memcpy(text, start, len);
    text[len] = '\0';

    char *colon = strchr(text, ':');
    if (text[0] == '[') {
        char *close = strchr(text, ']');
        if (close)
            close[1] = '\0'; /* drop ":port" after the brackets */
    } else if (colon && !strchr(colon + 1, ':') && strchr(text, '.')) {
        *colon = '\0'; /* IPv4 with a port */
    }
    return peers_addr_parse(text, out);
}

bool peers_forwarded(const peers *p, const char *x_forwarded_for, const char *x_real_ip,
                     peers_addr *out)
{
    if (x_forwarded_for && x_forwarded_for[strspn(x_forwarded_for, " \t,")]) {
        /* from the right: skip our own proxies; the first other address is the client */
        size_t end = strlen(x_forwarded_for);
        bool found = false;
        while (end > 0) {
            size_t start = end;
            while (start > 0 && x_forwarded_for[start - 1] != ',')
                start--;
            peers_addr addr;
            if (!parse_forwarded_item(x_forwarded_for + start, end - start, &addr))
                return found; /* what lies left of a bad item is not worth believing */
            *out = addr;
            found = true;
            if (!peers_is_trusted(p, &addr))
                return true;
            end = start > 0 ? start - 1 : 0;
        }
        return found; /* every hop a trusted proxy: the leftmost is the client */
    }
    return x_real_ip && parse_forwarded_item(x_real_ip, strlen(x_real_ip), out);
}
