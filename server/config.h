/*
 * config — the server's command-line flags, their defaults and their validation.
 *
 * Promises: config_parse() never prints and never exits; it fills the config (defaults first,
 * then each flag in order, the last occurrence winning) and returns a status, with a one-line
 * reason for CONFIG_INVALID. Strings in the config point into argv or at static defaults,
 * except the repeatable flags' values (config_list), which are copied one item at a time (a
 * value may be a comma list). Flags take their value either as the next argument
 * ("--port 8080") or after '=' ("--port=8080").
 */
#ifndef CONFIG_H
#define CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "log.h"

#define CONFIG_LIST_MAX 16  /* items of one repeatable flag */
#define CONFIG_ITEM_MAX 256 /* bytes of one item, with its NUL */
#define CONFIG_NODE_ID_MAX 32 /* characters of a --node-id */

typedef struct config_list {
    int count;
    char items[CONFIG_LIST_MAX][CONFIG_ITEM_MAX];
} config_list;

typedef struct config {
    int port;                 /* --port: 0..65535; 0 lets the kernel pick a free port */
    const char *bind_address; /* --bind: an IPv4/IPv6 address, a host name or an interface */
    const char *web_root;     /* --web-root: directory of static files */
    const char *db_path;      /* --db: SQLite database file */
    bool durability_full;     /* --durability full (else normal) */
    int db_max_pages;         /* --db-max-pages: a quota on the database's size, 0 for none */
    const char *ledger_key_path; /* --ledger-key: the ledger's key file, "" for the database's path + ".key" */
    int guest_days;           /* --guest-days: unused guests are deleted after N days, 0 never */
    int new_guests_per_minute; /* --new-guests-per-minute: per client address, 0 for no limit */
    log_level log_level;      /* --log-level: error, warn, info, debug */
    int turn_seconds;         /* --turn-seconds: time a seat has to act (house_limits.h's range) */
    int reconnect_seconds;    /* --reconnect-seconds: how long a dropped seat is kept */
    int ping_seconds;         /* --ping-seconds: idle WebSocket gets a ping after this */
    int bot_delay_ms;         /* --bot-delay-ms: a bot's pause before acting */
    int deal_seed;            /* --deal-seed: tests only; every new table's deals from this seed, 0 random */
    int next_hand_seconds;    /* --next-hand-seconds: pause between hands */
    int empty_table_seconds;  /* --empty-table-seconds: an unattended table closes after this */
    int max_tables;           /* --max-tables: open tables at most */
    int hello_seconds;        /* --hello-seconds: a WebSocket must say hello within this */
    int max_per_address;      /* --max-connections-per-address: 0 for no cap */
    config_list trusted_proxies; /* --trusted-proxy: IP addresses */
    config_list allowed_origins; /* --allow-origin: "scheme://host[:port]" */
    const char *metrics_bind; /* --metrics-bind: address of the /metrics listener */
    int metrics_port;         /* --metrics-port: 0 for no /metrics listener */
    const char *node_id;      /* --node-id: "" alone; else letters, digits, '-', at most 32 (PostgreSQL only) */
    const char *node_url;     /* --node-url: the path a client reaches this node at, "" for /n/<node-id>/ws */
    int lease_seconds;        /* --lease-seconds: a node's tables are taken over this long after its last heartbeat */
} config;

typedef enum config_status {
    CONFIG_OK,
    CONFIG_SHOW_HELP,    /* --help was given: print config_usage() and exit 0 */
    CONFIG_SHOW_VERSION, /* --version was given: print config_version() and exit 0 */
    CONFIG_INVALID,      /* a bad flag or value: print the reason and exit 2 */
} config_status;

/* The defaults, as documented by --help. */
void config_set_defaults(config *cfg);

/* Parses argv[1..argc-1]; on CONFIG_INVALID, error holds the reason (NUL-terminated). */
/* A node's name: 1 to CONFIG_NODE_ID_MAX letters, digits and '-'. */
bool config_node_id_valid(const char *id);

config_status config_parse(config *cfg, int argc, char *const argv[], char *error,
                           size_t error_cap);

/* Writes the --help text. */
void config_usage(FILE *out, const char *program);

/* "teahouse 0.1.0". */
const char *config_version(void);

#endif
