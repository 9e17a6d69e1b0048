/*
 * peers — where the game port's connections come from, how many one address may hold, and
 * which descriptors are kept for whom. net asks it about every accepted socket and every
 * WebSocket upgrade that came through a proxy; it knows nothing of lws.
 *
 * Counting: an address is an IPv4 address or an IPv6 /64 (one home or one rented host is given
 * a whole /64, so counting single IPv6 addresses would count nothing); ::ffff:a.b.c.d is its
 * IPv4 address. The table keeps a count per address for as long as it has connections.
 *
 * Admission (peers_admit), with L the process's open-file limit and `fd` the descriptor a new
 * socket got (the kernel hands out the lowest free one, so fd descriptors are in use):
 *   - fd >= L - PEERS_FD_KEEP: refused on every port. Those last descriptors are the database's,
 *     the log's and libuv's and lws's own, and accept() never fails for want of one.
 *   - fd >= L - PEERS_FD_KEEP - PEERS_FD_OPERATOR: refused on the game port; the metrics
 *     listener (/metrics, /healthz) still gets in, so the operator can see what is going on.
 *   - an address holding max_per_address connections: refused (0: no cap).
 *   - the `reserve`, the L/16 descriptors (at least 64) below those: taken only by addresses
 *     holding fewer than PEERS_RESERVE_PER_ADDRESS connections, so when many addresses have
 *     filled the house a new player (a page load and a WebSocket) and a health check still get
 *     in, and the addresses that already hold a handful do not.
 * A trusted proxy's sockets count against nobody; a WebSocket through it is counted against the
 * client the proxy names when it asks to upgrade.
 *
 * Proxies: anyone can send X-Forwarded-For or X-Real-IP, so they are believed only from a
 * trusted proxy, and then peers_forwarded() takes the rightmost X-Forwarded-For address that is
 * not itself a trusted proxy (the client as the outermost trusted proxy saw it; what a client
 * writes there itself sits further left), or X-Real-IP when there is no X-Forwarded-For.
 */
#ifndef PEERS_H
#define PEERS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

#define PEERS_FD_KEEP 64             /* descriptors never used for connections */
#define PEERS_FD_OPERATOR 16         /* then those only the metrics listener may use */
#define PEERS_RESERVE_MIN 64         /* the reserve is L/16, but at least this */
#define PEERS_RESERVE_PER_ADDRESS 8  /* an address holding this many has no share of it */
#define PEERS_ADDR_TEXT 48           /* room for any address as text */

typedef struct peers_addr {
    int family;              /* AF_INET or AF_INET6 */
    unsigned char bytes[16]; /* IPv4 in the first 4 */
} peers_addr;

/* "192.0.2.7", "2001:db8::1", "[2001:db8::1]", "::ffff:192.0.2.7" (which becomes IPv4). */
bool peers_addr_parse(const char *text, peers_addr *out);
bool peers_addr_from_sockaddr(const struct sockaddr *sa, peers_addr *out);
void peers_addr_format(const peers_addr *addr, char *out, size_t cap);

typedef struct peers_config {
    int max_per_address;                /* 0: no cap */
    int fd_limit;                       /* the open-file limit (RLIMIT_NOFILE) */
    const char *const *trusted_proxies; /* addresses, each item possibly a comma list */
    size_t n_trusted_proxies;
} peers_config;

typedef enum peers_verdict {
    PEERS_ADMIT,
    PEERS_NO_DESCRIPTORS, /* "fd_limit" */
    PEERS_ADDRESS_FULL,   /* "per_address" */
    PEERS_RESERVE,        /* "reserve" */
} peers_verdict;

#define PEERS_VERDICT_COUNT 4

/* A stable name for logs and metrics. */
const char *peers_verdict_name(peers_verdict verdict);

typedef struct peers peers;
typedef struct peers_entry peers_entry;

/* NULL with the reason in error on a trusted proxy that is no address, or out of memory. */
peers *peers_create(const peers_config *config, char *error, size_t error_cap);
void peers_destroy(peers *p);

bool peers_is_trusted(const peers *p, const peers_addr *addr);

/* The verdict on a new socket with descriptor fd. addr is the client it would count against
 * (NULL: nobody, a trusted proxy's socket); operator_port: the metrics listener's. */
peers_verdict peers_admit(const peers *p, const peers_addr *addr, int fd, bool operator_port);

/* Counts one more connection against addr; the entry is what peers_release takes back. NULL
 * when out of memory. */
peers_entry *peers_add(peers *p, const peers_addr *addr);
void peers_release(peers *p, peers_entry *entry);

/* Connections counted against addr (its /64 for IPv6). */
int peers_count(const peers *p, const peers_addr *addr);

/* Addresses holding at least one connection. */
size_t peers_address_count(const peers *p);

/* The client a trusted proxy names (see the top); false if it names none usable. */
bool peers_forwarded(const peers *p, const char *x_forwarded_for, const char *x_real_ip,
                     peers_addr *out);

#endif
